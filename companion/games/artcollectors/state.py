"""The shape of an Art Collectors game's state, as ``TypedDict``\\ s, so ``mypy --strict`` checks every key the
engine reads and writes. The state is still plain JSON (the journal, snapshots and ``companion replay`` see the
same dicts); these types only describe it. (No ``from __future__ import annotations`` here, as in Ratuki's: a
``NotRequired`` key must be seen when its class is made, or it would count as a required one at runtime.)

Both modes keep every key: the final count's (``counts``, ``black_cat``) and the pile tracker's (``bag``,
``piles``, ``turn``, ...). The helpers the screen calls take the ``dict[str, Any]`` it holds; :func:`described`
reads it as an :class:`ArtCollectorsState` so their bodies are checked key by key all the same."""

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Literal, TypedDict, cast


class Phase(StrEnum):
    """Where the game is: the pile tracker follows the draws, the final count is entered, or it is over. Equal
    to the plain string the state keeps ("play", "count", "over"), so states read back from JSON compare the same
    and the JSON is unchanged."""

    PLAY = "play"
    COUNT = "count"
    OVER = "over"


class Settings(TypedDict):
    """The game's options as checked at setup (see ``ArtCollectors.settings``; the recorded catalogue is not
    kept here, the state keeps what it needs of it)."""

    tracker: bool
    full_game: bool
    angel_guards_banker: bool
    black_cat_painting: int
    steal_hints: bool
    first_player: int


class PaintingInfo(TypedDict):
    """A painting in play, from the catalogue: its value when won, the points per token, how many tokens it has,
    whom it shows, and its token codes."""

    value: int
    points: int
    tokens: int
    character: str
    codes: list[str]


class Kind(TypedDict):
    """A kind of token, from the catalogue: its character, its ability ("" for none) and how many there are."""

    name: str
    ability: str
    count: int


class Turn(TypedDict):
    """The current player's turn in the pile tracker (``tracker.new_turn`` makes one)."""

    tokens: list[str]  # this turn's tokens in the order gained (drawn, stolen, exchanged, taken)
    drawn: list[int]  # paintings drawn from the bag this turn (duplicates are judged against these)
    last: str | None  # code of the latest drawn token: steals follow it
    cat: Literal["steal", "exchange"] | None  # after a musician cat, once chosen
    cheater: int  # duplicates still allowed by the cheater
    cheater_seen: bool
    robin: Literal["none", "ready", "used"]
    ladies: int  # -1 not earned; else tokens still to take


# What the last action did (``wording.event_text`` puts each in words). "from" and "with" are keywords, hence
# the functional form of the classes that have them.


class TrackerOffEvent(TypedDict):
    event: Literal["tracker_off"]
    count: int
    seat: int


class DrawEvent(TypedDict):
    event: Literal["draw"]
    seat: int
    token: str


class CheaterPassEvent(TypedDict):
    event: Literal["cheater_pass"]
    seat: int
    painting: int


class BustEvent(TypedDict):
    event: Literal["bust"]
    seat: int
    painting: int
    count: int


class RobinReadyEvent(TypedDict):
    event: Literal["robin_ready"]


class AngelGuardsEvent(TypedDict):
    event: Literal["angel_guards"]


class BankerEvent(TypedDict):
    event: Literal["banker"]
    count: int


class LadiesReadyEvent(TypedDict):
    event: Literal["ladies_ready"]
    count: int


class BagEmptyEvent(TypedDict):
    event: Literal["bag_empty"]


StealEvent = TypedDict(
    "StealEvent", {"event": Literal["steal"], "seat": int, "count": int, "painting": int, "from": int}
)
ExchangeEvent = TypedDict("ExchangeEvent", {"event": Literal["exchange"], "seat": int, "with": int, "token": str})
RobinEvent = TypedDict("RobinEvent", {"event": Literal["robin"], "from": int, "count": int})
LadiesTakeEvent = TypedDict(
    "LadiesTakeEvent", {"event": Literal["ladies_take"], "token": str, "from": int, "left": int}
)


class StopEvent(TypedDict):
    event: Literal["stop"]
    seat: int
    count: int
    top: str


Event = (
    TrackerOffEvent
    | DrawEvent
    | CheaterPassEvent
    | BustEvent
    | RobinReadyEvent
    | AngelGuardsEvent
    | BankerEvent
    | LadiesReadyEvent
    | BagEmptyEvent
    | StealEvent
    | ExchangeEvent
    | RobinEvent
    | LadiesTakeEvent
    | StopEvent
)


Why = Literal["none", "most", "tie_no_cat", "tie_cat"]  # how a painting was decided (``wording.reason_text``)


class PaintingRow(TypedDict):
    """How one painting was decided (``scoring.tally``): the counts per player, the winner and why."""

    painting: int
    value: int
    points_per_token: int
    counts: list[int]
    total: int
    tokens: int
    winner: int | None
    tied: list[int]
    why: Why


class PlayerResult(TypedDict):
    """One player's score: tokens and their points, the paintings won and their points, the total and rank."""

    name: str
    tokens: int
    token_points: int
    paintings: list[int]
    painting_points: int
    total: int
    rank: int


class Result(TypedDict):
    """The working of a score (``scoring.tally``): per painting, per player, the winners, the black cat's holder."""

    paintings: list[PaintingRow]
    players: list[PlayerResult]
    winners: list[str]
    black_cat: int | None


class ArtCollectorsState(TypedDict):
    """A whole game: the players, the options, the paintings and token kinds in play (the state's own copy of the
    catalogue), the final count, the pile tracker's bag, piles and turn, the last action's events and the result
    once scored. Per-player lists are in seat order; paintings are keyed by their number as a string, token
    kinds by their code ("7", "2B")."""

    game: str
    players: list[str]
    seats: list[int]
    colours: list[str]
    settings: Settings
    order: list[str]  # the paintings in play, in catalogue order
    removed: list[int]  # the paintings set aside for this many players
    paintings: dict[str, PaintingInfo]
    kinds: dict[str, Kind]
    ladies: list[int]
    ladies_take: int
    phase: Phase
    # the final count
    counts: list[dict[str, int]]
    black_cat: int | None
    black_cat_set: bool
    # the pile tracker
    bag: dict[str, int]
    black_cat_in_bag: bool
    black_cat_seen: int  # the black cat's painting once a draw showed it (0: not yet, or set in the settings)
    piles: list[list[str]]  # token codes, bottom first; the black-cat token's code ends in "*"
    current: int
    turn: Turn
    turns: int
    events: list[Event]
    result: Result | None


def described(state: Mapping[str, Any]) -> ArtCollectorsState:
    """A state the screen holds (a plain dict, as the journal gives it back) as the engine describes it."""
    return cast(ArtCollectorsState, state)
