"""Ratuki situations as data (``scenarios/ratuki/*.json``), like perft files: one situation per file.

A file has ``players`` (names; seats 1..n), ``settings``, engine ``actions`` applied in order, optionally
``edges`` fed to the live referee (:class:`~companion.games.ratuki.live.LiveReferee`, its timers on a fake
scheduler) afterwards: ``["press", seat, tick]``, ``["release", seat, tick]``, ``["start", seat, tick]`` = the
press of a player's button that started the round, ``["queue", seat, tick]`` = a press still on its way (handed
to the referee when the window timer fires), ``["clock", t]`` = what the button board's clock reads from now on
(unset: long after every edge), ``["close"]`` = the window timer fired, ``["finish"]`` = the lockout timer
fired; every finished contest is applied to the engine as its ``call`` action. Then either ``expect`` (state
excerpts; ``referee``: the live referee's phase) or ``error`` (a substring of the refusal of the last action).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import IllegalAction, Player, Setup
from companion.games.ratuki import ENGINE
from companion.games.ratuki.live import LiveReferee, call_action

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
    queued: list[tuple[int, float]] = []
    now = math.inf  # the button board's clock: long after every edge unless a ["clock", t] says otherwise

    def journal(contest: Any) -> None:
        nonlocal state
        action = call_action(state, contest, settings["tie_window_ms"])
        action = json.loads(json.dumps(action))  # exactly what the journal stores
        state = ENGINE.apply(state, action)
        if contest.late:
            late.append([p.seat for p in contest.late])

    def press(seat: int, tick: float) -> None:
        step = live.press(seat, tick)
        steps.append("start lockout" if step is None else step.kind)

    def deliver() -> None:
        while queued:
            press(*queued.pop(0))

    live = LiveReferee(
        settings["tie_window_ms"],
        settings["lockout_ms"],
        schedule=lambda _callback, _delay: Timer(),  # the file says when a timer fires
        clock=lambda: now,
        deliver=deliver,
        on_contest=journal,
    )
    for op, *args in data.get("edges", []):
        if op == "press":
            press(*args)
        elif op == "release":
            live.release(*args)
        elif op == "start":
            live.start_press(*args)
        elif op == "queue":
            queued.append((args[0], args[1]))
        elif op == "clock":
            now = args[0]
        elif op == "close":
            live.window_over()
        elif op == "finish":
            live.lockout_over()
        else:
            raise AssertionError(f"unknown edge op {op!r}")
    if "referee" in data["expect"]:
        assert live.phase == data["expect"]["referee"]
    check(state, data["expect"], steps, late)


class Timer:
    def cancel(self) -> None:
        pass


def check(state: dict[str, Any], expect: dict[str, Any], steps: list[str], late: list[list[int]]) -> None:
    for key, want in expect.items():
        if key == "verdicts":
            got = [[c["verdict"]["kind"], c["verdict"]["seats"], c["verdict"]["margin_ms"]] for c in state["calls"]]
            assert got == want
        elif key == "referee":
            pass  # checked on the live referee
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
