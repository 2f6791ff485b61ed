"""Compare a candidate reader with the shipped one on photos neither saw (issue #20), scored as ``companion dice
eval`` (plus unflagged mistakes, ``loso.warnings``).

The shipped detector and face classifiers trained on 80 % of felt-trays and angled-webcam chosen by image
(``data.split``), so most of those sets' ``val`` and ``test`` parts (``sets.py``) are photos they saw, and a model
trained on the sequence-split ``train`` parts is judged there against a reader that learnt the answers. The only
photos that neither saw are ``heldout.txt``'s (never trained on by the shipped models; a candidate trained with
``--parts --spare-held-out`` leaves them out too) and grey-mixed's ``val`` and ``test`` parts (no shipped detector
or classifier saw grey-mixed; a candidate with ``--parts`` trains on its ``train`` part only). Those are the
``UNSEEN`` groups and their sum is the comparison; the felt-trays and angled-webcam ``val``/``test`` parts are
printed too, as ``seen`` (by the shipped models, not by the candidate). ``--clutter``: the same photos with 6-14
rendered things put on each table (``loso.cluttered``).

Usage, from the repository root (the verifier pair is always the shipped one):
    .venv/bin/python -m tools.dicetrain.unseen ../shared/dice [--detector FILE [FILE]] [--faces DIR] [--clutter] \
        [--set NAME=VALUE] [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from companion.vision.dataset import READ_PIXELS, labels_of
from companion.vision.pipeline import VisionProfile, read_dice
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings
from hardware.imagefile import read_image
from tools.dicetrain import loso
from tools.dicetrain.heldout_eval import held_out
from tools.dicetrain.sets import parts

UNSEEN = ("held-out felt-trays", "held-out angled-webcam", "grey-mixed val", "grey-mixed test")
SEEN = ("felt-trays val", "felt-trays test", "angled-webcam val", "angled-webcam test")


def groups(root: Path) -> dict[str, list[Path]]:
    """The photo groups by name: ``UNSEEN`` (photos neither the shipped models nor a ``--spare-held-out``
    candidate saw) and ``SEEN`` (parts the shipped detector and classifiers saw most of)."""
    held = held_out(root)
    out = {f"held-out {s}": [p for p in held if p.parent.parent.name == s] for s in ("felt-trays", "angled-webcam")}
    for name in ("grey-mixed", "felt-trays", "angled-webcam"):
        if (root / name).is_dir():
            split = parts(root / name)
            out[f"{name} val"], out[f"{name} test"] = split["val"], split["test"]
    return {k: [p for p in v if p.is_file()] for k, v in out.items()}


def score(paths: list[Path], clutter: bool = False, settings: ReaderSettings = DEFAULT_SETTINGS) -> dict[str, Any]:
    """The reader's figures (``loso.figures``) on ``paths``, read with ``settings``; with ``clutter`` things put on
    every table first."""
    out: dict[str, loso.Scored] = {}
    profile = VisionProfile(learned=settings)
    for i, path in enumerate(paths):
        img = read_image(path, READ_PIXELS).pixels
        h, w = img.shape[:2]
        truth = labels_of(path.parent.parent, path, w, h)
        if clutter:
            img, _ = loso.cluttered(img, truth, 1000 + i)
        loso.tally(out, "part", truth, read_dice(img, profile))
    return loso.figures(out.get("part", loso.Scored()))


def summed(figures: dict[str, dict[str, Any]], names: tuple[str, ...]) -> dict[str, Any]:
    """The groups ``names`` of ``figures`` counted together (dice, right, wrong, missed, false, unflagged, right
    dice flagged)."""
    parts_here = [figures[n] for n in names if n in figures]
    dice = sum(f["dice"] for f in parts_here)
    total = {k: sum(f[k] for f in parts_here) for k in ("right", "wrong", "missed", "false", "unwarned", "asked")}
    right = total.pop("right")
    return {
        "dice": dice,
        "right": right,
        "accuracy": round(100 * right / max(dice, 1), 2),
        **total,
        "false_pct": round(100 * total["false"] / max(dice, 1), 2),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", type=Path, help="folder holding felt-trays/, angled-webcam/ and grey-mixed/")
    loso.add_reader_options(ap)
    ap.add_argument("--clutter", action="store_true", help="rendered things put on every table")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    settings = loso.reader_from(args)
    figures: dict[str, dict[str, Any]] = {}
    for name, paths in groups(args.root).items():
        figures[name] = score(paths, args.clutter, settings)
        if not args.json:
            f = figures[name]
            print(
                f"{name:24s} {f['dice']:5d} dice  {f['accuracy']:6.2f}% right, {f['wrong']} wrong, {f['missed']} "
                f"missed, {f['false']} false, {f['unwarned']} unflagged, {f['asked']} right flagged",
                flush=True,
            )
    result = {"groups": figures, "unseen": summed(figures, UNSEEN), "seen": summed(figures, SEEN)}
    if args.json:
        print(json.dumps(result))
    else:
        for key in ("unseen", "seen"):
            s = result[key]
            print(
                f"{key:24s} {s['dice']:5d} dice  {s['accuracy']:6.2f}% right, {s['wrong']} wrong, {s['missed']} "
                f"missed, {s['false']} false ({s['false_pct']}%), {s['unwarned']} unflagged, {s['asked']} right flagged"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
