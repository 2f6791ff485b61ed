"""The ``ui`` fixture: a fresh app in the shared offscreen window, closed after the test, with a home of its own
(``COMPANION_HOME``: its preferences, history and calibration), so a language chosen on screen in one test is not
the next test's language."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_support import UI


@pytest.fixture
def ui(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[UI]:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    harness = UI(tmp_path)
    try:
        yield harness
    finally:
        harness.close()
