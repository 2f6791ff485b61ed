"""The learned reader's detector (``dice_centernet.onnx`` and ``dice_centernet_2.onnx``, CenterNet-style, the
mean of the two, ``load_detector``): the frame scaled and normalised for
the network (``prepare``), run whole or in tiles, its heat-map peaks decoded into boxes (``decode``), the scale
that suits the frame's dice (``second_look``), and the same die found twice kept once (``one_per_die``,
``add_missing``). See :mod:`companion.vision.learned` for how the reader uses it; its thresholds are a
:class:`~companion.vision.reader_settings.ReaderSettings`'."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.networks import MODEL_PATHS, Net, load_mean
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings

TILE, TILE_MARGIN = 512, 96  # a bigger detector input is run in tiles this big, overlapping by twice the margin
STRIDE = 4  # output grid cell in network-input pixels
MULTIPLE = 16  # input sides are padded to a multiple of this
MEAN, SCALE = 128.0, 1.0 / 64.0  # input normalisation: (pixel - MEAN) * SCALE
BIG_FRAME = 1.5  # a frame at least this many times the first look's input has finer detail to show (second_look)

# the network's outputs kept while one frame is looked at twice (``outputs_kept``): by frame size, input size and
# network
_KEPT: ContextVar[dict[tuple[tuple[int, ...], tuple[int, ...], bool], np.ndarray] | None] = ContextVar(
    "detector_outputs", default=None
)


@contextmanager
def outputs_kept() -> Iterator[None]:
    """Within it, ``find_dice`` runs the detector once per input size (and network): a frame looked at again with
    other thresholds (``learned.remembered_finds``' weak peaks, the reading after ``learned.upright_frame``'s
    first look) only decodes the outputs again. For one frame only (and the frame grown from it, which has
    another size): the outputs are kept by the frame's and the input's size, not by pixels. One within another is
    the outer one."""
    if _KEPT.get() is not None:  # within another: one frame's reading, its outputs kept already
        yield
        return
    token = _KEPT.set({})
    try:
        yield
    finally:
        _KEPT.reset(token)


def load_detector(first_only: bool = False) -> Net:
    """The detector: the mean of the networks of ``MODEL_PATHS`` (``MeanNet``; two since 2026-12-06: averaged,
    they read more dice of kinds neither saw than either alone, docs/dice-reader.md). A file of the pair that is
    missing is logged once and the other reads alone; with none there, ``load_net``'s ``FileNotFoundError`` (the
    classical reader then stands in, ``pipeline.read_faces_learned``). ``first_only``: the first network there
    alone (tiny dice in a big frame, ``learned.find_at_the_scale``). See ``networks.load_mean``."""
    return load_mean(MODEL_PATHS, first_only=first_only)


def resized(frame_bgr: np.ndarray, long_side: int = DEFAULT_SETTINGS.long_side) -> tuple[np.ndarray, float]:
    """The frame scaled to the network input's size (BGR uint8, sides padded to a multiple of ``MULTIPLE``) and
    the scale from frame pixels to input pixels."""
    img = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    h, w = img.shape[:2]
    f = long_side / max(h, w)
    nw, nh = max(1, round(w * f)), max(1, round(h * f))
    # area averaging only when shrinking a lot (it is several times slower than linear at mild ratios)
    small = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if f < 0.5 else cv2.INTER_LINEAR)
    ph, pw = -nh % MULTIPLE, -nw % MULTIPLE
    if ph or pw:
        small = cv2.copyMakeBorder(small, 0, ph, 0, pw, cv2.BORDER_REPLICATE)
    return small, f


def to_blob(small: np.ndarray) -> np.ndarray:
    """A BGR uint8 image -> the network input (1, 3, H, W) float32: (pixel - MEAN) * SCALE, channels first (a
    quarter of the time cv2.dnn.blobFromImage takes for the same numbers)."""
    blob = np.empty((1, 3, *small.shape[:2]), np.float32)
    for c, channel in enumerate(cv2.split(small)):
        blob[0, c] = channel
    blob -= MEAN
    blob *= SCALE
    return blob


def prepare(frame_bgr: np.ndarray, long_side: int = DEFAULT_SETTINGS.long_side) -> tuple[np.ndarray, float]:
    """The network input (1, 3, H, W) float32 and the scale from frame pixels to input pixels."""
    small, f = resized(frame_bgr, long_side)
    return to_blob(small), f


def decode(
    out: np.ndarray,
    scale: float,
    min_confidence: float | None = None,
    stride: int = STRIDE,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> Detections:
    """Network output (1, 10, h, w) -> dice in frame pixels: peaks of the strongest value map (3x3 local maxima
    of at least ``min_confidence``, default ``settings.min_confidence``; at most ``peak_limit``, then a weaker
    peak inside a stronger die's box goes, ``strongest_apart``), value = the map that peaks, box from size and
    offset."""
    if min_confidence is None:
        min_confidence = settings.min_confidence
    heat, wh, off = out[0, :6], out[0, 6:8], out[0, 8:10]
    top = heat.max(axis=0)
    peaks = (top == cv2.dilate(top, np.ones((3, 3), np.uint8))) & (top >= min_confidence)
    ys, xs = np.nonzero(peaks)
    if not len(ys):
        return Detections.empty()
    conf = top[ys, xs]
    order = np.argsort(-conf, kind="stable")[: peak_limit(top.shape, stride, settings)]  # a dotted cloth: thousands
    ys, xs, conf = ys[order], xs[order], conf[order]
    values = heat[:, ys, xs].argmax(axis=0) + 1
    cx = (xs + off[0, ys, xs]) * stride / scale
    cy = (ys + off[1, ys, xs]) * stride / scale
    bw = np.exp(np.clip(wh[0, ys, xs], -2, 6)) * stride / scale
    bh = np.exp(np.clip(wh[1, ys, xs], -2, 6)) * stride / scale
    big = oversized(np.maximum(bw, bh), conf, settings)
    k = strongest_apart(cx, cy, bw, bh, big)
    boxes = np.stack([cx[k] - bw[k] / 2, cy[k] - bh[k] / 2, cx[k] + bw[k] / 2, cy[k] + bh[k] / 2], axis=1)
    return Detections.from_lists(np.round(boxes), values[k].tolist(), conf[k].tolist())


PEAKS_AREA = 512 * 512  # settings.max_peaks is per this much network input (px²)


def peak_limit(grid: tuple[int, ...], stride: int = STRIDE, settings: ReaderSettings = DEFAULT_SETTINGS) -> int:
    """How many peaks one look takes: ``settings.max_peaks`` for a network input of up to 512x512, more in
    proportion for a bigger one (a 1280 px look at a wide sharp frame holds hundreds of small dice, each with a
    few peaks about it: capped at 400 it lost a quarter of them)."""
    area = float(np.prod(grid[-2:])) * stride * stride
    return int(settings.max_peaks * max(1.0, area / PEAKS_AREA))


def strongest_apart(cx: np.ndarray, cy: np.ndarray, bw: np.ndarray, bh: np.ndarray, big: np.ndarray) -> np.ndarray:
    """Indices of the peaks kept, strongest first (the arrays are in that order): a peak whose centre lies within
    0.4 of the larger box's side of a die already kept (both ways the same) goes, unless that die is ``big``
    (``oversized``). Compared with the kept dice only, so memory grows with the peaks, not with their square."""
    n = len(cx)
    kx, ky, kw, kh = (np.empty(n, np.float64) for _ in range(4))  # the kept dice that suppress (not big)
    m = 0
    keep: list[int] = []
    for i in range(n):
        if (
            m
            and (
                (np.abs(cx[i] - kx[:m]) < 0.4 * np.maximum(bw[i], kw[:m]))
                & (np.abs(cy[i] - ky[:m]) < 0.4 * np.maximum(bh[i], kh[:m]))
            ).any()
        ):
            continue
        keep.append(i)
        if not big[i]:
            kx[m], ky[m], kw[m], kh[m] = cx[i], cy[i], bw[i], bh[i]
            m += 1
    return np.asarray(keep, np.intp)


def oversized(sides: np.ndarray, confidences: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS) -> np.ndarray:
    """Which boxes are far bigger than the frame's other dice (a side over ``settings.oversized`` x the median
    side of the sure ones, ``sure_find``, with at least ``oversized_count`` of those): touching dice boxed as one
    giant die. Such a box must not delete the dice inside it."""
    sides = np.asarray(sides, np.float64)
    sure_sides = sides[np.asarray(confidences) >= settings.sure_find]
    if len(sure_sides) < settings.oversized_count:
        return np.zeros(len(sides), bool)
    return np.asarray(sides > settings.oversized * float(np.median(sure_sides)))


def run_in_tiles(net: Net, small: np.ndarray, tile: int = TILE, margin: int = TILE_MARGIN) -> np.ndarray:
    """The detector's output for an input image (``resized``), a big one run on tiles of at most ``tile`` px a
    side, each made into the network's input only when its turn comes: each tile's core (the tile less ``margin``
    px on each inner side) is copied into the whole output. Memory is what one tile needs:
    `companion dice read` of a 1920 px frame looked at 1280 px took 265 MB at peak in one piece (target: 200 MB),
    176-189 MB in 512 px tiles (768 px tiles: 205-231 MB; 161-170 MB once the classifiers read in batches too).
    The margin keeps the network's view of every core cell as in one piece (heat maps within 0.001; see the
    test); the overlap costs ~1.5x the time of such a look."""
    h, w = small.shape[:2]
    if h * w <= tile * tile:
        return net.run(to_blob(small))
    core, s = tile - 2 * margin, STRIDE
    out: np.ndarray | None = None
    for y0 in range(0, h, core):
        for x0 in range(0, w, core):
            y1, x1 = min(h, y0 + core), min(w, x0 + core)
            ty0, tx0, ty1, tx1 = max(0, y0 - margin), max(0, x0 - margin), min(h, y1 + margin), min(w, x1 + margin)
            part = net.run(to_blob(small[ty0:ty1, tx0:tx1]))
            if out is None:
                out = np.zeros((1, part.shape[1], h // s, w // s), np.float32)
            out[:, :, y0 // s : y1 // s, x0 // s : x1 // s] = part[
                :, :, (y0 - ty0) // s : (y1 - ty0) // s, (x0 - tx0) // s : (x1 - tx0) // s
            ]
    assert out is not None
    return out


def find_dice(
    frame_bgr: np.ndarray,
    min_confidence: float | None = None,
    long_side: int | None = None,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    first_only: bool = False,
) -> Detections:
    """The detector alone: every die-like spot in a BGR frame with its value guess and peak height (peaks of at
    least ``min_confidence``, default ``settings.min_confidence``); boxes in the frame's pixels, sorted left to
    right. ``long_side``: the frame's longer side at the network's input (default ``settings.long_side``; an
    input bigger than ``TILE`` x ``TILE`` is run in tiles, ``run_in_tiles``). ``first_only``: the pair's first
    network alone (``load_detector``)."""
    small, f = resized(frame_bgr, settings.long_side if long_side is None else long_side)
    kept, key = _KEPT.get(), (frame_bgr.shape, small.shape, first_only)
    out = kept.get(key) if kept is not None else None
    if out is None:
        out = run_in_tiles(load_detector(first_only), small)
        if kept is not None:
            kept[key] = out
    det = decode(out, f, min_confidence, settings=settings)
    if len(det):
        h, w = frame_bgr.shape[:2]
        det = det.replace(boxes=np.clip(det.boxes, 0, [w - 1, h - 1, w - 1, h - 1]).astype(np.int32))
    return det.sorted_left_to_right()


def sure_size(found: Detections, frame_hw: tuple[int, int], long_side: int, at_least: float) -> float | None:
    """The median size (longer box side, px at the network input) of the detector's sure finds (peaks of at least
    ``at_least``); None without any."""
    sure = found[found.confidences >= at_least] if len(found) else found
    if not len(sure):
        return None
    size = np.median(sure.long_sides)
    return float(size) * long_side / max(frame_hw)


def scale_for(
    size: float, frame_hw: tuple[int, int], long_side: int, settings: ReaderSettings = DEFAULT_SETTINGS
) -> int:
    """The network input's longer side at which dice now ``size`` px at an input of ``long_side`` come out
    ``settings.target`` px (a multiple of ``MULTIPLE``, within ``min_side``..``max_side``, never over the frame's
    own: blowing a frame up shows nothing new)."""
    low = settings.min_side
    top = max(low, min(settings.max_side, max(frame_hw)))
    return int(np.clip(round(long_side * settings.target / size / MULTIPLE) * MULTIPLE, low, top))


def second_look(
    found: Detections,
    frame_hw: tuple[int, int],
    long_side: int | None = None,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> int | None:
    """The network input size (longer side) for a second look at a frame whose dice came out much bigger or
    smaller than the detector reads best (``settings.sweet``, judged by the median size of its sure finds,
    ``sure_find``), such that they come out ``target`` px; None when the first look is the right one (or found no
    sure die, or the frame is too small to show more). ``long_side``: the first look's (default
    ``settings.long_side``)."""
    if long_side is None:
        long_side = settings.long_side
    size = sure_size(found, frame_hw, long_side, settings.sure_find)
    if size is None or settings.sweet[0] <= size <= settings.sweet[1]:
        return None
    side = scale_for(size, frame_hw, long_side, settings)
    if side > long_side and max(frame_hw) < BIG_FRAME * long_side:
        return None  # a frame hardly bigger than the first look's input has nothing finer to show
    return None if side == long_side else side


def centres_in(centres: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(N, M) bool: whether centre i (``centres`` (N, 2), x y) lies in box j (``boxes`` (M, 4), x0 y0 x1 y1; edges
    included)."""
    c, b = np.asarray(centres).reshape(-1, 2), np.asarray(boxes).reshape(-1, 4)
    return np.asarray(
        (b[None, :, 0] <= c[:, None, 0])
        & (c[:, None, 0] <= b[None, :, 2])
        & (b[None, :, 1] <= c[:, None, 1])
        & (c[:, None, 1] <= b[None, :, 3])
    )


def one_per_die(det: Detections, settings: ReaderSettings = DEFAULT_SETTINGS) -> Detections:
    """A reading whose centre lies inside the box of a surer reading is the same die seen twice (a pip or a
    corner of it read as a die of its own): it goes. A box far bigger than the frame's other dice (``oversized``)
    deletes nothing: it is touching dice boxed as one, and holding the centres of two or more readings it goes
    itself."""
    if len(det) < 2:
        return det
    big = oversized(det.long_sides, det.confidences, settings)
    inside = centres_in(det.centres, det.boxes).T  # inside[k, i]: i's centre in k
    np.fill_diagonal(inside, False)
    merged = big & ((inside & ~big[None, :]).sum(axis=1) >= 2)
    keep: list[int] = []
    for i in np.argsort(-det.confidences, kind="stable"):
        if merged[i]:
            continue
        if not any(inside[k, i] and not big[k] for k in keep):
            keep.append(int(i))
    return det[np.asarray(sorted(keep))]


def apart_from(primary: Detections, extra: Detections) -> np.ndarray:
    """Which of the ``extra`` finds are none of ``primary``'s dice (N,) bool: no primary box holds the extra's
    centre and the extra's box holds no primary centre."""
    if not len(extra) or not len(primary):
        return np.ones(len(extra), bool)
    in_primary = centres_in(extra.centres, primary.boxes).any(axis=1)
    holds_primary = centres_in(primary.centres, extra.boxes).any(axis=0)
    return np.asarray(~in_primary & ~holds_primary)


def add_missing(primary: Detections, extra: Detections) -> Detections:
    """``primary`` finds plus the ``extra`` finds that are none of its dice (``apart_from``): a second look at
    another scale adds to the first."""
    if not len(extra) or not len(primary):
        return primary if len(primary) else extra
    new = apart_from(primary, extra)
    if not new.any():
        return primary
    return Detections.merge([primary, extra[new]]).sorted_left_to_right()
