"""The history file in trouble (#22's rule for #25's file): damaged, garbled or locked, the app still starts, says
what happened, keeps the damaged file and gets every play back from the journal."""

from __future__ import annotations

import sqlite3

from logplay import logs, play_log

from companion.history import History, history_file
from companion.journal import Journal


def filled(journal: Journal) -> History:
    for game in ("ratuki", "lowdown"):
        play_log(journal, logs(game)[0])
    history = History.open(journal)
    assert history.problem is None
    history.refresh()
    ana = history.person_named("Ana")
    assert ana is not None
    history.store.update_person(ana.uid, name="Anabel")
    history.store.close()
    return history


def test_a_damaged_history_file_is_kept_and_a_new_one_started(journal: Journal) -> None:
    filled(journal)
    path = history_file(journal.path)
    path.write_bytes(b"not a database " * 500)
    history = History.open(journal)
    kept = [p.name for p in path.parent.glob("history.sqlite3.damaged-*") if not p.name.endswith(("-wal", "-shm"))]
    assert len(kept) == 1 and kept[0] in str(history.problem) and "saved games" in str(history.problem)
    assert history.store.path == path  # a file again, not memory: what is done from now on is kept
    history.refresh()
    assert {p.game for p in history.plays()} == {"ratuki", "lowdown"}  # every play back from the journal
    bo = history.person_named("Bo")
    assert bo is not None
    history.store.update_person(bo.uid, name="Bobby")
    history.store.close()
    again = History.open(journal)
    assert again.problem is None and again.person_named("Bobby") is not None
    again.store.close()


def test_a_garbled_page_is_found_at_open(journal: Journal) -> None:
    filled(journal)
    path = history_file(journal.path)
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    page = data.index(b"Anabel") // page_size
    data[page * page_size + 8 : (page + 1) * page_size] = bytes(page_size - 8)
    path.write_bytes(bytes(data))
    history = History.open(journal)
    assert history.problem is not None and "damaged" in str(history.problem)
    history.refresh()
    assert len(history.plays()) == 2
    history.store.close()


def test_a_history_file_another_program_holds_is_left_alone(journal: Journal) -> None:
    filled(journal)
    path = history_file(journal.path)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        history = History.open(journal)
        assert "in use by another program" in str(history.problem)
        assert str(history.store.path) == ":memory:"
        history.refresh()  # this run works in memory
        assert len(history.plays()) == 2
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not list(path.parent.glob("history.sqlite3.damaged-*"))
    again = History.open(journal)
    assert again.problem is None and again.person_named("Anabel") is not None
    again.store.close()
