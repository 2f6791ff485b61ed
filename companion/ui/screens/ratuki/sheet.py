"""Ratuki's tables: the score sheet (names and totals pinned, the rounds between them scrolled), the end-of-round
score entry (a row per player: score pile, cards left, hand, Save) and the round's stacks and ties while playing.
Layout in ``sheet.kv``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from companion.games.base import Player
from companion.i18n import _, ngettext
from companion.ui.contrast import legible_rgba
from companion.ui.fit import largest_size, text_width
from companion.ui.screens import load_kv


def _fit_name(cell: Any, width: float) -> None:
    """A name cell of the score sheet: 18 px, or 16 px when the whole name only fits that way."""
    cell.font_size = largest_size(lambda size: text_width(cell.text, size, bold=True) <= width, dp(18), dp(16))


class RatukiSheet(BoxLayout):
    """The score sheet (rows of ``score_sheet``): the names row and the totals row stay in view, the rounds
    between them scroll, showing the latest round. Layout in ratuki.kv."""

    ROUND_COLUMN = dp(64)  # narrow "Round" column: the names get the width (5 × 14 characters fit)
    hidden_rounds = NumericProperty(0)  # rounds scrolled out of view (0: every round shows)
    cue_text = StringProperty("")

    def on_kv_post(self, *_args: Any) -> None:
        scroll = self.ids.scroll
        self._snap_soon = Clock.create_trigger(self._snap, 0.2)
        scroll.bind(scroll_y=self._cue, height=self._cue)
        scroll.bind(scroll_y=self._snap_soon)
        self.ids.rounds.bind(height=self._cue)

    def _snap(self, *_args: Any) -> None:
        """Once a swipe has come to rest, whole rows: no round is left cut in half at the edge."""
        scroll, rounds = self.ids.scroll, self.ids.rounds
        rows = (rounds.height - scroll.height) / dp(32)
        if rows < 0.5:
            return
        target = round(scroll.scroll_y * rows) / rows
        if abs(target - scroll.scroll_y) > 1e-3:
            scroll.scroll_y = min(1.0, max(0.0, target))

    def _cue(self, *_args: Any) -> None:
        """Say which way the rounds out of view are (earlier above the latest, later below the first)."""
        scroll, rounds = self.ids.scroll, self.ids.rounds
        row = dp(32)
        hidden = max(0, round((rounds.height - scroll.height) / row))
        self.hidden_rounds = hidden
        if not hidden:
            self.cue_text = ""
            return
        above = round(hidden * (1 - min(1.0, max(0.0, scroll.scroll_y))))  # rows scrolled off the top
        below = hidden - above
        if above and below:
            self.cue_text = _("more rounds above and below: swipe")
        elif above:
            self.cue_text = ngettext(
                "{n} earlier round above: swipe down", "{n} earlier rounds above: swipe down", above
            ).format(n=above)
        else:
            self.cue_text = ngettext(
                "{n} later round below: swipe up", "{n} later rounds below: swipe up", below
            ).format(n=below)

    def fill(self, rows: list[list[str]], colours: list[str]) -> None:
        """Show ``rows`` (header, rounds..., totals); ``colours`` are the players' colours, column by column."""
        grids = (self.ids.head, self.ids.rounds, self.ids.total)
        for grid in grids:
            grid.clear_widgets()
            grid.cols = len(rows[0])
        for r, cells in enumerate(rows):
            grid = grids[0] if r == 0 else grids[2] if r == len(rows) - 1 else grids[1]
            for c, text in enumerate(cells):
                cell = Factory.RatukiCell(text=text)
                if c == 0:
                    cell.size_hint_x, cell.width = None, self.ROUND_COLUMN
                if r == 0 and c > 0:
                    cell.color = legible_rgba(colours[c - 1])  # the player's colour, readable on the dark
                    cell.bold = True
                    cell.bind(width=_fit_name)  # a 14-letter bold name: 16 px rather than shortened
                if r == len(rows) - 1:
                    cell.bold = True
                    cell.font_size = dp(24)
                    cell.height = dp(40)
                grid.add_widget(cell)
        self.ids.scroll.scroll_y = 0  # the latest round in view


class RatukiCounter(BoxLayout):
    """A count of cards: − / the value / + (never below 0 or above ``maximum``); tapping the value opens a number
    pad, so a 35-card pile is typed (3, 5, OK) rather than stepped."""

    value = NumericProperty(0)
    locked = BooleanProperty(False)
    maximum = NumericProperty(999)
    title = StringProperty("")  # what the pad asks for ("Ana: score pile")

    def step(self, delta: int) -> None:
        self.value = max(0, min(int(self.maximum), int(self.value) + delta))

    def type_value(self) -> Any:
        """Open the number pad for this count (returns the open pad: tests press its keys)."""
        from companion.ui.numberpad import NumberPad

        if self.locked:
            return None
        pad = NumberPad(self.title, int(self.value), self._typed, maximum=int(self.maximum))
        pad.open()
        return pad

    def _typed(self, value: int) -> None:
        self.value = max(0, min(int(self.maximum), value))


class RatukiScoreRow(BoxLayout):
    """One player's end-of-round counts: score pile, cards left (draw + discard), hand if it counts."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    text_colour = ListProperty([0, 0, 0, 1])
    saved = BooleanProperty(False)
    went_out = BooleanProperty(False)  # this player called out: no cards left, the counter stays at 0
    show_hand = BooleanProperty(False)
    hand = NumericProperty(0)
    points_text = StringProperty("")

    def __init__(self, screen: Any, seat: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.screen = screen
        self.seat = seat

    def counts(self) -> dict[str, int]:
        out = {"score_pile": int(self.ids.pile.value), "left": int(self.ids.left.value)}
        if self.show_hand:
            out["hand"] = int(self.hand)
        return out

    def changed(self) -> None:
        counts = self.counts()
        points = counts["score_pile"] - counts["left"] - counts.get("hand", 0)
        self.points_text = f"{points:+d}"

    def cycle_hand(self) -> None:
        self.hand = (int(self.hand) + 1) % 4
        self.changed()

    def save(self) -> None:
        self.screen.save_score(self.seat, self.counts())


class RatukiStats(GridLayout):
    """The round's table while playing: "Round N" over the names, and each player's stacks taken and ties."""

    def build(self, players: Sequence[Player], round_text: str) -> None:
        """A row per player (made once a game)."""
        self.clear_widgets()
        self.labels: dict[str, tuple[Any, Any]] = {}
        self._round_cell = Factory.RatukiCell(text=round_text, halign="left", bold=True, height=dp(28))
        self.add_widget(self._round_cell)
        for text in (_("stacks"), _("ties")):
            self.add_widget(Factory.RatukiCell(text=text, font_size=dp(16), color=(0.75, 0.75, 0.8, 1), height=dp(28)))
        for player in players:
            name = Factory.RatukiCell(
                text=player.name, halign="left", shorten_from="right", color=legible_rgba(player.colour)
            )
            name.bold = True
            stacks, ties = Factory.RatukiCell(), Factory.RatukiCell()
            for widget in (name, stacks, ties):
                widget.height = dp(28)
                self.add_widget(widget)
            self.labels[player.name] = (stacks, ties)

    def update(self, round_text: str, stats: dict[str, dict[str, int]]) -> None:
        """The round's number and each player's stacks and ties (``round_stats``)."""
        self._round_cell.text = round_text
        for name, counts in stats.items():
            labels = self.labels.get(name)
            if labels:
                labels[0].text = str(counts["stacks"])
                labels[1].text = str(counts["ties"])


load_kv("ratuki/sheet")
