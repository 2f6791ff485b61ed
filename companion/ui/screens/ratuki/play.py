"""Ratuki's pane while a round is played: the verdict banner, the quiet-table prompt, the round clock with Pause
and *Different stacks?*, and beside them the round's stacks and ties with the two ways to end the round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.games.base import Player
from companion.games.ratuki import round_stats
from companion.ui.screens import load_kv
from companion.ui.screens.ratuki.panels import RatukiPanel
from companion.ui.screens.ratuki.verdict import VerdictText


class RatukiPlayPanel(RatukiPanel):
    """The playing pane (layout in play.kv): the banner shows the screen's verdict, every button calls the screen."""

    def build(self, players: Sequence[Player]) -> None:
        """The stacks-and-ties table's rows, once a game."""
        self.ids.stats.build(players, self.screen.round_text)

    def fill(self) -> None:
        self.ids.stats.update(self.screen.round_text, round_stats(self.state))

    def prerender(self, headline: str, detail: str, colour: Any) -> None:
        """One verdict's headline (and detail) into the texture cache, at the banner's sizes."""
        head, tail = self.ids.verdict_headline, self.ids.verdict_detail
        VerdictText.render(headline, head.font_size, True, colour, head.wrap_width)
        if detail:
            VerdictText.render(detail, tail.font_size, False, colour, tail.wrap_width)


load_kv("ratuki/play")
