"""Makes the example Ratuki game logs in ``tests/games/logs/`` (run: ``python tests/games/ratuki_logbot.py``).

A seeded table of players hits their buttons the way people do (the taker first, others a reaction time
later, sometimes within the tie window, sometimes a bouncy contact or a held button); the edges go through the
live :class:`Referee` exactly as on the screen, and each finished contest becomes a ``call`` action. At the end
of a round the bot invents plausible card counts. Its own bookkeeping of the points it entered (not the
engine's) is written to the ``.expected.json`` sidecar, so the replay test checks the engine against it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from companion.games.base import Player, Setup  # noqa: E402
from companion.games.ratuki import ENGINE, claim_for  # noqa: E402
from companion.games.ratuki.referee import Referee, judge  # noqa: E402
from companion.journal.replay import dump_lines  # noqa: E402

LOGS = Path(__file__).parent / "logs"
COLOURS = ["#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047"]


def make_game(name: str, names: list[str], settings: dict[str, Any], seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    players = tuple(Player(n, COLOURS[i], i + 1) for i, n in enumerate(names))
    setup = Setup("ratuki", players, settings, seed)
    state = ENGINE.setup(setup)
    merged = state["settings"]
    window, lockout = merged["tie_window_ms"], merged["lockout_ms"]
    actions: list[dict[str, Any]] = []
    totals = {n: 0 for n in names}
    expected_rounds: list[dict[str, int]] = []
    takes = ties = 0
    clock = 3000.0 + rng.uniform(0, 1000)

    def do(action: dict[str, Any]) -> None:
        nonlocal state
        action = json.loads(json.dumps(action))
        state = ENGINE.apply(state, action)
        actions.append(action)

    def journal(contest: Any) -> None:
        nonlocal takes, ties
        verdict = judge(contest.presses, window, contest.late)
        do({**contest.to_action(), "verdict": claim_for(state, verdict)})
        takes += verdict.kind == "take"
        ties += verdict.kind == "tie"

    while state["phase"] != "over":
        referee = Referee(window_ms=window, lockout_ms=lockout)
        do({"type": "start", "tick": round(clock, 6)})
        end = clock + rng.uniform(150, 330)
        t = clock + rng.uniform(3, 10)
        pause = t + rng.uniform(20, 60) if rng.random() < 0.3 else None
        while t < end:
            if pause is not None and t > pause:
                do({"type": "pause", "tick": round(pause, 6)})
                resume = pause + rng.uniform(15, 90)
                do({"type": "resume", "tick": round(resume, 6)})
                shift = resume - pause
                t, end, pause = t + shift, end + shift, None
            taker = rng.randrange(len(names)) + 1
            edges: list[tuple[float, str, int]] = [(t, "press", taker), (t + rng.uniform(0.06, 0.2), "release", taker)]
            if rng.random() < 0.15:  # a bouncy contact
                edges += [(t + 0.002, "release", taker), (t + 0.004, "press", taker)]
            for seat in range(1, len(names) + 1):
                if seat != taker and rng.random() < 0.35:
                    delay = abs(rng.gauss(0.07, 0.06))
                    edges += [(t + delay, "press", seat), (t + delay + rng.uniform(0.05, 0.2), "release", seat)]
            for tick, kind, seat in sorted(edges):
                tick = round(tick, 6)
                if kind == "press":
                    step = referee.press(seat, tick)
                    if step.finished is not None:
                        journal(step.finished)
                else:
                    referee.release(seat, tick)
            contest = referee.finish()
            if contest is not None:
                journal(contest)
            t += rng.expovariate(1 / 9.0) + 0.8
        out = rng.randrange(len(names)) + 1
        reason = "out" if rng.random() < 0.7 else "blocked"
        stop: dict[str, Any] = {"type": "stop", "tick": round(end, 6), "reason": reason}
        if reason == "out":
            stop["seat"] = out
        do(stop)
        deck = merged["deck_size"]
        left = {s: (0 if reason == "out" and s == out else rng.randint(0, 14)) for s in range(1, len(names) + 1)}
        hands = {s: (rng.randint(0, 3) if merged["count_hand"] else 0) for s in left}
        pool = deck * len(names) - sum(left.values()) - 3 * len(names) - rng.randint(0, 12)
        weights = [rng.uniform(0.5, 2.0) for _ in names]
        piles = [int(pool * w / sum(weights)) for w in weights]
        record: dict[str, int] = {}
        for seat in left:
            entry: dict[str, Any] = {
                "type": "score",
                "seat": seat,
                "name": names[seat - 1],
                "score_pile": piles[seat - 1],
                "left": left[seat],
            }
            if merged["count_hand"]:
                entry["hand"] = hands[seat]
            do(entry)
            points = piles[seat - 1] - left[seat] - hands[seat]
            record[names[seat - 1]] = points
            totals[names[seat - 1]] += points
        expected_rounds.append(record)
        clock = end + rng.uniform(60, 240)

    best = max(totals.values())
    winners = [n for n in names if totals[n] == best]
    expected = {
        "over": True,
        "rounds": expected_rounds,
        "totals": totals,
        "winners": winners,
        "calls": {"take": takes, "tie": ties},
    }
    path = LOGS / f"{name}.jsonl"
    path.write_text("\n".join(dump_lines(setup, actions)) + "\n", encoding="utf-8")
    (LOGS / f"{name}.expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")
    return expected


GAMES: list[tuple[str, list[str], dict[str, Any], int]] = [
    ("ratuki-2p-target-100", ["Ana", "Bo"], {}, 11),
    ("ratuki-3p-hand-counts", ["Marta", "Luis", "Inés"], {"count_hand": True, "target": 120}, 23),
    ("ratuki-5p-hasbro-wide-window", ["Ana", "Bo", "Cy", "Di", "Ed"], {"deck_size": 34, "tie_window_ms": 80}, 5),
]

if __name__ == "__main__":
    for args in GAMES:
        result = make_game(*args)
        print(args[0], len(result["rounds"]), "rounds", result["totals"], result["winners"], result["calls"])
