"""The ``ui`` fixture: a fresh app in the shared offscreen window, closed after the test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from ui_support import UI


@pytest.fixture
def ui(tmp_path: Path) -> Iterator[UI]:
    harness = UI(tmp_path)
    try:
        yield harness
    finally:
        harness.close()
