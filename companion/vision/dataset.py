"""Labelled dice photo sets (``images/`` + YOLO ``labels/``) and running the reader over them."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from companion.vision.detections import Detections
from companion.vision.pipeline import VisionProfile, read_dice
from companion.vision.scoring import ImageScore, Label, Prediction, SetScore, read_yolo_labels, score_image, total
from hardware.imagefile import ImageRefused, read_image

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
SAMPLES = Path(__file__).parent / "samples"


def image_paths(path: str | Path, *, recursive: bool = False) -> list[Path]:
    """An image file itself, or the images in a folder (sorted by name; ``recursive``: in its subfolders too)."""
    p = Path(path)
    if p.is_dir():
        found = p.rglob("*") if recursive else p.iterdir()
        return sorted(q for q in found if q.suffix.lower() in IMAGE_SUFFIXES and q.is_file())
    return [p]


READ_PIXELS = 5_000_000  # a bigger JPEG is read at 1/2, 1/4 or 1/8 (its dice are big enough; memory, #20)


def load_image(path: str | Path, read_pixels: int | None = None) -> np.ndarray:
    """Read a BGR image or raise ValueError with a message that names the file (a picture too big to decode is
    refused by its header first; see :func:`hardware.imagefile.read_image`, which also says what was odd).
    ``read_pixels``: decode a bigger JPEG smaller (``READ_PIXELS`` for reading dice)."""
    return read_image(path, read_pixels).pixels  # type: ignore[no-any-return]


@dataclass(frozen=True)
class LabelledImage:
    """One photo of a labelled set with its labelled dice."""

    path: Path
    labels: list[Label]


def labelled_set(set_dir: str | Path) -> Iterator[tuple[LabelledImage, np.ndarray]]:
    """Images of a set with their labels; an image without a label file counts as showing no dice."""
    root, paths = set_images(set_dir)
    for path in paths:
        img = load_image(path)
        h, w = img.shape[:2]
        yield LabelledImage(path, labels_of(root, path, w, h)), img


def set_images(set_dir: str | Path) -> tuple[Path, list[Path]]:
    """A labelled set's folder and its images (ValueError when it has no ``images/`` folder)."""
    root = Path(set_dir)
    if not (root / "images").is_dir():
        raise ValueError(f"{root} has no images/ folder (expected images/ and YOLO labels/)")
    return root, image_paths(root / "images")


def labels_of(root: Path, image: Path, width: int, height: int) -> list[Label]:
    """The labelled dice of ``image`` in set ``root`` (``labels/NAME.txt``; none without a label file)."""
    label_file = root / "labels" / (image.stem + ".txt")
    return read_yolo_labels(label_file, width, height) if label_file.exists() else []


def predictions(det: Detections) -> list[Prediction]:
    """The pip dice of a reading, in the scorer's terms."""
    return [
        Prediction(int(v), (float(b[0]), float(b[1]), float(b[2]), float(b[3])))
        for b, v, _, k in det
        if k == "pips" and v
    ]


@dataclass(frozen=True)
class EvalResult:
    """Scores of a whole set plus per-image scores and reading times; ``unreadable``: images that could not be
    read (their labelled dice count as missed)."""

    score: SetScore
    images: list[tuple[Path, ImageScore]]
    ms: list[float]
    unreadable: list[str] = field(default_factory=list)
    flagged: list[str] = field(default_factory=list)  # images read, with something to know (truncated, shrunk)


def evaluate(set_dir: str | Path, profile: VisionProfile | None = None) -> EvalResult:
    """Read every image of a labelled set and score it per ``shared/dice/README.md``. An image that cannot be
    read is named in ``unreadable`` and its labelled dice count as missed (the figures stay honest); a broken
    label file stops the evaluation (ValueError naming the file and line)."""
    root, paths = set_images(set_dir)
    if not paths:
        raise ValueError(f"no images in {root / 'images'}: nothing to score")
    per_image, times, unreadable, flagged = [], [], [], []
    for path in paths:
        try:
            image = read_image(path, READ_PIXELS)
        except ImageRefused as err:
            unreadable.append(str(err))
            per_image.append((path, replace(score_image(labels_of(root, path, 1, 1), []), unread=True)))
            continue
        img = image.pixels
        flagged += [f"{path}: {note}" for note in image.notes]
        h, w = img.shape[:2]
        labels = labels_of(root, path, w, h)
        t0 = time.perf_counter()
        det = read_dice(img, profile)
        times.append((time.perf_counter() - t0) * 1000)
        per_image.append((path, score_image(labels, predictions(det))))
    return EvalResult(total(s for _, s in per_image), per_image, times, unreadable, flagged)
