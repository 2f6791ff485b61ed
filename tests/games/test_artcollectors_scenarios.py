"""Art Collectors rule situations, one JSON file each under ``scenarios/artcollectors/`` (like perft data).

A file holds ``players`` (names), optional ``settings``, the ``actions`` to apply, and either ``error`` (the
LAST action must be refused with a reason containing this text; every earlier one must be accepted) or
``setup_error``; then ``expect`` (dotted paths into the state, e.g. ``"piles.1": ["5", "7"]``; ``$bag_total``,
``$options.<move>`` and ``$working.<path>`` are computed; ``$steal_run.<seat>``: how many tokens the current
player may steal from that pile now; ``$uncounted``: the tokens the final count leaves out, and
``$uncounted_text`` the warning Score shows for them) and ``scores`` (the engine's ``scores()``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games.artcollectors import ENGINE, bag_total, steal_run, uncounted, wording, working
from companion.games.base import BadSetup, IllegalAction, Player, Setup
from tests.games.replay_trace import artcollectors_in_words

SCENARIOS = sorted((Path(__file__).parent / "scenarios" / "artcollectors").glob("*.json"))


def lookup(data: Any, path: str) -> Any:
    """Follow a dotted path through dicts (keys) and lists (indices)."""
    for part in path.split("."):
        if isinstance(data, list):
            data = data[int(part)]
        else:
            assert part in data, f"no {part!r} in {sorted(data)} (path {path})"
            data = data[part]
    return data


def make_setup(spec: dict[str, Any]) -> Setup:
    players = tuple(Player(name, seat=i + 1) for i, name in enumerate(spec["players"]))
    return Setup("artcollectors", players, spec.get("settings", {}), 0)


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 30


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    assert spec.get("description"), "every scenario says what it checks"
    if "setup_error" in spec:
        with pytest.raises(BadSetup, match=spec["setup_error"]):
            ENGINE.setup(make_setup(spec))
        return
    state = ENGINE.setup(make_setup(spec))
    actions = spec.get("actions", [])
    error = spec.get("error")
    for n, action in enumerate(actions, start=1):
        before = json.dumps(state, sort_keys=True)
        if error is not None and n == len(actions):
            with pytest.raises(IllegalAction) as caught:
                ENGINE.apply(state, action)
            assert error in str(caught.value), f"refused for another reason: {caught.value}"
            assert json.dumps(state, sort_keys=True) == before, "a refused action changed the state"
            break
        try:
            new = ENGINE.apply(state, action)
        except IllegalAction as err:  # pragma: no cover - a failure report
            pytest.fail(f"action {n} {action} refused: {err}")
        assert json.dumps(state, sort_keys=True) == before, "apply mutated its input"
        json.dumps(new)  # the state stays plain JSON
        state = new
    for key, want in spec.get("expect", {}).items():
        if key == "$bag_total":
            got = bag_total(state)
        elif key.startswith("$options."):
            got = ENGINE.options(state)[key.split(".", 1)[1]]
        elif key.startswith("$steal_run."):
            got = steal_run(state, int(key.split(".", 1)[1]))
        elif key == "$uncounted":
            got = uncounted(state)
        elif key == "$uncounted_text":
            got = wording.uncounted_text(uncounted(state))
        elif key.startswith("$working."):
            got = lookup(working(state), key.split(".", 1)[1])
        else:  # the events and the result's reasons in words, as the screen shows them
            got = lookup({**state, **artcollectors_in_words(state)}, key)
        assert got == want, f"{key}: expected {want!r}, got {got!r}"
    if "scores" in spec:
        assert ENGINE.scores(state) == spec["scores"]
    if "over" in spec:
        assert ENGINE.is_over(state) is spec["over"]
