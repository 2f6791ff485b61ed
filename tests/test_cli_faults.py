"""The real ``companion`` command (a subprocess) on damaged, locked, read-only and hostile input (issue #22):
one clear line on stderr, a documented exit status, never a traceback."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from procs import companion, no_traceback, peak_mb

from companion.games.base import Player, Setup
from companion.journal import Journal

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


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


# -- item 7: hostile logs for `companion replay` ----------------------------------------------------------

SETUP = {"kind": "setup", "game": "ratuki", "seed": 7, "settings": {}}
PLAYERS_JSON = [{"name": "Ana", "colour": "#e53935", "seat": 1}, {"name": "Bo", "colour": "#1e88e5", "seat": 2}]


def setup_line(**changes: object) -> str:
    return json.dumps({**SETUP, "players": PLAYERS_JSON, **changes})


def action_line(action: object, seq: int = 1) -> str:
    return json.dumps({"kind": "action", "seq": seq, "action": action})


HOSTILE = {
    "deep nesting": (setup_line() + "\n" + '{"kind": "action", "seq": 1, "action": ' + "[" * 100_000, "nested"),
    "not UTF-8": (setup_line() + "\n" + '{"kind": "action", "seq": 1, "action": {"type": "x\xff"}}', "UTF-8"),
    "an infinite seat": (setup_line(players=[{**PLAYERS_JSON[0], "seat": 1e400}, PLAYERS_JSON[1]]), "seat"),
    "an infinite seed": (setup_line(seed=1e400), "seed"),
    "a 5,000-digit seed": (None, "seed"),
    "a negative seat": (setup_line(players=[{**PLAYERS_JSON[0], "seat": -1}, PLAYERS_JSON[1]]), "seat"),
    "a 10,000-character name": (
        setup_line(players=[{**PLAYERS_JSON[0], "name": "A" * 10_000}, PLAYERS_JSON[1]]),
        "name",
    ),
    "a tick of 1e308": (
        setup_line() + "\n" + action_line({"type": "start", "tick": 1e308}),
        "number",
    ),
    "a huge number in an action": (setup_line() + "\n" + action_line({"type": "start", "tick": 10**40}), "number"),
}


def _write_hostile(path: Path, name: str, text: str | None) -> None:
    if name == "a 5,000-digit seed":  # written by hand: Python itself refuses to make such an int from text
        text = setup_line().replace('"seed": 7', '"seed": ' + "7" * 5000)
    assert text is not None
    path.write_bytes(text.encode().replace("\xff".encode(), b"\xff") + b"\n")  # a raw 0xff byte: not UTF-8


@pytest.mark.parametrize("name", list(HOSTILE))
def test_replay_of_a_hostile_log_says_what_is_wrong_in_one_line(tmp_path: Path, name: str) -> None:
    text, word = HOSTILE[name]
    path = tmp_path / "hostile.jsonl"
    _write_hostile(path, name, text)
    proc = companion("replay", str(path), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2, proc.stdout[-500:]
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0] and word in lines[0], proc.stderr[-1000:]


def test_replay_of_dev_zero_stops_at_the_line_cap_with_bounded_memory(tmp_path: Path) -> None:
    proc, peak = peak_mb("replay", "/dev/zero", home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and "line 1" in proc.stderr and "longer than" in proc.stderr
    assert peak < 250, peak


def test_replay_of_a_100_mb_file_is_refused_by_its_size_with_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    with open(path, "w") as out:
        out.write(setup_line() + "\n")
        line = action_line({"type": "note.test", "text": "x" * 900}) + "\n"
        for _ in range(100 * 1024 * 1024 // len(line)):
            out.write(line)
    proc, peak = peak_mb("replay", str(path), home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and "MB" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert peak < 250, peak
