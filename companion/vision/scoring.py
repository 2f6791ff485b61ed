"""Scoring a dice reading against YOLO labels, exactly per ``shared/dice/README.md``.

A predicted die matches a labelled die when the centre of the predicted box lies inside the labelled box grown by
15% (half-width x 1.15 around the labelled centre); matching is one-to-one, nearest centres first.
Pure Python: no numpy, so the rule is easy to read and to test by hand.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

GROW = 1.15


@dataclass(frozen=True)
class Label:
    """One labelled die: its value 1-6 and its box x0 y0 x1 y1 in image pixels."""

    value: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class Prediction:
    """One predicted die: value 1-6 and box x0 y0 x1 y1 in image pixels."""

    value: int
    box: tuple[float, float, float, float]


@dataclass(frozen=True)
class ImageScore:
    """Counts for one image."""

    labelled: int
    right: int
    wrong: int
    missed: int
    false: int
    unread: bool = False  # the image could not be read (its dice are missed; never entirely right)

    @property
    def perfect(self) -> bool:
        """Every die right and nothing extra reported."""
        return self.right == self.labelled and self.false == 0 and not self.unread


MAX_LABEL_BYTES = 1024 * 1024  # a label file is a line per die (~30 bytes); a bigger one is refused unread
LABEL_SLACK = 0.02  # how far past the image's edge a labelled box may reach (labelling tools round)


def _label_text(path: Path) -> str:
    """A label file's text; ValueError naming the file when it is a folder, too big or not UTF-8."""
    if path.is_dir():
        raise ValueError(f"{path}: is a folder, not a label file")
    size = path.stat().st_size
    if size > MAX_LABEL_BYTES:
        raise ValueError(
            f"{path}: {size / 2**20:.0f} MB, more than a label file can be ({MAX_LABEL_BYTES // 2**20} MB)"
        )
    data = path.read_bytes()
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise ValueError(f"{path}:{line}: not UTF-8 text") from None


def read_yolo_labels(path: str | Path, width: int, height: int) -> list[Label]:
    """Read a YOLO label file (``CLASS CX CY W H`` relative; class k shows k+1 pips) into pixel boxes. A line
    that is a segmentation outline (``CLASS X1 Y1 X2 Y2 X3 Y3 ...``) counts as its bounding box, as YOLO tools
    read it; a sixth number after a box (a confidence) is ignored."""
    labels = []
    for line_no, line in enumerate(_label_text(Path(path)).splitlines(), 1):
        if not line.strip():
            continue
        parts = line.split()
        try:
            cls, nums = int(parts[0]), [float(v) for v in parts[1:]]
        except ValueError:
            nums = []
        if len(nums) in (4, 5):  # a box (a sixth number, a confidence, is ignored)
            cx, cy, w, h = nums[:4]
        elif len(nums) >= 6 and len(nums) % 2 == 0:  # a YOLO segmentation outline: its bounding box
            xs, ys = nums[0::2], nums[1::2]
            cx, cy, w, h = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, max(xs) - min(xs), max(ys) - min(ys)
        else:
            raise ValueError(f"{path}:{line_no}: expected 'CLASS CX CY W H' (or an outline), got {line!r}")
        if not 0 <= cls <= 5:
            raise ValueError(f"{path}:{line_no}: class {cls} is not a die face (0-5: class k shows k+1 pips)")
        if not all(math.isfinite(v) for v in nums) or not (w > 0 and h > 0):
            raise ValueError(f"{path}:{line_no}: a box needs finite numbers and a width and height above 0: {line!r}")
        if not (cx - w / 2 >= -LABEL_SLACK and cx + w / 2 <= 1 + LABEL_SLACK):
            raise ValueError(f"{path}:{line_no}: the box is outside the image (YOLO numbers are 0 to 1): {line!r}")
        if not (cy - h / 2 >= -LABEL_SLACK and cy + h / 2 <= 1 + LABEL_SLACK):
            raise ValueError(f"{path}:{line_no}: the box is outside the image (YOLO numbers are 0 to 1): {line!r}")
        labels.append(
            Label(cls + 1, ((cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height))
        )
    return labels


def _centre(box: Sequence[float]) -> tuple[float, float]:
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def match(labels: Sequence[Label], predictions: Sequence[Prediction]) -> list[tuple[int, int]]:
    """One-to-one (label index, prediction index) pairs: candidate pairs are those whose prediction centre lies
    inside the label box grown by 15%; they are taken nearest centres first."""
    candidates = []
    for li, lab in enumerate(labels):
        lcx, lcy = _centre(lab.box)
        hw = (lab.box[2] - lab.box[0]) / 2 * GROW
        hh = (lab.box[3] - lab.box[1]) / 2 * GROW
        for pi, pred in enumerate(predictions):
            pcx, pcy = _centre(pred.box)
            if abs(pcx - lcx) <= hw and abs(pcy - lcy) <= hh:
                candidates.append(((pcx - lcx) ** 2 + (pcy - lcy) ** 2, li, pi))
    candidates.sort()
    used_l: set[int] = set()
    used_p: set[int] = set()
    pairs = []
    for _, li, pi in candidates:
        if li not in used_l and pi not in used_p:
            used_l.add(li)
            used_p.add(pi)
            pairs.append((li, pi))
    return pairs


def score_image(labels: Sequence[Label], predictions: Sequence[Prediction]) -> ImageScore:
    """Right, wrong, missed and false counts for one image."""
    pairs = match(labels, predictions)
    right = sum(1 for li, pi in pairs if labels[li].value == predictions[pi].value)
    return ImageScore(
        labelled=len(labels),
        right=right,
        wrong=len(pairs) - right,
        missed=len(labels) - len(pairs),
        false=len(predictions) - len(pairs),
    )


@dataclass(frozen=True)
class SetScore:
    """Totals over a set of images."""

    images: int
    labelled: int
    right: int
    wrong: int
    missed: int
    false: int
    perfect_images: int

    @property
    def accuracy(self) -> float:
        """Per-die accuracy: matched dice with the right value / labelled dice."""
        return self.right / self.labelled if self.labelled else 1.0

    @property
    def false_rate(self) -> float:
        """False detections as a share of labelled dice."""
        return self.false / self.labelled if self.labelled else 0.0

    @property
    def perfect_share(self) -> float:
        """Share of images with every die right and nothing extra."""
        return self.perfect_images / self.images if self.images else 1.0

    def to_json(self) -> dict[str, float | int]:
        return {
            "images": self.images,
            "dice": self.labelled,
            "right": self.right,
            "wrong": self.wrong,
            "missed": self.missed,
            "false": self.false,
            "accuracy": round(self.accuracy, 4),
            "false_rate": round(self.false_rate, 4),
            "perfect_images": round(self.perfect_share, 4),
        }


def total(scores: Iterable[ImageScore]) -> SetScore:
    """Add up image scores."""
    s = list(scores)
    return SetScore(
        images=len(s),
        labelled=sum(x.labelled for x in s),
        right=sum(x.right for x in s),
        wrong=sum(x.wrong for x in s),
        missed=sum(x.missed for x in s),
        false=sum(x.false for x in s),
        perfect_images=sum(1 for x in s if x.perfect),
    )
