"""Score the classical, learned and hybrid readers on the held-out photos only (``heldout.txt``), per set and overall,
with the project's scoring rule, plus median ms per image on one core. Usage, from the repository root:
    .venv/bin/python -m tools.dicetrain.heldout_eval ../shared/dice [--json] [--views ...]
``--views`` also scores other views of the same photos: ``close2``/``close3``/``close4`` (zoomed in about the
centre, dice 2-4x bigger; dice cut by the edge are painted over and not counted) and ``wide2``/``wide3``/``wide4``
(2x2, 3x3 or 4x4 copies of the photo side by side: dice 1/2, 1/3 or 1/4 as big relative to the frame, at the
photo's own sharpness), ``over``/``under`` (the light multiplied by 1.8 / 0.45 and clipped: a camera's exposure
set wrong; white dice on a light table burn out together), ``warm``/``cold`` (a colour cast: blue x0.6, red x1.2
as under a warm lamp, or the other way).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision.dataset import load_image, predictions
from companion.vision.pipeline import VisionProfile, read_dice
from companion.vision.scoring import ImageScore, Label, read_yolo_labels, score_image, total
from tools.dicetrain.data import HELD_OUT_FILE


def held_out(root: Path) -> list[Path]:
    """The held-out image paths listed in ``heldout.txt`` (``set/images/name`` per line)."""
    return [root / line.strip() for line in HELD_OUT_FILE.read_text().splitlines() if line.strip()]


def close_up(img: np.ndarray, labels: list[Label], zoom: float, body: float = 0.0) -> tuple[np.ndarray, list[Label]]:
    """The frame zoomed in about its centre (same size; dice ``zoom`` times bigger), and the labels of the dice
    wholly inside it; dice cut by the frame's edge are painted over so they count neither way. A label is a die's
    top face; with ``body`` the paint reaches that many of its sides further each way, over the rest of the die
    (seen at an angle its side faces show beside the top face: painting the top face alone leaves them, to be read
    as dice of their own), and the dice in view are left as they were."""
    h, w = img.shape[:2]
    m = np.array([[zoom, 0, w / 2 * (1 - zoom)], [0, zoom, h / 2 * (1 - zoom)]])
    out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR)
    clean = out.copy() if body else out
    kept = []
    for lb in labels:
        x0, y0, x1, y1 = (m @ np.array([[lb.box[0], lb.box[2]], [lb.box[1], lb.box[3]], [1, 1]])).T.ravel()
        if x0 >= 0 and y0 >= 0 and x1 < w and y1 < h:
            kept.append(Label(lb.value, (x0, y0, x1, y1)))
        elif x1 > 0 and y1 > 0 and x0 < w and y0 < h:
            gx, gy = body * (x1 - x0), body * (y1 - y0)
            cv2.rectangle(
                out, (int(x0 - gx) - 4, int(y0 - gy) - 4), (int(x1 + gx) + 4, int(y1 + gy) + 4), (0, 0, 0), -1
            )
    if body:
        for lb in kept:
            x0, y0, x1, y1 = lb.box
            g = 0.1 * (x1 - x0)
            a, b = max(0, int(x0 - g)), max(0, int(y0 - g))
            c, d = min(w, int(x1 + g) + 1), min(h, int(y1 + g) + 1)
            out[b:d, a:c] = clean[b:d, a:c]
    return out, kept


def wide(img: np.ndarray, labels: list[Label], k: int = 2) -> tuple[np.ndarray, list[Label]]:
    """``k`` x ``k`` copies of the frame side by side (its dice 1/k as big relative to the frame, as sharp)."""
    h, w = img.shape[:2]
    shifts = [(dx, dy) for dy in range(0, k * h, h) for dx in range(0, k * w, w)]
    moved = [
        Label(lb.value, (lb.box[0] + dx, lb.box[1] + dy, lb.box[2] + dx, lb.box[3] + dy))
        for dx, dy in shifts
        for lb in labels
    ]
    return np.tile(img, (k, k, 1)), moved


EXPOSURES = {"over": 1.8, "under": 0.45}  # the light's gain in the exposure views
CASTS = {"warm": (0.6, 0.9, 1.2), "cold": (1.25, 1.0, 0.7)}  # the channels' gains (B, G, R) in the colour-cast views
VIEWS = ("plain", "close2", "close3", "close4", "wide2", "wide3", "wide4", *EXPOSURES, *CASTS)


def view(img: np.ndarray, labels: list[Label], name: str) -> tuple[np.ndarray, list[Label]]:
    """One of the ``--views``: plain, close2/close3/close4, wide2/wide3/wide4, over, under, warm, cold."""
    if name == "plain":
        return img, labels
    if name in EXPOSURES or name in CASTS:
        gain = np.array(EXPOSURES[name] if name in EXPOSURES else CASTS[name], np.float32)
        return np.clip(img.astype(np.float32) * gain, 0, 255).astype(np.uint8), labels
    if name.startswith("close"):
        return close_up(img, labels, float(name[5:]))
    if name.startswith("wide"):
        return wide(img, labels, int(name[4:]))
    raise ValueError(f"unknown view {name!r}: one of {', '.join(VIEWS)}")


def run(root: Path, method: str, view_name: str = "plain") -> dict[str, dict[str, float | int]]:
    """Scores per set and over all held-out images for one method."""
    profile = VisionProfile(method=method)
    per_set: dict[str, list[ImageScore]] = {}
    ms: dict[str, list[float]] = {}
    for path in held_out(root):
        img = load_image(path)
        h, w = img.shape[:2]
        lab = path.parent.parent / "labels" / (path.stem + ".txt")
        labels = read_yolo_labels(lab, w, h) if lab.exists() else []
        img, labels = view(img, labels, view_name)
        if view_name != "plain" and not labels:
            continue
        t0 = time.perf_counter()
        det = read_dice(img, profile)
        dt = (time.perf_counter() - t0) * 1000
        name = path.parent.parent.name
        per_set.setdefault(name, []).append(score_image(labels, predictions(det)))
        ms.setdefault(name, []).append(dt)
    out: dict[str, dict[str, float | int]] = {}
    for name, scores in per_set.items():
        out[name] = {**total(scores).to_json(), "median_ms": round(statistics.median(ms[name]), 1)}
    every = [s for v in per_set.values() for s in v]
    out["all"] = {
        **total(every).to_json(),
        "median_ms": round(statistics.median([m for v in ms.values() for m in v]), 1),
    }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", type=Path, help="folder holding felt-trays/ and angled-webcam/")
    ap.add_argument("--methods", default="classical,learned,hybrid")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--views", default="plain", help="comma-separated, any of: " + ", ".join(VIEWS))
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for view_name in args.views.split(","):
        for method in args.methods.split(","):
            report(args.root, method, view_name, args.json)


def report(root: Path, method: str, view_name: str, as_json: bool) -> None:
    res = run(root, method, view_name)
    if as_json:
        print(json.dumps({"method": method, "view": view_name, **res}))
        return
    for name, r in res.items():
        print(
            f"{method:9s} {view_name:6s} {name:14s} images {r['images']:3d} dice {r['dice']:4d} "
            f"accuracy {r['accuracy']:.1%} "
            f"wrong {r['wrong']} missed {r['missed']} false {r['false']} ({r['false_rate']:.1%}) "
            f"entirely right {r['perfect_images']:.0%} median {r['median_ms']} ms"
        )


if __name__ == "__main__":
    main()
