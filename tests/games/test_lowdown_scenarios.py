"""Lowdown rule situations, one JSON file each under ``scenarios/lowdown/`` (checked like perft data).

A file holds ``players``, ``settings``, ``seed``, optional ``boards`` (a starting position per player: each grid
as rows of ``"3 . #"`` tokens, number / free / shaded, plus ``wilds`` used and ``crossed`` lines) and ``start``
(state fields such as ``active``), then ``actions``. With ``error`` the last action must be refused with a
message containing it; ``expect`` is checked on the state after the accepted actions (``parts``: what each
player does now, :func:`~companion.games.lowdown.part_of_turn`; ``parts_looking``: the same while the active
player enters a secret pair they look at; ``still_to_play``: whom the player strip marks; ``stuck``: the active
player must look at the secret pair; ``shaded_this_turn``; ``taken_text``: what the active player took, as the
others read it; ``write_refusals``: taps on a free square with the dice picked so far, each saying why nothing is
written, or null when the tap writes; ``cross_refusals``: why a square cannot be picked for a crossing).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from companion.games import lowdown
from companion.games.base import IllegalAction, Player, Setup

HERE = Path(__file__).parent / "scenarios" / "lowdown"
FILES = sorted(HERE.glob("*.json"))


def parse_grid(rows: list[str]) -> list[list[dict[str, Any] | None]]:
    """``["3 . #", ...]`` -> board cells (number, free, shaded)."""
    out: list[list[dict[str, Any] | None]] = []
    for row in rows:
        cells: list[dict[str, Any] | None] = []
        for token in row.split():
            if token == ".":
                cells.append(None)
            elif token == "#":
                cells.append({"shaded": True, "turn": 0})
            else:
                cells.append({"n": int(token), "wild": False, "turn": 0})
        out.append(cells)
    return out


def start_state(spec: dict[str, Any]) -> dict[str, Any]:
    """Set up the scenario's game and lay out its starting boards."""
    players = tuple(Player(name, seat=i + 1) for i, name in enumerate(spec["players"]))
    state = lowdown.ENGINE.setup(Setup("lowdown", players, spec.get("settings", {}), spec.get("seed", 0)))
    for key, board in spec.get("boards", {}).items():
        target = state["boards"][int(key)]
        if "grids" in board:
            grids = [parse_grid(rows) for rows in board["grids"]]
            shapes = [[len(r) for r in g] for g in grids]
            assert shapes == [[len(r) for r in g] for g in target["grids"]], "board spec does not match the layout"
            target["grids"] = grids
        target["wilds"] = board.get("wilds", 0)
        target["crossed"] = board.get("crossed", [])
    state.update(spec.get("start", {}))
    return state


def check_expect(state: dict[str, Any], expect: dict[str, Any]) -> None:
    eng = lowdown.ENGINE
    for key, want in expect.items():
        if key == "scores":
            assert eng.scores(state) == want
        elif key == "over":
            assert eng.is_over(state) is want
        elif key == "cells":
            for p, cells in want.items():
                for where, value in cells.items():
                    g, r, c = (int(x) for x in where.split(","))
                    cell = state["boards"][int(p)]["grids"][g][r][c]
                    got = None if cell is None else ("#" if cell.get("shaded") else cell["n"])
                    assert got == value, f"player {p} square {where}"
        elif key == "wilds_used":
            for p, n in want.items():
                assert state["boards"][int(p)]["wilds"] == n
        elif key == "crossed":
            for p, n in want.items():
                assert len(state["boards"][int(p)]["crossed"]) == n
        elif key == "pool":
            assert lowdown.pool(state) == want
        elif key == "legal_crossings":
            for p, lines in want.items():
                assert lowdown.legal_crossings(state, int(p)) == lines
        elif key == "must_shade":
            for p, flag in want.items():
                assert lowdown.must_shade(state, int(p)) is flag
        elif key == "legal_squares":
            query = dict(want)
            squares = query.pop("squares")
            player = query.pop("player")
            got = [a["square"] for a in lowdown.legal_placements(state, player, **query)]
            assert sorted(got) == sorted(squares)
        elif key in ("parts", "parts_looking"):
            # What each player does now (the screen's controls), and while the active player enters a pair
            looking = key == "parts_looking"
            for p, part in want.items():
                assert lowdown.part_of_turn(state, int(p), looking=looking) == part, f"player {p}"
        elif key == "still_to_play":
            assert lowdown.still_to_play(state) == want
        elif key in ("stuck", "shaded_this_turn"):
            question = getattr(lowdown, key)
            for p, flag in want.items():
                assert question(state, int(p)) is flag, f"{key} for player {p}"
        elif key == "taken_text":
            assert lowdown.taken_text(state) == want
        elif key == "write_refusals":
            for tap in want:
                picks = {k: tap[k] for k in ("number", "colour", "wild", "looking") if k in tap}
                got = lowdown.write_refusal(state, tap["player"], **picks)
                assert got == tap["says"], f"tap {tap}: {got!r}"
        elif key == "cross_refusals":
            for p, squares in want.items():
                for where, says in squares.items():
                    square = [int(x) for x in where.split(",")]
                    assert lowdown.cross_refusal(state, int(p), square) == says, f"player {p} square {where}"
        elif key == "secret_roller":
            assert lowdown.secret_roller(state) == want
        else:
            assert state[key] == want, key


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_scenario(path: Path) -> None:
    spec = json.loads(path.read_text(encoding="utf-8"))
    state = start_state(spec)
    actions = spec["actions"]
    if "error" in spec:
        *accepted, refused = actions
    else:
        accepted, refused = actions, None
    for action in accepted:
        before = json.dumps(state, sort_keys=True)
        new_state = lowdown.ENGINE.apply(state, action)
        assert json.dumps(state, sort_keys=True) == before, "apply changed its input state"
        state = new_state
    if refused is not None:
        frozen = json.dumps(state, sort_keys=True)
        with pytest.raises(IllegalAction) as err:
            lowdown.ENGINE.apply(state, refused)
        assert spec["error"] in str(err.value)
        assert json.dumps(state, sort_keys=True) == frozen, "a refused action changed the state"
    check_expect(state, spec.get("expect", {}))


def test_there_are_scenarios_for_every_rule() -> None:
    names = {p.stem.split("_")[0] for p in FILES}
    assert {"place", "others", "look", "wild", "shade", "cross", "end", "legal", "part", "hint"} <= names
