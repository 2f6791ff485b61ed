"""The learned dice reader: two tiny networks (ONNX, run on one CPU core by onnxruntime where it is installed, else
by OpenCV's ``dnn``; ``COMPANION_DNN=opencv`` or ``onnxruntime`` picks one).

1. The detector (``dice_centernet.onnx``, CenterNet-style): the frame is shrunk so its longer side is
   ``long_side`` px and padded to a multiple of 16; on a grid 4x coarser it gives one heat map per face value
   (1-6), the log box size and the sub-cell centre offset. Local maxima of the strongest heat map are die-like
   spots. It is asked for weak peaks too (``find_threshold``), so few dice are missed. It reads dice best at
   ``sweet`` px; a frame whose dice come out far bigger (a close-up) or smaller (a wide, sharp photo) is looked at
   again at the scale that suits them (``find_at_the_right_scale``).
2. The face classifiers (``dice_faces_stitched.onnx`` and ``dice_faces.onnx``, two training runs): each spot is
   cut out again from the full-resolution frame (``crop_matrix``: the box grown by ``CROP_CONTEXT``, made square,
   ``CROP`` px, normalised for lighting) and read as "no die" or a face 1-6. The spots the first is unsure of
   (``sure``) are read again by both, each in four views (mirrored and turned). A spot either classifier thinks is
   no die goes; the most likely face of their mean is the value and its probability the confidence. A spot
   called no die whose box is far from the size of the frame's sure dice is read again at that size
   (``reread_odd_sizes``: a white die on a white table is boxed by its pips alone). A reading centred inside a
   surer one's box is the same die read twice and goes (``one_per_die``).
0. Before both: a photo resized to a new aspect ratio (or a slanted camera) stretches every die alike; where the
   first look's finds' pips say so, the whole reading is done on the frame grown back to square dice and mapped
   back (``upright_frame``, :mod:`companion.vision.upright`).

Trained by ``tools/dicetrain/train.py`` and ``train_values.py`` (PyTorch, offline); no torch at run
time. Deterministic.

Here: the two-stage reader and the classifiers; the detector is :mod:`companion.vision.detector`'s, the crops
:mod:`companion.vision.crops`', what runs the networks :mod:`companion.vision.networks`'. The thresholds and sizes
named in ``double quotes`` in lower case are fields of a
:class:`~companion.vision.reader_settings.ReaderSettings` (the shipped values by default), which
``read_dice_learned`` takes and passes down.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from companion.vision import verifier
from companion.vision.crops import (
    CROP,
    CROP_CONTEXT,
    SHRINK_FIRST,
    VIEWS,
    crop_matrix,
    die_crops,
    normalise_crop,
    normalise_crops,
    other_views,
    shrunk_first,
)
from companion.vision.detections import Detections
from companion.vision.detector import (
    BIG_FRAME,
    MEAN,
    MULTIPLE,
    SCALE,
    STRIDE,
    TILE,
    TILE_MARGIN,
    add_missing,
    apart_from,
    decode,
    find_dice,
    load_detector,
    one_per_die,
    outputs_kept,
    oversized,
    prepare,
    resized,
    run_in_tiles,
    scale_for,
    second_look,
    sure_size,
    to_blob,
)
from companion.vision.networks import (
    BACKENDS,
    MODEL_PATH,
    MODEL_PATHS,
    MeanNet,
    ModelLoadError,
    Net,
    OpenCvNet,
    OrtNet,
    backend,
    error_once,
    load_mean,
    load_net,
    onnxruntime,
)
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings
from companion.vision.table_look import TableLook, adapter
from companion.vision.upright import Upright, mapped_back, upright_for

if TYPE_CHECKING:
    from companion.vision.dice_memory import DiceMemory

__all__ = [
    "BACKENDS",
    "CROP",
    "CROP_CONTEXT",
    "DEFAULT_SETTINGS",
    "FACES_PATHS",
    "LAYOUT_PATHS",
    "MEAN",
    "MODEL_PATH",
    "MODEL_PATHS",
    "MULTIPLE",
    "SCALE",
    "SHRINK_FIRST",
    "STRIDE",
    "TILE",
    "TILE_MARGIN",
    "VIEWS",
    "FrameToRead",
    "MeanNet",
    "ModelLoadError",
    "Net",
    "OpenCvNet",
    "OrtNet",
    "ReaderSettings",
    "add_missing",
    "backend",
    "classify_faces",
    "combine",
    "crop_matrix",
    "decode",
    "die_crops",
    "find_at_the_right_scale",
    "find_dice",
    "find_with_memory",
    "flag_small_dice",
    "last_steps",
    "load_detector",
    "load_faces",
    "load_layout_faces",
    "load_mean",
    "load_net",
    "normalise_crop",
    "normalise_crops",
    "one_per_die",
    "onnxruntime",
    "other_views",
    "oversized",
    "prepare",
    "read_candidates",
    "read_dice_learned",
    "read_found",
    "read_upright",
    "remembered_finds",
    "reread_odd_sizes",
    "resized",
    "run_batched",
    "run_in_tiles",
    "scale_for",
    "second_look",
    "second_opinion",
    "shrunk_first",
    "sure_size",
    "to_blob",
    "upright_frame",
    "warm_up",
]

log = logging.getLogger(__name__)

FACES_PATHS = (  # two face classifiers from two training runs (see classify_faces)
    Path(__file__).parent / "models" / "dice_faces_stitched.onnx",  # first: it also knows stitched tray rims
    Path(__file__).parent / "models" / "dice_faces.onnx",
)
FACES_PARTNERS = (  # each face classifier's partner, the mean of the two reads (see load_faces)
    Path(__file__).parent / "models" / "dice_faces_stitched_2.onnx",
    Path(__file__).parent / "models" / "dice_faces_2.onnx",
)
LAYOUT_PATHS = (  # a second opinion (see second_opinion): the pair trained on more dice makers' pip layouts too
    Path(__file__).parent / "models" / "dice_faces_layouts_stitched.onnx",
    Path(__file__).parent / "models" / "dice_faces_layouts.onnx",
)


def load_faces(
    runner: str | None = None,
    look: TableLook | None = None,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> list[Net]:
    """The face classifiers (ONNX, each file loaded once): each the mean of a network of ``FACES_PATHS`` and its
    partner in ``FACES_PARTNERS`` (since 2026-12-06: the same recipe trained 15 min more on all three development
    sets' ``train`` parts; averaged, the pair leaves a fifth fewer mistakes unflagged on photos neither saw and flags
    fewer right dice, docs/dice-reader.md, twelfth session). A partner that is missing is logged once and its
    classifier reads alone (``networks.load_mean``); none are used where ``FACES_PARTNERS`` is empty. ``look``:
    each network adapted to the table's look where it is ready (``table_look``; the look's trial,
    ``dice_memory.try_look``, reads with it whatever the trial says, under ``table_look.forced`` settings)."""
    adapt = adapter(look, settings) if look is not None and look.ready(settings) else None
    return [
        load_mean((path, *FACES_PARTNERS[i : i + 1]), True, runner, adapt=adapt) for i, path in enumerate(FACES_PATHS)
    ]


def load_layout_faces(
    runner: str | None = None, look: TableLook | None = None, settings: ReaderSettings = DEFAULT_SETTINGS
) -> list[Net]:
    """The second-opinion classifiers (``LAYOUT_PATHS``), each loaded once (``look``: as ``load_faces``')."""
    if look is None or not look.ready(settings):
        return [load_net(str(path), True, runner) for path in LAYOUT_PATHS]
    adapt = adapter(look, settings)
    return [adapt(path, load_net(str(path), True, runner), runner) for path in LAYOUT_PATHS]


def look_paths() -> tuple[Path, ...]:
    """Every face classifier the reader may read with (the pair, their partners, the second opinion's): those
    the table's look adapts (``table_look.learn``)."""
    return tuple(dict.fromkeys((*FACES_PATHS, *FACES_PARTNERS, *LAYOUT_PATHS)))


def warm_up() -> None:
    """Load the detector pair and the face classifiers and run each once on a small input, so that the first frame
    read is not slowed by the loading (~50 ms here, several times that on a Pi) or by the runtime's first-run
    set-up. The layout pair (``second_opinion``) stays loaded on first use: most frames never need it, and its two
    sessions cost ~10-15 MB of peak memory."""
    load_detector().run(to_blob(np.zeros((64, 64, 3), np.uint8)))
    blank = np.zeros((1, 3, CROP, CROP), np.float32)
    for net in load_faces():
        net.run(blank)


def classify_faces(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    die_threshold: float | None = None,
    sure: float | None = None,
    nets: list[Net] | None = None,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
    look: TableLook | None = None,
) -> np.ndarray:
    """Per box, the probabilities (N, 7) of no die (column 0) and of each face value 1-6. The first classifier
    reads every crop; the spots it is unsure of are read again, by every classifier, in ``VIEWS`` views each
    (``other_views``), and the classifiers vote: a spot is only as much a die as the least convinced classifier
    says (column 0 is their highest "no die", each classifier's the mean over the views), and the rest is shared
    out among the values as their mean probabilities say. Spots the first classifier is not unsure of keep its
    row: with ``die_threshold``, a spot it already rules out (die probability under it; it would go anyway); with
    ``sure``, a spot it calls a die at least this surely and whose face takes at least this share of it (on the
    photos, a second opinion never changed such a reading). ``nets``: other classifiers (default ``load_faces()``);
    ``settings.crop_batch``: at most this many crops in one run. ``memory``: the table's own dice, whose vote is
    mixed into the classifiers' (``remembered``); ``look``: the table's look the default classifiers are adapted to
    (``load_faces``; default: the memory's)."""
    if not len(boxes):
        return np.zeros((0, 7), np.float32)
    crops = die_crops(frame_bgr, boxes)
    if look is None and memory is not None:
        look = memory.look
    nets = nets or load_faces(look=look, settings=settings)
    batch = settings.crop_batch
    first = run_batched(nets[0], crops, batch).reshape(len(boxes), 7)
    die = 1.0 - first[:, 0]
    rest = np.ones(len(boxes), dtype=bool)
    if die_threshold is not None:
        rest &= die >= die_threshold
    if sure is not None:
        rest &= ~((die >= sure) & (first[:, 1:].max(axis=1) >= sure * np.maximum(die, 1e-9)))
    out = first.copy()
    if rest.any():
        n = int(rest.sum())
        again = np.ascontiguousarray(crops[rest])
        more = other_views(again)
        views = run_batched(nets[0], more, batch).reshape(VIEWS - 1, n, 7)
        each = [np.concatenate([first[rest][None], views]).mean(axis=0)]
        for net in nets[1:]:
            each.append(run_batched(net, np.concatenate([again, more]), batch).reshape(VIEWS, n, 7).mean(axis=0))
        out[rest] = combine(np.stack(each))
    return remembered(frame_bgr, boxes, out, memory, settings)


def run_batched(net: Net, crops: np.ndarray, batch: int = DEFAULT_SETTINGS.crop_batch) -> np.ndarray:
    """A classifier on (N, 3, S, S) crops, at most ``batch`` at a time: its working memory grows with the batch
    (a crowded 1920 px frame's 412 views of unsure spots in one run took ~30 MB more at peak)."""
    if len(crops) <= batch:
        return net.run(crops)
    return np.concatenate([net.run(crops[i : i + batch]) for i in range(0, len(crops), batch)])


def combine(each: np.ndarray) -> np.ndarray:
    """(K, N, 7) probabilities from K classifiers -> (N, 7): highest "no die", mean value shares rescaled."""
    no_die = each[:, :, 0].max(axis=0)
    values = each[:, :, 1:].mean(axis=0)
    values = values / np.maximum(values.sum(axis=1, keepdims=True), 1e-9) * (1.0 - no_die)[:, None]
    return np.concatenate([no_die[:, None], values], axis=1).astype(np.float32)


def find_at_the_right_scale(frame_bgr: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS) -> Detections:
    """The detector's finds (peaks of at least ``find_threshold``) at the scale that suits the frame's dice: first
    at ``long_side``; if the dice come out far from the size it reads best, again at the scale that brings them to
    ``target`` (``second_look``). If nothing sure came out, the dice may be too big to be seen whole (a close-up):
    a quick look at ``coarse_side`` decides, and its finds count only if they are at least ``sweet[0]`` there
    (dice of a usual size are too small to be sure at that scale, so an empty tray costs one small extra pass);
    or too small to be sure: in a big frame, the weak finds' size decides whether to look closer. The weak finds'
    size counts in a big frame even when a few sure ones came out the right size: dice too small to be sure are
    most of the weak finds, and the few sure ones' boxes come out too big (a wide 2x2 view of the felt photos,
    dice ~20 px at the first look: 4 sure finds of 120 dice, measured 33 px). A closer look measures the dice
    again and, if they are still too small, looks closer once more: the detector makes dice far smaller than it
    was trained on come out bigger than they are (10-17 px as 20-29 px), so the first closer look falls short,
    and at the first look finds measuring under ``trust_small`` (a little over ``sweet[0]``) are looked at closer
    (felt dice tiled 3x3, 13 px at the first look, measured 28.5 px). With no sure find at all there, the weak
    finds' size says little (felt dice tiled 4x4, 7-12 px, measured 30-36 px): they are taken as at most
    ``unsure_size`` (a look at least twice as close), and measured again there. The sizes are measured on peaks
    down to ``measure_threshold`` (weaker than ``find_threshold`` since the detector pair: tiny dice are weak
    finds), and what is handed on is the finds of at least ``find_threshold``. All of these are ``settings``'."""
    s = settings
    found = find_at_the_scale(frame_bgr, min(s.find_threshold, s.measure_threshold), s)
    return found[found.confidences >= s.find_threshold] if len(found) else found


def find_at_the_scale(frame_bgr: np.ndarray, weak: float, s: ReaderSettings) -> Detections:
    """``find_at_the_right_scale``'s looks, every one down to peaks of ``weak``. A big frame (``BIG_FRAME`` times
    the first look's input or more) in which the detector pair is sure of nothing at the first look is looked at
    again, every look, by the pair's first network alone: averaged with the second, the peaks of 7-12 px dice come
    out weaker and their size worse (held-out photos tiled 4x4: 82.8 % read by the pair, 86.8 % so; camera-sized
    frames, and big frames with sure dice, read more with the pair: docs/dice-reader.md, twelfth session)."""
    hw = frame_bgr.shape[:2]
    found = find_dice(frame_bgr, weak, s.long_side, s, first_only=False)
    if max(hw) >= BIG_FRAME * s.long_side and sure_size(found, hw, s.long_side, s.sure_find) is None:
        return the_looks(frame_bgr, find_dice(frame_bgr, weak, s.long_side, s, first_only=True), weak, s, True)
    return the_looks(frame_bgr, found, weak, s, False)


def the_looks(frame_bgr: np.ndarray, found: Detections, weak: float, s: ReaderSettings, first_only: bool) -> Detections:
    """The looks after the first one (``found``, at ``long_side``), as ``find_at_the_right_scale`` says, each by
    the detector ``first_only`` picks (``detector.find_dice``)."""
    first_side = s.long_side
    hw = frame_bgr.shape[:2]
    side = second_look(found, hw, first_side, s)
    nothing_sure = sure_size(found, hw, first_side, s.sure_find) is None
    if side is None and nothing_sure:
        coarse = find_dice(frame_bgr, weak, s.coarse_side, s, first_only=first_only)
        size = sure_size(coarse, hw, s.coarse_side, s.sure_find)
        if size is not None and size >= s.sweet[0]:
            side = second_look(coarse, hw, s.coarse_side, s)
            if side is None:
                return add_missing(coarse, found)
    if side is None and max(hw) >= BIG_FRAME * first_side:  # no close-up: a big sharp frame has finer detail
        size = sure_size(found, hw, first_side, weak)
        if size is not None and nothing_sure:  # then the size says little: 7-12 px dice measured 30-36 px
            size = min(size, s.unsure_size)
        side = scale_for(size, hw, first_side, s) if size is not None and size < s.trust_small else None
    if side is None:
        return found
    first = found
    found = find_dice(frame_bgr, weak, side, s, first_only=first_only)
    if side > first_side:  # measured again: tiny dice come out too big at the first look, so it fell short
        size = sure_size(found, hw, side, weak)
        again = first_side if size is None or size >= s.sweet[0] else scale_for(size, hw, side, s)
        if again > side:
            found = find_dice(frame_bgr, weak, again, s, first_only=first_only)
    return add_missing(found, first)  # the closer look adds to the first one's finds, never replaces them


def reread_odd_sizes(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    p: np.ndarray,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Dice in one frame are about the same size. A spot the classifiers call no die (die probability under
    ``die_threshold``) whose box has a side outside ``odd_sides`` times the frame's typical die size (the median
    of the readings at least ``size_sure`` sure; three are needed) is read again in a square box of that size
    about the same centre, and the new reading replaces it (box and probabilities) when it is a die read at
    least ``size_sure`` surely. This finds the dice whose body the detector could not see: a white die on a white
    table is boxed by its pip pattern alone, and a crop around a 3's diagonal looks like no die. Spots read as
    dice are never changed. ``boxes`` (N, 4) float and ``p`` (N, 7) as from ``classify_faces``; the thresholds
    are ``settings``'; returns new arrays."""
    die_threshold, odd_sides = settings.die_threshold, settings.odd_sides
    best = p[:, 1:].max(axis=1) if len(p) else np.zeros(0, np.float32)
    sure = best >= settings.size_sure
    if sure.sum() < 3:
        return boxes, p
    sides = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]], axis=1)
    typical = float(np.median(np.sqrt(np.prod(np.maximum(sides[sure], 1.0), axis=1))))
    rel = sides / typical
    odd = ((1.0 - p[:, 0]) < die_threshold) & ((rel.min(axis=1) < odd_sides[0]) | (rel.max(axis=1) > odd_sides[1]))
    if not odd.any():
        return boxes, p
    centres = (boxes[odd, :2] + boxes[odd, 2:]) / 2
    square = np.concatenate([centres - typical / 2, centres + typical / 2], axis=1).astype(np.float32)
    h, w = frame_bgr.shape[:2]
    square = np.clip(square, 0, [w - 1, h - 1, w - 1, h - 1]).astype(np.float32)
    again = classify_faces(frame_bgr, square, die_threshold, settings.sure, settings=settings, memory=memory)
    take = (again[:, 1:].max(axis=1) >= settings.size_sure) & ((1.0 - again[:, 0]) >= die_threshold)
    if not take.any():
        return boxes, p
    idx = np.flatnonzero(odd)[take]
    boxes, p = boxes.copy(), p.copy()
    boxes[idx], p[idx] = square[take], again[take]
    return boxes, p


def second_opinion(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    p: np.ndarray,
    peaks: np.ndarray,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
) -> np.ndarray:
    """Dice makers lay out pips differently: many dice have a big 1 (Chinese dice a big red 1 and red 4s), and
    the face classifiers, trained on the photos' dice, called every such 1 "no die" though the detector had found
    it. A spot the classifiers rule out (die probability under ``die_threshold``) that the detector found at least
    as surely as it reports a die on its own (``min_confidence``) is read again, in ``VIEWS`` views, by the
    classifiers trained on other pip layouts too (``LAYOUT_PATHS``; ``train_values --styles``); their reading
    replaces the first when they read one face at least ``die_threshold`` surely. (Used as the only
    classifiers, that pair read 0.4 points fewer held-out felt-tray dice and reported five more false ones; as a
    second opinion, where the first pair has already said no, it only adds dice where that pair saw none.) ``p``
    (N, 7) as from ``classify_faces``, ``peaks`` (N,) the detector's; the thresholds are ``settings``'; returns
    new probabilities. ``memory``: as ``classify_faces``'."""
    die_threshold = settings.die_threshold
    ask = ((1.0 - p[:, 0]) < die_threshold) & (peaks >= settings.min_confidence)
    if not ask.any():
        return p
    look = memory.look if memory is not None else None
    nets = load_layout_faces(look=look, settings=settings)
    again = classify_faces(frame_bgr, boxes[ask], nets=nets, settings=settings, memory=memory)
    take = again[:, 1:].max(axis=1) >= die_threshold
    if not take.any():
        return p
    p = p.copy()
    p[np.flatnonzero(ask)[take]] = again[take]
    return p


def remembered_finds(
    frame_bgr: np.ndarray,
    found: Detections,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
) -> Detections:
    """``found`` (``find_at_the_right_scale``'s finds) and the dice among the detector's weaker peaks that the
    table's remembered dice vouch for. Dice of a kind the detector never learnt (the felt-trays fold's marbled dice)
    give peaks under ``find_threshold``; at that strength a dotted cloth gives thousands, but where the player has
    checked rolls of these very dice, a weak find (peaks down to ``memory_find``, none of ``found``'s dice) is
    kept when a remembered view is at least ``memory_find_near`` alike, at least ``memory_find_dice`` of the
    ``memory_k`` most alike views are dice (not spots the player removed) and the verifier gives it at least
    ``memory_find_verify``. Each one kept is flagged for the player to check. ``found`` as it was without a
    memory of ``memory_min`` views, with ``memory_find`` not under ``find_threshold``, without the verifier
    (``settings.verify`` off), or when the features network or the verifier cannot be loaded (logged once). On the
    felt-trays fold with 20 checked photos: +4.1 to +4.6 points for 3 to 7 more false dice in 1,100
    (docs/dice-reader.md, twentieth session)."""
    if memory is None or len(memory) < settings.memory_min or settings.memory_find >= settings.find_threshold:
        return found
    if not settings.verify:  # no die on the memory's word alone
        return found
    weak = find_at_the_right_scale(frame_bgr, replace(settings, find_threshold=settings.memory_find))
    weak = weak[apart_from(found, weak)]  # only what the first finds do not hold
    if not len(weak):
        return found
    from companion.vision import dice_memory as memory_module

    boxes = weak.boxes.astype(np.float32)
    try:
        feats = memory_module.features(frame_bgr, boxes, settings)
    except (FileNotFoundError, ModelLoadError) as err:
        error_once(log, err, f"{err}; dice are read without the table's remembered dice")
        return found
    if feats.shape[1:] != memory.features.shape[1:]:
        return found
    votes, nearest = memory.vote(feats, settings)
    keep = (nearest >= settings.memory_find_near) & (1.0 - votes[:, 0] >= settings.memory_find_dice - 1e-6)
    if keep.any():
        sure = verifier.die_probability(frame_bgr, boxes[keep], settings=settings)
        if sure is None:  # no verifier to ask (logged once): no die on the memory's word alone
            return found
        keep[np.flatnonzero(keep)] = sure >= settings.memory_find_verify
    if not keep.any():
        return found
    extra = weak[keep]
    extra = extra.replace(flagged=np.ones(len(extra), bool))  # found only for the memory: the player is asked
    return Detections.merge([found, extra]).sorted_left_to_right() if len(found) else extra  # apart already


def read_candidates(
    frame_bgr: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS, memory: DiceMemory | None = None
) -> Detections:
    """The dice the detector and the face classifiers agree on, before the verifier and ``one_per_die``: the
    detector proposes die-like spots (a low threshold, ``find_threshold``, so few dice are missed), then the face
    classifiers read each spot again from a full-resolution crop; a spot they think is no die (probability of a
    die under ``die_threshold``, see ``classify_faces``) goes. Value = the most likely face, confidence = its
    probability. The thresholds are ``settings``'; ``memory``: the table's own dice (``read_found``)."""
    return read_found(frame_bgr, find_with_memory(frame_bgr, settings, memory), settings, memory)


def find_with_memory(
    frame_bgr: np.ndarray,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
    found: Detections | None = None,
) -> Detections:
    """``find_at_the_right_scale``'s finds (``found`` where they are known: ``upright_frame``'s first look) and the
    weak ones ``memory`` vouches for (``remembered_finds``), the detector run once for both
    (``detector.outputs_kept``)."""
    with outputs_kept():
        first = find_at_the_right_scale(frame_bgr, settings) if found is None else found
        return remembered_finds(frame_bgr, first, settings, memory)


class FrameToRead(NamedTuple):
    """What ``upright_frame`` says to read: the frame (maybe grown), its settings, the ``Upright`` that maps its
    readings back (None: the frame itself) and its first look's finds where it is the frame itself (None where
    it was grown: not looked at yet)."""

    frame: np.ndarray
    settings: ReaderSettings
    upright: Upright | None
    found: Detections | None


def upright_frame(frame_bgr: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS) -> FrameToRead:
    """The frame the reader reads and its settings: the frame itself, or where the first look's finds' pips say it
    is stretched (``upright.upright_for``), the frame grown back to square dice read with ``Upright.settings``,
    and the ``Upright`` that maps its readings back to the frame's pixels (``upright.mapped_back``). Every step
    after it assumes square dice (crops made square by the box, a die's size by its longer side,
    ``verifier.at_the_frames_size``' square boxes), so the whole reading is done there. Where the frame is not
    grown its first look's finds are handed on (``find_with_memory``'s ``found``), so nothing is looked at twice."""
    found = find_at_the_right_scale(frame_bgr, settings)
    up = upright_for(frame_bgr, found.boxes, settings)
    if up is None:
        return FrameToRead(frame_bgr, settings, None, found)
    return FrameToRead(up.frame(frame_bgr), up.settings(settings), up, None)


def read_upright(
    frame_bgr: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS, memory: DiceMemory | None = None
) -> tuple[FrameToRead, Detections, Detections]:
    """``read_candidates`` on the frame ``upright_frame`` says to read: that frame (with its settings and
    ``Upright``), its finds (``find_with_memory``) and its candidates, both in its pixels. The detector's
    outputs are kept for all of it (``detector.outputs_kept``: the weak finds' look decodes the first look's
    again). ``read_dice_learned`` reads on from here, and so do the training tools that score its steps."""
    with outputs_kept():
        to_read = upright_frame(frame_bgr, settings)
        found = find_with_memory(to_read.frame, to_read.settings, memory, to_read.found)
        return to_read, found, read_found(to_read.frame, found, to_read.settings, memory)


def read_found(
    frame_bgr: np.ndarray,
    found: Detections,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
) -> Detections:
    """``read_candidates`` from the detector's finds ``found`` (``find_at_the_right_scale``'s): the face
    classifiers' reading of each (every reading, a second look's too, with the vote of ``memory``, the table's own
    dice the player checked, mixed in: ``remembered``; the classifiers adapted to the table's look where the memory
    carries a ready one, ``table_look``), the spots they call no die dropped. A spot the classifiers called no die
    that the memory keeps is flagged: the classifiers could not read it, and the player is asked; so is one whose
    reading the look changed (``changed_by_look``)."""
    if not len(found):
        return found
    die_threshold = settings.die_threshold
    boxes = found.boxes.astype(np.float32)
    look = memory.look if memory is not None else None  # the classifiers adapted to the table's look read both
    plain = classify_faces(frame_bgr, boxes, die_threshold, settings.sure, settings=settings, look=look)
    p = remembered(frame_bgr, boxes, plain, memory, settings)
    # asked of the player: a spot the classifiers called no die that the memory keeps, and one the look changed
    ask = ((1.0 - plain[:, 0]) < die_threshold) & ((1.0 - p[:, 0]) >= die_threshold)
    if look is not None and look.ready(settings):
        dice = (1.0 - plain[:, 0]) >= die_threshold  # only a spot the look reads as a die can be changed to one
        if dice.any():
            # the first pair as trained, one view (sure=0: no spot read again): the flag costs one small run
            bare = classify_faces(frame_bgr, boxes[dice], sure=0.0, nets=load_faces()[:1], settings=settings)
            ask[dice] |= changed_by_look(bare, plain[dice], die_threshold)
    boxes, p = reread_odd_sizes(frame_bgr, boxes, p, settings, memory)
    p = second_opinion(frame_bgr, boxes, p, found.confidences, settings, memory)
    values = p[:, 1:].argmax(axis=1) + 1
    conf = p[np.arange(len(p)), values]
    keep = (1.0 - p[:, 0]) >= die_threshold
    return found.replace(
        boxes=np.round(boxes).astype(found.boxes.dtype),
        values=values.astype(np.int32),
        confidences=conf.astype(np.float32),
        faces=[],
        flagged=found.flagged | ask,
    )[keep]


def changed_by_look(bare: np.ndarray, adapted: np.ndarray, die_threshold: float) -> np.ndarray:
    """The spots whose reading the table's look changed (``bare``: the classifiers as trained, ``adapted``: as
    adapted; (N, 7) each): a die they called no die, or another face. The look reads more of a new kind of dice
    right, but also makes the classifiers surer of some wrong faces; these are flagged for the player to check
    (docs/dice-reader.md, eighteenth session)."""
    was = (1.0 - bare[:, 0]) >= die_threshold
    now = (1.0 - adapted[:, 0]) >= die_threshold
    other_face = bare[:, 1:].argmax(axis=1) != adapted[:, 1:].argmax(axis=1)
    return np.asarray(now & (~was | other_face), bool)


def remembered(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    p: np.ndarray,
    memory: DiceMemory | None,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> np.ndarray:
    """The classifiers' reading ``p`` of ``boxes`` with ``memory``'s vote (``DiceMemory.adjust``); ``p`` as it
    was without a memory of at least ``settings.memory_min`` views, or when the features network cannot be
    loaded (logged once)."""
    if memory is None or len(memory) < settings.memory_min or not len(boxes):
        return p
    from companion.vision import dice_memory as memory_module

    try:
        feats = memory_module.features(frame_bgr, boxes, settings)
    except (FileNotFoundError, ModelLoadError) as err:
        error_once(log, err, f"{err}; dice are read without the table's remembered dice")
        return p
    return memory.adjust(p, feats, settings)


def read_dice_learned(
    frame_bgr: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS, memory: DiceMemory | None = None
) -> Detections:
    """Find every die in a BGR frame and read its top face (``read_candidates``), drop what the die verifier
    gives under ``settings.verify_threshold`` of being a die (``verifier.verify``; none when ``settings.verify``
    is False), and keep one reading per die (``one_per_die``). Boxes in the frame's pixels, sorted left to right.
    ``settings``: the reader's thresholds (:class:`ReaderSettings`; the shipped ones by default); ``memory``: the
    table's own dice, remembered from the player's checked rolls (``read_found``)."""
    (img, s, up, _), _, read = read_upright(frame_bgr, settings, memory)
    if s.verify and len(read):
        read = verifier.verify(img, read, s)
    return mapped_back(up, last_steps(read, s), frame_bgr.shape[:2])


def last_steps(read: Detections, settings: ReaderSettings = DEFAULT_SETTINGS) -> Detections:
    """What every reading ends with, after the verifier: one reading per die (``one_per_die``), what the verifier
    and the classifiers both doubt dropped (``verifier.drop_doubtful``), the dice the player should check flagged
    (``flag_small_dice``), left to right. (The training tools score verifier thresholds on one set of candidates
    and end each reading here, as the reader does.)"""
    kept = verifier.drop_doubtful(one_per_die(read, settings), settings)
    return flag_small_dice(kept, settings).sorted_left_to_right()


def flag_small_dice(det: Detections, settings: ReaderSettings = DEFAULT_SETTINGS) -> Detections:
    """Flag (for the player to check) every pip die whose box's longer side is under ``settings.flag_small`` of
    the median side of the frame's pip dice, when there are at least ``settings.flag_small_count`` of them: dice
    on one table are about one size, and on the validation photos such a die was most often a misreading (one pip
    of a bigger die read as a 1, a far die). Nothing is dropped."""
    pips = det.pip_dice
    if int(pips.sum()) < settings.flag_small_count:
        return det
    sides = det.long_sides.astype(np.float32)
    small = pips & (sides < settings.flag_small * float(np.median(sides[pips])))
    if not small.any():
        return det
    return det.replace(flagged=det.flagged | small)
