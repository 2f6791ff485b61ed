"""House style gates that are not a linter's: engines import only the standard library; ruff and mypy run as CI
steps of their own (README, Quick start), which the first test here makes sure of."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def ci_command() -> str:
    """The README's second Quick start line: what ``.ci/run`` runs."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"^#+\s*Quick start.*?```[a-z]*\n(.*?)```", text, re.S | re.I | re.M)
    assert found is not None, "README has no Quick start block"
    lines = [line for line in found.group(1).splitlines() if line.strip() and not line.strip().startswith("#")]
    return lines[1]


def test_ci_lints_and_type_checks_before_the_tests() -> None:
    """ruff and mypy are CI steps of their own (#23.9), each stopping the run, before the whole suite: mypy's files
    and its strict engines and calibration are set in pyproject.toml, so a plain ``mypy`` is the same check."""
    steps = [step.strip() for step in ci_command().rstrip("'").split("&&")]
    assert ".venv/bin/ruff check ." in steps and ".venv/bin/mypy" in steps, steps
    pytest_step = next(i for i, step in enumerate(steps) if "-m pytest" in step)
    assert steps.index(".venv/bin/ruff check .") < pytest_step and steps.index(".venv/bin/mypy") < pytest_step
    assert steps[pytest_step] == ".venv/bin/python -m pytest -q"  # the whole suite: no marker left out
    with (ROOT / "pyproject.toml").open("rb") as fh:
        mypy = tomllib.load(fh)["tool"]["mypy"]
    assert set(mypy["files"]) == {"companion", "hardware", "calibration"}
    strict = next(o for o in mypy["overrides"] if "companion.games.*" in o["module"])
    assert {"calibration", "calibration.*"} <= set(strict["module"]) and strict["disallow_untyped_defs"]


def test_engines_import_only_the_standard_library() -> None:
    """Engines never import ui, vision, hardware, journal or third-party packages."""
    import ast

    allowed_prefixes = ("companion.games", "companion.i18n")  # i18n is standard library only (tests/i18n)
    stdlib = set(sys.stdlib_module_names)
    for path in sorted((ROOT / "companion" / "games").glob("*.py")):
        if path.name.endswith("_bench.py"):
            continue  # benchmarks time the engine inside the app; they are not engines
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or name.startswith(allowed_prefixes) or top == "__future__", (
                    f"{path.name} imports {name}"
                )
