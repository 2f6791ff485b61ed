"""Test environment: Kivy renders offscreen with a private home, before anything imports Kivy."""

from __future__ import annotations

import atexit
import gc
import os
import shutil
import sys
import tempfile
from pathlib import Path

_KIVY_HOME = tempfile.mkdtemp(prefix="companion-kivy-")
_COMPANION_HOME = tempfile.mkdtemp(prefix="companion-home-")
for _scratch in (_KIVY_HOME, _COMPANION_HOME):
    # Each run used to leave both folders behind in /tmp (hundreds a day on a busy machine).
    atexit.register(shutil.rmtree, _scratch, ignore_errors=True)
os.environ.update(
    {
        "KIVY_NO_ARGS": "1",
        "KIVY_HOME": _KIVY_HOME,
        "KIVY_NO_FILELOG": "1",
        "KIVY_NO_CONSOLELOG": "0",
        "KIVY_LOG_MODE": "PYTHON",
        "KIVY_METRICS_DENSITY": "1",
        "COMPANION_HOME": _COMPANION_HOME,
        # English, and no first-start language picker (tests of the picker and of other languages say so)
        "COMPANION_LANGUAGE": "en",
    }
)
if not os.environ.get("DISPLAY"):
    os.environ["SDL_VIDEODRIVER"] = "offscreen"
os.environ.pop("NOTIFY_SOCKET", None)

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # the development tools (tools/: renderer, training) are imported from the checkout
    sys.path.insert(0, str(ROOT))
# Tests import with --import-mode=importlib (test files may share a basename across folders); helper modules
# beside the tests (ui_support, scenes, toy engines) are found through these paths.
for folder in [ROOT / "tests", *sorted(p for p in (ROOT / "tests").iterdir() if p.is_dir())]:
    if folder.name != "__pycache__" and str(folder) not in sys.path:
        sys.path.insert(0, str(folder))


from companion.ui.launch import KIVY_ENV  # noqa: E402  (imports no Kivy)

os.environ.update(KIVY_ENV)  # Kivy as the app starts it: no multisampling, SDL2's image reader

import importlib.util  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402

TOY_MODULE = "companion_tests_toy_engine"
UI_TESTS = ROOT / "tests" / "ui"


# The garbage collector, tuned for a process that builds and drops a whole Kivy app per UI test (each app is a
# web of cycles of ~100,000 objects only the collector frees): collect the young generation every 10,000
# allocations instead of 700, so a full collection comes every few tests rather than several times a test, and
# (below) keep the process's lasting objects out of every full collection. Together about a fifth of the UI
# tests' CPU time, at the same peak memory. Tests only: the app keeps Python's defaults.
gc.set_threshold(10_000, 10, 10)
_FROZEN: list[bool] = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """After the first UI test (Kivy, the window and the app's modules loaded; its app closed and its fixtures
    let go): a full collection, then what is left, the objects that last the whole run (~180,000), is frozen out
    of later collections."""
    yield
    if not _FROZEN and item.get_closest_marker("ui") is not None:
        gc.collect()
        gc.freeze()
        _FROZEN.append(True)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every test under tests/ui, and any test that takes the ``ui`` fixture, is a ``ui`` test (it draws the app
    offscreen), so ``-m "not ui"`` leaves out exactly those; tests elsewhere that start the app say so themselves."""
    for item in items:
        if UI_TESTS in item.path.parents or "ui" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.ui)


@pytest.fixture
def toy_game() -> Iterator[str]:
    """Registers ``tests/journal/toy_engine.py`` as game "toy" and removes it (and the module) afterwards."""
    import companion.games as games

    spec = importlib.util.spec_from_file_location(TOY_MODULE, ROOT / "tests" / "journal" / "toy_engine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[TOY_MODULE] = module
    spec.loader.exec_module(module)
    saved = dict(games.GAMES)
    games.register("toy", games.GameEntry(f"{TOY_MODULE}:ENGINE"))  # no screen: never offered on the home screen
    try:
        yield "toy"
    finally:
        games.GAMES.clear()
        games.GAMES.update(saved)
        sys.modules.pop(TOY_MODULE, None)
