"""Pip finder details: relative pip shapes and the ring check."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.pips import DARK, Pips, PipSettings, find_pips, relative_shapes


def ellipse_tensor(a: float, b: float, angle: float) -> list[float]:
    """Trace-1 second-moment tensor (xx, yy, xy) of an ellipse with semi-axes a, b rotated by angle (rad)."""
    c, s = np.cos(angle), np.sin(angle)
    r = np.array([[c, -s], [s, c]])
    m = r @ np.diag([a * a, b * b]) @ r.T
    m /= np.trace(m)
    return [m[0, 0], m[1, 1], m[0, 1]]


def test_relative_shapes_take_out_a_frame_wide_stretch() -> None:
    n = 12
    shapes = [ellipse_tensor(1.33, 1.0, 0.0) for _ in range(n - 1)] + [ellipse_tensor(1.0, 2.5, 0.0)]
    z = np.zeros(n, np.float32)
    pips = Pips(z, z, z + 3, z.astype(np.int32), z + 50, np.full(n, 1.33, np.float32), np.asarray(shapes))
    rel = relative_shapes(pips)
    assert np.allclose(rel.aspect[:-1], 1.0, atol=0.02)  # the stretched-but-round pips are round again
    assert rel.aspect[-1] > 2.5  # the one flattened the other way stands out even more


def test_relative_shapes_leave_an_unstretched_frame_alone() -> None:
    n = 12
    shapes = [ellipse_tensor(1.05, 1.0, k) for k in range(n)]
    z = np.zeros(n, np.float32)
    aspect = np.full(n, 1.05, np.float32)
    pips = Pips(z, z, z + 3, z.astype(np.int32), z + 50, aspect, np.asarray(shapes))
    assert relative_shapes(pips).aspect is aspect


def test_a_tight_six_keeps_all_its_pips() -> None:
    # big pips close together: the ring around each pip crosses its neighbours
    img = np.full((200, 200), 230, np.uint8)
    for x in (80, 120):
        for y in (60, 100, 140):
            cv2.circle(img, (x, y), 12, 20, -1, lineType=cv2.LINE_AA)
    pips = find_pips(cv2.GaussianBlur(img, (3, 3), 0), PipSettings())
    dark = pips.take(np.nonzero(pips.polarity == DARK)[0])
    assert len(dark) == 6


def test_a_square_corner_against_the_table_is_no_pip() -> None:
    img = np.full((200, 200), 60, np.uint8)
    cv2.rectangle(img, (100, 100), (199, 199), 220, -1)  # a big light die's corner on a dark table
    assert len(find_pips(img)) == 0
