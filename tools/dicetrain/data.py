"""Data preparation for the learned dice detector: a fixed per-set image split, loading, augmentation and
CenterNet targets. Offline only (used by ``train.py``); reads the labelled sets from a folder given on the
command line (e.g. ``../shared/dice``)."""

from __future__ import annotations

import argparse
import pickle
import random
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from companion.vision.dataset import image_paths, load_image
from companion.vision.scoring import GROW, read_yolo_labels
from companion.vision.upright import Upright, camera_shaped

SETS = ("felt-trays", "angled-webcam")
SEED = 20261130
HELD_OUT_SHARE = 0.2
HELD_OUT_FILE = Path(__file__).parent / "heldout.txt"


def split(root: str | Path, seed: int = SEED, share: float = HELD_OUT_SHARE) -> tuple[list[Path], list[Path]]:
    """Train and held-out image paths: ``share`` of EACH set's images (by name, shuffled with a fixed seed)."""
    train, held = [], []
    for name in SETS:
        paths = image_paths(Path(root) / name / "images")
        order = list(paths)
        random.Random(f"{seed}-{name}").shuffle(order)
        k = round(len(order) * share)
        held += sorted(order[:k])
        train += sorted(order[k:])
    return train, held


def write_held_out(root: str | Path, out: Path = HELD_OUT_FILE) -> None:
    """Write the held-out list (``set/images/name`` per line) next to this module."""
    _, held = split(root)
    lines = [f"{p.parent.parent.name}/images/{p.name}" for p in held]
    out.write_text("\n".join(lines) + "\n")


@dataclass
class Sample:
    """One photo with its labelled dice: boxes (N, 4) float x0 y0 x1 y1 in pixels, values (N,) 1-6."""

    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    set_name: str
    path: Path
    others: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))  # non-pip dice (negatives)
    # per box, True where a rendered die's value cannot be read (``wide_dice.pip_contrast``); empty: every box legible
    illegible: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    grown: float = 1.0  # the photo was grown this much along its short side (``upright_by_labels``)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """Samples pickled in caches made before a field was added load with that field's default."""
        state.setdefault("others", np.zeros((0, 4), np.float32))
        state.setdefault("illegible", np.zeros(0, bool))
        state.setdefault("grown", 1.0)
        self.__dict__.update(state)


def matches(box: np.ndarray, labels: np.ndarray, grow: float = GROW) -> np.ndarray:
    """Which labelled boxes the centre of ``box`` falls in (each grown by ``grow``: the scoring rule's ``GROW``
    by default, 1 for the boxes as they are)."""
    if not len(labels):
        return np.zeros(0, bool)
    c = (box[:2] + box[2:]) / 2
    half = (labels[:, 2:] - labels[:, :2]) / 2 * grow
    mid = (labels[:, :2] + labels[:, 2:]) / 2
    return np.asarray(np.all(np.abs(mid - c) <= half, axis=1))


INCOMPLETE_LABELS = ("grey-mixed",)  # sets whose labels leave many dice out (by eye: unlabelled dice, faces at
# an angle labelled on the side towards the camera): their photos give positives only, and no surfaces
SIDE_OFFSETS = ((0.0, 1.15, 1.0, 0.75), (-1.1, 0.3, 0.75, 1.0), (1.1, 0.3, 0.75, 1.0))  # (dx, dy, sx, sy) x box


RENDERED = ("synthetic", "wide", "solid")  # the samples' set names of rendered scenes (not photos)


def side_face_boxes(s: Sample) -> np.ndarray:
    """Where a labelled die's side faces are when a camera looks at an angle from the front: a box below the
    labelled top face (flattened) and one to each side, each kept unless it falls on a labelled die or off the
    photo. None for sets that do not label the top face (``INCOMPLETE_LABELS``) or rendered scenes. (N, 4).
    Placed by the die's face, not its box: the webcam set's boxes hug the pips, so a 1's box is half a face
    (median 22 px against 44); a face is taken as at least the median box of the photo's other values, and a 1
    in a photo with no other value gives none."""
    out: list[np.ndarray] = []
    if s.set_name not in INCOMPLETE_LABELS and s.set_name not in RENDERED and len(s.boxes):
        h, w = s.image.shape[:2]
        sizes = s.boxes[:, 2:] - s.boxes[:, :2]
        others = sizes[s.values > 1]
        ref = np.median(others, axis=0) if len(others) else None
        for b, v, size in zip(s.boxes, s.values, sizes, strict=True):
            if v <= 1 and ref is None:
                continue
            bw, bh = (size if ref is None else np.maximum(size, ref)).tolist()
            cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
            for dx, dy, sx, sy in SIDE_OFFSETS:
                x, y, hw, hh = cx + dx * bw, cy + dy * bh, bw * sx / 2, bh * sy / 2
                box = np.array([x - hw, y - hh, x + hw, y + hh], np.float32)
                if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h or matches(box, s.boxes).any():
                    continue
                out.append(box)
    return np.array(out, np.float32).reshape(-1, 4)


PIP_BOXES = ("angled-webcam",)  # sets whose boxes hug the pips, not the face: a 1's box is its one pip
PIP_SPAN = {2: 0.65, 3: 0.65, 4: 0.85, 5: 0.85, 6: 0.85}  # a face's pips span about this share of its side


def face_estimate(s: Sample) -> float | None:
    """The side of a die's top face in ``s`` judged from its boxes of values 2-6 (``PIP_SPAN``); None without."""
    sides = [max(b[2] - b[0], b[3] - b[1]) / PIP_SPAN[int(v)] for b, v in zip(s.boxes, s.values, strict=True) if v > 1]
    return float(np.median(sides)) if sides else None


def face_sized(samples: list[Sample], share: float = 1.0) -> list[Sample]:
    """The photos of ``PIP_BOXES`` sets with every box grown to a square the size of a top face about its centre
    (the pips of every value are centred on the face), so the detector learns one kind of box, a face, from every
    set: taught a 1 is the size of its pip, it takes a 1 for a speck and misses it. A photo of 1s only takes the
    set's median face. With ``share`` under 1 a box grows that share of the way (from its longer side to the
    face). Other sets' photos are returned as they are."""
    out = list(samples)
    for name in PIP_BOXES:
        idx = [i for i, s in enumerate(samples) if s.set_name == name]
        faces = {i: face_estimate(samples[i]) for i in idx}
        known = [f for f in faces.values() if f is not None]
        if not known:
            continue
        fallback = float(np.median(known))
        for i in idx:
            s = samples[i]
            face = faces[i] or fallback
            c = (s.boxes[:, :2] + s.boxes[:, 2:]) / 2
            side = (s.boxes[:, 2:] - s.boxes[:, :2]).max(axis=1)
            half = (side + share * np.maximum(face - side, 0.0))[:, None] / 2
            out[i] = replace(s, boxes=np.concatenate([c - half, c + half], axis=1).astype(np.float32))
    return out


IGNORED = 0  # a label value the detector is taught neither way: no die there, and no "not a 1" either


def ignore_pip_ones(samples: list[Sample]) -> list[Sample]:
    """The 1s of the ``PIP_BOXES`` sets made ``IGNORED``, their boxes grown to the face (``face_sized``): in
    those sets a 1's box is its one pip, and taught either way the detector goes wrong (pip-sized, a 1 is a speck
    to drop; face-sized about a lone pip, each pip of a 2 on a busy body becomes a 1 of its own). Left out of
    the loss, the 1s are taught by the sets that box the face and by the renders. Other boxes as they are."""
    grown = face_sized(samples, 1.0)
    out = list(samples)
    for i, (s, g) in enumerate(zip(samples, grown, strict=True)):
        one = s.values == 1
        if s.set_name in PIP_BOXES and one.any():
            boxes = np.where(one[:, None], g.boxes, s.boxes).astype(np.float32)
            out[i] = replace(s, boxes=boxes, values=np.where(one, IGNORED, s.values))
    return out


def side_faces(samples: list[Sample]) -> list[tuple[int, np.ndarray]]:
    """Every ``side_face_boxes`` of the photos, as (image index, box) pairs."""
    return [(i, box) for i, s in enumerate(samples) for box in side_face_boxes(s)]


def load(paths: list[Path]) -> list[Sample]:
    """Images and labels into memory."""
    out = []
    for p in paths:
        img = load_image(p)
        h, w = img.shape[:2]
        lab = p.parent.parent / "labels" / (p.stem + ".txt")
        labels = read_yolo_labels(lab, w, h) if lab.exists() else []
        boxes = np.array([lb.box for lb in labels], dtype=np.float32).reshape(-1, 4)
        values = np.array([lb.value for lb in labels], dtype=np.int64)
        out.append(Sample(img, boxes, values, p.parent.parent.name, p))
    return out


UPRIGHT_LEAST = 0.1  # |log(width / height)| of a photo's typical labelled die: less is square (upright_by_labels)


def upright_by_labels(samples: list[Sample], least: float = UPRIGHT_LEAST) -> list[Sample]:
    """Photos resized to a new aspect ratio (not in a camera's own shape, ``upright.camera_shaped``) grown along
    their short side until their labelled dice are square (the median log(width / height) of the boxes of values
    2-6, or of all where none; ``least`` or more either way), as the reader grows a frame whose pips are stretched
    (``learned.upright_frame``): the networks then learn the dice as they will be shown them. Boxes (dice and
    ``others``) are grown with the photo, and ``Sample.grown`` says how much, so that a training view shows the
    dice at the size the reader's first look does (its ``long_side`` grown as much, ``Upright.settings``), not
    smaller; other photos are returned as they are."""
    out = list(samples)
    for i, s in enumerate(samples):
        if s.set_name in RENDERED or not len(s.boxes) or camera_shaped(s.image.shape[:2]):
            continue
        pick = s.values > 1 if (s.values > 1).any() else np.ones(len(s.values), bool)
        size = s.boxes[pick, 2:] - s.boxes[pick, :2]
        stretch = float(np.median(np.log(np.maximum(size[:, 0], 1) / np.maximum(size[:, 1], 1))))
        if abs(stretch) < least:
            continue
        grow = float(np.exp(abs(stretch)))
        up = Upright(fy=grow) if stretch > 0 else Upright(fx=grow)  # as upright.upright_for grows a frame
        f = np.array([up.fx, up.fy, up.fx, up.fy], np.float32)
        boxes, others = (s.boxes * f).astype(np.float32), (s.others * f).astype(np.float32)
        out[i] = replace(s, image=up.frame(s.image), boxes=boxes, others=others, grown=grow)
    return out


def add_upright_option(ap: argparse.ArgumentParser) -> None:
    """The training tools' ``--upright-labels`` (``upright_by_labels`` on the training photos)."""
    ap.add_argument(
        "--upright-labels",
        action="store_true",
        help="photos resized to a new aspect ratio grown until their labelled dice are square (data.upright_by_labels)",
    )


ZOOM = (0.6, 1.6)  # scale range of the usual training views (after the photo is shrunk to the network's side)


def augment(
    s: Sample,
    rng: np.random.Generator,
    crop: int,
    long_side: int,
    zoom: tuple[float, float] = ZOOM,
    exposure: float = 0.0,
    casts: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random training view of a sample: scale/aspect change (the photo shrunk to ``long_side``, then scaled by
    a factor drawn from ``zoom``), crop, 90-degree turns, flips, colour changes (channel swaps, inversion,
    hue/brightness/contrast, a wrong exposure for an ``exposure`` share, a colour cast for a ``casts`` share),
    blur, noise, JPEG. Returns image, boxes, values."""
    none = np.zeros((0, 4), np.float32)
    img, boxes, values, _ = augment_with(s, none, rng, crop, long_side, zoom, exposure, casts)
    return img, boxes, values


def augment_with(
    s: Sample,
    extra: np.ndarray,
    rng: np.random.Generator,
    crop: int,
    long_side: int,
    zoom: tuple[float, float] = ZOOM,
    exposure: float = 0.0,
    casts: float = 0.0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``augment``, with ``extra`` boxes (N, 4) of the photo carried through the same scaling, crop, flips and
    turns (those whose centre leaves the view dropped); the view is chosen as ``augment`` chooses it. Returns
    image, boxes, values, extra boxes."""
    img, boxes, values = s.image, s.boxes.copy(), s.values.copy()
    h, w = img.shape[:2]
    base = long_side * s.grown / max(h, w)  # a grown photo's dice as big as the reader shows them
    scale = base * float(np.exp(rng.uniform(np.log(zoom[0]), np.log(zoom[1]))))
    aspect = float(np.exp(rng.uniform(-0.18, 0.18)))
    sx, sy = scale * aspect, scale / aspect
    nw, nh = max(8, round(w * sx)), max(8, round(h * sy))
    interp = cv2.INTER_AREA if sx < 1 else cv2.INTER_LINEAR
    img = cv2.resize(img, (nw, nh), interpolation=interp)
    boxes = boxes.reshape(-1, 4) * np.array([sx, sy, sx, sy], dtype=np.float32)
    n_dice = len(boxes)
    boxes = np.concatenate([boxes, extra.astype(np.float32).reshape(-1, 4) * np.array([sx, sy, sx, sy])])
    # crop (around a random die most of the time)
    if n_dice and rng.random() < 0.8:
        b = boxes[rng.integers(n_dice)]
        cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
        x0 = int(cx - rng.uniform(0.15, 0.85) * crop)
        y0 = int(cy - rng.uniform(0.15, 0.85) * crop)
    else:
        x0 = int(rng.integers(min(0, nw - crop), max(1, nw - crop + 1)))
        y0 = int(rng.integers(min(0, nh - crop), max(1, nh - crop + 1)))
    pad = crop
    big = cv2.copyMakeBorder(
        img,
        pad,
        pad,
        pad,
        pad,
        cv2.BORDER_REFLECT_101 if rng.random() < 0.5 else cv2.BORDER_CONSTANT,
        value=tuple(int(v) for v in rng.integers(0, 256, 3)),
    )
    x0 = int(np.clip(x0, -pad, nw + pad - crop))
    y0 = int(np.clip(y0, -pad, nh + pad - crop))
    out = big[y0 + pad : y0 + pad + crop, x0 + pad : x0 + pad + crop].copy()
    boxes = boxes - np.array([x0, y0, x0, y0], dtype=np.float32)
    if len(boxes):
        c = (boxes[:, :2] + boxes[:, 2:]) / 2
        keep = (c[:, 0] >= 0) & (c[:, 1] >= 0) & (c[:, 0] < crop) & (c[:, 1] < crop)
        values = values[keep[:n_dice]]
        boxes, n_dice = boxes[keep], int(keep[:n_dice].sum())
    # flips and 90-degree turns (a die face reads the same either way)
    if rng.random() < 0.5:
        out = out[:, ::-1]
        boxes = np.stack([crop - boxes[:, 2], boxes[:, 1], crop - boxes[:, 0], boxes[:, 3]], axis=1)
    k = int(rng.integers(4))
    for _ in range(k):  # rotate 90 degrees counter-clockwise: (x, y) -> (y, crop - x)
        out = np.rot90(out)
        boxes = np.stack([boxes[:, 1], crop - boxes[:, 2], boxes[:, 3], crop - boxes[:, 0]], axis=1)
    out = np.ascontiguousarray(out)
    out = colour_changes(out, rng, exposure=exposure, casts=casts)
    if rng.random() < 0.35:
        ok, enc = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(35, 92))])
        decoded = cv2.imdecode(enc, cv2.IMREAD_COLOR) if ok else None
        if decoded is not None:
            out = decoded
    boxes = boxes.astype(np.float32).reshape(-1, 4)
    return out, boxes[:n_dice], values, boxes[n_dice:]


OVER = (1.4, 2.4)  # gain range of an over-exposed view (white dice on a light table burn out together)
UNDER = (0.3, 0.6)  # gain range of an under-exposed view


def misexpose(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The camera's exposure wrong: light multiplied by a gain from ``OVER`` or ``UNDER`` (even odds, log-uniform)
    before the sensor clips at 255, so burnt-out areas lose their texture as in life."""
    lo, hi = OVER if rng.random() < 0.5 else UNDER
    gain = float(np.exp(rng.uniform(np.log(lo), np.log(hi))))
    return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8)


CAST = (0.55, 1.3)  # range of each channel's gain in a colour cast


def colour_cast(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The light's colour or the camera's white balance wrong: each channel multiplied by its own gain from
    ``CAST`` (log-uniform) before the sensor clips at 255, as under a warm lamp (blue low, red burnt out on white
    dice) or a cold one."""
    gains = np.exp(rng.uniform(np.log(CAST[0]), np.log(CAST[1]), 3)).astype(np.float32)
    return np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)


MOTION = (0.06, 0.18)  # range of a motion blur's streak length, as a share of the image side


def motion_blur(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The die moved (or the hand holding the phone) while the shutter was open: a straight streak of
    ``MOTION`` times the image side in any direction (a die of the classifier's crop is about two thirds of it,
    so the streak is a tenth to a quarter of a die)."""
    n = img.shape[0]
    length = max(2.0, float(rng.uniform(*MOTION)) * n)
    k = int(np.ceil(length)) | 1
    a = rng.uniform(0, np.pi)
    d = np.array([np.cos(a), np.sin(a)])
    yy, xx = np.mgrid[0:k, 0:k].astype(np.float32) - (k - 1) / 2
    along = np.clip(xx * d[0] + yy * d[1], -(length - 1) / 2, (length - 1) / 2)
    gap = np.hypot(xx - along * d[0], yy - along * d[1])  # distance to the streak's centre line
    kernel = np.clip(1.0 - gap, 0.0, None).astype(np.float32)
    kernel /= max(float(kernel.sum()), 1e-6)
    out: np.ndarray = cv2.filter2D(img, -1, kernel, borderType=cv2.BORDER_REPLICATE)
    return out


def colour_changes(
    img: np.ndarray,
    rng: np.random.Generator,
    blur_sigma: tuple[float, float] = (0.4, 1.3),
    exposure: float = 0.0,
    casts: float = 0.0,
    motion: float = 0.0,
) -> np.ndarray:
    """Random colour changes of a square image: for an ``exposure`` share a wrong exposure (``misexpose``), for a
    ``casts`` share a colour cast (``colour_cast``), for a ``motion`` share a motion blur (``motion_blur``), then
    channel swaps, hue/saturation, inversion, grey, contrast and brightness, a light gradient, blur, noise (shared
    by the detector's and the face classifier's training)."""
    out = img
    if exposure and rng.random() < exposure:
        out = misexpose(out, rng)
    if casts and rng.random() < casts:
        out = colour_cast(out, rng)
    if motion and rng.random() < motion:
        out = motion_blur(out, rng)
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]
    if rng.random() < 0.3:
        hsv = cv2.cvtColor(np.ascontiguousarray(out), cv2.COLOR_BGR2HSV)
        hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int32) + int(rng.integers(180))) % 180).astype(np.uint8)
        hsv[:, :, 1] = np.clip(hsv[:, :, 1] * rng.uniform(0.5, 1.5), 0, 255).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    if rng.random() < 0.15:
        out = 255 - out
    if rng.random() < 0.1:
        g = cv2.cvtColor(np.ascontiguousarray(out), cv2.COLOR_BGR2GRAY)
        out = cv2.cvtColor(g, cv2.COLOR_GRAY2BGR)
    f: np.ndarray = out.astype(np.float32)
    contrast = rng.uniform(0.6, 1.4)
    bright = rng.uniform(-40, 40)
    f = (f - 128) * contrast + 128 + bright + rng.uniform(-15, 15, 3)
    if rng.random() < 0.3:
        n = f.shape[0]
        yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
        f += (rng.uniform(-40, 40) * (xx - 0.5) + rng.uniform(-40, 40) * (yy - 0.5))[:, :, None]
    if rng.random() < 0.25:
        f = cv2.GaussianBlur(f, (0, 0), rng.uniform(*blur_sigma))
    if rng.random() < 0.3:
        f += rng.normal(0, rng.uniform(2, 8), f.shape).astype(np.float32)
    return np.clip(f, 0, 255).astype(np.uint8)


def targets(boxes: np.ndarray, values: np.ndarray, size: int, stride: int) -> tuple[np.ndarray, ...]:
    """CenterNet targets on the output grid: heat (6, S, S) gaussians at die centres per value, size (2, S, S)
    log box size in grid cells, offset (2, S, S) sub-cell centre offset, mask (S, S) 1 at centres. Boxes of
    value ``IGNORED`` give nothing here (see ``ignore_map``)."""
    s = size // stride
    heat = np.zeros((6, s, s), np.float32)
    wh = np.zeros((2, s, s), np.float32)
    off = np.zeros((2, s, s), np.float32)
    mask = np.zeros((s, s), np.float32)
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    for b, v in zip(boxes, values, strict=True):
        if v == IGNORED:
            continue
        cx, cy = (b[0] + b[2]) / 2 / stride, (b[1] + b[3]) / 2 / stride
        bw, bh = max(1.0, (b[2] - b[0]) / stride), max(1.0, (b[3] - b[1]) / stride)
        ix, iy = int(cx), int(cy)
        if not (0 <= ix < s and 0 <= iy < s):
            continue
        sigma = max(0.7, 0.16 * min(bw, bh))
        g = np.exp(-((xx - ix) ** 2 + (yy - iy) ** 2) / (2 * sigma**2))
        heat[v - 1] = np.maximum(heat[v - 1], g)
        wh[:, iy, ix] = np.log([bw, bh])
        off[:, iy, ix] = [cx - ix, cy - iy]
        mask[iy, ix] = 1
    return heat, wh, off, mask


def ignore_map(boxes: np.ndarray, values: np.ndarray, size: int, stride: int) -> np.ndarray:
    """(S, S) 1 on the grid cells inside the boxes of value ``IGNORED``: where the detector's 1s are not taught
    as negatives."""
    s = size // stride
    out = np.zeros((s, s), np.float32)
    for b in boxes[values == IGNORED]:
        x0, y0 = (int(np.floor(max(0.0, float(v)) / stride)) for v in b[:2])
        x1, y1 = (int(np.ceil(min(float(size), float(v)) / stride)) for v in b[2:])
        out[y0:y1, x0:x1] = 1
    return out


def hard_map(extra: np.ndarray, size: int, stride: int) -> np.ndarray:
    """(S, S) bumps (as ``targets``' gaussians, peak 1) at the centres of ``extra`` boxes: places that look like a
    die and are not one (a die's side faces), where the detector's loss on the negatives is weighed more."""
    s = size // stride
    hard = np.zeros((s, s), np.float32)
    yy, xx = np.mgrid[0:s, 0:s].astype(np.float32)
    for b in extra:
        cx, cy = (b[0] + b[2]) / 2 / stride, (b[1] + b[3]) / 2 / stride
        bw, bh = max(1.0, (b[2] - b[0]) / stride), max(1.0, (b[3] - b[1]) / stride)
        sigma = max(0.7, 0.25 * min(bw, bh))
        hard = np.maximum(hard, np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma**2)))
    return hard


def add_stitches(img: np.ndarray, keep_clear: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Two to five rows of stitches, rivets or dashes (tray rims, seams, printed borders) along random lines,
    kept off the dice (``keep_clear``: boxes). Dashes, dots or crosses, light or dark, any spacing and angle."""
    out = img.copy()
    h, w = img.shape[:2]
    centres = (keep_clear[:, :2] + keep_clear[:, 2:]) / 2
    reach = (keep_clear[:, 2:] - keep_clear[:, :2]).max(axis=1) if len(keep_clear) else np.zeros(0)
    for _ in range(int(rng.integers(2, 6))):
        p0 = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        a = rng.uniform(0, np.pi)
        d = np.array([np.cos(a), np.sin(a)])
        length, gap = rng.uniform(2, 10), rng.uniform(3, 14)
        style = int(rng.integers(3))
        thick = int(rng.integers(1, 4))
        light = rng.random() < 0.5
        colour = tuple(int(v) for v in (rng.uniform(150, 250, 3) if light else rng.uniform(5, 90, 3)))
        for t in np.arange(-max(w, h), max(w, h), length + gap):
            c = p0 + t * d
            if not (0 <= c[0] < w and 0 <= c[1] < h):
                continue
            if len(centres) and np.any(np.hypot(*(centres - c).T) < reach * 0.9 + length):
                continue
            if style == 0:
                a0, a1 = c - d * length / 2, c + d * length / 2
                cv2.line(out, tuple(int(v) for v in a0), tuple(int(v) for v in a1), colour, thick, cv2.LINE_AA)
            elif style == 1:
                cv2.circle(out, (int(c[0]), int(c[1])), max(1, int(length / 3)), colour, -1, cv2.LINE_AA)
            else:
                for e in (d, d[::-1] * [1, -1]):
                    a0, a1 = c - e * length / 3, c + e * length / 3
                    cv2.line(out, tuple(int(v) for v in a0), tuple(int(v) for v in a1), colour, thick, cv2.LINE_AA)
    return cv2.GaussianBlur(out, (0, 0), float(rng.uniform(0.4, 1.0)))


def die_looks(rng: np.random.Generator, body: tuple[float, ...]) -> dict[str, Any]:
    """What makes a pip die less plain (``tools/synth`` ``DieSpec`` fields): a second body colour swirled through
    the first (marbled), pips of a colour that still stands out from the body, or a translucent body; one or
    more of these."""
    out: dict[str, Any] = {}
    pick = int(rng.integers(1, 8))  # a bit mask: marble, ink, translucent
    dark = float(np.mean(body)) < 0.3  # as the renderer picks white pips (else black)
    if pick & 1:  # the second colour on the body's side of the pips (veins may come close to the pips' shade)
        out["marble"] = tuple(float(v) for v in (rng.uniform(0.02, 0.45, 3) if dark else rng.uniform(0.2, 0.95, 3)))
        out["look_seed"] = int(rng.integers(1 << 30))
    if pick & 2:
        out["ink"] = tuple(float(v) for v in (rng.uniform(0.55, 0.95, 3) if dark else rng.uniform(0.0, 0.15, 3)))
    if pick & 4:
        out["opacity"] = float(rng.uniform(0.5, 0.85))
    return out


def pip_style(rng: np.random.Generator, body: tuple[float, ...]) -> dict[str, Any]:
    """How one dice maker lays out the pips (``tools/synth`` ``DieSpec`` fields): pips small or big, close to the
    centre or out towards the corners, often a big 1, sometimes the 1 and the 4 in red (Chinese dice). Pips never
    touch (a 6's rows stay about a fifth of a pip apart, 0.19, or more) and stay off the rounded corners."""
    spread = float(rng.uniform(0.19, 0.28))
    step = spread * 25 / 23  # between a 6's rows, the closest pips of any face
    size = float(rng.uniform(0.055, min(0.125, 0.42 * step)))
    out: dict[str, Any] = {"pip_size": size, "pip_spread": spread}
    if rng.random() < 0.4:
        out["big_one"] = float(rng.uniform(1.4, min(2.6, 0.24 / size)))
    if rng.random() < 0.25:
        red = (float(rng.uniform(0.45, 0.8)), float(rng.uniform(0.0, 0.08)), float(rng.uniform(0.0, 0.08)))
        if float(np.abs(np.array(red) - np.array(body)).mean()) > 0.25:  # red pips on a red die would not show
            out["accent"] = red
    return out


FAINT = (0.3, 0.6)  # faint pips: this share of the way from the body's colour to the usual pip colour


def faint_ink(
    rng: np.random.Generator, body: tuple[float, ...], usual: tuple[float, ...]
) -> tuple[float, float, float]:
    """Faint pips (worn paint, grey pips on white, light pips on a light translucent die): a colour between the
    body's and the ``usual`` pip colour (the renderer's ``usual_ink``: near black on a light die, near white on a
    dark one), only a ``FAINT`` share of the way. The photo sets' pips are all far darker (or lighter) than their
    dice; rendered grey pips on white (0.5-0.55 on 0.85, a contrast a person still reads) were read at 67-77%."""
    b = np.array(body[:3], np.float64)
    ink = b + float(rng.uniform(*FAINT)) * (np.array(usual[:3], np.float64) - b)
    return (float(ink[0]), float(ink[1]), float(ink[2]))


def synthetic(
    n: int,
    seed0: int = 1000,
    repo: str | Path = ".",
    others: float = 0.0,
    stitches: bool = False,
    looks: float = 0.0,
    styles: float = 0.0,
    sides: float = 0.0,
    faint: float = 0.0,
) -> list[Sample]:
    """``n`` rendered tray photos (``tools/synth/dice_render.py``; seeds from ``seed0``, away from the seeds the
    tests use): random trays, light, blur and noise; 2-12 pip dice of one random size (18-70 px), any body colour,
    some touching. Adds dice looks the two photo sets lack. With ``others`` > 0 that share of the dice are plain
    colour dice or picture dice (cat, rat, swap): their boxes go to ``Sample.others`` (no pip die: negatives for
    the face classifier; the calibrated colour/picture stage reads them). With ``stitches``, rows of stitches or
    rivets are drawn off the dice (``add_stitches``). With ``looks`` > 0 that share of the pip dice are marbled,
    have coloured pips or are translucent (``die_looks``). With ``styles`` > 0 that share of the pip dice have
    another maker's pip layout (``pip_style``). With ``sides`` > 0 that share of the pip dice show a side face too,
    as from a camera at an angle (its pips squashed; its box goes to ``Sample.others``: no die to read there).
    With ``faint`` > 0 that share of the pip dice (without coloured pips) have faint pips (``faint_ink``)."""
    import sys

    if str(Path(repo)) not in sys.path:
        sys.path.insert(0, str(Path(repo)))
    from tools.synth.dice_render import (
        COLOUR_REFLECTANCE,
        PICTURE_FACES,
        TRAY_COLOURS,
        DieSpec,
        make_table,
        random_light,
        render,
        usual_ink,
    )

    out = []
    for seed in range(seed0, seed0 + n):
        rng = np.random.default_rng(seed)
        table = make_table(
            seed, markers=False, tray=list(TRAY_COLOURS)[seed % len(TRAY_COLOURS)], perspective=rng.uniform(0, 0.08)
        )
        size = float(rng.uniform(18, 70))
        specs: list = []
        for _ in range(int(rng.integers(2, 13))):
            for _ in range(100):
                c = (float(rng.uniform(40, 600)), float(rng.uniform(40, 440)))
                apart = size * (1.7 if sides else 1.1)  # room for a side face
                if all(np.hypot(c[0] - d.centre[0], c[1] - d.centre[1]) > apart for d in specs):
                    break
            else:
                continue
            body = tuple(float(v) for v in rng.uniform(0.02, 0.95, 3))
            angle = float(rng.uniform(0, 90))
            if rng.random() < others:
                if rng.random() < 0.5:
                    face: str | int = str(rng.choice(list(COLOUR_REFLECTANCE)))
                    specs.append(DieSpec("colour", face, c, size=size, angle=angle))
                else:
                    face = str(rng.choice(list(PICTURE_FACES)))
                    specs.append(DieSpec("picture", face, c, size=size, angle=angle, body=body))
                continue
            extra = die_looks(rng, body) if looks and rng.random() < looks else {}
            if styles and rng.random() < styles:
                extra.update(pip_style(rng, body))
            if faint and rng.random() < faint and "ink" not in extra:
                extra["ink"] = faint_ink(rng, body, usual_ink(body))
            if sides and rng.random() < sides:
                depth, shade = float(rng.uniform(0.25, 0.6)), float(rng.uniform(0.45, 0.95))
                extra["side"] = (int(rng.integers(1, 7)), depth, shade)
            specs.append(DieSpec("pips", int(rng.integers(1, 7)), c, size=size, angle=angle, body=body, **extra))
        shot = render(
            table,
            specs,
            random_light(rng, 0.8),
            blur=float(rng.uniform(0.3, 1.5)),
            noise=float(rng.uniform(1, 5)),
            seed=seed,
            jpeg=int(rng.integers(60, 95)),
        )
        image = shot.image
        if stitches:
            every = np.array([d.box for d in shot.dice], dtype=np.float32).reshape(-1, 4)
            image = add_stitches(image, every, rng)
        pips = [d for d in shot.dice if d.kind == "pips"]
        boxes = np.array([d.box for d in pips], dtype=np.float32).reshape(-1, 4)
        values = np.array([int(d.face) for d in pips], dtype=np.int64)
        rest = np.array([d.box for d in shot.dice if d.kind != "pips"], dtype=np.float32).reshape(-1, 4)
        out.append(Sample(image, boxes, values, "synthetic", Path(f"synthetic-{seed}"), rest))
    return out


def rendered(cache: Path, n: int, seed0: int, **options: Any) -> list[Sample]:
    """``n`` rendered scenes from seed ``seed0`` (``synthetic``, with its ``options``), cached in a pickle between
    runs (a cache is named for what it holds; it is not checked against ``options``)."""
    if cache.exists():
        return list(pickle.loads(cache.read_bytes()))
    out = synthetic(n, seed0, repo=Path(__file__).resolve().parents[2], **options)
    cache.parent.mkdir(parents=True, exist_ok=True)
    cache.write_bytes(pickle.dumps(out))
    return out
