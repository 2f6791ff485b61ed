"""The journal's errors: each names the file, and says for the players what went wrong (locked, full,
damaged, one game damaged)."""

from __future__ import annotations

import sqlite3
from pathlib import Path


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


def is_busy(err: sqlite3.Error) -> bool:
    """True for "database is locked" / "busy": another connection holds the lock (not damage)."""
    code = getattr(err, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return True
    text = str(err).lower()
    return "database is locked" in text or "database table is locked" in text or "busy" in text
