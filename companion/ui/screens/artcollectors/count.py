"""Art Collectors before and after play: the setup summary, and the final count (each player's tokens per
painting, who holds the black cat). Taps are forwarded to the screen; layout in ``count.kv``."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.togglebutton import ToggleButton
from kivy.utils import escape_markup

from companion.games.artcollectors.wording import painting_characters
from companion.i18n import _, ngettext
from companion.ui.fit import keep_fitted, shorten, text_width
from companion.ui.screens import load_kv
from companion.ui.screens.artcollectors.widgets import (
    ACCountCell,
    ACPanel,
    ACTile,
    hex_rgba,
    name_text,
    painting_colour,
)
from companion.ui.widgets import readable_text


def tab_text(name: str, held: int, room: float, widest: float) -> tuple[str, float]:
    """A count tab: "name · tokens" on one line when every tab's fits (``widest``), else the name (shortened
    if need be) over the number of tokens, which is always shown whole."""
    if widest <= room:
        return f"{name} · {held}", dp(18)
    size = dp(16)  # drawn at 16 px, the smallest text (it asked for 15)
    return f"{shorten(name, room, size)}\n" + ngettext("{n} token", "{n} tokens", held).format(n=held), size


class ACSummary(ACPanel):
    """What was set up: players, paintings in play, the mode."""

    def fill(self, state: dict[str, Any]) -> None:
        """What was set up, and how the game will be kept (the tracker, or the final count only)."""
        ids = self.ids
        names = ", ".join(state["players"])
        mode = _("pile tracker") if state["settings"]["tracker"] else _("final count only")
        game = _("full game") if state["settings"]["full_game"] else _("basic game")
        ids.players.text = ngettext(
            "{n} player: {names} · {mode} · {game}", "{n} players: {names} · {mode} · {game}", len(state["players"])
        ).format(n=len(state["players"]), names=names, mode=mode, game=game)
        tokens = sum(int(info["tokens"]) for info in state["paintings"].values())
        removed = state["removed"]
        text = _("{n} paintings, {tokens} tokens in the bag").format(n=len(state["order"]), tokens=tokens)
        if removed:
            text = ngettext(
                "{text} · painting {paintings} and its tokens are out",
                "{text} · paintings {paintings} and their tokens are out",
                len(removed),
            ).format(text=text, paintings=", ".join(map(str, removed)))
        ids.paintings.text = text
        ids.chips.clear_widgets()
        for key in state["order"]:
            info = state["paintings"][key]
            ids.chips.add_widget(
                ACTile(
                    text=f"{key}\n[size={int(dp(16))}]×{info['tokens']}[/size]",
                    tile=painting_colour(int(key)),
                    halign="center",
                )
            )
        if state["settings"]["tracker"]:
            first = state["players"][int(state["settings"]["first_player"])]
            ids.rules.text = _(
                "{name} draws first. Enter every token as it comes out of the bag; the screen follows busts, steals "
                "and abilities, refuses what the rules forbid, and scores the piles when the bag is empty.\n"
                "Tap this turn's tokens to choose the one on top, then Stop (or press your button)."
            ).format(name=first)
            ids.go.text = _("Start tracking")
        else:
            ids.rules.text = _(
                "Play with the real bag. At the end, enter each player's tokens per painting and who holds the "
                "black-cat token: the most tokens win a painting; a tie goes to the black-cat holder, even if "
                "not tied. Tokens 1 point (twins 2) plus the paintings won."
            )
            ids.go.text = _("Count the tokens")


class ACCount(ACPanel):
    """Tokens per painting per player, and who holds the black cat."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.cells: dict[str, ACCountCell] = {}

    def build(self, state: dict[str, Any]) -> None:
        """One counter per painting in play (made once a game)."""
        self.cells = {}
        grid = self.ids.cells
        grid.clear_widgets()
        for key in state["order"]:
            cell = ACCountCell(screen=self.screen, painting=int(key))
            self.cells[key] = cell
            grid.add_widget(cell)

    def fill(self, state: dict[str, Any]) -> None:
        """The tabs (one per player), the shown player's count per painting and who holds the black cat."""
        screen = self.screen
        tabs = self.ids.tabs
        tabs.clear_widgets()
        totals = [sum(int(n) for n in row.values()) for row in state["counts"]]
        # One style for the row: every tab on one line, or (when one of them does not fit) every tab on two.
        players = state["players"]
        widest = max(text_width(f"{name} · {held}", dp(18)) for name, held in zip(players, totals, strict=True))
        for seat, name in enumerate(state["players"]):
            held = totals[seat]
            colour = state["colours"][seat]
            tab = ToggleButton(
                group="ac-count-seat",
                state="down" if seat == screen.count_seat else "normal",
                allow_no_selection=False,
                halign="center",
                valign="middle",
                background_normal="",
                background_down="",
                background_color=hex_rgba(colour) if seat == screen.count_seat else [0.22, 0.24, 0.32, 1],
                color=readable_text(colour) if seat == screen.count_seat else (1, 1, 1, 1),
            )
            tab.bind(on_release=lambda _b, s=seat: screen.show_seat(s))
            tabs.add_widget(tab)
            keep_fitted(tab, partial(tab_text, name, held, widest=widest))
        for key, cell in self.cells.items():
            info = state["paintings"][key]
            left = int(info["tokens"]) - sum(int(row[key]) for row in state["counts"])
            character = escape_markup(painting_characters(state, key, short=True))
            if int(info["points"]) != 1:
                # TRANSLATORS: the twins' tokens count 2 points each
                character = _("{character} ×2 pts").format(character=character)
            cell.caption = _("[b]{painting}[/b] {character} · {n} left").format(
                painting=key, character=character, n=left
            )
            cell.value = int(state["counts"][screen.count_seat][key])
            cell.full = left == 0
        cat = self.ids.cat
        cat.clear_widgets()
        choices: list[tuple[int | None, str]] = [*enumerate(state["players"]), (None, _("Nobody"))]
        for holder, name in choices:
            chosen = state["black_cat_set"] and state["black_cat"] == holder
            button = ToggleButton(
                group="ac-black-cat",
                state="down" if chosen else "normal",
                halign="center",
                valign="middle",
                background_normal="",
                background_down="",
                background_color=[0.55, 0.45, 0.1, 1] if chosen else [0.22, 0.24, 0.32, 1],
            )
            button.bind(on_release=lambda _b, s=holder: screen.set_black_cat(s))
            cat.add_widget(button)
            keep_fitted(button, partial(name_text, name, size=dp(17), smaller=dp(16)))


load_kv("artcollectors/count")
