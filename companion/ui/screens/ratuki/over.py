"""Ratuki's pane at the end of a game: who won, the whole score sheet, Home and Rematch."""

from __future__ import annotations

from companion.ui.screens import load_kv
from companion.ui.screens.ratuki.panels import RatukiPanel


class RatukiOverPanel(RatukiPanel):
    """The game is over: the result line in the winner's colour over the sheet (layout in over.kv)."""

    def fill(self) -> None:
        self.fill_sheet(self.ids.sheet)


load_kv("ratuki/over")
