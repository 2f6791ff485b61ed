"""SQLite action log in WAL mode, one row per accepted action, committed before the UI shows its effect."""

from __future__ import annotations

import functools
import json
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion.games.base import Setup

F = TypeVar("F", bound=Callable[..., Any])

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    game TEXT NOT NULL,
    setup TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    at REAL NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
"""


class JournalError(RuntimeError):
    """The journal file cannot be opened, read or written, or is not a journal (message names the file)."""


def _guarded(method: F) -> F:
    """SQLite's own errors (a full or failing card, a damaged page) come out as :class:`JournalError` naming
    the file, so the app can say "nothing was recorded" instead of crashing."""

    @functools.wraps(method)
    def wrapper(self: Journal, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as err:
            raise JournalError(f"{self.path}: the journal could not be read or written ({err})") from err

    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class GameRecord:
    """One game's row: id, game name, setup, timestamps, whether it ended, and how many live actions it has."""

    id: int
    game: str
    setup: Setup
    created: float
    updated: float
    finished: bool
    actions: int


class Journal:
    """The action log. Each ``append`` is durable (``synchronous=FULL``) when it returns."""

    def __init__(self, path: str | Path, *, now: Callable[[], float] = time.time, readonly: bool = False) -> None:
        """Open (or create) the journal; ``readonly`` opens an existing one without writing anything (for
        listing and exporting from a read-only card)."""
        self.path = Path(path)
        self._now = now
        if readonly:
            if not self.path.exists():
                raise JournalError(f"{self.path}: no journal here (no game has been saved on this machine yet)")
            try:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            except (sqlite3.Error, OSError, ValueError) as err:
                raise JournalError(f"{self.path}: not a readable journal ({err})") from err
            if row is None or int(row[0]) > SCHEMA_VERSION:
                raise JournalError(f"{self.path}: journal schema {row and row[0]} is newer than this app understands")
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._tx():
                for statement in _split(_SCHEMA):
                    self._db.execute(statement)
                self._db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        except (sqlite3.Error, OSError) as err:
            raise JournalError(f"{self.path}: not a usable journal ({err})") from err
        if row is None or int(row[0]) > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: journal schema {row and row[0]} is newer than this app understands")

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")  # a full card fails here: roll back, so the next write starts clean
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    # -- games -------------------------------------------------------------------------------------------

    @_guarded
    def new_game(self, setup: Setup, *, created: float | None = None) -> int:
        """Record a new game and return its id; ``created`` (an imported game's own start time) defaults to now."""
        now = self._now() if created is None else float(created)
        with self._tx():
            cur = self._db.execute(
                "INSERT INTO games(game, setup, created, updated) VALUES (?, ?, ?, ?)",
                (setup.game, json.dumps(setup.to_json(), sort_keys=True), now, now),
            )
        return int(cur.lastrowid or 0)

    @_guarded
    def game(self, game_id: int) -> GameRecord:
        row = self._db.execute(
            "SELECT g.id, g.game, g.setup, g.created, g.updated, g.finished,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.undone = 0)"
            " FROM games g WHERE g.id = ?",
            (game_id,),
        ).fetchone()
        if row is None:
            raise JournalError(f"no game with id {game_id} in {self.path}")
        return _record(row)

    @_guarded
    def games(self, *, unfinished_only: bool = False) -> list[GameRecord]:
        """Games, newest first."""
        where = "WHERE g.finished = 0" if unfinished_only else ""
        rows = self._db.execute(
            "SELECT g.id, g.game, g.setup, g.created, g.updated, g.finished,"
            " (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id AND a.undone = 0)"
            f" FROM games g {where} ORDER BY g.updated DESC, g.id DESC"
        ).fetchall()
        return [_record(r) for r in rows]

    @_guarded
    def set_finished(self, game_id: int, finished: bool = True) -> None:
        with self._tx():
            self._db.execute(
                "UPDATE games SET finished = ?, updated = ? WHERE id = ?", (int(finished), self._now(), game_id)
            )

    def abandon(self, game_id: int) -> None:
        """Stop offering a game for resume without deleting anything (it stays exportable)."""
        self.set_finished(game_id, True)

    @_guarded
    def delete_game(self, game_id: int) -> None:
        """Delete a game and all its actions for good (only when a player asks for it, after a confirmation)."""
        with self._tx():
            self._db.execute("DELETE FROM actions WHERE game_id = ?", (game_id,))
            self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))

    # -- actions -----------------------------------------------------------------------------------------

    @_guarded
    def append(self, game_id: int, action: dict[str, Any]) -> int:
        """Commit one action; returns its sequence number. Undone actions after the tip are discarded."""
        text = json.dumps(action, sort_keys=True, separators=(",", ":"))
        now = self._now()
        with self._tx():
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND undone = 1", (game_id,))
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            self._db.execute(
                "INSERT INTO actions(game_id, seq, action, at) VALUES (?, ?, ?, ?)", (game_id, seq, text, now)
            )
            self._db.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))
        return int(seq)

    @_guarded
    def actions(self, game_id: int) -> list[dict[str, Any]]:
        """The live (not undone) actions of a game, in order."""
        rows = self._db.execute(
            "SELECT action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,)
        ).fetchall()
        return [json.loads(r[0]) for r in rows]

    @_guarded
    def action_times(self, game_id: int) -> list[float]:
        """When each live action was committed (wall-clock seconds), in the order of :meth:`actions`."""
        rows = self._db.execute(
            "SELECT at FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,)
        ).fetchall()
        return [float(r[0]) for r in rows]

    @_guarded
    def undo(self, game_id: int) -> dict[str, Any] | None:
        """Mark the last live action undone and return it (``None`` when there is nothing to undo)."""
        with self._tx():
            row = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq DESC LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE actions SET undone = 1 WHERE game_id = ? AND seq = ?", (game_id, row[0]))
            self._db.execute("UPDATE games SET updated = ?, finished = 0 WHERE id = ?", (self._now(), game_id))
        return json.loads(row[1])  # type: ignore[no-any-return]

    @_guarded
    def redo(self, game_id: int) -> dict[str, Any] | None:
        """Bring back the earliest undone action (``None`` when there is none)."""
        with self._tx():
            row = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 1 ORDER BY seq LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE actions SET undone = 0 WHERE game_id = ? AND seq = ?", (game_id, row[0]))
        return json.loads(row[1])  # type: ignore[no-any-return]

    @_guarded
    def has_redo(self, game_id: int) -> bool:
        """True when an undone action is waiting to be redone."""
        row = self._db.execute("SELECT 1 FROM actions WHERE game_id = ? AND undone = 1 LIMIT 1", (game_id,))
        return row.fetchone() is not None

    @_guarded
    def integrity_ok(self) -> bool:
        return bool(self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def open_for_app(path: Path, *, now: Callable[[], float] = time.time) -> tuple[Journal, str | None]:
    """The app's journal, never refusing to start: a file that cannot be opened (damaged, or from a newer app)
    is kept under another name beside it and a new journal started; where even that fails (a read-only card),
    the games of this run live in memory only. The second value says so to the players (None when all is well).
    """
    try:
        return Journal(path, now=now), None
    except JournalError as err:
        problem = str(err).removeprefix(f"{path}: ")
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now()))
    kept = path.with_name(f"{path.name}.unusable-{stamp}")
    try:
        for suffix in ("", "-wal", "-shm"):
            part = Path(f"{path}{suffix}")
            if part.exists():
                part.rename(Path(f"{kept}{suffix}"))
        return Journal(path, now=now), (
            f"The saved games could not be opened ({problem}). The file is kept as {kept.name}; a new one was "
            "started and new games are saved."
        )
    except (OSError, JournalError) as err:
        return Journal(":memory:", now=now), (
            f"Games are NOT being saved: the journal cannot be used ({problem}; {err}). Check the SD card."
        )


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _record(row: tuple[Any, ...]) -> GameRecord:
    return GameRecord(
        id=int(row[0]),
        game=str(row[1]),
        setup=Setup.from_json(json.loads(row[2])),
        created=float(row[3]),
        updated=float(row[4]),
        finished=bool(row[5]),
        actions=int(row[6]),
    )
