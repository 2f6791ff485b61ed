"""Capturing the faces of one die kind: what a capture gives back, each kind's task (its faces and what was
captured so far), and the checks that refuse a capture (dice showing different colours, a face that looks like
another one captured before) or an empty-tray picture with dice in it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from companion.calibrate.steps import face_words
from companion.i18n import _
from companion.vision.tray import find_dice

Image = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class FaceCapture:
    """The outcome of one capture: the dice it used (boxes) and a line for the player."""

    ok: bool
    message: str
    boxes: tuple[Box, ...] = ()


@dataclass
class FaceTask:
    """Capturing one die kind: its face names, captures wanted per face, and what was captured so far."""

    kind: str
    faces: list[str]
    per_face: int
    done: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[list[float]]] = field(default_factory=dict)
    patches: dict[str, list[Image]] = field(default_factory=dict)
    texture: float = 0.0
    sides: list[float] = field(default_factory=list)
    bodies: list[list[float]] = field(default_factory=list)

    @property
    def current(self) -> str | None:
        """The face to show next, or None when every face has its captures."""
        for face in self.faces:
            if self.done.get(face, 0) < self.per_face:
                return face
        return None

    @property
    def progress(self) -> float:
        """Share of this kind's captures done (0-1)."""
        total = len(self.faces) * self.per_face
        return sum(min(self.per_face, n) for n in self.done.values()) / total if total else 1.0


def dice_in_tray(frame: Image, corners: Sequence[tuple[float, float]] | None, die_size_px: float | None) -> list[Box]:
    """Dice seen in the tray on a frame meant to be empty: pip dice the dice reader finds, and die-sized
    patches that stand out from the tray around them (plain colour faces, the picture die)."""
    from companion.vision.pipeline import VisionProfile, read_dice

    boxes: list[Box] = []
    try:
        found = read_dice(frame, VisionProfile(tray_quad=corners))
    except ValueError:
        found = None
    if found is not None:
        boxes += [(int(b[0]), int(b[1]), int(b[2]), int(b[3])) for b in found.boxes]
    if corners is not None:
        # the tray with anything smaller than a few dice smoothed away, as the reference; the rim and the
        # markers at the corners are left out
        small = cv2.resize(frame, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
        smooth: Image = np.asarray(cv2.resize(cv2.medianBlur(small, 31), (frame.shape[1], frame.shape[0])), np.uint8)
        centre = np.mean(np.array(corners, np.float64), axis=0)
        inner = [(float(x), float(y)) for x, y in centre + (np.array(corners, np.float64) - centre) * 0.9]
        blobs = find_dice(frame, smooth, inner, die_size_px)
        boxes += [b.box for b in blobs if not any(overlaps(b.box, other) for other in boxes)]
    return boxes


def overlaps(a: Box, b: Box) -> bool:
    """Whether two boxes share any pixels."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


SAME_COLOUR = 3.5
"""Captured colours closer than this (in units of the classifier's smallest spread) count as the same face."""
SAME_PICTURE = 0.9
"""Picture patches correlating at least this much (any rotation) count as the same face."""


def colour_problem(face: str, features: list[npt.NDArray[np.float64]], samples: dict[str, list[list[float]]]) -> str:
    """Why a colour capture should not be learned ("" if it is fine): dice showing different colours in one
    capture, or a colour already captured as another face (the wrong face on top)."""
    from companion.vision.colour import FEATURE_FLOOR

    stack = np.array(features)
    centre = np.median(stack, axis=0)
    spread = np.sqrt((((stack - centre) / FEATURE_FLOOR) ** 2).sum(axis=1))
    if len(features) > 1 and float(spread.max()) > SAME_COLOUR:
        return _("The dice do not all show the same colour: put every colour die with {face} on top").format(
            face=face_words(face).upper()
        )
    for other, known in samples.items():
        if other == face or not known:
            continue
        distance = float(np.sqrt((((centre - np.mean(known, axis=0)) / FEATURE_FLOOR) ** 2).sum()))
        if distance < SAME_COLOUR:
            return _("That looks like {other}, captured before: is {face} on top?").format(
                other=face_words(other).upper(), face=face_words(face).upper()
            )
    return ""


def picture_problem(face: str, patch: Image, patches: dict[str, list[Image]]) -> str:
    """Why a picture capture should not be learned ("" if fine): it matches another face better than its own."""
    from companion.vision.picture import polar_descriptor, rotation_correlation

    query = polar_descriptor(patch)
    best: dict[str, float] = {}
    for name, known in patches.items():
        for other in known:
            score = rotation_correlation(query, polar_descriptor(other))
            best[name] = max(best.get(name, -1.0), score)
    rivals = {name: score for name, score in best.items() if name != face}
    if not rivals:
        return ""
    rival, score = max(rivals.items(), key=lambda item: item[1])
    if score >= SAME_PICTURE and score > best.get(face, -1.0):
        return _("That looks like {other}, captured before: is {face} on top?").format(
            other=face_words(rival).upper(), face=face_words(face).upper()
        )
    return ""
