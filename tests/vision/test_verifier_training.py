"""The verifier's training data (``tools/dicetrain/train_verifier.py``, offline: needs PyTorch, skipped without)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from tools.dicetrain.data import Sample
from tools.dicetrain.train_verifier import side_faces


def sample(boxes: list[list[float]], set_name: str = "angled-webcam") -> Sample:
    arr = np.array(boxes, np.float32).reshape(-1, 4)
    return Sample(np.zeros((480, 640, 3), np.uint8), arr, np.ones(len(arr), np.int64), set_name, Path("x.jpg"))


def test_side_faces_lie_below_and_beside_a_labelled_top_face() -> None:
    """A die seen at an angle shows a side face below its top face (and one to a side): negatives there, never on
    another labelled die or off the photo, and none for sets that label the face towards the camera."""
    found = side_faces([sample([[300, 200, 340, 240]])])
    assert len(found) == 3
    below = found[0][1]
    assert below[1] > 240 and abs((below[0] + below[2]) / 2 - 320) < 1 and below[3] - below[1] < 40
    # a labelled die right below: that box is a die, not a side face
    assert len(side_faces([sample([[300, 200, 340, 240], [300, 246, 340, 286]])])) == 5
    assert side_faces([sample([[0, 450, 40, 478]])]) == []  # at the photo's bottom corner: all off it
    assert side_faces([sample([[300, 200, 340, 240]], "grey-mixed")]) == []
