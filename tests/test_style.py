"""House style gates: ruff on the whole tree, mypy --strict on the engines and calibration, mypy on the rest."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.skipif(
    shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff").exists(), reason="ruff not installed"
)
def test_ruff_check() -> None:
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or "ruff"
    proc = subprocess.run([ruff, "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-4000:]


def mypy(*args: str) -> None:
    """Run mypy on ``args`` from the repository root; fail with its report."""
    pytest.importorskip("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, proc.stdout[-4000:]


def test_mypy_strict_engines_and_calibration() -> None:
    mypy("--strict", "companion/games", "calibration")


def test_mypy_everything_else() -> None:
    """The app, vision, hardware and training code type-check too (not strict: Kivy and OpenCV are untyped)."""
    mypy("companion", "hardware", "calibration")


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
