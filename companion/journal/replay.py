"""Games as JSON lines (export) and back (replay).

File format, one JSON object per line:
``{"kind": "setup", "game": ..., "players": [...], "settings": {...}, "seed": N}`` first, then one
``{"kind": "action", "seq": N, "action": {...}}`` per accepted action, in order.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from typing import IO, Any

from companion.config import MAX_NAME
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


# What an exported game can hold. Far above any real game (a 5,000-call Ratuki round exports to about 1 MB), far
# below what could exhaust a Pi: a hostile or broken file is refused, in one line, before it costs memory.
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_LINE_BYTES = 256 * 1024
MAX_DEPTH = 16  # objects and lists inside each other on one line
MAX_NUMBER = 1e12  # any number in a setup or an action (ticks are seconds; counts and seats are small)
MAX_TEXT = 1000  # characters of any string
MAX_ITEMS = 1000  # entries of any one object or list
MAX_SEED = 2**64
MAX_SEAT = 5


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
        if len(text) > MAX_LINE_BYTES:
            raise ReplayError(f"{where}: longer than {MAX_LINE_BYTES // 1024} KB; not a line of an exported game")
        try:
            record = json.loads(text, parse_int=_parse_int)
        except json.JSONDecodeError as err:
            raise ReplayError(f"{where}: not valid JSON ({err.msg} at column {err.colno})") from err
        except RecursionError:
            raise ReplayError(f"{where}: nested deeper than {MAX_DEPTH} levels") from None
        except ValueError as err:  # e.g. an integer of thousands of digits
            raise ReplayError(f"{where}: a number out of range ({str(err)[:80]})") from None
        if not isinstance(record, dict):
            raise ReplayError(f"{where}: expected a JSON object, got {type(record).__name__}")
        problem = _bounded(record)
        if problem is not None:
            raise ReplayError(f"{where}: {problem}")
        kind = record.get("kind")
        if kind == "setup":
            if setup is not None:
                raise ReplayError(f"{where}: a second setup line; one file holds one game")
            problem = _setup_problem(record)
            if problem is not None:
                raise ReplayError(f"{where}: bad setup ({problem})")
            try:
                setup = Setup.from_json(record)
            except (KeyError, TypeError, ValueError, OverflowError) as err:
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
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > MAX_FILE_BYTES:
            raise ReplayError(
                f"{path}: {size / 1024 / 1024:.0f} MB, more than an exported game can be "
                f"({MAX_FILE_BYTES // 1024 // 1024} MB)"
            )
        setup, actions = load_lines(_bounded_lines(fh, path), source=path)
    state = replay(setup, actions, source=path)
    game = find_engine(setup.game)
    return {
        "game": setup.game,
        "actions": len(actions),
        "over": game.is_over(state),
        "scores": game.scores(state),
        "state": state,
    }


def _bounded_lines(fh: IO[bytes], source: str) -> Iterator[str]:
    """The lines of a file as text, never holding more than one capped line: a line over the cap (``/dev/zero``
    has none at all), bytes that are not UTF-8 or a stream past the file cap is a :class:`ReplayError`."""
    total = 0
    number = 0
    while True:
        raw = fh.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        number += 1
        total += len(raw)
        if len(raw) > MAX_LINE_BYTES:
            raise ReplayError(
                f"{source}, line {number}: longer than {MAX_LINE_BYTES // 1024} KB; not a line of an exported game"
            )
        if total > MAX_FILE_BYTES:
            raise ReplayError(f"{source}: more than {MAX_FILE_BYTES // 1024 // 1024} MB; not an exported game")
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError as err:
            raise ReplayError(f"{source}, line {number}: not UTF-8 text (byte {err.start + 1} of the line)") from None


def _parse_int(text: str) -> int | float:
    """An integer of a line; one of more digits than any bound allows stands as infinity (refused, by name)."""
    return int(text) if len(text) <= 24 else math.inf


def _bounded(value: Any, where: str = "", depth: int = 0) -> str | None:
    """Why ``value`` (a parsed line) is out of bounds, naming the field, or None: nesting, numbers, strings,
    sizes."""
    at = f" at {where}" if where else ""
    if depth > MAX_DEPTH:
        return f"nested deeper than {MAX_DEPTH} levels{at}"
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int | float):
        if not math.isfinite(value) or abs(value) > MAX_NUMBER:
            shown = "a number of thousands of digits" if value in (math.inf, -math.inf) else str(value)[:24]
            return f"a number out of range{at} ({shown})"
        return None
    if isinstance(value, str):
        return None if len(value) <= MAX_TEXT else f"a text of {len(value)} characters{at} (at most {MAX_TEXT})"
    if len(value) > MAX_ITEMS:
        return f"an object or list of {len(value)} entries{at} (at most {MAX_ITEMS})"
    pairs = value.items() if isinstance(value, dict) else enumerate(value)
    for key, item in pairs:
        if len(str(key)) > MAX_TEXT:
            return f"a key longer than {MAX_TEXT} characters{at}"
        name = f"{where}.{key}" if isinstance(key, str) else f"{where}[{key}]"
        problem = _bounded(item, name.lstrip("."), depth + 1)
        if problem is not None:
            return problem
    return None


def _setup_problem(record: dict[str, Any]) -> str | None:
    """Why a setup line cannot be a game the app made, or None: players (names as the app allows them,
    seats 1-5), the seed."""
    if not isinstance(record.get("game"), str) or not record["game"]:
        return "no game named"
    seed = record.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        return f"the seed must be a whole number from 0 to 2^64, not {str(seed)[:24]}"
    players = record.get("players")
    if not isinstance(players, list) or not players:
        return "no players"
    for index, player in enumerate(players, start=1):
        if not isinstance(player, dict):
            return f"player {index} is not an object"
        name = player.get("name")
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            return f"player {index}'s name must be 1 to {MAX_NAME} characters"
        seat = player.get("seat", 1)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= MAX_SEAT:
            return f"player {index}'s seat must be a whole number from 1 to {MAX_SEAT}, not {str(seat)[:24]}"
        colour = player.get("colour", "#ffffff")
        if not isinstance(colour, str) or len(colour) > 16:
            return f"player {index}'s colour must be like #e53935"
    if not isinstance(record.get("settings", {}), dict):
        return "settings must be an object"
    return None
