"""Checks a JSON value against the ``TypedDict``\\ s that describe an engine's state (``RatatatState``,
``LowdownState``, ...), at every depth: a ``TypedDict`` must hold its required keys and no undescribed one, and
each value must be of its annotated type (``list[X]``, ``dict[str, X]``, unions, ``Literal``, a ``StrEnum`` of
plain strings, ``int``/``float``/``str``/``bool``, ``Any``). Used by the per-game shape tests, which replay every
example game and scenario and check each state reached."""

from __future__ import annotations

import copy
import enum
import json
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict

from companion.games import engine as find_engine
from companion.games.base import BadSetup, IllegalAction, Player, Setup
from companion.journal.replay import is_note, load_lines

HERE = Path(__file__).parent


def problem(value: Any, hint: Any, where: str, seen: set[str] | None = None) -> str | None:
    """Why ``value`` does not have the type ``hint`` (the first thing wrong, with where it is), or None.
    ``seen`` collects the names of the ``TypedDict``\\ s met on the way."""
    if hint is Any:
        return None
    if hint is None or hint is type(None):
        return None if value is None else f"{where}: {value!r} is not None"
    origin = get_origin(hint)
    if origin is Union or origin is types.UnionType:
        arms = get_args(hint)
        found = [problem(value, arm, where, seen) for arm in arms]
        if any(p is None for p in found):
            return None
        return f"{where}: {value!r} fits none of {hint} ({'; '.join(p for p in found if p)})"
    if origin is Literal:
        ok = any(type(value) is type(arg) and value == arg for arg in get_args(hint))
        return None if ok else f"{where}: {value!r} is not one of {get_args(hint)}"
    if is_typeddict(hint):
        return typeddict_problem(value, hint, where, seen)
    if origin is list:
        if not isinstance(value, list):
            return f"{where}: {type(value).__name__} is not a list"
        (item,) = get_args(hint)
        return next((p for i, x in enumerate(value) if (p := problem(x, item, f"{where}[{i}]", seen))), None)
    if origin is dict:
        if not isinstance(value, dict):
            return f"{where}: {type(value).__name__} is not a dict"
        key_type, item = get_args(hint)
        for key, x in value.items():
            found_key = problem(key, key_type, f"{where} key {key!r}", seen)
            found_item = found_key or problem(x, item, f"{where}[{key!r}]", seen)
            if found_item:
                return found_item
        return None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        ok = isinstance(value, str) and value in {member.value for member in hint}
        return None if ok else f"{where}: {value!r} is not a {hint.__name__}"
    if hint is float:
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif hint is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(hint, type):
        ok = isinstance(value, hint)
    else:
        raise TypeError(f"{where}: the checker does not know the type {hint!r}")
    return None if ok else f"{where}: {value!r} is not {getattr(hint, '__name__', hint)}"


def typeddict_problem(value: Any, shape: Any, where: str, seen: set[str] | None) -> str | None:
    if not isinstance(value, dict):
        return f"{where}: {type(value).__name__} is not a {shape.__name__}"
    required, optional = set(shape.__required_keys__), set(shape.__optional_keys__)
    if not required <= set(value) <= required | optional:
        missing, extra = sorted(required - set(value)), sorted(set(value) - required - optional)
        return f"{where}: not a {shape.__name__}: missing {missing}, undescribed {extra}"
    hints = get_type_hints(shape)
    for key, x in value.items():
        found = problem(x, hints[key], f"{where}[{key!r}]", seen)
        if found:
            return found
    if seen is not None:
        seen.add(shape.__name__)
    return None


def states(game: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every state the example games (``logs/<game>-*.jsonl``) and the scenarios (``scenarios/<game>/*.json``) of
    ``game`` reach, with where it comes from: the first state, then the state after each accepted action (refused
    actions and notes are skipped, as the engine leaves the state unchanged)."""
    engine = find_engine(game)
    runs: list[tuple[str, Setup, list[dict[str, Any]]]] = []
    for path in sorted((HERE / "logs").glob(f"{game}-*.jsonl")):
        setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines(), source=str(path))
        runs.append((f"logs/{path.name}", setup, actions))
    for path in sorted((HERE / "scenarios" / game).glob("*.json")):
        spec = json.loads(path.read_text(encoding="utf-8"))
        if "players" in spec:
            players = tuple(Player(name, seat=i + 1) for i, name in enumerate(spec["players"]))
            setup = Setup(game, players, spec.get("settings", {}), spec.get("seed", 0) if game == "lowdown" else 0)
            runs.append((f"scenarios/{game}/{path.name}", setup, spec.get("actions", [])))
    for name, setup, actions in runs:
        try:
            state = engine.setup(setup)
        except BadSetup:
            continue
        yield f"{name} setup", state
        for step, action in enumerate(actions, 1):
            if is_note(action):
                continue
            try:
                state = engine.apply(state, copy.deepcopy(action))
            except IllegalAction:
                continue
            yield f"{name} step {step}", state


def assert_all_described(found: list[tuple[str, dict[str, Any]]], whole: Any, module: Any, game: str) -> None:
    """Every state in ``found`` (where, state) has the shape ``whole`` describes, the example logs are among them,
    and every ``TypedDict`` of ``module`` is met somewhere (each kind of event too), so none of it is stale; a
    ``TypedDict`` another one is made from (its keys and types all in that one, e.g. ``TurnStart`` in
    ``LowdownState``) is met where that one is."""
    assert any(where.startswith("logs/") for where, _state in found), f"the {game} example logs are missing"
    seen: set[str] = set()
    for where, state in found:
        trouble = problem(state, whole, "state", seen)
        assert trouble is None, f"{where}: {trouble}"
    shapes = {name: value for name, value in vars(module).items() if is_typeddict(value)}
    for name, part in shapes.items():
        made_from = [
            w
            for w in seen & set(shapes)
            if w != name and get_type_hints(part).items() <= get_type_hints(shapes[w]).items()
        ]
        if made_from:
            seen.add(name)
    assert seen == set(shapes)


def assert_refuses_extra_and_missing(where: str, state: dict[str, Any], whole: Any, key: str) -> None:
    """The checker passes ``state`` and refuses it with a key too many, or without ``key``."""
    assert problem(state, whole, "state") is None, where
    assert problem({**state, "surprise": 1}, whole, "state") is not None
    assert problem({k: v for k, v in state.items() if k != key}, whole, "state") is not None
