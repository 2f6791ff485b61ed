"""The real ``companion`` command (a subprocess) on damaged, locked, read-only and hostile input (issue #22):
one clear line on stderr, a documented exit status, never a traceback."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

from companion.games.base import Player, Setup
from companion.journal import Journal

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def companion(*args: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, COMPANION_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and 'File "' not in proc.stderr, proc.stderr[-3000:]


def journal_in(home: Path, games: int = 3) -> tuple[Path, list[int]]:
    path = home / "data" / "journal.sqlite3"  # where the command looks under COMPANION_HOME
    path.parent.mkdir(parents=True, exist_ok=True)
    journal = Journal(path)
    ids = []
    for g in range(games):
        game = journal.new_game(Setup("ratuki", PLAYERS, seed=g))
        for n in range(3):
            journal.append(game, {"type": "note.test", "n": n})
        ids.append(game)
    journal.close()
    return path, ids


def sql(path: Path, statement: str, *args: object) -> None:
    db = sqlite3.connect(str(path))
    db.execute(statement, args)
    db.commit()
    db.close()


# -- item 1: a damaged journal ---------------------------------------------------------------------------


def test_games_lists_a_journal_with_a_damaged_game_and_names_it(tmp_path: Path) -> None:
    path, (first, broken, last) = journal_in(tmp_path)
    sql(path, "UPDATE games SET setup = '{not json' WHERE id = ?", broken)
    proc = companion("games", home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 0
    lines = {int(line.split("\t")[0]): line for line in proc.stdout.splitlines()}
    assert set(lines) == {first, broken, last}
    assert "damaged" in lines[broken] and "not valid JSON" in lines[broken]
    assert "Ana, Bo" in lines[first] and "3 actions" in lines[last]


def test_games_with_an_unreadable_version_mark_says_so_in_one_line(tmp_path: Path) -> None:
    path, _ids = journal_in(tmp_path)
    sql(path, "UPDATE meta SET value = 'one' WHERE key = 'schema'")
    proc = companion("games", home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and "version mark" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_export_of_a_game_with_a_broken_move_names_the_game_and_the_move(tmp_path: Path) -> None:
    path, (first, broken, _last) = journal_in(tmp_path)
    sql(path, "UPDATE actions SET action = '{\"type\"' WHERE game_id = ? AND seq = 2", broken)
    out = tmp_path / "out.jsonl"
    proc = companion("export", str(broken), str(out), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and f"game {broken} is damaged" in proc.stderr and "move 2" in proc.stderr
    assert not out.exists()  # nothing half-written
    good = companion("export", str(first), str(out), home=tmp_path)
    assert good.returncode == 0 and len(out.read_text().splitlines()) == 4


def test_export_of_a_game_whose_setup_is_damaged(tmp_path: Path) -> None:
    path, (_first, broken, _last) = journal_in(tmp_path)
    sql(path, "UPDATE games SET setup = ? WHERE id = ?", json.dumps({"game": "ratuki"}), broken)
    proc = companion("export", str(broken), str(tmp_path / "out.jsonl"), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and "no players" in proc.stderr


# -- item 2: locked is not damaged --------------------------------------------------------------------------


def test_games_and_export_read_a_journal_another_program_is_writing(tmp_path: Path) -> None:
    from test_locked import held

    path, (first, *_rest) = journal_in(tmp_path)
    with held(path):
        listed = companion("games", home=tmp_path)
        exported = companion("export", str(first), str(tmp_path / "out.jsonl"), home=tmp_path)
    no_traceback(listed)
    assert listed.returncode == 0 and len(listed.stdout.splitlines()) == 3
    assert exported.returncode == 0 and len((tmp_path / "out.jsonl").read_text().splitlines()) == 4
