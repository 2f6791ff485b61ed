"""The Ratuki engine: calls judged from journaled ticks, round clock, score sheet to the target."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import engine as find_engine
from companion.games.base import BadSetup, IllegalAction, Player, Setup
from companion.games.ratuki import (
    ENGINE,
    claim_for,
    clock_seconds,
    describe_verdict,
    result_line,
    round_stats,
    score_sheet,
)
from companion.games.ratuki.referee import Press, judge

NAMES = ["Ana", "Bo", "Cy", "Di", "Ed", "Flo"]


def make_setup(n: int = 3, **settings: Any) -> Setup:
    players = tuple(Player(NAMES[i], f"#{i}{i}0000", seat=i + 1) for i in range(n))
    return Setup("ratuki", players, settings)


def play(state: dict[str, Any], *actions: dict[str, Any]) -> dict[str, Any]:
    for action in actions:
        state = ENGINE.apply(state, action)
    return state


def call(*presses: tuple[int, float], late: tuple[tuple[int, float], ...] = ()) -> dict[str, Any]:
    action: dict[str, Any] = {"type": "call", "presses": [{"seat": s, "tick": t} for s, t in presses]}
    if late:
        action["late"] = [{"seat": s, "tick": t} for s, t in late]
    return action


def score(seat: int, pile: int, left: int, **extra: Any) -> dict[str, Any]:
    return {"type": "score", "seat": seat, "score_pile": pile, "left": left, **extra}


def started(n: int = 3, **settings: Any) -> dict[str, Any]:
    return play(ENGINE.setup(make_setup(n, **settings)), {"type": "start", "tick": 100.0})


def refused(state: dict[str, Any], action: dict[str, Any], words: str) -> None:
    before = copy.deepcopy(state)
    with pytest.raises(IllegalAction) as err:
        ENGINE.apply(state, action)
    assert words in str(err.value)
    assert state == before


# -- setup --------------------------------------------------------------------------------------------------------


def test_registered_and_defaults() -> None:
    assert find_engine("ratuki") is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 5)
    defaults = ENGINE.default_settings()
    assert defaults["tie_window_ms"] == 50 and defaults["lockout_ms"] == 500 and defaults["target"] == 100
    assert defaults["count_hand"] is False and defaults["equal_at_target"] == "draw"
    state = ENGINE.setup(make_setup(2))
    assert state["phase"] == "ready" and state["round"] == 1 and state["totals"] == {"Ana": 0, "Bo": 0}
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize(
    ("n", "settings", "words"),
    [
        (1, {}, "2–5 players"),
        (6, {}, "2–5 players"),
        (3, {"colour": "red"}, "unknown setting"),
        (3, {"tie_window_ms": 900}, "tie_window_ms"),
        (3, {"tie_window_ms": -1}, "tie_window_ms"),
        (3, {"lockout_ms": 9000}, "lockout_ms"),
        (3, {"target": 0}, "target"),
        (3, {"target": "100"}, "must be int"),
        (3, {"equal_at_target": "coin toss"}, "equal_at_target"),
        (3, {"stall_s": -5}, "stall_s"),
        (3, {"deck_size": 3}, "deck_size"),
    ],
)
def test_bad_setups_are_refused(n: int, settings: dict[str, Any], words: str) -> None:
    with pytest.raises(BadSetup, match=words):
        ENGINE.setup(make_setup(n, **settings))


# -- calls --------------------------------------------------------------------------------------------------------


def test_calls_are_judged_from_ticks_and_settings() -> None:
    state = started()
    state = play(state, call((2, 500.0)), call((1, 501.0), (3, 501.04)), call((3, 502.0), late=((1, 502.2),)))
    verdicts = [c["verdict"] for c in state["calls"]]
    assert verdicts[0] == {"kind": "take", "seats": [2], "margin_ms": None, "runner_up": None, "spread_ms": 0.0}
    assert verdicts[1]["kind"] == "tie" and verdicts[1]["seats"] == [1, 3] and verdicts[1]["spread_ms"] == 40.0
    assert verdicts[2]["kind"] == "take" and verdicts[2]["margin_ms"] == 200.0 and verdicts[2]["runner_up"] == 1
    assert round_stats(state) == {
        "Ana": {"stacks": 0, "ties": 1},
        "Bo": {"stacks": 1, "ties": 0},
        "Cy": {"stacks": 1, "ties": 1},
    }


def test_a_wider_window_turns_the_same_presses_into_a_tie() -> None:
    narrow = play(started(tie_window_ms=30), call((1, 5.0), late=((2, 5.04),)))
    assert narrow["calls"][0]["verdict"]["kind"] == "take"
    wide = play(started(tie_window_ms=80), call((1, 5.0), (2, 5.04)))
    assert wide["calls"][0]["verdict"]["kind"] == "tie"
    refused(started(tie_window_ms=30), call((1, 5.0), (2, 5.04)), "outside the 30 ms tie window")


def test_equal_ticks_and_five_players_at_once() -> None:
    state = started(5)
    state = play(state, call((4, 9.0), (2, 9.0), (5, 9.01), (1, 9.05), (3, 9.0)))
    verdict = state["calls"][0]["verdict"]
    assert verdict["kind"] == "tie" and verdict["seats"] == [2, 3, 4, 5, 1]
    text = describe_verdict(state, judge([Press(9.0, 2), Press(9.0, 3)], 50))
    assert text == "TIE: Bo, Cy — cards back to your discard piles"


def test_bad_calls_are_refused_with_reasons() -> None:
    state = started()
    refused(state, call(), "at least one press")
    refused(state, call((7, 1.0)), "nobody sits at seat 7")
    refused(state, call((1, 1.0), (1, 1.01)), "appears twice")
    refused(state, call((1, float("nan"))), "needs a tick")
    refused(state, call((1, True)), "needs a tick")  # type: ignore[arg-type]
    refused(state, {"type": "call", "presses": "1"}, "must be a list")
    refused(state, call((1, 1.0), late=((1, 1.2),)), "both a contender and late")
    refused(state, call((1, 1.0), late=((2, 1.03),)), "not after the tie window")
    refused(state, call((1, 1.0), late=((2, 1.6),)), "not after the tie window and within the lockout")
    refused(
        state,
        {"type": "call", "presses": [{"seat": 1, "tick": 1.0}], "verdict": {"kind": "tie", "seats": [1]}},
        "does not follow",
    )
    refused(state, {"type": "jump"}, "unknown action 'jump' in Ratuki")
    refused(state, {"kind": "call"}, "must be an object with a 'type'")  # type: ignore[arg-type]


def test_a_call_inside_the_previous_lockout_is_refused_and_a_restarted_clock_is_not() -> None:
    state = play(started(), call((1, 10.0)))
    refused(state, call((2, 10.3)), "during the lockout")
    refused(state, call((2, 10.55)), "during the lockout")  # window end + lockout is still inside
    after = play(state, call((2, 10.551)))
    assert len(after["calls"]) == 2
    restarted = play(state, call((2, 0.5)))  # ticks went backwards: the button clock restarted
    assert restarted["calls"][1]["verdict"]["seats"] == [2]


def test_verdict_claims_are_checked_and_describe_uses_them() -> None:
    state = started()
    verdict = judge([Press(1.0, 3)], 50, [Press(1.137, 1)])
    action = call((3, 1.0), late=((1, 1.137),))
    action["verdict"] = claim_for(state, verdict)
    after = ENGINE.apply(state, action)
    assert ENGINE.describe(action) == "CY takes the stack — 137 ms ahead of Ana"
    assert after["calls"][0]["verdict"]["margin_ms"] == 137.0
    wrong = copy.deepcopy(action)
    wrong["verdict"]["names"] = ["Bo"]
    refused(state, wrong, "names do not match")
    wrong = copy.deepcopy(action)
    wrong["verdict"]["margin_ms"] = 12.0
    refused(state, wrong, "margin does not follow")


def test_calls_need_a_running_round() -> None:
    fresh = ENGINE.setup(make_setup())
    refused(fresh, call((1, 1.0)), "has not started yet")
    paused = play(started(), {"type": "pause", "tick": 110.0})
    refused(paused, call((1, 1.0)), "paused")
    stopped = play(started(), {"type": "stop", "tick": 120.0, "reason": "out", "seat": 2})
    refused(stopped, call((1, 1.0)), "being scored")


# -- clock --------------------------------------------------------------------------------------------------------


def test_the_round_clock_counts_only_running_time() -> None:
    state = started()
    assert clock_seconds(state, 130.0) == 30.0
    state = play(state, {"type": "pause", "tick": 160.0})
    assert clock_seconds(state, 999.0) == 60.0
    refused(state, {"type": "pause", "tick": 161.0}, "already paused")
    state = play(state, {"type": "resume", "tick": 200.0})
    refused(state, {"type": "resume", "tick": 201.0}, "already running")
    assert clock_seconds(state, 210.0) == 70.0
    assert clock_seconds(state, 150.0) == 60.0  # a clock that went backwards adds nothing
    state = play(state, {"type": "stop", "tick": 230.5, "reason": "blocked"})
    assert state["clock"]["elapsed"] == 90.5 and state["stopped"] == {"reason": "blocked", "seat": None}
    refused(started(), {"type": "start", "tick": 1.0}, "still being played")
    refused(started(), {"type": "stop", "tick": 1.0, "reason": "bored"}, "stop reason")
    refused(started(), {"type": "stop", "tick": "soon"}, "tick must be a number")


# -- scoring ------------------------------------------------------------------------------------------------------


def stopped(n: int = 3, **settings: Any) -> dict[str, Any]:
    # "blocked" (nobody can play): an "out" player must have no cards left, which these tests vary freely.
    return play(started(n, **settings), {"type": "stop", "tick": 400.0, "reason": "blocked"})


def test_a_round_is_scored_and_closes_when_everyone_is_in() -> None:
    state = play(started(), call((1, 10.0)), call((2, 20.0)), call((1, 30.0), (2, 30.02)))
    state = play(state, {"type": "stop", "tick": 400.0, "reason": "out", "seat": 1})
    state = play(state, score(1, 40, 0), score(2, 25, 7))
    assert state["phase"] == "scoring" and set(state["entries"]) == {"Ana", "Bo"}
    state = play(state, score(3, 12, 20))
    assert state["phase"] == "ready" and state["round"] == 2
    assert state["totals"] == {"Ana": 40, "Bo": 18, "Cy": -8}
    record = state["rounds"][0]
    assert record["duration_s"] == 300.0 and record["stacks"] == {"Ana": 1, "Bo": 1, "Cy": 0}
    assert record["ties"] == {"Ana": 1, "Bo": 1, "Cy": 0} and record["calls"] == 3
    assert record["entries"]["Bo"] == {"score_pile": 25, "left": 7, "hand": 0, "points": 18}
    assert state["calls"] == [] and state["entries"] == {}
    assert ENGINE.scores(state) == {"Ana": 40, "Bo": 18, "Cy": -8}


def test_bad_score_entries_are_refused() -> None:
    state = stopped()
    refused(state, score(1, -1, 0), "cannot be negative")
    refused(state, score(1, 3, -2), "cannot be negative")
    refused(state, score(1, 2.5, 0), "whole number")  # type: ignore[arg-type]
    refused(state, score(9, 1, 0), "nobody sits at seat 9")
    refused(state, score(2, 1, 0, name="Ana"), "seat 2 is Bo, not 'Ana'")
    refused(state, score(1, 1, 0, hand=2), "do not count in this game")
    refused(state, score(1, 1, 36), "a deck has 35")
    refused(state, score(1, 106, 0), "more than the 105")
    once = play(state, score(1, 10, 2))
    refused(once, score(1, 10, 2), "already entered")
    refused(play(once, score(2, 60, 0)), score(3, 34, 1), "more than the 105")
    refused(started(), score(1, 1, 1), "still being played")
    out = play(started(), {"type": "stop", "tick": 400.0, "reason": "out", "seat": 2})
    refused(out, score(2, 30, 1), "Bo called out")
    assert play(out, score(2, 30, 0))["entries"]["Bo"]["points"] == 30


def test_hands_count_when_the_setting_says_so() -> None:
    state = stopped(2, count_hand=True)
    refused(state, score(1, 10, 2), "hand too")
    refused(state, score(1, 10, 2, hand=4), "more than 3")
    refused(state, score(1, 10, 33, hand=3), "a deck has 35")
    state = play(state, score(1, 30, 2, hand=3), score(2, 20, 5, hand=0))
    assert state["totals"] == {"Ana": 25, "Bo": 15}


def round_of(state: dict[str, Any], tick: float, *rows: tuple[int, int]) -> dict[str, Any]:
    state = play(state, {"type": "start", "tick": tick}, {"type": "stop", "tick": tick + 100, "reason": "out"})
    for seat, (pile, left) in enumerate(rows, start=1):
        state = play(state, score(seat, pile, left))
    return state


def test_first_over_the_target_wins_and_the_game_refuses_more() -> None:
    state = ENGINE.setup(make_setup(3, target=50))
    state = round_of(state, 0, (30, 0), (20, 5), (10, 10))
    assert not ENGINE.is_over(state)
    state = round_of(state, 1000, (25, 0), (20, 0), (5, 20))
    assert ENGINE.is_over(state) and state["phase"] == "over"
    assert ENGINE.scores(state) == {"Ana": 55, "Bo": 35, "Cy": -15, "winners": ["Ana"]}
    assert result_line(state) == "ANA wins with 55 points"
    assert score_sheet(state) == [
        ["Round", "Ana", "Bo", "Cy"],
        ["1", "+30 (0)", "+15 (0)", "+0 (0)"],
        ["2", "+25 (0)", "+20 (0)", "-15 (0)"],
        ["Total", "55", "35", "-15"],
    ]
    refused(state, {"type": "start", "tick": 5000.0}, "game is over")
    refused(state, call((1, 5000.0)), "game is over")
    refused(state, score(1, 1, 1), "game is over")


def test_several_over_the_target_the_highest_wins() -> None:
    state = ENGINE.setup(make_setup(3, target=50))
    state = round_of(state, 0, (45, 0), (40, 0), (0, 10))
    state = round_of(state, 1000, (10, 0), (20, 0), (0, 10))
    assert state["result"] == {"kind": "win", "winners": ["Bo"]}
    assert state["totals"] == {"Ana": 55, "Bo": 60, "Cy": -20}


def test_equal_highest_at_the_target_is_a_draw_by_default() -> None:
    state = round_of(ENGINE.setup(make_setup(2, target=20)), 0, (25, 0), (30, 5))
    assert ENGINE.scores(state) == {"Ana": 25, "Bo": 25, "winners": ["Ana", "Bo"]}
    assert state["result"]["kind"] == "draw"
    assert result_line(state) == "DRAW: Ana, Bo with 25 points"


def test_equal_highest_plays_on_when_the_setting_says_so() -> None:
    state = round_of(ENGINE.setup(make_setup(2, target=20, equal_at_target="play_on")), 0, (25, 0), (30, 5))
    assert state["phase"] == "ready" and state["round"] == 2
    state = round_of(state, 500, (3, 1), (2, 0))
    assert state["phase"] == "ready" and state["totals"] == {"Ana": 27, "Bo": 27}  # still equal: on again
    state = round_of(state, 900, (4, 1), (2, 0))
    assert state["result"] == {"kind": "win", "winners": ["Ana"]} and state["totals"] == {"Ana": 30, "Bo": 29}


def test_apply_never_mutates_its_input() -> None:
    state = play(started(), call((1, 10.0)))
    before = copy.deepcopy(state)
    ENGINE.apply(state, call((2, 20.0), (3, 20.01)))
    ENGINE.apply(state, {"type": "stop", "tick": 200.0})
    assert state == before


def test_describe_lines() -> None:
    assert ENGINE.describe({"type": "start", "tick": 1.0}) == "Round started"
    assert ENGINE.describe({"type": "stop", "tick": 1.0, "reason": "out"}) == "Round stopped (out)"
    assert ENGINE.describe(call((2, 1.0))) == "Ratuki call: seat 2"
    assert ENGINE.describe(score(2, 10, 3, hand=1)) == "Score for seat 2: pile 10, left 3, hand 1"
    assert ENGINE.describe(score(2, 10, 3, name="Bo")) == "Score for Bo: pile 10, left 3"
    tie = {**call((1, 1.0), (2, 1.01)), "verdict": {"kind": "tie", "seats": [1, 2], "names": ["Ana", "Bo"]}}
    assert ENGINE.describe(tie) == "TIE: Ana, Bo — cards back to your discard piles"


def test_a_new_game_plays_to_100_or_more(tmp_path: Path) -> None:
    """The rules allow only 100 "o un número más alto": a new game to 50 is refused when it starts and nothing is
    written; a game an older version recorded with a lower target still opens and replays."""
    from companion.journal import GameSession, Journal

    journal = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(BadSetup, match="100 points or more"):
        GameSession.start(journal, make_setup(2, target=50))
    assert journal.games() == []
    assert GameSession.start(journal, make_setup(2, target=100)).state["settings"]["target"] == 100
    old = journal.new_game(make_setup(2, target=20))  # as written before the check
    session = GameSession(journal, old)
    session.do({"type": "start", "tick": 1.0})
    assert session.state["settings"]["target"] == 20
    journal.close()
