"""Rat-a-Tat Roll: ``board`` (the ring, deck and picture-die data), ``phases`` (what the table waits for, the
threshold and the reshuffle), ``dice`` (the roll assistant's odds, re-roll readings), ``rules`` (the engine),
``moves`` (what each action does), ``wording`` (what the log and the screen say). The names other code uses are
here."""

from companion.games.ratatat.board import (
    DATA_DIR,
    ICONS,
    PICTURE_FACES,
    REGIONS,
    load_board,
    load_deck,
    load_picture_die,
)
from companion.games.ratatat.dice import assistant, reroll_values, sum_distribution
from companion.games.ratatat.phases import (
    DEAL,
    EDITIONS,
    ENDGAME,
    FINAL_REVEAL,
    GIVE_BACK,
    LOOK,
    MAX_DICE,
    OVER,
    PICTURE,
    PICTURE_ROLLED,
    REVEAL,
    ROLL,
    ROLLED,
    SPACE,
    TOKENS_EACH,
    TOKENS_TOTAL,
    reshuffle_due,
    threshold_for,
)
from companion.games.ratatat.rules import ENGINE, RatATatRoll

__all__ = [
    "DATA_DIR",
    "DEAL",
    "EDITIONS",
    "ENDGAME",
    "ENGINE",
    "FINAL_REVEAL",
    "GIVE_BACK",
    "ICONS",
    "LOOK",
    "MAX_DICE",
    "OVER",
    "PICTURE",
    "PICTURE_FACES",
    "PICTURE_ROLLED",
    "REGIONS",
    "REVEAL",
    "ROLL",
    "ROLLED",
    "SPACE",
    "TOKENS_EACH",
    "TOKENS_TOTAL",
    "RatATatRoll",
    "assistant",
    "load_board",
    "load_deck",
    "load_picture_die",
    "reroll_values",
    "reshuffle_due",
    "sum_distribution",
    "threshold_for",
]
