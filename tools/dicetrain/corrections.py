"""Label corrections for the development photo sets (issue #20): where a label is not what the photo shows.

The labels in ``../shared/dice`` are left as they are; ``corrections.json`` (beside this file) says where they are
wrong, each entry with the crop that shows it (``docs/corrections/``), and figures are given against both the
original and the corrected labels. Only dice a person reads with certainty from the photo are recorded.

The file is a JSON list of entries of two kinds:

- a labelled die whose value is wrong::

    {"image": "felt-trays/images/NAME.jpg", "label_index": 12, "label": 1, "corrected": 4,
     "note": "what the photo shows", "crop": "docs/corrections/felt-trays_NAME_12.png"}

  ``label_index`` is the 0-based line of the YOLO label file (blank lines not counted, as the scorer reads it),
  ``label`` the value that line gives now (1-6; checked against the file), ``corrected`` the value the die shows
  (1-6) or null: not a die, the box goes.
- a die the labels left out (no label of its own, e.g. inside a box drawn round two dice)::

    {"image": "felt-trays/images/NAME.jpg", "box": [x0, y0, x1, y1], "corrected": 6,
     "note": "...", "crop": "docs/corrections/felt-trays_NAME_new_238_438.png"}

  ``box`` in the image's pixels; the corrected labels gain this die.

Commands, from the repository root:

    .venv/bin/python -m tools.dicetrain.corrections check ../shared/dice
        validates the file against the label files and (re)writes every entry's crop;
    .venv/bin/python -m tools.dicetrain.corrections score ../shared/dice/felt-trays [--json] [--list] [--held-out]
        the shipped reader's figures (as ``companion dice eval``) against the original and the corrected labels
        (``--held-out``: only the set's photos in ``heldout.txt``).

:func:`load_corrections` gives ``{"<set>/<NAME.jpg>": {label index: value or None}}`` (the key ``loso.labels``
looks up); the dice the labels left out ride along as each image's ``missing`` list (:class:`ImageFix`).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision.scoring import ImageScore, Label, Prediction, SetScore, read_yolo_labels, score_image, total

FILE = Path(__file__).with_name("corrections.json")
CROPS = "docs/corrections/"
FIX_KEYS = {"image", "label_index", "label", "corrected", "note", "crop"}
MISSING_KEYS = {"image", "box", "corrected", "note", "crop"}
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
Box = tuple[float, float, float, float]


class CorrectionsError(ValueError):
    """The corrections file is broken or does not fit the label files; the message names the entry."""


class ImageFix(dict[int, int | None]):
    """One image's corrections: label index -> corrected value (None: the box goes); ``missing``: the dice the
    labels left out, as (value, box in image pixels)."""

    def __init__(self) -> None:
        super().__init__()
        self.missing: list[tuple[int, Box]] = []


@dataclass(frozen=True)
class Entry:
    """One checked entry of the file; ``label_index`` None for a die the labels left out (``box`` then set)."""

    n: int
    image: str
    label_index: int | None
    label: int | None
    corrected: int | None
    note: str
    crop: str
    box: Box | None = None

    @property
    def key(self) -> str:
        """The image key ``loso.labels`` uses: ``<set>/<NAME.jpg>``."""
        parts = self.image.split("/")
        return f"{parts[0]}/{parts[-1]}"

    def name(self) -> str:
        where = f"#{self.label_index}" if self.label_index is not None else f"new die at {list(self.box or ())}"
        return f"entry {self.n} ({self.image} {where})"


def _value(v: Any, what: str, where: str, none_ok: bool = False) -> int | None:
    if v is None and none_ok:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
        allowed = "1-6 or null (not a die)" if none_ok else "1-6"
        raise CorrectionsError(f"{where}: {what} must be a die value {allowed}, got {v!r}")
    return v


def parse(data: Any, source: str = "corrections") -> list[Entry]:
    """The entries of a parsed corrections file, each checked on its own and against the others (no data
    needed). CorrectionsError names the first broken entry."""
    if not isinstance(data, list):
        raise CorrectionsError(f"{source}: expected a JSON list of entries, got {type(data).__name__}")
    out: list[Entry] = []
    seen: dict[tuple[str, int], int] = {}
    crops: dict[str, int] = {}
    for n, e in enumerate(data):
        where = f"{source}: entry {n}"
        if not isinstance(e, dict):
            raise CorrectionsError(f"{where}: expected an object, got {type(e).__name__}")
        image = e.get("image")
        if isinstance(image, str):
            where += f" ({image}" + (f" #{e['label_index']})" if "label_index" in e else ")")
        kind_keys = MISSING_KEYS if "box" in e else FIX_KEYS
        unknown = sorted(set(e) - kind_keys)
        if unknown:
            raise CorrectionsError(f"{where}: unknown key(s) {', '.join(unknown)} (allowed: {sorted(kind_keys)})")
        absent = sorted(kind_keys - set(e))
        if absent:
            raise CorrectionsError(f"{where}: missing key(s) {', '.join(absent)}")
        parts = image.split("/") if isinstance(image, str) else []
        if (
            not isinstance(image, str)
            or len(parts) != 3
            or parts[1] != "images"
            or not all(parts)
            or ".." in parts
            or not parts[2].lower().endswith(IMAGE_SUFFIXES)
        ):
            raise CorrectionsError(f"{where}: image must be '<set>/images/<NAME>.jpg', got {image!r}")
        note, crop = e["note"], e["crop"]
        if not isinstance(note, str) or not note.strip():
            raise CorrectionsError(f"{where}: note must say what the photo shows")
        if (
            not isinstance(crop, str)
            or not crop.startswith(CROPS)
            or not crop.endswith(".png")
            or "/" in crop[len(CROPS) :]
            or len(crop) <= len(CROPS) + 4
        ):
            raise CorrectionsError(f"{where}: crop must be a PNG file in {CROPS}, got {crop!r}")
        if crop in crops:
            raise CorrectionsError(f"{where}: crop {crop} is entry {crops[crop]}'s too")
        crops[crop] = n
        box: Box | None = None
        if "box" in e:
            b = e["box"]
            if (
                not isinstance(b, list)
                or len(b) != 4
                or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v) for v in b)
                or not (0 <= b[0] < b[2] and 0 <= b[1] < b[3])
            ):
                raise CorrectionsError(f"{where}: box must be [x0, y0, x1, y1] in image pixels, x0 < x1, y0 < y1")
            box = (float(b[0]), float(b[1]), float(b[2]), float(b[3]))
            label_index, label = None, None
            corrected = _value(e["corrected"], "corrected", where)
        else:
            label_index = e["label_index"]
            if isinstance(label_index, bool) or not isinstance(label_index, int) or label_index < 0:
                raise CorrectionsError(f"{where}: label_index must be a line number from 0, got {label_index!r}")
            label = _value(e["label"], "label", where)
            corrected = _value(e["corrected"], "corrected", where, none_ok=True)
            if corrected == label:
                raise CorrectionsError(f"{where}: corrected {corrected} is the label itself: nothing to correct")
            if (image, label_index) in seen:
                raise CorrectionsError(f"{where}: that label is corrected by entry {seen[image, label_index]} too")
            seen[image, label_index] = n
        out.append(Entry(n, image, label_index, label, corrected, note.strip(), crop, box))
    return out


def read_entries(path: str | Path = FILE) -> list[Entry]:
    """The checked entries of a corrections file (CorrectionsError naming the file and entry when broken)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise CorrectionsError(f"{p}: cannot be read as JSON: {err}") from None
    return parse(data, str(p))


def load_corrections(path: str | Path = FILE, root: str | Path | None = None) -> dict[str, dict[int, int | None]]:
    """``{"<set>/<NAME.jpg>": ImageFix}``: per image, label index -> corrected value (None: the box goes), and
    the dice its labels left out (``.missing``). With ``root`` (the folder holding the sets) every entry is
    also checked against the label files (:func:`check_against_labels`)."""
    entries = read_entries(path)
    if root is not None:
        check_against_labels(entries, Path(root))
    return fixes(entries)


def fixes(entries: Sequence[Entry]) -> dict[str, dict[int, int | None]]:
    """The entries as ``load_corrections`` gives them."""
    out: dict[str, ImageFix] = {}
    for e in entries:
        fix = out.setdefault(e.key, ImageFix())
        if e.label_index is None:
            assert e.box is not None and e.corrected is not None
            fix.missing.append((e.corrected, e.box))
        else:
            fix[e.label_index] = e.corrected
    return dict(out)


def apply(labels: Sequence[Label], fix: dict[int, int | None] | None) -> list[Label]:
    """An image's labels as corrected: values changed, boxes that are no die dropped, left-out dice added."""
    if fix is None:
        return list(labels)
    out = []
    for i, lb in enumerate(labels):
        if i not in fix:
            out.append(lb)
        elif (v := fix[i]) is not None:
            out.append(Label(v, lb.box))
    out += [Label(v, box) for v, box in getattr(fix, "missing", ())]
    return out


def _image_size(path: Path) -> tuple[int, int]:
    from companion.vision.dataset import load_image

    h, w = load_image(path).shape[:2]
    return w, h


def check_against_labels(entries: Sequence[Entry], root: Path) -> None:
    """Every entry's image and label line exist and the line gives the entry's ``label``; a left-out die's box
    lies in the image. CorrectionsError names the entry."""
    for e in entries:
        set_dir = root / e.image.split("/")[0]
        img = root / e.image
        if not img.is_file():
            raise CorrectionsError(f"{e.name()}: no such image {img}")
        w, h = _image_size(img)
        if e.box is not None:
            if e.box[2] > w or e.box[3] > h:
                raise CorrectionsError(f"{e.name()}: the box reaches outside the {w}x{h} image")
            continue
        lab = set_dir / "labels" / (img.stem + ".txt")
        labels = read_yolo_labels(lab, w, h) if lab.is_file() else []
        assert e.label_index is not None
        if e.label_index >= len(labels):
            raise CorrectionsError(f"{e.name()}: {lab} has {len(labels)} labelled dice, no #{e.label_index}")
        if labels[e.label_index].value != e.label:
            raise CorrectionsError(
                f"{e.name()}: label {e.label} does not match {lab}, which gives {labels[e.label_index].value}"
                " (the label file changed? check the entry again)"
            )


# ---------------------------------------------------------------------------------------------------- crops

TILE = 240  # px: the side of a crop's picture
HEAD = 34  # px of white above it for two lines of text


def crop_picture(img: np.ndarray, box: Box, top: str, bottom: str, side: int = TILE) -> np.ndarray:
    """The box with a margin (its longer side x1.6, square, clipped to the image and padded grey), blown up to
    ``side`` px, the box drawn thin in red, ``top`` and ``bottom`` written above it."""
    import cv2

    x0, y0, x1, y1 = box
    r = max(x1 - x0, y1 - y0) * 1.6 / 2
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    pad = math.ceil(r) + 2
    big = cv2.copyMakeBorder(img, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(128, 128, 128))
    a0, b0 = round(cx - r), round(cy - r)
    n = max(1, round(2 * r))
    part = big[b0 + pad : b0 + pad + n, a0 + pad : a0 + pad + n]
    k = side / n
    out = cv2.resize(part, (side, side), interpolation=cv2.INTER_CUBIC)
    p0 = (int((x0 - a0) * k), int((y0 - b0) * k))
    p1 = (int((x1 - a0) * k), int((y1 - b0) * k))
    cv2.rectangle(out, p0, p1, (0, 0, 255), 1)
    out = cv2.copyMakeBorder(out, HEAD, 0, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    for row, text in enumerate((top, bottom)):
        cv2.putText(out, text, (3, 14 + 16 * row), cv2.FONT_HERSHEY_SIMPLEX, 0.42, (0, 0, 0), 1, cv2.LINE_AA)
    return out


def crop_texts(e: Entry) -> tuple[str, str]:
    """The two lines above a crop: where, and label -> correction."""
    stem = Path(e.image).stem
    where = f"{stem} #{e.label_index}" if e.label_index is not None else f"{stem} (no label)"
    new = "not a die" if e.corrected is None else str(e.corrected)
    was = f"label {e.label}" if e.label is not None else "no label"
    return where[-34:], f"{was} -> {new}"


def write_crops(entries: Sequence[Entry], root: Path, repo: Path) -> list[Path]:
    """(Re)write every entry's crop PNG (``repo``/crop) from the photo and its labelled box."""
    import cv2

    from companion.vision.dataset import load_image

    written = []
    for e in entries:
        img = load_image(root / e.image)
        if e.box is not None:
            box = e.box
        else:
            h, w = img.shape[:2]
            lab = root / e.image.split("/")[0] / "labels" / (Path(e.image).stem + ".txt")
            assert e.label_index is not None
            box = read_yolo_labels(lab, w, h)[e.label_index].box
        out = repo / e.crop
        out.parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(out), crop_picture(img, box, *crop_texts(e)), [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            raise OSError(f"could not write {out}")
        written.append(out)
    return written


# ---------------------------------------------------------------------------------------------------- scoring

Reader = Callable[[np.ndarray], list[Prediction]]


def shipped_reader(method: str | None = None) -> Reader:
    """The app's reader as ``companion dice eval`` runs it (default profile; ``method`` as its --method)."""
    from companion.vision.cli import with_method
    from companion.vision.dataset import predictions
    from companion.vision.pipeline import read_dice

    profile = with_method(None, method)
    return lambda img: predictions(read_dice(img, profile))


@dataclass(frozen=True)
class Compared:
    """A set scored against the original and the corrected labels (the same readings), per image too."""

    original: SetScore
    corrected: SetScore
    images: list[tuple[Path, ImageScore, ImageScore]]


def compare(
    set_dir: str | Path,
    corrections: dict[str, dict[int, int | None]],
    reader: Reader,
    only: set[str] | None = None,
) -> Compared:
    """Read every image of a labelled set (``only``: these file names) once and score the readings with the
    shared rule against the labels as they are and as corrected."""
    from companion.vision.dataset import labels_of, load_image, set_images

    root, paths = set_images(set_dir)
    paths = [p for p in paths if only is None or p.name in only]
    if not paths:
        raise ValueError(f"no images in {root / 'images'}: nothing to score")
    rows = []
    for path in paths:
        img = load_image(path)
        h, w = img.shape[:2]
        truth = labels_of(root, path, w, h)
        fixed = apply(truth, corrections.get(f"{root.name}/{path.name}"))
        preds = reader(img)
        rows.append((path, score_image(truth, preds), score_image(fixed, preds)))
    return Compared(total(r[1] for r in rows), total(r[2] for r in rows), rows)


def figures_table(c: Compared) -> list[str]:
    """The ``companion dice eval`` figures, original and corrected labels side by side."""

    def pct(x: float) -> str:
        return f"{100 * x:.2f}%"

    o, k = c.original, c.corrected
    rows = [
        ("images", str(o.images), str(k.images)),
        ("labelled dice", str(o.labelled), str(k.labelled)),
        ("per-die acc.", f"{pct(o.accuracy)} ({o.right} right)", f"{pct(k.accuracy)} ({k.right} right)"),
        ("wrong values", str(o.wrong), str(k.wrong)),
        ("misses", str(o.missed), str(k.missed)),
        ("false dice", f"{o.false} ({pct(o.false_rate)})", f"{k.false} ({pct(k.false_rate)})"),
        (
            "images right",
            f"{pct(o.perfect_share)} ({o.perfect_images} of {o.images})",
            f"{pct(k.perfect_share)} ({k.perfect_images} of {k.images})",
        ),
    ]
    lines = [f"{'':14} {'original labels':>24} {'corrected labels':>24}"]
    lines += [f"{a:14} {b:>24} {c_:>24}" for a, b, c_ in rows]
    return lines


# ---------------------------------------------------------------------------------------------------- command


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    ck = sub.add_parser("check", help="validate the file against the label files and (re)write the crops")
    ck.add_argument("root", type=Path, help="the folder holding the sets (../shared/dice)")
    ck.add_argument("--no-crops", action="store_true", help="only validate")
    sc = sub.add_parser("score", help="the shipped reader's figures against original and corrected labels")
    sc.add_argument("set_dir", type=Path, help="a labelled set, e.g. ../shared/dice/felt-trays")
    sc.add_argument("--method", choices=("learned", "classical", "hybrid"), default=None)
    sc.add_argument("--json", action="store_true", help="one JSON line")
    sc.add_argument("--list", action="store_true", help="the images whose score the corrections change")
    sc.add_argument("--held-out", action="store_true", help="only the set's photos listed in heldout.txt")
    for p in (ck, sc):
        p.add_argument("--file", type=Path, default=FILE, help=f"corrections file (default {FILE.name} here)")
    args = ap.parse_args(argv)
    try:
        entries = read_entries(args.file)
        if args.command == "check":
            check_against_labels(entries, args.root)
            per_set: dict[str, int] = {}
            for e in entries:
                per_set[e.image.split("/")[0]] = per_set.get(e.image.split("/")[0], 0) + 1
            counts = ", ".join(f"{k} {v}" for k, v in sorted(per_set.items()))
            print(f"{args.file}: {len(entries)} entries fit the label files ({counts or 'none'})")
            if not args.no_crops:
                written = write_crops(entries, args.root, Path.cwd())
                print(f"{len(written)} crops written under {CROPS}")
            return 0
        check_against_labels([e for e in entries if e.image.split("/")[0] == args.set_dir.name], args.set_dir.parent)
        only = None
        if args.held_out:
            from tools.dicetrain.heldout_eval import held_out

            only = {p.name for p in held_out(args.set_dir.parent) if p.parent.parent.name == args.set_dir.name}
        c = compare(args.set_dir, fixes(entries), shipped_reader(args.method), only)
    except (CorrectionsError, ValueError, OSError) as err:
        print(f"corrections: {err}", file=sys.stderr)
        return 2
    mine = [e for e in entries if e.key.split("/")[0] == args.set_dir.name]
    if args.json:
        out = {"corrections": len(mine), "original": c.original.to_json(), "corrected": c.corrected.to_json()}
        print(json.dumps(out))
    else:
        print(f"set            {args.set_dir} ({len(mine)} label corrections, {args.file})")
        print("\n".join(figures_table(c)))
    if args.list:
        for path, a, b in c.images:
            if a != b:
                print(
                    f"  {path.name}: {a.right}/{a.labelled} right, {a.wrong} wrong, {a.missed} missed, {a.false} false"
                    f" -> {b.right}/{b.labelled} right, {b.wrong} wrong, {b.missed} missed, {b.false} false"
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
