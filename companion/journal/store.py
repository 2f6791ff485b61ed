"""SQLite action log in WAL mode, one row per accepted action, committed before the UI shows its effect.

Here: the :class:`Journal` and :func:`open_for_app`; the file's format is :mod:`.schema`'s, what a read gives
back :mod:`.records`', the errors :mod:`.errors`', carrying a damaged or read-only file over :mod:`.recovery`'s."""

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
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from companion.games.base import Setup
from companion.i18n import _
from companion.journal.errors import GameDamaged, JournalBusy, JournalDamaged, JournalError, JournalFull, is_busy
from companion.journal.records import GameRecord, Moves, Snapshot, Unread, record_from_row
from companion.journal.recovery import carry_over, move_aside, read_only_card, stamp
from companion.journal.schema import SCHEMA, SCHEMA_VERSION, check_version, quick_check, split_statements

__all__ = [
    "BUSY_S",
    "KEEP_SNAPSHOTS",
    "OPEN_BUSY_S",
    "SCHEMA_VERSION",
    "GameDamaged",
    "GameRecord",
    "Journal",
    "JournalBusy",
    "JournalDamaged",
    "JournalError",
    "JournalFull",
    "Moves",
    "Snapshot",
    "open_for_app",
]

F = TypeVar("F", bound=Callable[..., Any])
log = logging.getLogger(__name__)

OPEN_BUSY_S = 10.0  # how long opening waits for another program's lock on the file (a backup, an sqlite3 shell)
BUSY_S = 3.0  # how long a move waits for it before "not saved: in use" (the UI waits that long at most)

# Derived data only: a game's state after its first ``count`` moves, for the rules of that version (a digest of
# the engines' files) and those exact moves (a digest of their stored text). Resume and a deep undo start from
# one instead of replaying the whole game; any mismatch and it is ignored. The latest KEEP_SNAPSHOTS per game stay.
KEEP_SNAPSHOTS = 2


def _guarded(method: F) -> F:
    """SQLite's own errors (a full or failing card, a damaged page) come out as :class:`JournalError` naming
    the file, so the app can say "nothing was recorded" instead of crashing."""

    @functools.wraps(method)
    def wrapper(self: Journal, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as err:
            if is_busy(err):
                raise JournalBusy(
                    f"{self.path}: the journal is in use by another program; nothing was recorded ({err})"
                ) from err
            if getattr(err, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL or "is full" in str(err):
                raise JournalFull(f"{self.path}: the card is full; nothing was recorded ({err})") from err
            raise JournalError(f"{self.path}: the journal could not be read or written ({err})") from err

    return wrapper  # type: ignore[return-value]


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
                if isinstance(err, sqlite3.Error) and is_busy(err):
                    raise JournalBusy(f"{self.path}: the journal is in use by another program ({err})") from err
                raise JournalError(f"{self.path}: not a readable journal ({err})") from err
            self.damage = quick_check(self._db)  # said by the command line; listing goes on where it can
            check_version(self.path, row)
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
            if is_busy(err) or os.access(self.path.parent, os.W_OK):
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
            damage = quick_check(self._db) if existed else None
            if damage is not None:
                raise JournalDamaged(self.path, _("broken pages were found in it"), f"quick_check: {damage}")
            if not self._has_schema():  # only a new (or older) file is written to at open: a lock elsewhere waits
                with self._tx():
                    for statement in split_statements(SCHEMA):
                        self._db.execute(statement)
                    self._db.execute(
                        "INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                    )
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            self._db.execute(f"PRAGMA busy_timeout={self._busy_ms}")
        except (sqlite3.Error, OSError) as err:
            if isinstance(err, sqlite3.Error) and is_busy(err):
                raise JournalBusy(
                    f"{self.path}: the journal is in use by another program (still locked after {self._open_wait:g} s)"
                ) from err
            raise JournalError(f"{self.path}: not a usable journal ({err})") from err
        check_version(self.path, row)

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
        return record_from_row(row)

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
        return [record_from_row(r) for r in rows]

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
        moves = Moves([Unread(seq, text) for seq, text in rows], lambda row: self._action(game_id, row.seq, row.text))
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
        return carry_over(path, err.reason, now)
    except JournalError as err:
        problem = str(err).removeprefix(f"{path}: ")
    if path.exists() and not os.access(path.parent, os.W_OK):
        copied = read_only_card(path, now)
        if copied is not None:
            return copied
    kept = path.with_name(f"{path.name}.unusable-{stamp(now)}")
    try:
        move_aside(path, kept)
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


def _digest(texts: Iterable[str]) -> str:
    """A digest of moves' stored text, in order (what a snapshot was made from)."""
    digest = hashlib.sha256()
    for text in texts:
        digest.update(str(text).encode())
        digest.update(b"\n")
    return digest.hexdigest()
