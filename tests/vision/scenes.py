"""Synthetic top-down dice scenes for the hard cases (touching dice, walls, glare, a hand, shadows), built on the
shared renderer ``tools/synth/dice_render.py`` plus overlays drawn here. Deterministic for given arguments."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from tools.synth.dice_render import DieSpec, Light, Rendered, make_table, render

WHITE = (0.85, 0.85, 0.82)
BLACK = (0.04, 0.04, 0.05)
RED = (0.62, 0.05, 0.05)
BLUE = (0.03, 0.13, 0.58)
IVORY = (0.80, 0.72, 0.55)


def scene(
    dice: Sequence[tuple[int, float, float]],
    *,
    body: tuple[float, float, float] = WHITE,
    size: float = 44,
    angle: float = 0.0,
    tray: str = "green felt",
    seed: int = 1,
    light: Light | None = None,
    marble: tuple[float, float, float] | None = None,
    ink: tuple[float, float, float] | None = None,
    opacity: float = 1.0,
    style: dict[str, Any] | None = None,
) -> Rendered:
    """Dice given as (value, centre x, centre y) on a 640x480 tray, a little blur, noise and JPEG; optionally
    marbled with a second colour (each die its own veins), with pips of the ``ink`` colour, translucent, or with
    another pip layout or a side face in view (``style``: ``DieSpec``'s pip_size, pip_spread, big_one, accent,
    side)."""
    table = make_table(seed, markers=False, tray=tray)
    specs = [
        DieSpec(
            "pips",
            v,
            (x, y),
            size,
            angle,
            body,
            marble=marble,
            ink=ink,
            opacity=opacity,
            look_seed=seed + i,
            **(style or {}),
        )
        for i, (v, x, y) in enumerate(dice)
    ]
    return render(table, specs, light or Light(), blur=0.6, noise=2.0, seed=seed, jpeg=90)


def add_wall(img: np.ndarray, x: int, dark: bool = True) -> np.ndarray:
    """A tray wall: a band at ``x`` with a soft inner edge and a stitched rim (vertical line of spots)."""
    out = img.copy()
    colour = (25, 30, 25) if dark else (200, 200, 195)
    cv2.rectangle(out, (x, 0), (img.shape[1], img.shape[0]), colour, -1)
    for y in range(6, img.shape[0], 14):  # stitches: short dashes along the rim
        cv2.line(out, (x + 8, y), (x + 8, y + 7), (150, 150, 150) if dark else (60, 60, 60), 2)
    return cv2.GaussianBlur(out, (3, 3), 0)


def add_glare(img: np.ndarray, centre: tuple[int, int], axes: tuple[int, int] = (9, 5)) -> np.ndarray:
    """A specular highlight: a saturated white ellipse with a soft edge."""
    mask = np.zeros(img.shape[:2], np.float32)
    cv2.ellipse(mask, centre, axes, 30, 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), 2)[:, :, None]
    return (img * (1 - mask) + 255 * mask).astype(np.uint8)


def add_hand(img: np.ndarray, wrist: tuple[int, int], seed: int = 0) -> np.ndarray:
    """A hand reaching in: a skin-coloured palm and four fingers with knuckle creases and nails."""
    rng = np.random.default_rng(seed)
    out = img.copy()
    skin = (120, 150, 205)  # BGR
    x, y = wrist
    cv2.ellipse(out, (x, y), (70, 55), 0, 0, 360, skin, -1)
    for k in range(4):
        fx = x - 45 + 30 * k
        cv2.rectangle(out, (fx - 11, y - 150), (fx + 11, y - 30), skin, -1)
        cv2.circle(out, (fx, y - 150), 11, skin, -1)
        cv2.ellipse(out, (fx, y - 147), (6, 8), 0, 0, 360, (170, 185, 225), -1)  # nail
        for crease in (y - 110, y - 75):
            cv2.line(out, (fx - 8, crease), (fx + 8, crease), (90, 110, 160), 1)
    out = cv2.GaussianBlur(out, (5, 5), 0)
    noise = rng.normal(0, 3, out.shape)
    return np.clip(out + noise, 0, 255).astype(np.uint8)


def add_shadow(img: np.ndarray, x0: int, strength: float = 0.45) -> np.ndarray:
    """A soft shadow over everything right of ``x0`` (a lamp behind a wall or an arm)."""
    ramp = np.clip((np.arange(img.shape[1], dtype=np.float32) - x0) / 25.0, 0, 1)
    shade = 1.0 - strength * ramp
    return np.clip(img * shade[None, :, None], 0, 255).astype(np.uint8)
