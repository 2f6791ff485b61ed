"""The learned dice reader: a tiny CenterNet-style network (ONNX, run with OpenCV's ``dnn`` on the CPU).

The frame is shrunk so its longer side is ``LONG_SIDE`` px and padded to a multiple of 16; the network gives, on a
grid 4x coarser, one heat map per face value (1-6), the log box size and the sub-cell centre offset. Local maxima
of the strongest heat map are dice; the value is the map that peaks there, the confidence the peak height.
Trained by ``companion/vision/training/train.py`` (PyTorch, offline); no torch at run time. Deterministic.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from companion.vision.detections import Detections

MODEL_PATH = Path(__file__).parent / "models" / "dice_centernet.onnx"
LONG_SIDE = 512  # the frame's longer side is scaled to this before the network
STRIDE = 4  # output grid cell in network-input pixels
MULTIPLE = 16  # input sides are padded to a multiple of this
MIN_CONFIDENCE = 0.3  # weaker peaks are not reported
MEAN, SCALE = 128.0, 1.0 / 64.0  # input normalisation: (pixel - MEAN) * SCALE


@lru_cache(maxsize=2)
def load_net(path: str = str(MODEL_PATH)) -> cv2.dnn.Net:
    """The ONNX network, loaded once, on OpenCV's CPU backend."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"dice model {path} is missing (train it with companion/vision/training/train.py)")
    net = cv2.dnn.readNetFromONNX(path)
    net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
    net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
    return net


def prepare(frame_bgr: np.ndarray, long_side: int = LONG_SIDE) -> tuple[np.ndarray, float]:
    """The network input (1, 3, H, W) float32 and the scale from frame pixels to input pixels."""
    img = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    f = long_side / max(h, w)
    nw, nh = max(1, round(w * f)), max(1, round(h * f))
    small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_LINEAR)
    ph, pw = -nh % MULTIPLE, -nw % MULTIPLE
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    blob = (small.astype(np.float32).transpose(2, 0, 1)[None] - MEAN) * SCALE
    return np.ascontiguousarray(blob), f


def decode(out: np.ndarray, scale: float, min_confidence: float = MIN_CONFIDENCE, stride: int = STRIDE) -> Detections:
    """Network output (1, 10, h, w) -> dice in frame pixels: peaks of the strongest value map (3x3 local maxima,
    then a weaker peak inside a stronger die's box goes), value = the map that peaks, box from size and offset."""
    heat, wh, off = out[0, :6], out[0, 6:8], out[0, 8:10]
    top = heat.max(axis=0)
    peaks = (top == cv2.dilate(top, np.ones((3, 3), np.uint8))) & (top >= min_confidence)
    ys, xs = np.nonzero(peaks)
    if not len(ys):
        return Detections.empty()
    conf = top[ys, xs]
    order = np.argsort(-conf, kind="stable")
    ys, xs, conf = ys[order], xs[order], conf[order]
    values = heat[:, ys, xs].argmax(axis=0) + 1
    cx = (xs + off[0, ys, xs]) * stride / scale
    cy = (ys + off[1, ys, xs]) * stride / scale
    bw = np.exp(np.clip(wh[0, ys, xs], -2, 6)) * stride / scale
    bh = np.exp(np.clip(wh[1, ys, xs], -2, 6)) * stride / scale
    keep: list[int] = []
    for i in range(len(ys)):
        if any(
            abs(cx[i] - cx[k]) < 0.4 * max(bw[k], bw[i]) and abs(cy[i] - cy[k]) < 0.4 * max(bh[k], bh[i]) for k in keep
        ):
            continue
        keep.append(i)
    k = np.asarray(keep)
    boxes = np.stack([cx[k] - bw[k] / 2, cy[k] - bh[k] / 2, cx[k] + bw[k] / 2, cy[k] + bh[k] / 2], axis=1)
    return Detections.from_lists(np.round(boxes), values[k].tolist(), conf[k].tolist())


def read_dice_learned(frame_bgr: np.ndarray, min_confidence: float = MIN_CONFIDENCE) -> Detections:
    """Find every die in a BGR frame with the learned network; boxes in the frame's pixels, sorted left to right."""
    blob, f = prepare(frame_bgr)
    net = load_net()
    net.setInput(blob)
    out = np.asarray(net.forward(), dtype=np.float32)
    det = decode(out, f, min_confidence)
    if len(det):
        h, w = frame_bgr.shape[:2]
        det = det.replace(boxes=np.clip(det.boxes, 0, [w - 1, h - 1, w - 1, h - 1]).astype(np.int32))
    return det.sorted_left_to_right()
