"""Train a pip counter: a small fully convolutional network that reads a die's value by counting its pips.

The face classifiers (``train_values.py``) look at a whole crop and name a value; on a kind of dice they never saw
(the felt-trays fold: marbled gem dice) they call ~19 % of the found dice "no die" and read ~19 % as another
value. A pip is a small round spot that contrasts with the face around it, whatever the die's colours: a network
that sees only a few pixels around each spot (receptive field 13 px of the 32 px crop) and adds up what it finds
there has less to learn about the whole die, so it may carry to dice of other kinds. The network puts a density
on a 16 x 16 grid (ReLU, times a learnt map of where a die's face lies in the crop) whose sum is the count; it is
taught by the labelled value only (the sum against the value: no pip positions needed), on the same crops as the
classifiers (``train_values.batch``). A small head on the pooled features also says die or not, for the crops
that are not dice; the count is not taught there.

Offline only; needs PyTorch (CPU) and ``onnx``. Measured against a face classifier trained on the same crops and
for the same time, the felt-trays fold (docs/dice-reader.md, "twenty-fourth session"):
    .venv/bin/python -m tools.dicetrain.train_counter ../shared/dice --parts --leave-out felt-trays --minutes 25 \
        --threads 1 --synthetic 600 --kinds 300 --seed 5 --cache /tmp/dice_verifier/all --out /tmp/s37/counter.onnx
and ``--judge SET`` reads every labelled die of SET by the counter (and by ``--against`` classifiers) from its
labelled box. With ``--points N`` a third of each batch are dice of N appearance-wide renders (``tools/synth/wide.py``)
whose pips the renderer placed: there the density is also taught to be a blob on each of the die's own pips
(``point_batch``), so the network learns where pips are, not only how many the sets' dice have:
    .venv/bin/python -m tools.dicetrain.train_counter ../shared/dice --parts --leave-out felt-trays --minutes 18 \
        --threads 1 --synthetic 600 --kinds 300 --points 1000 --seed 5 --cache /tmp/dice_verifier/all \
        --out /tmp/s37/counter_pts.onnx
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from companion.vision.crops import CROP, crop_matrix, die_crops, normalise_crop
from tools.dicetrain.data import colour_changes, load, rendered
from tools.dicetrain.sets import add_part_options, training_photos
from tools.dicetrain.train_values import batch, cbr, export_crops_net, hard_negatives

GRID = CROP // 2


class CountNet(nn.Module):
    """32x32 crop -> (density sum, die logit). Receptive field of a density cell: 13 px."""

    def __init__(self, c: tuple[int, int, int] = (24, 48, 64)) -> None:
        super().__init__()
        self.export = False
        self.body = nn.Sequential(cbr(3, c[0]), cbr(c[0], c[1], 2), cbr(c[1], c[2]), cbr(c[2], c[2]))
        self.density = nn.Conv2d(c[2], 1, 1)
        yy, xx = np.mgrid[0:GRID, 0:GRID].astype(np.float32)
        r = np.hypot(yy - (GRID - 1) / 2, xx - (GRID - 1) / 2) / (GRID / 2)
        self.where = nn.Parameter(torch.from_numpy(4.0 * (0.75 - r))[None, None])  # the face's cells, learnt
        self.die = nn.Sequential(cbr(c[2], c[2], 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c[2], 1))

    def density_map(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(N, GRID, GRID) densities and the features they came from."""
        f = self.body(x)
        return (F.relu(self.density(f)) * torch.sigmoid(self.where))[:, 0], f

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.outputs(*self.density_map(x))

    def outputs(self, d: torch.Tensor, f: torch.Tensor) -> torch.Tensor:
        """(count, die) from ``density_map``'s densities and features."""
        count = d.sum(dim=(1, 2))
        die = self.die(f)[:, 0]
        if self.export:
            return torch.stack([count, torch.sigmoid(die)], dim=1)
        return torch.stack([count, die], dim=1)


def export(model: CountNet, path: Path) -> None:
    export_crops_net(model, path, CROP, "count_die")


def loss_of(out: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """Huber on the count for the dice, and die-or-not for every crop."""
    k = y > 0
    die_loss = F.binary_cross_entropy_with_logits(out[:, 1], k.float())
    if not bool(k.any()):
        return die_loss
    count_loss = F.smooth_l1_loss(out[k, 0], y[k].float(), beta=0.5)
    return count_loss + 0.5 * die_loss


PointDie = tuple[np.ndarray, np.ndarray, int, np.ndarray]  # image, box, value, pip centres (N, 2) in image px


def pip_points(n: int, seed0: int) -> list[PointDie]:
    """The readable, uncovered dice of ``n`` appearance-wide scenes (``tools/synth/wide.py``, no photo tables), each
    with where its top face's pips lie in the photo (the renderer's own layout of each die)."""
    from tools.synth.wide import render_scene
    from tools.synth.wide_dice import _pip_spots, face_points

    out: list[PointDie] = []
    t0 = time.time()
    for k in range(n):
        sc = render_scene(seed0 + k)
        for box, d, hidden, legible in zip(sc.boxes, sc.dice, sc.hidden, sc.legible, strict=True):
            if hidden or not legible:
                continue
            uv = np.array(_pip_spots(d.value, d.spread, d.middle), np.float64)
            out.append((sc.image, box.astype(np.float64), int(d.value), face_points(d, uv)))
        if k % 200 == 0:
            print(f"  rendered {k}/{n} ({time.time() - t0:.0f}s, {len(out)} dice)", flush=True)
    return out


def point_batch(dice: list[PointDie], rng: np.random.Generator, n: int) -> tuple[torch.Tensor, ...]:
    """Crops of rendered dice as the reader makes them (any turn, mirror, a little shift and scale), their values,
    and the density each should give: a small blob of mass one on each of its own pips (neighbours' pips and side
    faces get none)."""
    xs, ys, maps = [], [], []
    yy, xx = np.mgrid[0:GRID, 0:GRID].astype(np.float32)
    for _ in range(n):
        img, box, value, pts = dice[int(rng.integers(len(dice)))]
        w, h = box[2] - box[0], box[3] - box[1]
        s = float(np.exp(rng.uniform(np.log(0.85), 0.15)))
        d = rng.uniform(0, 2 * np.pi)
        shift = float(rng.uniform(0, 0.12))
        cx, cy = (box[0] + box[2]) / 2 + shift * np.cos(d) * w, (box[1] + box[3]) / 2 + shift * np.sin(d) * h
        jb = np.array([cx - w * s / 2, cy - h * s / 2, cx + w * s / 2, cy + h * s / 2])
        m = crop_matrix(jb, float(rng.uniform(0, 360)), bool(rng.random() < 0.5))
        interp = cv2.INTER_AREA if max(w, h) * 1.5 > 2 * CROP else cv2.INTER_LINEAR
        crop = cv2.warpAffine(img, m, (CROP, CROP), flags=interp, borderMode=cv2.BORDER_REPLICATE)
        at = (pts @ m[:, :2].T + m[:, 2]) / 2 - 0.5  # pip centres in grid cells
        target = np.zeros((GRID, GRID), np.float32)
        for gx, gy in at:
            blob = np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * 0.7**2))
            target += blob / max(float(blob.sum()), 1e-6) if blob.sum() > 0.5 else blob
        xs.append(normalise_crop(colour_changes(crop, rng, (0.3, 1.0))))
        ys.append(value)
        maps.append(target)
    return torch.from_numpy(np.stack(xs)), torch.tensor(ys), torch.from_numpy(np.stack(maps))


def judge(root: Path, set_name: str, counter: Path, against: list[str]) -> None:
    """Every labelled die of ``set_name`` read from its labelled box: the counter's rounded count, and each
    classifier in ``against`` (its likeliest value; and how often it says "no die")."""
    from companion.vision.networks import load_net

    paths = sorted((root / set_name / "images").glob("*.jpg"))
    samples = load(paths)
    nets = {"counter": load_net(str(counter))} | {a: load_net(a) for a in against}
    right = dict.fromkeys(nets, 0)
    no_die = dict.fromkeys(nets, 0)
    by_value: dict[int, list[int]] = {}
    n = 0
    for s in samples:
        if not len(s.boxes):
            continue
        crops = die_crops(s.image, s.boxes.astype(np.float32))
        truth = s.values.astype(int)
        n += len(truth)
        for name, net in nets.items():
            out = net.run(crops)
            if name == "counter":
                value = np.clip(np.rint(out[:, 0]), 1, 6).astype(int)
                no_die[name] += int((out[:, 1] < 0.5).sum())
                for t, v in zip(truth, value, strict=True):
                    by_value.setdefault(int(t), []).append(int(v))
            else:
                value = out[:, 1:].argmax(axis=1) + 1
                no_die[name] += int((out[:, 0] > 0.5).sum())
            right[name] += int((value == truth).sum())
    for name in nets:
        print(f"{name}: values right {right[name]}/{n} ({100 * right[name] / n:.2f} %), 'no die' {no_die[name]}")
    for t in sorted(by_value):
        got = np.bincount(np.array(by_value[t]), minlength=7)[1:]
        print(f"  counter, true {t}: read as 1-6 {got.tolist()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("root")
    ap.add_argument("--minutes", type=float, default=20.0)
    ap.add_argument("--batch", type=int, default=192)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--neg", type=float, default=0.25)
    ap.add_argument("--synthetic", type=int, default=0)
    ap.add_argument("--kinds", type=int, default=0)
    ap.add_argument(
        "--points",
        type=int,
        default=0,
        help="also this many appearance-wide scenes whose dice teach where the pips are (a third of each batch)",
    )
    ap.add_argument("--points-seed", type=int, default=950000)
    ap.add_argument("--cache", default="/tmp/dice_ft")
    ap.add_argument("--out", default="/tmp/counter.onnx")
    ap.add_argument("--judge", default=None, help="read this set's labelled dice with --out instead of training")
    ap.add_argument("--against", nargs="*", default=[], help="with --judge: classifiers (ONNX) read the same way")
    add_part_options(ap)
    args = ap.parse_args()
    if args.judge:
        judge(Path(args.root), args.judge, Path(args.out), args.against)
        return
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    samples = load(training_photos(args.root, args))
    if args.synthetic:
        samples += rendered(Path(args.cache) / f"synthetic-{args.synthetic}.pkl", args.synthetic, 1000)
    if args.kinds:
        samples += rendered(Path(args.cache) / f"kinds-{args.kinds}.pkl", args.kinds, 20000, others=0.4)
    hard = hard_negatives(samples)
    points = pip_points(args.points, args.points_seed) if args.points else []
    print(f"{len(samples)} images, {len(hard)} hard negatives, {len(points)} rendered dice with pips", flush=True)
    model = CountNet()
    print(f"{sum(p.numel() for p in model.parameters())} parameters", flush=True)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=5e-4)
    budget, t0, step, avg, acc = args.minutes * 60, time.time(), 0, 0.0, 0.0
    model.train()
    while (el := time.time() - t0) < budget:
        lr = args.lr * min(1.0, (step + 1) / 100) * 0.5 * (1 + np.cos(np.pi * el / budget))
        for g in opt.param_groups:
            g["lr"] = lr
        n_points = args.batch // 3 if points else 0
        x, y = batch(samples, rng, args.batch - n_points, args.neg, hard)
        out = model(x)
        loss = loss_of(out, y)
        if n_points:
            px, py, pmap = point_batch(points, rng, n_points)
            dens, feats = model.density_map(px)  # one pass for both losses
            loss = loss + loss_of(model.outputs(dens, feats), py) + 20.0 * F.mse_loss(dens, pmap)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
        k = y > 0
        avg = 0.98 * avg + 0.02 * float(loss.detach())
        acc = 0.98 * acc + 0.02 * float((out[k, 0].detach().round() == y[k].float()).float().mean())
        if step % 50 == 0:
            done = 1 - 0.98**step
            print(f"step {step} t {el:.0f}s lr {lr:.5f} loss {avg / done:.3f} count acc {acc / done:.3f}", flush=True)
        if step % 500 == 0:
            export(model, Path(args.out))
            model.train()
    export(model, Path(args.out))
    torch.save(model.state_dict(), Path(args.out).with_suffix(".pt"))
    print(f"done: {step} steps in {time.time() - t0:.0f}s -> {args.out}")


if __name__ == "__main__":
    main()
