"""The development sets split for honest figures (issue #20): by sequence or sitting, never by single frame.

Each set's images are grouped into *sequences* (photos that are near copies of each other), and whole sequences go
to one part: ``train`` (70 %), ``val`` (15 %, for choosing designs and thresholds) and ``test`` (15 %, reported,
never used to choose anything). Leave-one-set-out folds train on the ``train`` parts of two sets, choose on their
``val`` parts and report on ALL of the third set.

How sequences are found:
- ``angled-webcam``: frames of seven videos (``train_five_12.jpg``: video ``train_five``, frame 12); runs of
  ``WEBCAM_RUN`` consecutive frames of one video are one sequence, and the frame on each side of a cut between
  two parts is dropped, so no two parts hold neighbouring frames.
- ``felt-trays``: phone bursts (``PXL_20240219_191021760.jpg``: the time it was taken); photos under
  ``BURST_GAP`` seconds apart are one sequence.
- ``grey-mixed``: a shuffled export of several sittings, with copies of one photo turned or cropped; photos whose
  labelled values are the same multiset and whose grey histograms are close are linked, and linked photos are
  one sequence.
- any other set: one sequence per image.
"""

from __future__ import annotations

import argparse
import itertools
import random
import re
from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from companion.vision.dataset import image_paths, load_image
from companion.vision.scoring import read_yolo_labels

ALL_SETS = ("felt-trays", "angled-webcam", "grey-mixed")
PARTS = {"train": 0.70, "val": 0.15, "test": 0.15}
SEED = 20261204
WEBCAM_RUN = 20
BURST_GAP = 10.0  # seconds
HIST_CLOSE = 0.25  # L1 distance of 16-bin grey histograms (each summing to 1) that links two grey-mixed photos


def _frame(path: Path) -> tuple[str, int] | None:
    m = re.match(r"(.+?)_(\d+)$", path.stem)
    return (m.group(1), int(m.group(2))) if m else None


def _taken(path: Path) -> float | None:
    m = re.search(r"_(\d{2})(\d{2})(\d{2})(\d{3})$", path.stem)
    if not m:
        return None
    hh, mm, ss, ms = (int(g) for g in m.groups())
    return hh * 3600 + mm * 60 + ss + ms / 1000


def sequences(set_dir: Path) -> list[list[Path]]:
    """The set's images grouped into sequences (see the module docstring), each sorted, in a stable order."""
    paths = image_paths(set_dir / "images")
    name = set_dir.name
    if name == "angled-webcam" and all(_frame(p) for p in paths):
        runs: dict[tuple[str, int], list[Path]] = {}
        for p in paths:
            video, n = _frame(p)  # type: ignore[misc]
            runs.setdefault((video, n // WEBCAM_RUN), []).append(p)
        return [sorted(v, key=lambda p: _frame(p)[1]) for _, v in sorted(runs.items())]  # type: ignore[index]
    if name == "felt-trays" and all(_taken(p) is not None for p in paths):
        ordered = sorted(paths, key=lambda p: _taken(p))  # type: ignore[arg-type,return-value]
        out: list[list[Path]] = [[ordered[0]]] if ordered else []
        for prev, p in itertools.pairwise(ordered):
            if _taken(p) - _taken(prev) > BURST_GAP:  # type: ignore[operator]
                out.append([])
            out[-1].append(p)
        return out
    if name == "grey-mixed":
        return _linked(paths)
    return [[p] for p in paths]


def _linked(paths: list[Path]) -> list[list[Path]]:
    keys, hists = [], []
    for p in paths:
        lab = p.parent.parent / "labels" / (p.stem + ".txt")
        img = load_image(p)
        h, w = img.shape[:2]
        values = sorted(lb.value for lb in read_yolo_labels(lab, w, h)) if lab.exists() else []
        keys.append(tuple(values))
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img
        hist = cv2.calcHist([grey], [0], None, [16], [0, 256]).ravel()
        hists.append(hist / max(1.0, float(hist.sum())))
    parent = list(range(len(paths)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_key: dict[tuple[int, ...], list[int]] = {}
    for i, k in enumerate(keys):
        by_key.setdefault(k, []).append(i)
    for members in by_key.values():
        for a_i, a in enumerate(members):
            for b in members[a_i + 1 :]:
                if float(np.abs(hists[a] - hists[b]).sum()) < HIST_CLOSE:
                    parent[root(a)] = root(b)
    groups: dict[int, list[Path]] = {}
    for i, p in enumerate(paths):
        groups.setdefault(root(i), []).append(p)
    return sorted((sorted(g) for g in groups.values()), key=lambda g: g[0].name)


def parts(set_dir: Path, seed: int = SEED) -> dict[str, list[Path]]:
    """The set's images in ``train`` / ``val`` / ``test`` by whole sequences (shuffled with a fixed seed, filled
    to each part's share of images in turn, test first); for the webcam videos the frames beside a cut are left out."""
    seqs = sequences(set_dir)
    order = list(range(len(seqs)))
    random.Random(f"{seed}-{set_dir.name}").shuffle(order)
    total = sum(len(s) for s in seqs)
    out: dict[str, list[Path]] = {k: [] for k in PARTS}
    names = ["test", "val", "train"]  # the small parts first, so each gets at least its share
    k, filled, bound = 0, 0, PARTS[names[0]] * total
    owner: dict[int, str] = {}
    for i in order:
        while k < len(names) - 1 and filled >= bound:
            k += 1
            bound += PARTS[names[k]] * total
        owner[i] = names[k]
        filled += len(seqs[i])
    if set_dir.name == "angled-webcam":
        _drop_cut_neighbours(seqs, owner)
    for i, seq in enumerate(seqs):
        out[owner[i]] += seq
    return {k: sorted(v) for k, v in out.items()}


def _drop_cut_neighbours(seqs: list[list[Path]], owner: dict[int, str]) -> None:
    """Webcam runs: the first (last) frame of a run whose previous (next) run of the same video went to another
    part is left out, so no two parts hold neighbouring frames."""
    video = [(_frame(s[0]) or ("", 0))[0] if s else "" for s in seqs]
    first = [i > 0 and video[i - 1] == video[i] and owner[i - 1] != owner[i] for i in range(len(seqs))]
    last = [i + 1 < len(seqs) and video[i + 1] == video[i] and owner[i + 1] != owner[i] for i in range(len(seqs))]
    for i in range(len(seqs)):
        seqs[i] = seqs[i][int(first[i]) : len(seqs[i]) - int(last[i])]


def fold(root: str | Path, leave_out: str | None, sets: Iterable[str] = ALL_SETS) -> dict[str, list[Path]]:
    """``train`` / ``val`` / ``report`` image lists: with ``leave_out`` a set name, train and val from the other
    sets and report = all of it; with None (the shipped models), train and val from every set and report = their
    test parts."""
    root = Path(root)
    out: dict[str, list[Path]] = {"train": [], "val": [], "report": []}
    for name in sets:
        set_dir = root / name
        if not set_dir.is_dir():
            continue
        p = parts(set_dir)
        if name == leave_out:
            out["report"] += p["train"] + p["val"] + p["test"]
        else:
            out["train"] += p["train"]
            out["val"] += p["val"]
            if leave_out is None:
                out["report"] += p["test"]
    return out


def training_part(root: str | Path, leave_out: str | None, spare: Iterable[Path] = ()) -> list[Path]:
    """``fold(root, leave_out)["train"]`` without the images in ``spare`` (the ``heldout.txt`` photos, with
    ``--spare-held-out``: the shipped detector and classifiers never saw them, so a model trained without them
    can be compared with the shipped ones on photos neither saw)."""
    spared = {Path(p).resolve() for p in spare}
    return [p for p in fold(root, leave_out)["train"] if p.resolve() not in spared]


def add_part_options(ap: argparse.ArgumentParser) -> None:
    """The training scripts' choice of photos: ``--parts``, ``--leave-out``, ``--spare-held-out`` (see
    ``training_photos``)."""
    ap.add_argument(
        "--parts",
        action="store_true",
        help="train on the sequence-split train parts of every set (tools/dicetrain/sets.py) instead of data.split",
    )
    ap.add_argument("--leave-out", default=None, help="with --parts: a set left out (leave-one-set-out fold)")
    ap.add_argument(
        "--spare-held-out",
        action="store_true",
        help="with --parts: leave heldout.txt's photos out of training (never seen by the shipped models either)",
    )
    add_shot_options(ap)


def add_shot_options(ap: argparse.ArgumentParser) -> None:
    """``--shots``, ``--shot-seed``, ``--shot-repeat``: a few photos of the left-out set (``few_shots``), for every
    training script (``add_part_options``; ``train_verifier.py``)."""
    ap.add_argument(
        "--shots",
        type=int,
        default=0,
        help="with --leave-out SET: also this many photos of SET's train part (a table's few calibration photos)",
    )
    ap.add_argument("--shot-seed", type=int, default=0, help="which photos --shots draws (sets.few_shots)")
    ap.add_argument("--shot-repeat", type=int, default=1, help="each --shots photo this many times in training")


def training_photos(root: str | Path, args: argparse.Namespace) -> list[Path]:
    """The photos a training script trains on, as ``add_part_options``' options say: ``data.split``'s training
    photos, or with ``--parts`` the ``train`` parts (``training_part``), less a left-out set and, with
    ``--spare-held-out``, ``heldout.txt``'s photos."""
    from tools.dicetrain.data import split
    from tools.dicetrain.heldout_eval import held_out

    if not args.parts:
        return split(root)[0]
    spare = held_out(Path(root)) if args.spare_held_out else []
    paths = training_part(root, args.leave_out, spare)
    if spare:
        print(f"{len(paths)} training photos (the held-out photos spared)", flush=True)
    return with_shots(root, args, paths)[0]


def with_shots(root: str | Path, args: argparse.Namespace, paths: list[Path]) -> tuple[list[Path], list[Path]]:
    """``paths`` with ``add_shot_options``' photos of the left-out set added (``few_shots``, each ``--shot-repeat``
    times, at least once), and those photos alone (every training script: ``training_photos``,
    ``train_verifier.py``)."""
    shots = few_shots(root, args.leave_out, args.shots, args.shot_seed)
    if shots:
        print(f"{len(shots)} photos of {args.leave_out} added, each {args.shot_repeat} times", flush=True)
    return paths + shots * max(1, args.shot_repeat), shots


def few_shots(root: str | Path, leave_out: str | None, n: int, seed: int = 0) -> list[Path]:
    """``n`` photos of the left-out set's ``train`` part, drawn by ``seed``: the few photos of their own dice a
    family could give the reader at its table (``--shots``), so a fold measures what they are worth. Never from
    its ``val`` or ``test`` parts, which the fold is then reported on."""
    if not n or not leave_out:
        return []
    pool = parts(Path(root) / leave_out)["train"]
    return sorted(random.Random(seed).sample(pool, min(n, len(pool))))
