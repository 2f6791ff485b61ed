"""Every scenario file and example log replays step by step exactly as recorded in ``golden/traces.json``: the
same states, the same refusals (word for word) and the same log lines. A change to the engines' structure must
leave this test passing untouched; a deliberate change of rules or wording regenerates the file
(``python -m tests.games.replay_trace --write``) in a commit that says why."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.games.replay_trace import GOLDEN, all_traces

GOLDEN_TRACES: dict[str, list[Any]] = json.loads(GOLDEN.read_text(encoding="utf-8"))
CURRENT = all_traces()


def test_every_file_has_a_trace() -> None:
    assert sorted(CURRENT) == sorted(GOLDEN_TRACES)
    assert len(CURRENT) > 300


@pytest.mark.parametrize("name", sorted(GOLDEN_TRACES))
def test_replays_as_recorded(name: str) -> None:
    want, got = GOLDEN_TRACES[name], CURRENT.get(name)
    assert got is not None, f"{name} is gone"
    for step, (a, b) in enumerate(zip(want, got, strict=False)):
        assert b == a, f"{name}: step {step} differs: recorded {a!r}, now {b!r}"
    assert len(got) == len(want), f"{name}: {len(want)} steps recorded, {len(got)} now"
