"""Rat-a-Tat Roll scenario files: one rule situation each, checked like perft data.

Each ``scenarios/ratatat/*.json`` holds players, settings and actions; either ``error`` (the LAST action is
refused with a message containing it, every earlier one is accepted) or ``expect`` (state excerpts after all of
them). Expect keys are state keys compared exactly, plus derived views: ``current`` (the name of the player to
act), ``row_sizes``, ``rows0_ids`` (ids in the first player's row), ``face_up_values``, ``events_include`` and
``scores``. A file with a ``reading`` (``{"picked": [die indices], "seen": [faces the camera read]}``) ends with a
camera reading of a re-roll instead: the engine finds the picked dice's new faces (``reroll_values``) and the
re-roll is applied, or ``error`` is part of why the reading does not fit the pick.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import IllegalAction, Player, Setup
from companion.games.ratatat import ENGINE, reroll_values, wording

SCENARIOS = sorted((Path(__file__).parent / "scenarios" / "ratatat").glob("*.json"))


def _start(data: dict[str, Any]) -> dict[str, Any]:
    players = tuple(Player(name, seat=i + 1) for i, name in enumerate(data["players"]))
    return ENGINE.setup(Setup("ratatat", players, data.get("settings", {})))


def _view(state: dict[str, Any], key: str) -> Any:
    if key == "current":
        return state["players"][state["current"]]
    if key == "row_sizes":
        return [len(row) for row in state["rows"]]
    if key == "rows0_ids":
        return [card["id"] for card in state["rows"][0]]
    if key == "face_up_values":
        return [None if card is None else card["value"] for card in state["face_up"]]
    if key == "scores":
        return ENGINE.scores(state)
    return state[key]


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 40


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    state = _start(data)
    actions = data["actions"]
    reading = data.get("reading")
    if "error" in data and reading is None:
        *ok, last = actions
    else:
        ok, last = actions, None
    for number, action in enumerate(ok, start=1):
        try:
            state = ENGINE.apply(state, action)
        except IllegalAction as err:
            pytest.fail(f"action {number} {action} refused: {err}")
    if reading is not None:
        before = copy.deepcopy(state)
        try:
            values = reroll_values(state, reading["picked"], reading["seen"])
        except IllegalAction as err:
            assert "error" in data, f"the reading was refused: {err}"
            assert data["error"] in str(err)
            assert state == before, "a refused reading must not change the state"
            return
        assert "error" not in data, f"the reading was accepted: {values}"
        state = ENGINE.apply(state, {"type": "reroll", "indices": reading["picked"], "values": values})
    if last is not None:
        before = copy.deepcopy(state)
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, last)
        assert data["error"] in str(err.value)
        assert state == before, "a refused action must not change the state"
        return
    for key, want in data["expect"].items():
        if key == "events_include":
            said = wording.events_text(state)
            for event in want:
                assert event in said, f"{event!r} not in {said}"
            continue
        assert _view(state, key) == want, f"{key}: {_view(state, key)!r} != {want!r}"
