"""A read-only card (issue #22, item 5): the command lists and exports every saved game, and the app starts with
every saved game playable, saying nothing new is saved. The card is a real read-only mount."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
from cards import mounted, read_only

from companion.games.base import Player, Setup
from companion.journal import Journal
from companion.journal.store import open_for_app

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    with mounted(tmp_path / "card", "4m") as folder:
        yield folder


def companion(*args: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COMPANION_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], env=env, capture_output=True, text=True, timeout=120
    )


def _saved(path: Path, games: int = 2, moves: int = 4) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal(path)
    for g in range(games):
        game = journal.new_game(Setup("ratuki", PLAYERS, seed=g))
        for n in range(moves):
            journal.append(game, {"type": "note.test", "n": n})
    journal.close()


def test_games_and_export_read_a_cleanly_closed_journal_on_a_read_only_card(card: Path, tmp_path: Path) -> None:
    _saved(card / "data" / "journal.sqlite3")
    read_only(card)
    listed = companion("games", home=card)
    assert listed.returncode == 0, listed.stderr
    assert [line.split("\t")[3] for line in listed.stdout.splitlines()] == ["4 actions", "4 actions"]
    out = tmp_path / "game-1.jsonl"
    exported = companion("export", "1", str(out), home=card)
    assert exported.returncode == 0, exported.stderr
    assert len(out.read_text().splitlines()) == 5
    assert sorted(p.name for p in (card / "data").iterdir()) == ["journal.sqlite3"]  # nothing written there


# Commits two games, then dies by SIGKILL with the journal open: the last commits are only in the -wal file.
KILLED_WRITER = textwrap.dedent(
    """
    import os, signal, sys
    from companion.games.base import Player, Setup
    from companion.journal import Journal
    journal = Journal(sys.argv[1])
    journal._db.execute("PRAGMA wal_autocheckpoint=0")  # nothing carried into the main file before the kill
    for g in range(2):
        game = journal.new_game(Setup("ratuki", (Player("Ana", seat=1), Player("Bo", seat=2)), seed=g))
        for n in range(4):
            journal.append(game, {"type": "note.test", "n": n})
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_commits_still_in_the_wal_of_a_read_only_card_are_read_too(card: Path) -> None:
    path = card / "data" / "journal.sqlite3"
    path.parent.mkdir(parents=True)
    died = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(path)], capture_output=True, timeout=60)
    assert died.returncode == -signal.SIGKILL
    assert Path(f"{path}-wal").stat().st_size > 0
    read_only(card)
    listed = companion("games", home=card)
    assert listed.returncode == 0, listed.stderr
    assert [line.split("\t")[3] for line in listed.stdout.splitlines()] == ["4 actions", "4 actions"]


def test_the_app_on_a_read_only_card_plays_every_saved_game_and_says_nothing_is_saved(card: Path) -> None:
    path = card / "data" / "journal.sqlite3"
    _saved(path)
    before = path.read_bytes()
    read_only(card)
    journal, problem = open_for_app(path)
    assert problem is not None and "read-only" in problem and "nothing new is saved" in problem
    assert sorted(r.id for r in journal.games()) == [1, 2] and len(journal.actions(1)) == 4
    journal.append(1, {"type": "note.test", "n": 4})  # the game goes on (in memory for this run)
    assert len(journal.actions(1)) == 5
    journal.close()
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["journal.sqlite3"]
