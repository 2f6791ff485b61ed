"""The app with a journal in trouble: it starts, says what is wrong, and never loses or half-records a move."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from ui_support import UI

from companion.games.base import Player, Setup
from companion.journal import JournalError

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def test_a_damaged_journal_still_starts_the_app_and_says_so(tmp_path: Path) -> None:
    journal = tmp_path / "journal.sqlite3"
    journal.write_bytes(b"not a journal" * 500)
    ui = UI(tmp_path, journal_path=journal)
    try:
        assert ui.screen().name == "home"
        assert "could not be opened" in ui.app.banner
        ui.screenshot("journal-damaged")
        ui.app.start_game(Setup("ratuki", PLAYERS))
        ui.advance(3)
        assert ui.app.session is not None and ui.app.journal.games()
    finally:
        ui.close()
    assert list(tmp_path.glob("journal.sqlite3.unusable-*"))


def test_a_move_that_cannot_be_saved_changes_nothing_and_says_why(ui: UI, monkeypatch: pytest.MonkeyPatch) -> None:
    ui.app.start_game(Setup("ratuki", PLAYERS))
    ui.advance(3)
    screen = ui.screen()
    before = dict(screen.session.state)

    def full(*_args: Any) -> int:
        raise JournalError("journal.sqlite3: the journal could not be read or written (database or disk is full)")

    monkeypatch.setattr(ui.app.journal, "append", full)
    assert screen.act({"type": "start", "tick": 1.0}) is False
    assert screen.message_is_error and screen.header_text.startswith("Not saved, nothing changed")
    assert screen.session.state == before and screen.session.actions == []
    monkeypatch.undo()
    assert screen.act({"type": "start", "tick": 1.0}) is True  # space freed: the same tap works


def test_a_game_that_no_longer_replays_is_not_opened_and_the_app_goes_on(ui: UI) -> None:
    ui.app.start_game(Setup("ratuki", PLAYERS))
    ui.advance(3)
    game_id = ui.app.session.game_id
    ui.app.session.do({"type": "start", "tick": 1.0})
    ui.go("home")
    db = sqlite3.connect(str(ui.journal_path))  # an update dropped a setting this game was set up with
    (setup,) = db.execute("SELECT setup FROM games WHERE id = ?", (game_id,)).fetchone()
    data = json.loads(setup)
    data["settings"]["slap_rule"] = True
    db.execute("UPDATE games SET setup = ? WHERE id = ?", (json.dumps(data), game_id))
    db.commit()
    db.close()
    assert ui.app.resume(game_id) is None
    ui.advance(3)
    assert ui.screen().name == "games"
    assert f"Game {game_id} cannot be reopened" in ui.app.banner and "slap_rule" in ui.app.banner
    ui.screenshot("journal-game-does-not-replay")
    assert len(ui.app.journal.actions(game_id)) == 1  # nothing in the journal changed
