"""The base of Ratuki's phase panels (``ready``, ``play``, ``score``, ``over``, each with its ``.kv``): a panel is
one pane of the screen's pane manager, draws the state on show and forwards every tap to the
:class:`~companion.ui.screens.ratuki.screen.RatukiScreen`."""

from __future__ import annotations

from typing import Any

from kivy.properties import ObjectProperty
from kivy.uix.screenmanager import Screen

from companion.games.ratuki import score_sheet
from companion.ui.screens.ratuki.sheet import RatukiSheet


class RatukiPanel(Screen):
    """One phase's pane; made with ``screen=`` the Ratuki screen, whose properties its kv rule binds to."""

    screen = ObjectProperty(None)

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.screen.state
        return state

    def fill(self) -> None:
        """Override: draw what this pane shows from the state on show (called on every refresh)."""

    def fill_sheet(self, sheet: RatukiSheet) -> None:
        """``sheet`` filled with the game's score sheet, each column in its player's colour."""
        sheet.fill(score_sheet(self.state), [p.colour for p in self.screen.players])
