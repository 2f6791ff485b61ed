"""Rules engines, one package per game, standard library only.

``GAMES`` is the one table of games: each game's engine and the screen it is played on. The home screen, the
journal, ``companion replay`` and the UI find games only through it, so a game that is not in it does not appear
anywhere, and one that is in it appears everywhere. Both are named as "module:attribute" and imported when
used: the rules never import the UI (the screen is only a name here, imported by the UI).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

from companion.games.base import BadSetup, Engine, IllegalAction, Player, Setup

__all__ = ["GAMES", "BadSetup", "Engine", "GameEntry", "IllegalAction", "Player", "Setup", "engine", "engines"]


@dataclass(frozen=True)
class GameEntry:
    """One game: its engine and its game screen, as "module:attribute". ``screen`` None: a game with no screen
    (a test's toy game), played through the journal and ``companion replay`` but never offered on the home
    screen."""

    engine: str
    screen: str | None = None


GAMES: dict[str, GameEntry] = {
    "ratatat": GameEntry("companion.games.ratatat:ENGINE", "companion.ui.screens.ratatat:RatatatScreen"),
    "lowdown": GameEntry("companion.games.lowdown:ENGINE", "companion.ui.screens.lowdown:LowdownScreen"),
    "ratuki": GameEntry("companion.games.ratuki:ENGINE", "companion.ui.screens.ratuki:RatukiScreen"),
    "artcollectors": GameEntry(
        "companion.games.artcollectors:ENGINE", "companion.ui.screens.artcollectors:ArtCollectorsScreen"
    ),
}


def register(name: str, entry: GameEntry) -> None:
    """Add a game to :data:`GAMES` (tests register a toy game this way)."""
    GAMES[name] = entry


def engine(name: str) -> Engine[Any]:
    """The engine for game ``name``; :class:`BadSetup` if there is no such game."""
    if name not in GAMES:
        raise BadSetup(f"unknown game {name!r} (known: {', '.join(sorted(GAMES)) or 'none'})")
    module, _, attr = GAMES[name].engine.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def engines() -> list[Engine[Any]]:
    """Every game's engine, in the table's order."""
    return [engine(name) for name in GAMES]
