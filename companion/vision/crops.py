"""What the learned reader's face classifiers read: each die cut out again from the full-resolution frame (the
box grown by ``CROP_CONTEXT``, made square, ``CROP`` px, normalised for lighting), and three more views of it
(mirrored and turned) for an unsure spot. The verifier reads the same crops."""

from __future__ import annotations

import cv2
import numpy as np

CROP = 32  # side of the square crop the face classifier reads
CROP_CONTEXT = 1.5  # the crop covers the die box grown this much
SHRINK_FIRST = 4  # a die's crop area more than this many times the crop's side is shrunk by averaging first
VIEWS = 4  # an unsure spot is read in this many views by each classifier: its crop and ``other_views``' three


def crop_matrix(
    box: np.ndarray, angle: float = 0.0, flip: bool = False, size: int = CROP, context: float = CROP_CONTEXT
) -> np.ndarray:
    """The 2x3 affine map from frame pixels to a ``size`` x ``size`` crop of one die: the box grown by
    ``context`` fills the crop with the die made square (a stretched photo's dice come out square), then
    optionally mirrored and turned by ``angle`` degrees about the crop centre (training views)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
    g = float(np.sqrt(w * h))
    w, h = float(np.clip(w, 0.7 * g, 1.4 * g)), float(np.clip(h, 0.7 * g, 1.4 * g))
    cx, cy = (x0 + x1) / 2 - 0.5, (y0 + y1) / 2 - 0.5  # pixel-centre coordinates
    sx, sy = size / (context * w), size / (context * h)
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    lin = rot @ np.diag([-sx if flip else sx, sy])
    mid = (size - 1) / 2
    t = np.array([mid, mid]) - lin @ np.array([cx, cy])
    return np.hstack([lin, t[:, None]]).astype(np.float64)


def normalise_crops(crops_bgr: np.ndarray) -> np.ndarray:
    """Crops (N, size, size, 3) uint8 -> (N, 3, size, size) float32, each with zero mean and unit spread (any
    lighting)."""
    f = crops_bgr.astype(np.float32)
    f = (f - f.mean(axis=(1, 2, 3), keepdims=True)) / (f.std(axis=(1, 2, 3), keepdims=True) + 8.0)
    return np.ascontiguousarray(f.transpose(0, 3, 1, 2))


def normalise_crop(crop_bgr: np.ndarray) -> np.ndarray:
    """One crop (size, size, 3) uint8 -> (3, size, size) float32 (``normalise_crops``)."""
    one: np.ndarray = normalise_crops(crop_bgr[None])[0]
    return one


def die_crops(frame_bgr: np.ndarray, boxes: np.ndarray, size: int = CROP, context: float = CROP_CONTEXT) -> np.ndarray:
    """The face classifier's input for each box: (N, 3, size, size) float32."""
    if not len(boxes):
        return np.zeros((0, 3, size, size), np.float32)
    img = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    raw = np.empty((len(boxes), size, size, 3), np.uint8)
    for i, box in enumerate(boxes):
        side = max(box[2] - box[0], box[3] - box[1]) * context
        interp = cv2.INTER_AREA if side > 2 * size else cv2.INTER_LINEAR
        m = crop_matrix(box, size=size, context=context)
        src = img
        if side > SHRINK_FIRST * size:
            src, m = shrunk_first(img, m, size, 2 * size / side)
        raw[i] = cv2.warpAffine(src, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return normalise_crops(raw)


def shrunk_first(img: np.ndarray, m: np.ndarray, size: int, factor: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``img`` that crop map ``m`` reads, shrunk by ``factor`` averaging pixels (``cv2.INTER_AREA``),
    and the map from the shrunk part to the same crop. ``warpAffine`` samples a few pixels per crop pixel, so a
    die many times bigger than the crop would come out aliased (a photo's grain and fine texture as blotches);
    the classifiers were trained on crops at most a few times smaller than the die."""
    h, w = img.shape[:2]
    inv = cv2.invertAffineTransform(m)
    corners = inv @ np.array([[0.0, size, 0.0, size], [0.0, 0.0, size, size], [1.0, 1.0, 1.0, 1.0]])
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in corners.min(axis=1))
    x1, y1 = min(w, int(np.ceil(corners[0].max())) + 3), min(h, int(np.ceil(corners[1].max())) + 3)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return img, m
    nw, nh = max(1, round((x1 - x0) * factor)), max(1, round((y1 - y0) * factor))
    small = cv2.resize(img[y0:y1, x0:x1], (nw, nh), interpolation=cv2.INTER_AREA)
    rx, ry = nw / (x1 - x0), nh / (y1 - y0)
    # a shrunk pixel q stands for frame pixel p = (q + 0.5) / r - 0.5 + origin (pixel centres, as cv2.resize)
    d = np.diag([1 / rx, 1 / ry])
    c = np.array([0.5 / rx - 0.5 + x0, 0.5 / ry - 0.5 + y0])
    lin = m[:, :2]
    return small, np.hstack([lin @ d, (lin @ c + m[:, 2])[:, None]])


def other_views(crops: np.ndarray) -> np.ndarray:
    """Three more views of each crop (N, C, S, S), stacked (3N): mirrored, turned a quarter, turned a half. A
    die's face reads the same in all of them, and the classifiers were trained on any turn and mirror, so their
    mean is a steadier reading than one view's."""
    turns = (crops[:, :, :, ::-1], np.rot90(crops, 1, axes=(2, 3)), np.rot90(crops, 2, axes=(2, 3)))
    return np.ascontiguousarray(np.concatenate(turns))
