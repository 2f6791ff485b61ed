"""Train the die verifier (issue #20) and export it to ONNX: "is this candidate a die's top face?".

The detector proposes die-like spots and the face classifiers read them; neither knows much of what is not a die
(holes, specks, coins, buttons, printed and woven patterns, toy bricks): they saw two photo sets and plain renders.
The verifier sees each candidate with its surroundings (``verifier.CONTEXT`` x the box, ``verifier.CROP`` px) and
answers die / not a die; a candidate it rejects is dropped whatever its value confidence.

Data (``--root`` holds the development sets; ``--leave-out SET`` trains a leave-one-set-out fold):
- the ``train`` parts (``sets.fold``) of the photo sets: labelled dice are positives; what the detector proposes
  at a low threshold that matches no label is a negative, unless the face classifiers read it as a sure die (the
  labels of some sets leave dice out: a die in a neighbouring tray, a die the labeller skipped);
- ``--scenes N`` appearance-wide renders (``tools/synth/wide.py``) on surfaces that include the training photos
  with their dice painted out: dice of every look are positives; the things that are not dice, the detector's
  proposals off every die, boxes slipped half a die or more off a die and boxes spanning two touching dice are
  negatives.
Boxes are jittered as the detector's are (size 0.6-1.3x, centre up to 0.15 of a side), crops turned any angle
and mirrored, with the colour changes of ``data.colour_changes``.

Offline only; needs PyTorch (CPU) and ``onnx``. The shipped verifiers, from the repository root (2-core machine,
25 min each; the first one's ``--seed`` was not recorded, so another run gives a close, not an identical, model;
the second is the same command with ``--seed 5``, and the reader takes the mean of the two, ``verifier.MODEL_PATHS``):
    .venv/bin/python -m tools.dicetrain.train_verifier ../shared/dice --scenes 1500 --scene-seed 710000 \
        --minutes 25 --threads 1 --out companion/vision/models/dice_verifier.onnx
    .venv/bin/python -m tools.dicetrain.train_verifier ../shared/dice --scenes 1500 --scene-seed 710000 \
        --minutes 25 --threads 1 --seed 5 --out companion/vision/models/dice_verifier_2.onnx
The leave-one-set-out folds of ``loso.py`` (no photo surfaces, so nothing of the left-out set is in the renders;
again with ``--seed 4 --out /tmp/f/grey-mixed/dice_verifier_2.onnx`` for the second of the pair):
    .venv/bin/python -m tools.dicetrain.train_verifier ../shared/dice --leave-out grey-mixed --no-photo-surfaces \
        --scenes 1000 --scene-seed 720000 --minutes 12 --threads 1 --seed 3 --out /tmp/f/grey-mixed/dice_verifier.onnx
Tried and not shipped (docs/dice-reader.md): ``--clutter 2`` (more aggressive on real dice), crops at the frame's
edge (``at_an_edge``), ``--discs`` (dice with pips on a printed disc), ``--exposure 0.3`` (the shipped command,
seed 5: more of the over-exposed views read, more things kept on cluttered tables), ``--on-things 0.2`` (a fifth
fewer rendered things kept on cluttered tables, but in the felt-trays fold more of the unseen carpet kept: 764 and
828 false dice against 547 and 402 without it, same seeds; ``--things-for-spots``: 676 and 592), ``--where`` (no
fewer dominoes kept, fewer over-exposed dice read); seventh session of 2026-12-05.
``--randconv S`` (a share S of the crops through a random convolution, ``train_values.random_convolution``):
measured 2026-12-07 (twenty-fifth session) on the grey-mixed fold, the fold command above with seeds 3 and 4 as a
pair: 65.27 %, false 121, against 67.74 %, 119 for the fold's pair without it: not used.
``--shots N`` (with ``--leave-out SET``; ``--shot-seed``, ``--shot-repeat``, ``sets.few_shots``): also N photos of
the left-out set's ``train`` part, a table's few calibration photos. Measured 2026-12-06 (thirteenth session,
docs/dice-reader.md) on the grey-mixed fold, the command above with ``--shots 20 --shot-seed 0 --shot-repeat 5``
and seeds 3 and 4 against the same without ``--shots``, all four at once (~2,450 steps each): grey-mixed ``val``
62.45 -> 64.03 %, ``test`` 65.97 -> 67.65 % at 0.5, as many false dice.
``--snaps S`` (a share S of the renders with rows of metal snap studs and rivets, ``wide.random_snaps``): measured
2026-12-07 (twenty-third session, docs/dice-reader.md) with the fold command above and ``--snaps 0.3``: felt-trays
fold, seeds 3 and 4, 57.86 % / 62 false against 58.28 % / 68 with the detector pair, 57.22 % / 143 against 57.58 %
/ 181 with the upright detector alone; grey-mixed fold, seed 3 alone, 67.36 % / 122 against 65.72 % / 119: not used.
``--speckle S`` (renders on a speckled carpet, ``wide_surfaces.surface_speckle``), the same session, felt-trays fold,
seed 3 alone, ``--speckle 0.3`` against none: 57.86 % / 76 false against 58.07 % / 72 with the detector pair, 57.01 %
/ 197 against 57.58 % / 185 with the upright detector alone: more invented dice, not used.
``--solid N`` (with ``--solid-seed``): N scenes of dice drawn in three dimensions more (``tools/synth/dice3d.py``).
Measured 2026-12-06 (sixteenth session) on the grey-mixed fold, the fold command above with ``--solid 1000
--solid-seed 820000``, seeds 3 and 4: 63.63 % against 63.48 %, 105 false dice against 100; not used.
Rendered scenes and mined candidates are cached under ``--cache`` (the same seeds give the same files).
"""

from __future__ import annotations

import argparse
import hashlib
import pickle
import time
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from companion.vision import learned, verifier
from tools.dicetrain.data import (
    INCOMPLETE_LABELS,
    Sample,
    add_upright_option,
    colour_changes,
    load,
    matches,
    side_faces,
    upright_by_labels,
)
from tools.dicetrain.sets import add_shot_options, fold, with_shots
from tools.dicetrain.train_values import add_solid_options, export_crops_net, random_convolution
from tools.synth.dice3d import render_scene3d
from tools.synth.wide import PLAIN, Backgrounds, Shares, clutter_photo, render_scene


def cbr(i: int, o: int, s: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())


class VerifierNet(nn.Module):
    """48x48 crop (the candidate box grown 2.25x) -> 2 logits: not a die, a die. With ``where`` the last feature
    map is pooled to 3x3 and the cells go to the last layer apart, so it knows what lies at the crop's centre
    (the candidate) and what beside it (a domino's other half, a brick's other studs); without, it is averaged
    over the crop (as shipped)."""

    def __init__(self, c: tuple[int, int, int, int] = (16, 24, 32, 64), where: bool = False) -> None:
        super().__init__()
        self.export = False
        self.where = where
        self.body = nn.Sequential(
            cbr(3, c[0], 2),  # 24
            cbr(c[0], c[1]),
            cbr(c[1], c[2], 2),  # 12
            cbr(c[2], c[2]),
            cbr(c[2], c[3], 2),  # 6
            cbr(c[3], c[3]),
        )
        self.fc = nn.Linear(c[3] * (9 if where else 1), 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.body(x)
        out = self.fc(F.avg_pool2d(f, 2).flatten(1) if self.where else f.mean(dim=(2, 3)))
        return torch.softmax(out, dim=1) if self.export else out


@dataclass
class Pools:
    """Candidate boxes per kind: (image index, box) pairs."""

    dice: list[tuple[int, np.ndarray]]
    proposals: list[tuple[int, np.ndarray]]  # detector proposals on no die
    kept: list[tuple[int, np.ndarray]]  # ... of those, the ones the present reader keeps as dice (its false dice)
    things: list[tuple[int, np.ndarray]]  # rendered things that are not dice


def mine(samples: list[Sample], hidden: list[np.ndarray], real: list[bool], threshold: float = 0.1) -> Pools:
    """Every candidate the present reader's detector proposes (at the scale it would choose), sorted into dice and
    negatives; a proposal on a hidden (mostly covered) rendered die is neither. On a photo, a proposal the face
    classifiers read as a sure die (die and face both 0.95) is left out: the labels may have skipped it; a photo
    of a set in ``INCOMPLETE_LABELS`` gives no negatives at all."""
    pools = Pools([], [], [], [])
    look = replace(learned.DEFAULT_SETTINGS, find_threshold=threshold)
    for i, s in enumerate(samples):
        for b in s.boxes:
            pools.dice.append((i, b.astype(np.float32)))
        for b in s.others:
            pools.things.append((i, b.astype(np.float32)))
        if s.set_name in INCOMPLETE_LABELS:
            continue
        found = learned.find_at_the_right_scale(s.image, look)
        if not len(found):
            continue
        boxes = found.boxes.astype(np.float32)
        off = [not matches(b, s.boxes).any() and not matches(b, hidden[i]).any() for b in boxes]
        if not any(off):
            continue
        cand = boxes[np.asarray(off)]
        p = learned.classify_faces(s.image, cand, look.die_threshold, look.sure)
        die = 1.0 - p[:, 0]
        face = p[:, 1:].max(axis=1) / np.maximum(die, 1e-6)
        for b, d, f in zip(cand, die, face, strict=True):
            if real[i] and d >= 0.95 and f >= 0.95:
                continue
            pools.proposals.append((i, b))
            if d >= look.die_threshold:
                pools.kept.append((i, b))
        if i % 100 == 0:
            print(f"  mined {i}/{len(samples)}: {len(pools.proposals)} proposals, {len(pools.kept)} kept", flush=True)
    return pools


def scene_cache(cache: Path, n: int, seed0: int, backgrounds: Backgrounds, shares: Shares = PLAIN) -> Path:
    """The file ``scenes`` keeps these scenes in (named for the seeds, the surfaces and the shares other than
    ``wide.PLAIN``'s)."""
    discs = f"-discs{shares.discs:g}" if shares.discs else ""
    blocks = f"-blocks{shares.blocks:g}" if shares.blocks != PLAIN.blocks else ""
    veins = f"-veins{shares.veins:g}" if shares.veins else ""
    kind = "solid" if shares.solid else "wide"
    tilt = f"-tilt{shares.tilt:g}" if shares.solid and shares.tilt != PLAIN.tilt else ""
    snaps = f"-snaps{shares.snaps:g}" if shares.snaps else ""
    speckle = f"-speckle{shares.speckle:g}" if shares.speckle else ""
    return cache / f"{kind}-{n}-{seed0}-{len(backgrounds.photos)}{discs}{blocks}{veins}{tilt}{snaps}{speckle}.pkl"


def scene_sample(seed: int, backgrounds: Backgrounds, shares: Shares = PLAIN) -> tuple[Sample, np.ndarray]:
    """One rendered wide scene as a sample (its things as ``others``) and its hidden dice's boxes; with
    ``shares.solid`` its dice drawn in three dimensions (``dice3d.render_scene3d``), a sample of the pool "solid"."""
    if shares.solid:
        sc, kind = render_scene3d(seed, backgrounds, shares=shares), "solid"
    else:
        sc, kind = render_scene(seed, backgrounds, shares=shares), "wide"
    keep = ~sc.hidden
    illegible = ~sc.legible[keep]
    sample = Sample(sc.image, sc.boxes[keep], sc.values[keep], kind, Path(f"{kind}-{seed}"), sc.things, illegible)
    return sample, sc.boxes[sc.hidden]


_FORKED: Backgrounds | None = None  # the surfaces ``scenes``' worker processes render on (inherited by fork)


def _forked_scene(seed: int, shares: Shares) -> tuple[Sample, np.ndarray]:
    assert _FORKED is not None
    return scene_sample(seed, _FORKED, shares)


def scenes(
    cache: Path, n: int, seed0: int, backgrounds: Backgrounds, procs: int = 1, shares: Shares = PLAIN
) -> tuple[list[Sample], list[np.ndarray]]:
    """``n`` rendered wide scenes as samples (things as ``others``) and their hidden dice, cached; rendered on
    ``procs`` forked processes when over 1 (the same scenes: each is its seed's); ``shares``: ``wide.Shares``."""
    global _FORKED
    path = scene_cache(cache, n, seed0, backgrounds, shares)
    if path.exists():
        with path.open("rb") as f:
            return pickle.load(f)  # type: ignore[no-any-return]
    samples, hidden = [], []
    t0 = time.time()
    if procs > 1:
        from multiprocessing import get_context

        _FORKED = backgrounds
        with get_context("fork").Pool(procs) as pool:
            done = pool.map(partial(_forked_scene, shares=shares), range(seed0, seed0 + n), chunksize=25)
        _FORKED = None
        samples, hidden = [d[0] for d in done], [d[1] for d in done]
        print(f"  rendered {n} on {procs} processes ({time.time() - t0:.0f}s)", flush=True)
    for k in range(len(samples), n):
        sample, hid = scene_sample(seed0 + k, backgrounds, shares)
        samples.append(sample)
        hidden.append(hid)
        if k % 100 == 0:
            print(f"  rendered {k}/{n} ({time.time() - t0:.0f}s)", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump((samples, hidden), f)
    return samples, hidden


def cluttered_photos(photos: list[Sample], copies: int) -> list[Sample]:
    """``copies`` of each photo (not of sets in ``INCOMPLETE_LABELS``) with things that are not dice put on its
    table (``wide.clutter_photo``), the things as negatives: real dice on real tables with other things about."""
    out = []
    for k in range(copies):
        for i, s in enumerate(photos):
            if s.set_name in INCOMPLETE_LABELS:
                continue
            img, things, _ = clutter_photo(s.image, s.boxes, 30_000_000 + 10_000 * k + i)
            out.append(Sample(img, s.boxes, s.values, s.set_name, s.path, things))
    return out


def painted_out(samples: list[Sample]) -> list[np.ndarray]:
    """The photos with their labelled dice painted out (``cv2.inpaint``): real table surfaces without dice (not
    the photos of sets in ``INCOMPLETE_LABELS``: dice would be left on them)."""
    out = []
    for s in samples:
        if s.set_name in INCOMPLETE_LABELS:
            continue
        mask = np.zeros(s.image.shape[:2], np.uint8)
        for x0, y0, x1, y1 in s.boxes.astype(int):
            w, h = x1 - x0, y1 - y0
            cv2.rectangle(mask, (x0 - w // 3, y0 - h // 3), (x1 + w // 3, y1 + h // 3), 255, -1)
        small = cv2.resize(s.image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
        m = cv2.resize(mask, (small.shape[1], small.shape[0]), interpolation=cv2.INTER_NEAREST)
        filled = cv2.inpaint(small, m, 5, cv2.INPAINT_TELEA)
        out.append(cv2.resize(filled, (s.image.shape[1], s.image.shape[0]), interpolation=cv2.INTER_LINEAR))
    return out


def crop(img: np.ndarray, box: np.ndarray, rng: np.random.Generator, jitter: bool) -> np.ndarray:
    """The verifier's crop of ``box`` as at run time; with ``jitter`` the box is moved and resized as the
    detector's boxes are, and the crop turned any angle and maybe mirrored."""
    b = np.asarray(box, np.float64)
    if jitter:
        w, h = b[2] - b[0], b[3] - b[1]
        s = float(np.exp(rng.uniform(np.log(0.6), np.log(1.3))))
        a = float(np.exp(rng.uniform(-0.12, 0.12)))
        d = rng.uniform(0, 2 * np.pi)
        shift = rng.uniform(0, 0.15)
        cx = (b[0] + b[2]) / 2 + shift * np.cos(d) * w
        cy = (b[1] + b[3]) / 2 + shift * np.sin(d) * h
        b = np.array([cx - w * s * a / 2, cy - h * s / a / 2, cx + w * s * a / 2, cy + h * s / a / 2])
        angle, flip = float(rng.uniform(0, 360)), bool(rng.random() < 0.5)
    else:
        angle, flip = 0.0, False
    m = learned.crop_matrix(b, angle, flip, verifier.CROP, verifier.CONTEXT)
    side = max(b[2] - b[0], b[3] - b[1]) * verifier.CONTEXT
    interp = cv2.INTER_AREA if side > 2 * verifier.CROP else cv2.INTER_LINEAR
    out = cv2.warpAffine(img, m, (verifier.CROP, verifier.CROP), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    if jitter and rng.random() < SMALL_VIEWS:  # as a die of 7-15 px would come out: fewer pixels, blown up
        k = int(rng.integers(10, 24))
        small = cv2.resize(out, (k, k), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (verifier.CROP, verifier.CROP), interpolation=cv2.INTER_LINEAR)
    if jitter and rng.random() < EDGE_VIEWS:
        out = at_an_edge(out, rng)
    return out


SMALL_VIEWS = 0.15  # share of training crops seen as from a tiny die (a big frame's 7-15 px dice)
EDGE_VIEWS = 0.2  # share of training crops seen as from a candidate near the frame's edge (at_an_edge)


def at_an_edge(out: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The crop as it comes out where the frame ends inside it: past a cut on one or two sides, the last row or
    column is repeated (``BORDER_REPLICATE``, as at run time). A die filling a third of a close-up photo has most
    of its surroundings outside the frame; the leave-one-set-out verifier that never saw such photos dropped them
    (grey-mixed: the dice it dropped were a median 0.34 of the photo's long side, those it kept 0.22)."""
    out = out.copy()
    n = out.shape[0]
    margin = int(n * (1 - 1 / verifier.CONTEXT) / 2)  # where the candidate box starts
    for side in rng.choice(4, size=int(rng.integers(1, 3)), replace=False):
        cut = int(rng.integers(1, max(2, margin)))
        if side == 0:
            out[:cut] = out[cut]
        elif side == 1:
            out[n - cut :] = out[n - cut - 1]
        elif side == 2:
            out[:, :cut] = out[:, cut : cut + 1]
        else:
            out[:, n - cut :] = out[:, n - cut - 1 : n - cut]
    return out


def proposals_on_things(samples: list[Sample], pools: Pools) -> list[tuple[int, np.ndarray]]:
    """The detector's proposals whose centre lies on a rendered thing that is not a die (``Sample.others``): a
    domino's half, a brick's studs, a button's holes, the parts of things the verifier keeps most often on
    cluttered tables (``loso.py``'s "false dice on")."""
    return [(i, b) for i, b in pools.proposals if matches(b, samples[i].others, 1.0).any()]


def off_die(s: Sample, rng: np.random.Generator) -> np.ndarray | None:
    """A box slipped off a die (0.6-1.1 of its side), or spanning it and a touching neighbour."""
    if not len(s.boxes):
        return None
    k = int(rng.integers(len(s.boxes)))
    b = s.boxes[k]
    w, h = b[2] - b[0], b[3] - b[1]
    c = (b[:2] + b[2:]) / 2
    if len(s.boxes) > 1 and rng.random() < 0.4:  # two dice as one giant box
        d = np.hypot(*(((s.boxes[:, :2] + s.boxes[:, 2:]) / 2 - c).T))
        d[k] = np.inf
        j = int(np.argmin(d))
        if d[j] < 1.8 * max(w, h):
            both = np.concatenate([np.minimum(b[:2], s.boxes[j, :2]), np.maximum(b[2:], s.boxes[j, 2:])])
            return both.astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    r = rng.uniform(0.6, 1.1)
    cc = c + r * np.array([w * np.cos(a), h * np.sin(a)])
    if matches(np.concatenate([cc, cc]), s.boxes).any():
        return None
    return np.array([cc[0] - w / 2, cc[1] - h / 2, cc[0] + w / 2, cc[1] + h / 2], np.float32)


def random_spot(s: Sample, rng: np.random.Generator) -> np.ndarray | None:
    h, w = s.image.shape[:2]
    side = float(np.median(s.boxes[:, 2] - s.boxes[:, 0])) if len(s.boxes) else float(rng.uniform(14, 90))
    side *= float(rng.uniform(0.6, 1.5))
    c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
    box = np.array([c[0] - side / 2, c[1] - side / 2, c[0] + side / 2, c[1] + side / 2], np.float32)
    return None if matches(box, s.boxes).any() else box


def batch(
    samples: list[Sample],
    pools: Pools,
    rng: np.random.Generator,
    n: int,
    real: list[bool],
    sides: list[tuple[int, np.ndarray]] | None = None,
    side_share: float = 0.0,
    exposure: float = 0.15,
    on_things: list[tuple[int, np.ndarray]] | None = None,
    things_share: float = 0.0,
    things_for_spots: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    real_dice = [d for d in pools.dice if real[d[0]]]
    rendered_dice = [d for d in pools.dice if not real[d[0]]]
    xs, ys = [], []
    while len(xs) < n:
        r = rng.random()
        box: np.ndarray | None
        if r < 0.5:
            pool = real_dice if (rng.random() < 0.5 and real_dice) else rendered_dice or real_dice
            i, box = pool[int(rng.integers(len(pool)))]
            label = 1
        else:
            label = 0
            q = rng.random()
            if sides and rng.random() < side_share:
                i, box = sides[int(rng.integers(len(sides)))]
            elif on_things and things_share > 0 and rng.random() < things_share:
                i, box = on_things[int(rng.integers(len(on_things)))]
            elif q < 0.25 and pools.kept:
                i, box = pools.kept[int(rng.integers(len(pools.kept)))]
            elif q < 0.5 and pools.proposals:
                i, box = pools.proposals[int(rng.integers(len(pools.proposals)))]
            elif q < 0.65 and pools.things:
                i, box = pools.things[int(rng.integers(len(pools.things)))]
            elif q < 0.85:
                i = int(rng.integers(len(samples)))
                box = None if samples[i].set_name in INCOMPLETE_LABELS else off_die(samples[i], rng)
            elif on_things and things_for_spots:  # the random spots' share goes to the things' proposals
                i, box = on_things[int(rng.integers(len(on_things)))]
            else:
                i = int(rng.integers(len(samples)))
                box = None if samples[i].set_name in INCOMPLETE_LABELS else random_spot(samples[i], rng)
            if box is None:
                continue
        c = crop(samples[i].image, box, rng, jitter=True)
        c = colour_changes(c, rng, (0.3, 1.0), exposure=exposure, casts=0.15, motion=0.05)
        xs.append(learned.normalise_crop(c))
        ys.append(label)
    return torch.from_numpy(np.stack(xs)), torch.tensor(ys)


def export(model: VerifierNet, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    export_crops_net(model, path, verifier.CROP)


def val_report(model: VerifierNet, samples: list[Sample], pools: Pools, real: list[bool]) -> str:
    """Die probability of the validation dice and of the proposals the present reader keeps as dice."""
    model.eval()
    rng = np.random.default_rng(0)
    out = []
    for name, pool in (("dice", pools.dice), ("kept", pools.kept), ("proposals", pools.proposals)):
        if not pool:
            continue
        xs = np.stack([learned.normalise_crop(crop(samples[i].image, b, rng, jitter=False)) for i, b in pool])
        with torch.no_grad():
            p = torch.softmax(model(torch.from_numpy(xs)), dim=1)[:, 1].numpy()
        qs = " ".join(f"{(p >= t).mean():.3f}" for t in (0.3, 0.5, 0.7, 0.9))
        out.append(f"{name} ({len(pool)}): share >= 0.3/0.5/0.7/0.9: {qs}")
    model.train()
    return "; ".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", help="folder holding the development sets (felt-trays/, angled-webcam/, grey-mixed/)")
    ap.add_argument("--leave-out", default=None, help="a set to leave out (a leave-one-set-out fold)")
    ap.add_argument("--scenes", type=int, default=1500, help="appearance-wide rendered scenes")
    ap.add_argument("--scene-seed", type=int, default=700000)
    add_solid_options(ap)
    ap.add_argument(
        "--no-photo-surfaces",
        action="store_true",
        help="render on made and pattern surfaces only (no training photos): one render cache for every fold",
    )
    ap.add_argument("--clutter", type=int, default=0, help="copies of each photo with things that are not dice on it")
    ap.add_argument("--discs", type=float, default=0.0, help="share of rendered dice with pips on a printed disc")
    ap.add_argument("--snaps", type=float, default=0.0, help="share of renders with rows of metal snap studs")
    ap.add_argument("--speckle", type=float, default=0.0, help="share of renders on a speckled carpet")
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--batch", type=int, default=192)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", default="/tmp/dice_verifier")
    ap.add_argument("--detector", default=None, help="mine proposals with this detector (ONNX)")
    ap.add_argument("--side-faces", type=float, default=0.0, help="share of negatives on side faces (side_faces)")
    ap.add_argument("--exposure", type=float, default=0.15, help="share of crops seen over- or under-exposed")
    ap.add_argument("--where", action="store_true", help="the last layer sees a 3x3 map, not the crop's mean")
    ap.add_argument(
        "--things-for-spots",
        action="store_true",
        help="the random spots' share of negatives drawn from the proposals on rendered things instead",
    )
    ap.add_argument("--on-things", type=float, default=0.0, help="share of negatives from proposals on rendered things")
    add_shot_options(ap)
    ap.add_argument(
        "--randconv", type=float, default=0.0, help="share of crops through a random convolution (train_values)"
    )
    ap.add_argument("--out", default=str(verifier.MODEL_PATH))
    add_upright_option(ap)
    args = ap.parse_args()
    shares = Shares(discs=args.discs, snaps=args.snaps, speckle=args.speckle)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    if args.detector:  # a verifier for another detector learns what that one proposes off the dice
        from tools.dicetrain.loso import use_detector

        use_detector(Path(args.detector))
    parts = fold(args.root, args.leave_out)
    paths, shots = with_shots(args.root, args, parts["train"])
    photos = load(paths)
    if args.upright_labels:
        photos = upright_by_labels(photos)
    print(f"{len(photos)} training photos ({args.leave_out or 'no set'} left out)", flush=True)
    cache = Path(args.cache) / (args.leave_out or "all")
    if args.no_photo_surfaces:  # one set of renders for every fold (nothing of a left-out set in it)
        scene_dir, backgrounds = Path(args.cache) / "shared", Backgrounds()
    else:
        scene_dir, backgrounds = cache, Backgrounds(painted_out(photos))
    rendered, hidden_r = scenes(scene_dir, args.scenes, args.scene_seed, backgrounds, shares=shares)
    if args.solid:  # tools/synth/dice3d.py: lit rounded cubes with sunk pips, their sides in view
        solid_shares = replace(shares, solid=True, tilt=args.solid_tilt)
        solid, hidden_s = scenes(scene_dir, args.solid, args.solid_seed, backgrounds, shares=solid_shares)
        rendered, hidden_r = rendered + solid, hidden_r + hidden_s
    composites = cluttered_photos(photos, args.clutter)
    samples = photos + composites + rendered
    real = [True] * (len(photos) + len(composites)) + [False] * len(rendered)
    hidden = [np.zeros((0, 4), np.float32)] * (len(photos) + len(composites)) + hidden_r
    mined_by = (*learned.MODEL_PATHS, *learned.FACES_PATHS, *learned.FACES_PARTNERS)
    miners = hashlib.sha256(b"".join(p.read_bytes() for p in mined_by if p.is_file()))
    key = f"{args.scenes}-{args.scene_seed}-{int(args.no_photo_surfaces)}-{args.clutter}-{miners.hexdigest()[:8]}"
    key += f"-discs{args.discs:g}" if args.discs else ""
    key += f"-snaps{args.snaps:g}" if args.snaps else ""
    key += f"-speckle{args.speckle:g}" if args.speckle else ""
    key += f"-solid{args.solid}s{args.solid_seed}" if args.solid else ""
    key += f"-tilt{args.solid_tilt:g}" if args.solid and args.solid_tilt != PLAIN.tilt else ""
    key += f"-shots{len(shots)}s{args.shot_seed}x{args.shot_repeat}" if shots else ""
    key += "-upright" if args.upright_labels else ""
    pool_path = cache / f"pools-{key}.pkl"
    if pool_path.exists():
        with pool_path.open("rb") as f:
            pools = pickle.load(f)
    else:
        pools = mine(samples, hidden, real)
        pool_path.parent.mkdir(parents=True, exist_ok=True)
        with pool_path.open("wb") as f:
            pickle.dump(pools, f)
    val = load(parts["val"])
    val_pools = mine(val, [np.zeros((0, 4), np.float32)] * len(val), [True] * len(val))
    print(
        f"{len(samples)} images: {len(pools.dice)} dice, {len(pools.proposals)} proposals off dice "
        f"({len(pools.kept)} kept by the present reader), {len(pools.things)} things; val: {len(val)} photos",
        flush=True,
    )
    sides = side_faces(samples) if args.side_faces else []
    if sides:
        print(f"{len(sides)} side-face negatives", flush=True)
    on_things = proposals_on_things(samples, pools) if args.on_things or args.things_for_spots else []
    if on_things:
        print(f"{len(on_things)} proposals on things that are not dice", flush=True)
    model = VerifierNet(where=args.where)
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    budget = args.minutes * 60
    t0 = time.time()
    step, avg, acc = 0, 0.0, 0.0
    gen = torch.Generator().manual_seed(args.seed)
    model.train()
    while (el := time.time() - t0) < budget:
        lr = args.lr * min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * el / budget))
        for g in opt.param_groups:
            g["lr"] = lr
        x, y = batch(
            samples,
            pools,
            rng,
            args.batch,
            real,
            sides,
            args.side_faces,
            args.exposure,
            on_things,
            args.on_things,
            args.things_for_spots,
        )
        if args.randconv:
            x = random_convolution(x, gen, args.randconv)
        out = model(x)
        loss = F.cross_entropy(out, y, label_smoothing=0.05)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        avg = 0.98 * avg + 0.02 * float(loss.detach())
        acc = 0.98 * acc + 0.02 * float((out.argmax(1) == y).float().mean())
        if step % 50 == 0:
            done = 1 - 0.98**step
            print(f"step {step} t {el:.0f}s lr {lr:.5f} loss {avg / done:.3f} acc {acc / done:.3f}", flush=True)
        if step % 500 == 0:
            print("  val: " + val_report(model, val, val_pools, [True] * len(val)), flush=True)
            export(model, Path(args.out))
            model.train()
    export(model, Path(args.out))
    torch.save(model.state_dict(), Path(args.out).with_suffix(".pt"))
    print("  val: " + val_report(model, val, val_pools, [True] * len(val)), flush=True)
    print(f"done: {step} steps in {time.time() - t0:.0f}s -> {args.out}")


if __name__ == "__main__":
    main()
