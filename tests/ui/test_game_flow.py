"""New game by touch, undo/redo several steps, and resume after the app is gone (same journal)."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_support import UI

GAME = "ratuki"


def start_by_touch(ui: UI) -> None:
    ui.tap_text("Ratuki")
    assert ui.screen().name == "setup"
    setup = ui.screen()
    ui.tap(setup.ids.counts.children[-2])  # "3" (children are in reverse order)
    assert setup.count == 3
    ui.screenshot("setup-ratuki")
    ui.tap_text("Start game")
    assert ui.screen().name == GAME


def test_new_game_undo_redo_and_resume(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    ui = UI(tmp_path, journal_path=journal)
    try:
        start_by_touch(ui)
        session = ui.app.session
        assert [p.name for p in session.setup.players] == ["Ana", "Bo", "Cai"]
        screen = ui.screen()
        press = {"seat": 2, "tick": 11.0}
        for action in ({"type": "start", "tick": 10.0}, {"type": "call", "presses": [press]}):
            assert screen.act(action), screen.header_text
        ui.advance(2)
        done = len(session.actions)
        before = session.state
        assert screen.can_undo
        undone = [session.actions[-1], session.actions[-2]]
        ui.tap(ui.find("Undo"))
        assert screen.header_text == "Undone: " + session.describe(undone[0])  # says which action went
        ui.tap(ui.find("Undo"))
        assert len(session.actions) == done - 2
        assert screen.header_text == "Undone: " + session.describe(undone[1])
        assert screen.can_redo
        ui.tap(ui.find("Redo"))
        ui.tap(ui.find("Redo"))
        assert session.state == before
        game_id = session.game_id
    finally:
        ui.close()  # the app disappears with the game unfinished, as after a pulled plug

    ui = UI(tmp_path, journal_path=journal)
    try:
        home = ui.screen()
        assert home.name == "home"
        assert "Continue" in home.resume_text and "Ana, Bo, Cai" in home.resume_text
        ui.screenshot("home-resume")
        ui.tap(home.ids.resume)
        assert ui.screen().name == GAME
        assert ui.app.session.game_id == game_id
        assert ui.app.session.state == before
    finally:
        ui.close()


def test_refused_action_changes_nothing(ui: UI) -> None:
    start_by_touch(ui)
    screen = ui.screen()
    count = len(ui.app.session.actions)
    assert not screen.act({"type": "no such action"})
    assert screen.message_is_error
    assert len(ui.app.session.actions) == count
    assert ui.app.journal.actions(ui.app.session.game_id) == ui.app.session.actions


def test_header_text_is_drawable_by_the_font(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every character shown in the header exists in the font: with Kivy's Roboto (no fonts-noto-cjk) a dice
    note's arrow is written "->" (it drew as a box); with the full font it stays an arrow."""
    from pathlib import Path

    import kivy

    from companion.journal.replay import describe_note
    from companion.ui import fonts
    from companion.ui.screens.game import drawable

    note = "Undone: " + describe_note({"type": "note.dice_correction", "die": 2, "read": 5, "face": 6})
    monkeypatch.setattr(fonts, "_active", fonts.FontChoice(None, None, "Roboto"))
    font = Path(kivy.__file__).parent / "data" / "fonts" / "Roboto-Regular.ttf"
    text = drawable(note)
    assert "5 -> 6" in text
    assert all(ord(c) < 128 or ord(c) in _cmap(font) for c in text)
    monkeypatch.setattr(fonts, "_active", fonts.choose(environ={}))
    assert "5 → 6" in drawable(note)


def _cmap(path: object) -> set[int]:
    """The code points a TrueType font maps (format 4 subtables)."""
    import struct
    from pathlib import Path

    data = Path(str(path)).read_bytes()
    tables = struct.unpack(">H", data[4:6])[0]
    offset = next(
        struct.unpack(">I", data[20 + 16 * i : 24 + 16 * i])[0]
        for i in range(tables)
        if data[12 + 16 * i : 16 + 16 * i] == b"cmap"
    )
    chars: set[int] = set()
    for i in range(struct.unpack(">H", data[offset + 2 : offset + 4])[0]):
        sub = offset + struct.unpack(">I", data[offset + 8 + 8 * i : offset + 12 + 8 * i])[0]
        if struct.unpack(">H", data[sub : sub + 2])[0] != 4:
            continue
        seg2 = struct.unpack(">H", data[sub + 6 : sub + 8])[0]
        ends = struct.unpack(f">{seg2 // 2}H", data[sub + 14 : sub + 14 + seg2])
        starts = struct.unpack(f">{seg2 // 2}H", data[sub + 16 + seg2 : sub + 16 + 2 * seg2])
        for start, end in zip(starts, ends, strict=True):
            chars.update(range(start, end + 1))
    return chars


CHILD = """
import json, sys, time
sys.path.insert(0, {tests!r})
from pathlib import Path
import pytest
from ui_support import UI
from companion.games.base import Player, Setup

ui = UI(Path({tmp!r}), journal_path=Path({journal!r}))
ui.app.start_game(Setup("ratuki", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=5))
screen = ui.screen()
for action in ({{"type": "start", "tick": 10.0}}, {{"type": "call", "presses": [{{"seat": 1, "tick": 11.0}}]}}):
    assert screen.act(action), screen.header_text
    print(json.dumps({{"game": ui.app.session.game_id, "actions": len(ui.app.session.actions),
                      "state": ui.app.session.state}}), flush=True)
time.sleep(120)  # the plug is pulled while the game is on screen
"""


def test_resume_after_the_plug_is_pulled(tmp_path: Path) -> None:
    """The app is SIGKILLed with a game on screen; the next start offers it and resumes the same state."""
    import json
    import os
    import signal
    import subprocess
    import sys

    journal = tmp_path / "journal.sqlite3"
    tests = str(Path(__file__).resolve().parent.parent)
    code = CHILD.format(tests=tests, tmp=str(tmp_path / "child"), journal=str(journal))
    (tmp_path / "child").mkdir()
    env = dict(os.environ, PYTHONPATH=tests)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        lines = [json.loads(proc.stdout.readline()) for _ in range(2)]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    last = lines[-1]
    ui = UI(tmp_path, journal_path=journal)
    try:
        home = ui.screen()
        assert "Continue" in home.resume_text and "Ana, Bo" in home.resume_text
        assert f"{last['actions']} moves" in home.resume_text
        ui.tap(home.ids.resume)
        assert ui.screen().name == GAME
        assert ui.app.session.game_id == last["game"]
        assert json.loads(json.dumps(ui.app.session.state)) == last["state"]
    finally:
        ui.close()
