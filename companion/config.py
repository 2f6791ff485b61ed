"""The one TOML config file, with built-in defaults.

A broken file never stops the app: every problem (bad TOML, unknown key, wrong type, out-of-range value) is
reported with the file, the key and the reason, and that key keeps its default.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# section -> key -> (default, check, explanation). The README's configuration reference is generated from this.
Check = tuple[Any, str, str]


MAX_FILE_BYTES = 64 * 1024  # a config is a few hundred bytes; a bigger file is refused before it is read
MAX_PROBLEMS = 20  # problems listed one by one; the rest are counted
MAX_VALUE = 200  # characters of any string value (a name, a camera source) or key
SHOWN = 40  # characters of a value or key quoted in a problem
MAX_NAME = 14  # characters of a player name that fit the player strips of every game screen
DEFAULTS: dict[str, dict[str, Check]] = {
    "display": {
        "fullscreen": (False, "bool", "fill the screen (on the Pi kiosk: true)"),
        "width": (800, "int:320..4096", "window width in pixels"),
        "height": (480, "int:240..4096", "window height in pixels"),
        "sounds": (True, "bool", "play verdict and alert sounds"),
    },
    "buttons": {
        "backend": ("auto", "choice:auto,gpio,mock,fake", "auto: GPIO when present, else keys and on-screen"),
        "pins": ([17, 27, 22, 23, 24], "pins", "BCM pin of seat 1..5's button (wired to ground)"),
        "bounce_ms": (15, "int:0..200", "edges closer than this to the last accepted edge are contact bounce"),
        "long_press_ms": (1000, "int:200..10000", "hold this long for a long press"),
    },
    "camera": {
        "source": ("auto", "str", "auto, pi, webcam:N, replay:PATH or sim (a simulated tray of sample dice)"),
        "width": (640, "int:160..4056", "capture width"),
        "height": (480, "int:120..3040", "capture height"),
    },
    "dice": {
        "settle_ms": (600, "int:100..5000", "dice must stay still this long before a reading"),
        "vote_frames": (3, "int:1..15", "settled frames voted over for one roll"),
        "min_confidence": (0.6, "float:0..1", "dice read below this are flagged for a tap to confirm"),
    },
    "players": {
        "names": (["Ana", "Bo", "Cai", "Dee", "Eli"], "names", "default names for seats 1..5"),
        "colours": (
            ["#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047"],
            "colours",
            "display colour (#rrggbb) of seats 1..5",
        ),
    },
}


@dataclass
class Config:
    """Loaded settings plus the problems found while loading (shown on the home screen)."""

    values: dict[str, dict[str, Any]]
    problems: list[str] = field(default_factory=list)
    path: Path | None = None

    def __getitem__(self, section: str) -> dict[str, Any]:
        return self.values[section]

    def get(self, section: str, key: str) -> Any:
        return self.values[section][key]


def defaults() -> dict[str, dict[str, Any]]:
    return {s: {k: copy.deepcopy(v[0]) for k, v in keys.items()} for s, keys in DEFAULTS.items()}


def load(path: Path | None, *, required: bool = False) -> Config:
    """Read ``path`` over the defaults; a missing file is fine (unless ``required``: a file named on the command
    line), a broken or unreadable one is reported, never fatal."""
    config = Config(defaults(), [], path)
    if path is None:
        return config
    try:
        exists = path.exists()
    except OSError as err:  # a folder the app may not look into
        config.problems.append(f"{path}: cannot read the file ({err}); using built-in defaults")
        return config
    if not exists:
        if required:
            config.problems.append(f"{path}: no such file; using built-in defaults")
        return config
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            config.problems.append(
                f"{path}: the file is {size / 1024 / 1024:.1f} MB, a config is at most {MAX_FILE_BYTES // 1024} KB; "
                "using built-in defaults"
            )
            return config
        with open(path, "rb") as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)  # a file that grew meanwhile (or a device) is cut off, never read whole
        if len(raw) > MAX_FILE_BYTES:
            config.problems.append(f"{path}: more than {MAX_FILE_BYTES // 1024} KB; using built-in defaults")
            return config
        data = tomllib.loads(raw.decode("utf-8-sig"))  # -sig: a byte-order mark (Notepad) is fine
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        config.problems.append(f"{path}: cannot read the file ({_short(str(err))}); using built-in defaults")
        return config
    except RecursionError:
        config.problems.append(f"{path}: cannot read the file (values nested too deep); using built-in defaults")
        return config
    found: list[str] = []
    for section, table in data.items():
        if section not in DEFAULTS:
            found.append(f"{path}: unknown section [{_short(section)}] (known: {', '.join(DEFAULTS)})")
            continue
        if not isinstance(table, dict):
            found.append(f"{path}: {section} must be a [section], not a value")
            continue
        for key, value in table.items():
            if key not in DEFAULTS[section]:
                known = ", ".join(DEFAULTS[section])
                found.append(f"{path}: unknown key {section}.{_short(key)} (known: {known})")
                continue
            reason = _too_long(value) or _check(value, DEFAULTS[section][key][1])
            if reason:
                found.append(f"{path}: {section}.{key} = {_short(repr(value))}: {reason}; using the default")
            else:
                config.values[section][key] = value
    config.problems += found[:MAX_PROBLEMS]
    if len(found) > MAX_PROBLEMS:
        config.problems.append(f"{path}: and {len(found) - MAX_PROBLEMS} more problems in the same file")
    return config


def _short(text: str) -> str:
    """``text`` as quoted in a problem: at most :data:`SHOWN` characters."""
    return text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"


def _too_long(value: Any, depth: int = 0) -> str | None:
    """A string value (or one in a list) longer than :data:`MAX_VALUE` characters, or lists in lists."""
    if isinstance(value, str) and len(value) > MAX_VALUE:
        return f"a value of {len(value)} characters (at most {MAX_VALUE})"
    if isinstance(value, list | dict):
        if depth > 2 or len(value) > 50:
            return "a value too big or nested too deep"
        items = value.values() if isinstance(value, dict) else value
        return next((r for r in (_too_long(v, depth + 1) for v in items) if r), None)
    return None


def _check(value: Any, rule: str) -> str | None:
    kind, _, arg = rule.partition(":")
    if kind == "bool":
        return None if isinstance(value, bool) else "must be true or false"
    if kind == "str":
        return None if isinstance(value, str) else "must be a string"
    if kind == "choice":
        return None if value in arg.split(",") else f"must be one of {arg.replace(',', ', ')}"
    if kind in ("int", "float"):
        numeric = isinstance(value, int | float) if kind == "float" else isinstance(value, int)
        if isinstance(value, bool) or not numeric:
            return f"must be a{'n integer' if kind == 'int' else ' number'}"
        lo, hi = (float(x) for x in arg.split(".."))
        return None if lo <= value <= hi else f"must be between {arg.replace('..', ' and ')}"
    if kind == "pins":
        ok = isinstance(value, list) and len(value) == 5 and all(isinstance(p, int) and 2 <= p <= 27 for p in value)
        if not ok:
            return "must be a list of 5 BCM pin numbers (2-27)"
        return None if len(set(value)) == 5 else "two seats cannot share a pin"
    if kind == "names":
        ok = isinstance(value, list) and len(value) == 5 and all(isinstance(n, str) and n.strip() for n in value)
        if not ok:
            return "must be a list of 5 non-empty names"
        long = [_short(n) for n in value if len(n.strip()) > MAX_NAME]
        return f"names of at most {MAX_NAME} characters fit every screen: {', '.join(long)}" if long else None
    if kind == "colours":
        ok = isinstance(value, list) and len(value) == 5 and all(_is_colour(c) for c in value)
        return None if ok else 'must be a list of 5 colours like "#e53935"'
    raise AssertionError(f"unknown rule {rule}")


def _is_colour(value: Any) -> bool:
    if not (isinstance(value, str) and len(value) == 7 and value.startswith("#")):
        return False
    try:
        int(value[1:], 16)
    except ValueError:
        return False
    return True


def reference_markdown() -> str:
    """The configuration reference table for the README."""
    lines = ["| key | default | meaning |", "|---|---|---|"]
    for section, keys in DEFAULTS.items():
        for key, (default, _rule, text) in keys.items():
            shown = str(default).lower() if isinstance(default, bool) else repr(default).replace("'", '"')
            lines.append(f"| `{section}.{key}` | `{shown}` | {text} |")
    return "\n".join(lines)
