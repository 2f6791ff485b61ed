"""SQLite action log in WAL mode, one row per accepted action, committed before the UI shows its effect."""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, MutableSequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, overload

from companion.games.base import Setup
from companion.i18n import _, ngettext

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
OPEN_BUSY_S = 10.0  # how long opening waits for another program's lock on the file (a backup, an sqlite3 shell)
BUSY_S = 3.0  # how long a move waits for it before "not saved: in use" (the UI waits that long at most)

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
CREATE TABLE IF NOT EXISTS snapshots (
    game_id INTEGER NOT NULL,
    count INTEGER NOT NULL,
    rules TEXT NOT NULL,
    digest TEXT NOT NULL,
    state BLOB NOT NULL,
    PRIMARY KEY (game_id, count)
);
"""
# Derived data only: a game's state after its first ``count`` moves, for the rules of that version (a digest of
# the engines' files) and those exact moves (a digest of their stored text). Resume and a deep undo start from
# one instead of replaying the whole game; any mismatch and it is ignored. The latest KEEP_SNAPSHOTS per game stay.
KEEP_SNAPSHOTS = 2


class JournalError(RuntimeError):
    """The journal file cannot be opened, read or written, or is not a journal (message names the file)."""


class JournalDamaged(JournalError):
    """The file is a journal, but damaged: SQLite finds broken pages (``PRAGMA quick_check``) or its version
    mark cannot be read. :func:`open_for_app` keeps it and carries every game that still reads into a new file.
    ``reason`` says it for the players; the message adds SQLite's own words."""

    def __init__(self, path: Path, reason: str, detail: str = "") -> None:
        super().__init__(f"{path}: {reason}" + (f" ({detail})" if detail else ""))
        self.reason = reason


class JournalBusy(JournalError):
    """Another program holds the journal's lock longer than the busy timeout: locked is not damaged, the file
    is never moved aside; the move (or the opening) is refused and can be tried again."""


class JournalFull(JournalError):
    """The card has no room for the write ("database or disk is full"): nothing was recorded."""


class GameDamaged(JournalError):
    """One game's rows cannot be read back (its setup, or one of its moves); the other games are unaffected."""

    def __init__(self, path: Path, game_id: int, reason: str) -> None:
        super().__init__(f"{path}: game {game_id} is damaged: {reason}")
        self.game_id = game_id
        self.reason = reason


def _guarded(method: F) -> F:
    """SQLite's own errors (a full or failing card, a damaged page) come out as :class:`JournalError` naming
    the file, so the app can say "nothing was recorded" instead of crashing."""

    @functools.wraps(method)
    def wrapper(self: Journal, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as err:
            if _is_busy(err):
                raise JournalBusy(
                    f"{self.path}: the journal is in use by another program; nothing was recorded ({err})"
                ) from err
            if getattr(err, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "is full" in str(err):
                raise JournalFull(f"{self.path}: the card is full; nothing was recorded ({err})") from err
            raise JournalError(f"{self.path}: the journal could not be read or written ({err})") from err

    return wrapper  # type: ignore[return-value]


@dataclass(frozen=True)
class GameRecord:
    """One game's row: id, game name, setup, timestamps, whether it ended, and how many live actions it has.

    ``problem`` says why a damaged row's setup cannot be read (its ``setup`` then has no players); such a game
    is listed, named, never resumed, and stays in the file as it is."""

    id: int
    game: str
    setup: Setup
    created: float
    updated: float
    finished: bool
    actions: int
    problem: str | None = None


class _Unread:
    """A stored move not parsed yet."""

    __slots__ = ("seq", "text")

    def __init__(self, seq: Any, text: Any) -> None:
        self.seq = seq
        self.text = text


class Moves(MutableSequence[dict[str, Any]]):
    """A game's live moves, each parsed from its row the first time it is used: a game resumed from a snapshot
    near its end reads only the moves after it (thousands of earlier ones stay text until asked for)."""

    def __init__(self, items: list[Any], parse: Callable[[_Unread], dict[str, Any]]) -> None:
        self._items = items
        self._parse = parse

    def _read(self, index: int) -> dict[str, Any]:
        item = self._items[index]
        if isinstance(item, _Unread):
            item = self._items[index] = self._parse(item)
        return item  # type: ignore[no-any-return]

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self._read(i) for i in range(*index.indices(len(self._items)))]
        return self._read(index)

    @overload
    def __setitem__(self, index: int, value: dict[str, Any]) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[dict[str, Any]]) -> None: ...
    def __setitem__(self, index: Any, value: Any) -> None:
        self._items[index] = value

    def __delitem__(self, index: int | slice) -> None:
        del self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def insert(self, index: int, value: dict[str, Any]) -> None:
        self._items.insert(index, value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Moves | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Moves({len(self)} moves)"


class Snapshot:
    """A stored state after a game's first ``count`` moves, read (and decompressed) only when asked for."""

    def __init__(self, count: int, blob: Any) -> None:
        self.count = count
        self._blob = blob

    def state(self) -> dict[str, Any] | None:
        """The state, or None when the stored bytes do not read (a damaged snapshot: replay instead)."""
        try:
            state = json.loads(zlib.decompress(self._blob))
        except (zlib.error, TypeError, ValueError, RecursionError):
            return None
        return state if isinstance(state, dict) else None


class Journal:
    """The action log. Each ``append`` is durable (``synchronous=FULL``) when it returns."""

    def __init__(
        self,
        path: str | Path,
        *,
        now: Callable[[], float] = time.time,
        readonly: bool = False,
        busy_timeout_s: float | None = None,
    ) -> None:
        """Open (or create) the journal; ``readonly`` opens an existing one without writing anything (for
        listing and exporting from a read-only card). Another program's lock is waited for (``busy_timeout_s``:
        :data:`OPEN_BUSY_S` to open, :data:`BUSY_S` a move), then :class:`JournalBusy`."""
        self.path = Path(path)
        self._now = now
        self._open_wait = OPEN_BUSY_S if busy_timeout_s is None else busy_timeout_s
        self._busy_ms = int(1000 * (BUSY_S if busy_timeout_s is None else busy_timeout_s))
        self.damage: str | None = None  # what quick_check found in a file opened read-only (None: sound)
        self._copy_dir: tempfile.TemporaryDirectory[str] | None = None  # a read-only card's WAL read in a copy
        if readonly:
            if not self.path.exists():
                raise JournalError(f"{self.path}: no journal here (no game has been saved on this machine yet)")
            try:
                self._db = self._connect_read_only()
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            except (sqlite3.Error, OSError, ValueError) as err:
                if isinstance(err, sqlite3.Error) and _is_busy(err):
                    raise JournalBusy(f"{self.path}: the journal is in use by another program ({err})") from err
                raise JournalError(f"{self.path}: not a readable journal ({err})") from err
            self.damage = _quick_check(self._db)  # said by the command line; listing goes on where it can
            _check_version(self.path, row)
            return
        try:
            existed = self.path.exists() and self.path.stat().st_size > 0
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(
                str(self.path), isolation_level=None, check_same_thread=False, timeout=self._open_wait
            )
        except (sqlite3.Error, OSError) as err:
            raise JournalError(f"{self.path}: not a usable journal ({err})") from err
        try:
            self._open(existed)
        except BaseException:
            self._db.close()
            raise

    def _connect_read_only(self) -> sqlite3.Connection:
        """A connection that writes nothing. On a read-only card SQLite cannot make the WAL index (-shm) that
        ``mode=ro`` needs: a journal closed cleanly (no WAL left) is then opened ``immutable``; one whose WAL still
        holds commits (a pulled plug) is copied, WAL included, to a private folder and read there, so no
        committed move is missed."""
        uri = self.path.resolve().as_uri()
        try:
            db = sqlite3.connect(
                f"{uri}?mode=ro", uri=True, isolation_level=None, check_same_thread=False, timeout=self._open_wait
            )
            db.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone()
            return db
        except sqlite3.OperationalError as err:
            if _is_busy(err) or os.access(self.path.parent, os.W_OK):
                raise  # not the read-only card's problem
        wal = Path(f"{self.path}-wal")
        if not wal.exists() or wal.stat().st_size == 0:
            return sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None, check_same_thread=False)
        self._copy_dir = tempfile.TemporaryDirectory(prefix="companion-journal-")
        copy = Path(self._copy_dir.name) / self.path.name
        for suffix in ("", "-wal"):
            shutil.copyfile(f"{self.path}{suffix}", f"{copy}{suffix}")
        return sqlite3.connect(str(copy), isolation_level=None, check_same_thread=False)

    def _open(self, existed: bool) -> None:
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            # A damaged page is found before anything is written into the file (new games never go there).
            damage = _quick_check(self._db) if existed else None
            if damage is not None:
                raise JournalDamaged(self.path, _("broken pages were found in it"), f"quick_check: {damage}")
            if not self._has_schema():  # only a new (or older) file is written to at open: a lock elsewhere waits
                with self._tx():
                    for statement in _split(_SCHEMA):
                        self._db.execute(statement)
                    self._db.execute(
                        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                    )
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            self._db.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        except (sqlite3.Error, OSError) as err:
            if isinstance(err, sqlite3.Error) and _is_busy(err):
                raise JournalBusy(
                    f"{self.path}: the journal is in use by another program (still locked after {self._open_wait:g} s)"
                ) from err
            raise JournalError(f"{self.path}: not a usable journal ({err})") from err
        _check_version(self.path, row)

    def _has_schema(self) -> bool:
        """True when every table exists and the version mark is there (a read: no lock taken)."""
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"meta", "games", "actions", "snapshots"} <= tables:
            return False
        return self._db.execute("SELECT 1 FROM meta WHERE key = 'schema'").fetchone() is not None

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()
        if self._copy_dir is not None:
            self._copy_dir.cleanup()

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

    def readable_game(self, game_id: int) -> GameRecord:
        """The game's record; :class:`GameDamaged` when its setup cannot be read (to resume or export it)."""
        record = self.game(game_id)
        if record.problem is not None:
            raise GameDamaged(self.path, game_id, record.problem)
        return record

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
    def append(
        self, game_id: int, action: dict[str, Any], *, finished: bool | None = None, at: float | None = None
    ) -> int:
        """Commit one action; returns its sequence number. Undone actions after the tip are discarded.
        ``finished`` (when given) marks whether the game is over in the same transaction: a move that ends the
        game and the mark that it ended are never apart. ``at``: when it was played, for a game brought in from
        an export (default: now)."""
        text = json.dumps(action, sort_keys=True, separators=(",", ":"))
        now = self._now() if at is None else float(at)
        with self._tx():
            self._db.execute("DELETE FROM actions WHERE game_id = ? AND undone = 1", (game_id,))
            (seq,) = self._db.execute(
                "SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = ?", (game_id,)
            ).fetchone()
            # Snapshots past the new move were of the moves just discarded (undone, then replaced).
            self._db.execute("DELETE FROM snapshots WHERE game_id = ? AND count >= ?", (game_id, seq))
            self._db.execute(
                "INSERT INTO actions(game_id, seq, action, at) VALUES (?, ?, ?, ?)", (game_id, seq, text, now)
            )
            self._db.execute(
                "UPDATE games SET updated = ?, finished = COALESCE(?, finished) WHERE id = ?",
                (now, None if finished is None else int(finished), game_id),
            )
        return int(seq)

    @_guarded
    def actions(self, game_id: int) -> list[dict[str, Any]]:
        """The live (not undone) actions of a game, in order."""
        rows = self._db.execute(
            "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,)
        ).fetchall()
        return [self._action(game_id, seq, text) for seq, text in rows]

    def _action(self, game_id: int, seq: Any, text: Any) -> dict[str, Any]:
        """One stored move; :class:`GameDamaged` naming the game and the move when it cannot be read."""
        try:
            action = json.loads(text)
        except (TypeError, ValueError, RecursionError):
            raise GameDamaged(self.path, game_id, _("move {seq} cannot be read").format(seq=seq)) from None
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise GameDamaged(self.path, game_id, _("move {seq} is not a move").format(seq=seq))
        return action

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
        return self._action(game_id, row[0], row[1])

    @_guarded
    def next_redo(self, game_id: int) -> dict[str, Any] | None:
        """The action :meth:`redo` would bring back (``None`` when there is none), without changing anything."""
        row = self._db.execute(
            "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 1 ORDER BY seq LIMIT 1", (game_id,)
        ).fetchone()
        return None if row is None else self._action(game_id, row[0], row[1])

    @_guarded
    def redo(self, game_id: int, *, finished: bool | None = None) -> dict[str, Any] | None:
        """Bring back the earliest undone action (``None`` when there is none); ``finished`` as for
        :meth:`append`, in the same transaction."""
        with self._tx():
            row = self._db.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 1 ORDER BY seq LIMIT 1",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            self._db.execute("UPDATE actions SET undone = 0 WHERE game_id = ? AND seq = ?", (game_id, row[0]))
            if finished is not None:
                self._db.execute(
                    "UPDATE games SET updated = ?, finished = ? WHERE id = ?", (self._now(), int(finished), game_id)
                )
        return self._action(game_id, row[0], row[1])

    @_guarded
    def has_redo(self, game_id: int) -> bool:
        """True when an undone action is waiting to be redone."""
        row = self._db.execute("SELECT 1 FROM actions WHERE game_id = ? AND undone = 1 LIMIT 1", (game_id,))
        return row.fetchone() is not None

    # -- snapshots (derived: a faster start for resume and undo) ----------------------------------------------

    @_guarded
    def save_snapshot(self, game_id: int, count: int, state: dict[str, Any], rules: str) -> None:
        """Keep ``state`` as the game's state after its first ``count`` live moves under ``rules``."""
        texts = self._db.execute(
            "SELECT action FROM actions WHERE game_id = ? AND undone = 0 AND seq <= ? ORDER BY seq", (game_id, count)
        ).fetchall()
        if len(texts) != count:
            return
        blob = zlib.compress(json.dumps(state, separators=(",", ":")).encode(), 1)
        with self._tx():
            self._db.execute(
                "INSERT OR REPLACE INTO snapshots(game_id, count, rules, digest, state) VALUES (?, ?, ?, ?, ?)",
                (game_id, count, rules, _digest(t for (t,) in texts), blob),
            )
            self._db.execute(
                "DELETE FROM snapshots WHERE game_id = ? AND count NOT IN"
                " (SELECT count FROM snapshots WHERE game_id = ? ORDER BY count DESC LIMIT ?)",
                (game_id, game_id, KEEP_SNAPSHOTS),
            )

    @_guarded
    def resume_point(self, game_id: int, rules: str) -> tuple[Moves, list[Snapshot]]:
        """The live moves of a game (read as they are used) and its usable snapshots, latest first: made under
        ``rules``, of exactly these moves (a snapshot of moves since undone and replaced, or left by an older
        app, is left out)."""
        rows = self._db.execute(
            "SELECT seq, action FROM actions WHERE game_id = ? AND undone = 0 ORDER BY seq", (game_id,)
        ).fetchall()
        try:
            stored = self._db.execute(
                "SELECT count, digest, state FROM snapshots WHERE game_id = ? AND rules = ? AND count <= ?",
                (game_id, rules, len(rows)),
            ).fetchall()
        except sqlite3.OperationalError:  # an older file opened read-only: no snapshots table
            stored = []
        wanted = {count: (digest, blob) for count, digest, blob in stored if isinstance(count, int) and count >= 0}
        found: list[Snapshot] = []
        running = hashlib.sha256()
        for count in range(len(rows) + 1):  # one pass: each snapshot's digest of the moves it was made from
            if count in wanted and running.hexdigest() == wanted[count][0]:
                found.append(Snapshot(count, wanted[count][1]))
            if count < len(rows):
                running.update(str(rows[count][1]).encode())
                running.update(b"\n")
        moves = Moves([_Unread(seq, text) for seq, text in rows], lambda row: self._action(game_id, row.seq, row.text))
        return moves, sorted(found, key=lambda snap: -snap.count)

    @_guarded
    def integrity_ok(self) -> bool:
        return bool(self._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok")


def open_for_app(
    path: Path, *, now: Callable[[], float] = time.time, busy_timeout_s: float | None = None
) -> tuple[Journal, str | None]:
    """The app's journal, never refusing to start. A damaged journal is kept under another name beside it and
    every game that still reads is carried into a new file (the ones that do not are named); a file that cannot
    be opened at all (not a journal, or from a newer app) is kept aside and a new journal started; where even
    that fails (a read-only card), the games of this run live in memory only. The second value says so to the
    players (None when all is well).
    """
    try:
        return Journal(path, now=now, busy_timeout_s=busy_timeout_s), None
    except JournalBusy as err:  # locked is not damaged: the file and its games stay exactly as they are
        log.warning("%s", err)
        return Journal(":memory:", now=now), _(
            "Games are NOT being saved: the saved games are in use by another program ({name} is locked). "
            "Close that program, then restart Table Companion; every saved game is still there."
        ).format(name=path.name)
    except JournalDamaged as err:
        log.warning("%s", err)
        return _carry_over(path, err.reason, now)
    except JournalError as err:
        problem = str(err).removeprefix(f"{path}: ")
    if path.exists() and not os.access(path.parent, os.W_OK):
        copied = _read_only_card(path, now)
        if copied is not None:
            return copied
    kept = path.with_name(f"{path.name}.unusable-{_stamp(now)}")
    try:
        _move_aside(path, kept)
        return Journal(path, now=now), (
            _(
                "The saved games could not be opened ({problem}). The file is kept as {name}; a new one was "
                "started and new games are saved."
            ).format(problem=problem, name=kept.name)
        )
    except (OSError, JournalError) as err:
        return Journal(":memory:", now=now), (
            _("Games are NOT being saved: the journal cannot be used ({problem}; {error}). Check the SD card.").format(
                problem=problem, error=err
            )
        )


def _read_only_card(path: Path, now: Callable[[], float]) -> tuple[Journal, str] | None:
    """Every saved game of a journal on a read-only card, copied into memory: they can be continued, and the
    players are told nothing new is saved. None when the file cannot be read either."""
    try:
        source = Journal(path, readonly=True)
    except JournalError:
        return None
    try:
        memory = Journal(":memory:", now=now)
        source._db.backup(memory._db)
        for statement in _split(_SCHEMA):  # a journal from an older app lacks the newer tables
            memory._db.execute(statement)
    except (sqlite3.Error, JournalError):
        return None
    finally:
        source.close()
    return memory, _(
        "The SD card is read-only: every saved game can be continued, but nothing new is saved (this run's moves "
        "are lost when the app stops). Check the card's lock switch, or the card itself."
    )


def _is_busy(err: sqlite3.Error) -> bool:
    """True for "database is locked" / "busy": another connection holds the lock (not damage)."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    text = str(err).lower()
    return "database is locked" in text or "database table is locked" in text or "busy" in text


def _stamp(now: Callable[[], float]) -> str:
    return time.strftime("%Y%m%d-%H%M%S", time.localtime(now()))


def _move_aside(path: Path, kept: Path) -> None:
    """Rename the journal and its WAL files together (a WAL kept with its database keeps its commits)."""
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            part.rename(Path(f"{kept}{suffix}"))


def _carry_over(path: Path, problem: str, now: Callable[[], float]) -> tuple[Journal, str]:
    """Keep the damaged file as ``journal.sqlite3.damaged-<date>`` and copy every game that still reads back in
    full (same ids) into a new journal at ``path``; the message names the games left behind."""
    kept = path.with_name(f"{path.name}.damaged-{_stamp(now)}")
    source = kept
    try:
        _move_aside(path, kept)
        target = Journal(path, now=now)
        saving = True
    except (OSError, JournalError):  # nowhere to write (a read-only card): this run's games live in memory
        source, target, saving = path, Journal(":memory:", now=now), False
    carried, lost = _copy_games(source, target)
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


def _copy_games(source: Path, target: Journal) -> tuple[list[int], list[int]]:
    """Copy, row for row, every game of the damaged file ``source`` that reads back whole into ``target``.
    Returns the ids carried over and the ids that could not be read."""
    carried: list[int] = []
    lost: list[int] = []
    try:
        src = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except (sqlite3.Error, OSError, ValueError):
        return carried, lost
    try:
        ids, highest = _game_ids(src)
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


def _game_ids(src: sqlite3.Connection) -> tuple[list[int], int]:
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


def _quick_check(db: sqlite3.Connection) -> str | None:
    """``None`` when SQLite finds the file sound, else what it found (first lines)."""
    try:
        rows = db.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as err:
        return str(err)
    found = [str(r[0]) for r in rows]
    return None if found == ["ok"] else "; ".join(found)[:300]


def _check_version(path: Path, row: tuple[Any, ...] | None) -> None:
    """The file's schema mark: a number this app knows, else :class:`JournalDamaged` (unreadable) or
    :class:`JournalError` (from a newer app)."""
    if row is None:
        raise JournalDamaged(path, _("its version mark is missing"))
    try:
        version = int(str(row[0]).strip())
    except ValueError:
        raise JournalDamaged(path, _("its version mark cannot be read"), repr(str(row[0])[:20])) from None
    if version > SCHEMA_VERSION:
        raise JournalError(f"{path}: journal schema {version} is newer than this app understands")


def _digest(texts: Iterable[str]) -> str:
    """A digest of moves' stored text, in order (what a snapshot was made from)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(str(text).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def _split(script: str) -> list[str]:
    return [s.strip() for s in script.split(";") if s.strip()]


def _record(row: tuple[Any, ...]) -> GameRecord:
    """A game's row; a setup that cannot be read gives a record with ``problem`` set (and no players)."""
    game = str(row[1])
    problem = None
    try:
        setup = _read_setup(row[2])
    except ValueError as err:
        setup, problem = Setup(game, ()), str(err)
    return GameRecord(
        id=int(row[0]),
        game=game,
        setup=setup,
        created=_number(row[3]),
        updated=_number(row[4]),
        finished=bool(row[5]),
        actions=int(row[6]),
        problem=problem,
    )


def _read_setup(text: Any) -> Setup:
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise ValueError(_("its setup is not valid JSON")) from None
    if not isinstance(data, dict):
        raise ValueError(_("its setup is not an object"))
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError(_("its setup has no players"))
    try:
        return Setup.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ValueError(_("its setup cannot be read ({err})").format(err=err)) from None


def _number(value: Any) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0
