"""``companion bench`` figures for the Ratuki referee: press tick → verdict object, and → the frame showing it.

The verdict cannot exist before the tie window has closed, so every figure is the time *after* the window
closes (the issue's budget: 50 ms). The pure part (referee and engine) runs in this process; the frame part
runs the real app offscreen in a subprocess (so Kivy never loads into the bench process) and reports the
on_flip of the first frame drawn with the verdict.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from companion.games.base import Player, Setup
from companion.games.ratuki import ENGINE, claim_for
from companion.games.ratuki.referee import Press, Referee, judge

WINDOW_MS = 50


def _stats(samples_s: list[float]) -> dict[str, float]:
    ordered = sorted(samples_s)
    return {
        "median_us": round(statistics.median(ordered) * 1e6, 2),
        "p99_us": round(ordered[int(len(ordered) * 0.99) - 1] * 1e6, 2),
        "max_us": round(ordered[-1] * 1e6, 2),
    }


def bench_referee(rounds: int = 2000) -> dict[str, Any]:
    """CPU cost of judging contests of 1, 2 and 5 presses, and of the engine re-judging the journaled call."""
    players = tuple(Player(n, seat=i + 1) for i, n in enumerate(["Ana", "Bo", "Cy", "Di", "Ed"]))
    state = ENGINE.apply(ENGINE.setup(Setup("ratuki", players)), {"type": "start", "tick": 0.0})
    out: dict[str, Any] = {}
    for n in (1, 2, 5):
        press_t, close_t, apply_t = [], [], []
        for k in range(rounds):
            base = 10.0 + k
            ref = Referee(window_ms=WINDOW_MS, lockout_ms=500)
            start = time.perf_counter()
            for seat in range(1, n + 1):
                ref.press(seat, base + seat * 0.007)
            pressed = time.perf_counter()
            verdict = ref.close_window()
            closed = time.perf_counter()
            contest = ref.finish()
            assert verdict is not None and contest is not None
            action = {**contest.to_action(), "verdict": claim_for(state, verdict)}
            before = time.perf_counter()
            ENGINE.apply(state, action)
            apply_t.append(time.perf_counter() - before)
            press_t.append((pressed - start) / n)
            close_t.append(closed - pressed)
        out[f"{n}_press"] = {
            "press": _stats(press_t),
            "window_close_to_verdict": _stats(close_t),
            "engine_apply_call": _stats(apply_t),
        }
    judge_t = []
    presses = [Press(10.0 + seat * 0.011, seat) for seat in range(1, 6)]
    for _ in range(rounds):
        start = time.perf_counter()
        judge(presses, WINDOW_MS)
        judge_t.append(time.perf_counter() - start)
    out["judge"] = _stats(judge_t)
    return out


_FRAME_SCRIPT = r"""
import json, sys, time
from pathlib import Path
tmp = Path(sys.argv[1])
from companion.ui.launch import make_app, prepare_environment
prepare_environment(headless=True)
app = make_app(simulate=True, config_path=tmp / "config.toml", journal_path=tmp / "journal.sqlite3")
from kivy.base import EventLoop
from kivy.core.window import Window
Window.size = (800, 480)
app._run_prepare()
EventLoop.ensure_window()
from companion.games.base import Player, Setup
seats = [("Ana", "#e53935"), ("Bo", "#1e88e5"), ("Cy", "#fdd835")]
players = tuple(Player(n, c, i + 1) for i, (n, c) in enumerate(seats))
app.start_game(Setup("ratuki", players, {}))
screen = app.manager.current_screen
screen.start_round()
for _ in range(60):
    EventLoop.idle()
flips = []
Window.bind(on_flip=lambda *a: flips.append(time.monotonic()))
to_object, to_frame = [], []
for k in range(int(sys.argv[2])):
    seat = 1 + k % 3
    t = time.monotonic()
    app.sim_buttons.press(seat, at=t)
    app.sim_buttons.release(seat, at=t + 0.03)
    end = t + 3
    while screen.live is None and time.monotonic() < end:
        EventLoop.idle()
    shown = screen.shown_at_wall
    while not any(f >= shown for f in flips) and time.monotonic() < end:
        EventLoop.idle()
    drawn = min(f for f in flips if f >= shown)
    window = screen.referee.window_ms
    to_object.append((shown - t) * 1000 - window)
    to_frame.append((drawn - t) * 1000 - window)
    while screen.live is not None and time.monotonic() < end:
        EventLoop.idle()
print(json.dumps({"to_object_ms": to_object, "to_frame_ms": to_frame}))
"""


def bench_frames(samples: int = 15, timeout_s: float = 120.0) -> dict[str, Any]:
    """Real app, offscreen, simulated buttons: edge tick → verdict object and → first frame showing it."""
    with tempfile.TemporaryDirectory(prefix="ratuki-bench-") as tmp:
        env = dict(os.environ)
        env.update({"KIVY_HOME": str(Path(tmp) / "kivy"), "COMPANION_HOME": tmp, "KIVY_NO_CONSOLELOG": "1"})
        env.pop("NOTIFY_SOCKET", None)
        try:
            done = subprocess.run(
                [sys.executable, "-c", _FRAME_SCRIPT, tmp, str(samples)],
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout_s,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return {"error": f"no result within {timeout_s:.0f} s"}
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        return {"error": f"frame benchmark failed ({done.returncode}): {tail[0]}"}
    data = json.loads(lines[-1])
    out: dict[str, Any] = {"samples": samples, "renderer": "offscreen (SDL2 + Mesa)"}
    for key in ("to_object_ms", "to_frame_ms"):
        values = sorted(data[key])
        out[key] = {
            "median": round(statistics.median(values), 1),
            "max": round(values[-1], 1),
            "min": round(values[0], 1),
        }
    return out


def bench_ratuki(*, frames: bool = True) -> dict[str, Any]:
    """All Ratuki figures for ``companion bench`` (times after the tie window closes; budget 50 ms)."""
    result: dict[str, Any] = {"tie_window_ms": WINDOW_MS, "budget_ms": 50, "referee": bench_referee()}
    if frames:
        result["app_after_window_close"] = bench_frames()
    return result


if __name__ == "__main__":
    print(json.dumps(bench_ratuki(), indent=1))
