"""Art Collectors' tiles and small widgets: painting colours, tokens and paintings as tiles, a count cell, a place
in the ranking, and the panels' base. Layout in ``widgets.kv``."""

from __future__ import annotations

import colorsys
from typing import Any

from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.utils import get_color_from_hex

from companion.ui.fit import keep_fitted, shorten, text_width, two_lines
from companion.ui.screens import load_kv

PILE_TOKENS_SHOWN = 6


def painting_colour(number: int) -> list[float]:
    """A distinct tile colour per painting (hue around the wheel), dark enough for white text."""
    r, g, b = colorsys.hsv_to_rgb(((number - 1) * 0.093) % 1.0, 0.62, 0.62)
    return [r, g, b, 1.0]


def pile_depth_shown(state: dict[str, Any]) -> int:
    """Tokens shown per pile: piles are blind stacks ("sense mirar les fitxes anteriors") and nobody may help
    spot equal tokens, so only the top one shows unless the table turned steal hints on."""
    return PILE_TOKENS_SHOWN if state["settings"]["steal_hints"] else 1


def hex_rgba(colour: str) -> list[float]:
    return list(get_color_from_hex(colour))


def chunks_from_gives(gives: list[int]) -> list[dict[str, int]]:
    """Robin Tell's deal: consecutive tokens given to the same player travel as one stack (order kept)."""
    deal: list[dict[str, int]] = []
    for seat in gives:
        if deal and deal[-1]["to"] == seat:
            deal[-1]["count"] += 1
        else:
            deal.append({"to": seat, "count": 1})
    return deal


def name_text(name: str, room: float, size: float, smaller: float) -> tuple[str, float]:
    """A player's name on a button: one line at ``size`` when it fits, else two lines at ``smaller``."""
    if text_width(name, size) <= room:
        return name, size
    return two_lines(name, room, smaller), smaller


class ACChip(Button):
    """A tappable token or painting tile."""

    tile = ListProperty([0.3, 0.3, 0.3, 1])
    ink = ListProperty([1, 1, 1, 1])


class ACTile(Label):
    """A token shown in a pile (not tappable)."""

    tile = ListProperty([0.3, 0.3, 0.3, 1])


class ACRank(BoxLayout):
    """A player's place in the final ranking: place and name (wrapped or shortened to fit), the total in full
    beside them, and how it is made up below."""

    tile = ListProperty([0.3, 0.3, 0.3, 1])
    ink = ListProperty([1, 1, 1, 1])

    def __init__(self, place: str, name: str, total: int, detail: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        ids = self.ids
        ids.total.text = str(total)

        def head(room: float) -> tuple[str, float]:
            # one line of 16 px (text is never smaller): the place, then the name, shortened when long
            return shorten(f"{place} {name}", room, dp(16), bold=True), dp(16)

        keep_fitted(ids.head, head, margin=dp(2))
        ids.detail.text = detail  # 16 px, wrapped to two lines where the tile is narrow


class ACCountCell(BoxLayout):
    """Counter for one painting of the shown player: − value +."""

    screen = ObjectProperty(None, allownone=True)
    painting = NumericProperty(0)
    caption = StringProperty("")
    value = NumericProperty(0)
    full = BooleanProperty(False)


class ACPanel(BoxLayout):
    """Base of the screen's panels: they know their screen."""

    screen = ObjectProperty(None, allownone=True)


load_kv("artcollectors/widgets")
