"""The calibration benchmark runs end to end (a small version of what ``companion bench`` measures)."""

from __future__ import annotations

import pytest

from companion.calibrate.bench import bench_calibration


@pytest.mark.slow
def test_bench_calibration_small() -> None:
    result = bench_calibration(tables=1, rolls=4, seed=3)
    assert result["colour"]["dice"] == 8 and result["picture"]["dice"] == 4 and result["pips"]["dice"] == 4
    assert result["colour"]["wrong"] == 0 and result["picture"]["wrong"] == 0
    assert result["colour"]["accuracy"] >= 0.75 and result["picture"]["accuracy"] >= 0.75
    assert result["pips"]["read_as_colour_or_picture"] == 0
    assert result["read_ms_median"] > 0 and result["kind_stage_ms_median"] > 0
