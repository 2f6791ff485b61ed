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

    def full(*_args: Any, **_kwargs: Any) -> int:
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


def _journal_with_games(path: Path, count: int = 3) -> list[int]:
    from companion.journal import GameSession, Journal

    journal = Journal(path)
    ids = []
    for n in range(count):
        session = GameSession.start(journal, Setup("ratuki", PLAYERS, seed=n))
        session.do({"type": "start", "tick": 1.0})
        ids.append(session.game_id)
    journal.close()
    return ids


def _sql(path: Path, statement: str, *args: object) -> None:
    db = sqlite3.connect(str(path))
    db.execute(statement, args)
    db.commit()
    db.close()


@pytest.mark.parametrize("setup_text", ["{not json", json.dumps({"game": "ratuki", "seed": 3})])
def test_a_game_with_a_damaged_setup_is_named_and_the_latest_sound_game_is_offered(
    tmp_path: Path, setup_text: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    _first, second, newest = _journal_with_games(path)
    _sql(path, "UPDATE games SET setup = ? WHERE id = ?", setup_text, newest)
    ui = UI(tmp_path, journal_path=path)
    try:
        assert ui.screen().name == "home"
        assert f"game {newest}" in ui.app.banner.lower() and "damaged" in ui.app.banner
        assert "Continue" in ui.screen().resume_text  # the newest sound game, not the damaged one
        ui.screenshot("journal-damaged-game-home")
        ui.tap(ui.screen().ids.resume)
        assert ui.app.session is not None and ui.app.session.game_id == second
        games = ui.go("games")
        text = ui.texts(games)
        assert "damaged" in text and "Ratuki" in text
        ui.screenshot("journal-damaged-game-list")
    finally:
        ui.close()
    assert not list(tmp_path.glob("journal.sqlite3.*-*"))  # a sound file: nothing moved aside


def test_resuming_a_game_with_a_broken_move_says_so_and_keeps_the_app(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _first, newest = _journal_with_games(path, count=2)
    _sql(path, "UPDATE actions SET action = 'garbage' WHERE game_id = ? AND seq = 1", newest)
    ui = UI(tmp_path, journal_path=path)
    try:
        assert "Continue" in ui.screen().resume_text
        ui.tap(ui.screen().ids.resume)
        assert ui.app.session is None and ui.screen().name == "games"
        assert f"Game {newest} is damaged" in ui.app.banner and "move 1" in ui.app.banner
        ui.screenshot("journal-damaged-move")
    finally:
        ui.close()


def test_a_garbled_page_starts_the_app_with_the_games_that_still_read(tmp_path: Path) -> None:
    from companion.journal import Journal

    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    for g in range(3):
        game = journal.new_game(Setup("ratuki", PLAYERS, seed=g))
        for n in range(60):
            journal.append(game, {"type": "note.test", "mark": f"g{g}-n{n:03d}", "pad": "y" * 100})
    journal.close()
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    page = data.index(b"g1-n030") // page_size
    data[page * page_size + 8 : (page + 1) * page_size] = bytes(page_size - 8)
    path.write_bytes(bytes(data))
    ui = UI(tmp_path, journal_path=path)
    try:
        assert ui.screen().name == "home"
        assert "damaged" in ui.app.banner  # the banner's two lines; the notice in full when it is tapped:
        assert any("Game 2 could not be read back" in str(notice) for notice in ui.app.notices.values())
        assert sorted(r.id for r in ui.app.journal.games()) == [1, 3]
        ui.screenshot("journal-garbled-page")
    finally:
        ui.close()


def test_a_journal_locked_by_another_program_keeps_its_games_and_says_in_use(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_locked import held

    from companion.journal import store

    monkeypatch.setattr(store, "BUSY_S", 0.3)
    path = tmp_path / "journal.sqlite3"
    (game,) = _journal_with_games(path, count=1)
    with held(path):
        ui = UI(tmp_path, journal_path=path)
        try:
            assert not ui.app.banner and "Continue" in ui.screen().resume_text  # saved games all there
            ui.tap(ui.screen().ids.resume)
            screen = ui.screen()
            assert screen.session.game_id == game
            moves = len(screen.session.actions)
            assert screen.act({"type": "note.test"}) is False
            assert screen.message_is_error and "in use by another program" in screen.header_text
            ui.screenshot("journal-locked-move")
        except BaseException:
            ui.close()
            raise
    try:
        assert screen.act({"type": "note.test"}) is True  # the other program let go: the same tap works
        assert len(screen.session.actions) == moves + 1
    finally:
        ui.close()
    assert not list(tmp_path.glob("journal.sqlite3.*-*"))


def test_a_game_that_is_over_is_never_offered_whatever_its_flag_says(tmp_path: Path) -> None:
    """An older app killed between a game's last move and its "finished" mark left this journal."""
    from companion.journal import GameSession, Journal
    from companion.journal.replay import load_lines

    log = Path(__file__).resolve().parent.parent / "games" / "logs" / "ratuki-2p-handmade.jsonl"
    setup, actions = load_lines(log.read_text().splitlines(), source=str(log))
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    older = GameSession.start(journal, Setup("ratuki", PLAYERS))
    older.do({"type": "start", "tick": 1.0})
    journal._db.execute("UPDATE games SET updated = updated - 1000")
    session = GameSession(journal, journal.new_game(setup))  # recorded as it was played (Ratuki to 30 then)
    for action in actions:
        session.do(action)
    assert session.over
    journal._db.execute("UPDATE games SET finished = 0 WHERE id = ?", (session.game_id,))
    journal.close()
    ui = UI(tmp_path, journal_path=path)
    try:
        assert f"{len(actions)} moves" not in ui.screen().resume_text
        assert "· 1 move ·" in ui.screen().resume_text  # the older game, really unfinished, is offered
        assert ui.app.journal.game(session.game_id).finished
    finally:
        ui.close()


def test_the_app_on_a_read_only_card_offers_the_saved_game_and_says_nothing_new_is_saved(tmp_path: Path) -> None:
    from cards import mounted, read_only

    with mounted(tmp_path / "card", "4m") as card:
        path = card / "journal.sqlite3"
        (game,) = _journal_with_games(path, count=1)
        read_only(card)
        ui = UI(tmp_path, journal_path=path)
        try:
            assert "read-only" in ui.app.banner and "nothing new is saved" in ui.app.banner
            assert "Continue" in ui.screen().resume_text
            ui.screenshot("journal-read-only-card")
            ui.tap(ui.screen().ids.resume)
            assert ui.app.session is not None and ui.app.session.game_id == game
        finally:
            ui.close()
