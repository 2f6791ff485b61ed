"""Score the classical, learned and hybrid readers on the held-out photos only (``heldout.txt``), per set and overall,
with the project's scoring rule, plus median ms per image on one core. Usage, from the repository root:
    .venv/bin/python -m companion.vision.training.heldout_eval ../shared/dice [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import cv2

from companion.vision.dataset import load_image, predictions
from companion.vision.pipeline import VisionProfile, read_dice
from companion.vision.scoring import ImageScore, read_yolo_labels, score_image, total
from companion.vision.training.data import HELD_OUT_FILE


def held_out(root: Path) -> list[Path]:
    """The held-out image paths listed in ``heldout.txt`` (``set/images/name`` per line)."""
    return [root / line.strip() for line in HELD_OUT_FILE.read_text().splitlines() if line.strip()]


def run(root: Path, method: str) -> dict[str, dict[str, float | int]]:
    """Scores per set and over all held-out images for one method."""
    profile = VisionProfile(method=method)
    per_set: dict[str, list[ImageScore]] = {}
    ms: dict[str, list[float]] = {}
    for path in held_out(root):
        img = load_image(path)
        h, w = img.shape[:2]
        lab = path.parent.parent / "labels" / (path.stem + ".txt")
        labels = read_yolo_labels(lab, w, h) if lab.exists() else []
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
    args = ap.parse_args()
    cv2.setNumThreads(1)
    for method in args.methods.split(","):
        res = run(args.root, method)
        if args.json:
            print(json.dumps({"method": method, **res}))
            continue
        for name, r in res.items():
            print(
                f"{method:9s} {name:14s} images {r['images']:3d} dice {r['dice']:4d} accuracy {r['accuracy']:.1%} "
                f"wrong {r['wrong']} missed {r['missed']} false {r['false']} ({r['false_rate']:.1%}) "
                f"entirely right {r['perfect_images']:.0%} median {r['median_ms']} ms"
            )


if __name__ == "__main__":
    main()
