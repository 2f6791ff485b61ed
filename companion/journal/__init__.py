"""The game journal: every accepted action is one committed SQLite row; a game's state is their replay."""

from companion.journal.replay import ReplayError, dump_lines, load_lines, replay
from companion.journal.session import GameSession
from companion.journal.store import (
    GameDamaged,
    GameRecord,
    Journal,
    JournalBusy,
    JournalDamaged,
    JournalError,
    JournalFull,
)

__all__ = [
    "GameDamaged",
    "GameRecord",
    "GameSession",
    "Journal",
    "JournalBusy",
    "JournalDamaged",
    "JournalError",
    "JournalFull",
    "ReplayError",
    "dump_lines",
    "load_lines",
    "replay",
]
