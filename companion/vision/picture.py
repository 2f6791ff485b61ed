"""Picture dice: read an icon face (cat, rat, swap, ...) by matching it against the player's own die, any rotation.

A die lands at any angle, so a face patch is unwrapped into polar coordinates around its centre (rows = angle,
columns = radius): turning the die only shifts the rows cyclically. Comparing a patch with a template at every
rotation at once is then a circular cross-correlation along the angle axis, done with an FFT. Patches are
normalised to zero mean and unit variance first, so brightness and contrast changes (and white-balance drift,
since the grey image is used) do not matter. A small search over the centre absorbs box jitter.

Templates are learned in the calibration wizard (a few captures per face) and stored in the profile as small grey
PNGs. A face whose best correlation is low, or that two faces explain equally well, is "unknown" / flagged: the
reader never guesses.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

Box = tuple[int, int, int, int]

PATCH = 48
"""Side of the stored face patch (pixels): the disc the icon lives in, scaled to a fixed size."""
ANGLES = 72
RADII = 16
SMOOTH = 1.0
"""Blur (pixels of the 48 px patch) before unwrapping: makes line thickness, focus and JPEG matter less."""
ACCEPT = 0.8
"""Best correlation needed to read a face on a die where pips were seen. On synthetic renders pip faces of a white
die reach about 0.77 against icons; true faces mostly score above 0.85."""
ACCEPT_NO_PIPS = 0.68
"""The bar for a die on which the pip reader found no pips (blurred, small or thin-lined icons score lower)."""
MARGIN = 0.06
"""Lead over the runner-up face needed to read it without a flag."""
RADIUS_SHARE = 0.42
"""The disc sampled, as a share of the face's side: inside the face's edges at any rotation."""


@dataclass(frozen=True)
class PictureMatch:
    """A picture reading: the face (None = unknown), confidence 0-1, best correlation, and the runner-up."""

    face: str | None
    confidence: float
    score: float
    second: str | None = None
    flagged: bool = False


def face_side(box: Box, die_size_px: float | None = None) -> float:
    """The die face's side in pixels: the calibrated die size when known, else a guess from the box (a box around
    a die turned by an unknown angle is between 1 and 1.41 times the face)."""
    if die_size_px:
        return float(die_size_px)
    x0, y0, x1, y1 = box
    return 0.82 * min(x1 - x0, y1 - y0)


def face_patch(
    frame: np.ndarray, box: Box, die_size_px: float | None = None, offset: tuple[float, float] = (0, 0)
) -> np.ndarray:
    """The grey disc of the face (``PATCH``×``PATCH`` uint8) centred on the box, radius ``RADIUS_SHARE`` × side."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2 + offset[0], (y0 + y1) / 2 + offset[1]
    radius = RADIUS_SHARE * face_side(box, die_size_px)
    grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    scale = PATCH / (2 * radius)
    m = np.array([[scale, 0, PATCH / 2 - cx * scale], [0, scale, PATCH / 2 - cy * scale]], np.float64)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    return cv2.warpAffine(grey, m, (PATCH, PATCH), flags=interp, borderMode=cv2.BORDER_REPLICATE)


def polar_descriptor(patch: np.ndarray) -> np.ndarray:
    """Angle×radius unwrapping of a patch, normalised (zero mean, unit norm) with outer rings weighted by area."""
    smooth = cv2.GaussianBlur(patch.astype(np.float32), (0, 0), SMOOTH)
    polar = cv2.warpPolar(
        smooth, (RADII, ANGLES), (PATCH / 2, PATCH / 2), PATCH / 2, cv2.WARP_POLAR_LINEAR | cv2.INTER_LINEAR
    )
    weights = np.sqrt((np.arange(RADII) + 0.5) / RADII)[None, :]
    polar = polar - polar.mean()
    polar = polar * weights
    norm = float(np.linalg.norm(polar))
    return np.asarray(polar / norm if norm > 1e-6 else polar, np.float32)


def rotation_correlation(query: np.ndarray, template: np.ndarray) -> float:
    """Best correlation between two descriptors over every rotation (circular shift along the angle axis)."""
    spectrum = np.fft.rfft(query, axis=0) * np.conj(np.fft.rfft(template, axis=0))
    return float(np.fft.irfft(spectrum.sum(axis=1), n=ANGLES).max())


def encode_patch(patch: np.ndarray) -> str:
    """A face patch as base64 PNG, the form templates take in a profile."""
    ok, data = cv2.imencode(".png", patch)
    if not ok:
        raise ValueError("could not encode a face patch")
    return base64.b64encode(data.tobytes()).decode("ascii")


def decode_patch(text: str) -> np.ndarray:
    """The inverse of :func:`encode_patch`; ValueError for anything that is not a grey PNG of the right size."""
    try:
        raw = base64.b64decode(text, validate=True)
    except ValueError as exc:
        raise ValueError(f"template is not base64: {exc}") from None
    patch = cv2.imdecode(np.frombuffer(raw, np.uint8), cv2.IMREAD_GRAYSCALE)
    if patch is None or patch.shape != (PATCH, PATCH):
        raise ValueError(f"template is not a {PATCH}x{PATCH} grey PNG")
    return patch


_DISC = (np.hypot(*np.mgrid[0:PATCH, 0:PATCH] - (PATCH - 1) / 2) <= PATCH / 2 - 2).astype(np.uint8)


def looks_like_pips(patch: np.ndarray) -> bool:
    """True when the face's ink is a few round spots of one size (a pip face), not an icon.

    Guards the lower bar used for dice the pip reader found nothing on: a white "1" face (one centred spot)
    correlates with a centred icon more than true icon faces do after heavy blur."""
    grey = cv2.GaussianBlur(patch, (0, 0), 0.8)
    inside = grey[_DISC > 0]
    if inside.size == 0 or float(inside.max()) - float(inside.min()) < 30:
        return False
    threshold, _ = cv2.threshold(inside.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    ink = ((grey < threshold) & (_DISC > 0)).astype(np.uint8)
    count, _labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    spots = []
    for i in range(1, count):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < 6:
            continue  # noise
        if x == 0 or y == 0 or x + w >= PATCH or y + h >= PATCH:
            continue  # the die's edge or the tray at the disc's rim
        roundness = area / (np.pi * (max(w, h) / 2) ** 2)
        if roundness < 0.7 or min(w, h) < 0.75 * max(w, h):
            return False  # an elongated or irregular shape: not a pip
        spots.append(area)
    return 1 <= len(spots) <= 9 and max(spots) <= 2.2 * min(spots)


class PictureClassifier:
    """Rotation-invariant template matcher over the learned faces of a picture die."""

    OFFSETS: tuple[tuple[float, float], ...] = ((0, 0), (-2, 0), (2, 0), (0, -2), (0, 2))

    def __init__(self, faces: Mapping[str, Sequence[np.ndarray]], die_size_px: float | None = None) -> None:
        self.names = [name for name, patches in faces.items() if len(patches) > 0]
        if len(self.names) < 2:
            raise ValueError("picture calibration needs at least two faces with templates")
        self.die_size_px = die_size_px
        owners, spectra = [], []
        for index, name in enumerate(self.names):
            for patch in faces[name]:
                owners.append(index)
                spectra.append(np.conj(np.fft.rfft(polar_descriptor(patch), axis=0)))
        self.owners = np.array(owners)
        self.spectra = np.stack(spectra)  # (templates, ANGLES // 2 + 1, RADII), conjugated

    @classmethod
    def from_encoded(cls, faces: Mapping[str, Sequence[str]], die_size_px: float | None = None) -> PictureClassifier:
        """Build from a profile's base64 templates (ValueError names the face whose template is broken)."""
        decoded: dict[str, list[np.ndarray]] = {}
        for name, items in faces.items():
            try:
                decoded[name] = [decode_patch(item) for item in items]
            except ValueError as exc:
                raise ValueError(f"picture face {name!r}: {exc}") from None
        return cls(decoded, die_size_px)

    def scores(self, patch: np.ndarray) -> np.ndarray:
        """Best rotation-correlation of a patch with each face (the best template of each face)."""
        spectrum = np.fft.rfft(polar_descriptor(patch), axis=0)
        corr = np.fft.irfft((spectrum[None] * self.spectra).sum(axis=2), n=ANGLES, axis=1).max(axis=1)
        best = np.full(len(self.names), -1.0)
        np.maximum.at(best, self.owners, corr)
        return best

    def classify(self, frame: np.ndarray, box: Box, accept: float = ACCEPT) -> PictureMatch:
        """Read the die in ``box``, trying a few centre offsets to absorb box jitter; ``accept`` is the bar (a face
        that looks like pips always needs :data:`ACCEPT`)."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        best = np.full(len(self.names), -1.0)
        for offset in self.OFFSETS:
            best = np.maximum(best, self.scores(face_patch(grey, box, self.die_size_px, offset)))
        if accept < ACCEPT and float(best.max()) < ACCEPT and looks_like_pips(face_patch(grey, box, self.die_size_px)):
            accept = ACCEPT
        return self._decide(best, accept)

    def _decide(self, scores: np.ndarray, accept: float) -> PictureMatch:
        order = np.argsort(-scores)
        first, second = int(order[0]), int(order[1])
        top, runner = float(scores[first]), float(scores[second])
        if top < accept:
            return PictureMatch(None, 0.0, top, self.names[first])
        lead = top - runner
        confidence = min(1.0, (top - accept) / (1 - accept) * 0.5 + 0.5) * min(1.0, lead / (2 * MARGIN))
        return PictureMatch(self.names[first], confidence, top, self.names[second], flagged=lead < MARGIN)
