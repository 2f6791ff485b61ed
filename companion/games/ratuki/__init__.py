"""Ratuki: ``referee`` (who called first, on edge ticks alone), ``rules`` (the engine: round clock, calls,
score sheet), ``settings`` (its settings), ``calls`` (presses, verdict claims, round stats), ``wording`` (what
the log and the screen say). The names other code uses are here."""

from companion.games.ratuki.calls import claim_for, clock_seconds, describe_verdict, player_for_seat, round_stats
from companion.games.ratuki.referee import SEPARATE, TAKE, TIE, Contest, Press, Referee, Verdict, judge
from companion.games.ratuki.rules import ENGINE, RatukiEngine
from companion.games.ratuki.settings import HAND_SIZE, RESULTS, SETTINGS, STOP_REASONS
from companion.games.ratuki.wording import result_line, score_sheet, verdict_line

__all__ = [
    "ENGINE",
    "HAND_SIZE",
    "RESULTS",
    "SEPARATE",
    "SETTINGS",
    "STOP_REASONS",
    "TAKE",
    "TIE",
    "Contest",
    "Press",
    "RatukiEngine",
    "Referee",
    "Verdict",
    "claim_for",
    "clock_seconds",
    "describe_verdict",
    "judge",
    "player_for_seat",
    "result_line",
    "round_stats",
    "score_sheet",
    "verdict_line",
]
