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


def bench_long_games(lengths: tuple[int, ...] = (100, 1000, 5000)) -> dict[str, Any]:
    """Undo, redo and resume of long games, and the cost of one move late in a game (issue #22 item 6).

    The longest game there is: one Ratuki round of N stack calls (its state grows with every call). Each figure
    is a median in ms: ``apply`` of a call at the end, ``resume`` (open the game afresh), ``undo`` and ``redo``
    of the last move in the resumed session (each a journal commit), ``undo_20`` the slowest of 20 undos in a row.
    """
    return {f"{count}_actions": _long_game(count) for count in lengths}


def _long_game(count: int) -> dict[str, float]:
    from companion.games import engine
    from companion.journal.session import GameSession

    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(Path(tmp) / "long.sqlite3")
        journal._db.execute("PRAGMA synchronous=OFF")  # building the game only; measured with FULL below
        session = GameSession.start(journal, Setup("ratuki", (Player("Ana", seat=1), Player("Bo", seat=2)), seed=1))
        session.do({"type": "start", "tick": 0.0})
        for i in range(count):
            session.do(_call(i))
        journal._db.execute("PRAGMA synchronous=FULL")
        ratuki = engine("ratuki")
        apply_ms, apply_cpu = _median_ms(lambda: ratuki.apply(session.state, _call(count + 1)), 20)
        resume_ms, resume_cpu = _median_ms(lambda: GameSession(journal, session.game_id), 5)
        resumed = GameSession(journal, session.game_id)
        undo_first = _time(resumed.undo)  # crosses to before the latest snapshot: the older one is read
        resumed.redo()
        undo, redo = [], []
        for _ in range(5):
            undo.append(_time(resumed.undo))
            redo.append(_time(resumed.redo))
        prepared = GameSession(journal, session.game_id)
        prepared.prepare_undo()  # what the app does on the frame after a resume
        undo_20 = max(_time(prepared.undo)[0] for _ in range(20))
        moves = [_time(lambda i=i: resumed.do(_call(count + 10 + i))) for i in range(100)]  # two snapshots among them
        journal.close()
    return {
        "apply_ms": round(apply_ms, 3),
        "apply_cpu_ms": round(apply_cpu, 3),
        "resume_ms": round(resume_ms, 1),
        "resume_cpu_ms": round(resume_cpu, 1),
        "undo_ms": round(statistics.median(u for u, _ in undo), 2),
        "undo_cpu_ms": round(statistics.median(c for _, c in undo), 2),
        "redo_ms": round(statistics.median(r for r, _ in redo), 2),
        "redo_cpu_ms": round(statistics.median(c for _, c in redo), 2),
        "undo_first_after_resume_ms": round(undo_first[0], 1),
        "undo_20_in_a_row_max_ms": round(undo_20, 1),
        "move_median_ms": round(statistics.median(m for m, _ in moves), 2),
        "move_with_snapshot_max_ms": round(max(m for m, _ in moves), 1),
    }


def _call(i: int) -> dict[str, Any]:
    return {"type": "call", "presses": [{"seat": 1 + i % 2, "tick": 1.0 + i}]}


def _time(func: Any) -> tuple[float, float]:
    """Wall and CPU milliseconds of one call (CPU time: what a busy shared machine does not inflate)."""
    wall, cpu = time.perf_counter(), time.process_time()
    func()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def _median_ms(func: Any, repeat: int) -> tuple[float, float]:
    runs = [_time(func) for _ in range(repeat)]
    return statistics.median(w for w, _ in runs), statistics.median(c for _, c in runs)
