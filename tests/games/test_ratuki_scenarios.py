"""Ratuki situations as data (``scenarios/ratuki/*.json``), like perft files: one situation per file.

A file has ``players`` (names; seats 1..n), ``settings``, engine ``actions`` applied in order, optionally
``edges`` fed to a live :class:`Referee` afterwards (``["press", seat, tick]``, ``["release", seat, tick]``,
``["close"]`` = the window timer fired, ``["finish"]`` = the lockout timer fired; every finished contest is
applied to the engine as its ``call`` action), and either ``expect`` (state excerpts) or ``error`` (a
substring of the refusal of the last action).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import IllegalAction, Player, Setup
from companion.games.ratuki import ENGINE, claim_for
from companion.games.ratuki.referee import Referee, judge

HERE = Path(__file__).parent / "scenarios" / "ratuki"
FILES = sorted(HERE.glob("*.json"))


def test_there_are_scenarios() -> None:
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data.get("description"), "every scenario says what it checks"
    players = tuple(Player(name, seat=i + 1) for i, name in enumerate(data["players"]))
    state = ENGINE.setup(Setup("ratuki", players, data.get("settings", {})))
    actions = data.get("actions", [])
    if "error" in data:
        for action in actions[:-1]:
            state = ENGINE.apply(state, action)
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, actions[-1])
        assert data["error"] in str(err.value)
        return
    for action in actions:
        state = ENGINE.apply(state, action)
    steps: list[str] = []
    late: list[list[int]] = []
    settings = state["settings"]
    referee = Referee(window_ms=settings["tie_window_ms"], lockout_ms=settings["lockout_ms"])

    def journal(contest: Any) -> None:
        nonlocal state
        verdict = judge(contest.presses, settings["tie_window_ms"], contest.late)
        action = {**contest.to_action(), "verdict": claim_for(state, verdict)}
        action = json.loads(json.dumps(action))  # exactly what the journal stores
        state = ENGINE.apply(state, action)
        if contest.late:
            late.append([p.seat for p in contest.late])

    for op, *args in data.get("edges", []):
        if op == "press":
            step = referee.press(*args)
            steps.append(step.kind)
            if step.finished is not None:
                journal(step.finished)
        elif op == "release":
            referee.release(*args)
        elif op == "close":
            referee.close_window()
        elif op == "finish":
            contest = referee.finish()
            if contest is not None:
                journal(contest)
        else:
            raise AssertionError(f"unknown edge op {op!r}")
    check(state, data["expect"], steps, late)


def check(state: dict[str, Any], expect: dict[str, Any], steps: list[str], late: list[list[int]]) -> None:
    for key, want in expect.items():
        if key == "verdicts":
            got = [[c["verdict"]["kind"], c["verdict"]["seats"], c["verdict"]["margin_ms"]] for c in state["calls"]]
            assert got == want
        elif key == "steps":
            assert steps == want
        elif key == "late":
            assert late == want
        elif key == "round_record":
            record = state["rounds"][-1]
            assert {k: record[k] for k in want} == want
        elif key == "clock_elapsed":
            assert state["clock"]["elapsed"] == pytest.approx(want)
        elif key == "winners":
            assert ENGINE.scores(state)["winners"] == want
        elif key == "draw":
            assert (state["result"]["kind"] == "draw") is want
        else:
            assert state[key] == want, key
