"""Art Collectors tracker (#21.14): the tokens under the top one of a run are the thief's to take or to leave
("també els les pots robar"): a steal from a run of equal tokens asks, and "Only the top one" takes one."""

from __future__ import annotations

from typing import Any

import pytest
from ui_support import UI

from companion.games.base import Player, Setup

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2), Player("Cy", "#fdd835", 3))


def ana_piles_two_sevens(ui: UI) -> Any:
    ui.app.start_game(Setup("artcollectors", PLAYERS, {"tracker": True}))
    ui.advance(3)
    screen = ui.screen()
    ui.tap_text("Start tracking")
    for code in ("5", "2C", "7", "7"):  # the cheater lets the second 7 pass
        ui.tap(screen.picks[code])
    ui.tap(screen.tracker.ids.stop)
    assert screen.session.state["piles"][0][-2:] == ["7", "7"]
    ui.tap(screen.picks["7"])  # Bo draws a 7: Ana's two 7s may be stolen
    return screen


@pytest.mark.parametrize("choice, taken, left", [("Only the top one", 1, 3), ("All 2", 2, 2)])
def test_a_run_on_top_asks_how_many(ui: UI, choice: str, taken: int, left: int) -> None:
    screen = ana_piles_two_sevens(ui)
    ui.tap(ui.find("Steal from Ana"))
    from kivy.uix.modalview import ModalView

    view = next(w for w in ui.window.children if isinstance(w, ModalView))
    assert "Ana has 2 × 7 on top" in ui.texts(view)
    ui.screenshot("artcollectors-steal-how-many")
    ui.tap(ui.find(choice, root=view))
    state = screen.session.state
    assert state["turn"]["tokens"] == ["7"] * (taken + 1) and len(state["piles"][0]) == left
    assert screen.session.actions[-1] == {"type": "steal", "from": 0, "count": taken}
    assert f"Bo steals {taken} × 7 from Ana" in screen.header_text


def test_one_token_on_top_is_stolen_without_asking(ui: UI) -> None:
    ui.app.start_game(Setup("artcollectors", PLAYERS, {"tracker": True}))
    ui.advance(3)
    screen = ui.screen()
    ui.tap_text("Start tracking")
    ui.tap(screen.picks["7"])
    ui.tap(screen.tracker.ids.stop)
    ui.tap(screen.picks["7"])
    ui.tap(ui.find("Steal from Ana"))
    assert screen.session.actions[-1] == {"type": "steal", "from": 0}
    assert screen.session.state["piles"][0] == []
