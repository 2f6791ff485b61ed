"""The Detections value object, to_roll and the overlay stage."""

from __future__ import annotations

import numpy as np
import pytest

from companion.vision.annotate import annotate
from companion.vision.detections import Detections
from companion.vision.pipeline import suppress_overlaps, to_roll


def sample() -> Detections:
    return Detections.from_lists(
        [[300, 10, 340, 50], [10, 10, 50, 50], [100, 200, 140, 240]],
        [6, 2, 0],
        [0.9, 0.4, 0.8],
        kinds=["pips", "pips", "colour"],
        faces=[6, 2, "red"],
        data={"pips": np.array([6, 2, 0])},
    )


def test_indexing_keeps_arrays_and_lists_together() -> None:
    d = sample()
    sub = d[d.confidences > 0.5]
    assert sub.values.tolist() == [6, 0]
    assert sub.kinds == ["pips", "colour"] and sub.faces == [6, "red"]
    assert sub.data["pips"].tolist() == [6, 0]
    assert len(d[np.array([], dtype=int)]) == 0


def test_reading_order_is_left_to_right() -> None:
    assert sample().sorted_left_to_right().values.tolist() == [2, 0, 6]


def test_inconsistent_arrays_are_rejected() -> None:
    with pytest.raises(ValueError, match="disagree"):
        Detections(np.zeros((2, 4), np.int32), np.zeros(1, np.int32), np.zeros(2, np.float32))


def test_merge_and_empty() -> None:
    m = Detections.merge([sample(), Detections.empty(), sample()[0]])
    assert len(m) == 4 and m.kinds[-1] == "pips"
    assert len(Detections.merge([])) == 0


def test_to_roll_flags_unsure_dice_and_keeps_kinds() -> None:
    roll = to_roll(sample().sorted_left_to_right())
    assert [(d.kind, d.face, d.flagged) for d in roll.dice] == [
        ("pips", 2, True),
        ("colour", "red", False),
        ("pips", 6, False),
    ]
    assert roll.total == 8
    assert roll.needs_check
    assert roll.dice[2].box == (300, 10, 340, 50)


def test_suppress_overlaps_keeps_the_surer_reading() -> None:
    d = Detections.from_lists([[0, 0, 40, 40], [5, 5, 45, 45], [100, 0, 140, 40]], [3, 2, 5], [0.6, 0.9, 0.7])
    assert sorted(suppress_overlaps(d).values.tolist()) == [2, 5]


def test_annotate_draws_on_a_copy() -> None:
    frame = np.zeros((240, 400, 3), np.uint8)
    out = annotate(frame, sample())
    assert frame.sum() == 0  # input untouched
    assert out.shape == frame.shape and out.sum() > 0
    assert (out[10, 300] > 0).any()  # the box outline of the 6


def test_a_reading_knows_its_pip_dice_and_each_boxs_longer_side() -> None:
    """The stages that judge dice by size against the frame's others (flag_small_dice, drop_doubtful, one_per_die)
    read these two from the reading, one rule for all."""
    from companion.vision.roll import COLOUR

    det = Detections.from_lists(
        [[0, 0, 40, 30], [50, 0, 60, 25], [70, 0, 90, 20]], [3, 0, 5], [0.9, 0.9, 0.9], kinds=["pips", "pips", COLOUR]
    )
    assert det.long_sides.tolist() == [40.0, 25.0, 20.0] and det.long_sides.dtype == np.float64
    assert det.pip_dice.tolist() == [True, False, False]  # an unread spot and a colour die are not pip dice
