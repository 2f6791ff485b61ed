"""Art Collectors' state is described by ``TypedDict``\\ s (``companion/games/artcollectors/state.py``) so
``mypy --strict`` checks the engine's keys; these tests keep the description true to the JSON every example game
and scenario actually produces: a key the engine starts writing, or stops writing, fails them."""

from __future__ import annotations

import json
from typing import get_args, get_type_hints

from companion.games.artcollectors import state as described_shape
from companion.games.artcollectors.state import ArtCollectorsState, Event, Phase
from tests.games.shapes import assert_all_described, assert_refuses_extra_and_missing, problem, states

STATES = list(states("artcollectors"))


def test_every_state_of_the_example_games_has_the_described_shape() -> None:
    assert_all_described(STATES, ArtCollectorsState, described_shape, "Art Collectors")
    assert {state["phase"] for _where, state in STATES} == set(Phase)


def test_the_checker_refuses_a_key_too_many_or_too_few() -> None:
    where, state = next((where, state) for where, state in STATES if state["result"] is not None)
    assert_refuses_extra_and_missing(where, state, ArtCollectorsState, "black_cat_seen")
    players = [{**player, "bonus": 0} for player in state["result"]["players"]]
    assert problem({**state, "result": {**state["result"], "players": players}}, ArtCollectorsState, "state")
    steal = {"event": "steal", "seat": 1, "count": 1, "painting": 4}  # without "from"
    assert problem({**state, "events": [steal]}, ArtCollectorsState, "state") is not None


def test_phases_are_the_plain_strings_the_json_keeps() -> None:
    assert [str(p) for p in Phase] == ["play", "count", "over"]
    assert json.dumps({"phase": Phase.COUNT}) == '{"phase": "count"}'
    assert get_type_hints(ArtCollectorsState)["phase"] is Phase
    kinds = [get_args(get_type_hints(arm)["event"])[0] for arm in get_args(Event)]
    assert len(kinds) == len(set(kinds)) == 14
