"""The dependency picture of README's "What imports what", enforced: every import in the installed packages is
read with ``ast`` (lazy imports inside functions included) and checked against the rules below.

    ui -> games, journal, history, vision, calibrate, calibration, hardware      (the top: wiring and screens)
    calibrate -> vision, calibration, hardware       (the wizard, verify, ``companion calibrate``)
    history -> journal -> games                      vision -> calibration, hardware

Engines import the standard library only (and ``companion.i18n``); calibration the standard library only;
vision and hardware never import ui or games; nothing below the UI imports it, and nothing imports the command.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("companion", "hardware", "calibration")

# A part of the app: the longest of these prefixes a module name starts with.
PARTS = (
    "companion.games",
    "companion.journal",
    "companion.history",
    "companion.vision",
    "companion.calibrate",
    "companion.ui",
    "companion.cli",
    "companion.config",
    "companion.runtime",
    "calibration",
    "hardware",
    "tools",
    "tests",
)

# part -> parts it must never import (directly or lazily)
NEVER: dict[str, tuple[str, ...]] = {
    "companion.games": (
        "companion.ui",
        "companion.vision",
        "hardware",
        "companion.journal",
        "companion.history",
        "companion.calibrate",
        "calibration",
        "companion.config",
        "companion.runtime",
    ),
    "companion.journal": ("companion.ui", "companion.vision", "hardware", "companion.calibrate", "calibration"),
    "companion.history": ("companion.ui", "companion.vision", "hardware", "companion.calibrate", "calibration"),
    "companion.vision": (
        "companion.ui",
        "companion.games",
        "companion.journal",
        "companion.history",
        "companion.calibrate",
        "companion.config",
        "companion.runtime",
    ),
    "hardware": (
        "companion.ui",
        "companion.games",
        "companion.journal",
        "companion.history",
        "companion.vision",
        "companion.calibrate",
        "calibration",
        "companion.config",
        "companion.runtime",
    ),
    "calibration": ("companion", "hardware"),  # standard library only, see below
    "companion.calibrate": (
        "companion.ui",
        "companion.games",
        "companion.journal",
        "companion.history",
        "companion.config",
        "companion.runtime",
    ),
    "companion.config": ("companion.ui", "companion.runtime", "hardware", "companion.vision"),
    "companion.runtime": ("companion.ui", "companion.vision", "companion.games", "companion.journal"),
}
# Parts that may use the standard library only (and the listed modules of the app).
STDLIB_ONLY: dict[str, tuple[str, ...]] = {
    "companion.games": ("companion.games", "companion.i18n"),  # i18n is standard library only (tests/i18n)
    "calibration": ("calibration",),
}
# Third-party packages a part must not import (Kivy belongs to the UI; OpenCV never to the rules or the data).
NO_THIRD_PARTY: dict[str, tuple[str, ...]] = {
    "companion.vision": ("kivy",),
    "hardware": ("kivy",),
    "companion.calibrate": ("kivy",),
    "companion.journal": ("kivy", "cv2", "numpy"),
    "companion.history": ("kivy", "cv2"),
}
# The development tools are not installed: the package imports them only where a bench says it needs a checkout.
TOOLS_ALLOWED = {"companion/calibrate/bench.py"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, module: str | None = None) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in a file (the module ``module``, by default the one the
    path names); ``from companion import paths`` gives ``companion.paths`` (what is imported), relative imports
    are resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = (module or module_name(path)).split(".")
    package = here if path.name == "__init__.py" else here[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([base] if base else []))
            found += [(node.lineno, f"{base}.{alias.name}" if base else alias.name) for alias in node.names]
    return found


def part_of(name: str) -> str | None:
    best = None
    for part in PARTS:
        if (name == part or name.startswith(part + ".")) and (best is None or len(part) > len(best)):
            best = part
    return best


def within(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def sources() -> list[Path]:
    return sorted(p for package in PACKAGES for p in (ROOT / package).rglob("*.py"))


def test_every_import_follows_the_dependency_rules() -> None:
    stdlib = set(sys.stdlib_module_names) | {"__future__"}
    problems: list[str] = []
    for path in sources():
        rel = path.relative_to(ROOT).as_posix()
        mine = part_of(module_name(path))
        for line, name in imports(path):
            where = f"{rel}:{line} imports {name}"
            top = name.split(".")[0]
            target = part_of(name)
            if mine is not None and target != mine:
                problems += [
                    f"{where} ({mine} never imports {bad})" for bad in NEVER.get(mine, ()) if within(name, bad)
                ]
            if mine in STDLIB_ONLY and top not in stdlib and not any(within(name, ok) for ok in STDLIB_ONLY[mine]):
                problems.append(f"{where} ({mine} uses the standard library only)")
            if mine in NO_THIRD_PARTY and top in NO_THIRD_PARTY[mine]:
                problems.append(f"{where} ({mine} never imports {top})")
            if target == "companion.ui" and mine not in ("companion.ui", "companion.cli"):
                problems.append(f"{where} (only the command starts the UI)")
            if target == "companion.cli" and mine != "companion.cli" and rel != "companion/__main__.py":
                problems.append(f"{where} (nothing imports the command)")
            if target == "tests":
                problems.append(f"{where} (the package never imports the tests)")
            if target == "tools" and rel not in TOOLS_ALLOWED:
                problems.append(f"{where} (development tools are not installed)")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from companion.vision.tray import find_dice\n", "companion.vision.tray.find_dice"),
        ("from companion import paths\n", "companion.paths"),
        ("import kivy.app\n", "kivy.app"),
        ("def f():\n    from companion.ui.app import CompanionApp\n", "companion.ui.app.CompanionApp"),
        ("from ..games import engine\n", "companion.games.engine"),
    ],
)
def test_the_rules_see_every_kind_of_import(tmp_path: Path, source: str, expected: str) -> None:
    """The checker itself: absolute, from-package, relative and lazy imports are all found (a checker that saw
    none would pass everything)."""
    probe = tmp_path / "probe.py"
    probe.write_text(source, encoding="utf-8")
    assert [name for _, name in imports(probe, "companion.vision.probe")] == [expected]


def test_a_broken_rule_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    """Vision reaching up into the UI (a lazy import in a function) fails the rule test, naming file and line."""
    real = imports

    def with_violation(path: Path) -> list[tuple[int, str]]:
        found = real(path)
        if path.name == "dice_kinds.py":
            found.append((7, "companion.ui.app"))
        return found

    monkeypatch.setitem(globals(), "imports", with_violation)
    with pytest.raises(AssertionError, match=r"companion/vision/dice_kinds.py:7 imports companion.ui.app"):
        test_every_import_follows_the_dependency_rules()
