"""The shape of a Ratuki game's state, as ``TypedDict``\\ s, so ``mypy --strict`` checks every key the engine reads
and writes. The state is still plain JSON (the journal, snapshots and ``companion replay`` see the same dicts);
these types only describe it. (No ``from __future__ import annotations`` here: ``NotRequired`` must be seen when
the classes are made, or ``stopped`` would count as a required key at runtime.)"""

from enum import StrEnum
from typing import NotRequired, TypedDict

from companion.games.base import PlayerData as PlayerData  # re-exported: part of the described state


class Phase(StrEnum):
    """Where the game is: before a round, playing it, scoring it, or over. Equal to the plain string the
    state keeps ("ready", "playing", ...), so states read back from JSON compare the same."""

    READY = "ready"
    PLAYING = "playing"
    SCORING = "scoring"
    OVER = "over"


class Settings(TypedDict):
    """The game's options (see ``rules.SETTINGS`` for what each means)."""

    tie_window_ms: int
    lockout_ms: int
    stall_s: int
    target: int
    count_hand: bool
    equal_at_target: str
    deck_size: int
    sound: bool


class Clock(TypedDict):
    """The round clock: seconds run before the last pause, and the tick it was started at while running."""

    elapsed: float
    since: float | None


class PressData(TypedDict):
    """One button press in a call (``referee.Press.to_json``)."""

    seat: int
    tick: float


class VerdictData(TypedDict):
    """The referee's verdict on a call (``referee.Verdict.to_json``)."""

    kind: str
    seats: list[int]
    margin_ms: float | None
    runner_up: int | None
    spread_ms: float | None


class Call(TypedDict):
    """One contest for a stack: its first press's tick, the presses inside the tie window, the late ones."""

    first: float
    presses: list[PressData]
    late: list[PressData]
    verdict: VerdictData


class Entry(TypedDict):
    """One player's counts for a round and the points they make."""

    score_pile: int
    left: int
    hand: int
    points: int


class Stopped(TypedDict):
    """Why the round stopped, and who went out (when someone did)."""

    reason: str
    seat: int | None


class RoundRecord(TypedDict):
    """A finished round on the score sheet."""

    round: int
    duration_s: float
    stopped: Stopped | None
    entries: dict[str, Entry]
    stacks: dict[str, int]
    ties: dict[str, int]
    calls: int


class Result(TypedDict):
    """How the game ended: a win or a draw, and the winners' names."""

    kind: str
    winners: list[str]


class RatukiState(TypedDict):
    """A whole game: players, options, the round being played and the score sheet so far."""

    players: list[PlayerData]
    settings: Settings
    round: int
    phase: Phase
    clock: Clock
    calls: list[Call]
    entries: dict[str, Entry]
    rounds: list[RoundRecord]
    totals: dict[str, int]
    result: Result | None
    stopped: NotRequired[Stopped]
