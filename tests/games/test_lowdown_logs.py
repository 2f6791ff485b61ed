"""Example Lowdown games (``logs/lowdown-*.jsonl``) replay to the final boards and scores in their sidecars."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import lowdown
from companion.journal.replay import load_lines, replay_file

LOGS = sorted((Path(__file__).parent / "logs").glob("lowdown-*.jsonl"))


def board_text(state: dict[str, Any], player: int) -> dict[str, Any]:
    board = state["boards"][player]
    grids = [
        [" ".join("." if c is None else "#" if c.get("shaded") else str(c["n"]) for c in row) for row in grid]
        for grid in board["grids"]
    ]
    return {"grids": grids, "wilds": board["wilds"], "crossed": board["crossed"]}


def score_from_text(board: dict[str, Any]) -> int:
    """The score worked out from the sidecar alone: numbers outside crossed lines, 6 per shaded square."""
    crossed = {tuple(sq) for line in board["crossed"] for sq in line}
    total = 0
    for g, grid in enumerate(board["grids"]):
        for r, row in enumerate(grid):
            for c, token in enumerate(row.split()):
                if token == "#":
                    total += 6
                elif token != "." and (g, r, c) not in crossed:
                    total += int(token)
    return total


def test_there_are_example_games() -> None:
    assert len(LOGS) >= 3


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_log_replays_to_expected_result(path: Path) -> None:
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
    result = replay_file(str(path))
    state = result["state"]
    assert result["game"] == "lowdown"
    assert result["over"] is expected["over"] is True
    assert result["scores"] == expected["scores"]
    assert state["turn"] == expected["turns"]
    assert [state["players"][p]["name"] for p in state["enders"]] == expected["enders"]
    for p, player in enumerate(state["players"]):
        board = expected["boards"][player["name"]]
        assert board_text(state, p) == board
        assert result["scores"][player["name"]] == score_from_text(board)
        assert sum(1 for grid in board["grids"] if "." not in " ".join(grid)) == lowdown.filled_grids(state, p)
    low = min(v for k, v in expected["scores"].items() if k != "winners")
    assert expected["scores"]["winners"] == [k for k, v in expected["scores"].items() if k != "winners" and v == low]


def test_logs_cover_the_rules() -> None:
    """Together the example games use looks at the secret pair, wilds, shading, crossing and both editions."""
    seen: set[str] = set()
    for path in LOGS:
        with path.open(encoding="utf-8") as fh:
            setup, actions = load_lines(fh, source=str(path))
        seen.add(f"edition:{setup.settings.get('edition', 'es')}")
        state = lowdown.ENGINE.setup(setup)
        for action in actions:
            if action["type"] == "secret" and state["phase"] == "active":
                seen.add("look")
            if action["type"] == "place" and action.get("wild"):
                seen.add("wild-active" if action["player"] == state["active"] else "wild-other")
            seen.add(action["type"])
            state = lowdown.ENGINE.apply(state, action)
    assert {"look", "wild-active", "wild-other", "shade", "cross", "edition:es", "edition:en"} <= seen


def test_companion_replay_command_prints_the_scores(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    path = LOGS[0]
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["game"] == "lowdown" and printed["over"] is True
    assert printed["scores"] == expected["scores"]
