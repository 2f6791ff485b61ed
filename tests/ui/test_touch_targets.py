"""Every visible button on every screen is at least 48 px in both directions (finger-sized at 800×480)."""

from __future__ import annotations

import pytest
from ui_support import UI

from companion.games import GAMES, engine
from companion.games.base import Player, Setup
from companion.ui.screens import SCREENS

MIN_PX = 48


def small_buttons(ui: UI) -> list[str]:
    from kivy.uix.button import Button
    from kivy.uix.togglebutton import ToggleButton

    found = []
    for widget in ui.screen().walk(restrict=True):
        if not isinstance(widget, Button | ToggleButton) or widget.opacity == 0 or widget.disabled:
            continue
        if widget.width < 1 or widget.height < 1:
            continue  # collapsed (hidden) widgets
        if min(widget.width, widget.height) < MIN_PX:
            found.append(f"{widget.text!r} {widget.width:.0f}×{widget.height:.0f}")
    return found


@pytest.mark.parametrize("name", [n for n in SCREENS if n not in ("setup",)])
def test_tool_screens(ui: UI, name: str) -> None:
    ui.go(name)
    assert small_buttons(ui) == []


def test_setup_screen(ui: UI) -> None:
    ui.screen("setup").prepare(next(iter(GAMES)))
    ui.go("setup")
    assert small_buttons(ui) == []


@pytest.mark.parametrize("game", list(GAMES))
def test_game_screens_at_start(ui: UI, game: str) -> None:
    eng = engine(game)
    players = tuple(
        Player(n, c, i + 1)
        for i, (n, c) in enumerate(
            [("Ana", "#e53935"), ("Bo", "#1e88e5"), ("Cai", "#fdd835")][: max(2, eng.min_players)]
        )
    )
    ui.app.start_game(Setup(game, players, seed=1))
    ui.advance(5)
    ui.screenshot(f"targets-{game}")
    assert small_buttons(ui) == []
