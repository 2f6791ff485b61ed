"""Makes the example Lowdown games under ``logs/`` (run ``python tests/games/lowdown_logbot.py`` to rebuild).

A seeded greedy player: low numbers, lines that can be crossed, wilds when nothing fits or by whim; it crosses
rows and columns before diagonals. The logs are the export format; each has a ``.expected.json`` sidecar with
the final boards and scores that ``test_lowdown_logs.py`` checks a replay against.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from companion.games import lowdown
from companion.games.base import Player, Setup
from companion.journal.replay import dump_lines

LOGS = Path(__file__).parent / "logs"
GAMES: list[dict[str, Any]] = [
    {"file": "lowdown-2p-spanish", "players": ["Ana", "Bo"], "settings": {}, "seed": 21, "whim": 0.15},
    {
        "file": "lowdown-3p-english-virtual",
        "players": ["Ana", "Bo", "Cy"],
        "settings": {"edition": "en", "secret_dice": "virtual"},
        "seed": 5,
        "whim": 0.1,
    },
    {
        "file": "lowdown-4p-spanish-virtual",
        "players": ["Ana", "Bo", "Cy", "Di"],
        "settings": {"secret_dice": "virtual"},
        "seed": 9,
        "whim": 0.9,
    },
]


def board_text(state: dict[str, Any], player: int) -> dict[str, Any]:
    """A player's board as rows of ``"3 . #"`` tokens, plus wilds used and crossed lines (sidecar format)."""
    board = state["boards"][player]
    grids = [
        [" ".join("." if c is None else "#" if c.get("shaded") else str(c["n"]) for c in row) for row in grid]
        for grid in board["grids"]
    ]
    return {"grids": grids, "wilds": board["wilds"], "crossed": board["crossed"]}


def _value(state: dict[str, Any], player: int, action: dict[str, Any], rng: random.Random) -> float:
    after = lowdown.ENGINE.apply(state, action)
    gain = 10 * (len(lowdown.legal_crossings(after, player)) - len(lowdown.legal_crossings(state, player)))
    return float(action["number"]) - gain + (2 if action.get("wild") else 0) + rng.random()


def play(spec: dict[str, Any]) -> tuple[Setup, list[dict[str, Any]], dict[str, Any]]:
    """Play one game; returns its setup, actions and final state."""
    rng = random.Random(spec["seed"])
    players = tuple(Player(n, seat=i + 1) for i, n in enumerate(spec["players"]))
    setup = Setup("lowdown", players, spec["settings"], spec["seed"])
    eng = lowdown.ENGINE
    state = eng.setup(setup)
    layout = state["layout"]
    virtual = spec["settings"].get("secret_dice") == "virtual"
    actions: list[dict[str, Any]] = []

    def do(action: dict[str, Any]) -> None:
        nonlocal state
        state = eng.apply(state, action)
        actions.append(action)

    def secret() -> dict[str, Any]:
        if virtual:
            return {"type": "secret"}
        return {
            "type": "secret",
            "colour": rng.choice(list(layout["colours"])),
            "number": rng.choice(layout["numbers"]),
        }

    def cross_all(who: int) -> None:
        while True:
            lines = lowdown.legal_crossings(state, who)
            if not lines:
                return
            lines.sort(key=lambda ln: (ln[0][1] != ln[1][1] and ln[0][2] != ln[1][2], rng.random()))
            do({"type": "cross", "player": who, "squares": lines[0]})

    while not eng.is_over(state):
        phase = state["phase"]
        if phase == "roll":
            do(
                {
                    "type": "roll",
                    "colours": [rng.choice(list(layout["colours"])) for _ in range(2)],
                    "numbers": [rng.choice(layout["numbers"]) for _ in range(2)],
                }
            )
            continue
        if phase == "final":
            for p in range(len(players)):
                cross_all(p)
            do({"type": "finish"})
            continue
        who = state["active"] if phase == "active" else next(p for p in range(len(players)) if p not in state["done"])
        if state["secret"] is None and phase == "others":
            do(secret())
            continue
        options = lowdown.legal_placements(state, who)
        plain = [a for a in options if not a.get("wild")]
        if phase == "active" and not state["looked"] and (not plain or rng.random() < 0.15):
            do(secret())
            continue
        if lowdown.must_shade(state, who):
            do({"type": "shade", "player": who, "square": rng.choice(lowdown.free_squares(state, who))})
        else:
            pick = plain if plain and rng.random() > spec["whim"] else options
            do(min(pick, key=lambda a: _value(state, who, a, rng)))
        cross_all(who)
    return setup, actions, state


def main() -> None:
    for spec in GAMES:
        setup, actions, state = play(spec)
        (LOGS / f"{spec['file']}.jsonl").write_text("\n".join(dump_lines(setup, actions)) + "\n", encoding="utf-8")
        expected = {
            "over": True,
            "turns": state["turn"],
            "enders": [state["players"][p]["name"] for p in state["enders"]],
            "scores": lowdown.ENGINE.scores(state),
            "boards": {pl["name"]: board_text(state, p) for p, pl in enumerate(state["players"])},
        }
        (LOGS / f"{spec['file']}.expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
        kinds = [a["type"] for a in actions]
        wild = sum(1 for a in actions if a.get("wild"))
        print(spec["file"], len(actions), {k: kinds.count(k) for k in set(kinds)}, "wild", wild, expected["scores"])


if __name__ == "__main__":
    main()
