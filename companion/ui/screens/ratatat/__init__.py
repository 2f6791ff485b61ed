"""Rat-a-Tat Roll's screen, one module a part: ``board`` (the ring and the player tiles), ``panels`` (the base of
the phase panels; their kv in ``panels.kv``), ``turn``, ``picture`` and ``end`` (the panels of each phase), and
``screen`` (:class:`RatatatScreen`: the panel for the phase on show, the half-made choice, the hardware)."""

from __future__ import annotations

from companion.ui.screens.ratatat.board import PlayerTile, RingBoard, Swatch
from companion.ui.screens.ratatat.screen import RatatatScreen

__all__ = ["PlayerTile", "RatatatScreen", "RingBoard", "Swatch"]
