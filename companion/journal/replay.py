"""Games as JSON lines (export) and back (replay).

File format, one JSON object per line:
``{"kind": "setup", "game": ..., "players": [...], "settings": {...}, "seed": N}`` first, then one
``{"kind": "action", "seq": N, "action": {...}}`` per accepted action, in order.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from companion.games import engine as find_engine
from companion.games.base import BadSetup, Engine, IllegalAction, Setup, State

# Actions whose type starts with this are journaled (and exported, and undone) like any other, but carry no
# rules: a dice correction, say. The engine never sees them, so every game accepts them.
NOTE_PREFIX = "note."


def is_note(action: dict[str, Any]) -> bool:
    return str(action.get("type", "")).startswith(NOTE_PREFIX)


def describe_note(action: dict[str, Any]) -> str:
    """One line for a note action ("Die 2 corrected: 5 → 6")."""
    if action.get("type") == "note.dice_correction":
        return f"Die {action.get('die')} corrected: {action.get('read')} → {action.get('face')}"
    return str(action.get("text") or action.get("type"))


class ReplayError(ValueError):
    """A line of an exported game that cannot be read or applied; the message names the line."""


def dump_lines(setup: Setup, actions: Iterable[dict[str, Any]]) -> list[str]:
    """The export lines (without newlines) for a game."""
    lines = [json.dumps({"kind": "setup", **setup.to_json()}, sort_keys=True)]
    for seq, action in enumerate(actions, start=1):
        lines.append(json.dumps({"kind": "action", "seq": seq, "action": action}, sort_keys=True))
    return lines


def load_lines(lines: Iterable[str], *, source: str = "<input>") -> tuple[Setup, list[dict[str, Any]]]:
    """Parse export lines into the setup and the action list; :class:`ReplayError` names the bad line."""
    setup: Setup | None = None
    actions: list[dict[str, Any]] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        where = f"{source}, line {number}"
        try:
            record = json.loads(text)
        except json.JSONDecodeError as err:
            raise ReplayError(f"{where}: not valid JSON ({err.msg} at column {err.colno})") from err
        if not isinstance(record, dict):
            raise ReplayError(f"{where}: expected a JSON object, got {type(record).__name__}")
        kind = record.get("kind")
        if kind == "setup":
            if setup is not None:
                raise ReplayError(f"{where}: a second setup line; one file holds one game")
            try:
                setup = Setup.from_json(record)
            except (KeyError, TypeError, ValueError) as err:
                raise ReplayError(f"{where}: bad setup ({err})") from err
        elif kind == "action":
            if setup is None:
                raise ReplayError(f"{where}: an action before the setup line")
            action = record.get("action")
            if not isinstance(action, dict) or not isinstance(action.get("type"), str):
                raise ReplayError(f"{where}: 'action' must be an object with a string 'type'")
            if "seq" in record and record["seq"] != len(actions) + 1:
                raise ReplayError(f"{where}: sequence number {record['seq']}, expected {len(actions) + 1}")
            actions.append(action)
        else:
            raise ReplayError(f"{where}: unknown line kind {kind!r} (expected 'setup' or 'action')")
    if setup is None:
        raise ReplayError(f"{source}: no setup line; is this an exported game?")
    return setup, actions


def replay(setup: Setup, actions: Iterable[dict[str, Any]], *, source: str = "<input>") -> State:
    """The state after applying every action to the game's setup. Errors name the action number."""
    state = first_state(setup, source=source)  # an unknown game or a refused setup: ReplayError
    game = find_engine(setup.game)
    for seq, action in enumerate(actions, start=1):
        state = apply_logged(game, state, action, seq, source=source)
    return state


def first_state(setup: Setup, *, source: str = "<input>") -> State:
    """The state before the first action; :class:`ReplayError` when the engine refuses the setup."""
    try:
        return find_engine(setup.game).setup(setup)
    except BadSetup as err:
        raise ReplayError(f"{source}: cannot start the game: {err}") from err


def apply_logged(game: Engine, state: State, action: dict[str, Any], seq: int, *, source: str = "<input>") -> State:
    """Action number ``seq`` of a log applied to ``state`` (a note changes nothing); a refusal is a
    :class:`ReplayError` naming the action."""
    if is_note(action):
        return state
    try:
        return game.apply(state, action)
    except IllegalAction as err:
        raise ReplayError(f"{source}: action {seq} ({action.get('type')}) refused: {err}") from err


def replay_file(path: str) -> dict[str, Any]:
    """Replay an export file and return ``{"game", "state", "scores", "over"}`` as printed by the CLI."""
    with open(path, encoding="utf-8") as fh:
        setup, actions = load_lines(fh, source=path)
    state = replay(setup, actions, source=path)
    game = find_engine(setup.game)
    return {
        "game": setup.game,
        "actions": len(actions),
        "over": game.is_over(state),
        "scores": game.scores(state),
        "state": state,
    }
