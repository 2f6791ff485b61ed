"""Robin Tell's deal in Art Collectors: the taken pile handed out token by token (tokens in a row to one player
stay in order), then dealt as one action. The plan lives on the screen; layout in ``robin.kv``."""

from __future__ import annotations

from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.label import Label

from companion.games.artcollectors import painting_of, plain
from companion.i18n import _, ngettext
from companion.ui.fit import keep_fitted
from companion.ui.screens import load_kv
from companion.ui.screens.artcollectors.widgets import ACPanel, ACTile, hex_rgba, name_text, painting_colour
from companion.ui.widgets import readable_text


class ACRobin(ACPanel):
    """Robin Tell's deal: give the taken pile out token by token."""

    def fill(self, state: dict[str, Any], plan: dict[str, Any]) -> None:
        """The tokens still to give (top first), a button per player, what each gets so far; Deal once all are
        given."""
        screen = self.screen
        ids = self.ids
        names = state["players"]
        remaining = plan["tokens"][len(plan["gives"]) :]
        taken = len(plan["tokens"])
        ids.title.text = ngettext(
            "Robin Tell takes {name}'s {n} token: hand it out (tokens in a row to one player stay in order)",
            "Robin Tell takes {name}'s {n} tokens: hand them all out, top first (tokens in a row to one player stay "
            "in order)",
            taken,
        ).format(name=names[plan["target"]], n=taken)
        ids.tokens.clear_widgets()
        for code in remaining[:8]:
            ids.tokens.add_widget(ACTile(text=plain(code), tile=painting_colour(painting_of(code))))
        if not remaining:
            ids.tokens.add_widget(Label(text=_("all given"), font_size=dp(16)))
        ids.givers.clear_widgets()
        for seat, name in enumerate(names):
            colour = state["colours"][seat]
            button = Button(
                halign="center",
                valign="middle",
                background_normal="",
                background_color=hex_rgba(colour),
                color=readable_text(colour),
                disabled=not remaining,
            )
            button.bind(on_release=lambda _b, s=seat: screen.robin_give(s))
            ids.givers.add_widget(button)
            keep_fitted(button, partial(name_text, name, size=dp(18), smaller=dp(16)))
        given: dict[int, list[str]] = {}
        for code, seat in zip(plan["tokens"], plan["gives"], strict=False):
            given.setdefault(seat, []).append(plain(code))
        ids.plan.text = " · ".join(
            _("{name} gets {tokens}").format(name=names[s], tokens=", ".join(c)) for s, c in given.items()
        ) or _("nothing given yet")
        ids.deal.disabled = bool(remaining)


load_kv("artcollectors/robin")
