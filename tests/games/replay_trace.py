"""Step-by-step traces of every scenario file and example log, for proving that a refactor changes no outcome.

A trace is one record per action: a digest of the state after it (or the refusal's text) and the line the log
and the undo prompt show for it. ``tests/games/golden/traces.json`` holds the traces as they were; the test
beside this module replays everything again and compares step by step. Regenerate (only for a deliberate
change of rules or wording, said so in the commit) with ``python -m tests.games.replay_trace --write``.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from companion.games import engine as find_engine
from companion.games.base import BadSetup, IllegalAction, Player, Setup
from companion.journal.replay import is_note, load_lines

HERE = Path(__file__).parent
SCENARIOS = HERE / "scenarios"
LOGS = HERE / "logs"
GOLDEN = HERE / "golden" / "traces.json"
GAMES = ("ratatat", "lowdown", "ratuki", "artcollectors")


# Keys added to the states since the traces were recorded, with what they add (they are left out of the digest).
ADDED = {
    "seats": "#23: every player's seat (button), so engines answer by seat",
}


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """The part of a state a trace compares: everything but the keys in ``ADDED``, with the events (data since
    #23) in the words the screen shows for them, which must be the sentences the engines used to store."""
    out = {key: value for key, value in state.items() if key not in ADDED}
    if state.get("game") == "artcollectors":
        out.pop("events", None)
    if state.get("game") == "ratatat":
        from companion.games.ratatat import wording

        out["events"] = wording.events_text(state)
    if state.get("game") == "artcollectors":
        out.update(artcollectors_in_words(state))
    return out


def artcollectors_in_words(state: dict[str, Any]) -> dict[str, Any]:
    """An Art Collectors state's events and result as the sentences the engine used to keep in it (``event``,
    each painting's ``reason``, the result's ``notes``), from the data it keeps now."""
    from companion.games.artcollectors import wording

    out: dict[str, Any] = {"event": wording.events_line(state)}
    out.pop("events", None)
    result = state.get("result")
    if result is not None:
        rows = [{**row, "reason": wording.reason_text(row, result, state)} for row in result["paintings"]]
        for row in rows:
            del row["why"]
        out["result"] = {**result, "paintings": rows, "notes": wording.notes(result, state)}
    return out


def digest(state: dict[str, Any]) -> str:
    text = json.dumps(comparable(state), sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def describe(game: str, action: dict[str, Any], state: dict[str, Any]) -> str:
    """What the game screen's log shows for ``action`` with the state after it."""
    engine = find_engine(game)
    try:
        return str(engine.describe(action, state))
    except TypeError:
        return str(engine.describe(action))  # type: ignore[call-arg]


def trace(setup: Setup, actions: list[dict[str, Any]]) -> list[Any]:
    """One entry per action: ``[digest, describe]`` when accepted, ``["refused", text]`` when refused (the
    trace goes on from the unchanged state), and first the setup's digest (or ``["bad setup", text]``)."""
    engine = find_engine(setup.game)
    try:
        state = engine.setup(setup)
    except BadSetup as err:
        return [["bad setup", str(err)]]
    out: list[Any] = [digest(state)]
    for action in actions:
        if is_note(action):
            out.append(["note"])
            continue
        before = copy.deepcopy(state)
        try:
            state = engine.apply(state, copy.deepcopy(action))
        except IllegalAction as err:
            assert state == before
            out.append(["refused", str(err)])
            continue
        out.append([digest(state), describe(setup.game, action, state)])
    return out


def scenario_setup(game: str, spec: dict[str, Any]) -> Setup:
    players = tuple(Player(name, seat=i + 1) for i, name in enumerate(spec["players"]))
    return Setup(game, players, spec.get("settings", {}), spec.get("seed", 0) if game == "lowdown" else 0)


def all_traces() -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for game in GAMES:
        for path in sorted((SCENARIOS / game).glob("*.json")):
            spec = json.loads(path.read_text(encoding="utf-8"))
            if "players" not in spec:
                continue
            out[f"scenarios/{game}/{path.name}"] = trace(scenario_setup(game, spec), spec.get("actions", []))
    for path in sorted(LOGS.glob("*.jsonl")):
        with path.open(encoding="utf-8") as fh:
            setup, actions = load_lines(fh, source=str(path))
        out[f"logs/{path.name}"] = trace(setup, actions)
    return out


def main(argv: list[str]) -> int:
    traces = all_traces()
    if "--write" in argv:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_text(json.dumps(traces, indent=0, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN} ({len(traces)} traces)")
        return 0
    print(json.dumps(traces, ensure_ascii=False, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
