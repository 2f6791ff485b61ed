"""Overlay drawing, a separate stage: ``annotate(frame, detections)`` returns a new image with a box, the value
and the confidence on each die (unsure dice in amber), and the sum in the corner. Never changes the input frame."""

from __future__ import annotations

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.pipeline import FLAG_BELOW
from companion.vision.roll import PIPS

SURE = (80, 220, 80)  # BGR green
UNSURE = (0, 170, 255)  # BGR amber


def annotate(
    frame_bgr: np.ndarray, detections: Detections, flag_below: float = FLAG_BELOW, show_total: bool = True
) -> np.ndarray:
    """A copy of the frame with the dice drawn on it."""
    out = frame_bgr.copy()
    scale = max(out.shape[:2]) / 640
    thick = max(1, round(2 * scale))
    total = 0
    for i, (box, value, conf, kind) in enumerate(detections):
        x0, y0, x1, y1 = (int(v) for v in box)
        colour = SURE if conf >= flag_below and not detections.flagged[i] else UNSURE
        cv2.rectangle(out, (x0, y0), (x1, y1), colour, thick)
        label = f"{value if kind == PIPS else kind} {conf:.0%}"
        cv2.putText(out, label, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale, colour, thick)
        if kind == PIPS:
            total += value
    if show_total and len(detections):
        cv2.putText(
            out,
            f"sum {total}",
            (int(10 * scale), int(30 * scale)),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.9 * scale,
            (255, 255, 255),
            thick + 1,
        )
    return out
