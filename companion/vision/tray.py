"""Camera and tray measurements: focus/exposure meters, the tray area (ArUco markers or four taps), the empty-tray
reference, and finding dice against that reference. Used by the dice reader's kind stage and by the calibration
wizard (``companion.calibrate``); it knows nothing of profiles.

Markers: four ArUco markers from ``DICT_4X4_50`` with ids 0, 1, 2, 3 at the tray's top-left, top-right,
bottom-right and bottom-left corners (``companion calibrate --markers FILE`` prints a sheet). The tray area is the
quadrilateral through the marker centres.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Point = tuple[float, float]
Box = tuple[int, int, int, int]

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)
"""Marker ids at the tray's top-left, top-right, bottom-right and bottom-left corners."""

MIN_TRAY_SHARE = 0.02
"""A tray area smaller than this share of the frame holds too few dice to read (a slip of the finger, or markers
stuck close together)."""

SHARP_ENOUGH = 60.0
"""Variance of the Laplacian (640×480 grey) below which the picture is too soft to read pips and icons."""
BRIGHT_RANGE = (70.0, 190.0)
"""Acceptable mean brightness (0-255); outside it the exposure is too dark or washed out."""


@dataclass(frozen=True)
class Exposure:
    """Camera check: sharpness (Laplacian variance), mean brightness, clipped share, and a verdict for the screen."""

    sharpness: float
    brightness: float
    clipped: float

    @property
    def sharp_ok(self) -> bool:
        """Sharp enough to read pips and icons."""
        return self.sharpness >= SHARP_ENOUGH

    @property
    def bright_ok(self) -> bool:
        """Neither too dark nor washed out."""
        return BRIGHT_RANGE[0] <= self.brightness <= BRIGHT_RANGE[1] and self.clipped < 0.05

    @property
    def advice(self) -> str:
        """One line telling the player what to fix, or that all is well."""
        from companion.i18n import _

        if self.brightness < BRIGHT_RANGE[0]:
            return _("Too dark: add light over the tray")
        if self.brightness > BRIGHT_RANGE[1] or self.clipped >= 0.05:
            return _("Too bright: move the lamp or reduce glare")
        if not self.sharp_ok:
            return _("Blurry: adjust the camera's focus or hold it still")
        return _("Focus and exposure look good")


def measure_exposure(frame: Image) -> Exposure:
    """Sharpness and brightness meters for the camera-check step (scale-independent: measured at 640 px wide)."""
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    if grey.shape[1] != 640:
        scale = 640 / grey.shape[1]
        grey = cv2.resize(grey, (640, max(1, round(grey.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    sharpness = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    return Exposure(sharpness, float(grey.mean()), float(np.mean(grey >= 250)))


def detect_markers(frame: Image) -> tuple[Any, Any]:
    """ArUco corners and ids, with ``minDistanceToBorder = 0`` (OpenCV >= 4.12 missed clean markers otherwise).
    Uses ``ArucoDetector`` (OpenCV >= 4.7) or the older module functions (Debian's packaged 4.6)."""
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    if hasattr(cv2.aruco, "ArucoDetector"):
        params = cv2.aruco.DetectorParameters()
        params.minDistanceToBorder = 0
        corners, ids, _ = cv2.aruco.ArucoDetector(dictionary, params).detectMarkers(frame)
    else:  # pragma: no cover - OpenCV < 4.7
        legacy = cv2.aruco
        params = getattr(legacy, "DetectorParameters_create")()  # noqa: B009 - absent from newer stubs
        params.minDistanceToBorder = 0
        corners, ids, _ = getattr(legacy, "detectMarkers")(frame, dictionary, parameters=params)  # noqa: B009
    return corners, ids


def _marker_image(dictionary: Any, marker_id: int, side: int) -> Image:
    if hasattr(cv2.aruco, "generateImageMarker"):
        return np.asarray(cv2.aruco.generateImageMarker(dictionary, marker_id, side), np.uint8)
    draw = getattr(cv2.aruco, "drawMarker")  # noqa: B009 - OpenCV < 4.7, absent from newer stubs
    return np.asarray(draw(dictionary, marker_id, side), np.uint8)  # pragma: no cover


def find_tray_markers(frame: Image) -> tuple[list[Point] | None, list[int]]:
    """The tray corners through the four marker centres (clockwise from top-left), or None, plus the ids that were
    seen. The centres are put in order around the tray whatever their ids, so two markers stuck in each other's
    corners still give the tray; four centres that make no tray shape (three in a line, one inside the others)
    give None with all four ids seen."""
    corners, ids = detect_markers(frame)
    seen: dict[int, Point] = {}
    if ids is not None:
        for quad, marker_id in zip(corners, ids.flatten(), strict=True):
            if int(marker_id) in MARKER_IDS:
                centre = quad.reshape(4, 2).mean(axis=0)
                seen[int(marker_id)] = (float(centre[0]), float(centre[1]))
    found = sorted(seen)
    if len(seen) < 4:
        return None, found
    try:
        return order_quad([seen[i] for i in MARKER_IDS]), found
    except ValueError:
        return None, found


def marker_sheet(size: int = 1200) -> Image:
    """A printable square sheet with the four corner markers (ids in their corners), to cut out and stick down."""
    sheet = np.full((size, size), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    m = size // 4
    spots = [
        (m // 3, m // 3),
        (size - m - m // 3, m // 3),
        (size - m - m // 3, size - m - m // 3),
        (m // 3, size - m - m // 3),
    ]
    for marker_id, (x, y) in zip(MARKER_IDS, spots, strict=True):
        sheet[y : y + m, x : x + m] = _marker_image(dictionary, marker_id, m)
        label = ["top-left", "top-right", "bottom-right", "bottom-left"][marker_id]
        cv2.putText(sheet, f"{marker_id} {label}", (x, y + m + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.8, 0, 2)
    return sheet


def order_quad(points: Sequence[Point]) -> list[Point]:
    """Four tapped points in any order -> clockwise from top-left; ValueError when they do not make a usable area."""
    if len(points) != 4:
        raise ValueError(f"the tray needs 4 corners, got {len(points)}")
    pts = np.array(points, np.float64)
    centre = pts.mean(axis=0)
    angles = np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0])
    ordered = pts[np.argsort(angles)]  # clockwise on screen (y down), starting anywhere
    start = int(np.argmin(ordered.sum(axis=1)))  # top-left has the smallest x + y
    ordered = np.roll(ordered, -start, axis=0)
    d1, d2 = ordered[2] - ordered[0], ordered[3] - ordered[1]
    area = 0.5 * abs(float(d1[0] * d2[1] - d1[1] * d2[0]))
    if area < 1e-6 or not cv2.isContourConvex(ordered.astype(np.float32).reshape(-1, 1, 2)):
        from companion.i18n import _

        raise ValueError(_("those four corners do not make a tray: tap each corner of the tray once"))
    return [(float(x), float(y)) for x, y in ordered]


def quad_area(quad: Sequence[Point]) -> float:
    """Area of a quadrilateral in square pixels."""
    return float(cv2.contourArea(np.array(quad, np.float32).reshape(-1, 1, 2)))


def tray_mask(shape: tuple[int, ...], quad: Sequence[Point] | None, shrink: float = 1.0) -> npt.NDArray[np.uint8]:
    """255 inside the tray area (the whole frame when there is none), optionally shrunk towards its centre."""
    h, w = shape[:2]
    mask = np.zeros((h, w), np.uint8)
    if quad is None:
        mask[:] = 255
        return mask
    pts = np.array(quad, np.float64)
    centre = pts.mean(axis=0)
    cv2.fillConvexPoly(mask, np.round(centre + (pts - centre) * shrink).astype(np.int32), 255)
    return mask


def median_colour(frame: Image, quad: Sequence[Point] | None = None) -> tuple[float, float, float]:
    """Median BGR inside the tray area: stored with the empty-tray reference."""
    mask = tray_mask(frame.shape, quad, 0.9)
    pixels = frame[mask > 0]
    b, g, r = (float(v) for v in np.median(pixels, axis=0))
    return (b, g, r)


_LOG_LUT = np.log(np.arange(256, dtype=np.float32) + 1.0).astype(np.float32)


@dataclass(frozen=True)
class Blob:
    """Something on the tray that was not there in the empty-tray reference: its box and side length (px)."""

    box: Box
    side: float
    area: float


def find_dice(
    frame: Image,
    empty: Image,
    quad: Sequence[Point] | None = None,
    die_size_px: float | None = None,
) -> list[Blob]:
    """Dice on the tray: blobs that differ from the empty-tray reference, die-sized and roughly square.

    The difference is taken after matching the reference's overall colour to the frame (per channel), so a lamp
    that changed since the reference was taken does not light up the whole tray. Shadows (darker, same hue) count
    less than real colour or brightness changes.
    """
    if frame.shape != empty.shape:
        raise ValueError(
            f"frame {frame.shape[1]}x{frame.shape[0]} and empty-tray reference "
            f"{empty.shape[1]}x{empty.shape[0]} differ in size: recalibrate the empty tray"
        )
    # work at half size: dice are tens of pixels wide, and this keeps the stage at a few milliseconds
    small_f = cv2.resize(frame, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    small_e = cv2.resize(empty, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    half_quad = None if quad is None else [(x / 2, y / 2) for x, y in quad]
    inside = tray_mask(small_f.shape, half_quad, 0.96) > 0
    f = cv2.LUT(cv2.GaussianBlur(small_f, (3, 3), 0), _LOG_LUT)
    e = cv2.LUT(cv2.GaussianBlur(small_e, (3, 3), 0), _LOG_LUT)
    sample = inside[::3, ::3]
    offset = np.median(f[::3, ::3][sample], axis=0) - np.median(e[::3, ::3][sample], axis=0)  # the lamp's change
    b, g, r = cv2.split(f - e)
    b, g, r = b - np.float32(offset[0]), g - np.float32(offset[1]), r - np.float32(offset[2])
    brightness = (b + g + r) / 3
    chroma = np.maximum(np.maximum(np.abs(b - brightness), np.abs(g - brightness)), np.abs(r - brightness))
    # brighter or differently coloured: a die; darker only: maybe a shadow, needs a stronger change
    score = np.maximum(chroma * 2.0, np.where(brightness > 0, brightness, -brightness * 0.45))
    fg = ((score > 0.2) & inside).astype(np.uint8) * 255
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8))
    fg = cv2.resize(fg, (frame.shape[1], frame.shape[0]), interpolation=cv2.INTER_NEAREST)
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    tray_area = quad_area(quad) if quad is not None else float(frame.shape[0] * frame.shape[1])
    blobs: list[Blob] = []
    for contour in contours:
        area = float(cv2.contourArea(contour))
        (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
        side = float(np.sqrt(area))
        if die_size_px:
            if not 0.55 * die_size_px**2 <= area <= 2.2 * die_size_px**2:
                continue
        elif not tray_area * 0.0008 <= area <= tray_area * 0.05:
            continue
        if min(rw, rh) < 0.5 * max(rw, rh):  # long and thin: a finger, an edge, not a die
            continue
        x, y, w, h = cv2.boundingRect(contour)
        blobs.append(Blob((x, y, x + w, y + h), side, area))
    blobs.sort(key=lambda b: (b.box[0], b.box[1]))
    return blobs
