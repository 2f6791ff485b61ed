"""The shape of a Rat-a-Tat Roll game's state, as ``TypedDict``\\ s, so ``mypy --strict`` checks every key the
engine reads and writes. The state is still plain JSON (the journal, snapshots and ``companion replay`` see the
same dicts); these types only describe it. (No ``from __future__ import annotations`` here: ``NotRequired`` must be
seen when the classes are made, or an optional key would count as a required one at runtime.)"""

from collections.abc import Mapping
from typing import Any, Literal, NotRequired, TypedDict, cast

from companion.games.ratatat.phases import Phase


class Region(TypedDict):
    """One of the board's five regions, as the board data names and colours it."""

    name: str
    colour: str


class Space(TypedDict):
    """A space of the ring: ``picture`` (a picture-die space, in no region), or ``card``, ``balloon`` or
    ``leopard`` in a region (0-4)."""

    kind: Literal["picture", "card", "balloon", "leopard"]
    region: NotRequired[int]


class Board(TypedDict):
    """The board the game is played on (from its data file or the copy the setup keeps)."""

    regions: list[Region]
    spaces: list[Space]


class FaceUp(TypedDict):
    """A face-up card on the board: its value and whether it shows a balloon."""

    value: int
    balloon: bool


# A face-down card in a player's row: its number in taking order and where it came from ("deal", "board",
# "pile"); "from" is a keyword, hence the functional form.
RowCard = TypedDict("RowCard", {"id": int, "from": Literal["deal", "board", "pile"]})


# What the last action did, beyond what the action says (``wording.event_text`` puts each in words).


class PictureRerolled(TypedDict):
    event: Literal["picture_rerolled"]
    face: str


class DiceRerolled(TypedDict):
    event: Literal["dice_rerolled"]
    count: int
    of: int


class TokensEarned(TypedDict):
    event: Literal["tokens_earned"]
    count: int
    why: Literal["balloon_card", "balloon_space"]


class BankEmpty(TypedDict):
    event: Literal["bank_empty"]


class NothingToTake(TypedDict):
    event: Literal["nothing_to_take"]


class Swapped(TypedDict):
    event: Literal["swapped"]
    mine: int
    seat: int
    theirs: int


class NoSwap(TypedDict):
    event: Literal["no_swap"]


class GaveBack(TypedDict):
    event: Literal["gave_back"]
    card: int


class Reshuffled(TypedDict):
    event: Literal["reshuffled"]


class PileEmpty(TypedDict):
    event: Literal["pile_empty"]


class FinalRound(TypedDict):
    event: Literal["final_round"]


class FinalRoundOver(TypedDict):
    event: Literal["final_round_over"]


Event = (
    PictureRerolled
    | DiceRerolled
    | TokensEarned
    | BankEmpty
    | NothingToTake
    | Swapped
    | NoSwap
    | GaveBack
    | Reshuffled
    | PileEmpty
    | FinalRound
    | FinalRoundOver
)


class RatatatState(TypedDict):
    """A whole game: the table (board, deck, picture die), where the statue and the turn are, the face-up cards
    and the pile, each player's tokens and face-down row, the end game, the revealed hands and the last action's
    events. Per-player lists are in playing order."""

    game: str
    edition: Literal["ko", "en"]
    players: list[str]
    seats: list[int]
    board: Board
    deck: dict[str, int]  # card value (as a string) -> how many cards of it the deck has
    picture_faces: list[str]
    threshold: int
    statue: int
    current: int
    phase: Phase
    turn: int
    dice: list[int]
    picture: str | None
    landing: int | None
    face_up: list[FaceUp | None]
    to_reveal: list[int]
    pile: int
    bank: int
    tokens: list[int]
    fresh: list[int]
    rows: list[list[RowCard]]
    next_id: int
    look_due: bool
    give_back_due: bool
    endgame_turn: bool
    final_round: bool
    last_to_threshold: int | None
    reshuffles: int
    hands: dict[str, list[int]]
    events: list[Event]


def described(state: Mapping[str, Any]) -> RatatatState:
    """A state the screen holds (a plain dict, as the journal gives it back) as the engine describes it: for the
    queries the screen calls with its ``dict[str, Any]``, so their bodies are checked key by key all the same."""
    return cast(RatatatState, state)
