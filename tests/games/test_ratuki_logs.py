"""Example Ratuki games (``logs/ratuki-*.jsonl``) replay to the scores in their ``.expected.json`` sidecars.

The sidecars come from outside the engine: one worked by hand, the others from the log bot's own bookkeeping
of the counts it entered (``ratuki_logbot.py``). ``companion replay`` must print the same result.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.cli import main as cli_main
from companion.games.ratuki import ENGINE
from companion.journal.replay import load_lines

LOGS = Path(__file__).parent / "logs"
FILES = sorted(LOGS.glob("ratuki-*.jsonl"))


def test_there_are_example_games() -> None:
    assert len(FILES) >= 4


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_log_replays_to_its_expected_result(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    with path.open(encoding="utf-8") as fh:
        setup, actions = load_lines(fh, source=str(path))
    state = ENGINE.setup(setup)
    kinds = {"take": 0, "tie": 0}
    for action in actions:
        state = ENGINE.apply(state, action)
        if action["type"] == "call":
            kinds[state["calls"][-1]["verdict"]["kind"]] += 1
            claim = action.get("verdict")
            if claim is not None:  # the verdict shown at the table is the one the ticks give
                assert claim["kind"] == state["calls"][-1]["verdict"]["kind"]
    assert ENGINE.is_over(state) is expected["over"]
    scores = ENGINE.scores(state)
    assert {k: v for k, v in scores.items() if k != "winners"} == expected["totals"]
    assert scores["winners"] == expected["winners"]
    assert (state["result"]["kind"] == "draw") is expected.get("draw", False)
    rounds = [{name: entry["points"] for name, entry in r["entries"].items()} for r in state["rounds"]]
    assert rounds == expected["rounds"]
    assert kinds == expected["calls"]
    if "durations" in expected:
        assert [r["duration_s"] for r in state["rounds"]] == expected["durations"]


@pytest.mark.parametrize("path", FILES[:2], ids=[p.stem for p in FILES[:2]])
def test_companion_replay_prints_the_same_result(path: Path, capsys: Any) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert cli_main(["replay", str(path)]) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["game"] == "ratuki" and first["over"] is True
    assert first["scores"]["winners"] == expected["winners"]
    assert cli_main(["replay", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == first  # replay is deterministic to the last tick


def test_a_tampered_tick_is_caught_on_replay(tmp_path: Path, capsys: Any) -> None:
    lines = (LOGS / "ratuki-2p-handmade.jsonl").read_text(encoding="utf-8").splitlines()
    # Move Bo's tied press 41 ms -> 90 ms: the presses can no longer be one call.
    lines[3] = lines[3].replace("820.541", "820.59")
    bad = tmp_path / "ratuki-bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert cli_main(["replay", str(bad)]) == 2
    assert "action 3 (call) refused: Bo pressed 90 ms after Ana" in capsys.readouterr().err
