"""Rules engines, one module per game, standard library only.

``ENGINES`` maps each implemented game's id to its engine; the home screen, the journal and ``companion
replay`` find games only through it, so a game that is not registered here does not appear anywhere.
"""

from __future__ import annotations

import importlib
import importlib.util

from companion.games.base import BadSetup, Engine, IllegalAction, Player, Setup

__all__ = ["BadSetup", "Engine", "IllegalAction", "Player", "Setup", "engine", "engines"]

# id -> "module:attribute"; imported lazily so one broken engine cannot stop the others from loading.
_REGISTRY: dict[str, str] = {}


def register(name: str, target: str) -> None:
    """Make a game available (used by this module's registration list below)."""
    _REGISTRY[name] = target


def engine(name: str) -> Engine:
    """The engine for game ``name``; :class:`BadSetup` if there is no such game."""
    if name not in _REGISTRY:
        raise BadSetup(f"unknown game {name!r} (known: {', '.join(sorted(_REGISTRY)) or 'none'})")
    module, _, attr = _REGISTRY[name].partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def available(name: str) -> bool:
    """True when the game's engine module is present (registered games without one are not offered)."""
    module = _REGISTRY.get(name, "").partition(":")[0]
    return bool(module) and importlib.util.find_spec(module) is not None


def engines() -> list[Engine]:
    """All implemented engines, in registration order."""
    return [engine(name) for name in _REGISTRY if available(name)]


# Registration list: each game adds one line when its engine lands.
register("ratatat", "companion.games.ratatat:ENGINE")
register("lowdown", "companion.games.lowdown:ENGINE")
register("ratuki", "companion.games.ratuki:ENGINE")
register("artcollectors", "companion.games.artcollectors:ENGINE")
