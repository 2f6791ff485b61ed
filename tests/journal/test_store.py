"""The SQLite journal: appending, listing games, undo/redo, durability across reopen, bad files."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.games.base import Player, Setup
from companion.journal import Journal, JournalError

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "data" / "journal.sqlite", now=Clock())
    yield j
    j.close()


def setup(game: str = "ratuki", seed: int = 7) -> Setup:
    return Setup(game=game, players=PLAYERS, settings={"rounds": 3}, seed=seed)


def test_append_numbers_actions_and_keeps_them_in_order(journal: Journal) -> None:
    gid = journal.new_game(setup())
    actions = [{"type": "roll", "dice": [1, 2, 3]}, {"type": "slap", "seat": 2, "tick_ms": 1234}, {"type": "pass"}]
    assert [journal.append(gid, a) for a in actions] == [1, 2, 3]
    assert journal.actions(gid) == actions
    record = journal.game(gid)
    assert (record.game, record.actions, record.finished) == ("ratuki", 3, False)
    assert record.setup == setup()
    assert record.updated > record.created


def test_games_are_listed_newest_first_and_unfinished_only_filters(journal: Journal) -> None:
    first = journal.new_game(setup(seed=1))
    second = journal.new_game(setup("ratatat", seed=2))
    journal.append(first, {"type": "a"})  # touching the first game makes it the most recent
    assert [g.id for g in journal.games()] == [first, second]
    journal.set_finished(first)
    assert [g.id for g in journal.games(unfinished_only=True)] == [second]
    journal.abandon(second)
    assert journal.games(unfinished_only=True) == []
    assert {g.id: g.finished for g in journal.games()} == {first: True, second: True}


def test_each_game_has_its_own_sequence(journal: Journal) -> None:
    a, b = journal.new_game(setup()), journal.new_game(setup())
    assert journal.append(a, {"type": "x"}) == 1
    assert journal.append(b, {"type": "y"}) == 1
    assert journal.append(a, {"type": "z"}) == 2
    assert journal.actions(a) == [{"type": "x"}, {"type": "z"}] and journal.actions(b) == [{"type": "y"}]


def test_undo_several_steps_then_redo_in_order(journal: Journal) -> None:
    gid = journal.new_game(setup())
    for n in range(1, 5):
        journal.append(gid, {"type": "add", "n": n})
    assert journal.undo(gid) == {"type": "add", "n": 4}
    assert journal.undo(gid) == {"type": "add", "n": 3}
    assert journal.actions(gid) == [{"type": "add", "n": 1}, {"type": "add", "n": 2}]
    assert journal.game(gid).actions == 2
    assert journal.has_redo(gid)
    assert journal.redo(gid) == {"type": "add", "n": 3}
    assert journal.redo(gid) == {"type": "add", "n": 4}
    assert journal.redo(gid) is None and not journal.has_redo(gid)
    assert [a["n"] for a in journal.actions(gid)] == [1, 2, 3, 4]


def test_undo_everything_and_past_the_start(journal: Journal) -> None:
    gid = journal.new_game(setup())
    journal.append(gid, {"type": "only"})
    assert journal.undo(gid) == {"type": "only"}
    assert journal.undo(gid) is None
    assert journal.actions(gid) == []


def test_a_new_action_after_undo_discards_the_redo_branch(journal: Journal) -> None:
    gid = journal.new_game(setup())
    for n in (1, 2, 3):
        journal.append(gid, {"type": "add", "n": n})
    journal.undo(gid)
    journal.undo(gid)
    assert journal.append(gid, {"type": "add", "n": 9}) == 2
    assert not journal.has_redo(gid) and journal.redo(gid) is None
    assert [a["n"] for a in journal.actions(gid)] == [1, 9]


def test_undo_reopens_a_finished_game(journal: Journal) -> None:
    gid = journal.new_game(setup())
    journal.append(gid, {"type": "last"})
    journal.set_finished(gid)
    journal.undo(gid)
    assert not journal.game(gid).finished
    assert [g.id for g in journal.games(unfinished_only=True)] == [gid]


def test_everything_survives_close_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    j = Journal(path)
    gid = j.new_game(setup())
    j.append(gid, {"type": "a", "text": "naïve ünïcode ✓"})
    j.append(gid, {"type": "b"})
    j.undo(gid)
    j.close()
    again = Journal(path)
    try:
        assert again.actions(gid) == [{"type": "a", "text": "naïve ünïcode ✓"}]
        assert again.redo(gid) == {"type": "b"}
        assert again.integrity_ok()
        assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        again.close()


def test_unknown_game_id_is_a_journal_error(journal: Journal) -> None:
    with pytest.raises(JournalError, match="no game with id 99"):
        journal.game(99)


@pytest.mark.parametrize(
    "content", [b"hello, this is a shopping list\n" * 200, b"SQLite format 3\x00" + b"\xff" * 4000]
)
def test_a_file_that_is_not_a_journal_is_a_journal_error_naming_it(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "journal.sqlite"
    path.write_bytes(content)
    with pytest.raises(JournalError) as caught:
        Journal(path)
    assert str(path) in str(caught.value)
    assert path.read_bytes() == content  # a bad file is reported, never overwritten


def test_a_journal_from_a_newer_app_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    Journal(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.close()
    with pytest.raises(JournalError, match="schema 99 is newer"):
        Journal(path)


def test_a_directory_in_the_way_is_a_journal_error(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite"
    path.mkdir()
    with pytest.raises(JournalError, match=r"journal\.sqlite"):
        Journal(path)


def test_action_times_follow_the_live_actions(journal: Journal) -> None:
    gid = journal.new_game(setup())
    created = journal.game(gid).created
    for kind in ("a", "b", "c"):
        journal.append(gid, {"type": kind})
    times = journal.action_times(gid)
    assert len(times) == 3 and created < times[0] < times[1] < times[2]
    journal.undo(gid)
    assert journal.action_times(gid) == times[:2]


def test_new_game_keeps_a_given_start_time_and_delete_game_removes_it(journal: Journal) -> None:
    gid = journal.new_game(setup(), created=1_600_000_000.25)
    journal.append(gid, {"type": "a"})
    assert journal.game(gid).created == 1_600_000_000.25
    other = journal.new_game(setup(seed=9))
    journal.delete_game(gid)
    assert [g.id for g in journal.games()] == [other]
    assert journal.actions(gid) == []
    with pytest.raises(JournalError):
        journal.game(gid)
