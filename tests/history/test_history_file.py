"""The history file in trouble (#22's rule for #25's file): damaged, garbled or locked, the app still starts, says
what happened, keeps the damaged file and gets every play back from the journal."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from logplay import logs, play_log

from companion.history import History, history_file
from companion.journal import Journal
from companion.journal.store import open_for_app


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


def test_a_history_file_on_a_read_only_card_is_read_and_never_changed(tmp_path: Path) -> None:
    """A read-only card: the app's journal is a copy in memory, and the history file on the card is still read
    (renamed players, every play), never moved aside as damaged, never written; the problem is said."""
    from cards import mounted, read_only

    with mounted(tmp_path / "card", "4m") as card:
        journal = Journal(card / "journal.sqlite3")
        filled(journal)
        journal.close()
        path = history_file(card / "journal.sqlite3")
        before = {p.name: p.read_bytes() for p in card.iterdir()}
        read_only(card)
        memory, why = open_for_app(card / "journal.sqlite3")
        assert why is not None and str(memory.path) == ":memory:"
        history = History.open(memory, path)
        assert "cannot be written" in str(history.problem) and "read-only" in str(history.problem)
        assert history.person_named("Anabel") is not None  # the rename saved before is shown
        history.refresh()
        assert {p.game for p in history.plays()} == {"ratuki", "lowdown"}
        bo = history.person_named("Bo")
        assert bo is not None
        history.store.update_person(bo.uid, name="Bobby")  # works for this run
        assert history.person_named("Bobby") is not None
        history.store.close()
        memory.close()
        assert {p.name: p.read_bytes() for p in card.iterdir()} == before  # nothing moved, nothing written


def test_a_card_that_fills_up_mid_run_keeps_the_history_in_memory(tmp_path: Path) -> None:
    """The first write the file refuses (the card is full) carries the store into memory with all it holds: that
    write and the ones after it are done there, the players are told once, and no error reaches the screen."""
    from cards import fill, mounted

    with mounted(tmp_path / "card", "4m") as card:
        journal = Journal(card / "journal.sqlite3")
        filled(journal)
        history = History.open(journal)
        told: list[str] = []
        history.store.on_trouble = lambda why: told.append(str(why))
        filler = fill(card)
        ana = history.person_named("Anabel")
        assert ana is not None and history.store.trouble is None
        for n in range(20):  # SQLite may still find room in pages it has: at most a few writes fit
            history.store.update_person(ana.uid, initial=f"{n}")
        assert history.store.person(ana.uid).initial == "19"  # type: ignore[union-attr]
        assert history.store.trouble is not None and len(told) == 1 and "cannot be written" in told[0]
        assert len(history.plays()) == 2 and history.person_named("Bo") is not None  # nothing shown is lost
        bo = history.person_named("Bo")
        assert bo is not None
        history.store.update_person(bo.uid, colour="#8e24aa")
        assert history.store.person(bo.uid).colour == "#8e24aa"  # type: ignore[union-attr]
        assert len(told) == 1
        history.store.close()
        filler.unlink()
        again = History.open(journal)
        kept = again.person_named("Anabel")
        assert again.problem is None and kept is not None and kept.initial in {"", *map(str, range(20))}
        again.store.close()
        journal.close()
