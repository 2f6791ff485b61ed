"""The learned dice reader: two tiny networks (ONNX, run on one CPU core by onnxruntime where it is installed, else
by OpenCV's ``dnn``; ``COMPANION_DNN=opencv`` or ``onnxruntime`` picks one).

1. The detector (``dice_centernet.onnx``, CenterNet-style): the frame is shrunk so its longer side is
   ``LONG_SIDE`` px and padded to a multiple of 16; on a grid 4x coarser it gives one heat map per face value
   (1-6), the log box size and the sub-cell centre offset. Local maxima of the strongest heat map are die-like
   spots. It is asked for weak peaks too (``FIND_THRESHOLD``), so few dice are missed. It reads dice best at
   ``SWEET`` px; a frame whose dice come out far bigger (a close-up) or smaller (a wide, sharp photo) is looked at
   again at the scale that suits them (``find_at_the_right_scale``).
2. The face classifiers (``dice_faces_stitched.onnx`` and ``dice_faces.onnx``, two training runs): each spot is
   cut out again from the full-resolution frame (``crop_matrix``: the box grown by ``CROP_CONTEXT``, made square,
   ``CROP`` px, normalised for lighting) and read as "no die" or a face 1-6. The spots the first is unsure of
   (``SURE``) are read again by both, each in four views (mirrored and turned). A spot either classifier thinks is
   no die goes; the most likely face of their mean is the value and its probability the confidence. A spot
   called no die whose box is far from the size of the frame's sure dice is read again at that size
   (``reread_odd_sizes``: a white die on a white table is boxed by its pips alone). A reading centred inside a
   surer one's box is the same die read twice and goes (``one_per_die``).

Trained by ``tools/dicetrain/train.py`` and ``train_values.py`` (PyTorch, offline); no torch at run
time. Deterministic.
"""

from __future__ import annotations

import importlib
import logging
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

from companion.vision import verifier
from companion.vision.detections import Detections

log = logging.getLogger(__name__)

MODEL_PATH = Path(__file__).parent / "models" / "dice_centernet.onnx"
LONG_SIDE = 512  # the frame's longer side is scaled to this before the network
SWEET = (28.0, 72.0)  # die sizes (px at the network input) the detector reads best; see second_look
TARGET = 40.0  # a second look scales the frame so its dice come out this size
COARSE_SIDE = 192  # the quick look for a close-up when nothing sure was found at LONG_SIDE
SURE_FIND = 0.5  # the detector's peaks this strong are taken as dice when judging their size
TRUST_SMALL = 30.0  # in a big frame, finds measuring under this at the first look may be far smaller: look closer
UNSURE_SIZE = 20.0  # in a big frame with no sure find at the first look, its finds are taken as at most this big
TILE, TILE_MARGIN = 512, 96  # a bigger detector input is run in tiles this big, overlapping by twice the margin
MIN_SIDE, MAX_SIDE = 128, 1280  # bounds of the network input's longer side (and never over the frame's own)
STRIDE = 4  # output grid cell in network-input pixels
MULTIPLE = 16  # input sides are padded to a multiple of this
MAX_PEAKS = 400  # at most this many of the strongest peaks are taken from one look (memory and time stay bounded)
MIN_CONFIDENCE = 0.3  # the detector alone (find_dice) reports no weaker peaks
FIND_THRESHOLD = 0.2  # the two-stage reader asks the detector for peaks this weak, then the classifier decides
SURE = 0.95  # a spot the first classifier calls a die and one face, each at least this sure, is not re-read
VIEWS = 4  # an unsure spot is read in this many views by each classifier (``other_views``)
DIE_THRESHOLD = 0.5  # a found spot the classifier gives less than this probability of being a die goes
SIZE_SURE = 0.8  # readings at least this sure set a frame's typical die size (``reread_odd_sizes``)
OVERSIZED, OVERSIZED_COUNT = 1.6, 3  # a box this much bigger than the median of this many sure dice is oversized
ODD_SIDES = (0.8, 1.25)  # a box with a side outside these multiples of the typical die size is the wrong size
MEAN, SCALE = 128.0, 1.0 / 64.0  # input normalisation: (pixel - MEAN) * SCALE
FACES_PATHS = (  # two face classifiers from two training runs (see classify_faces)
    Path(__file__).parent / "models" / "dice_faces_stitched.onnx",  # first: it also knows stitched tray rims
    Path(__file__).parent / "models" / "dice_faces.onnx",
)
LAYOUT_PATHS = (  # a second opinion (see second_opinion): the pair trained on more dice makers' pip layouts too
    Path(__file__).parent / "models" / "dice_faces_layouts_stitched.onnx",
    Path(__file__).parent / "models" / "dice_faces_layouts.onnx",
)
CROP = 32  # side of the square crop the face classifier reads
CROP_CONTEXT = 1.5  # the crop covers the die box grown this much
CROP_BATCH = 96  # the classifiers read at most this many crops in one run (memory)
SHRINK_FIRST = 4  # a die's crop area more than this many times the crop's side is shrunk by averaging first


class ModelLoadError(RuntimeError):
    """A network file is there but cannot be loaded (damaged, or not an ONNX file)."""


class Net(Protocol):
    """A loaded network: input batch (N, C, H, W) float32 -> its one output as float32."""

    def run(self, x: np.ndarray) -> np.ndarray: ...


class OrtNet:
    """A network run by onnxruntime on one thread (deterministic; about twice as fast as OpenCV's ``dnn`` on these
    small depthwise networks)."""

    def __init__(self, path: str, ort: Any) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.enable_cpu_mem_arena = False  # its arena kept ~15 MB more at peak for no speed gain here
        self.session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name

    def run(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.session.run(None, {self.input: x})[0], dtype=np.float32)


class OpenCvNet:
    """A network run by OpenCV's ``dnn`` on its CPU backend. ``classic``: on OpenCV 5, its classic engine (a
    quarter faster than the new one for the small batches of crops; the new one is faster for the detector)."""

    def __init__(self, path: str, classic: bool = False) -> None:
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None) if classic else None
        self.net = cv2.dnn.readNetFromONNX(path) if engine is None else cv2.dnn.readNetFromONNX(path, engine)
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)

    def run(self, x: np.ndarray) -> np.ndarray:
        self.net.setInput(x)
        return np.asarray(self.net.forward(), dtype=np.float32)


BACKENDS = ("onnxruntime", "opencv")


def onnxruntime() -> Any | None:
    """The onnxruntime module, or None where it is not installed (no wheel for 32-bit Raspberry Pi OS) or its
    library does not load."""
    try:
        return importlib.import_module("onnxruntime")
    except (ImportError, OSError):
        return None


def backend() -> str:
    """Which runs the networks: ``COMPANION_DNN`` if set (``onnxruntime`` or ``opencv``), else onnxruntime where
    it is installed, else OpenCV. Any other ``COMPANION_DNN`` is logged as an error and the default is used (the
    dice are still read)."""
    chosen = os.environ.get("COMPANION_DNN", "").strip().lower()
    if chosen and chosen not in BACKENDS:
        log.error("COMPANION_DNN=%r is not one of %s; using the default", chosen, ", ".join(BACKENDS))
        chosen = ""
    return chosen or ("onnxruntime" if onnxruntime() is not None else "opencv")


@lru_cache(maxsize=16)  # the detector and the classifiers, per runner (a smaller cache would reload them every frame)
def load_net(path: str = str(MODEL_PATH), classic: bool = False, runner: str | None = None) -> Net:
    """The ONNX network, loaded once, run by ``runner`` (default: ``backend()``); ``classic`` is passed on to
    ``OpenCvNet``."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"dice model {path} is missing (train it with tools/dicetrain/train.py)")
    runner = runner or backend()
    ort = onnxruntime() if runner == "onnxruntime" else None
    if runner == "onnxruntime" and ort is None:
        raise RuntimeError("COMPANION_DNN=onnxruntime but onnxruntime is not installed (pip install onnxruntime)")
    try:
        return OrtNet(path, ort) if ort is not None else OpenCvNet(path, classic)
    except Exception as err:  # onnxruntime and OpenCV each raise their own types for a damaged file
        raise ModelLoadError(f"dice model {path} could not be loaded ({type(err).__name__}: {err})") from err


def resized(frame_bgr: np.ndarray, long_side: int = LONG_SIDE) -> tuple[np.ndarray, float]:
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


def prepare(frame_bgr: np.ndarray, long_side: int = LONG_SIDE) -> tuple[np.ndarray, float]:
    """The network input (1, 3, H, W) float32 and the scale from frame pixels to input pixels."""
    small, f = resized(frame_bgr, long_side)
    return to_blob(small), f


def decode(out: np.ndarray, scale: float, min_confidence: float = MIN_CONFIDENCE, stride: int = STRIDE) -> Detections:
    """Network output (1, 10, h, w) -> dice in frame pixels: peaks of the strongest value map (3x3 local maxima,
    then a weaker peak inside a stronger die's box goes), value = the map that peaks, box from size and offset."""
    heat, wh, off = out[0, :6], out[0, 6:8], out[0, 8:10]
    top = heat.max(axis=0)
    peaks = (top == cv2.dilate(top, np.ones((3, 3), np.uint8))) & (top >= min_confidence)
    ys, xs = np.nonzero(peaks)
    if not len(ys):
        return Detections.empty()
    conf = top[ys, xs]
    order = np.argsort(-conf, kind="stable")[:MAX_PEAKS]  # a dotted cloth can give thousands: memory is N x N
    ys, xs, conf = ys[order], xs[order], conf[order]
    values = heat[:, ys, xs].argmax(axis=0) + 1
    cx = (xs + off[0, ys, xs]) * stride / scale
    cy = (ys + off[1, ys, xs]) * stride / scale
    bw = np.exp(np.clip(wh[0, ys, xs], -2, 6)) * stride / scale
    bh = np.exp(np.clip(wh[1, ys, xs], -2, 6)) * stride / scale
    near = (np.abs(cx[:, None] - cx[None, :]) < 0.4 * np.maximum(bw[:, None], bw[None, :])) & (
        np.abs(cy[:, None] - cy[None, :]) < 0.4 * np.maximum(bh[:, None], bh[None, :])
    )  # near[i, k]: peak i lies inside die k's box (or k inside i's), both ways the same
    big = oversized(np.maximum(bw, bh), conf)
    keep: list[int] = []
    for i in range(len(ys)):  # strongest first: a peak near a die already kept goes (not near an oversized box)
        if not (near[i, keep] & ~big[keep]).any():
            keep.append(i)
    k = np.asarray(keep)
    boxes = np.stack([cx[k] - bw[k] / 2, cy[k] - bh[k] / 2, cx[k] + bw[k] / 2, cy[k] + bh[k] / 2], axis=1)
    return Detections.from_lists(np.round(boxes), values[k].tolist(), conf[k].tolist())


def oversized(sides: np.ndarray, confidences: np.ndarray, sure: float = SURE_FIND) -> np.ndarray:
    """Which boxes are far bigger than the frame's other dice (a side over ``OVERSIZED`` x the median side of
    the sure ones, with at least ``OVERSIZED_COUNT`` of those): touching dice boxed as one giant die. Such a box
    must not delete the dice inside it."""
    sides = np.asarray(sides, np.float64)
    sure_sides = sides[np.asarray(confidences) >= sure]
    if len(sure_sides) < OVERSIZED_COUNT:
        return np.zeros(len(sides), bool)
    return np.asarray(sides > OVERSIZED * float(np.median(sure_sides)))


def crop_matrix(
    box: np.ndarray, angle: float = 0.0, flip: bool = False, size: int = CROP, context: float = CROP_CONTEXT
) -> np.ndarray:
    """The 2x3 affine map from frame pixels to a ``size`` x ``size`` crop of one die: the box grown by
    ``context`` fills the crop with the die made square (a stretched photo's dice come out square), then
    optionally mirrored and turned by ``angle`` degrees about the crop centre (training views)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = max(1.0, x1 - x0), max(1.0, y1 - y0)
    g = float(np.sqrt(w * h))
    w, h = float(np.clip(w, 0.7 * g, 1.4 * g)), float(np.clip(h, 0.7 * g, 1.4 * g))
    cx, cy = (x0 + x1) / 2 - 0.5, (y0 + y1) / 2 - 0.5  # pixel-centre coordinates
    sx, sy = size / (context * w), size / (context * h)
    a = np.deg2rad(angle)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    lin = rot @ np.diag([-sx if flip else sx, sy])
    mid = (size - 1) / 2
    t = np.array([mid, mid]) - lin @ np.array([cx, cy])
    return np.hstack([lin, t[:, None]]).astype(np.float64)


def normalise_crops(crops_bgr: np.ndarray) -> np.ndarray:
    """Crops (N, size, size, 3) uint8 -> (N, 3, size, size) float32, each with zero mean and unit spread (any
    lighting)."""
    f = crops_bgr.astype(np.float32)
    f = (f - f.mean(axis=(1, 2, 3), keepdims=True)) / (f.std(axis=(1, 2, 3), keepdims=True) + 8.0)
    return np.ascontiguousarray(f.transpose(0, 3, 1, 2))


def normalise_crop(crop_bgr: np.ndarray) -> np.ndarray:
    """One crop (size, size, 3) uint8 -> (3, size, size) float32 (``normalise_crops``)."""
    one: np.ndarray = normalise_crops(crop_bgr[None])[0]
    return one


def die_crops(frame_bgr: np.ndarray, boxes: np.ndarray, size: int = CROP, context: float = CROP_CONTEXT) -> np.ndarray:
    """The face classifier's input for each box: (N, 3, size, size) float32."""
    if not len(boxes):
        return np.zeros((0, 3, size, size), np.float32)
    img = frame_bgr if frame_bgr.ndim == 3 else cv2.cvtColor(frame_bgr, cv2.COLOR_GRAY2BGR)
    raw = np.empty((len(boxes), size, size, 3), np.uint8)
    for i, box in enumerate(boxes):
        side = max(box[2] - box[0], box[3] - box[1]) * context
        interp = cv2.INTER_AREA if side > 2 * size else cv2.INTER_LINEAR
        m = crop_matrix(box, size=size, context=context)
        src = img
        if side > SHRINK_FIRST * size:
            src, m = shrunk_first(img, m, size, 2 * size / side)
        raw[i] = cv2.warpAffine(src, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    return normalise_crops(raw)


def shrunk_first(img: np.ndarray, m: np.ndarray, size: int, factor: float) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``img`` that crop map ``m`` reads, shrunk by ``factor`` averaging pixels (``cv2.INTER_AREA``),
    and the map from the shrunk part to the same crop. ``warpAffine`` samples a few pixels per crop pixel, so a
    die many times bigger than the crop would come out aliased (a photo's grain and fine texture as blotches);
    the classifiers were trained on crops at most a few times smaller than the die."""
    h, w = img.shape[:2]
    inv = cv2.invertAffineTransform(m)
    corners = inv @ np.array([[0.0, size, 0.0, size], [0.0, 0.0, size, size], [1.0, 1.0, 1.0, 1.0]])
    x0, y0 = (max(0, int(np.floor(v)) - 2) for v in corners.min(axis=1))
    x1, y1 = min(w, int(np.ceil(corners[0].max())) + 3), min(h, int(np.ceil(corners[1].max())) + 3)
    if x1 - x0 < 2 or y1 - y0 < 2:
        return img, m
    nw, nh = max(1, round((x1 - x0) * factor)), max(1, round((y1 - y0) * factor))
    small = cv2.resize(img[y0:y1, x0:x1], (nw, nh), interpolation=cv2.INTER_AREA)
    rx, ry = nw / (x1 - x0), nh / (y1 - y0)
    # a shrunk pixel q stands for frame pixel p = (q + 0.5) / r - 0.5 + origin (pixel centres, as cv2.resize)
    d = np.diag([1 / rx, 1 / ry])
    c = np.array([0.5 / rx - 0.5 + x0, 0.5 / ry - 0.5 + y0])
    lin = m[:, :2]
    return small, np.hstack([lin @ d, (lin @ c + m[:, 2])[:, None]])


def load_faces(runner: str | None = None) -> list[Net]:
    """The face classifiers (ONNX), each loaded once."""
    return [load_net(str(path), True, runner) for path in FACES_PATHS]


def load_layout_faces(runner: str | None = None) -> list[Net]:
    """The second-opinion classifiers (``LAYOUT_PATHS``), each loaded once."""
    return [load_net(str(path), True, runner) for path in LAYOUT_PATHS]


def warm_up() -> None:
    """Load the detector and the face classifiers and run each once on a small input, so that the first frame
    read is not slowed by the loading (~50 ms here, several times that on a Pi) or by the runtime's first-run
    set-up. The layout pair (``second_opinion``) stays loaded on first use: most frames never need it, and its two
    sessions cost ~10-15 MB of peak memory."""
    load_net(str(MODEL_PATH)).run(to_blob(np.zeros((64, 64, 3), np.uint8)))
    blank = np.zeros((1, 3, CROP, CROP), np.float32)
    for net in load_faces():
        net.run(blank)


def other_views(crops: np.ndarray) -> np.ndarray:
    """Three more views of each crop (N, C, S, S), stacked (3N): mirrored, turned a quarter, turned a half. A
    die's face reads the same in all of them, and the classifiers were trained on any turn and mirror, so their
    mean is a steadier reading than one view's."""
    turns = (crops[:, :, :, ::-1], np.rot90(crops, 1, axes=(2, 3)), np.rot90(crops, 2, axes=(2, 3)))
    return np.ascontiguousarray(np.concatenate(turns))


def classify_faces(
    frame_bgr: np.ndarray,
    boxes: np.ndarray,
    die_threshold: float | None = None,
    sure: float | None = None,
    nets: list[Net] | None = None,
) -> np.ndarray:
    """Per box, the probabilities (N, 7) of no die (column 0) and of each face value 1-6. The first classifier
    reads every crop; the spots it is unsure of are read again, by every classifier, in ``VIEWS`` views each
    (``other_views``), and the classifiers vote: a spot is only as much a die as the least convinced classifier
    says (column 0 is their highest "no die", each classifier's the mean over the views), and the rest is shared
    out among the values as their mean probabilities say. Spots the first classifier is not unsure of keep its
    row: with ``die_threshold``, a spot it already rules out (die probability under it; it would go anyway); with
    ``sure``, a spot it calls a die at least this surely and whose face takes at least this share of it (on the
    photos, a second opinion never changed such a reading). ``nets``: other classifiers (default ``load_faces()``)."""
    if not len(boxes):
        return np.zeros((0, 7), np.float32)
    crops = die_crops(frame_bgr, boxes)
    nets = nets or load_faces()
    first = run_batched(nets[0], crops).reshape(len(boxes), 7)
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
        each = [np.concatenate([first[rest][None], run_batched(nets[0], more).reshape(VIEWS - 1, n, 7)]).mean(axis=0)]
        for net in nets[1:]:
            each.append(run_batched(net, np.concatenate([again, more])).reshape(VIEWS, n, 7).mean(axis=0))
        out[rest] = combine(np.stack(each))
    return out


def run_batched(net: Net, crops: np.ndarray, batch: int = CROP_BATCH) -> np.ndarray:
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


def find_dice(frame_bgr: np.ndarray, min_confidence: float = MIN_CONFIDENCE, long_side: int = LONG_SIDE) -> Detections:
    """The detector alone: every die-like spot in a BGR frame with its value guess and peak height; boxes in the
    frame's pixels, sorted left to right. ``long_side``: the frame's longer side at the network's input (an input
    bigger than ``TILE`` x ``TILE`` is run in tiles, ``run_in_tiles``)."""
    small, f = resized(frame_bgr, long_side)
    out = run_in_tiles(load_net(str(MODEL_PATH)), small)
    det = decode(out, f, min_confidence)
    if len(det):
        h, w = frame_bgr.shape[:2]
        det = det.replace(boxes=np.clip(det.boxes, 0, [w - 1, h - 1, w - 1, h - 1]).astype(np.int32))
    return det.sorted_left_to_right()


def sure_size(
    found: Detections, frame_hw: tuple[int, int], long_side: int, at_least: float = SURE_FIND
) -> float | None:
    """The median size (longer box side, px at the network input) of the detector's sure finds (peaks of at least
    ``at_least``); None without any."""
    sure = found[found.confidences >= at_least] if len(found) else found
    if not len(sure):
        return None
    size = np.median(np.maximum(sure.boxes[:, 2] - sure.boxes[:, 0], sure.boxes[:, 3] - sure.boxes[:, 1]))
    return float(size) * long_side / max(frame_hw)


def scale_for(size: float, frame_hw: tuple[int, int], long_side: int) -> int:
    """The network input's longer side at which dice now ``size`` px at an input of ``long_side`` come out
    ``TARGET`` px (a multiple of ``MULTIPLE``, within ``MIN_SIDE``..``MAX_SIDE``, never over the frame's own:
    blowing a frame up shows nothing new)."""
    top = max(MIN_SIDE, min(MAX_SIDE, max(frame_hw)))
    return int(np.clip(round(long_side * TARGET / size / MULTIPLE) * MULTIPLE, MIN_SIDE, top))


def second_look(found: Detections, frame_hw: tuple[int, int], long_side: int = LONG_SIDE) -> int | None:
    """The network input size (longer side) for a second look at a frame whose dice came out much bigger or
    smaller than the detector reads best (``SWEET``, judged by the median size of its sure finds, ``SURE_FIND``),
    such that they come out ``TARGET`` px; None when the first look is the right one (or found no sure die, or the
    frame is too small to show more)."""
    size = sure_size(found, frame_hw, long_side)
    if size is None or SWEET[0] <= size <= SWEET[1]:
        return None
    side = scale_for(size, frame_hw, long_side)
    if side > long_side and max(frame_hw) < 1.5 * long_side:
        return None  # a frame hardly bigger than the first look's input has nothing finer to show
    return None if side == long_side else side


def find_at_the_right_scale(frame_bgr: np.ndarray, min_confidence: float = FIND_THRESHOLD) -> Detections:
    """The detector's finds at the scale that suits the frame's dice: first at ``LONG_SIDE``; if the dice come
    out far from the size it reads best, again at the scale that brings them to ``TARGET`` (``second_look``). If
    nothing sure came out, the dice may be too big to be seen whole (a close-up): a quick look at
    ``COARSE_SIDE`` decides, and its finds count only if they are at least ``SWEET[0]`` there (dice of a usual
    size are too small to be sure at that scale, so an empty tray costs one small extra pass); or too small to be
    sure: in a big frame, the weak finds' size decides whether to look closer. The weak finds' size counts in a
    big frame even when a few sure ones came out the right size: dice too small to be sure are most of the weak
    finds, and the few sure ones' boxes come out too big (a wide 2x2 view of the felt photos, dice ~20 px at the
    first look: 4 sure finds of 120 dice, measured 33 px). A closer look measures the dice again and, if they are
    still too small, looks closer once more: the detector makes dice far smaller than it was trained on come out
    bigger than they are (10-17 px as 20-29 px), so the first closer look falls short, and at the first look
    finds measuring under ``TRUST_SMALL`` (a little over ``SWEET[0]``) are looked at closer (felt dice tiled 3x3,
    13 px at the first look, measured 28.5 px). With no sure find at all there, the weak finds' size says little
    (felt dice tiled 4x4, 7-12 px, measured 30-36 px): they are taken as at most ``UNSURE_SIZE`` (a look at least
    twice as close), and measured again there."""
    hw = frame_bgr.shape[:2]
    found = find_dice(frame_bgr, min_confidence)
    side = second_look(found, hw)
    nothing_sure = sure_size(found, hw, LONG_SIDE) is None
    if side is None and nothing_sure:
        coarse = find_dice(frame_bgr, min_confidence, COARSE_SIDE)
        size = sure_size(coarse, hw, COARSE_SIDE)
        if size is not None and size >= SWEET[0]:
            side = second_look(coarse, hw, COARSE_SIDE)
            if side is None:
                return add_missing(coarse, found)
    if side is None and max(hw) >= 1.5 * LONG_SIDE:  # no close-up: a big sharp frame has finer detail to show
        size = sure_size(found, hw, LONG_SIDE, min_confidence)
        if size is not None and nothing_sure:  # then the size says little: 7-12 px dice measured 30-36 px
            size = min(size, UNSURE_SIZE)
        side = scale_for(size, hw, LONG_SIDE) if size is not None and size < TRUST_SMALL else None
    if side is None:
        return found
    first = found
    found = find_dice(frame_bgr, min_confidence, side)
    if side > LONG_SIDE:  # measured again: tiny dice come out too big at the first look, so it fell short
        size = sure_size(found, hw, side, min_confidence)
        again = LONG_SIDE if size is None or size >= SWEET[0] else scale_for(size, hw, side)
        if again > side:
            found = find_dice(frame_bgr, min_confidence, again)
    return add_missing(found, first)  # the closer look adds to the first one's finds, never replaces them


def one_per_die(det: Detections) -> Detections:
    """A reading whose centre lies inside the box of a surer reading is the same die seen twice (a pip or a
    corner of it read as a die of its own): it goes. A box far bigger than the frame's other dice (``oversized``)
    deletes nothing: it is touching dice boxed as one, and holding the centres of two or more readings it goes
    itself."""
    if len(det) < 2:
        return det
    c, b = det.centres, det.boxes
    sides = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    big = oversized(sides, det.confidences)
    inside = (b[:, None, 0] <= c[None, :, 0]) & (c[None, :, 0] <= b[:, None, 2])
    inside &= (b[:, None, 1] <= c[None, :, 1]) & (c[None, :, 1] <= b[:, None, 3])  # inside[k, i]: i's centre in k
    np.fill_diagonal(inside, False)
    merged = big & ((inside & ~big[None, :]).sum(axis=1) >= 2)
    keep: list[int] = []
    for i in np.argsort(-det.confidences, kind="stable"):
        if merged[i]:
            continue
        if not any(inside[k, i] and not big[k] for k in keep):
            keep.append(int(i))
    return det[np.asarray(sorted(keep))]


def add_missing(primary: Detections, extra: Detections) -> Detections:
    """``primary`` finds plus the ``extra`` finds that are none of its dice (no primary box holds the extra's
    centre and the extra's box holds no primary centre): a second look at another scale adds to the first."""
    if not len(extra) or not len(primary):
        return primary if len(primary) else extra
    pb, pc = primary.boxes, primary.centres
    eb, ec = extra.boxes, extra.centres
    in_primary = (
        (pb[None, :, 0] <= ec[:, None, 0])
        & (ec[:, None, 0] <= pb[None, :, 2])
        & (pb[None, :, 1] <= ec[:, None, 1])
        & (ec[:, None, 1] <= pb[None, :, 3])
    ).any(axis=1)
    holds_primary = (
        (eb[:, None, 0] <= pc[None, :, 0])
        & (pc[None, :, 0] <= eb[:, None, 2])
        & (eb[:, None, 1] <= pc[None, :, 1])
        & (pc[None, :, 1] <= eb[:, None, 3])
    ).any(axis=1)
    new = ~in_primary & ~holds_primary
    if not new.any():
        return primary
    return Detections.merge([primary, extra[new]]).sorted_left_to_right()


def reread_odd_sizes(
    frame_bgr: np.ndarray, boxes: np.ndarray, p: np.ndarray, die_threshold: float = DIE_THRESHOLD
) -> tuple[np.ndarray, np.ndarray]:
    """Dice in one frame are about the same size. A spot the classifiers call no die (die probability under
    ``die_threshold``) whose box has a side outside ``ODD_SIDES`` times the frame's typical die size (the median
    of the readings at least ``SIZE_SURE`` sure; three are needed) is read again in a square box of that size
    about the same centre, and the new reading replaces it (box and probabilities) when it is a die read at
    least ``SIZE_SURE`` surely. This finds the dice whose body the detector could not see: a white die on a white
    table is boxed by its pip pattern alone, and a crop around a 3's diagonal looks like no die. Spots read as
    dice are never changed. ``boxes`` (N, 4) float and ``p`` (N, 7) as from ``classify_faces``; returns new
    arrays."""
    best = p[:, 1:].max(axis=1) if len(p) else np.zeros(0, np.float32)
    sure = best >= SIZE_SURE
    if sure.sum() < 3:
        return boxes, p
    sides = np.stack([boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]], axis=1)
    typical = float(np.median(np.sqrt(np.prod(np.maximum(sides[sure], 1.0), axis=1))))
    rel = sides / typical
    odd = ((1.0 - p[:, 0]) < die_threshold) & ((rel.min(axis=1) < ODD_SIDES[0]) | (rel.max(axis=1) > ODD_SIDES[1]))
    if not odd.any():
        return boxes, p
    centres = (boxes[odd, :2] + boxes[odd, 2:]) / 2
    square = np.concatenate([centres - typical / 2, centres + typical / 2], axis=1).astype(np.float32)
    h, w = frame_bgr.shape[:2]
    square = np.clip(square, 0, [w - 1, h - 1, w - 1, h - 1]).astype(np.float32)
    again = classify_faces(frame_bgr, square, die_threshold, SURE)
    take = (again[:, 1:].max(axis=1) >= SIZE_SURE) & ((1.0 - again[:, 0]) >= die_threshold)
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
    die_threshold: float = DIE_THRESHOLD,
) -> np.ndarray:
    """Dice makers lay out pips differently: many dice have a big 1 (Chinese dice a big red 1 and red 4s), and
    the face classifiers, trained on the photos' dice, called every such 1 "no die" though the detector had found
    it. A spot the classifiers rule out (die probability under ``die_threshold``) that the detector found at least
    as surely as it reports a die on its own (``MIN_CONFIDENCE``) is read again, in ``VIEWS`` views, by the
    classifiers trained on other pip layouts too (``LAYOUT_PATHS``; ``train_values --styles``); their reading
    replaces the first when they read one face at least ``die_threshold`` surely. (Used as the only
    classifiers, that pair read 0.4 points fewer held-out felt-tray dice and reported five more false ones; as a
    second opinion, where the first pair has already said no, it only adds dice where that pair saw none.) ``p``
    (N, 7) as from ``classify_faces``, ``peaks`` (N,) the detector's; returns new probabilities."""
    ask = ((1.0 - p[:, 0]) < die_threshold) & (peaks >= MIN_CONFIDENCE)
    if not ask.any():
        return p
    again = classify_faces(frame_bgr, boxes[ask], nets=load_layout_faces())
    take = again[:, 1:].max(axis=1) >= die_threshold
    if not take.any():
        return p
    p = p.copy()
    p[np.flatnonzero(ask)[take]] = again[take]
    return p


def read_candidates(
    frame_bgr: np.ndarray, find_threshold: float = FIND_THRESHOLD, die_threshold: float = DIE_THRESHOLD
) -> Detections:
    """The dice the detector and the face classifiers agree on, before the verifier and ``one_per_die``: the
    detector proposes die-like spots (a low threshold, so few dice are missed), then the face classifiers read
    each spot again from a full-resolution crop; a spot they think is no die (probability of a die under
    ``die_threshold``, see ``classify_faces``) goes. Value = the most likely face, confidence = its probability."""
    found = find_at_the_right_scale(frame_bgr, find_threshold)
    if not len(found):
        return found
    boxes = found.boxes.astype(np.float32)
    p = classify_faces(frame_bgr, boxes, die_threshold, SURE)
    boxes, p = reread_odd_sizes(frame_bgr, boxes, p, die_threshold)
    p = second_opinion(frame_bgr, boxes, p, found.confidences, die_threshold)
    values = p[:, 1:].argmax(axis=1) + 1
    conf = p[np.arange(len(p)), values]
    keep = (1.0 - p[:, 0]) >= die_threshold
    return found.replace(
        boxes=np.round(boxes).astype(found.boxes.dtype),
        values=values.astype(np.int32),
        confidences=conf.astype(np.float32),
        faces=[],
    )[keep]


def read_dice_learned(
    frame_bgr: np.ndarray,
    find_threshold: float = FIND_THRESHOLD,
    die_threshold: float = DIE_THRESHOLD,
    verify_threshold: float | None = verifier.THRESHOLD,
) -> Detections:
    """Find every die in a BGR frame and read its top face (``read_candidates``), drop what the die verifier
    gives under ``verify_threshold`` of being a die (``verifier.verify``; None: no verifier), and keep one reading
    per die (``one_per_die``). Boxes in the frame's pixels, sorted left to right."""
    read = read_candidates(frame_bgr, find_threshold, die_threshold)
    if verify_threshold is not None and len(read):
        read = verifier.verify(frame_bgr, read, verify_threshold)
    return one_per_die(read).sorted_left_to_right()
