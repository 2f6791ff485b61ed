"""The shape of a Lowdown game's state, as ``TypedDict``\\ s, so ``mypy --strict`` checks every key the engine
reads and writes. The state is still plain JSON (the journal, snapshots and ``companion replay`` see the same
dicts); these types only describe it. (No ``from __future__ import annotations`` here, as in Ratuki's: a
``NotRequired`` key must be seen when its class is made, or it would count as a required one at runtime.)

The helpers the screen calls take the ``dict[str, Any]`` it holds; :func:`described` reads it as a
:class:`LowdownState` so their bodies are checked key by key all the same."""

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Literal, TypedDict, cast

from companion.games.base import PlayerData as PlayerData  # re-exported: part of the described state


class Phase(StrEnum):
    """Where the turn is: the active player rolls, chooses, the others choose, the last lines are crossed (the
    game has ended), over. Equal to the plain string the state keeps ("roll", "active", ...), so states read back
    from JSON compare the same and the JSON is unchanged."""

    ROLL = "roll"
    ACTIVE = "active"
    OTHERS = "others"
    FINAL = "final"
    OVER = "over"


class Settings(TypedDict):
    """The game's options as checked at setup (see ``LowdownEngine.settings``); ``layout`` as given: None (the
    default board), a file path, or the layout object (a recorded game keeps its board here)."""

    edition: Literal["es", "en"]
    secret_roller: Literal["edition", "right", "left"]
    secret_dice: Literal["physical", "virtual"]
    layout: str | dict[str, Any] | None
    end_grids: int


class Grid(TypedDict):
    """One grid of the board: its name, its colours, and its rows of squares, each square the colours a number
    written there may have (one, or two for a split square)."""

    name: str
    colours: list[str]
    rows: list[list[list[str]]]


class Layout(TypedDict):
    """The board as checked (``board.validate_layout``): colour name -> display colour (also the colour dice's
    faces, in the grids' order), the number dice's faces, the wild boxes per board and the grids."""

    name: str
    note: str
    colours: dict[str, str]
    numbers: list[int]
    wilds: int
    grids: list[Grid]


class Written(TypedDict):
    """A square holding a number: the number, whether it was written with a wild colour, and in which turn."""

    n: int
    wild: bool
    turn: int


class Shaded(TypedDict):
    """A square shaded (+6) because nothing could be written, and in which turn."""

    shaded: Literal[True]
    turn: int


Cell = Written | Shaded
Square = list[int]  # [grid, row, column], 0-based
Line = list[Square]  # three squares in a straight line, in board order


class Board(TypedDict):
    """One player's sheet: each grid's squares (None while free), the wild boxes marked, the lines crossed out."""

    grids: list[list[list[Cell | None]]]
    wilds: int
    crossed: list[Line]


class OpenRoll(TypedDict):
    """The active player's open roll: two colour dice and two number dice."""

    colours: list[str]
    numbers: list[int]


class Secret(TypedDict):
    """The secret pair, once looked at or revealed: one colour die and one number die."""

    colour: str
    number: int


class TurnStart(TypedDict):
    """What a turn starts from: the dice to roll, nothing known, looked at or taken, nobody has written."""

    phase: Phase
    open: OpenRoll | None
    secret: Secret | None
    looked: bool
    taken: list[str] | None
    wild_out: str | None
    done: list[int]


def turn_start() -> TurnStart:
    """The keys of a state at the start of every turn (the first and each after)."""
    return {
        "phase": Phase.ROLL,
        "open": None,
        "secret": None,
        "looked": False,
        "taken": None,
        "wild_out": None,
        "done": [],
    }


class LowdownState(TurnStart):
    """A whole game: players, options, the board layout and every player's sheet, and where the turn is: whose
    it is, the dice known, what the active player took (die ids, and a colour die taken out of play with a
    wild), who has written this turn, and who filled enough grids to end the game. Per-player lists are in
    playing order."""

    game: str
    players: list[PlayerData]
    settings: Settings
    seed: int
    layout: Layout
    boards: list[Board]
    turn: int
    active: int
    enders: list[int]


def described(state: Mapping[str, Any]) -> LowdownState:
    """A state the screen holds (a plain dict, as the journal gives it back) as the engine describes it."""
    return cast(LowdownState, state)
