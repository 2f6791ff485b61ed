"""The dice reader: frame -> find pips -> group into dice -> read faces -> per-die classifiers -> Detections.

Each stage is a small pure function taking and returning plain values; ``read_dice`` runs them in order.
Calibration (optional) narrows the search to the tray and ignores what was already there in the empty tray.
Other die kinds (colour, picture) plug in as extra :class:`DieClassifier` stages in a :class:`VisionProfile`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.dice_memory import DiceMemory
from companion.vision.faces import FaceSettings, group_pips, quantiles
from companion.vision.pips import Pips, PipSettings, find_pips
from companion.vision.reader_settings import ReaderSettings
from companion.vision.roll import PIPS, DieRead, Roll

log = logging.getLogger(__name__)

FLAG_BELOW = 0.5  # dice read with less confidence than this are flagged for the player to check
METHODS = ("learned", "classical", "hybrid")
DEFAULT_METHOD = "learned"  # the best held-out figures (docs/dice-reader.md); "classical" needs no model files


class DieClassifier(Protocol):
    """A per-die stage: given the frame and the dice found so far, return them with kind/face/confidence set for
    the dice it recognises (and may add dice it finds itself). Pip reading is the built-in default kind."""

    def __call__(self, frame_bgr: np.ndarray, detections: Detections) -> Detections: ...


@dataclass(frozen=True)
class VisionProfile:
    """What the reader may know about the table: the tray outline (4 corners in frame pixels, any order around;
    the reader then works on a straight-on view of the tray), an empty-tray reference frame, stage settings (the
    classical reader's ``pips`` and ``faces``, the learned reader's ``learned``), and extra per-die classifiers
    (other die kinds)."""

    tray_quad: Sequence[Sequence[float]] | None = None
    reference_bgr: np.ndarray | None = None
    pips: PipSettings = field(default_factory=PipSettings)
    faces: FaceSettings = field(default_factory=FaceSettings)
    learned: ReaderSettings = field(default_factory=ReaderSettings)  # the learned reader's thresholds (learned.py)
    classifiers: tuple[DieClassifier, ...] = ()
    max_side: int = 1280  # larger frames are shrunk first (boxes are reported in the original pixels)
    reference_diff: float = 30.0  # grey/colour change that counts as "something is here now"
    min_confidence: float = 0.35  # weaker readings are not reported at all
    rectify: bool = True  # with a tray outline, read a straight-on view of the tray
    method: str = DEFAULT_METHOD  # "learned" (two small networks, learned.py: find dice, then read each one),
    # "classical" (pips -> faces), or "hybrid" (learned; a sure classical reading on a die gives its value)
    # the table's own dice, remembered from the player's checked rolls (dice_memory.py; the learned reader asks it)
    memory: DiceMemory | None = field(default=None, compare=False)


DEFAULT_PROFILE = VisionProfile()


def to_gray(frame_bgr: np.ndarray, max_side: int) -> tuple[np.ndarray, float]:
    """Grey image, shrunk so its longer side is at most ``max_side``; returns it and the scale back to frame px."""
    gray = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
    long_side = max(gray.shape[:2])
    if long_side <= max_side:
        return gray, 1.0
    f = max_side / long_side
    return cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA), 1.0 / f


def read_lone_pips(
    gray: np.ndarray, pips: Pips, lone: Sequence[int], settings: FaceSettings, crowded: Collection[int] = ()
) -> Detections:
    """Lone pips that sit on a plain face (the ring around them is even and clearly differs from the pip) are 1s;
    those that were linked to other pips (``crowded``) are less sure."""
    h, w = gray.shape[:2]
    boxes, confs, pols, radii = [], [], [], []
    for i in lone:
        x, y, r = float(pips.x[i]), float(pips.y[i]), float(pips.r[i])
        if r < 2.0 or pips.aspect[i] > settings.flat_pips:
            continue
        rin, rout = 1.7 * r, 3.6 * r
        x0, y0 = int(max(0, x - rout)), int(max(0, y - rout))
        x1, y1 = int(min(w, x + rout + 1)), int(min(h, y + rout + 1))
        if x1 - x0 < 2 * rout * 0.8 or y1 - y0 < 2 * rout * 0.8:
            continue  # cut by the frame edge: cannot judge
        yy, xx = np.mgrid[y0:y1, x0:x1]
        rr = np.hypot(xx - x, yy - y)
        win = gray[y0:y1, x0:x1].astype(np.float32)
        ring = win[(rr >= rin) & (rr <= rout)]
        core = win[rr <= 0.6 * r]
        if ring.size < 10 or core.size == 0:
            continue
        lo, mid, hi = quantiles(ring, (0.1, 0.5, 0.9))
        contrast = abs(mid - float(core.mean()))
        spread = hi - lo
        if contrast < 25 or spread > 0.6 * contrast:
            continue
        conf = float(np.clip(1.0 - spread / (0.6 * contrast), 0, 1)) * float(np.clip(contrast / 60, 0, 1))
        half = settings.single_half * r
        boxes.append([x - half, y - half, x + half, y + half])
        roundness = float(
            np.clip((settings.flat_pips - pips.aspect[i]) / (settings.flat_pips - settings.round_pips), 0, 1)
        )
        confs.append((0.35 + 0.5 * conf) * (settings.crowded_single if i in crowded else 1.0) * roundness)
        pols.append(int(pips.polarity[i]))
        radii.append(r)
    if not boxes:
        return Detections.empty()
    return Detections.from_lists(
        np.round(boxes),
        [1] * len(boxes),
        confs,
        data={
            "pips": np.ones(len(boxes), dtype=np.int64),
            "polarity": np.asarray(pols, dtype=np.int32),
            "pip_r": np.asarray(radii, dtype=np.float64),
        },
    )


def consistent_sizes(det: Detections, spread: float = 1.8, factor: float = 0.4) -> Detections:
    """Dice on one table are seen at much the same size: a reading whose pips are more than ``spread`` times
    bigger or smaller than those of the surer readings (shadows read as pips, specks as pips) is less sure."""
    if len(det) < 3 or "pip_r" not in det.data:
        return det
    r = det.data["pip_r"]
    sure = det.confidences >= FLAG_BELOW
    if sure.sum() < 2:
        return det
    typical = float(np.median(r[sure]))
    odd = (r > spread * typical) | (r < typical / spread)
    return det.replace(confidences=np.where(odd, det.confidences * factor, det.confidences).astype(np.float32))


def suppress_overlaps(det: Detections, overlap: float = 0.85, near: float = 1.05, weaker: float = 0.6) -> Detections:
    """Where two readings claim the same die (centres closer than ``overlap`` x the sum of their half sizes),
    keep the surer one. Just beyond that (up to ``near``), a much less sure reading beside a sure one is a side
    face of that die seen at an angle, not a die of its own, and goes too."""
    if len(det) < 2:
        return det
    order = np.argsort(-det.confidences, kind="stable")
    c = det.centres
    keep: list[int] = []
    for i in order:
        clash = False
        for k in keep:
            bk, bi = det.boxes[k], det.boxes[i]
            reach = (bk[2] - bk[0] + bi[2] - bi[0]) / 2
            d = np.hypot(*(c[i] - c[k]))
            if d < overlap * reach or (d < near * reach and det.confidences[i] < weaker * det.confidences[k]):
                clash = True
                break
        if not clash:
            keep.append(int(i))
    return det[np.asarray(sorted(keep))]


def inside_tray(det: Detections, quad: Sequence[Sequence[float]] | None) -> Detections:
    """Dice whose centre lies inside the tray outline (all of them when there is no outline)."""
    if quad is None or not len(det):
        return det
    poly = np.asarray(quad, dtype=np.float32).reshape(-1, 1, 2)
    hull = cv2.convexHull(poly)
    keep = [cv2.pointPolygonTest(hull, (float(x), float(y)), False) >= 0 for x, y in det.centres]
    return det[np.asarray(keep, dtype=bool)]


def changed_from_reference(
    det: Detections, frame_bgr: np.ndarray, reference_bgr: np.ndarray | None, threshold: float
) -> Detections:
    """Drop dice whose box looks the same as in the empty-tray reference (a pattern printed on the tray, a mark)."""
    if reference_bgr is None or not len(det) or reference_bgr.shape != frame_bgr.shape:
        return det
    keep = []
    for x0, y0, x1, y1 in det.boxes:
        x0, y0 = max(0, x0), max(0, y0)
        a = frame_bgr[y0:y1, x0:x1].astype(np.int16)
        b = reference_bgr[y0:y1, x0:x1].astype(np.int16)
        keep.append(a.size > 0 and float(np.abs(a - b).max(axis=2).mean()) >= threshold)
    return det[np.asarray(keep, dtype=bool)]


def tray_view(quad: Sequence[Sequence[float]]) -> tuple[np.ndarray, tuple[int, int]]:
    """The homography from the frame to a straight-on view of the tray (a rectangle as big as the tray's longer
    sides), and that view's size. Corners may come in any order around the tray."""
    q = np.asarray(quad, dtype=np.float32).reshape(4, 2)
    centre = q.mean(axis=0)
    q = q[np.argsort(np.arctan2(q[:, 1] - centre[1], q[:, 0] - centre[0]))]  # clockwise in image coordinates
    start = int(np.argmin(q.sum(axis=1)))  # top-left first
    tl, tr, br, bl = np.roll(q, -start, axis=0)
    w = round(float(max(np.hypot(*(tr - tl)), np.hypot(*(br - bl)))))
    h = round(float(max(np.hypot(*(bl - tl)), np.hypot(*(br - tr)))))
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    src = np.stack([tl, tr, br, bl]).astype(np.float32)
    return np.asarray(cv2.getPerspectiveTransform(src, dst)), (w, h)


def tray_frame(frame_bgr: np.ndarray, p: VisionProfile) -> tuple[np.ndarray, np.ndarray | None]:
    """What the reader reads of a frame: with a tray outline in ``p`` (and ``rectify``), the straight-on view of
    the tray and the homography into it; else the frame itself and None."""
    if p.tray_quad is None or not p.rectify:
        return frame_bgr, None
    homography, size = tray_view(p.tray_quad)
    return cv2.warpPerspective(frame_bgr, homography, size, flags=cv2.INTER_LINEAR), homography


def boxes_through(boxes: np.ndarray, homography: np.ndarray) -> np.ndarray:
    """Boxes (N, 4) carried through ``homography``: the box around each box's four corners there, float32."""
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    corners = np.stack([b[:, [0, 1]], b[:, [2, 1]], b[:, [2, 3]], b[:, [0, 3]]], axis=1).reshape(-1, 1, 2)
    there = cv2.perspectiveTransform(corners, np.asarray(homography, np.float64)).reshape(-1, 4, 2)
    out: np.ndarray = np.concatenate([there.min(axis=1), there.max(axis=1)], axis=1)
    return out


def boxes_back(det: Detections, homography: np.ndarray) -> Detections:
    """Boxes from the tray view back into the frame (the frame box around each view box's corners)."""
    if not len(det):
        return det
    boxes = boxes_through(det.boxes, np.linalg.inv(homography))
    return det.replace(boxes=np.round(boxes).astype(np.int32))


def read_faces_classical(image_bgr: np.ndarray, p: VisionProfile) -> Detections:
    """The classical reader on one image: pips -> faces and lone pips -> size/overlap checks; image pixels."""
    gray, back = to_gray(image_bgr, p.max_side)
    pips = find_pips(gray, p.pips)
    faces, lone, crowded = group_pips(pips, p.faces, gray)
    singles = read_lone_pips(gray, pips, lone, p.faces, crowded)
    det = consistent_sizes(Detections.merge([faces, singles]))
    det = suppress_overlaps(det[det.confidences >= p.min_confidence])
    if back != 1.0 and len(det):
        det = det.replace(boxes=np.round(det.boxes * back).astype(np.int32))
    return det


def warm_up(profile: VisionProfile | None = None) -> None:
    """Load what the reader of ``profile`` needs before the first frame is read and timed: the networks of the
    learned and hybrid readers (``learned.warm_up``). A missing or damaged model file is left for the first read
    to report (the classical reader stands in)."""
    if (profile or DEFAULT_PROFILE).method not in ("learned", "hybrid"):
        return
    from companion.vision.learned import ModelLoadError
    from companion.vision.learned import warm_up as load_networks

    with contextlib.suppress(FileNotFoundError, ModelLoadError, RuntimeError):  # said once, by the first read
        load_networks()


def read_faces_learned(image_bgr: np.ndarray, p: VisionProfile | None = None) -> Detections:
    """The learned reader on one image, with ``p.learned``'s thresholds (imported on first use: it loads the
    network files). Should a network file be missing or damaged (a broken install), the classical reader stands
    in, with one logged error naming the file, so the table keeps its dice reader."""
    from companion.vision.learned import ModelLoadError, read_dice_learned
    from companion.vision.networks import error_once

    try:
        profile = p or DEFAULT_PROFILE
        return read_dice_learned(image_bgr, profile.learned, profile.memory)
    except (FileNotFoundError, ModelLoadError) as err:
        error_once(log, err, f"{err}; reading dice with the classical reader instead")
        return read_faces_classical(image_bgr, p or DEFAULT_PROFILE)


def confirm_with_classical(found: Detections, classical: Detections, min_confidence: float) -> Detections:
    """Dice found by the network, read again by the classical reader: where a sure classical reading (at least
    ``FLAG_BELOW``) sits on a found die (centre within 35% of its size), its value counts (confidence: the higher
    of the two when they agree, the classical one when they differ); a found die below ``min_confidence`` that no
    sure classical reading backs is dropped (the classical reader's own reporting floor)."""
    if not len(found):
        return found
    values, confs = found.values.copy(), found.confidences.copy()
    keep = np.ones(len(found), dtype=bool)
    cc = classical.centres
    for i, (x0, y0, x1, y1) in enumerate(found.boxes.astype(np.float64)):
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        hw, hh = max(4.0, (x1 - x0) * 0.35), max(4.0, (y1 - y0) * 0.35)
        near = [
            j
            for j in range(len(classical))
            if abs(cc[j, 0] - cx) <= hw and abs(cc[j, 1] - cy) <= hh and classical.confidences[j] >= FLAG_BELOW
        ]
        if near:
            j = max(near, key=lambda k: float(classical.confidences[k]))
            agree = classical.values[j] == values[i]
            confs[i] = max(confs[i], classical.confidences[j]) if agree else classical.confidences[j]
            values[i] = classical.values[j]
        elif confs[i] < min_confidence:
            keep[i] = False
    return found.replace(values=values, confidences=confs, faces=[int(v) for v in values])[keep]


def read_dice(frame_bgr: np.ndarray, profile: VisionProfile | None = None) -> Detections:
    """Find every die in a BGR frame and read its top face; boxes are in the frame's own pixels.
    ``profile.method`` picks the learned network, the classical pip reader or both (hybrid); the stages after
    it (tray outline, empty-tray reference, per-die classifiers) are the same for all. With a tray outline in the
    profile (and ``rectify``), the tray is first warped to a straight-on view, so pips seen at an angle are
    round again."""
    p = profile or DEFAULT_PROFILE
    if p.method not in METHODS:
        raise ValueError(f"unknown dice reading method {p.method!r}: use one of {', '.join(METHODS)}")
    view, homography = tray_frame(frame_bgr, p)
    if p.method == "learned":
        det = read_faces_learned(view, p)
    elif p.method == "hybrid":
        det = confirm_with_classical(read_faces_learned(view, p), read_faces_classical(view, p), p.min_confidence)
    else:
        det = read_faces_classical(view, p)
    if homography is not None:
        det = boxes_back(det, homography)
    if len(det):
        h, w = frame_bgr.shape[:2]
        det = det.replace(boxes=np.clip(det.boxes, 0, [w - 1, h - 1, w - 1, h - 1]).astype(np.int32))
    det = inside_tray(det, p.tray_quad)
    det = changed_from_reference(det, frame_bgr, p.reference_bgr, p.reference_diff)
    for classify in p.classifiers:
        det = classify(frame_bgr, det)
    return det.sorted_left_to_right()


def remember(
    memory: DiceMemory,
    frame_bgr: np.ndarray,
    boxes: Sequence[Sequence[float]],
    values: list[int],
    profile: VisionProfile | None = None,
) -> DiceMemory:
    """``memory`` with a checked roll's dice added (``dice_memory.learn``): ``boxes`` in frame pixels, each with its
    value (0: not a die), seen as ``read_dice`` sees the frame (with a tray outline, in the straight-on view of
    the tray, the boxes carried into it)."""
    from companion.vision.dice_memory import learn

    p = profile or DEFAULT_PROFILE
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(b):
        return memory
    view, homography = tray_frame(frame_bgr, p)
    return learn(memory, view, b if homography is None else boxes_through(b, homography), values, p.learned)


def remember_look(
    memory: DiceMemory,
    frame_bgr: np.ndarray,
    boxes: Sequence[Sequence[float]],
    values: list[int],
    profile: VisionProfile | None = None,
) -> DiceMemory:
    """``memory`` with a checked roll's frame added to the table's look (``dice_memory.learn_look``; ``boxes``: frame
    pixels, each with its value, 0 not a die, as ``remember`` takes them), seen as ``read_dice`` sees the frame
    (with a tray outline, its straight-on view, the boxes carried into it)."""
    from companion.vision.dice_memory import learn_look

    p = profile or DEFAULT_PROFILE
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    view, homography = tray_frame(frame_bgr, p)
    b = b if homography is None or not len(b) else boxes_through(b, homography)
    return learn_look(memory, view, b, values, p.learned)


def to_roll(detections: Detections, source: str = "camera", flag_below: float = FLAG_BELOW) -> Roll:
    """The plain-Python roll a game screen receives; unsure dice are flagged for the player to check: those a
    stage flagged, and those read with less confidence than ``flag_below``."""
    dice = []
    for i in range(len(detections)):
        kind = detections.kinds[i]
        face = detections.faces[i] if kind != PIPS else (int(detections.values[i]) or None)
        conf = float(detections.confidences[i])
        box = tuple(int(v) for v in detections.boxes[i])
        flagged = bool(detections.flagged[i]) or conf < flag_below
        dice.append(DieRead(kind, face, conf, (box[0], box[1], box[2], box[3]), flagged=flagged))
    return Roll(tuple(dice), source)
