"""Photos stretched to a new aspect ratio, made upright again for the detector (issue #20).

Photos are often resized to a square frame without keeping their aspect ratio (a 4:3 phone photo or a 16:9
frame stretched to 640x640: the development sets' felt-tray photos all are), and a camera looking at the table
at a slant squashes the dice's top faces the same way. The detector learnt square dice: on such a frame it finds
fewer of them, and its boxes come out square, so the face classifiers' crops (``crops.crop_matrix`` makes each
box square) stay stretched too.

Every die's pips are round, so the frame's stretch shows in them: ``frame_stretch`` measures the pips inside the
first look's finds (each die's box scaled with its aspect kept, its pips found by a morphological hat and Otsu's
threshold, their second moments) and takes log(width / height) of the typical pip. Where that is at least
``settings.upright_min`` either way, ``upright_for`` says how much to grow the frame's short side to undo it
(``upright_gain`` times the measure); the whole reading is done on the frame so grown (``learned.upright_frame``:
every step after the detector assumes square dice), with the first look's input grown as much
(``Upright.settings``), and the readings are mapped back to the frame's pixels (``Upright.back``). A frame whose
pips are round (the product's camera looks straight down) is read as before, and so is a frame in a camera's own
shape (``camera_shaped``: a resize to a new aspect ratio leaves another shape, so oval pips there mean a slanted
camera, whose side faces look like top faces when grown).
Measured on the leave-one-set-out folds: docs/dice-reader.md, twenty-first and twenty-second sessions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.detector import BIG_FRAME
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings

SIDE = 40  # px: each die's box is scaled to this longer side (its aspect kept) before its pips are measured
BORDER = 4  # px of the crop's edge repeated around it, so a pip at the edge is a blob of its own
HAT = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (11, 11))  # blobs up to about this size (a pip at SIDE)
MIN_HAT = 20  # grey levels: a crop whose strongest blob stands out less than this has no pips to measure
PIP_AREA = (5, 150)  # px at SIDE: what a pip's blob covers
PIP_FILL = 0.5  # a pip's blob fills at least this share of its bounding box
PIP_ELONGATION = 2.6  # and its bounding box is at most this much longer than wide (stretch is less than this)
INNER = 0.76  # and its centre lies in the middle this share of the box either way (a 6's pips at about 0.5)
CAMERA_SHAPES = (4 / 3, 3 / 2, 16 / 9)  # width / height of cameras' own frames (either way up): not resized
SHAPE_TOLERANCE = 0.01  # a frame within this much (log) of one of them is in a camera's own shape


def camera_shaped(frame_hw: tuple[int, int]) -> bool:
    """Whether a frame of this height and width is in a camera's own shape (``CAMERA_SHAPES``): a photo stretched
    to a new aspect ratio comes out in another (most often square), so a camera-shaped frame whose pips are not
    round was taken at a slant, and reading it grown makes the side faces look like top faces (the angled-webcam
    set, 640x480: a fifth of its frames measure 0.15 or more, and read upright it gave 18 more false dice)."""
    h, w = frame_hw
    ratio = max(h, w) / max(1, min(h, w))
    return any(abs(np.log(ratio / shape)) <= SHAPE_TOLERANCE for shape in CAMERA_SHAPES)


@dataclass(frozen=True)
class Upright:
    """How much a frame is grown along x and along y (one of them 1) to make its dice square again."""

    fx: float = 1.0
    fy: float = 1.0

    def frame(self, frame_bgr: np.ndarray) -> np.ndarray:
        """The frame grown (``cv2.INTER_LINEAR``)."""
        h, w = frame_bgr.shape[:2]
        size = (max(1, round(w * self.fx)), max(1, round(h * self.fy)))
        return np.asarray(cv2.resize(frame_bgr, size, interpolation=cv2.INTER_LINEAR))

    def settings(self, settings: ReaderSettings) -> ReaderSettings:
        """The reader's settings for the grown frame: the first look's input grown as much (``long_side`` x the
        growth), so the dice come out there at the size they had in the frame's first look along the side not
        grown. At the frame's own ``long_side`` they come out smaller and the closer looks find more that is no
        die (the felt-trays fold at gain 1: 46.2 % right, 69 false dice, against 47.5 %, 51); with as many input
        pixels as the frame's first look (``long_side`` x the root of the growth) it is 20 % faster on such frames
        and reads 78 fewer dice right for 37 fewer false over the eleven measures of docs/dice-reader.md,
        twenty-first session."""
        return replace(settings, long_side=round(settings.long_side * max(self.fx, self.fy)))

    def back(self, det: Detections, frame_hw: tuple[int, int]) -> Detections:
        """Dice found in the grown frame, their boxes in the pixels of the frame (``frame_hw``: its height, width)."""
        if not len(det):
            return det
        h, w = frame_hw
        boxes = det.boxes.astype(np.float64) / np.array([self.fx, self.fy, self.fx, self.fy])
        boxes = np.clip(np.round(boxes), 0, [w - 1, h - 1, w - 1, h - 1])
        return det.replace(boxes=boxes.astype(det.boxes.dtype))


def _pip_shapes(crop: np.ndarray) -> np.ndarray:
    """(N, 2): the share of each pip blob's second moment along x and along y (they add up to 1), for the pips
    found in one die's grey crop."""
    f = SIDE / max(crop.shape)
    size = (max(1, round(crop.shape[1] * f)), max(1, round(crop.shape[0] * f)))
    c = cv2.resize(crop, size, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    c = cv2.copyMakeBorder(c, BORDER, BORDER, BORDER, BORDER, cv2.BORDER_REPLICATE)
    dark = cv2.morphologyEx(c, cv2.MORPH_BLACKHAT, HAT)
    light = cv2.morphologyEx(c, cv2.MORPH_TOPHAT, HAT)
    hat = dark if int(dark.max()) >= int(light.max()) else light  # dark pips on a light face, or the other way
    if int(hat.max()) < MIN_HAT:
        return np.zeros((0, 2))
    _, blobs = cv2.threshold(hat, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    n, lab, stats, _ = cv2.connectedComponentsWithStats(blobs, connectivity=8)
    ys, xs = np.nonzero(lab)
    k = lab[ys, xs]
    count = np.maximum(np.bincount(k, minlength=n), 1).astype(np.float64)
    mx, my = np.bincount(k, xs, n) / count, np.bincount(k, ys, n) / count
    vx = np.bincount(k, xs.astype(np.float64) ** 2, n) / count - mx**2 + 1 / 12  # a pixel's own spread
    vy = np.bincount(k, ys.astype(np.float64) ** 2, n) / count - my**2 + 1 / 12
    area, bw, bh = stats[:, cv2.CC_STAT_AREA], stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    pip = (area >= PIP_AREA[0]) & (area <= PIP_AREA[1]) & (area >= PIP_FILL * bw * bh)
    pip &= np.maximum(bw, bh) <= PIP_ELONGATION * np.minimum(bw, bh)
    h, w = c.shape[:2]
    inside = (np.abs(mx - w / 2) <= INNER * (w / 2 - BORDER)) & (np.abs(my - h / 2) <= INNER * (h / 2 - BORDER))
    pip &= inside  # the table in a box's corners is no pip
    pip[0] = False  # the background
    total = vx[pip] + vy[pip]
    return np.stack([vx[pip] / total, vy[pip] / total], axis=1)


def frame_stretch(
    frame_bgr: np.ndarray, boxes: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS
) -> tuple[float, int]:
    """log(width / height) of the typical pip inside the frame's ``upright_dice`` biggest ``boxes`` (> 0: the
    frame is stretched along x), and how many pips that is measured on (0.0 with fewer than ``upright_pips``)."""
    b = np.asarray(boxes, np.float64).reshape(-1, 4)
    if not len(b):
        return 0.0, 0
    gray = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    h, w = gray.shape[:2]
    sides = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    shapes = []
    for x0, y0, x1, y1 in b[np.argsort(-sides, kind="stable")[: settings.upright_dice]]:
        crop = gray[max(0, int(y0)) : min(h, int(y1) + 1), max(0, int(x0)) : min(w, int(x1) + 1)]
        if min(crop.shape) >= 4:
            shapes.append(_pip_shapes(crop))
    s = np.concatenate(shapes) if shapes else np.zeros((0, 2))
    if len(s) < settings.upright_pips:
        return 0.0, len(s)
    mx, my = float(np.median(s[:, 0])), float(np.median(s[:, 1]))
    return 0.5 * float(np.log(max(mx, 1e-6) / max(my, 1e-6))), len(s)


def upright_for(
    frame_bgr: np.ndarray, boxes: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS
) -> Upright | None:
    """How to grow the frame so the dice in ``boxes`` come out square (``frame_stretch``, taken out up to
    ``upright_max``), or None where they are square enough (under ``upright_min`` either way), in a big frame
    (``detector.BIG_FRAME`` times ``long_side`` or more: the felt-tray samples tiled 3x3 read 88.7 % upright
    against 94.4 %, the webcam samples 12 false dice against 3), in a frame of a camera's own shape
    (``camera_shaped``: not resized, so a slanted camera; unless ``settings.upright_camera_shaped``) or with
    ``settings.upright`` off."""
    if not settings.upright or max(frame_bgr.shape[:2]) >= BIG_FRAME * settings.long_side:
        return None  # a big frame's small dice are found by looks tuned to it (the samples tiled 3x3 read worse)
    if not settings.upright_camera_shaped and camera_shaped(frame_bgr.shape[:2]):
        return None  # a frame as the camera took it: pips not round mean a slant, and the side faces show
    stretch, _ = frame_stretch(frame_bgr, boxes, settings)
    if abs(stretch) < settings.upright_min:
        return None
    grow = float(np.exp(min(abs(stretch) * settings.upright_gain, settings.upright_max)))
    return Upright(fy=grow) if stretch > 0 else Upright(fx=grow)  # wide pips: the frame was squashed in height


def mapped_back(up: Upright | None, det: Detections, frame_hw: tuple[int, int]) -> Detections:
    """``det`` read in a frame grown by ``up`` (``learned.upright_frame``) in the pixels of the frame; as it is
    where the frame was not grown (``up`` None)."""
    return det if up is None else up.back(det, frame_hw)
