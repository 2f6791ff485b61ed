"""Contact sheets of the reader's mistakes on a labelled set, for looking at them by eye (is the die readable in the
photo at all? is the label right?). Offline only. Usage, from the repository root:
    .venv/bin/python -m tools.dicetrain.mistakes ../shared/dice/felt-trays --out /tmp/mistakes
    .venv/bin/python -m tools.dicetrain.mistakes ../shared/dice/felt-trays --held-out --out /tmp/m
Every wrong value and miss is one tile: the labelled box cut out with a little margin and blown up (``--tile`` px),
headed ``N L<label> R<reading> <confidence>`` (R0: missed); every false detection is one tile with its
surroundings, the labelled boxes drawn green and the reading red. ``mistakes.json`` lists the tiles by number
(image, labelled box index, label, reading, confidence). Scored with the project's rule (``scoring.match``), so
the tiles are exactly the wrong values, misses and false detections ``companion dice eval`` counts.
"""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.dataset import labels_of, load_image, predictions, set_images
from companion.vision.pipeline import read_dice
from companion.vision.scoring import Label, match
from tools.dicetrain.heldout_eval import held_out

PER_ROW = 6
ROWS = 4
HEAD = 18  # px of white above each tile for its heading


@dataclass(frozen=True)
class Mistake:
    """One tile: ``kind`` is wrong, missed or false; ``label`` 0 for a false detection, ``read`` 0 for a miss."""

    n: int
    kind: str
    image: str
    label_index: int
    label: int
    read: int
    confidence: float
    box: tuple[float, float, float, float]


def cut(img: np.ndarray, box: tuple[float, float, float, float], grow: float, side: int) -> np.ndarray:
    """The square around ``box`` (its longer side times ``grow``), clipped to the image, resized to ``side``."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, max(x1 - x0, y1 - y0) * grow / 2
    h, w = img.shape[:2]
    a = img[max(0, int(cy - r)) : min(h, int(cy + r) + 1), max(0, int(cx - r)) : min(w, int(cx + r) + 1)]
    if a.size == 0:
        return np.full((side, side, 3), 255, np.uint8)
    return cv2.resize(a, (side, side), interpolation=cv2.INTER_CUBIC)


def headed(tile: np.ndarray, text: str) -> np.ndarray:
    out = cv2.copyMakeBorder(tile, HEAD, 2, 2, 2, cv2.BORDER_CONSTANT, value=(255, 255, 255))
    cv2.putText(out, text, (2, HEAD - 5), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1, cv2.LINE_AA)
    return out


def image_mistakes(
    img: np.ndarray, labels: list[Label], name: str, first: int, side: int
) -> tuple[list[Mistake], list[np.ndarray]]:
    """The mistakes of one image (numbered from ``first``) and their tiles."""
    det = read_dice(img)
    preds = predictions(det)
    conf = [c for _, v, c, k in det if k == "pips" and v]  # aligned with ``preds`` (same filter)
    pairs = dict(match(labels, preds))
    found: list[Mistake] = []
    tiles: list[np.ndarray] = []
    for li, lb in enumerate(labels):
        pi = pairs.get(li)
        read = preds[pi].value if pi is not None else 0
        if read == lb.value:
            continue
        c = conf[pi] if pi is not None else 0.0
        m = Mistake(first + len(found), "wrong" if read else "missed", name, li, lb.value, read, round(c, 3), lb.box)
        found.append(m)
        tiles.append(headed(cut(img, lb.box, 1.5, side), f"{m.n} L{lb.value} R{read} {c:.2f}"))
    used = set(pairs.values())
    marked = img.copy()
    for lb in labels:
        cv2.rectangle(marked, *box_corners(lb.box), (0, 255, 0), 1)
    for pi, pr in enumerate(preds):
        if pi in used:
            continue
        m = Mistake(first + len(found), "false", name, -1, 0, pr.value, round(conf[pi], 3), pr.box)
        found.append(m)
        view = marked.copy()
        cv2.rectangle(view, *box_corners(pr.box), (0, 0, 255), 1)
        tiles.append(headed(cut(view, pr.box, 3.0, side), f"{m.n} false R{pr.value} {conf[pi]:.2f}"))
    return found, tiles


def box_corners(box: tuple[float, float, float, float]) -> tuple[tuple[int, int], tuple[int, int]]:
    return (int(box[0]) - 1, int(box[1]) - 1), (int(box[2]) + 1, int(box[3]) + 1)


def sheets(tiles: list[np.ndarray]) -> list[np.ndarray]:
    """Tiles laid out ``PER_ROW`` x ``ROWS`` a sheet (the last sheet padded white)."""
    out = []
    per = PER_ROW * ROWS
    for s in range(0, len(tiles), per):
        chunk = tiles[s : s + per]
        chunk = chunk + [np.full_like(tiles[0], 255)] * (-len(chunk) % PER_ROW)
        out.append(np.vstack([np.hstack(chunk[r : r + PER_ROW]) for r in range(0, len(chunk), PER_ROW)]))
    return out


def review(set_dir: Path, out: Path, only: set[str] | None = None, side: int = 200) -> list[Mistake]:
    """Write ``sheet<k>.png`` and ``mistakes.json`` for the set's images (``only``: these image names)."""
    root, paths = set_images(set_dir)
    mistakes: list[Mistake] = []
    tiles: list[np.ndarray] = []
    for path in paths:
        if only is not None and path.name not in only:
            continue
        img = load_image(path)
        h, w = img.shape[:2]
        found, made = image_mistakes(img, labels_of(root, path, w, h), path.name, len(mistakes), side)
        mistakes += found
        tiles += made
    out.mkdir(parents=True, exist_ok=True)
    for k, sheet in enumerate(sheets(tiles)):
        cv2.imwrite(str(out / f"sheet{k}.png"), sheet)
    (out / "mistakes.json").write_text(json.dumps([asdict(m) for m in mistakes], indent=1))
    return mistakes


def by_crowd(set_dir: Path, mistakes: list[Mistake], n: int, only: set[str] | None = None) -> list[str]:
    """Per-die figures of the photos with fewer than ``n`` labelled dice and of those with ``n`` or more (a few
    photos of a pile of dice can hold a large share of a set's dice and of its mistakes)."""
    root, paths = set_images(set_dir)
    dice = {p.name: len(labels_of(root, p, 100, 100)) for p in paths if only is None or p.name in only}
    out = []
    for name, crowd in ((f"under {n} dice", False), (f"{n} or more dice", True)):
        here = {k for k, v in dice.items() if (v >= n) == crowd}
        total = sum(dice[k] for k in here)
        kinds = {k: sum(m.kind == k and m.image in here for m in mistakes) for k in ("wrong", "missed", "false")}
        right = 100.0 * (total - kinds["wrong"] - kinds["missed"]) / max(total, 1)
        out.append(
            f"photos with {name}: {len(here)} photos, {total} dice, {right:.2f}% right, "
            + ", ".join(f"{v} {k}" for k, v in kinds.items())
        )
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("set_dir", type=Path, help="a labelled set: images/ and YOLO labels/")
    ap.add_argument("--out", type=Path, required=True, help="folder for the sheets and mistakes.json")
    ap.add_argument("--held-out", action="store_true", help="only the set's photos listed in heldout.txt")
    ap.add_argument("--tile", type=int, default=200, help="side of a tile in px (default 200)")
    ap.add_argument("--crowd", type=int, default=0, help="also the figures of photos under / from N labelled dice")
    args = ap.parse_args(argv)
    only = None
    if args.held_out:
        only = {p.name for p in held_out(args.set_dir.parent) if p.parent.parent.name == args.set_dir.name}
    found = review(args.set_dir, args.out, only, args.tile)
    kinds = {k: sum(m.kind == k for m in found) for k in ("wrong", "missed", "false")}
    print(f"{len(found)} mistakes ({', '.join(f'{v} {k}' for k, v in kinds.items())}) in {args.out}")
    if args.crowd:
        print("\n".join(by_crowd(args.set_dir, found, args.crowd, only)))


if __name__ == "__main__":
    main()
