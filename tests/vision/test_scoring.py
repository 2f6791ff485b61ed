"""The shared scoring rule (shared/dice/README.md) on hand-made cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.vision.scoring import ImageScore, Label, Prediction, match, read_yolo_labels, score_image, total


def lab(value: int, cx: float, cy: float, w: float = 20, h: float = 20) -> Label:
    return Label(value, (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))


def pred(value: int, cx: float, cy: float, size: float = 30) -> Prediction:
    return Prediction(value, (cx - size / 2, cy - size / 2, cx + size / 2, cy + size / 2))


def test_centre_inside_box_grown_by_15_percent_matches() -> None:
    # label box 20 wide: half-width 10, grown 11.5 around the centre
    assert score_image([lab(3, 100, 100)], [pred(3, 111.4, 100)]).right == 1
    assert score_image([lab(3, 100, 100)], [pred(3, 111.6, 100)]).missed == 1
    assert score_image([lab(3, 100, 100)], [pred(3, 100, 88.6)]).right == 1
    assert score_image([lab(3, 100, 100)], [pred(3, 100, 88.4)]).false == 1


def test_predicted_box_size_does_not_matter_only_its_centre() -> None:
    # a huge predicted box around a one-pip label still matches (angled-webcam boxes surround the pips only)
    s = score_image([lab(1, 50, 50, 6, 6)], [pred(1, 51, 50, size=80)])
    assert (s.right, s.false, s.missed) == (1, 0, 0)


def test_one_to_one_nearest_centres_first() -> None:
    labels = [lab(2, 100, 100, 40, 40), lab(5, 130, 100, 40, 40)]
    # both predictions lie inside both grown boxes; the nearest pairs are taken first
    preds = [pred(5, 127, 100), pred(2, 104, 100)]
    assert sorted(match(labels, preds)) == [(0, 1), (1, 0)]
    assert score_image(labels, preds).right == 2


def test_a_second_prediction_on_the_same_die_is_false() -> None:
    s = score_image([lab(4, 100, 100)], [pred(4, 101, 100), pred(4, 98, 100)])
    assert (s.right, s.false) == (1, 1)
    assert not s.perfect


def test_wrong_value_missed_and_false_counts() -> None:
    labels = [lab(6, 50, 50), lab(1, 150, 50), lab(3, 250, 50)]
    preds = [pred(5, 52, 50), pred(1, 150, 51), pred(2, 400, 400)]
    s = score_image(labels, preds)
    assert s == ImageScore(labelled=3, right=1, wrong=1, missed=1, false=1)


def test_totals_and_perfect_share() -> None:
    a = score_image([lab(1, 10, 10)], [pred(1, 10, 10)])
    b = score_image([lab(1, 10, 10), lab(2, 60, 60)], [pred(2, 60, 60)])
    c = score_image([], [pred(3, 5, 5)])
    t = total([a, b, c])
    assert (t.images, t.labelled, t.right, t.missed, t.false, t.perfect_images) == (3, 3, 2, 1, 1, 1)
    assert t.accuracy == pytest.approx(2 / 3)
    assert t.false_rate == pytest.approx(1 / 3)
    assert t.perfect_share == pytest.approx(1 / 3)
    assert total([score_image([], [])]).perfect_share == 1.0


def test_yolo_labels_to_pixels(tmp_path: Path) -> None:
    f = tmp_path / "x.txt"
    f.write_text("0 0.5 0.25 0.1 0.2\n5 0.1 0.1 0.05 0.05\n\n")
    a, b = read_yolo_labels(f, 640, 480)
    assert a.value == 1 and a.box == pytest.approx((288, 72, 352, 168))
    assert b.value == 6
    f.write_text("0 0.5 0.5\n")
    with pytest.raises(ValueError, match=r"x\.txt:1"):
        read_yolo_labels(f, 640, 480)
    for bad in ("0 0.5 0.5 0.1 0.2 0.9 0.3 0.4\n", "two 0.5 0.5 0.1 0.1\n", "0 0.5 x 0.1 0.1\n"):
        f.write_text(bad)
        with pytest.raises(ValueError, match=r"x\.txt:1"):
            read_yolo_labels(f, 640, 480)


def test_yolo_outlines_and_confidences_count_as_boxes(tmp_path: Path) -> None:
    f = tmp_path / "seg.txt"
    # a die outlined as a turned square (segmentation export), and a box with a trailing confidence
    f.write_text("2 0.5 0.2 0.6 0.3 0.5 0.4 0.4 0.3\n4 0.25 0.75 0.1 0.1 0.87\n")
    a, b = read_yolo_labels(f, 640, 480)
    assert a.value == 3 and a.box == pytest.approx((256, 96, 384, 192))
    assert b.value == 5 and b.box == pytest.approx((128, 336, 192, 384))
