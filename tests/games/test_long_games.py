"""Long games stay fast (issue #22, item 6): a move copies the parts of the state it may change, never the logs
that grow with the game, and never changes what an earlier state holds. (The figures are in ``companion bench
--only long``; these tests check the structure that makes them flat.)"""

from __future__ import annotations

import json

from companion.games import engine
from companion.games.base import Player, Setup

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def _calls(count: int, *, ties_every: int = 0) -> list[dict[str, object]]:
    actions: list[dict[str, object]] = [{"type": "start", "tick": 0.0}]
    for i in range(count):
        tick = 1.0 + i
        presses = [{"seat": 1 + i % 2, "tick": tick}]
        if ties_every and i % ties_every == 0:
            presses.append({"seat": 2 - i % 2, "tick": tick + 0.01})
        actions.append({"type": "call", "presses": presses})
    return actions


def test_a_ratuki_call_shares_the_rounds_earlier_calls_instead_of_copying_them() -> None:
    ratuki = engine("ratuki")
    state = ratuki.setup(Setup("ratuki", PLAYERS))
    for action in _calls(300):
        state = ratuki.apply(state, action)
    after = ratuki.apply(state, {"type": "call", "presses": [{"seat": 1, "tick": 1000.0}]})
    assert len(after["calls"]) == 301
    assert all(a is b for a, b in zip(after["calls"], state["calls"], strict=False))  # shared, not deep-copied
    assert after["calls"] is not state["calls"]


def test_no_move_changes_an_earlier_state_even_where_it_shares_its_log() -> None:
    ratuki = engine("ratuki")
    state = ratuki.setup(Setup("ratuki", PLAYERS))
    states = [state]
    actions = [*_calls(40, ties_every=3), {"type": "separate"}, {"type": "pause", "tick": 50.0}]
    actions += [{"type": "resume", "tick": 51.0}, {"type": "stop", "tick": 60.0, "reason": "other"}]
    actions += [
        {"type": "score", "seat": 1, "score_pile": 20, "left": 5},
        {"type": "score", "seat": 2, "score_pile": 9, "left": 0},
    ]
    frozen = [json.dumps(state, sort_keys=True)]
    for action in actions:
        state = ratuki.apply(state, action)
        states.append(state)
        frozen.append(json.dumps(state, sort_keys=True))
    assert states[-1]["rounds"] and states[42]["calls"][-1]["verdict"]["kind"] == "separate"
    assert [json.dumps(s, sort_keys=True) for s in states] == frozen  # every earlier state exactly as it was
