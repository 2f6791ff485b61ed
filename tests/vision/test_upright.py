"""A photo stretched to a new aspect ratio is made upright for the detector (companion/vision/upright.py): the
stretch measured from the dice's pips, the frame grown back and the finds mapped to the frame's pixels."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import learned
from companion.vision.dataset import SAMPLES
from companion.vision.detections import Detections
from companion.vision.reader_settings import DEFAULT_SETTINGS
from companion.vision.scoring import read_yolo_labels
from companion.vision.upright import Upright, camera_shaped, frame_stretch, upright_for
from tests.vision.scenes import scene

DICE = [(v, 90 + 95 * (v - 1), 150 + 160 * (v % 2)) for v in range(1, 7)]


def _boxes(dice: list[tuple[int, float, float]], size: float, fx: float = 1.0, fy: float = 1.0) -> np.ndarray:
    half = size / 2 * 1.1
    return np.array([[(x - half) * fx, (y - half) * fy, (x + half) * fx, (y + half) * fy] for _, x, y in dice])


def _stretched(img: np.ndarray, fx: float, fy: float) -> np.ndarray:
    h, w = img.shape[:2]
    return np.asarray(cv2.resize(img, (round(w * fx), round(h * fy)), interpolation=cv2.INTER_AREA))


def test_the_pips_of_square_dice_are_round_and_a_stretched_frame_shows_its_stretch() -> None:
    img = scene(DICE, size=48).image
    square, n = frame_stretch(img, _boxes(DICE, 48))
    assert n >= 15 and abs(square) < DEFAULT_SETTINGS.upright_min
    wide, _ = frame_stretch(_stretched(img, 1.0, 0.7), _boxes(DICE, 48, fy=0.7))  # squashed in height: wide pips
    tall, _ = frame_stretch(_stretched(img, 0.7, 1.0), _boxes(DICE, 48, fx=0.7))
    assert wide > DEFAULT_SETTINGS.upright_min and tall < -DEFAULT_SETTINGS.upright_min
    assert wide < -np.log(0.7) + 0.1 and tall > np.log(0.7) - 0.1  # never more than the stretch itself


def test_a_squashed_frame_is_grown_back_along_its_short_side_and_a_square_one_is_left() -> None:
    img = scene(DICE, size=48).image
    assert upright_for(img, _boxes(DICE, 48)) is None
    squashed, boxes = _stretched(img, 1.0, 0.7), _boxes(DICE, 48, fy=0.7)
    up = upright_for(squashed, boxes)
    assert up is not None and up.fx == 1.0 and 1.15 < up.fy <= np.exp(DEFAULT_SETTINGS.upright_max)
    assert up.settings(DEFAULT_SETTINGS).long_side == round(DEFAULT_SETTINGS.long_side * up.fy)
    assert upright_for(squashed, boxes, replace(DEFAULT_SETTINGS, upright=False)) is None
    gain = upright_for(squashed, boxes, replace(DEFAULT_SETTINGS, upright_gain=2.0))
    assert gain is not None and gain.fy > up.fy
    # a big frame (BIG_FRAME x long_side or more) is read as it is: its small dice have looks of their own
    big = np.zeros((squashed.shape[0] * 2, squashed.shape[1] * 2, 3), np.uint8)
    big[: squashed.shape[0], : squashed.shape[1]] = squashed
    assert upright_for(big, boxes) is None
    assert upright_for(big, boxes, replace(DEFAULT_SETTINGS, long_side=1024)) is not None


@pytest.mark.parametrize(("h", "w"), [(480, 640), (640, 480), (1080, 1920), (400, 600)])
def test_a_frame_in_a_camera_s_own_shape_is_a_slanted_camera_and_is_read_as_it_is(h: int, w: int) -> None:
    squashed, boxes = _stretched(scene(DICE, size=48).image, 1.0, 0.7), _boxes(DICE, 48, fy=0.7)
    assert camera_shaped((h, w)) and not camera_shaped((640, 640)) and not camera_shaped((h, round(w * 1.05)))
    frame = np.zeros((h, w, 3), np.uint8)
    part = squashed[:h, :w]
    frame[: part.shape[0], : part.shape[1]] = part
    settings = replace(DEFAULT_SETTINGS, long_side=max(h, w))  # not a big frame
    assert upright_for(frame, boxes, settings) is None
    up = upright_for(frame, boxes, replace(settings, upright_camera_shaped=True))
    assert up is not None and up.fy > 1.15


def test_too_few_pips_or_no_boxes_measure_no_stretch() -> None:
    img = scene([(1, 200, 200)], size=48).image
    assert frame_stretch(img, _boxes([(1, 200, 200)], 48)) == (0.0, 1)
    assert frame_stretch(img, np.zeros((0, 4))) == (0.0, 0)
    assert frame_stretch(np.full((480, 640, 3), 128, np.uint8), _boxes(DICE, 48)) == (0.0, 0)  # a blank table


def test_finds_in_the_grown_frame_come_back_in_the_frame_s_pixels() -> None:
    up = Upright(fy=1.5)
    grown = up.frame(np.zeros((100, 200, 3), np.uint8))
    assert grown.shape == (150, 200, 3)
    det = Detections.from_lists([[10, 30, 40, 75], [150, 120, 199, 149]], [2, 5], [0.9, 0.8])
    back = up.back(det, (100, 200))
    assert back.boxes.tolist() == [[10, 20, 40, 50], [150, 80, 199, 99]]
    assert back.values.tolist() == [2, 5] and back.boxes.dtype == det.boxes.dtype
    assert len(up.back(Detections.empty(), (100, 200))) == 0


@pytest.mark.parametrize("fx, fy", [(1.0, 0.7), (0.7, 1.0)])
def test_the_reader_finds_the_dice_of_a_stretched_frame_with_their_stretched_boxes(fx: float, fy: float) -> None:
    img = _stretched(scene(DICE, size=48).image, fx, fy)
    found = learned.find_with_memory(img)
    plain = learned.find_with_memory(img, replace(DEFAULT_SETTINGS, upright=False))
    assert len(found) >= len(plain) >= 5
    b = found.boxes.astype(float)
    aspect = np.median(np.log((b[:, 2] - b[:, 0]) / (b[:, 3] - b[:, 1])))
    assert aspect * np.log(fx / fy) > 0  # the boxes are stretched the way the frame is
    read = learned.read_dice_learned(img)
    assert sorted(read.values.tolist()) == [1, 2, 3, 4, 5, 6]


def _labelled_stretch(label_file: Path, w: int, h: int) -> float:
    boxes = [lab.box for lab in read_yolo_labels(label_file, w, h)]
    return float(np.median([np.log((b[2] - b[0]) / (b[3] - b[1])) for b in boxes]))


def test_the_felt_tray_photos_squeezed_to_640_square_measure_stretched_the_way_their_labels_are() -> None:
    """The shipped felt-tray samples are phone photos resized to 640x640 without keeping their aspect ratio."""
    agree = 0
    images = sorted((SAMPLES / "felt-trays" / "images").iterdir())
    for path in images:
        img = cv2.imread(str(path))
        h, w = img.shape[:2]
        labelled = _labelled_stretch(SAMPLES / "felt-trays" / "labels" / f"{path.stem}.txt", w, h)
        measured, _ = frame_stretch(img, learned.find_at_the_right_scale(img).boxes)
        agree += int(measured * labelled > 0 and abs(measured) >= DEFAULT_SETTINGS.upright_min)
    assert agree >= len(images) - 2
