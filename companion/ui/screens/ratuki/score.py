"""Ratuki's pane after a round: a score row per player (score pile, cards left, hand, Save) under the column
heads; each row saves through the screen."""

from __future__ import annotations

from kivy.utils import get_color_from_hex

from companion.ui.screens import load_kv
from companion.ui.screens.ratuki.panels import RatukiPanel
from companion.ui.screens.ratuki.sheet import RatukiScoreRow
from companion.ui.widgets import readable_text


class RatukiScorePanel(RatukiPanel):
    """The score entry (layout in score.kv); ``rows`` by seat, made once a game and kept between rounds."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.rows: dict[int, RatukiScoreRow] = {}

    def build(self) -> None:
        """A row per player, in their colour, its counters bounded by the deck size."""
        screen = self.screen
        grid = self.ids.score_rows
        grid.clear_widgets()
        self.rows = {}
        deck = screen.settings["deck_size"]
        for player in screen.players:
            row = RatukiScoreRow(screen, player.seat, name=player.name)
            row.colour = get_color_from_hex(player.colour)
            row.text_colour = readable_text(player.colour)
            row.show_hand = bool(screen.settings["count_hand"])
            row.ids.pile.maximum = deck * len(screen.players)
            row.ids.left.maximum = deck
            row.changed()
            grid.add_widget(row)
            self.rows[player.seat] = row

    def fill(self) -> None:
        """The counts saved this round (a row not saved yet keeps what is being counted while scoring)."""
        screen, state = self.screen, self.state
        entries = state["entries"]
        stopped = state.get("stopped") or {}
        out_seat = stopped.get("seat") if stopped.get("reason") == "out" else None
        for seat, row in self.rows.items():
            row.went_out = seat == out_seat and state["phase"] == "scoring"
            row.ids.left.maximum = 0 if row.went_out else screen.settings["deck_size"]
            entry = entries.get(screen.name_of(seat))
            was_saved = row.saved
            row.saved = entry is not None
            if entry is not None:
                row.ids.pile.value = entry["score_pile"]
                row.ids.left.value = entry["left"]
                row.hand = entry["hand"]
            elif was_saved or state["phase"] != "scoring":
                row.ids.pile.value = row.ids.left.value = 0
                row.hand = 0
            row.changed()


load_kv("ratuki/score")
