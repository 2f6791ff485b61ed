"""Lowdown's state is described by ``TypedDict``\\ s (``companion/games/lowdown/shape.py``) so ``mypy --strict``
checks the engine's keys; these tests keep the description true to the JSON every example game and scenario
actually produces: a key the engine starts writing, or stops writing, fails them."""

from __future__ import annotations

import json
from typing import Any, get_type_hints, is_typeddict

from companion.games.lowdown import PHASES
from companion.games.lowdown import shape as described_shape
from companion.games.lowdown.shape import LowdownState, Phase
from tests.games.shapes import problem, states

STATES = list(states("lowdown"))


def test_every_state_of_the_example_games_has_the_described_shape() -> None:
    assert any(where.startswith("logs/") for where, _state in STATES), "the Lowdown example logs are missing"
    seen: set[str] = set()
    for where, state in STATES:
        found = problem(state, LowdownState, "state", seen)
        assert found is None, f"{where}: {found}"
    # Every part of the description is met somewhere (a shaded square too), so none of it is stale.
    assert seen == {name for name, value in vars(described_shape).items() if is_typeddict(value)}
    assert {state["phase"] for _where, state in STATES} == set(Phase)


def test_the_checker_refuses_a_key_too_many_or_too_few() -> None:
    where, state = STATES[-1]
    assert problem(state, LowdownState, "state") is None, where
    extra: dict[str, Any] = {**state, "surprise": 1}
    assert problem(extra, LowdownState, "state") is not None
    fewer = {key: value for key, value in state.items() if key != "enders"}
    assert problem(fewer, LowdownState, "state") is not None
    board = {**state["boards"][0], "grids": [[[{"n": 3, "wild": False}]]]}  # a written square without its turn
    assert problem({**state, "boards": [board]}, LowdownState, "state") is not None


def test_phases_are_the_plain_strings_the_json_keeps() -> None:
    assert [str(p) for p in Phase] == list(PHASES) == ["roll", "active", "others", "final", "over"]
    assert json.dumps({"phase": Phase.OTHERS}) == '{"phase": "others"}'
    assert get_type_hints(LowdownState)["phase"] is Phase
