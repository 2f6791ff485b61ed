"""Ratuki's pane between rounds: how a round starts, the score sheet so far and *Start round N*."""

from __future__ import annotations

from companion.ui.screens import load_kv
from companion.ui.screens.ratuki.panels import RatukiPanel


class RatukiReadyPanel(RatukiPanel):
    """Before each round: the sheet of the rounds played and the start button (layout in ready.kv)."""

    def fill(self) -> None:
        self.fill_sheet(self.ids.sheet)


load_kv("ratuki/ready")
