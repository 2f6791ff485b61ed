"""Composites (issue #20): real dice cut out of the development photos and put on other tables.

The appearance-wide renders (``wide.py``) teach the detector what is *not* a die on a new table; they do not teach
it a new kind of real die (docs/dice-reader.md: a fold's detector trained with them missed more of the unseen set's
real dice). These scenes keep the real dice and change everything around them: each labelled die of the training
photos is cut out with a small margin (``cut_dice``), and a scene (``compose``) puts 1-14 of them, from any photos,
on a surface of ``wide.py`` (fabric prints, plaid, lace, paper, wood, white photo boxes, the painted-out photos)
among things that are not dice, at one size for the scene (14-110 px), turned any angle, some touching, each
recoloured on its own (channel order, inversion, hue) so that one table holds dice of several colours, with a
shadow, under ``wide.light_and_camera``'s light and camera.

A die is cut with a feathered rounded square a little larger than its labelled box, so little of its own table
comes with it. Dice touching another labelled die are not used (the neighbour would come along). Only numpy and OpenCV;
deterministic for a seed and a list of cuts. Used by ``tools/dicetrain`` only (not installed with the app).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import cv2
import numpy as np

from tools.synth.wide_draw import SS
from tools.synth.wide_surfaces import Backgrounds
from tools.synth.wide_things import THINGS, Thing, draw_thing

MARGIN = 0.18  # of the box's side, kept around a die when it is cut (the mask's feather needs room)
MIN_SIDE = 12  # px: smaller labelled dice are not cut (too few pixels to grow)


class Labelled(Protocol):
    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    set_name: str


@dataclass
class DieCut:
    """A real die with a margin of ``MARGIN`` on each side (BGR uint8), its value and where it came from."""

    image: np.ndarray
    value: int
    set_name: str


def cut_dice(samples: list[Labelled], skip: tuple[str, ...] = ("synthetic", "wide", "paste")) -> list[DieCut]:
    """Every labelled die of ``samples`` (not of sets in ``skip``) that lies whole in its photo, is at least
    ``MIN_SIDE`` px and has no other labelled die within a tenth of its side (it would show in the cut)."""
    out: list[DieCut] = []
    for s in samples:
        if s.set_name in skip:
            continue
        h, w = s.image.shape[:2]
        for i, (b, v) in enumerate(zip(s.boxes, s.values, strict=True)):
            bw, bh = float(b[2] - b[0]), float(b[3] - b[1])
            if min(bw, bh) < MIN_SIDE:
                continue
            x0, y0 = round(float(b[0] - MARGIN * bw)), round(float(b[1] - MARGIN * bh))
            x1, y1 = round(float(b[2] + MARGIN * bw)), round(float(b[3] + MARGIN * bh))
            if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
                continue
            # what the mask shows: the box grown by a tenth of its side; another die there would come along
            gx, gy = 0.1 * bw, 0.1 * bh
            others = np.delete(s.boxes, i, axis=0)
            near = (
                (others[:, 0] < b[2] + gx)
                & (others[:, 2] > b[0] - gx)
                & (others[:, 1] < b[3] + gy)
                & (others[:, 3] > b[1] - gy)
            )
            if near.any():
                continue
            out.append(DieCut(s.image[y0:y1, x0:x1].copy(), int(v), s.set_name))
    return out


def recolour(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One die's colours changed: channel order (half the time), inverted (a fifth: a white die with black pips
    becomes a black one with white pips), hue turned (a third)."""
    out = img
    if rng.random() < 0.5:
        out = out[:, :, rng.permutation(3)]
    if rng.random() < 0.2:
        out = 255 - out
    if rng.random() < 0.33:
        hsv = cv2.cvtColor(np.ascontiguousarray(out), cv2.COLOR_BGR2HSV)
        hsv[:, :, 0] = ((hsv[:, :, 0].astype(np.int32) + int(rng.integers(0, 180))) % 180).astype(np.uint8)
        sat = hsv[:, :, 1].astype(np.float32) * float(rng.uniform(0.7, 1.6))
        hsv[:, :, 1] = np.clip(sat, 0, 255).astype(np.uint8)
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
    return np.ascontiguousarray(out)


def face_mask(size: int, face: float) -> np.ndarray:
    """A float mask (size x size) of a rounded square ``face`` px wide in the middle, its edge feathered."""
    m = np.zeros((size, size), np.float32)
    half = face / 2 * 1.06
    r = face * 0.2
    c = size / 2
    x0, y0, x1, y1 = c - half, c - half, c + half, c + half
    cv2.rectangle(m, (int(x0 + r), int(y0)), (int(x1 - r), int(y1)), 1.0, -1)
    cv2.rectangle(m, (int(x0), int(y0 + r)), (int(x1), int(y1 - r)), 1.0, -1)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x0 + r, y1 - r), (x1 - r, y1 - r)):
        cv2.circle(m, (int(cx), int(cy)), int(r), 1.0, -1)
    sigma = max(0.6, face * 0.035)
    return np.asarray(cv2.GaussianBlur(m, (0, 0), sigma), np.float32)


@dataclass
class Composite:
    """A composed photo (BGR uint8), its dice (boxes x0 y0 x1 y1, values) and the boxes of things not dice."""

    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    things: np.ndarray


def _place(
    rng: np.random.Generator, side: float, w: int, h: int, placed: list[tuple[float, float, float]], touch: bool
) -> tuple[float, float] | None:
    for _ in range(60):
        if touch and placed:
            ox, oy, os_ = placed[int(rng.integers(len(placed)))]
            a = rng.uniform(0, 2 * np.pi)
            dist = (os_ + side) / 2 * rng.uniform(1.02, 1.2)
            c = (ox + dist * math.cos(a), oy + dist * math.sin(a))
        else:
            c = (float(rng.uniform(side, w - side)), float(rng.uniform(side, h - side)))
        if not (side * 0.75 <= c[0] <= w - side * 0.75 and side * 0.75 <= c[1] <= h - side * 0.75):
            continue
        if all(math.dist(c, (p[0], p[1])) > (p[2] + side) / 2 for p in placed):
            return c
    return None


def compose(
    seed: int, cuts: list[DieCut], backgrounds: Backgrounds | None = None, size: tuple[int, int] | None = None
) -> Composite:
    """One scene of real dice on another table (see the module docstring)."""
    from tools.synth.wide import frame_and_table, light_and_camera  # the renders' tables, light and camera

    rng = np.random.default_rng(seed)
    w, h, _surface, scene = frame_and_table(rng, backgrounds, size)
    shadow = (float(rng.uniform(0.02, 0.2)), float(rng.uniform(0.02, 0.15)), float(rng.uniform(0.25, 0.6)))
    die = float(np.exp(rng.uniform(np.log(14), np.log(110))))
    n_things = int(rng.integers(0, 4)) if rng.random() < 0.5 else int(rng.integers(3, 16))
    placed: list[tuple[float, float, float]] = []  # centre x, y and reach (output pixels)
    things = []
    for _ in range(n_things):
        kind = THINGS[int(rng.integers(len(THINGS)))]
        s = die * float(np.exp(rng.uniform(-0.9, 0.5)))
        c = _place(rng, s, w, h, placed, False)
        if c is None:
            continue
        t = Thing(kind, c, s, float(rng.uniform(0, 360)), int(rng.integers(1 << 30)))
        draw_thing(scene, t, shadow)
        placed.append((c[0], c[1], s * 1.2))
        things.append([c[0] - s / 2, c[1] - s / 2, c[0] + s / 2, c[1] + s / 2])
    boxes, values = [], []
    touching = rng.random() < 0.5
    for _ in range(int(rng.integers(1, 15)) if cuts else 0):
        side = die * float(rng.uniform(0.92, 1.08))
        angle = float(rng.uniform(0, 360))
        reach = side * (abs(math.cos(math.radians(angle))) + abs(math.sin(math.radians(angle))))
        c = _place(rng, reach, w, h, placed, touching and rng.random() < 0.6)
        if c is None:
            continue
        cut = cuts[int(rng.integers(len(cuts)))]
        box = _paste(scene, cut, recolour(cut.image, rng), c, side, angle, shadow, rng)
        placed.append((c[0], c[1], reach))
        boxes.append(box)
        values.append(cut.value)
    image = light_and_camera(scene, rng, (w, h))
    return Composite(
        image,
        np.array(boxes, np.float32).reshape(-1, 4),
        np.array(values, np.int64),
        np.array(things, np.float32).reshape(-1, 4),
    )


def _paste(
    scene: np.ndarray,
    cut: DieCut,
    img: np.ndarray,
    centre: tuple[float, float],
    side: float,
    angle: float,
    shadow: tuple[float, float, float],
    rng: np.random.Generator,
) -> tuple[float, float, float, float]:
    """Put one cut die on the (linear, supersampled) scene, its face ``side`` output px wide, turned ``angle``;
    returns its face's box in output pixels."""
    face = side * SS
    grown = face * (1 + 2 * MARGIN)
    n = math.ceil(grown * 1.45) | 1  # room for any turn
    src = cv2.resize(img, (max(2, round(grown)), max(2, round(grown))), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.5:
        src = src[:, ::-1]
    lin = (src.astype(np.float32) / 255.0) ** 2.2 / 1.6
    canvas = np.zeros((n, n, 3), np.float32)
    o = (n - src.shape[0]) // 2
    canvas[o : o + src.shape[0], o : o + src.shape[1]] = lin
    mask = face_mask(n, face)
    rot = cv2.getRotationMatrix2D((n / 2, n / 2), angle, 1.0)
    canvas = cv2.warpAffine(canvas, rot, (n, n), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(mask, rot, (n, n), flags=cv2.INTER_LINEAR)
    H, W = scene.shape[:2]
    x0, y0 = round(float(centre[0] * SS - n / 2)), round(float(centre[1] * SS - n / 2))
    # shadow: the mask blurred, moved away from the light and darkening the table under it
    off, soft, dark = shadow
    sh = cv2.GaussianBlur(mask, (0, 0), max(0.8, soft * face))
    dx, dy = round(float(off * face * 0.7)), round(float(off * face))
    _blend(scene, x0 + dx, y0 + dy, None, sh * dark)
    _blend(scene, x0, y0, canvas, mask)
    ca, sa = abs(math.cos(math.radians(angle))), abs(math.sin(math.radians(angle)))
    half = side * (ca + sa) / 2
    return (
        max(0.0, centre[0] - half),
        max(0.0, centre[1] - half),
        min(W / SS, centre[0] + half),
        min(H / SS, centre[1] + half),
    )


def _blend(scene: np.ndarray, x0: int, y0: int, patch: np.ndarray | None, alpha: np.ndarray) -> None:
    """Mix ``patch`` (or black: a shadow) into the scene at (x0, y0) by ``alpha``, clipped to the scene."""
    H, W = scene.shape[:2]
    n = alpha.shape[0]
    sx0, sy0, sx1, sy1 = max(0, x0), max(0, y0), min(W, x0 + n), min(H, y0 + n)
    if sx1 <= sx0 or sy1 <= sy0:
        return
    a = alpha[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0, None]
    region = scene[sy0:sy1, sx0:sx1]
    if patch is None:
        region *= 1 - a
    else:
        region[:] = region * (1 - a) + patch[sy0 - y0 : sy1 - y0, sx0 - x0 : sx1 - x0] * a


def cut_key(paths: list[Path]) -> str:
    """A short key of the photos the dice were cut from (a cache of composites is only good for the same ones)."""
    import hashlib

    return hashlib.md5("\n".join(sorted(str(p) for p in paths)).encode()).hexdigest()[:8]
