"""A journal that cannot be used as it is, read or carried over so the app still starts: a read-only card's
games copied into memory, a damaged file kept aside with every game that still reads carried into a new one.
:func:`companion.journal.store.open_for_app` decides which."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from companion.i18n import _, ngettext
from companion.journal.errors import JournalError
from companion.journal.schema import SCHEMA, split_statements

if TYPE_CHECKING:
    from companion.journal.store import Journal


def read_only_card(path: Path, now: Callable[[], float]) -> tuple[Journal, str] | None:
    """Every saved game of a journal on a read-only card, copied into memory: they can be continued, and the
    players are told nothing new is saved. None when the file cannot be read either."""
    from companion.journal.store import Journal  # the store opens with this module's help: imported when used

    try:
        source = Journal(path, readonly=True)
    except JournalError:
        return None
    try:
        memory = Journal(":memory:", now=now)
        source._db.backup(memory._db)
        for statement in split_statements(SCHEMA):  # a journal from an older app lacks the newer tables
            memory._db.execute(statement)
    except (sqlite3.Error, JournalError):
        return None
    finally:
        source.close()
    return memory, _(
        "The SD card is read-only: every saved game can be continued, but nothing new is saved (this run's moves "
        "are lost when the app stops). Check the card's lock switch, or the card itself."
    )


def stamp(now: Callable[[], float]) -> str:
    """The date and time a kept file is named with."""
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now()))


def move_aside(path: Path, kept: Path) -> None:
    """Rename the journal and its WAL files together (a WAL kept with its database keeps its commits)."""
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.rename(Path(f"{kept}{suffix}"))


def carry_over(path: Path, problem: str, now: Callable[[], float]) -> tuple[Journal, str]:
    """Keep the damaged file as ``journal.sqlite3.damaged-<date>`` and copy every game that still reads back in
    full (same ids) into a new journal at ``path``; the message names the games left behind."""
    from companion.journal.store import Journal

    kept = path.with_name(f"{path.name}.damaged-{stamp(now)}")
    source = kept
    try:
        move_aside(path, kept)
        target = Journal(path, now=now)
        saving = True
    except (OSError, JournalError):  # nowhere to write (a read-only card): this run's games live in memory
        source, target, saving = path, Journal(":memory:", now=now), False
    carried, lost = copy_games(source, target)
    lines = [_("The saved games file was damaged ({problem}).").format(problem=problem)]
    if saving:
        lines.append(_("It is kept as {name}.").format(name=kept.name))
    lines.append(
        ngettext(
            "{count} saved game was carried over to a new file.",
            "{count} saved games were carried over to a new file.",
            len(carried),
        ).format(count=len(carried))
        if saving
        else _("Games are NOT being saved (the card cannot be written); {count} saved games can be played.").format(
            count=len(carried)
        )
    )
    if lost:
        names = ", ".join(_("Game {id}").format(id=game_id) for game_id in lost)
        lines.append(
            ngettext(
                "{games} could not be read back; it stays in the damaged file.",
                "{games} could not be read back; they stay in the damaged file.",
                len(lost),
            ).format(games=names)
        )
    return target, " ".join(lines)


def copy_games(source: Path, target: Journal) -> tuple[list[int], list[int]]:
    """Copy, row for row, every game of the damaged file ``source`` that reads back whole into ``target``.
    Returns the ids carried over and the ids that could not be read."""
    carried: list[int] = []
    lost: list[int] = []
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except (sqlite3.Error, OSError, ValueError):
        return carried, lost
    try:
        ids, highest = game_ids(src)
        for game_id in ids:
            try:
                game = src.execute(
                    "SELECT id, game, setup, created, updated, finished FROM games WHERE id = ?", (game_id,)
                ).fetchone()
                moves = src.execute(
                    "SELECT game_id, seq, action, at, undone FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
                ).fetchall()
            except sqlite3.Error:
                lost.append(game_id)
                continue
            if game is None:
                continue
            try:
                with target._tx():
                    target._db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?)", game)
                    target._db.executemany("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", moves)
            except sqlite3.Error:
                lost.append(game_id)
                continue
            carried.append(game_id)
        if highest:  # a new game never takes the id of one left behind in the damaged file
            with target._tx():
                target._db.execute("UPDATE sqlite_sequence SET seq = MAX(seq, ?) WHERE name = 'games'", (highest,))
                target._db.execute(
                    "INSERT INTO sqlite_sequence(name, seq) SELECT 'games', ? WHERE NOT EXISTS"
                    " (SELECT 1 FROM sqlite_sequence WHERE name = 'games')",
                    (highest,),
                )
    except sqlite3.Error:
        pass
    finally:
        src.close()
    return carried, lost


def game_ids(src: sqlite3.Connection) -> tuple[list[int], int]:
    """The game ids in a damaged file (by the table, or where that is broken by the highest id handed out),
    and the highest id ever given."""
    highest = 0
    for query in ("SELECT seq FROM sqlite_sequence WHERE name = 'games'", "SELECT MAX(id) FROM games"):
        try:
            row = src.execute(query).fetchone()
            highest = max(highest, int(row[0] or 0)) if row else highest
        except (sqlite3.Error, TypeError, ValueError):
            continue
    try:
        return [int(r[0]) for r in src.execute("SELECT id FROM games ORDER BY id")], highest
    except sqlite3.Error:
        return list(range(1, min(highest, 100_000) + 1)), highest
