"""The die verifier: is this candidate a die's top face? (issue #20)

The detector proposes die-like spots and the face classifiers read each one, but both learned from two photo sets
and plain renders: a round hole in a table, a dust speck, a button, a printed or woven pattern or a toy brick with
studs can look like a sure die to them. The verifier (``MODEL_PATHS``: two small CNNs, ``models/dice_verifier.onnx``
and ``models/dice_verifier_2.onnx``, trained by ``tools/dicetrain/train_verifier.py`` by one command with another
seed, on hard negatives of every such kind and on dice of every look) sees each candidate with its surroundings,
the box grown ``CONTEXT`` times into a ``CROP`` px square, and gives the probability that it is a die: the mean of
the two networks' (two runs of one recipe keep different things that are not dice on a table neither saw, and
their mean keeps fewer of them than either at the same share of real dice; docs/dice-reader.md, "2026-12-05,
eighth session"). A candidate under ``verify_threshold`` (a
:class:`~companion.vision.reader_settings.ReaderSettings` field, as the verifier's other thresholds) is dropped,
whatever its value confidence.

The network runs as the other dice networks do (``learned.load_net``: onnxruntime, else OpenCV's ``dnn``).
Should a file be missing (an install without it), the other one decides alone; with neither, nothing is dropped;
either way one error is logged.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings

log = logging.getLogger(__name__)

MODEL_PATHS = (
    Path(__file__).parent / "models" / "dice_verifier.onnx",
    Path(__file__).parent / "models" / "dice_verifier_2.onnx",
)
MODEL_PATH = MODEL_PATHS[0]  # the first verifier (the training tools' default output)
CROP = 48  # side of the square crop the verifier reads
CONTEXT = 2.25  # the crop covers the candidate box grown this much (the die and what lies around it)


def crops(frame_bgr: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The verifier's input for each box: (N, 3, CROP, CROP) float32, each crop normalised for lighting."""
    from companion.vision.learned import crop_matrix, normalise_crops, shrunk_first

    if not len(boxes):
        return np.zeros((0, 3, CROP, CROP), np.float32)
    img = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    raw = np.empty((len(boxes), CROP, CROP, 3), np.uint8)
    for i, box in enumerate(np.asarray(boxes, np.float64)):
        side = max(box[2] - box[0], box[3] - box[1]) * CONTEXT
        m = crop_matrix(box, size=CROP, context=CONTEXT)
        src = img
        if side > 4 * CROP:
            src, m = shrunk_first(img, m, CROP, 2 * CROP / side)
        interp = cv2.INTER_AREA if side > 2 * CROP else cv2.INTER_LINEAR
        raw[i] = cv2.warpAffine(src, m, (CROP, CROP), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    out: np.ndarray = normalise_crops(raw)
    return out


Models = Path | Sequence[Path] | None  # one verifier's file, several (their mean decides), or None: ``MODEL_PATHS``


def model_files(path: Models = None) -> tuple[Path, ...]:
    """The verifier files ``path`` names: ``MODEL_PATHS`` for None, one file, or each of a sequence."""
    if path is None:
        return MODEL_PATHS
    return (path,) if isinstance(path, Path) else tuple(path)


def die_probability(
    frame_bgr: np.ndarray, boxes: np.ndarray, path: Models = None, settings: ReaderSettings = DEFAULT_SETTINGS
) -> np.ndarray | None:
    """Per box, the probability that it is a die's top face: the mean of the verifiers' (``path``: other model
    files than ``MODEL_PATHS``, see ``model_files``; at most ``settings.crop_batch`` crops in one run). A file
    that cannot be loaded is left out (said once in the log, ``networks.load_mean``); None when none can be."""
    from companion.vision.learned import ModelLoadError, load_mean, run_batched
    from companion.vision.networks import error_once

    try:
        net = load_mean(model_files(path), True)
    except (FileNotFoundError, ModelLoadError) as err:
        error_once(log, err, f"{err}; dice are read without the verifier")
        return None
    if not len(boxes):
        return np.zeros(0, np.float32)
    return np.asarray(run_batched(net, crops(frame_bgr, boxes), settings.crop_batch)[:, 1], np.float32)


def verify(
    frame_bgr: np.ndarray, det: Detections, settings: ReaderSettings = DEFAULT_SETTINGS, path: Models = None
) -> Detections:
    """The dice the verifier takes for dice (probability at least ``settings.verify_threshold``), each with its
    probability in ``data["die"]`` and flagged when it is under ``verify_unsure`` (``kept``: or a sure reading
    kept against it, where ``verify_overrule`` asks); all of them, as they were, when no verifier can be loaded.
    (Whether to verify at all, ``settings.verify``, is the caller's to decide.)"""
    if not len(det):
        return det
    p = die_probability(frame_bgr, det.boxes, path, settings)
    if p is None:
        return det
    boxes, p = at_the_frames_size(frame_bgr, det.boxes, p, settings, path)
    data = dict(det.data)
    data["die"] = p
    # kept, but the player is asked to look: it may be no die (and one kept against the verifier, kept())
    flagged = det.flagged | (p < max(settings.verify_unsure, settings.verify_threshold))
    return det.replace(boxes=boxes, data=data, flagged=flagged)[kept(det, p, settings)]


def kept(det: Detections, p: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS) -> np.ndarray:
    """Which candidates the verifier keeps: a die probability ``p`` of at least ``settings.verify_threshold``, or,
    with ``verify_overrule`` at 1 or under (off as shipped), a pip die other than a 1 that the classifiers read at
    least that surely and the verifier gives at least ``overrule_die`` (a kind of die the verifier never saw; it
    is flagged). Measured, not shipped: on the grey-mixed fold it keeps 2-4 points of real dice and no false one,
    on cluttered tables and renders it keeps buttons and prints read as dice (docs/dice-reader.md, fourteenth
    session)."""
    keep: np.ndarray = p >= settings.verify_threshold
    if settings.verify_overrule <= 1.0:
        sure = det.pip_dice & (det.values != 1) & (det.confidences >= settings.verify_overrule)
        keep = keep | (sure & (p >= settings.overrule_die))
    return keep


def at_the_frames_size(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    p: np.ndarray,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    path: Models = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Dice on one table are about the same size. A candidate the verifier rejects (under
    ``settings.verify_threshold``) whose box is far from the frame's typical die (a side under ``verify_odd[0]``
    or over ``verify_odd[1]`` times the median of the candidates it is at least ``verify_size_sure`` sure of,
    three needed) is looked at again in a square box of the typical size about the same centre: a 1 boxed by its
    lone pip, in a block of touching dice, looks like a pip and not like a die. Taken (box and probability) when
    the verifier then keeps it. Returns new arrays."""
    threshold, odd_sides = settings.verify_threshold, settings.verify_odd
    sure = p >= settings.verify_size_sure
    if sure.sum() < 3:
        return boxes, p
    sides = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]], axis=1).astype(np.float64)
    typical = float(np.median(np.sqrt(np.prod(np.maximum(sides[sure], 1.0), axis=1))))
    rel = sides / typical
    odd = (p < threshold) & ((rel.min(axis=1) < odd_sides[0]) | (rel.max(axis=1) > odd_sides[1]))
    if not odd.any():
        return boxes, p
    centres = (boxes[odd, :2] + boxes[odd, 2:]) / 2
    square = np.concatenate([centres - typical / 2, centres + typical / 2], axis=1)
    again = die_probability(frame_bgr, square, path, settings)
    if again is None:
        return boxes, p
    take = again >= threshold
    idx = np.flatnonzero(odd)[take]
    boxes, p = boxes.copy(), p.copy()
    boxes[idx] = np.round(square[take]).astype(boxes.dtype)
    p[idx] = again[take]
    return boxes, p


def drop_doubtful(det: Detections, settings: ReaderSettings = DEFAULT_SETTINGS) -> Detections:
    """What the verifier and the classifiers doubt together goes (pip dice other than 1s that the verifier has
    looked at, its probability in ``data["die"]``; nothing is dropped without it):
    - a die read under ``settings.doubt_confidence`` whose die probability is under ``doubt_die``: the verifier
      keeps it (``verify_threshold``) but neither is sure of it;
    - a die that is not sure (die probability under ``verify_unsure`` or confidence under ``drop_small_sure``)
      whose box's longer side is under ``drop_small`` of the median of the frame's sure dice, when there are at
      least ``flag_small_count`` of those: dice on one table are one size, and such a box is a speck of cloth or
      carpet, a stud or one pip of a die.
    On the development photos nearly every such candidate was no die, and the player had been asked to check it
    anyway (docs/dice-reader.md, "2026-12-05, sixth session"). A 1 is left to be flagged: one pip on a burnt-out
    face, or a 1 boxed by its pip (as the webcam set labels them), looks like a speck to both."""
    die = det.data.get("die")
    if die is None or not len(det):
        return det
    pips = det.pip_dice
    judged = pips & (det.values != 1)  # a 1 is one pip: burnt out or boxed by its pip it looks like a speck
    conf = det.confidences
    doubted = judged & (conf < settings.doubt_confidence) & (die < settings.doubt_die)
    sure = pips & (die >= settings.verify_unsure) & (conf >= settings.drop_small_sure)
    if int(sure.sum()) >= settings.flag_small_count:
        sides = det.long_sides
        doubted |= judged & ~sure & (sides < settings.drop_small * float(np.median(sides[sure])))
    return det[~doubted] if doubted.any() else det
