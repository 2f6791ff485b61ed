"""``companion bench``: speed and memory measurements gathered from each part of the app.

Each part exposes a function returning a dict of figures; a part that is not installed is skipped."""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import Any

BENCHMARKS: dict[str, str] = {
    "journal": "companion.journal.bench:bench_journal",
    "long": "companion.journal.bench:bench_long_games",
    "vision": "companion.vision.bench:bench_vision",
    "ratuki": "companion.games.ratuki_bench:bench_ratuki",
    "calibration": "companion.calibrate.bench:bench_calibration",
    "memory": "companion.ui.memory_bench:bench_memory",
    "memory_full_card": "companion.ui.memory_bench:bench_memory_full_card",
}


def run_benchmarks(only: Iterable[str] | None = None) -> dict[str, Any]:
    wanted = set(only or BENCHMARKS)
    results: dict[str, Any] = {}
    for name, target in BENCHMARKS.items():
        if name not in wanted:
            continue
        module, _, attr = target.partition(":")
        try:
            func = getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            results[name] = "not available"
            continue
        results[name] = func()
    return results
