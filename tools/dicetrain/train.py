"""Train the learned dice detector (tiny CenterNet) on the split in ``data.py`` and export it to ONNX.

Offline only; needs PyTorch (CPU) and the ``onnx`` package for the export. The shipped model was made in three
runs on 2 shared CPU cores, from the repository root:
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --minutes 22 --threads 2
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --minutes 9 --threads 2 \
        --resume /tmp/dice_train/last.pt --synthetic 240 --work /tmp/dice_ft --lr 0.0015 --warmup 50 --seed 1
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --minutes 20 --threads 2 \
        --resume /tmp/dice_ft/last.pt --synthetic 240 --work /tmp/dice_zoom --lr 0.0015 --warmup 50 --seed 2 \
        --close-ups 0.3
(22 min on the photos' training split, then 9 min more adding 240 rendered scenes from ``tools/synth``, then
20 min more with 30% of the views zoomed in 1.6-4x, so dice much bigger than in the photos are found whole).
``--exposure`` (a share of over- or under-exposed views, ``data.misexpose``) was tried for 12 min more on top of
that (``--resume /tmp/dice_zoom/last.pt ... --seed 3 --close-ups 0.3 --exposure 0.25 --lr 0.001``): the shipped
detector already finds burnt-out dice (it is the classifiers that refused them), and the run's boxes were worse
on a rendered black die, so it was not shipped. ``--faint 120`` (120 more rendered scenes, half
their pip dice with faint pips, ``data.faint_ink``) was tried for 12 min on top of the shipped run (``--resume
/tmp/dice_zoom/last.pt --synthetic 240 --faint 120 --lr 0.001 --warmup 50 --seed 5 --close-ups 0.3``): it finds
faint dice far more surely, but reported twice the false dice on the held-out webcam photos, so it was not
shipped.
Tried 2026-12-04 (issue #20) and not shipped: the shipped detector trained two runs more, from its exported
weights (batch norms frozen), on the sequence-split ``train`` parts of all three development sets (grey-mixed's
among them, which no earlier run saw), the second also with 1,500 appearance-wide scenes (``tools/synth/wide.py``):
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --init-onnx \
        companion/vision/models/dice_centernet.onnx --synthetic 240 --close-ups 0.3 --minutes 32 --threads 1 \
        --seed 31 --lr 0.001 --warmup 50 --work /tmp/rt/det --out /tmp/rt/dice_centernet.onnx
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --init-onnx /tmp/rt/dice_centernet.onnx \
        --synthetic 240 --close-ups 0.3 --wide 1500 --wide-seed 700000 --cache /tmp/dice_verifier/all \
        --minutes 25 --threads 1 --seed 43 --lr 0.001 --warmup 50 --work /tmp/rt/w --out /tmp/rt/w.onnx
It read more dice on every part (grey-mixed whole set 69.7 -> 73.2 %) but invented twice the dice on the webcam
set (false 1.6 -> 3.1 %) and sure false dice in webcam close-ups (``test_learned``'s close-up test); figures in
docs/dice-reader.md, "Trials of 2026-12-04". Two more runs the same evening, not shipped for the same reason
(the webcam's side faces; figures there): the second run again with the webcam weighed more (``--mix
felt,webcam,felt,synth,grey,webcam,wide --minutes 25 --seed 43``, otherwise as above), and one that never saw
grey-mixed, from the shipped detector:
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --leave-out grey-mixed --init-onnx \
        companion/vision/models/dice_centernet.onnx --synthetic 240 --close-ups 0.3 --wide 1500 --wide-seed 700000 \
        --cache /tmp/dice_verifier/all --mix felt,webcam,felt,synth,webcam,wide --minutes 30 --threads 1 --seed 61 \
        --lr 0.001 --warmup 50 --work /tmp/s13/g --out /tmp/s13/g.onnx
Tried 2026-12-05, not shipped (figures in docs/dice-reader.md, "Trials of 2026-12-05"): *m* trained 30 min
more with the negatives on the labelled dice's side faces weighed 5x (``--side-weight 4``, ``data.side_face_boxes``:
below and beside each top face of the sets that label the top face):
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --init-onnx /tmp/s13/m.onnx \
        --synthetic 240 --close-ups 0.3 --wide 1500 --wide-seed 700000 --cache /tmp/dice_verifier/all \
        --mix felt,webcam,felt,synth,grey,webcam,wide --side-weight 4 --minutes 30 --threads 1 --seed 71 \
        --lr 0.001 --warmup 50 --work /tmp/s13/m --out /tmp/s14/ms.onnx
(its misses were webcam 1s: the side-face boxes lay on their own faces; with them placed by the face, the same
from *m* with ``--side-weight 4`` and ``8``, ``--minutes 28 --seed 81``: each fails a tiled small-dice test;
``--side-weight 2 --minutes 24 --seed 81`` passes ``test_learned.py`` but, like every detector of this chain
from *m* on, fails the touching-dice and other-layout tests of ``test_reader_synth.py``: not shipped, see docs;
nor 14 min more from it with ``--exposure 0.2 --casts 0.2 --lr 0.0007 --seed 91`` or with the rendered scenes
in three slots of nine, ``--mix felt,synth,webcam,felt,synth,grey,webcam,wide,synth --lr 0.0007 --seed 101``;
from *rt* without the wide renders, ``--side-weight 2 --mix felt,webcam,felt,synth,grey,webcam --minutes 15
--threads 2 --seed 111``, the block is read again but three other reader tests fail; with the renders, half of
them with a block, ``--init-onnx /tmp/rt/dice_centernet.onnx ... --wide 1500 --wide-blocks 0.5 --mix
felt,webcam,felt,synth,grey,webcam,wide --side-weight 2 --minutes 20 --threads 2 --seed 121``, the block is read
again and five reader tests still fail; 17 min more from it, ``--init-onnx B.onnx ... --lr 0.0007 --seed 131``,
two fail: docs)
The chain from *B2* of 2026-12-05 (one thread each, two runs at once; all with ``--synthetic 240 --close-ups 0.3
--wide 1500 --wide-seed 700000 --wide-blocks 0.5 --cache /tmp/dice_verifier/all --side-weight 2 --warmup 50
--casts 0.2 --exposure 0.1 --mix felt,webcam,felt,synth,grey,webcam,wide,wide --threads 1``): *B3b*
``--init-onnx B2.onnx --lr 0.0005 --minutes 20 --seed 151``; *F1* (the webcam boxes grown to the face,
``--face-boxes 1``) ``--init-onnx B3b.onnx --face-boxes 1 --lr 0.0007 --minutes 20 --seed 161``; *G1*
``--init-onnx F1.onnx --face-boxes 1 --lr 0.0003 --minutes 12 --seed 191`` (figures and the one test it fails: docs)
and from *B2* with the base mix ``--mix felt,webcam,felt,synth,grey,webcam,wide`` and no ``--exposure``: *B3a*
``--init-onnx B2.onnx --casts 0.2 --lr 0.0005 --minutes 20 --seed 141``; *J2* (the most read on grey-mixed, three
reader tests fail) ``--init-onnx B3a.onnx --face-boxes 1 --lr 0.0005 --minutes 18 --seed 271``; *K1*
``--init-onnx B3a.onnx --face-boxes 0.5 --casts 0.2 --lr 0.0005 --minutes 14 --seed 281``
and, from the shipped detector again, with the webcam 1s left out of the loss (``--ignore-pip-ones``; the same
data as the chain without ``--casts``/``--exposure`` unless named): *P1* ``--init-onnx
companion/vision/models/dice_centernet.onnx --ignore-pip-ones --lr 0.001 --minutes 50 --seed 401``; *P2* the
same with ``--casts 0.2 --exposure 0.1 --seed 402``; from *P2* 33 min at lr 0.0005 with casts and exposure:
*Q1* ``--ignore-pip-ones --face-boxes 1 --seed 411``, *Q2* ``--ignore-pip-ones --seed 412``; *Q3* from *Q2*
``--ignore-pip-ones --lr 0.0003 --minutes 20 --seed 421`` (figures: docs)
and the felt-trays fold's detector 20 min more with and without 1,500 composites (``--paste``,
``tools/synth/composite.py``: the other sets' real dice on other tables), both at once, one thread each:
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --leave-out felt-trays \
        --init-onnx /tmp/loso/fold2/felt-trays/dice_centernet.onnx --synthetic 240 --close-ups 0.3 --wide 1500 \
        --wide-seed 700000 [--paste 1500] --cache /tmp/dice_verifier/all \
        --mix felt,webcam,felt,synth,grey,wide,wide[,paste,paste] --minutes 20 --threads 1 --seed 9 --lr 0.0015 \
        --warmup 50 --work /tmp/s14/Bw --out /tmp/s14/B/felt-trays/dice_centernet.onnx
Tried 2026-12-06, not shipped (docs/dice-reader.md, "tenth session"; compared with the shipped reader on photos
neither saw by ``tools/dicetrain/unseen.py``): *D*, from the shipped detector on all three sets' ``train`` parts
without ``heldout.txt``'s photos, and *E*, 20 min more from it with the appearance-wide renders:
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --spare-held-out --init-onnx \
        companion/vision/models/dice_centernet.onnx --synthetic 240 --close-ups 0.3 --minutes 35 --threads 1 \
        --seed 31 --lr 0.001 --warmup 50 --work /tmp/s23/D/work --out /tmp/s23/D/dice_centernet.onnx
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --spare-held-out --init-onnx \
        /tmp/s23/D/dice_centernet.onnx --synthetic 240 --close-ups 0.3 --wide 1500 --wide-seed 700000 \
        --wide-blocks 0.5 --cache /tmp/dice_verifier/all --mix felt,webcam,felt,synth,grey,webcam,wide \
        --minutes 20 --threads 2 --seed 43 --lr 0.0007 --warmup 50 --work /tmp/s23/E/work \
        --out /tmp/s23/E/dice_centernet.onnx
and *F*, the photos' parts and the renders in one run from the shipped detector (``--minutes 32 --threads 1 --seed
53 --lr 0.001 --work /tmp/s23/F/work``, ``--init-onnx companion/vision/models/dice_centernet.onnx``, *E*'s data).
Shipped 2026-12-06 as the second of the detector pair (``dice_centernet_2.onnx``; the reader takes the mean of the
two networks' outputs, ``detector.load_detector``; docs/dice-reader.md, "eleventh session"): *D*'s command run
again (10,846 steps in 35 min, one thread, beside other runs), from the first detector as shipped:
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --spare-held-out --init-onnx \
        companion/vision/models/dice_centernet.onnx --synthetic 240 --close-ups 0.3 --minutes 35 --threads 1 \
        --seed 31 --lr 0.001 --warmup 50 --work /tmp/s24/D/work --out companion/vision/models/dice_centernet_2.onnx
(alone it read as the shipped detector on the photos neither saw, 79.51 % against 79.41 %, with 49 false dice
against 44; the pair, finds from 0.225, 80.78 % with 41). It is timed, not counted in steps, so a rerun lands
near these figures.
Replaced 2026-12-06 (twelfth session; docs/dice-reader.md, "twelfth session") by *E2*, that detector trained
22 min more with the appearance-wide renders and their things (the tenth session's *E* recipe, one thread; 6,615
steps), from the eleventh session's file (``git show 151b181:companion/vision/models/dice_centernet_2.onnx``):
    .venv/bin/python -m tools.dicetrain.train ../shared/dice --parts --spare-held-out --init-onnx D.onnx \
        --synthetic 240 --close-ups 0.3 --wide 1500 --wide-seed 700000 --wide-blocks 0.5 \
        --cache /tmp/dice_verifier/all --mix felt,webcam,felt,synth,grey,webcam,wide --minutes 22 --threads 1 \
        --seed 43 --lr 0.0007 --warmup 50 --work /tmp/s25/E2/work --out companion/vision/models/dice_centernet_2.onnx
(*E3*, 15 min more from it with ``--lr 0.0005 --seed 53``, invented fewer dice on plain tables and read fewer: not
shipped, docs.)
Both runs again from the first shipped detector with ``--upright-labels`` (*Du*: *D*'s command, 6,267 steps; *E2u*:
*E2*'s from *Du*, 4,547 steps; one thread beside other runs; twenty-third session, docs/dice-reader.md): 81.96 %
against the shipped pair's 81.18 % on the dice neither saw, more invented dice on the sets it learnt; 20 min more
(``--init-onnx E2u.onnx`` with *E2*'s data, ``--lr 0.0005 --seed 53``, 4,095 steps) 81.76 %; not shipped.
Writes ``companion/vision/models/dice_centernet.onnx`` by default (and a ``.pt`` checkpoint under ``--work``).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from companion.vision import learned
from tools.dicetrain.data import (
    ZOOM,
    Sample,
    add_upright_option,
    augment_with,
    face_sized,
    hard_map,
    ignore_map,
    ignore_pip_ones,
    load,
    rendered,
    side_face_boxes,
    targets,
    upright_by_labels,
)
from tools.dicetrain.sets import add_part_options, training_photos
from tools.dicetrain.train_values import add_solid_options, solid_samples


def cbr(i: int, o: int, k: int = 3, s: int = 1, g: int = 1, d: int = 1) -> nn.Sequential:
    """Conv + batch norm + ReLU."""
    return nn.Sequential(
        nn.Conv2d(i, o, k, s, padding=d * (k // 2), dilation=d, groups=g, bias=False), nn.BatchNorm2d(o), nn.ReLU()
    )


class Block(nn.Module):
    """Residual depthwise-separable block."""

    def __init__(self, c: int, d: int = 1) -> None:
        super().__init__()
        self.dw = cbr(c, c, 3, 1, g=c, d=d)
        self.pw = nn.Sequential(nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.pw(self.dw(x)))


class DiceNet(nn.Module):
    """Stride-4 output: 6 value heat maps (logits in training, probabilities when exported), 2 log sizes,
    2 offsets. Context from stride-8 and stride-16 branches added back on the way up."""

    def __init__(self, c4: int = 32, c8: int = 64, c16: int = 96) -> None:
        super().__init__()
        self.export = False
        self.stem = nn.Sequential(cbr(3, 16, 3, 2), cbr(16, c4, 3, 2))
        self.b4 = nn.Sequential(Block(c4), Block(c4))
        self.down8 = nn.Sequential(cbr(c4, c4, 3, 2, g=c4), cbr(c4, c8, 1))
        self.b8 = nn.Sequential(Block(c8), Block(c8, 2))
        self.down16 = nn.Sequential(cbr(c8, c8, 3, 2, g=c8), cbr(c8, c16, 1))
        self.b16 = nn.Sequential(Block(c16), Block(c16, 2))
        self.lat16 = nn.Sequential(nn.Conv2d(c16, c8, 1, bias=False), nn.BatchNorm2d(c8))
        self.u8 = Block(c8)
        self.lat8 = nn.Sequential(nn.Conv2d(c8, c4, 1, bias=False), nn.BatchNorm2d(c4))
        self.u4 = Block(c4)
        self.head = nn.Sequential(cbr(c4, c4, 1), nn.Conv2d(c4, 10, 1))
        nn.init.constant_(self.head[1].bias[:6], -2.2)  # type: ignore[index]

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f4 = self.b4(self.stem(x))
        f8 = self.b8(self.down8(f4))
        f16 = self.b16(self.down16(f8))
        f8 = self.u8(F.relu(f8 + F.interpolate(self.lat16(f16), scale_factor=2.0, mode="nearest")))
        f4 = self.u4(F.relu(f4 + F.interpolate(self.lat8(f8), scale_factor=2.0, mode="nearest")))
        out = self.head(f4)
        if self.export:
            return torch.cat([torch.sigmoid(out[:, :6]), out[:, 6:]], dim=1)
        return out


def from_onnx(model: DiceNet, path: Path) -> None:
    """Start from a shipped detector whose ``.pt`` is gone: its ONNX weights (batch norms folded into the
    convolutions, in the order the forward pass runs them, which is the order the modules are declared) go into
    the convolutions, and each batch norm becomes the identity plus the folded bias. Train such a model with
    ``freeze_norms`` (batch statistics would undo the folding)."""
    import onnx  # offline only, like torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    nodes = [n for n in graph.node if n.op_type == "Conv"]
    pairs: list[tuple[nn.Conv2d, nn.BatchNorm2d | None]] = []
    for m in model.modules():
        if isinstance(m, nn.Conv2d):
            pairs.append((m, None))
        elif isinstance(m, nn.BatchNorm2d):
            pairs[-1] = (pairs[-1][0], m)
    if len(nodes) != len(pairs):
        raise ValueError(f"{path}: {len(nodes)} convolutions, the model has {len(pairs)}")
    with torch.no_grad():
        for node, (conv, norm) in zip(nodes, pairs, strict=True):
            w = weights[node.input[1]]
            if tuple(w.shape) != tuple(conv.weight.shape):
                raise ValueError(
                    f"{path}: convolution {node.name} is {w.shape}, the model's {tuple(conv.weight.shape)}"
                )
            conv.weight.copy_(torch.from_numpy(w.copy()))
            bias = torch.from_numpy(weights[node.input[2]].copy()) if len(node.input) > 2 else None
            if norm is not None:
                norm.weight.fill_(1.0)
                norm.bias.copy_(bias if bias is not None else torch.zeros_like(norm.bias))
                norm.running_mean.zero_()
                norm.running_var.fill_(1.0 - norm.eps)
            elif conv.bias is not None and bias is not None:
                conv.bias.copy_(bias)


def freeze_norms(model: nn.Module) -> None:
    """Batch norms keep their running statistics while the rest trains."""
    for m in model.modules():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()


def focal(
    logits: torch.Tensor, gt: torch.Tensor, hard: torch.Tensor | None = None, ignore: torch.Tensor | None = None
) -> torch.Tensor:
    """CenterNet's penalty-reduced focal loss, normalised by the number of dice; ``hard`` (B, S, S), when given,
    is an extra weight on the negatives there (1 + hard); ``ignore`` (B, S, S), where 1, takes the 1s' map's
    negatives there out of the loss (``data.ignore_map``)."""
    p = torch.sigmoid(logits).clamp(1e-4, 1 - 1e-4)
    pos = gt.eq(1).float()
    neg = 1 - pos
    if hard is not None:
        neg = neg * (1 + hard.unsqueeze(1))
    if ignore is not None:
        keep = torch.ones_like(neg)
        keep[:, 0] = 1 - ignore
        neg = neg * keep
    pos_loss = torch.log(p) * (1 - p) ** 2 * pos
    neg_loss = torch.log(1 - p) * p**2 * (1 - gt) ** 4 * neg
    n = pos.sum().clamp(min=1)
    return -(pos_loss.sum() + neg_loss.sum()) / n


CLOSE_UP = (1.6, 4.0)  # zoom of the close-up views (dice up to ~4x the size they have in the photos)


POOL_NAMES = {
    "felt": "felt-trays",
    "webcam": "angled-webcam",
    "synth": "synthetic",
    "grey": "grey-mixed",
    "wide": "wide",
    "paste": "paste",
    "solid": "solid",
}


def batch(
    samples: list[Sample],
    rng: np.random.Generator,
    n: int,
    crop: int,
    close_ups: float = 0.0,
    exposure: float = 0.0,
    mix: str | None = None,
    sides: dict[int, np.ndarray] | None = None,
    side_weight: float = 0.0,
    casts: float = 0.0,
) -> tuple[torch.Tensor, ...]:
    """A training batch: half felt-tray photos (the small dice are the hard part), the rest split between the
    webcam photos and rendered scenes (when there are any). A ``close_ups`` share of the views is zoomed in
    (``CLOSE_UP``), so that dice much bigger than in these photos are found whole, not pip by pip; an ``exposure``
    share is over- or under-exposed (``data.misexpose``), a ``casts`` share under a colour cast
    (``data.colour_cast``). ``mix`` (comma-separated ``POOL_NAMES`` keys, one per
    slot, e.g. ``felt,webcam,felt,synth,grey,webcam,wide``) sets the shares instead of the default. ``sides``
    (``id(sample)`` -> boxes, from ``data.side_face_boxes``) are places weighed ``side_weight`` more as negatives
    (the sixth tensor: (B, S, S), zeros without them); the last, (B, S, S), is 1 where a box of value
    ``data.IGNORED`` lies (``data.ignore_map``)."""
    by = {key: [s for s in samples if s.set_name == name] for key, name in POOL_NAMES.items()}
    if mix:
        pools = [by[key.strip()] for key in mix.split(",")]
    else:
        felt, webcam, grey, wide = by["felt"], by["webcam"], by["grey"], by["wide"]
        pools = [felt, webcam, felt, by["synth"] or webcam] + ([grey] if grey else []) + ([wide, wide] if wide else [])
    imgs, hs, whs, offs, masks, hards, ignores = [], [], [], [], [], [], []
    none = np.zeros((0, 4), np.float32)
    long_side = learned.DEFAULT_SETTINGS.long_side
    for i in range(n):
        pool = pools[i % len(pools)] or samples
        s = pool[rng.integers(len(pool))]
        close = close_ups > 0 and rng.random() < close_ups
        zoom = CLOSE_UP if close else ZOOM
        extra = sides.get(id(s), none) if sides else none
        img, boxes, values, extra = augment_with(s, extra, rng, crop, long_side, zoom, exposure, casts)
        h, wh, off, m = targets(boxes, values, crop, learned.STRIDE)
        hards.append(hard_map(extra, crop, learned.STRIDE) * side_weight)
        ignores.append(ignore_map(boxes, values, crop, learned.STRIDE))
        imgs.append((img.astype(np.float32).transpose(2, 0, 1) - learned.MEAN) * learned.SCALE)
        hs.append(h)
        whs.append(wh)
        offs.append(off)
        masks.append(m)
    return tuple(torch.from_numpy(np.stack(a)) for a in (imgs, hs, whs, offs, masks, hards, ignores))


def loss_fn(
    out: torch.Tensor,
    heat: torch.Tensor,
    wh: torch.Tensor,
    off: torch.Tensor,
    mask: torch.Tensor,
    hard: torch.Tensor | None = None,
    ignore: torch.Tensor | None = None,
):
    """Heat focal loss (negatives weighed more where ``hard``, the 1s' negatives left out where ``ignore``) + L1
    on log size (x0.2) and offset at die centres."""
    lh = focal(out[:, :6], heat, hard, ignore)
    m = mask.unsqueeze(1)
    n = mask.sum().clamp(min=1)
    lwh = (torch.abs(out[:, 6:8] - wh) * m).sum() / n
    loff = (torch.abs(out[:, 8:10] - off) * m).sum() / n
    return lh + 0.2 * lwh + loff, lh


def export(model: DiceNet, path: Path) -> None:
    """ONNX with sigmoid on the heat maps; input size free (fully convolutional)."""
    model.eval()
    model.export = True
    dummy = torch.zeros(1, 3, 384, 512)
    torch.onnx.export(
        model,
        (dummy,),
        str(path),
        input_names=["image"],
        output_names=["out"],
        opset_version=13,
        dynamic_axes={"image": {2: "h", 3: "w"}, "out": {2: "gh", 3: "gw"}},
        dynamo=False,
    )
    model.export = False


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root", help="folder holding felt-trays/ and angled-webcam/")
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--batch", type=int, default=12)
    ap.add_argument("--crop", type=int, default=256)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--work", default="/tmp/dice_train")
    ap.add_argument("--out", default=str(learned.MODEL_PATH))
    ap.add_argument("--resume", default=None, help="start from this checkpoint (.pt)")
    ap.add_argument("--synthetic", type=int, default=0, help="also train on this many rendered scenes")
    ap.add_argument("--warmup", type=int, default=100)
    ap.add_argument("--close-ups", type=float, default=0.0, help="share of zoomed-in views (big dice)")
    ap.add_argument("--exposure", type=float, default=0.0, help="share of views with a wrong exposure")
    ap.add_argument("--casts", type=float, default=0.0, help="share of views under a colour cast")
    ap.add_argument("--faint", type=int, default=0, help="also this many rendered scenes, half the dice faint pips")
    ap.add_argument("--init-onnx", default=None, help="start from this exported detector (batch norms frozen)")
    add_part_options(ap)
    ap.add_argument("--wide", type=int, default=0, help="also this many appearance-wide scenes (tools/synth/wide.py)")
    ap.add_argument("--wide-seed", type=int, default=900000)
    add_solid_options(ap)
    ap.add_argument(
        "--wide-blocks", type=float, default=None, help="share of wide scenes with a block of touching dice (0.12)"
    )
    ap.add_argument("--paste", type=int, default=0, help="also this many composites (tools/synth/composite.py)")
    ap.add_argument("--paste-seed", type=int, default=800000)
    ap.add_argument("--cache", default="/tmp/dice_ft", help="folder for the appearance-wide scenes' cache")
    ap.add_argument("--mix", default=None, help="the batch's shares: one pool a slot (see batch)")
    ap.add_argument(
        "--side-weight",
        type=float,
        default=0.0,
        help="weigh the negatives on labelled dice's side faces (data.side_face_boxes) this much more",
    )
    ap.add_argument(
        "--face-boxes",
        type=float,
        default=0.0,
        help="grow boxes that hug the pips (data.PIP_BOXES sets) this share of the way to the face (data.face_sized)",
    )
    ap.add_argument(
        "--ignore-pip-ones",
        action="store_true",
        help="leave the 1s of sets whose boxes hug the pips out of the loss (data.ignore_pip_ones)",
    )
    add_upright_option(ap)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    train_paths = training_photos(args.root, args)
    samples = load(train_paths)
    if args.upright_labels:
        samples = upright_by_labels(samples)
    if args.ignore_pip_ones:
        samples = ignore_pip_ones(samples)
    if args.face_boxes:
        samples = face_sized(samples, args.face_boxes)
    if args.wide:
        from tools.dicetrain.train_values import wide_samples
        from tools.synth.wide import PLAIN, Shares

        shares = PLAIN if args.wide_blocks is None else Shares(blocks=args.wide_blocks)
        samples += wide_samples(Path(args.cache), args.wide, args.wide_seed, samples, shares)
    if args.solid:
        samples += solid_samples(Path(args.cache), args, samples)
    if args.paste:
        from tools.dicetrain.train_values import paste_samples

        samples += paste_samples(Path(args.cache), args.paste, args.paste_seed, samples)
    if args.synthetic:
        extra = rendered(work / f"synthetic-{args.synthetic}.pkl", args.synthetic, 1000)
        samples += extra
        print(f"{len(extra)} rendered scenes added", flush=True)
    if args.faint:  # rendered scenes (seeds apart from the others) where half the pip dice have faint pips
        extra = rendered(work / f"faint-{args.faint}.pkl", args.faint, 60000, faint=0.5)
        samples += extra
        print(f"{len(extra)} rendered scenes with faint pips added", flush=True)
    sides = {id(s): b for s in samples if len(b := side_face_boxes(s))} if args.side_weight else None
    if sides:
        print(f"{sum(len(b) for b in sides.values())} side faces weighed {args.side_weight} more", flush=True)
    model = DiceNet()
    if args.resume:
        model.load_state_dict(torch.load(args.resume))
    if args.init_onnx:
        from_onnx(model, Path(args.init_onnx))
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=1e-4)
    budget = args.minutes * 60
    t0 = time.time()
    step, avg, avgh = 0, 0.0, 0.0
    model.train()
    while True:
        el = time.time() - t0
        if el > budget:
            break
        frac = el / budget
        lr = args.lr * (min(1.0, step / args.warmup) if step < args.warmup else 0.5 * (1 + np.cos(np.pi * frac)))
        for g in opt.param_groups:
            g["lr"] = lr
        if args.init_onnx:
            freeze_norms(model)
        x, heat, wh, off, mask, hard, ignore = batch(
            samples,
            rng,
            args.batch,
            args.crop,
            args.close_ups,
            args.exposure,
            args.mix,
            sides,
            args.side_weight,
            casts=args.casts,
        )
        out = model(x)
        loss, lh = loss_fn(out, heat, wh, off, mask, hard if sides else None, ignore if args.ignore_pip_ones else None)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        avg = 0.98 * avg + 0.02 * float(loss.detach())
        avgh = 0.98 * avgh + 0.02 * float(lh)
        if step % 25 == 0:
            done = 1 - 0.98**step
            print(f"step {step} t {el:.0f}s lr {lr:.5f} loss {avg / done:.3f} heat {avgh / done:.3f}", flush=True)
        if step % 200 == 0:
            torch.save(model.state_dict(), work / "last.pt")
            export(model, Path(args.out))
            model.train()
    torch.save(model.state_dict(), work / "last.pt")
    export(model, Path(args.out))
    print(f"done: {step} steps in {time.time() - t0:.0f}s -> {args.out}")


if __name__ == "__main__":
    main()
