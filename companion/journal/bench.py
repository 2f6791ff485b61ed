"""Journal benchmark: how long one durable append takes (the delay before a tap's effect is shown)."""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.games.base import Player, Setup
from companion.journal.store import Journal


def bench_journal(count: int = 200) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "bench.sqlite3")
        game = journal.new_game(Setup("bench", (Player("A", seat=1), Player("B", seat=2))))
        times = []
        for i in range(count):
            start = time.perf_counter()
            journal.append(game, {"type": "press", "seat": 1 + i % 2, "tick": i * 0.1})
            times.append((time.perf_counter() - start) * 1000)
        journal.close()
    return {
        "append_ms_median": round(statistics.median(times), 3),
        "append_ms_p95": round(sorted(times)[int(0.95 * len(times))], 3),
        "appends": count,
    }
