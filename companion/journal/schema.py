"""The journal file's format: its tables, the schema version this app writes, and the checks made when a file
is opened (SQLite's quick_check, the version mark)."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from companion.i18n import _
from companion.journal.errors import JournalDamaged, JournalError

SCHEMA_VERSION = 1

SCHEMA = """
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


def split_statements(script: str) -> list[str]:
    """The statements of an SQL script, one by one."""
    return [s.strip() for s in script.split(";") if s.strip()]


def quick_check(db: sqlite3.Connection) -> str | None:
    """``None`` when SQLite finds the file sound, else what it found (first lines)."""
    try:
        rows = db.execute("PRAGMA quick_check(5)").fetchall()
    except sqlite3.DatabaseError as err:
        return str(err)
    found = [str(r[0]) for r in rows]
    return None if found == ["ok"] else "; ".join(found)[:300]


def check_version(path: Path, row: tuple[Any, ...] | None) -> None:
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
