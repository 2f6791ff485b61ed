"""Rat-a-Tat Roll's state is described by ``TypedDict``\\ s (``companion/games/ratatat/state.py``) so
``mypy --strict`` checks the engine's keys; these tests keep the description true to the JSON every example game
and scenario actually produces: a key the engine starts writing, or stops writing, fails them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_args, get_type_hints

from companion.games.base import Player, Setup
from companion.games.ratatat import ENGINE
from companion.games.ratatat import state as shape
from companion.games.ratatat.phases import Phase
from companion.games.ratatat.state import Event, RatatatState
from tests.games.shapes import assert_all_described, assert_refuses_extra_and_missing, problem, states

STATES = list(states("ratatat"))


def pile_runs_out(tmp_path: Path) -> list[tuple[str, Any]]:
    """The states of a game with a nine-card deck whose pile runs out (no example game gets there): a region left
    empty (``pile_empty``), then a turn with nothing to take (``nothing_to_take``)."""
    tiny = {"schema": 1, "cards": [{"value": v, "count": 1} for v in range(9)]}
    (tmp_path / "tiny.json").write_text(json.dumps(tiny), encoding="utf-8")
    players = tuple(Player(name, seat=i + 1) for i, name in enumerate(("Ana", "Bob", "Cid")))
    state = ENGINE.setup(Setup("ratatat", players, {"deck": str(tmp_path / "tiny.json")}))
    out: list[tuple[str, Any]] = [("tiny deck setup", state)]
    actions: list[dict[str, Any]] = [
        *({"type": "reveal", "region": region, "value": region, "balloon": False} for region in range(5)),
        {"type": "roll", "dice": [1]},
        {"type": "move"},
        {"type": "take_pile", "balloon": False},
        {"type": "roll", "dice": [1]},
        {"type": "move"},
        {"type": "take_region"},
        {"type": "roll", "dice": [1]},
        {"type": "move"},
        {"type": "end_turn"},
    ]
    for step, action in enumerate(actions, 1):
        state = ENGINE.apply(state, action)
        out.append((f"tiny deck step {step}", state))
    return out


def test_every_state_of_the_example_games_has_the_described_shape(tmp_path: Path) -> None:
    assert_all_described([*STATES, *pile_runs_out(tmp_path)], RatatatState, shape, "Rat-a-Tat Roll")


def test_the_checker_refuses_a_key_too_many_or_too_few() -> None:
    where, state = STATES[-1]
    assert_refuses_extra_and_missing(where, state, RatatatState, "reshuffles")
    odd_event = {**state, "events": [{"event": "gave_back", "card": 0, "why": "x"}]}
    assert problem(odd_event, RatatatState, "state") is not None


def test_phases_are_the_plain_strings_the_json_keeps() -> None:
    assert [str(p) for p in Phase] == [
        "deal",
        "roll",
        "rolled",
        "space",
        "picture",
        "endgame",
        "picture_rolled",
        "give_back",
        "reveal",
        "look",
        "final_reveal",
        "over",
    ]
    assert json.dumps({"phase": Phase.PICTURE_ROLLED}) == '{"phase": "picture_rolled"}'
    assert get_type_hints(RatatatState)["phase"] is Phase
    kinds = [get_args(get_type_hints(arm)["event"])[0] for arm in get_args(Event)]
    assert len(kinds) == len(set(kinds)) == 12
