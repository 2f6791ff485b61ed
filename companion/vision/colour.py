"""Colour dice: read a plain coloured top face as a colour name, under whatever light the table has tonight.

Why it holds up when the lamp or the camera's white balance drifts: a light (and a white-balance change) scales the
camera's R, G and B by different factors, the same for the die and the tray around it. So the feature is the die's
colour *relative to the tray next to it*, per channel in log space::

    l = log(die_bgr) - log(tray_bgr)          # gains cancel: same value under a warm or a cold lamp
    feature = (l_R - l_G, l_B - l_G, mean(l)) # two chromaticity axes + brightness relative to the tray

References are these features learned from the player's own dice under the table's light (a few captures per face).
A die is read as the nearest face by a normalised distance; when it is far from every face it is "unknown" (None),
never guessed. A patterned top face (pips on a die of the same colour) is rejected by its texture.
Without a tray to compare with, the frame's grey-world average stands in for it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[int, int, int, int]

# Smallest spread allowed per feature axis (log units): learned references from a few captures are too tight,
# and brightness relative to the tray varies more (shading across the tray, the die's tilt) than chromaticity.
FEATURE_FLOOR = np.array([0.06, 0.06, 0.22])
REJECT_DISTANCE = 6.0
"""A die farther than this (in floored standard deviations) from every learned face is unknown."""
AMBIGUOUS_SHARE = 0.9
"""Below this posterior share of the best face the reading is flagged for the player to check."""
CLIPPED = 250.0
"""A channel at or above this (0-255) is saturated: the die is at least that bright in it."""
CLIP_HEADROOM = 0.5
"""How far (log units) a saturated channel may lie above what was seen: an exposure overshoots, not by ten times."""
TEXTURE_MARGIN = 0.05
TEXTURE_FLOOR = 0.06


@dataclass(frozen=True)
class ColourMatch:
    """A colour reading: the face (None = unknown), its confidence 0-1, the distance to it, and the runner-up."""

    face: str | None
    confidence: float
    distance: float
    second: str | None = None
    flagged: bool = False


def central_pixels(frame: np.ndarray, box: Box, shrink: float = 0.5) -> np.ndarray:
    """The pixels (N×3, BGR float) of the central part of a box: the top face without edges, sides or shadow."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hw, hh = (x1 - x0) * shrink / 2, (y1 - y0) * shrink / 2
    h, w = frame.shape[:2]
    xa, xb = int(max(0, round(cx - hw))), int(min(w, round(cx + hw)))
    ya, yb = int(max(0, round(cy - hh))), int(min(h, round(cy + hh)))
    if xb <= xa or yb <= ya:
        return np.zeros((0, 3), np.float32)
    return frame[ya:yb, xa:xb].reshape(-1, 3).astype(np.float32)


def face_colour(frame: np.ndarray, box: Box) -> tuple[np.ndarray, float]:
    """The top face's colour (median BGR, glare excluded) and its texture: the share of pixels whose brightness is
    far from the median (0 for a plain face; pips, icons and edges raise it), the larger of the central half and
    the central third of the box (a lone centre pip fills much of the latter)."""
    pixels = central_pixels(frame, box)
    if len(pixels) == 0:
        return np.full(3, np.nan, np.float32), 1.0
    glare = pixels.min(axis=1) > 245
    # a glint is a small saturated spot; a face that is mostly saturated is simply bright: keep it then
    usable = pixels[~glare] if glare.mean() < 0.3 and (~glare).sum() >= 4 else pixels
    # the more colourful half: the same as all of it on a plain face, the colour mark on a white face with one
    saturation = usable.max(axis=1) - usable.min(axis=1)
    colourful = usable[saturation >= np.median(saturation)]
    median = np.median(colourful if len(colourful) else usable, axis=0)
    centre = max(float(np.median(usable.mean(axis=1))), 1.0)
    texture = 0.0
    for part in (pixels, central_pixels(frame, box, 0.3)):
        if len(part):
            luma = part.mean(axis=1)
            texture = max(texture, float(np.mean(np.abs(luma - centre) > 0.3 * centre + 12.0)))
    return median.astype(np.float32), texture


def tray_colour(
    frame: np.ndarray, boxes: Sequence[Box], tray_quad: Sequence[tuple[float, float]] | None = None
) -> np.ndarray:
    """The tray's colour now (median BGR) from tray pixels away from every die; the whole frame if no tray area.
    Grey-world (the frame mean) if dice and hands cover nearly everything."""
    h, w = frame.shape[:2]
    mask = np.zeros((h, w), np.uint8)
    if tray_quad is not None and len(tray_quad) == 4:
        quad = np.array(tray_quad, np.float32)
        centre = quad.mean(axis=0)
        inner = centre + (quad - centre) * 0.9  # stay off the markers and the tray walls
        cv2.fillConvexPoly(mask, np.round(inner).astype(np.int32), 255)
    else:
        mask[h // 20 : h - h // 20, w // 20 : w - w // 20] = 255
    for x0, y0, x1, y1 in boxes:
        gx, gy = (x1 - x0) // 3 + 2, (y1 - y0) // 3 + 2
        mask[max(0, y0 - gy) : y1 + gy, max(0, x0 - gx) : x1 + gx] = 0
    step = max(1, int(np.sqrt(max(1, int(np.count_nonzero(mask)) // 20000))))
    pixels = frame[::step, ::step][mask[::step, ::step] > 0]
    if len(pixels) < 200:
        return np.asarray(frame.reshape(-1, 3).mean(axis=0), np.float32)
    return np.asarray(np.median(pixels, axis=0), np.float32)


# feature = _TO_FEATURE @ (log B, log G, log R) relative to the tray; _FROM_FEATURE undoes it
_TO_FEATURE = np.array([[0.0, -1.0, 1.0], [1.0, -1.0, 0.0], [1 / 3, 1 / 3, 1 / 3]])
_FROM_FEATURE = np.linalg.inv(_TO_FEATURE)


def colour_feature(die_bgr: np.ndarray, tray_bgr: np.ndarray) -> np.ndarray:
    """Light-independent feature of a die colour relative to the tray: (R-G, B-G, brightness) in log space."""
    log_die = np.log(np.asarray(die_bgr, np.float64) + 1.0)
    log_tray = np.log(np.asarray(tray_bgr, np.float64) + 1.0)
    b, g, r = log_die - log_tray
    return np.array([r - g, b - g, (b + g + r) / 3.0])


def die_feature(frame: np.ndarray, box: Box, tray_bgr: np.ndarray) -> tuple[np.ndarray, float]:
    """The feature and texture of the die in ``box`` (see :func:`colour_feature`, :func:`face_colour`)."""
    colour, texture = face_colour(frame, box)
    return colour_feature(colour, tray_bgr), texture


class ColourClassifier:
    """Nearest learned colour face with rejection: built from a profile's per-face feature samples."""

    def __init__(self, faces: Mapping[str, Sequence[Sequence[float]]], texture: float = 0.0) -> None:
        usable = {name: np.array(samples, np.float64) for name, samples in faces.items() if len(samples) > 0}
        if len(usable) < 2:
            raise ValueError("colour calibration needs at least two faces with samples")
        self.names = list(usable)
        self.means = np.array([s.mean(axis=0) for s in usable.values()])
        self.spreads = np.array(
            [np.maximum(s.std(axis=0) * 1.5 if len(s) > 1 else FEATURE_FLOOR, FEATURE_FLOOR) for s in usable.values()]
        )
        self.texture_limit = max(TEXTURE_FLOOR, texture + TEXTURE_MARGIN)

    def distances(self, feature: np.ndarray, clipped: Sequence[bool] = (False, False, False)) -> np.ndarray:
        """Normalised distance of a feature to every learned face.

        ``clipped`` (B, G, R) marks channels the camera saturated: their true value is at least what was seen, so
        for each face they are taken as whatever value between the observed one and ``CLIP_HEADROOM`` above it
        fits that face best (a censored observation), instead of counting the clipping against the right face."""
        if not any(clipped):
            return np.asarray(np.sqrt((((feature[None, :] - self.means) / self.spreads) ** 2).sum(axis=1)), np.float64)
        observed = _FROM_FEATURE @ feature
        out = np.empty(len(self.means))
        for k, (mean, spread) in enumerate(zip(self.means, self.spreads, strict=True)):
            logs = observed.copy()
            for _ in range(3):  # coordinate descent over the clipped channels (one pass is exact for one)
                for c in range(3):
                    if not clipped[c]:
                        continue
                    a = _TO_FEATURE[:, c] / spread
                    rest = (_TO_FEATURE @ logs - mean) / spread - a * logs[c]
                    best = float(-(a @ rest) / (a @ a))
                    logs[c] = min(max(best, float(observed[c])), float(observed[c]) + CLIP_HEADROOM)
            out[k] = float(np.sqrt((((_TO_FEATURE @ logs - mean) / spread) ** 2).sum()))
        return out

    def classify_feature(
        self, feature: np.ndarray, texture: float = 0.0, clipped: Sequence[bool] = (False, False, False)
    ) -> ColourMatch:
        """The face a feature belongs to, or ``face=None`` when it matches none (or the face is patterned)."""
        if not np.all(np.isfinite(feature)) or all(clipped):
            return ColourMatch(None, 0.0, float("inf"))  # nothing measured, or saturated white: no colour to read
        d = self.distances(feature, clipped)
        order = np.argsort(d)
        best, second = int(order[0]), int(order[1])
        if texture > self.texture_limit or d[best] > REJECT_DISTANCE:
            return ColourMatch(None, 0.0, float(d[best]), self.names[best])
        weights = np.exp(-0.5 * (d - d[best]) ** 2)
        share = float(weights[best] / weights.sum())
        closeness = 1.0 - max(0.0, float(d[best]) - 2.0) / (REJECT_DISTANCE - 2.0) * 0.5
        return ColourMatch(
            self.names[best], share * closeness, float(d[best]), self.names[second], flagged=share < AMBIGUOUS_SHARE
        )

    def classify(self, frame: np.ndarray, box: Box, tray_bgr: np.ndarray) -> ColourMatch:
        """Read the die in ``box`` given the tray's colour now (see :func:`tray_colour`)."""
        colour, texture = face_colour(frame, box)
        clipped = [bool(v >= CLIPPED) for v in colour]
        return self.classify_feature(colour_feature(colour, tray_bgr), texture, clipped)
