"""Ratuki's state is described by ``TypedDict``s (``companion/games/ratuki/state.py``) so ``mypy --strict`` checks
the engine's keys; these tests keep the description true to the JSON every example game actually produces."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, get_type_hints

import pytest

from companion.games.ratuki import ENGINE
from companion.games.ratuki.state import (
    Call,
    Clock,
    Entry,
    Phase,
    PlayerData,
    RatukiState,
    Result,
    RoundRecord,
    Settings,
    Stopped,
    VerdictData,
)
from companion.journal.replay import load_lines

LOGS = sorted((Path(__file__).parent / "logs").glob("ratuki-*.jsonl"))


def keys_fit(data: Any, shape: Any, where: str) -> None:
    assert isinstance(data, dict), where
    required, optional = set(shape.__required_keys__), set(shape.__optional_keys__)
    assert required <= set(data) <= required | optional, f"{where}: {sorted(data)} vs {shape.__name__}"


def check(state: dict[str, Any]) -> None:
    keys_fit(state, RatukiState, "state")
    keys_fit(state["settings"], Settings, "settings")
    keys_fit(state["clock"], Clock, "clock")
    assert state["phase"] in set(Phase)
    for player in state["players"]:
        keys_fit(player, PlayerData, "player")
    for call in state["calls"]:
        keys_fit(call, Call, "call")
        keys_fit(call["verdict"], VerdictData, "verdict")
    for entry in state["entries"].values():
        keys_fit(entry, Entry, "entry")
    for record in state["rounds"]:
        keys_fit(record, RoundRecord, "round")
        if record["stopped"] is not None:
            keys_fit(record["stopped"], Stopped, "round stopped")
    if "stopped" in state:
        keys_fit(state["stopped"], Stopped, "stopped")
    if state["result"] is not None:
        keys_fit(state["result"], Result, "result")


@pytest.mark.parametrize("log", LOGS, ids=[p.stem for p in LOGS])
def test_every_state_of_the_example_games_has_the_described_shape(log: Path) -> None:
    assert LOGS, "the Ratuki example logs are missing"
    setup, actions = load_lines(log.read_text(encoding="utf-8").splitlines(), source=str(log))
    state = ENGINE.setup(setup)
    check(state)  # type: ignore[arg-type]
    for action in actions:
        state = ENGINE.apply(state, action)
        check(state)  # type: ignore[arg-type]
    assert ENGINE.is_over(state) and state["phase"] == Phase.OVER == "over"


def test_phases_are_the_plain_strings_the_json_keeps() -> None:
    assert [str(p) for p in Phase] == ["ready", "playing", "scoring", "over"]
    assert json.dumps({"phase": Phase.SCORING}) == '{"phase": "scoring"}'
    assert get_type_hints(RatukiState)["phase"] is Phase
