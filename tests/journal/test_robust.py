"""A journal that cannot be opened, read or written never stops the app and never changes a game silently."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.games.base import Player, Setup
from companion.journal import GameSession, Journal, JournalError, JournalFull, ReplayError
from companion.journal import session as session_mod
from companion.journal.store import open_for_app

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def test_a_damaged_journal_is_kept_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"this is not an sqlite file at all" * 100)
    journal, problem = open_for_app(path)
    assert problem is not None and "could not be opened" in problem and "new games are saved" in problem
    (kept,) = tmp_path.glob("journal.sqlite3.unusable-*")
    assert kept.read_bytes().startswith(b"this is not")  # nothing thrown away
    journal.new_game(Setup("ratuki", PLAYERS))
    assert journal.path == path and len(journal.games()) == 1
    journal.close()


def test_where_nothing_can_be_written_the_app_runs_and_says_games_are_not_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"garbage" * 100)

    def read_only(self: Path, target: Path) -> Path:
        raise OSError(30, "Read-only file system")

    monkeypatch.setattr(Path, "rename", read_only)
    journal, problem = open_for_app(path)
    assert problem is not None and "NOT being saved" in problem
    assert journal.new_game(Setup("ratuki", PLAYERS)) == 1  # in memory for this run
    assert path.read_bytes().startswith(b"garbage")


def test_a_full_card_is_a_journal_error_and_the_next_write_starts_clean(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    game = journal.new_game(Setup("ratuki", PLAYERS))
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count={pages}")  # no room for one more page: "disk is full"
    with pytest.raises(JournalFull, match="the card is full; nothing was recorded"):
        for n in range(200):
            journal.append(game, {"type": "note", "text": "x" * 3000, "n": n})
    written = len(journal.actions(game))
    journal._db.execute("PRAGMA max_page_count=1000000")  # space freed
    journal.append(game, {"type": "note", "n": "after"})
    assert len(journal.actions(game)) == written + 1
    assert journal.integrity_ok()
    journal.close()


def test_read_only_opening_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    with pytest.raises(JournalError, match="no journal here"):
        Journal(path, readonly=True)
    assert not path.exists()
    writer = Journal(path)
    writer.new_game(Setup("ratuki", PLAYERS))
    writer.close()
    reader = Journal(path, readonly=True)
    assert [g.game for g in reader.games()] == ["ratuki"]
    with pytest.raises(JournalError):
        reader.new_game(Setup("ratuki", PLAYERS))
    reader.close()


def test_an_undo_that_no_longer_replays_leaves_the_game_as_it_was(
    toy_game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 50}))
    for n in (1, 2, 3):
        session.do({"type": "add", "n": n})
    state = session.state
    session._past.clear()  # as after a resume: the undo has to replay the earlier moves

    def broken(*_args: object, **_kwargs: object) -> object:
        raise ReplayError("game 1: action 1 (add) refused: changed rules")

    monkeypatch.setattr(session_mod, "apply_logged", broken)
    with pytest.raises(ReplayError):
        session.undo()
    assert len(journal.actions(session.game_id)) == 3 and session.state == state
    assert not journal.has_redo(session.game_id)
    journal.close()


def test_sqlite_errors_never_escape_as_such(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal._db.close()
    with pytest.raises(JournalError):
        journal.games()
    assert not issubclass(JournalError, sqlite3.Error)
