"""Rat-a-Tat Roll's phases (what the table is waiting for), its token and dice counts, the editions, and the two
rules that depend on the table: the end-game threshold and the reshuffle trigger. Standard library only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any

TOKENS_TOTAL = 15
TOKENS_EACH = 2
MAX_DICE = 3
EDITIONS = ("ko", "en")


class Phase(StrEnum):
    """What the table is waiting for. Equal to the plain string the state keeps ("deal", "roll", ...), so states
    read back from JSON compare the same and the JSON is unchanged."""

    DEAL = "deal"  # the five starting face-up cards are being entered
    ROLL = "roll"  # the current player rolls 1-3 number dice
    ROLLED = "rolled"  # dice are down: re-roll with a token, or move the statue
    SPACE = "space"  # the statue landed on a card/balloon/leopard space: take a card
    PICTURE = "picture"  # roll the picture die (landed on a picture space)
    ENDGAME = "endgame"  # a player at the threshold: pass or roll the picture die
    PICTURE_ROLLED = "picture_rolled"  # picture die is down: re-roll with a token, or resolve it
    GIVE_BACK = "give_back"  # end game: give one old card back, blind, to the bottom of the pile
    REVEAL = "reveal"  # a region is being refilled: enter the new face-up card
    LOOK = "look"  # leopard: look at own cards, or one card of another player
    FINAL_REVEAL = "final_reveal"  # game over: enter every player's card values
    OVER = "over"


# The phases by the names the engine, the screen and the tests use.
DEAL = Phase.DEAL
ROLL = Phase.ROLL
ROLLED = Phase.ROLLED
SPACE = Phase.SPACE
PICTURE = Phase.PICTURE
ENDGAME = Phase.ENDGAME
PICTURE_ROLLED = Phase.PICTURE_ROLLED
GIVE_BACK = Phase.GIVE_BACK
REVEAL = Phase.REVEAL
LOOK = Phase.LOOK
FINAL_REVEAL = Phase.FINAL_REVEAL
OVER = Phase.OVER


def threshold_for(players: int) -> int:
    """Cards that put a player into end-game mode: 4, or 5 in a two-player game."""
    return 5 if players == 2 else 4


def reshuffle_due(face_up: Sequence[Mapping[str, Any] | None], edition: str) -> bool:
    """The reshuffle trigger: Korean rules 3 or more balloons among the face-up cards; English more than 3."""
    balloons = sum(1 for card in face_up if card is not None and card["balloon"])
    return balloons >= 3 if edition == "ko" else balloons > 3
