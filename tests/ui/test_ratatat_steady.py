"""Rat-a-Tat controls never move under a finger (#21 item 6): the prompt and the info line above the keypads keep
one height, so a keypad stays put while it is used. The card keypad jumped 34 px after the first card entered
after a reshuffle (a tap meant for 8 entered 7); the final-reveal keypad moved 16 px when "Entered: ..." wrapped.
Real touches, banner shown and hidden; screenshots tests/screenshots/ratatat-steady-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_ratatat import LONG_NAMES, buttons, play_until, start
from ui_support import UI, layout_problems

from companion.games.base import Player
from companion.journal.replay import load_lines

pytestmark = pytest.mark.ui

NOTICE = "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players' buttons"
LOGS = sorted((Path(__file__).resolve().parents[1] / "games" / "logs").glob("ratatat*.jsonl"))


def banner(ui: UI, shown: bool) -> None:
    ui.app.dismiss_notices()
    if shown:
        ui.app.notice("buttons", NOTICE)
    ui.advance(3)


def places(ui: UI, texts: list[str]) -> dict[str, tuple[float, float]]:
    """Where each keypad key is on the window (its centre), by its text."""
    keys = {b.text: b for b in buttons(ui) if b.text in texts}
    assert set(keys) == set(texts), sorted(keys)
    return {t: tuple(round(v) for v in b.to_window(*b.center)) for t, b in keys.items()}  # type: ignore[misc]


def key(ui: UI, text: str) -> Any:
    return next(b for b in buttons(ui) if b.text == text)


DIGITS = [str(v) for v in range(10)]


@pytest.mark.parametrize("shown", [False, True], ids=["plain", "banner"])
def test_the_card_keypad_stays_put_after_a_reshuffle(ui: UI, shown: bool) -> None:
    banner(ui, shown)
    screen = start(ui)
    for region, (value, balloon) in enumerate([(5, False), (6, True), (7, True), (8, False), (3, False)]):
        assert screen.act({"type": "reveal", "region": region, "value": value, "balloon": balloon})
    for action in ({"type": "roll", "dice": [1]}, {"type": "move"}, {"type": "take_region"}):
        assert screen.act(action), screen.header_text
    ui.advance(2)
    ui.tap(key(ui, "Balloon: no"))
    ui.tap(key(ui, "4"))  # the refill shows a third balloon: Korean rules reshuffle, five new cards are entered
    assert screen.state["reshuffles"] == 1 and screen.state["to_reveal"] == [0, 1, 2, 3, 4]
    assert "shuffled into the pile" in screen.info
    before = places(ui, DIGITS)
    ui.screenshot("ratatat-steady-reshuffle" + ("-banner" if shown else ""))
    ui.tap(key(ui, "8"))  # the first card after the reshuffle: the note goes ...
    assert screen.state["face_up"][0] == {"value": 8, "balloon": False}
    assert "shuffled" not in screen.info
    assert places(ui, DIGITS) == before  # ... and the keypad stays where it was
    ui.screenshot("ratatat-steady-after-reshuffle" + ("-banner" if shown else ""))
    x, y = before["8"]  # a tap where the 8 was is still the 8
    from kivy.tests.common import UnitTestTouch

    touch = UnitTestTouch(x, y)
    touch.touch_down()
    ui.advance(1)
    touch.touch_up()
    ui.advance(2)
    assert screen.state["face_up"][1] == {"value": 8, "balloon": False}


@pytest.mark.parametrize("shown", [False, True], ids=["plain", "banner"])
def test_the_final_reveal_keypad_stays_put_as_cards_are_entered(ui: UI, shown: bool) -> None:
    banner(ui, shown)
    players = tuple(
        Player(n, c, s) for s, (n, c) in enumerate(zip(LONG_NAMES[:2], ("#e53935", "#42a5f5"), strict=True), 1)
    )
    screen = start(ui, players)
    play_until(ui, screen, lambda st: st["phase"] == "final_reveal")
    before = places(ui, DIGITS)
    prompt = screen.ids.prompt
    top = prompt.to_window(prompt.x, prompt.top)
    for value in ("9", "9", "8", "8", "7"):
        ui.tap(key(ui, value))
        assert places(ui, DIGITS) == before, f"moved after {screen.hand_values}"
        assert prompt.to_window(prompt.x, prompt.top) == top
    assert "Entered: 9 9 8 8 7" in screen.prompt
    assert prompt.font_size >= 16 and prompt.texture_size[1] <= prompt.height + 1  # the whole line, in its box
    ui.screenshot("ratatat-steady-final-reveal" + ("-banner" if shown else ""))
    assert not layout_problems(screen.ids.controls, min_font=16)


@pytest.mark.parametrize("shown", [False, True], ids=["plain", "banner"])
def test_dice_entered_by_touch_on_one_keypad_that_stays_put(ui: UI, shown: bool) -> None:
    banner(ui, shown)
    screen = start(ui)
    for region, value in enumerate([5, 6, 1, 8, 3]):
        assert screen.act({"type": "reveal", "region": region, "value": value, "balloon": False})
    ui.advance(2)
    table = screen.ids.controls
    ui.tap(next(b for b in buttons(ui) if b.text.startswith("3 dice")))
    faces = [str(f) for f in range(1, 7)]
    before = places(ui, faces)
    for face in ("6", "2", "5"):
        ui.tap(key(ui, face))
        assert places(ui, faces) == before
    assert screen.faces == [6, 2, 5] and "6 + 2 + 5" in screen.info
    ui.tap(key(ui, "Delete last"))
    assert screen.faces == [6, 2, None] and "6 + 2 + ?" in screen.info
    ui.tap(key(ui, "4"))
    ui.screenshot("ratatat-steady-dice" + ("-banner" if shown else ""))
    players = screen.ids.players
    assert table.to_window(table.x, table.y)[1] >= players.to_window(players.x, players.top)[1] - 1  # all above
    ui.tap(key(ui, "Use these dice"))
    assert screen.state["phase"] == "rolled" and screen.state["dice"] == [6, 2, 4]
    # a re-roll of two dice on the same keypad
    ui.tap(next(b for b in buttons(ui) if b.text == "6"))
    ui.tap(next(b for b in buttons(ui) if b.text == "2"))
    before = places(ui, faces)
    ui.tap(key(ui, "1"))
    assert places(ui, faces) == before
    ui.tap(key(ui, "3"))
    assert "1 + 3" in screen.info
    assert table.to_window(table.x, table.y)[1] >= players.to_window(players.x, players.top)[1] - 1
    ui.screenshot("ratatat-steady-reroll" + ("-banner" if shown else ""))
    ui.tap(key(ui, "Spend a token: re-roll"))
    assert screen.state["dice"] == [1, 3, 4]


@pytest.mark.slow
@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_the_controls_start_at_one_height_in_every_phase(ui: UI, path: Path) -> None:
    """Every move of the example games (banner shown): the controls start at one height, and end above the
    players' strip (nothing runs under it) in every phase but the end table."""
    banner(ui, True)
    setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines())
    assert ui.app.resume(ui.app.journal.new_game(setup)) is not None
    ui.advance(3)
    screen = ui.screen()
    controls, strip = screen.ids.controls, screen.ids.players
    tops = set()
    for action in actions:
        screen.session.do(action)
        screen._changed()
        ui.advance(1)
        phase = screen.state["phase"]
        if phase != "over":
            tops.add(round(controls.to_window(controls.x, controls.top)[1]))
        low = controls.to_window(controls.x, controls.y)[1]
        assert low >= strip.to_window(strip.x, strip.top)[1] - 1, (phase, low)
    assert len(tops) == 1, tops
