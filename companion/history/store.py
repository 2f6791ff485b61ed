"""The history file beside the journal: players as persons, which person sat in which seat of which play, and
each play's derived result (a cache of the journal's replay, and the only copy of a play imported from CSV).

It is a separate SQLite file (``history.sqlite3``) so the journal stays the action log and nothing else; losing
this file loses names and links, never a game (everything but imported plays and renames is derived again).
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import secrets
import shutil
import sqlite3
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from companion.history.results import Play
from companion.i18n import Lazy, _

F = TypeVar("F", bound=Callable[..., Any])

log = logging.getLogger(__name__)

SCHEMA_VERSION = 1
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS persons (
    uid TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    colour TEXT NOT NULL,
    initial TEXT NOT NULL DEFAULT '',
    created REAL NOT NULL,
    last_used REAL NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS aliases (key TEXT PRIMARY KEY, person TEXT NOT NULL REFERENCES persons(uid));
CREATE TABLE IF NOT EXISTS seats (
    play TEXT NOT NULL,
    seat INTEGER NOT NULL,
    person TEXT NOT NULL REFERENCES persons(uid),
    PRIMARY KEY (play, seat)
);
CREATE TABLE IF NOT EXISTS plays (
    uid TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    journal_id INTEGER,
    cache_key TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    game TEXT NOT NULL,
    started REAL NOT NULL,
    data TEXT NOT NULL,
    hidden INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS plays_started ON plays(started);
CREATE INDEX IF NOT EXISTS seats_person ON seats(person);
"""

JOURNAL = "journal"  # a play derived from this install's journal
IMPORTED = "import"  # a play read from a CSV export (no journal here)


class HistoryError(RuntimeError):
    """The history file cannot be read or written (the message names it), or a player edit is refused."""


class HistoryBusy(HistoryError):
    """Another program holds the history file's lock (not damage: the file is fine)."""


def _is_busy(err: sqlite3.Error) -> bool:
    """True for "database is locked" / "busy": another connection holds the lock."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    return "locked" in str(err).lower() or "busy" in str(err).lower()


def _unwritable(err: sqlite3.Error) -> bool:
    """True when SQLite cannot write the file (a read-only or full card, an I/O error): not damage to what it
    holds, which can still be read."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (sqlite3.SQLITE_READONLY, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)
    text = str(err).lower()
    return "readonly" in text or "read-only" in text or "disk is full" in text or "disk i/o" in text


def _unusable(path: Path, err: Exception) -> str:
    return _("{path}: not a usable history file ({error})").format(path=path, error=err)


def cannot_write(reason: object) -> Lazy:
    """What the players are told when the history file cannot be written."""
    return Lazy(
        "The players and history file cannot be written ({reason}): what was saved is shown, but changes made "
        "from now on (new plays, renames, colours, imports) are kept only until the app stops.",
        reason=reason if isinstance(reason, Lazy) else str(reason),
    )


def name_key(name: str) -> str:
    """How two spellings of one name are told to be the same: Unicode NFC, spaces collapsed, case folded (so
    "ana", "Ana " and "ANA" are one person, and a Hangul name typed in decomposed jamo matches the composed one)."""
    return " ".join(unicodedata.normalize("NFC", name).split()).casefold()


def clean_name(name: str) -> str:
    return " ".join(unicodedata.normalize("NFC", name).split())


def first_initial(name: str) -> str:
    """The avatar initial shown when none was chosen: the name's first letter (a whole Hangul syllable)."""
    text = clean_name(name)
    return text[:1].upper() if text else "?"


@dataclass(frozen=True)
class Person:
    """A player kept across games: ``uid`` is stable (exports carry it), the name is in any script."""

    uid: str
    name: str
    colour: str
    initial: str
    created: float
    last_used: float

    @property
    def avatar(self) -> str:
        return self.initial or first_initial(self.name)


def _guarded(method: F) -> F:
    """SQLite's errors as :class:`HistoryError`. A write the file refuses (a card gone read-only or full) moves
    the store into memory, with everything it holds, and is done there: nothing shown is lost, the players are
    told (``on_trouble``), and nothing is written to the file again this run."""

    @functools.wraps(method)
    def wrapper(self: HistoryStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as err:
            if _unwritable(err) and self.trouble is None and self._to_memory(err):
                return wrapper(self, *args, **kwargs)
            raise HistoryError(
                _("{path}: the history could not be read or written ({error})").format(path=self.path, error=err)
            ) from err

    return wrapper  # type: ignore[return-value]


class HistoryStore:
    """Persons, seat links and plays in one SQLite file (WAL, synchronous=FULL, one transaction per change)."""

    def __init__(self, path: str | Path, *, now: Callable[[], float] = time.time) -> None:
        self.path = Path(path)
        self._now = now
        # Why this run's changes stay in memory (the file could not be written), None while they reach the file;
        # ``on_trouble`` hears it once, when it happens.
        self.trouble: Lazy | None = None
        self.on_trouble: Callable[[Lazy], None] | None = None
        try:
            if str(path) != ":memory:":
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.path), isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA busy_timeout=2000")
            with self._tx():
                for statement in (s.strip() for s in _SCHEMA.split(";")):
                    if statement:
                        self._db.execute(statement)
                self._db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            # A garbled page is found now, not by the query that happens to read it one day.
            check = self._db.execute("PRAGMA quick_check").fetchone()
        except (sqlite3.Error, OSError) as err:
            kind = HistoryBusy if isinstance(err, sqlite3.Error) and _is_busy(err) else HistoryError
            raise kind(_unusable(self.path, err)) from err
        if check is None or check[0] != "ok":
            self._db.close()
            raise HistoryError(_("{path}: the history file is damaged").format(path=self.path))
        if row is None or not str(row[0]).isdigit() or int(row[0]) > SCHEMA_VERSION:
            self._db.close()
            raise HistoryError(f"{self.path}: history schema {row and row[0]} is newer than this app understands")

    @classmethod
    def copied(cls, path: Path, *, now: Callable[[], float] = time.time) -> HistoryStore:
        """A history file that cannot be written (a read-only card), read into memory: everything it holds is
        shown and this run's changes are kept until the app stops. The file is read through a private copy (its
        WAL may still hold commits, which SQLite cannot read on a read-only card), never written. Raises
        :class:`HistoryError` when it cannot be read either (damaged, newer)."""
        with tempfile.TemporaryDirectory(prefix="companion-history-") as folder:
            copy = Path(folder) / path.name
            try:
                shutil.copyfile(path, copy)
                if Path(f"{path}-wal").exists():
                    shutil.copyfile(f"{path}-wal", f"{copy}-wal")
            except OSError as err:
                raise HistoryError(_unusable(path, err)) from err
            cls(copy).close()  # checked as any history file: a damaged or newer one is refused
            store = cls(":memory:", now=now)
            source = sqlite3.connect(str(copy))
            try:
                source.backup(store._db)
            except sqlite3.Error as err:
                store.close()
                raise HistoryError(_unusable(path, err)) from err
            finally:
                source.close()
        store.path = path
        store.trouble = cannot_write(Lazy("the card is read-only"))
        return store

    def _to_memory(self, err: sqlite3.Error) -> bool:
        """Carry on in memory with everything the file holds (its write was refused); False when not even that
        works (the error then stands)."""
        try:
            memory = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            self._db.backup(memory)
        except sqlite3.Error:
            log.exception("history: could not carry on in memory after %s", err)
            return False
        log.warning("history file %s cannot be written (%s): this run's changes are kept in memory", self.path, err)
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = memory
        self.trouble = cannot_write(err)
        if self.on_trouble is not None:
            self.on_trouble(self.trouble)
        return True

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _tx(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise

    # -- persons -------------------------------------------------------------------------------------------

    @_guarded
    def persons(self) -> list[Person]:
        """Everyone, most recently played first (then by name)."""
        rows = self._db.execute(
            "SELECT uid, name, colour, initial, created, last_used FROM persons ORDER BY last_used DESC, key"
        ).fetchall()
        return [Person(*row) for row in rows]

    @_guarded
    def person(self, uid: str) -> Person | None:
        row = self._db.execute(
            "SELECT uid, name, colour, initial, created, last_used FROM persons WHERE uid = ?", (uid,)
        ).fetchone()
        return Person(*row) if row else None

    @_guarded
    def find(self, name: str) -> Person | None:
        """The person known by this name now, or once (an old name after a rename, a merged name)."""
        key = name_key(name)
        row = self._db.execute("SELECT uid FROM persons WHERE key = ?", (key,)).fetchone()
        if row is None:
            row = self._db.execute("SELECT person FROM aliases WHERE key = ?", (key,)).fetchone()
        return self.person(str(row[0])) if row else None

    @_guarded
    def add_person(self, name: str, colour: str, *, uid: str | None = None, initial: str = "") -> Person:
        """A new person (refused when the name, or a name they were once known by, is someone's already)."""
        text = clean_name(name)
        if not text:
            raise HistoryError(_("a player needs a name"))
        if self.find(text) is not None:
            raise HistoryError(_("there is already a player called {name}").format(name=text))
        person = Person(uid or secrets.token_hex(8), text, colour, initial, self._now(), 0.0)
        with self._tx():
            self._db.execute(
                "INSERT INTO persons(uid, name, key, colour, initial, created, last_used) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (person.uid, person.name, name_key(text), colour, initial, person.created, 0.0),
            )
        return person

    def person_for(self, name: str, colour: str) -> Person:
        """The person with this name, made when there is none (how plays from before players existed get theirs)."""
        return self.find(name) or self.add_person(name, colour)

    @_guarded
    def update_person(
        self, uid: str, *, name: str | None = None, colour: str | None = None, initial: str | None = None
    ) -> Person:
        """Rename (the old name stays theirs: a game typed with it later is still theirs), recolour, or set the
        avatar initial. A name that is someone else's is refused: merge the two instead."""
        person = self.person(uid)
        if person is None:
            raise HistoryError(_("that player no longer exists"))
        with self._tx():
            if name is not None and clean_name(name) != person.name:
                text = clean_name(name)
                if not text:
                    raise HistoryError(_("a player needs a name"))
                other = self.find(text)
                if other is not None and other.uid != uid:
                    raise HistoryError(_("{name} is another player: merge the two instead").format(name=other.name))
                self._db.execute("DELETE FROM aliases WHERE key = ?", (name_key(text),))
                self._db.execute(
                    "INSERT OR REPLACE INTO aliases(key, person) VALUES (?, ?)", (name_key(person.name), uid)
                )
                self._db.execute("UPDATE persons SET name = ?, key = ? WHERE uid = ?", (text, name_key(text), uid))
            if colour is not None:
                self._db.execute("UPDATE persons SET colour = ? WHERE uid = ?", (colour, uid))
            if initial is not None:
                self._db.execute("UPDATE persons SET initial = ? WHERE uid = ?", (clean_name(initial)[:2], uid))
        updated = self.person(uid)
        assert updated is not None
        return updated

    @_guarded
    def merge(self, source: str, target: str) -> Person:
        """``source`` and ``target`` are one person: every play of ``source`` becomes ``target``'s, and the
        names ``source`` went by lead to ``target`` from now on. Nothing of either's history is lost."""
        a, b = self.person(source), self.person(target)
        if a is None or b is None:
            raise HistoryError(_("that player no longer exists"))
        if a.uid == b.uid:
            raise HistoryError(_("a player cannot be merged with themselves"))
        clash = self._db.execute(
            "SELECT s1.play FROM seats s1 JOIN seats s2 ON s1.play = s2.play WHERE s1.person = ? AND s2.person = ?",
            (a.uid, b.uid),
        ).fetchone()
        if clash is not None:
            raise HistoryError(
                _("{name} and {other} played in the same game: they are two people").format(name=a.name, other=b.name)
            )
        with self._tx():
            self._db.execute("UPDATE seats SET person = ? WHERE person = ?", (b.uid, a.uid))
            self._db.execute("UPDATE aliases SET person = ? WHERE person = ?", (b.uid, a.uid))
            self._db.execute("INSERT OR REPLACE INTO aliases(key, person) VALUES (?, ?)", (name_key(a.name), b.uid))
            self._db.execute("UPDATE persons SET last_used = MAX(last_used, ?) WHERE uid = ?", (a.last_used, b.uid))
            self._db.execute("DELETE FROM persons WHERE uid = ?", (a.uid,))
        merged = self.person(b.uid)
        assert merged is not None
        return merged

    @_guarded
    def add_alias(self, name: str, uid: str) -> None:
        """Another name ``uid`` is known by (an imported player's old names)."""
        with self._tx():
            self._db.execute("INSERT OR REPLACE INTO aliases(key, person) VALUES (?, ?)", (name_key(name), uid))

    @_guarded
    def names_of(self, uid: str) -> list[str]:
        """Every name key a person is known by besides their own (for showing "also played as")."""
        return [str(r[0]) for r in self._db.execute("SELECT key FROM aliases WHERE person = ?", (uid,)).fetchall()]

    # -- seats -----------------------------------------------------------------------------------------------

    @_guarded
    def links(self, play: str) -> dict[int, str]:
        """seat -> person uid for one play."""
        rows = self._db.execute("SELECT seat, person FROM seats WHERE play = ?", (play,)).fetchall()
        return {int(s): str(p) for s, p in rows}

    @_guarded
    def all_links(self) -> dict[str, dict[int, str]]:
        out: dict[str, dict[int, str]] = {}
        for play, seat, person in self._db.execute("SELECT play, seat, person FROM seats").fetchall():
            out.setdefault(str(play), {})[int(seat)] = str(person)
        return out

    @_guarded
    def link(self, play: str, seat: int, person: str, *, when: float | None = None) -> None:
        """Say who sat in ``seat`` of ``play`` (replacing an earlier link); marks the person as just played."""
        with self._tx():
            self._db.execute("INSERT OR REPLACE INTO seats(play, seat, person) VALUES (?, ?, ?)", (play, seat, person))
            stamp = self._now() if when is None else when
            self._db.execute("UPDATE persons SET last_used = MAX(last_used, ?) WHERE uid = ?", (stamp, person))

    # -- plays ------------------------------------------------------------------------------------------------

    @_guarded
    def cache_keys(self) -> dict[str, tuple[str, int | None, str]]:
        """uid -> (cache key, journal id, source) of every stored play (deleted ones too)."""
        rows = self._db.execute("SELECT uid, cache_key, journal_id, source FROM plays").fetchall()
        return {str(u): (str(k), j if j is None else int(j), str(s)) for u, k, j, s in rows}

    @_guarded
    def put_play(self, play: Play, *, source: str, cache_key: str = "") -> None:
        """Store (or replace) a play's result; a play the players deleted from history stays deleted."""
        data = json.dumps(play.to_json(), sort_keys=True, ensure_ascii=False)
        with self._tx():
            self._db.execute(
                "INSERT INTO plays(uid, source, journal_id, cache_key, status, game, started, data)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(uid) DO UPDATE SET source = excluded.source, journal_id = excluded.journal_id,"
                " cache_key = excluded.cache_key, status = excluded.status, game = excluded.game,"
                " started = excluded.started, data = excluded.data",
                (play.uid, source, play.journal_id, cache_key, play.status, play.game, play.started, data),
            )

    @_guarded
    def plays(self, *, statuses: Iterable[str] | None = None, hidden: bool = False) -> list[Play]:
        """Stored plays, newest first (deleted ones only with ``hidden``)."""
        rows = self._db.execute(
            "SELECT data, status FROM plays WHERE hidden = ? ORDER BY started DESC, uid", (int(hidden),)
        ).fetchall()
        wanted = set(statuses) if statuses is not None else None
        return [Play.from_json(json.loads(d)) for d, s in rows if wanted is None or s in wanted]

    @_guarded
    def play(self, uid: str) -> Play | None:
        row = self._db.execute("SELECT data FROM plays WHERE uid = ?", (uid,)).fetchone()
        return Play.from_json(json.loads(row[0])) if row else None

    @_guarded
    def source(self, uid: str) -> str | None:
        row = self._db.execute("SELECT source FROM plays WHERE uid = ?", (uid,)).fetchone()
        return str(row[0]) if row else None

    @_guarded
    def hide(self, uid: str) -> None:
        """Take a play out of history (its journal game, if any, is not touched)."""
        with self._tx():
            self._db.execute("UPDATE plays SET hidden = 1 WHERE uid = ?", (uid,))

    @_guarded
    def forget(self, uid: str) -> None:
        """Remove a play and its seat links entirely (an imported play deleted, or its journal game deleted)."""
        with self._tx():
            self._db.execute("DELETE FROM plays WHERE uid = ?", (uid,))
            self._db.execute("DELETE FROM seats WHERE play = ?", (uid,))
