"""Ratuki latency: edge tick → verdict object (pure, pytest-benchmark) and the ``companion bench`` figures."""

from __future__ import annotations

from typing import Any

import pytest

from companion.games.ratuki.referee import TIE, Referee
from companion.games.ratuki_bench import bench_frames, bench_ratuki


def contest_of_five() -> Any:
    ref = Referee(window_ms=50, lockout_ms=500)
    for seat, offset in ((1, 0.0), (2, 0.012), (3, 0.031), (4, 0.044), (5, 0.049)):
        ref.press(seat, 100.0 + offset)
    return ref.close_window()


def test_bench_five_presses_to_verdict(benchmark: Any) -> None:
    verdict = benchmark(contest_of_five)
    assert verdict.kind == TIE and verdict.seats == (1, 2, 3, 4, 5)


def test_bench_ratuki_reports_referee_figures() -> None:
    figures = bench_ratuki(frames=False)
    assert figures["tie_window_ms"] == 50 and figures["budget_ms"] == 50
    for n in ("1_press", "2_press", "5_press"):
        verdict = figures["referee"][n]["window_close_to_verdict"]
        assert 0 < verdict["median_us"] < 5_000  # microseconds: far inside the 50 ms budget
    assert "app_after_window_close" not in figures


@pytest.mark.slow
@pytest.mark.ui
def test_bench_frames_runs_the_app_offscreen() -> None:
    figures = bench_frames(samples=3, timeout_s=90)
    assert "error" not in figures, figures
    assert figures["to_frame_ms"]["min"] >= figures["to_object_ms"]["min"] >= 0
    assert figures["to_frame_ms"]["median"] < 100
