"""The calibrate screen's picture: the live camera frame with what the wizard knows drawn on it (tray, taps,
captured or read dice), the textures it is shown in, and the :class:`Preview` that turns a touch into a tray
corner in frame pixels."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
from kivy.graphics.texture import Texture
from kivy.uix.image import Image

from companion.ui.screens.calibrate.verify import Box, Read

GREEN = (80, 200, 80)
YELLOW = (40, 220, 240)
CYAN = (230, 200, 40)
RED = (60, 60, 230)


class Preview(Image):
    """The live camera picture; in tap mode a touch on it becomes a point in frame pixels."""

    def on_touch_down(self, touch: Any) -> bool:
        """In tap mode, a touch on the picture is a tray corner."""
        from companion.ui.screens.calibrate.screen import CalibrateScreen  # the screen holds this widget

        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)  # type: ignore[no-any-return]
        screen = self.parent
        while screen is not None and not isinstance(screen, CalibrateScreen):
            screen = screen.parent
        if screen is None or not screen.tapping or self.texture is None:
            return super().on_touch_down(touch)  # type: ignore[no-any-return]
        point = self.frame_point(touch.x, touch.y)
        if point is not None:
            screen.tap_corner(point)
        return True

    def frame_point(self, x: float, y: float) -> tuple[float, float] | None:
        """Touch position (parent coordinates) -> frame pixel (None outside the shown picture)."""
        shown_w, shown_h = self.norm_image_size
        left = self.center_x - shown_w / 2
        top = self.center_y + shown_h / 2
        tw, th = self.texture.size
        fx = (x - left) / shown_w * tw
        fy = (top - y) / shown_h * th
        if not (0 <= fx <= tw and 0 <= fy <= th):
            return None
        return (float(fx), float(fy))

    def local_point(self, fx: float, fy: float) -> tuple[float, float]:
        """Frame pixel -> position in this widget's parent coordinates (where its touches arrive)."""
        shown_w, shown_h = self.norm_image_size
        tw, th = self.texture.size
        left = self.center_x - shown_w / 2
        top = self.center_y + shown_h / 2
        return (left + fx / tw * shown_w, top - fy / th * shown_h)


def overlay(
    frame: np.ndarray,
    tray: Sequence[tuple[float, float]] | None,
    taps: Sequence[tuple[float, float]],
    live_boxes: Sequence[Box],
    last_boxes: Sequence[Box],
    reads: Sequence[Read],
    answers: Sequence[str | None],
) -> np.ndarray:
    """A copy of ``frame`` with the tray's corners (None: not drawn), the taps so far, the dice a capture would
    take (live) and took (last), and the read dice numbered, green where the player's answer is the reading."""
    view = frame.copy()
    if tray is not None:
        quad = np.round(np.array(tray)).astype(np.int32)
        cv2.polylines(view, [quad], True, GREEN, 2, cv2.LINE_AA)
    for x, y in taps:
        cv2.circle(view, (round(x), round(y)), 7, YELLOW, 2, cv2.LINE_AA)
    for x0, y0, x1, y1 in live_boxes:
        cv2.rectangle(view, (x0 - 3, y0 - 3), (x1 + 3, y1 + 3), CYAN, 1)
    for x0, y0, x1, y1 in last_boxes:
        cv2.rectangle(view, (x0, y0), (x1, y1), YELLOW, 2)
    for i, (box, _kind, face) in enumerate(reads):
        answer = answers[i] if i < len(answers) else None
        colour = GREEN if answer == face else RED
        cv2.rectangle(view, box[:2], box[2:], colour, 2)
        cv2.putText(view, str(i + 1), (box[0], box[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2)
    return view


def thumbnail(frame: np.ndarray, boxes: Sequence[Box]) -> np.ndarray:
    """The part of ``frame`` around ``boxes`` (not empty), with a small margin: the dice of the last capture."""
    x0 = max(0, min(b[0] for b in boxes) - 8)
    y0 = max(0, min(b[1] for b in boxes) - 8)
    x1 = min(frame.shape[1], max(b[2] for b in boxes) + 8)
    y1 = min(frame.shape[0], max(b[3] for b in boxes) + 8)
    return np.ascontiguousarray(frame[y0:y1, x0:x1])


def to_texture(frame: np.ndarray, texture: Texture | None) -> Texture:
    """``frame`` (BGR) blitted into ``texture``, or into a new one when there is none or its size differs."""
    height, width = frame.shape[:2]
    if texture is None or tuple(texture.size) != (width, height):
        texture = Texture.create(size=(width, height), colorfmt="bgr")
        texture.flip_vertical()
    texture.blit_buffer(np.ascontiguousarray(frame).tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture
