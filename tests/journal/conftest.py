"""Journal test fixtures: the toy engine registered as game "toy" for the duration of a test."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import companion.games as games

TOY_MODULE = "companion_tests_toy_engine"


@pytest.fixture
def toy_game() -> Iterator[str]:
    """Registers ``tests/journal/toy_engine.py`` as game "toy" and removes it (and the module) afterwards."""
    spec = importlib.util.spec_from_file_location(TOY_MODULE, Path(__file__).with_name("toy_engine.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[TOY_MODULE] = module
    spec.loader.exec_module(module)
    saved = dict(games._REGISTRY)
    games.register("toy", f"{TOY_MODULE}:ENGINE")
    try:
        yield "toy"
    finally:
        games._REGISTRY.clear()
        games._REGISTRY.update(saved)
        sys.modules.pop(TOY_MODULE, None)
