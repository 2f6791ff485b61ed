"""Rat-a-Tat Roll's panels of the end: every hand revealed value by value, then the scores."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.i18n import _, and_list, ngettext
from companion.ui.contrast import legible_rgba
from companion.ui.fit import text_width
from companion.ui.screens import load_kv
from companion.ui.screens.ratatat.panels import RatatatPanel


class FinalRevealPanel(RatatatPanel):
    """The final reveal: the next player's cards, value by value, left to right; their total to confirm."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        name = screen.revealing()
        size = len(state["rows"][state["players"].index(name)])
        entered = " ".join(str(v) for v in screen.hand_values) or "-"
        screen.prompt = ngettext(
            "Reveal: {name} turns over {n} card, left to right. Entered: {entered}",
            "Reveal: {name} turns over {n} cards, left to right. Entered: {entered}",
            size,
        ).format(name=name, n=size, entered=entered)
        done = {p: sum(v) for p, v in state["hands"].items()}
        screen.info = "  ".join(f"{p}: {t}" for p, t in done.items())
        values = [int(v) for v in state["deck"]]
        self.add_row(self.value_grid(values, screen.hand_value))
        ready = len(screen.hand_values) == size
        total = self.name_button(
            name,
            # TRANSLATORS: after a player's name on a button ("Ana: total 13"); keep the colon and space
            _(": total {n}").format(n=sum(screen.hand_values)),
            lambda: screen.hand_done(name),
            kind="AccentButton",
            disabled=not ready,
        )
        clear = self.button(_("Clear"), screen.hand_clear)
        delete = self.button(_("Delete last"), screen.hand_delete, disabled=not screen.hand_values)
        self.add_row(self.row([clear, delete, total]))


class OverPanel(RatatatPanel):
    """The end: everyone's cards added up, lowest first; Home and Rematch (panels.kv)."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        scores = screen.engine.scores(state)
        winners = scores["winners"]
        screen.prompt = ngettext("{names} wins with {score}!", "{names} win with {score}!", len(winners)).format(
            names=and_list(winners), score=scores[winners[0]]
        )
        ranked = sorted(state["players"], key=lambda p: scores[p])
        # the hint only where there is room: five rows and Home must fit under a notice banner as well
        screen.info = _("Lowest total wins: everyone's cards added up") if len(ranked) <= 3 else ""
        colours = {p.name: p.colour for p in screen.players}
        self.add_row(self.score_table(ranked, {p: int(scores[p]) for p in ranked}, winners, colours))

    def score_table(
        self, ranked: list[str], totals: dict[str, int], winners: list[str], colours: dict[str, str]
    ) -> BoxLayout:
        """One row a player, lowest total first: WIN, the name (shortened with an ellipsis when long), the cards
        added up (16 px, whole) and the total at the right edge, always whole. Sized for five players of the
        longest names with five cards each in the panel beside the board."""
        row_h = dp(44) if len(ranked) <= 3 else dp(38)
        table = BoxLayout(
            orientation="vertical",
            size_hint_y=None,
            height=row_h * len(ranked) + dp(2) * (len(ranked) - 1),
            spacing=dp(2),
        )
        # the column as wide as the word ("GUANYA", "승리"), at least as before
        win_w = max(dp(46), text_width(_("WIN"), dp(18), bold=True) + dp(6))
        for name in ranked:
            won = name in winners
            row = BoxLayout(size_hint_y=None, height=row_h, spacing=dp(6))
            row.add_widget(
                _cell(_("WIN") if won else "", dp(18), (1, 0.85, 0.3, 1), bold=True, width=win_w, halign="center")
            )
            colour = legible_rgba(colours.get(name, "#ffffff"))  # the player's colour, readable on the dark
            # one line: the name takes the room the cards and the total leave (text at least 16 px: the cards
            # were 14 px under the name and shrank to 10 px when long)
            row.add_widget(_cell(name, dp(20) if len(ranked) <= 3 else dp(18), colour, bold=won))
            values = " + ".join(str(v) for v in self.state["hands"][name])
            cards = _cell(values, dp(16), (0.75, 0.75, 0.8, 1), halign="right", cut=False)
            cards.size_hint_x, cards.width = None, text_width(values, dp(16)) + dp(4)
            row.add_widget(cards)
            row.add_widget(
                _cell(str(totals[name]), dp(28), (1, 1, 1, 1), bold=True, width=dp(60), halign="right", cut=False)
            )
            table.add_widget(row)
        return table


def _cell(
    text: str,
    font: float,
    colour: Any,
    *,
    bold: bool = False,
    width: float | None = None,
    halign: str = "left",
    cut: bool = True,
) -> Label:
    """A table label kept inside its box: one line shortened with an ellipsis (a total, sized to fit, is never
    cut: ``cut`` False)."""
    label = Label(text=text, font_size=font, color=colour, bold=bold, halign=halign, valign="middle")
    if width is not None:
        label.size_hint_x, label.width = None, width
    label.shorten, label.shorten_from = cut, "right"
    label.bind(size=lambda w, size: setattr(w, "text_size", size))
    return label


load_kv("ratatat/end")
