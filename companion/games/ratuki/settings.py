"""Ratuki's settings: the tie window, the lockout, the stall prompt, the target and the variants, each with its
choices; the hand size and the words a round can stop or end with."""

from __future__ import annotations

from typing import Any

from companion.games.base import Choice, Setting, choices
from companion.i18n import N_

HAND_SIZE = 3
TARGET_MIN = 100  # the rules: 100 "o un número más alto"
STOP_REASONS = ("out", "blocked", "stall", "other")
RESULTS = ("draw", "play_on")


def _numbers(values: tuple[int, ...], words: str, zero: str = "") -> tuple[Choice, ...]:
    """Number choices shown with a unit (``words``: "{value} ms", marked with N_ and filled in when shown);
    ``zero``: the words for 0 (a feature switched off)."""
    return tuple(Choice(v, zero if v == 0 and zero else words) for v in values)


SETTINGS: dict[str, Setting] = {
    # Presses closer together than this are a tie (ms). See docs/ratuki.md for why 50.
    "tie_window_ms": Setting(
        50, N_("Presses count as a tie within"), _numbers((50, 60, 80, 100, 0, 20, 30, 40), N_("{value} ms"))
    ),
    # After the window closes, presses are late for this long (ms) and cannot open a new contest.
    "lockout_ms": Setting(
        500, N_("Buttons rest after a call for"), _numbers((500, 750, 1000, 1500, 250), N_("{value} ms"))
    ),
    # "Nobody has called for N seconds — round over?" prompt; 0 turns it off.
    "stall_s": Setting(
        45,
        N_("Ask “round over?” when nobody calls for"),
        _numbers((45, 60, 90, 120, 0, 20, 30), N_("{value} s"), N_("never")),
    ),
    "target": Setting(100, N_("Play to"), _numbers((100, 150, 200, 250, 300), N_("{value} points"))),
    # Subtract the cards in hand too (one published variant).
    "count_hand": Setting(False, N_("Cards in hand count against you")),
    # Equal highest totals at or over the target: "draw" ends the game, "play_on" plays another round.
    "equal_at_target": Setting(
        "draw",
        N_("Equal at the target"),
        choices(("draw", N_("the game is a draw")), ("play_on", N_("play another round"))),
    ),
    # Cards per colour deck: 35 in the Spanish rules, 34 in the Hasbro edition.
    "deck_size": Setting(
        35, N_("Cards per deck"), choices((35, N_("35 (Spanish rules)")), (34, N_("34 (Hasbro edition)")))
    ),
    # Play a sound with each verdict.
    "sound": Setting(True, N_("Sound with each verdict")),
}
DEFAULTS: dict[str, Any] = {key: setting.default for key, setting in SETTINGS.items()}
