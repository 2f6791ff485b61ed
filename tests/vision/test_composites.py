"""Composites for training (``tools/synth/composite.py``): real dice cut from photos and put on other tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tools.dicetrain.data import Sample
from tools.synth.composite import MARGIN, MIN_SIDE, compose, cut_dice, recolour


def photo_with_dice(boxes: list[list[float]], values: list[int], set_name: str = "angled-webcam") -> Sample:
    """A grey table with a white die (black pips drawn as a dark centre) in each box."""
    img = np.full((480, 640, 3), 90, np.uint8)
    for x0, y0, x1, y1 in boxes:
        img[int(y0) : int(y1), int(x0) : int(x1)] = 235
        cx, cy = int((x0 + x1) / 2), int((y0 + y1) / 2)
        img[cy - 3 : cy + 3, cx - 3 : cx + 3] = 20
    return Sample(img, np.array(boxes, np.float32), np.array(values, np.int64), set_name, Path("p.jpg"))


def test_dice_are_cut_whole_with_a_margin_and_never_with_a_neighbour_inside() -> None:
    s = photo_with_dice(
        [[100, 100, 140, 140], [300, 300, 340, 340], [342, 300, 382, 340], [0, 10, 40, 50], [500, 100, 508, 108]],
        [3, 5, 6, 2, 1],
    )
    cuts = cut_dice([s])
    # the lone die only: the touching pair would hold each other, one is cut by the frame, one is too small
    assert [c.value for c in cuts] == [3]
    assert cuts[0].image.shape[:2] == (round(40 * (1 + 2 * MARGIN)), round(40 * (1 + 2 * MARGIN)))
    assert MIN_SIDE > 8
    # renders and composites are not cut again
    assert cut_dice([photo_with_dice([[100, 100, 140, 140]], [4], "wide")]) == []


def test_a_composite_puts_the_cut_dice_on_another_table_with_their_values_and_is_seeded() -> None:
    s = photo_with_dice([[100, 100, 150, 150], [300, 200, 350, 250]], [2, 6])
    cuts = cut_dice([s])
    a, b = compose(7, cuts, size=(640, 480)), compose(7, cuts, size=(640, 480))
    assert np.array_equal(a.image, b.image) and np.array_equal(a.boxes, b.boxes)
    seen = 0
    for seed in range(12):
        c = compose(seed, cuts, size=(640, 480))
        assert c.image.shape == (480, 640, 3) and c.image.dtype == np.uint8
        assert len(c.boxes) == len(c.values) and set(c.values.tolist()) <= {2, 6}
        for box in c.boxes:
            x0, y0, x1, y1 = box
            assert 0 <= x0 < x1 <= 640 and 0 <= y0 < y1 <= 480
            assert 14 * 0.9 <= max(x1 - x0, y1 - y0) <= 110 * 1.1 * 1.45
            # the die's middle (its dark pip) is darker than the face around it: the cut die is drawn there
            cx, cy = int((x0 + x1) / 2), int((y0 + y1) / 2)
            r = max(2, int((x1 - x0) / 8))
            middle = float(c.image[cy - 1 : cy + 2, cx - 1 : cx + 2].mean())
            ring = c.image[max(0, cy - 3 * r) : cy + 3 * r, max(0, cx - 3 * r) : cx + 3 * r].astype(float)
            seen += 1
            assert ring.std() > 5  # not flat table: something is drawn
            assert middle < ring.max()
        # no two dice on top of one another
        centres = (c.boxes[:, :2] + c.boxes[:, 2:]) / 2
        for i in range(len(centres)):
            for j in range(i + 1, len(centres)):
                side = min(c.boxes[i, 2] - c.boxes[i, 0], c.boxes[j, 2] - c.boxes[j, 0])
                assert np.hypot(*(centres[i] - centres[j])) > 0.6 * side
    assert seen > 20


def test_recolouring_keeps_the_cut_and_changes_its_colours_sometimes() -> None:
    img = np.zeros((30, 30, 3), np.uint8)
    img[:, :, 2] = 200  # a red die
    outs = [recolour(img, np.random.default_rng(k)) for k in range(30)]
    assert all(o.shape == img.shape and o.dtype == np.uint8 for o in outs)
    assert sum(not np.array_equal(o, img) for o in outs) > 10
    assert sum(np.array_equal(o, img) for o in outs) > 2
