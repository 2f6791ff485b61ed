"""Train the die-face classifier (the second stage of the learned reader) and export it to ONNX.

The detector (``train.py``) finds dice; this small network looks at each found die again, in a crop made from the
full-resolution frame, and says which face is up (1-6) or that it is no die at all (class 0). Crops are made by
``learned.crop_matrix`` exactly as at run time; training crops come from the labelled dice of the photos' training
split (``data.split``) and optional rendered scenes, with any rotation, flips, size/aspect/centre jitter and the
colour changes of ``data.augment``. Negatives are spots away from every die and spots half a die or more off a
die's centre (so a box slipped onto a neighbour or a side face is refused).

Offline only; needs PyTorch (CPU) and ``onnx``. The two shipped classifiers were made on 2 shared CPU cores, from
the repository root (rendered scenes are cached under ``--cache``):
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 28 --synthetic 600 \
        --kinds 300 --seed 4 --out companion/vision/models/dice_faces.onnx
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --synthetic 600 \
        --kinds 300 --stitched 300 --seed 6 --lr 0.001 --resume companion/vision/models/dice_faces.pt \
        --out companion/vision/models/dice_faces_stitched.onnx
then, once the detector had been retrained on close-ups (``train.py``: its false finds are the hard negatives),
each was trained 9 min more from its exported weights (batch norms frozen):
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 9 --synthetic 600 \
        --kinds 300 --seed 14 --lr 0.001 --init-onnx companion/vision/models/dice_faces.onnx \
        --out companion/vision/models/dice_faces.onnx
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 9 --synthetic 600 \
        --kinds 300 --stitched 300 --seed 16 --lr 0.001 --init-onnx companion/vision/models/dice_faces_stitched.onnx \
        --out companion/vision/models/dice_faces_stitched.onnx
then each 12 min more (both at once, one thread each) with a quarter of the crops over- or under-exposed
(``data.misexpose``: before, white dice burnt out on a light table were called "no die"); the hard negatives of
these two runs came from the detector of the ``--exposure`` trial in ``train.py`` (not shipped), which was in
place at the time:
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --threads 1 \
        --synthetic 600 --kinds 300 --seed 24 --lr 0.001 --exposure 0.25 \
        --init-onnx companion/vision/models/dice_faces.onnx --out companion/vision/models/dice_faces.onnx
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --threads 1 \
        --synthetic 600 --kinds 300 --stitched 300 --seed 26 --lr 0.001 --exposure 0.25 \
        --init-onnx companion/vision/models/dice_faces_stitched.onnx \
        --out companion/vision/models/dice_faces_stitched.onnx
then each 12 min more with colour casts (``data.colour_cast``: under a warm lamp white dice turn orange with red
burnt out, and some were called "no die"), hard negatives from the shipped detector:
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --threads 1 \
        --synthetic 600 --kinds 300 --seed 44 --lr 0.0007 --exposure 0.15 --casts 0.25 \
        --init-onnx companion/vision/models/dice_faces.onnx --out companion/vision/models/dice_faces.onnx
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --threads 1 \
        --synthetic 600 --kinds 300 --stitched 300 --seed 46 --lr 0.0007 --exposure 0.15 --casts 0.25 \
        --init-onnx companion/vision/models/dice_faces_stitched.onnx \
        --out companion/vision/models/dice_faces_stitched.onnx
The second-opinion pair (``learned.LAYOUT_PATHS``, read only where the pair above calls a found spot no die) is
those two trained 12 min more each with rendered dice of other makers' pip layouts (``data.pip_style``: big 1s,
red 1s and 4s, small or big pips, near or far apart; and side faces in view as negatives), from the weights above:
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --threads 1 \
        --synthetic 600 --kinds 300 --styles 300 --seed 154 --lr 0.0007 --exposure 0.15 --casts 0.25 \
        --init-onnx companion/vision/models/dice_faces.onnx --out companion/vision/models/dice_faces_layouts.onnx
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 12 --threads 1 \
        --synthetic 600 --kinds 300 --stitched 300 --styles 300 --seed 156 --lr 0.0007 --exposure 0.15 \
        --casts 0.25 --init-onnx companion/vision/models/dice_faces_stitched.onnx \
        --out companion/vision/models/dice_faces_layouts_stitched.onnx
(three earlier runs of that pair: seeds 124/126 and 134/136 with the styles pool as often as a photo set,
144/146 with it half as often, none with side faces. All four runs read the big 1s; as the only classifiers the
runs measured read fewer held-out felt dice with more false ones (81.6%, 81.6%, 82.7% against 83.0%), and every
run read a webcam side face as a sure 6 (``valid_valid_31``, a training photo): hence a second opinion.)
(a run stops on the clock, so a rerun on another machine makes similar, not identical, weights). Tried and not
shipped (docs/dice-reader.md): each classifier 12 min more with ``--looks 300`` (marbled, translucent dice and
coloured pips; seeds 74/76, else as the colour-cast run; 20 min, seeds 84/86; and with darker veins 16 min,
seeds 94/96), 16 min with ``--crop 48 --lr 0.001`` (seeds 54/56), 12 min with ``--motion 0.3`` (seeds 104/106,
else as the colour-cast run), ``--width 2`` from scratch (40 min, one thread, seed 114, ``--exposure 0.15
--casts 0.25``), and the layout pair 12 min more with ``--faint 150`` (rendered dice with faint pips; seeds
174/176, else as shipped). Each run also writes its PyTorch weights next to ``--out`` (``.pt``, not shipped).
Measured 2026-12-05 (docs/dice-reader.md, "fifth session"): the felt-trays fold's classifier with the
appearance-wide renders, ``--parts --leave-out felt-trays ... --seed 64 --minutes 18 --wide 1500 --wide-seed
700000 [--legible-only]`` (the fold's recipe otherwise; its renders first by ``tools/dicetrain/caches.py
--leave-out felt-trays --wide-blocks 0.12 --cache /tmp/dice_verifier/all``), and the shipped pair 12 min more
with them on ``data.split`` (grey-mixed unseen), the colour-cast run's commands with ``--wide 1500 --wide-seed
700000 --seed 214`` / ``216`` (renders by ``caches.py --by-image --wide-blocks 0.12``); and the fold's classifier
with ``--veins 0.3`` too (renders by ``caches.py --leave-out felt-trays --wide-blocks 0.12 --veins 0.3``).
Tried 2026-12-06, not shipped (docs/dice-reader.md, "ninth session"): the shipped pair 30 min more with the
appearance-wide renders (*W*; one thread each, both at once), as the reader's pair and as its second opinion:
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 30 --threads 1 --synthetic 600 \
        --kinds 300 [--stitched 300] --seed 514 [516] --lr 0.0007 --exposure 0.15 --casts 0.25 --wide 1500 \
        --wide-seed 700000 --cache /tmp/dice_verifier/all \
        --init-onnx companion/vision/models/dice_faces[_stitched].onnx --out /tmp/s22/W/dice_faces[_stitched].onnx
and the layout pair 25 min more with them (*LW*, as the second opinion):
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --minutes 25 --threads 1 --synthetic 600 \
        --kinds 300 [--stitched 300] --styles 300 --seed 554 [556] --lr 0.0007 --exposure 0.15 --casts 0.25 \
        --wide 1500 --wide-seed 700000 --cache /tmp/dice_verifier/all \
        --init-onnx companion/vision/models/dice_faces_layouts[_stitched].onnx --out /tmp/s22/LW/...
and the shipped pair 15 min more each on all three sets' ``train`` parts without ``heldout.txt``'s photos (*C*,
compared on photos neither saw by ``tools/dicetrain/unseen.py``; docs/dice-reader.md, "tenth session"):
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --parts --spare-held-out --minutes 15 \
        --threads 1 --synthetic 600 --kinds 300 [--stitched 300] --seed 34 [36] --lr 0.0007 --exposure 0.15 \
        --casts 0.25 --cache /tmp/dice_verifier/all --init-onnx companion/vision/models/dice_faces[_stitched].onnx \
        --out /tmp/s23/C/dice_faces[_stitched].onnx
Shipped 2026-12-06 (twelfth session) as the face classifiers' partners, ``models/dice_faces_stitched_2.onnx`` and
``models/dice_faces_2.onnx`` (the reader takes the mean of each classifier and its partner, ``learned.load_faces``;
docs/dice-reader.md, "twelfth session"): that command run again the session before (8,406 / 8,680 steps in 15
min each, one thread, beside other runs), ``--out`` the two partner files.
Tried the same session, not shipped: the partners 15 min more each with the appearance-wide renders (*CW*; 7,040 /
7,037 steps, one thread each, both at once): as partners they read as many of the unseen dice (81.67 %) but invent
48 against 40 (docs/dice-reader.md, "twelfth session"):
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --parts --spare-held-out --minutes 15 \
        --threads 1 --synthetic 600 --kinds 300 [--stitched 300] --seed 44 [46] --lr 0.0005 --exposure 0.15 \
        --casts 0.25 --wide 1500 --wide-seed 700000 --cache /tmp/dice_verifier/all \
        --init-onnx companion/vision/models/dice_faces[_stitched]_2.onnx --out /tmp/s25/CW/dice_faces[_stitched].onnx
Tried 2026-12-06 (sixteenth session, docs/dice-reader.md), not shipped: the felt-trays fold's partners with 1,500
scenes of dice drawn in three dimensions more (``--solid 1500 --solid-seed 800000``, ``tools/synth/dice3d.py``,
rendered first by ``caches.py --leave-out felt-trays --spare-held-out --solid --wide 1500 --wide-seed 800000``):
63.99 % against 64.62 % without them, as many false dice; with ``--solid-tilt 50`` (the cache likewise), 63.64 %.
Measured 2026-12-07 (twenty-fifth session, docs/dice-reader.md), not shipped: the felt-trays fold's classifier from
scratch with ``--randconv 0.5`` (random convolutions, ``random_convolution``), ``--local 3`` (``LocalContrast``) or
``--mixstyle`` (``mix_style``):
    .venv/bin/python -m tools.dicetrain.train_values ../shared/dice --parts --leave-out felt-trays --minutes 25 \
        --threads 1 --synthetic 600 --kinds 300 --seed 5 [6] --randconv 0.5 --cache /tmp/dice_verifier/felt-trays \
        --out /tmp/rc/faces_s5.onnx
(felt fold 60.39 / 59.20 % against 55.04 / 56.17 % without; ``--local 3`` 54.26 %, ``--mixstyle`` 55.95 %); the
fold files' classifier 15 min more with it (``--minutes 15 --seed 7 --lr 0.0007 --init-onnx FOLD/dice_faces.onnx``:
61.10 % against 57.51 % without), and the shipped pair 15 min more with it (the colour-cast run's commands with
``--minutes 15 --seed 64`` / ``66 --randconv 0.5``: 81.37 % of the unseen dice against the shipped 81.18 %).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from companion.vision import learned
from tools.dicetrain.data import (
    RENDERED,
    Sample,
    add_upright_option,
    colour_changes,
    load,
    matches,
    rendered,
    side_faces,
    upright_by_labels,
)
from tools.dicetrain.sets import add_part_options, training_photos
from tools.synth.wide import PLAIN, Backgrounds, Shares

Geometry = tuple[int, float]  # crop side (px) and context (the die box grown this much): the reader's must match
SHIPPED: Geometry = (learned.CROP, learned.CROP_CONTEXT)


def cbr(i: int, o: int, s: int = 1) -> nn.Sequential:
    return nn.Sequential(nn.Conv2d(i, o, 3, s, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU())


class LocalContrast(nn.Module):
    """A fixed first layer: each pixel less the Gaussian mean of its neighbourhood (``sigma`` px), over the
    neighbourhood's spread (all channels together). What is left is what differs from the face round it (pips,
    edges), whatever the body's colour, its shading and the light; the exported model takes the usual input."""

    def __init__(self, sigma: float) -> None:
        super().__init__()
        r = max(1, round(2.5 * sigma))
        t = torch.arange(-r, r + 1, dtype=torch.float32)
        k = torch.exp(-(t**2) / (2 * sigma * sigma))
        k = k / k.sum()
        self.r = r
        self.register_buffer("kernel", (k[:, None] * k[None, :])[None, None].repeat(3, 1, 1, 1))

    def blur(self, x: torch.Tensor) -> torch.Tensor:
        x = F.pad(x, (self.r,) * 4, mode="replicate")
        return F.conv2d(x, self.kernel[: x.shape[1]], groups=x.shape[1])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        d = x - self.blur(x)
        spread = self.blur(d.pow(2).mean(dim=1, keepdim=True))
        return d / (spread.sqrt() + 0.1)


def random_convolution(
    x: torch.Tensor, gen: torch.Generator, share: float, sizes: tuple[int, ...] = (1, 3, 5, 7)
) -> torch.Tensor:
    """RandConv (Xu et al., ICLR 2021) for a ``share`` of the batch's crops: each passes through a 3-to-3
    convolution with random weights (one kernel size a batch, drawn from ``sizes``), mixed with itself by a random
    share, and is given back its own mean and spread. Colours, local texture and the pips' contrast change from
    crop to crop; the shapes stay (a training-time view only: the exported network is unchanged)."""
    n = x.shape[0]
    pick = torch.rand(n, generator=gen) < share
    if not pick.any():
        return x
    k = sizes[int(torch.randint(len(sizes), (1,), generator=gen))]
    xs = x[pick]
    m = xs.shape[0]
    w = torch.randn(m * 3, 3, k, k, generator=gen) / (3 * k * k) ** 0.5
    flat = xs.reshape(1, m * 3, *xs.shape[2:])  # each crop's three channels a group of its own
    if k > 1:
        flat = F.pad(flat, (k // 2,) * 4, mode="reflect")
    y = F.conv2d(flat, w, groups=m).reshape_as(xs)
    a = torch.rand(m, 1, 1, 1, generator=gen)
    y = a * xs + (1 - a) * y
    mean, spread = xs.mean(dim=(1, 2, 3), keepdim=True), xs.std(dim=(1, 2, 3), keepdim=True)
    y = (y - y.mean(dim=(1, 2, 3), keepdim=True)) / (y.std(dim=(1, 2, 3), keepdim=True) + 1e-3) * spread + mean
    out = x.clone()
    out[pick] = y
    return out


def mix_style(f: torch.Tensor, gen: torch.Generator, p: float = 0.5, alpha: float = 0.1) -> torch.Tensor:
    """MixStyle (Zhou et al., ICLR 2021): with probability ``p``, each crop's feature statistics (per channel
    mean and spread) mixed with another crop's of the batch by a Beta(alpha, alpha) share; training only."""
    if float(torch.rand(1, generator=gen)) > p or f.shape[0] < 2:
        return f
    mu = f.mean(dim=(2, 3), keepdim=True)
    sig = (f.var(dim=(2, 3), keepdim=True) + 1e-6).sqrt()
    norm = (f - mu.detach()) / sig.detach()
    lam = torch.distributions.Beta(alpha, alpha).sample((f.shape[0], 1, 1, 1))
    perm = torch.randperm(f.shape[0], generator=gen)
    mu2, sig2 = lam * mu + (1 - lam) * mu[perm], lam * sig + (1 - lam) * sig[perm]
    return norm * sig2 + mu2


class FaceNet(nn.Module):
    """32x32 crop -> 7 logits (0 = no die, 1-6 = face value). With ``gray`` the network first makes each crop
    grey (the channels' mean) and scales it to zero mean and unit spread, inside the network (the exported model
    takes the same input as any other): a die's colours and the light's level cannot matter, only its pattern."""

    def __init__(self, c: tuple[int, int, int, int] = (16, 32, 48, 64), gray: bool = False, local: float = 0.0) -> None:
        super().__init__()
        self.export = False
        self.gray = gray
        self.local = LocalContrast(local) if local > 0 else None
        self.mixstyle: torch.Generator | None = None  # a generator: MixStyle after the first two blocks (training)
        self.body = nn.Sequential(
            cbr(3, c[0]),
            cbr(c[0], c[1], 2),  # 16
            cbr(c[1], c[1]),
            cbr(c[1], c[2], 2),  # 8
            cbr(c[2], c[2]),
            cbr(c[2], c[3], 2),  # 4
            cbr(c[3], c[3]),
        )
        self.fc = nn.Linear(c[3], 7)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.gray:
            g = x.mean(dim=1, keepdim=True)
            g = g - g.mean(dim=(2, 3), keepdim=True)
            g = g / (g.pow(2).mean(dim=(2, 3), keepdim=True).sqrt() + 0.05)
            x = g.expand(-1, 3, -1, -1)
        if self.local is not None:
            x = self.local(x)
        if self.mixstyle is not None and self.training and not self.export:
            for i, layer in enumerate(self.body):
                x = layer(x)
                if i in (0, 2):
                    x = mix_style(x, self.mixstyle)
            f = x.mean(dim=(2, 3))
        else:
            f = self.body(x).mean(dim=(2, 3))
        out = self.fc(f)
        return torch.softmax(out, dim=1) if self.export else out


def from_onnx(model: FaceNet, path: Path) -> None:
    """Start from a shipped classifier whose ``.pt`` is gone: its ONNX weights (batch norm folded into the
    convolutions) go into the convolutions, and each batch norm becomes the identity plus the folded bias. Train
    such a model with ``freeze_norms`` (batch statistics would undo the folding)."""
    import onnx  # offline only, like torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    convs = [n for n in graph.node if n.op_type == "Conv"]
    gemm = next(n for n in graph.node if n.op_type == "Gemm")
    blocks = list(model.body)
    if len(convs) != len(blocks):
        raise ValueError(f"{path}: {len(convs)} convolutions, the model has {len(blocks)}")
    with torch.no_grad():
        for node, block in zip(convs, blocks, strict=True):
            conv, norm = block[0], block[1]  # type: ignore[index]
            conv.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            norm.weight.fill_(1.0)
            norm.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
            norm.running_mean.zero_()
            norm.running_var.fill_(1.0 - norm.eps)
        w = weights[gemm.input[1]]
        model.fc.weight.copy_(torch.from_numpy(w.copy() if w.shape == model.fc.weight.shape else w.T.copy()))
        model.fc.bias.copy_(torch.from_numpy(weights[gemm.input[2]].copy()))


def freeze_norms(model: nn.Module) -> None:
    """Batch norms keep their running statistics while the rest trains."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def die_views(samples: list[Sample], legible_only: bool = False) -> list[tuple[int, int]]:
    """(sample index, die index) for every labelled die; with ``legible_only`` not the rendered dice whose value
    cannot be read (``Sample.illegible``: still dice, so never a negative, but no value to learn)."""
    return [
        (i, j)
        for i, s in enumerate(samples)
        for j in range(len(s.values))
        if not (legible_only and j < len(s.illegible) and s.illegible[j])
    ]


def without_legibility(samples: list[Sample]) -> int:
    """How many appearance-wide scenes come from a cache made before rendered dice were judged legible (their
    ``illegible`` is empty while they have dice): ``--legible-only`` cannot leave anything out of those."""
    return sum(1 for s in samples if s.set_name == "wide" and len(s.values) and len(s.illegible) != len(s.values))


def view(
    img: np.ndarray,
    box: np.ndarray,
    rng: np.random.Generator,
    shift: float,
    smaller: float = 0.82,
    geometry: Geometry = SHIPPED,
) -> np.ndarray:
    """A crop of ``box`` as the run-time reader makes it, rotated any angle, maybe flipped, scale/aspect jittered
    (the box shrunk down to ``smaller`` or grown by up to 1.22) and the centre moved by ``shift`` (a fraction of
    the die size) in a random direction."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    s = float(np.exp(rng.uniform(np.log(smaller), 0.2)))
    a = float(np.exp(rng.uniform(-0.1, 0.1)))
    d = rng.uniform(0, 2 * np.pi)
    cx = (x0 + x1) / 2 + shift * np.cos(d) * w
    cy = (y0 + y1) / 2 + shift * np.sin(d) * h
    jb = np.array([cx - w * s * a / 2, cy - h * s / a / 2, cx + w * s * a / 2, cy + h * s / a / 2])
    size, context = geometry
    m = learned.crop_matrix(jb, float(rng.uniform(0, 360)), bool(rng.random() < 0.5), size, context)
    # JPEG before cropping would be closer to life but costs too much per crop; blur/noise stand in for it
    border = cv2.BORDER_REPLICATE if rng.random() < 0.7 else cv2.BORDER_REFLECT_101
    interp = cv2.INTER_AREA if max(w, h) * context > 2 * size else cv2.INTER_LINEAR
    return cv2.warpAffine(img, m, (size, size), flags=interp, borderMode=border)


def negative_box(s: Sample, rng: np.random.Generator) -> np.ndarray | None:
    """A die-sized box on no die: away from every die, or half a die or more off one die's centre."""
    h, w = s.image.shape[:2]
    if len(s.boxes):
        sizes = s.boxes[:, 2:] - s.boxes[:, :2]
        centres = (s.boxes[:, :2] + s.boxes[:, 2:]) / 2
        bw, bh = sizes[rng.integers(len(sizes))] * rng.uniform(0.8, 1.25)
    else:
        sizes = np.zeros((0, 2))
        centres = np.zeros((0, 2))
        bw = bh = float(rng.uniform(16, 80))
    for _ in range(20):
        if len(centres) and rng.random() < 0.5:
            k = rng.integers(len(centres))
            d = rng.uniform(0, 2 * np.pi)
            r = rng.uniform(0.55, 1.0)
            c = centres[k] + r * sizes[k] * np.array([np.cos(d), np.sin(d)])
        else:
            c = np.array([rng.uniform(0, w), rng.uniform(0, h)])
        if len(centres):
            rel = np.abs(centres - c) / np.maximum(sizes, 1)
            if np.any((rel[:, 0] < 0.5) & (rel[:, 1] < 0.5)):
                continue
        return np.array([c[0] - bw / 2, c[1] - bh / 2, c[0] + bw / 2, c[1] + bh / 2])
    return None


def hard_negatives(samples: list[Sample], threshold: float = 0.1) -> list[tuple[int, np.ndarray]]:
    """What the detector finds at a low threshold on the training images that matches no labelled die (by the
    scoring rule's centre test): tray rivets, keyboard keys, labels, felt specks. (sample index, box) pairs."""
    out = []
    for i, s in enumerate(samples):
        det = learned.find_dice(s.image, threshold)
        for b in det.boxes.astype(np.float32):
            if not matches(b, s.boxes).any():
                out.append((i, b))
    return out


def batch(
    samples: list[Sample],
    rng: np.random.Generator,
    n: int,
    neg_share: float,
    hard: list[tuple[int, np.ndarray]],
    geometry: Geometry = SHIPPED,
    exposure: float = 0.0,
    casts: float = 0.0,
    motion: float = 0.0,
    sides: list[tuple[int, np.ndarray]] | None = None,
    side_share: float = 0.0,
    legible_only: bool = False,
) -> tuple[torch.Tensor, ...]:
    """A batch of crops and labels (0 = no die): a ``neg_share`` of no-die crops (hard negatives, colour and
    picture dice, spots off the dice; a ``side_share`` of them on ``sides``, labelled dice's side faces, when
    given), the rest labelled dice from the pools below (with ``legible_only``, see ``die_views``)."""
    by_set: dict[str, list[tuple[int, int]]] = {}
    for i, j in die_views(samples, legible_only):
        by_set.setdefault(samples[i].set_name, []).append((i, j))
    # felt-tray dice twice as often as the others (the small dice are the hard part); empty pools left out
    # (rendered dice with looks, ``--looks``, other pip layouts, ``--styles``, or faint pips, ``--faint``, are pools
    # of their own, each half
    # as often as a photo set: among all rendered dice they would be few)
    kinds = ("felt-trays",) * 4 + ("angled-webcam", "synthetic") * 2 + ("looks", "styles", "faint")
    kinds += ("grey-mixed",) * 2 + ("wide",) * 3  # the third photo set and the appearance-wide renders (#20)
    kinds += ("solid",) * 3  # dice drawn in three dimensions (``--solid``)
    pools = [p for p in (by_set.get(k, []) for k in kinds) if p]
    others = [(i, b) for i, s in enumerate(samples) for b in getattr(s, "others", ())]  # old caches lack it
    xs: list[np.ndarray] = []
    ys: list[int] = []
    while len(xs) < n:
        negative, r = rng.random() < neg_share, rng.random()
        if negative and sides and rng.random() < side_share:
            i, box = sides[rng.integers(len(sides))]
            crop, label = view(samples[i].image, box, rng, float(rng.uniform(0, 0.1)), geometry=geometry), 0
        elif negative and hard and r < 0.4:
            i, box = hard[rng.integers(len(hard))]
            crop, label = view(samples[i].image, box, rng, 0.0, geometry=geometry), 0
        elif negative and others and r < 0.6:  # a colour or picture die: no pip die
            i, box = others[rng.integers(len(others))]
            crop, label = view(samples[i].image, box, rng, float(rng.uniform(0, 0.15)), 0.62, geometry), 0
        elif negative:
            s = samples[rng.integers(len(samples))]
            spot = negative_box(s, rng)
            if spot is None:
                continue
            crop, label = view(s.image, spot, rng, 0.0, geometry=geometry), 0
        else:
            pool = pools[rng.integers(len(pools))]
            i, j = pool[rng.integers(len(pool))]
            s = samples[i]
            # whole-face boxes are also shrunk towards the pips: the detector learned both box styles (the webcam
            # set's boxes hug the pip pattern)
            smaller = 0.82 if s.set_name == "angled-webcam" else 0.62
            crop = view(s.image, s.boxes[j], rng, float(rng.uniform(0, 0.15)), smaller, geometry)
            label = int(s.values[j])
        xs.append(learned.normalise_crop(colour_changes(crop, rng, (0.3, 1.0), exposure, casts, motion)))
        ys.append(label)
    return torch.from_numpy(np.stack(xs)), torch.tensor(ys)


def wide_samples(cache: Path, n: int, seed0: int, photos: list[Sample], shares: Shares = PLAIN) -> list[Sample]:
    """``n`` appearance-wide scenes (``tools/synth/wide.py``) as samples of the pool "wide", their things that are
    not dice as negatives; surfaces include the training photos with their dice painted out; ``shares``:
    ``wide.Shares``. Cached."""
    from tools.dicetrain.train_verifier import painted_out, scenes

    backgrounds = Backgrounds(painted_out([s for s in photos if s.set_name != "synthetic"]))
    rendered_, _ = scenes(cache, n, seed0, backgrounds, shares=shares)
    return rendered_


def add_solid_options(ap: argparse.ArgumentParser) -> None:
    """The training tools' options for scenes of dice drawn in three dimensions (``tools/synth/dice3d.py``):
    ``--solid N``, ``--solid-seed``, ``--solid-tilt`` (``wide.Shares.tilt``)."""
    ap.add_argument(
        "--solid",
        type=int,
        default=0,
        help="also this many scenes of dice drawn in three dimensions (tools/synth/dice3d.py), a pool of their own "
        "(train.py: the --mix slot 'solid')",
    )
    ap.add_argument("--solid-seed", type=int, default=800000)
    ap.add_argument(
        "--solid-tilt",
        type=float,
        default=PLAIN.tilt,
        help="the most a solid scene's camera leans off the vertical (degrees)",
    )


def solid_samples(cache: Path, args: argparse.Namespace, samples: list[Sample]) -> list[Sample]:
    """``add_solid_options``' scenes as samples of the pool "solid", on the surfaces of ``samples``' photos (as
    ``wide_samples``; rendered scenes among ``samples`` are left out). Cached."""
    photos = [s for s in samples if s.set_name not in ("wide", "solid")]
    return wide_samples(cache, args.solid, args.solid_seed, photos, Shares(solid=True, tilt=args.solid_tilt))


def paste_samples(cache: Path, n: int, seed0: int, photos: list[Sample]) -> list[Sample]:
    """``n`` composites (``tools/synth/composite.py``: the real dice of ``photos`` put on other tables) as samples
    of the pool "paste", their things that are not dice as negatives; surfaces include the photos with their dice
    painted out. Cached per list of photos."""
    import pickle

    from tools.dicetrain.train_verifier import painted_out
    from tools.synth.composite import compose, cut_dice, cut_key

    real = [s for s in photos if s.set_name not in (*RENDERED, "paste")]
    path = cache / f"paste-{n}-{seed0}-{cut_key([s.path for s in real])}.pkl"
    if path.exists():
        with path.open("rb") as f:
            return pickle.load(f)  # type: ignore[no-any-return]
    cuts = cut_dice(real)
    backgrounds = Backgrounds(painted_out(real))
    out = []
    t0 = time.time()
    for k in range(n):
        c = compose(seed0 + k, cuts, backgrounds)
        out.append(Sample(c.image, c.boxes, c.values, "paste", Path(f"paste-{seed0 + k}"), c.things))
        if k % 250 == 0:
            print(f"  composed {k}/{n} ({time.time() - t0:.0f}s, {len(cuts)} dice to cut from)", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        pickle.dump(out, f)
    return out


def export_crops_net(model: nn.Module, path: Path, size: int, output: str = "p") -> None:
    """Export a network over crops (input "crops", (N, 3, size, size); one output named ``output``) to ONNX with
    its ``export`` switch on (its outputs as the reader takes them), then back in training form. The face
    classifiers, the verifier and the pip counter (``train_counter.py``) are all exported so."""
    model.eval()
    model.export = True
    torch.onnx.export(
        model,
        (torch.zeros(4, 3, size, size),),
        str(path),
        input_names=["crops"],
        output_names=[output],
        opset_version=13,
        dynamic_axes={"crops": {0: "n"}, output: {0: "n"}},
        dynamo=False,
    )
    model.export = False


def export(model: FaceNet, path: Path, size: int) -> None:
    export_crops_net(model, path, size)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", help="folder holding felt-trays/ and angled-webcam/")
    ap.add_argument("--minutes", type=float, default=12.0)
    ap.add_argument("--batch", type=int, default=192)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--neg", type=float, default=0.35, help="share of no-die crops per batch")
    ap.add_argument("--synthetic", type=int, default=0, help="also train on this many rendered scenes")
    ap.add_argument(
        "--kinds", type=int, default=0, help="also this many rendered scenes with colour and picture dice (negatives)"
    )
    ap.add_argument("--stitched", type=int, default=0, help="also this many rendered scenes with stitched rims")
    ap.add_argument(
        "--looks",
        type=int,
        default=0,
        help="also this many rendered scenes with marbled or translucent dice, coloured pips",
    )
    ap.add_argument(
        "--styles",
        type=int,
        default=0,
        help="also this many rendered scenes with other pip layouts (big 1s, red 1s and 4s, small or big pips) and "
        "side faces in view (negatives)",
    )
    ap.add_argument(
        "--faint", type=int, default=0, help="also this many rendered scenes where half the pip dice have faint pips"
    )
    add_part_options(ap)
    ap.add_argument(
        "--wide",
        type=int,
        default=0,
        help="also this many appearance-wide rendered scenes (tools/synth/wide.py; their things are negatives)",
    )
    ap.add_argument("--wide-seed", type=int, default=900000)
    ap.add_argument(
        "--legible-only",
        action="store_true",
        help="with --wide: rendered dice whose pips cannot be read (tools/synth/wide_dice.pip_contrast) teach no value",
    )
    ap.add_argument(
        "--veins", type=float, default=0.0, help="with --wide: share of rendered dice with veins of the pips' colour"
    )
    add_solid_options(ap)
    ap.add_argument("--cache", default="/tmp/dice_ft", help="folder for the rendered scenes' cache")
    ap.add_argument("--out", default=str(learned.FACES_PATHS[0]))
    ap.add_argument("--resume", default=None, help="start from this checkpoint (.pt, written next to --out)")
    ap.add_argument("--init-onnx", default=None, help="start from this exported classifier (batch norms frozen)")
    ap.add_argument("--exposure", type=float, default=0.0, help="share of crops with a wrong exposure")
    ap.add_argument("--casts", type=float, default=0.0, help="share of crops with a colour cast")
    ap.add_argument("--motion", type=float, default=0.0, help="share of crops with a motion blur")
    ap.add_argument("--width", type=float, default=1.0, help="channels of every layer times this (capacity)")
    ap.add_argument("--gray", action="store_true", help="each crop made grey and its contrast evened (FaceNet)")
    ap.add_argument(
        "--local", type=float, default=0.0, help="local contrast evened over this sigma (px) first (FaceNet)"
    )
    ap.add_argument("--randconv", type=float, default=0.0, help="share of crops through a random convolution")
    ap.add_argument("--mixstyle", action="store_true", help="crops' feature statistics mixed in training (MixStyle)")
    ap.add_argument("--side-faces", type=float, default=0.0, help="share of negatives on side faces (batch)")
    ap.add_argument("--detector", default=None, help="mine the hard negatives with this detector (ONNX)")
    ap.add_argument("--crop", type=int, default=learned.CROP, help="crop side (px); the reader must match it")
    ap.add_argument("--context", type=float, default=learned.CROP_CONTEXT, help="crop = die box grown this much")
    add_upright_option(ap)
    args = ap.parse_args()
    geometry: Geometry = (args.crop, args.context)
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    train_paths = training_photos(args.root, args)
    samples = load(train_paths)
    if args.upright_labels:
        samples = upright_by_labels(samples)
    if args.wide:
        samples += wide_samples(Path(args.cache), args.wide, args.wide_seed, samples, Shares(veins=args.veins))
        if args.legible_only and (old := without_legibility(samples)):
            raise SystemExit(
                f"--legible-only: {old} rendered scenes in {args.cache} were cached before dice were judged legible; "
                "remove that cache file (wide-*.pkl) so they are rendered again"
            )
    if args.solid:
        samples += solid_samples(Path(args.cache), args, samples)
    if args.synthetic:
        samples += rendered(Path(args.cache) / f"synthetic-{args.synthetic}.pkl", args.synthetic, 1000)
    if args.kinds:
        samples += rendered(Path(args.cache) / f"kinds-{args.kinds}.pkl", args.kinds, 20000, others=0.4)
    if args.stitched:
        samples += rendered(
            Path(args.cache) / f"stitched-{args.stitched}.pkl", args.stitched, 30000, others=0.2, stitches=True
        )
    if args.looks:
        looks = rendered(Path(args.cache) / f"looks-{args.looks}.pkl", args.looks, 40000, others=0.2, looks=0.7)
        samples += [replace(s, set_name="looks") for s in looks]
    if args.styles:
        cache = Path(args.cache) / f"styles-{args.styles}.pkl"
        styled = rendered(cache, args.styles, 50000, others=0.2, styles=0.8, sides=0.3)
        samples += [replace(s, set_name="styles") for s in styled]
    if args.faint:
        faint = rendered(Path(args.cache) / f"faint-{args.faint}.pkl", args.faint, 60000, others=0.2, faint=0.5)
        samples += [replace(s, set_name="faint") for s in faint]
    if args.detector:
        from tools.dicetrain.loso import use_detector

        use_detector(Path(args.detector))
    hard = hard_negatives(samples)
    sides = side_faces(samples) if args.side_faces else None
    if sides:
        print(f"{len(sides)} side faces among the negatives", flush=True)
    views = len(die_views(samples, args.legible_only))
    print(f"{len(samples)} images, {views} dice, {len(hard)} hard negatives", flush=True)
    model = FaceNet(tuple(round(c * args.width) for c in (16, 32, 48, 64)), gray=args.gray, local=args.local)  # type: ignore[arg-type]
    if args.resume:
        model.load_state_dict(torch.load(args.resume))
    if args.init_onnx:
        from_onnx(model, Path(args.init_onnx))
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    gen = torch.Generator().manual_seed(args.seed)
    if args.mixstyle:
        model.mixstyle = gen
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    budget = args.minutes * 60
    t0 = time.time()
    step, avg, acc = 0, 0.0, 0.0
    model.train()
    if args.init_onnx:
        freeze_norms(model)
    while (el := time.time() - t0) < budget:
        lr = args.lr * min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * el / budget))
        for g in opt.param_groups:
            g["lr"] = lr
        x, y = batch(
            samples,
            rng,
            args.batch,
            args.neg,
            hard,
            geometry,
            args.exposure,
            args.casts,
            args.motion,
            sides,
            args.side_faces,
            args.legible_only,
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
            export(model, Path(args.out), args.crop)
            model.train()
            if args.init_onnx:
                freeze_norms(model)
    export(model, Path(args.out), args.crop)
    torch.save(model.state_dict(), Path(args.out).with_suffix(".pt"))
    print(f"done: {step} steps in {time.time() - t0:.0f}s -> {args.out}")


if __name__ == "__main__":
    main()
