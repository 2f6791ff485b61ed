"""Drawing helpers shared by the appearance-wide renderer's parts (``tools/synth/wide.py``): the supersampling,
random colours, noise, text and shadows in float images, the part of a scene a drawing can reach, and the motifs that
prints, coins and stickers carry."""

from __future__ import annotations

import math

import cv2
import numpy as np

SS = 2  # supersampling


def _choice(rng: np.random.Generator, weights: list[float]) -> int:
    w = np.asarray(weights, np.float64)
    return int(rng.choice(len(w), p=w / w.sum()))


def _luma(rgb: tuple[float, ...] | np.ndarray) -> float:
    r, g, b = (float(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _noise(rng: np.random.Generator, hw: tuple[int, int], cells: int) -> np.ndarray:
    h, w = hw
    small = rng.normal(0, 1, (max(2, h // cells + 2), max(2, w // cells + 2))).astype(np.float32)
    return np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC), np.float32)


def _rand_colour(rng: np.random.Generator, light: float | None = None) -> np.ndarray:
    """A random BGR reflectance; ``light`` near 1 for light colours, near 0 for dark ones."""
    hue = rng.uniform(0, 1)
    sat = rng.uniform(0, 1) ** 1.5
    val = rng.uniform(0.05, 0.9) if light is None else float(np.clip(light + rng.normal(0, 0.08), 0.02, 0.95))
    hsv = np.uint8([[[int(hue * 179), int(sat * 255), int(val**0.45 * 255)]]])
    bgr = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(np.float32) / 255.0
    return np.asarray(bgr**2.2, np.float32)


def _put_text(
    mask: np.ndarray,
    text: str,
    org: tuple[int, int],
    font: int,
    scale: float,
    value: float,
    thickness: int,
    line: int = cv2.LINE_AA,
) -> None:
    """``cv2.putText`` into a float mask (OpenCV draws text on 8-bit images only): the mask's maximum with it,
    drawn on a patch just big enough for the text."""
    (tw, th), base = cv2.getTextSize(text, font, scale, thickness)
    pad = thickness + 2
    x0, y0 = max(0, org[0] - pad), max(0, org[1] - th - pad)
    x1, y1 = min(mask.shape[1], org[0] + tw + pad), min(mask.shape[0], org[1] + base + pad)
    if x1 <= x0 or y1 <= y0:
        return
    ink = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.putText(ink, text, (org[0] - x0, org[1] - y0), font, scale, 255, thickness, line)
    part = mask[y0:y1, x0:x1]
    np.maximum(part, ink.astype(np.float32) * (value / 255.0), out=part)


def _fill(hw: tuple[int, int], colour: np.ndarray) -> np.ndarray:
    out = np.empty((*hw, 3), np.float32)
    out[:] = colour
    return out


def _shadow(scene: np.ndarray, mask: np.ndarray, offset: tuple[float, float], soft: float, depth: float) -> None:
    m = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
    moved = cv2.warpAffine(mask, m, (mask.shape[1], mask.shape[0]))
    if soft > 0.5:
        moved = cv2.GaussianBlur(moved, (0, 0), soft)
    scene *= (1 - depth * moved)[:, :, None]


def _paint(scene: np.ndarray, mask: np.ndarray, colour: np.ndarray | float) -> None:
    scene *= 1 - mask[:, :, None]
    scene += mask[:, :, None] * colour


def _region(scene: np.ndarray, centre: tuple[float, float], reach: float) -> tuple[np.ndarray, float, float]:
    """The part of the (supersampled) scene within ``reach`` output px of ``centre`` (a view: drawing on it draws
    on the scene), and its origin in output px."""
    h, w = scene.shape[:2]
    x0 = int(max(0, math.floor((centre[0] - reach) * SS)))
    y0 = int(max(0, math.floor((centre[1] - reach) * SS)))
    x1 = int(min(w, math.ceil((centre[0] + reach) * SS)))
    y1 = int(min(h, math.ceil((centre[1] + reach) * SS)))
    return scene[y0:y1, x0:x1], x0 / SS, y0 / SS


MOTIFS = ("dot", "ring", "cross", "star", "fleur", "flower", "diamond", "letter", "square", "heart", "leaf")


def draw_motif(
    mask: np.ndarray, kind: str, c: tuple[float, float], r: float, angle: float, rng: np.random.Generator
) -> None:
    """Draw one motif of radius ``r`` (px) into ``mask`` (1 = ink)."""
    aa = cv2.LINE_AA
    x, y = c
    ca, sa = math.cos(angle), math.sin(angle)

    def pt(u: float, v: float) -> tuple[int, int]:
        return (round(x + r * (u * ca - v * sa)), round(y + r * (u * sa + v * ca)))

    th = max(1, int(r * 0.25))
    if kind == "dot":
        cv2.circle(mask, pt(0, 0), max(1, int(r * 0.6)), 1.0, -1, aa)
    elif kind == "ring":
        cv2.circle(mask, pt(0, 0), max(1, int(r * 0.7)), 1.0, th, aa)
    elif kind == "cross":
        cv2.line(mask, pt(-1, 0), pt(1, 0), 1.0, th, aa)
        cv2.line(mask, pt(0, -1), pt(0, 1), 1.0, th, aa)
    elif kind == "star":
        pts = [
            pt(
                math.cos(k * math.pi / 5) * (1 if k % 2 == 0 else 0.45),
                math.sin(k * math.pi / 5) * (1 if k % 2 == 0 else 0.45),
            )
            for k in range(10)
        ]
        cv2.fillPoly(mask, [np.array(pts, np.int32)], 1.0, aa)
    elif kind == "fleur":  # three petals on a stem: a fleur-de-lis, roughly
        for u, v, rot in ((0, -0.45, 0), (-0.45, -0.05, -0.6), (0.45, -0.05, 0.6)):
            cv2.ellipse(
                mask,
                pt(u, v),
                (max(1, int(r * 0.18)), max(1, int(r * 0.45))),
                math.degrees(angle + rot),
                0,
                360,
                1.0,
                -1,
                aa,
            )
        cv2.line(mask, pt(-0.5, 0.35), pt(0.5, 0.35), 1.0, th, aa)
        cv2.line(mask, pt(0, 0.1), pt(0, 0.9), 1.0, th, aa)
    elif kind == "flower":
        for k in range(5):
            a = k * 2 * math.pi / 5
            cv2.circle(mask, pt(0.55 * math.cos(a), 0.55 * math.sin(a)), max(1, int(r * 0.35)), 1.0, -1, aa)
        cv2.circle(mask, pt(0, 0), max(1, int(r * 0.25)), 0.0, -1, aa)
    elif kind == "diamond":
        cv2.fillPoly(mask, [np.array([pt(0, -1), pt(0.6, 0), pt(0, 1), pt(-0.6, 0)], np.int32)], 1.0, aa)
    elif kind == "letter":
        ch = chr(int(rng.integers(65, 91)))
        scale = r / 14.0
        _put_text(mask, ch, pt(-0.6, 0.6), int(rng.integers(0, 8)), scale, 1.0, max(1, int(scale * 2)), aa)
    elif kind == "square":
        cv2.fillPoly(mask, [np.array([pt(-0.7, -0.7), pt(0.7, -0.7), pt(0.7, 0.7), pt(-0.7, 0.7)], np.int32)], 1.0, aa)
    elif kind == "heart":
        cv2.circle(mask, pt(-0.35, -0.2), max(1, int(r * 0.4)), 1.0, -1, aa)
        cv2.circle(mask, pt(0.35, -0.2), max(1, int(r * 0.4)), 1.0, -1, aa)
        cv2.fillPoly(mask, [np.array([pt(-0.75, -0.05), pt(0.75, -0.05), pt(0, 0.85)], np.int32)], 1.0, aa)
    elif kind == "leaf":
        cv2.ellipse(mask, pt(0, 0), (max(1, int(r * 0.35)), max(1, int(r))), math.degrees(angle), 0, 360, 1.0, -1, aa)
