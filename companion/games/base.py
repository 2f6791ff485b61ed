"""The contract every rules engine follows.

An engine is a set of pure functions over plain JSON data: ``setup`` makes the first state from the players
and settings, ``apply`` takes a state and one action (a dict with a ``"type"`` key) and returns the next state,
or raises :class:`IllegalAction` with a reason a player understands. Engines import only the standard library;
randomness and time arrive inside actions or settings (a seed, a tick), never read inside an engine.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Protocol

JSON = Any
State = dict[str, Any]
Action = dict[str, Any]


class IllegalAction(ValueError):
    """An action the rules do not allow; ``str(err)`` is shown to the players as is."""


class BadSetup(ValueError):
    """Players or settings that cannot start a game (wrong player count, unknown setting, bad data file)."""


@dataclass(frozen=True)
class Player:
    """A seat at the table: name, display colour (``#rrggbb``) and the button/seat number (1-based)."""

    name: str
    colour: str = "#ffffff"
    seat: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "seat": self.seat}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        return cls(name=str(data["name"]), colour=str(data.get("colour", "#ffffff")), seat=int(data.get("seat", 1)))


@dataclass(frozen=True)
class Setup:
    """Everything needed to start a game; with the action log it determines every later state."""

    game: str
    players: tuple[Player, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [p.to_json() for p in self.players],
            "settings": dict(self.settings),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        return cls(
            game=str(data["game"]),
            players=tuple(Player.from_json(p) for p in data["players"]),
            settings=dict(data.get("settings", {})),
            seed=int(data.get("seed", 0)),
        )


class Engine(Protocol):
    """What the journal, the replay command and the UI need from a game."""

    name: str  # short id used in files and the journal, e.g. "ratuki"
    title: str  # shown on screen, e.g. "Ratuki"
    min_players: int
    max_players: int

    def default_settings(self) -> dict[str, Any]:
        """Every setting with its default; ``setup`` rejects keys not listed here."""
        ...

    def setup(self, setup: Setup) -> State:
        """The state before the first action. Raises :class:`BadSetup`."""
        ...

    def apply(self, state: State, action: Action) -> State:
        """The state after ``action``; never mutates ``state``. Raises :class:`IllegalAction`."""
        ...

    def is_over(self, state: State) -> bool:
        """True once the game has ended and scores are final."""
        ...

    def scores(self, state: State) -> dict[str, Any]:
        """Scores so far (or final), keyed by player name, plus ``"winners"`` when the game is over."""
        ...

    def describe(self, action: Action) -> str:
        """One line for the log and the undo prompt, e.g. "Ana takes the stack (+12 ms)".

        Optional hooks that :class:`~companion.journal.GameSession` uses when an engine has them:
        ``describe(action, state=None)`` (names players from the state), ``prepare_setup(setup) -> Setup``
        (make the recorded setup self-contained, e.g. a board file read inline), ``setting_choices``,
        ``setting_labels`` and ``setting_ranges`` (how the new-game screen offers the settings).
        """
        ...


def check_settings(defaults: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """Merge ``given`` over ``defaults``; unknown keys or values of the wrong type raise :class:`BadSetup`."""
    merged = copy.deepcopy(defaults)
    for key, value in given.items():
        if key not in defaults:
            raise BadSetup(f"unknown setting {key!r} (known: {', '.join(sorted(defaults))})")
        want = type(defaults[key])
        ok = isinstance(value, want) or (want is float and isinstance(value, int) and not isinstance(value, bool))
        if defaults[key] is not None and (not ok or (want is int and isinstance(value, bool))):
            raise BadSetup(f"setting {key!r} must be {want.__name__}, got {value!r}")
        merged[key] = value
    return merged


def check_players(setup: Setup, lo: int, hi: int) -> None:
    """Raise :class:`BadSetup` unless the player count is in ``lo..hi`` and names and seats are unique."""
    n = len(setup.players)
    if not lo <= n <= hi:
        raise BadSetup(f"{setup.game} needs {lo}–{hi} players, not {n}")
    names = [p.name for p in setup.players]
    if len(set(names)) != n or any(not name.strip() for name in names):
        raise BadSetup("every player needs a different, non-empty name")
    seats = [p.seat for p in setup.players]
    if len(set(seats)) != n:
        raise BadSetup("two players cannot share a button/seat")


def require(condition: bool, reason: str) -> None:
    """Raise :class:`IllegalAction` with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)


def action_type(action: Action) -> str:
    """The action's ``type``; a malformed action raises :class:`IllegalAction`."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(f"an action must be an object with a 'type', not {action!r}")
    return str(action["type"])
