"""Lowdown's state is described by ``TypedDict``\\ s (``companion/games/lowdown/shape.py``) so ``mypy --strict``
checks the engine's keys; these tests keep the description true to the JSON every example game and scenario
actually produces: a key the engine starts writing, or stops writing, fails them."""

from __future__ import annotations

import json
from typing import get_type_hints

from companion.games.lowdown import PHASES
from companion.games.lowdown import shape as described_shape
from companion.games.lowdown.shape import LowdownState, Phase
from tests.games.shapes import assert_all_described, assert_refuses_extra_and_missing, problem, states

STATES = list(states("lowdown"))


def test_every_state_of_the_example_games_has_the_described_shape() -> None:
    assert_all_described(STATES, LowdownState, described_shape, "Lowdown")  # a shaded square too
    assert {state["phase"] for _where, state in STATES} == set(Phase)


def test_the_checker_refuses_a_key_too_many_or_too_few() -> None:
    where, state = STATES[-1]
    assert_refuses_extra_and_missing(where, state, LowdownState, "enders")
    board = {**state["boards"][0], "grids": [[[{"n": 3, "wild": False}]]]}  # a written square without its turn
    assert problem({**state, "boards": [board]}, LowdownState, "state") is not None


def test_phases_are_the_plain_strings_the_json_keeps() -> None:
    assert [str(p) for p in Phase] == list(PHASES) == ["roll", "active", "others", "final", "over"]
    assert json.dumps({"phase": Phase.OTHERS}) == '{"phase": "others"}'
    assert get_type_hints(LowdownState)["phase"] is Phase
