"""A damaged journal (issue #22, item 1): damage is found per game, the other games stay playable, the damage is
named, the file is kept, and a file SQLite itself finds damaged (``PRAGMA quick_check``) gets no new games.

Every test damages a real SQLite file the way a failing card or a crashed tool would, then opens it as the app does.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.games.base import Player, Setup
from companion.journal import GameSession, Journal, JournalError
from companion.journal.store import GameDamaged, JournalDamaged, open_for_app

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def _journal_with_games(path: Path, count: int = 3, actions: int = 3) -> list[int]:
    journal = Journal(path)
    ids = []
    for g in range(count):
        game = journal.new_game(Setup("ratuki", PLAYERS, seed=g))
        for n in range(actions):
            journal.append(game, {"type": "note.test", "game": g, "n": n, "pad": "x" * 40})
        ids.append(game)
    journal.close()
    return ids


def _kept(folder: Path, why: str) -> list[Path]:
    """The journal files kept aside (their -wal and -shm companions left out)."""
    return [p for p in folder.glob(f"journal.sqlite3.{why}-*") if not p.name.endswith(("-wal", "-shm"))]


def _sql(path: Path, statement: str, *args: object) -> None:
    db = sqlite3.connect(str(path))
    db.execute(statement, args)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("setup_text", "reason"),
    [("{not json", "not valid JSON"), (json.dumps({"game": "ratuki", "seed": 1}), "no players"), ("[1, 2]", "not")],
)
def test_a_game_whose_setup_cannot_be_read_is_named_and_the_others_stay_playable(
    tmp_path: Path, setup_text: str, reason: str
) -> None:
    path = tmp_path / "journal.sqlite3"
    first, broken, last = _journal_with_games(path)
    _sql(path, "UPDATE games SET setup = ? WHERE id = ?", setup_text, broken)
    journal, problem = open_for_app(path)
    assert problem is None  # the file itself is sound: it is not moved aside
    records = {r.id: r for r in journal.games()}
    assert set(records) == {first, broken, last}
    assert records[broken].problem is not None and reason in records[broken].problem
    assert records[first].problem is None and records[last].problem is None
    assert [r.id for r in journal.games(unfinished_only=True) if r.problem is None] == [last, first]
    for good in (first, last):
        assert len(GameSession(journal, good).actions) == 3
    with pytest.raises(GameDamaged, match=f"game {broken}"):
        GameSession(journal, broken)
    journal.close()


def test_a_move_that_cannot_be_read_names_the_game_and_the_move(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    first, broken, _last = _journal_with_games(path)
    _sql(path, "UPDATE actions SET action = '{\"type\": ' WHERE game_id = ? AND seq = 2", broken)
    journal = Journal(path)
    with pytest.raises(GameDamaged) as caught:
        journal.actions(broken)
    assert caught.value.game_id == broken and "move 2" in str(caught.value)
    assert isinstance(caught.value, JournalError)  # every caller that handles journal errors handles this one
    assert len(journal.actions(first)) == 3
    journal.close()


def test_a_move_that_is_json_but_not_an_action_is_damage_too(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    (game,) = _journal_with_games(path, count=1)
    _sql(path, "UPDATE actions SET action = '[1]' WHERE game_id = ? AND seq = 1", game)
    with Journal(path) as journal, pytest.raises(GameDamaged, match="move 1"):
        journal.actions(game)


@pytest.mark.parametrize("schema", ["one", "", "1.5"])
def test_an_unreadable_version_mark_keeps_the_file_and_carries_every_game_over(tmp_path: Path, schema: str) -> None:
    path = tmp_path / "journal.sqlite3"
    ids = _journal_with_games(path)
    _sql(path, "UPDATE meta SET value = ? WHERE key = 'schema'", schema)
    with pytest.raises(JournalDamaged, match="version mark"):
        Journal(path)
    journal, problem = open_for_app(path)
    assert problem is not None and "damaged" in problem and "3 saved games were carried over" in problem
    (kept,) = _kept(tmp_path, "damaged")
    assert kept.name in problem
    assert sorted(r.id for r in journal.games()) == ids  # same ids: "game 2" is still game 2
    assert all(len(journal.actions(g)) == 3 for g in ids)
    journal.close()


def _garble_page_holding(path: Path, marker: bytes) -> int:
    """Overwrite, with noise, the database page that holds ``marker``; returns the page number (1-based)."""
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    offset = data.index(marker)
    page = offset // page_size
    assert page > 1, "the marker must not sit on the first page"
    data[page * page_size + 8 : (page + 1) * page_size] = bytes((i * 37 + 11) % 256 for i in range(page_size - 8))
    path.write_bytes(bytes(data))
    return page + 1


def test_a_garbled_page_is_found_at_open_and_only_the_game_on_it_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    journal = Journal(path)
    ids = []
    for g in range(3):  # each game's moves fill pages of their own (written one game after the other)
        game = journal.new_game(Setup("ratuki", PLAYERS, seed=g))
        for n in range(60):
            journal.append(game, {"type": "note.test", "mark": f"g{g}-n{n:03d}", "pad": "y" * 100})
        ids.append(game)
    journal.close()
    assert not Path(f"{path}-wal").exists()  # closed cleanly: everything is in the main file
    original = path.read_bytes()
    _garble_page_holding(path, b"g1-n030")
    damaged = path.read_bytes()
    assert damaged != original

    with pytest.raises(JournalDamaged, match="broken pages"):
        Journal(path)
    journal, problem = open_for_app(path)
    assert problem is not None and "damaged" in problem
    assert f"Game {ids[1]} could not be read back" in problem and "2 saved games were carried over" in problem
    (kept,) = _kept(tmp_path, "damaged")
    assert kept.read_bytes() == damaged  # nothing thrown away: the damaged file as it was
    assert sorted(r.id for r in journal.games()) == [ids[0], ids[2]]
    for game in (ids[0], ids[2]):
        marks = [a["mark"] for a in journal.actions(game)]
        assert marks == [f"g{ids.index(game)}-n{n:03d}" for n in range(60)]
    assert journal.integrity_ok()
    new = journal.new_game(Setup("ratuki", PLAYERS))  # new games go into the sound new file
    assert new > max(ids)  # never reusing the id of the game left in the damaged file
    journal.close()
    reopened, again = open_for_app(path)
    assert again is None and len(reopened.games()) == 3
    reopened.close()


def test_a_file_that_is_not_a_journal_at_all_is_kept_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"\x00garbage" * 1000)
    journal, problem = open_for_app(path)
    assert problem is not None and "could not be opened" in problem
    assert journal.games() == []
    journal.close()
    assert len(_kept(tmp_path, "unusable")) == 1
