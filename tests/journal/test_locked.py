"""Locked is not damaged (issue #22, item 2): another program holding the journal's write lock at start makes the
app wait (busy timeout), keep every saved game and say the journal is in use; the file is never moved aside.

The lock is held by a separate process, as a backup tool or an ``sqlite3`` shell would hold it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from companion.games.base import Player, Setup
from companion.journal import Journal, JournalError
from companion.journal.store import JournalBusy, open_for_app

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))

HOLDER = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=0)
if sys.argv[2] == "exclusive":
    db.execute("PRAGMA locking_mode=EXCLUSIVE")
    db.execute("BEGIN EXCLUSIVE")
    db.execute("UPDATE meta SET value = value WHERE key = 'schema'")
else:
    db.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.readline()
db.execute("ROLLBACK")
db.close()
"""


@contextmanager
def held(path: Path, how: str = "immediate") -> Iterator[subprocess.Popen[str]]:
    """Another process holding ``path``'s lock (``BEGIN IMMEDIATE``, or an exclusive lock no reader passes)
    until the block ends."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(path), how], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
        yield proc
    finally:
        assert proc.stdin is not None
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.wait(timeout=30)


def _saved(path: Path) -> int:
    journal = Journal(path)
    game = journal.new_game(Setup("ratuki", PLAYERS))
    for n in range(3):
        journal.append(game, {"type": "note.test", "n": n})
    journal.close()
    return game


def test_a_write_lock_held_at_start_keeps_the_journal_and_its_games(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    game = _saved(path)
    with held(path):
        journal, problem = open_for_app(path, busy_timeout_s=0.3)
        assert journal.path == path and problem is None  # opened for real: every saved game is there
        assert [g.id for g in journal.games()] == [game] and len(journal.actions(game)) == 3
        with pytest.raises(JournalBusy, match="in use by another program"):
            journal.append(game, {"type": "note.test", "n": 3})  # waited, then said so: nothing recorded
        assert len(journal.actions(game)) == 3
    assert not list(tmp_path.glob("journal.sqlite3.*-*"))  # never moved aside
    journal.append(game, {"type": "note.test", "n": 3})  # the other program let go: saving works again
    assert len(journal.actions(game)) == 4
    journal.close()


def test_a_lock_no_reader_passes_says_in_use_and_leaves_the_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    game = _saved(path)
    before = path.read_bytes()
    with held(path, "exclusive"):
        with pytest.raises(JournalBusy):
            Journal(path, busy_timeout_s=0.3)
        journal, problem = open_for_app(path, busy_timeout_s=0.3)
        assert problem is not None and "in use by another program" in problem and "NOT being saved" in problem
        assert journal.games() == []  # this run's games are in memory only
        journal.close()
    assert not list(tmp_path.glob("journal.sqlite3.*-*"))
    assert path.read_bytes() == before
    again, problem = open_for_app(path)
    assert problem is None and [g.id for g in again.games()] == [game]
    again.close()


def test_busy_is_a_journal_error(tmp_path: Path) -> None:
    assert issubclass(JournalBusy, JournalError)  # every caller that handles journal errors handles this one
