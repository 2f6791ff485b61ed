"""Stage 1: find pip-like blobs (dark pips on light dice and light pips on dark dice) at several scales.

A pip is a compact blob that differs from its surroundings by a clear contrast: it shows in a morphological
black-hat (dark pips) or top-hat (light pips) image. Scales come from an image pyramid with one small kernel, so
the cost stays low and any die size from about 10 px to about 200 px across is covered.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DARK = 0  # dark pip on a lighter face
LIGHT = 1  # light pip on a darker face


@dataclass(frozen=True)
class PipSettings:
    """Knobs of the pip finder; defaults work on any photo (none fitted to one data set)."""

    kernel: int = 15  # top-hat kernel at each pyramid level: blobs up to about 0.9x this are kept
    levels: int = 3  # pyramid levels: kernel 15, 30, 60 px at full resolution
    min_contrast: float = 20.0  # grey levels between pip and face
    min_area: int = 5  # pixels at the level the blob was found
    min_fill: float = 0.5  # blob area / bounding-box area
    max_aspect: float = 2.6  # bounding-box long side / short side
    ring_at: tuple[float, ...] = (1.7, 2.2)  # the surround is sampled on rings at these multiples of the radius
    ring_contrast: float = 0.7  # pip centre vs ring median, as a share of min_contrast
    ring_spread: float = 1.0  # the ring's spread (less its extremes) at most this share of the pip's contrast
    inner_at: tuple[float, ...] = (0.3, 0.55)  # the inside of blobs at least inner_min_r px across is sampled on
    inner_min_r: float = 6.0  # rings at these multiples of the radius ...
    inner_spread: float = 0.9  # ... and may vary by at most this share of the pip's contrast
    cut_levels: tuple[float, ...] = (0.5, 0.65, 0.8)  # odd blobs are cut again at these shares of their peak
    max_holes: float = 0.01  # a pip has no spots inside it: enclosed holes at most this share of its area


@dataclass(frozen=True)
class Pips:
    """Pip candidates as parallel arrays: centre x, y, radius r (px, full resolution), polarity, contrast,
    aspect (elongation: long/short axis of the blob's ellipse) and the mean grey of the face around it."""

    x: np.ndarray
    y: np.ndarray
    r: np.ndarray
    polarity: np.ndarray
    contrast: np.ndarray
    aspect: np.ndarray

    def __len__(self) -> int:
        return len(self.x)

    def take(self, idx: np.ndarray) -> Pips:
        """A subset."""
        return Pips(self.x[idx], self.y[idx], self.r[idx], self.polarity[idx], self.contrast[idx], self.aspect[idx])

    @property
    def xy(self) -> np.ndarray:
        return np.stack([self.x, self.y], axis=1)


def _hole_area(blob: np.ndarray) -> int:
    """Pixels enclosed by the blob but not part of it."""
    outside = np.pad((~blob).astype(np.uint8), 1, constant_values=1)
    cv2.floodFill(outside, None, (0, 0), 0)
    return int(outside.sum())


def _blob_row(
    blob: np.ndarray, win: np.ndarray, x: int, y: int, s: PipSettings, level_scale: float, polarity: int
) -> tuple[float, ...] | None:
    """One pip candidate from a blob mask (in a window at x, y), or None when its shape is no pip's."""
    a = int(blob.sum())
    if a < s.min_area:
        return None
    ys, xs = np.nonzero(blob)
    w, h = int(xs.max() - xs.min() + 1), int(ys.max() - ys.min() + 1)
    long_side, short_side = max(w, h), min(w, h)
    if long_side > 0.9 * s.kernel or long_side < 0.17 * s.kernel:
        return None
    if a < s.min_fill * w * h or long_side > s.max_aspect * short_side:
        return None
    if a >= 4 * s.min_area and _hole_area(blob) > max(3, s.max_holes * a):
        return None  # something with its own spots inside: a whole die seen at a coarse level, not a pip
    contrast = float(win[blob].mean())
    mx, my = float(xs.mean()), float(ys.mean())
    dx, dy = xs - mx, ys - my
    mu20, mu02, mu11 = float((dx * dx).mean()), float((dy * dy).mean()), float((dx * dy).mean())
    common = np.sqrt(((mu20 - mu02) / 2) ** 2 + mu11**2)
    lam1, lam2 = (mu20 + mu02) / 2 + common, (mu20 + mu02) / 2 - common
    elong = float(np.sqrt((lam1 + 1 / 12) / (max(lam2, 0.0) + 1 / 12)))
    half = (level_scale - 1) / 2
    return (
        (x + mx) * level_scale + half,
        (y + my) * level_scale + half,
        np.sqrt(a / np.pi) * level_scale,
        polarity,
        contrast,
        elong,
    )


def _blobs(hat: np.ndarray, s: PipSettings, level_scale: float, polarity: int) -> list[tuple[float, ...]]:
    """Pip candidates in one top-hat image. A blob that is no pip's shape but has a strong core (pips blurred
    together, a pip joined to a shadow) is cut again at half its peak contrast."""
    _, mask = cv2.threshold(hat, s.min_contrast, 255, cv2.THRESH_BINARY)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    w_, h_, a_ = stats[:, 2], stats[:, 3], stats[:, 4]
    long_, short_ = np.maximum(w_, h_), np.minimum(w_, h_)
    plain = (long_ <= 0.9 * s.kernel) & (a_ >= s.min_fill * w_ * h_) & (long_ <= s.max_aspect * short_)
    # plausible pips, and odd blobs big enough to hold pips that can be cut apart
    todo = (a_ >= s.min_area) & (long_ >= 0.17 * s.kernel) & (long_ <= 3 * s.kernel) & (plain | (a_ >= 3 * s.min_area))
    todo[0] = False
    for i in np.nonzero(todo)[0]:
        x, y, w, h = stats[i][:4]
        win = hat[y : y + h, x : x + w]
        blob = lab[y : y + h, x : x + w] == i
        row = _blob_row(blob, win, x, y, s, level_scale, polarity)
        if row is not None:
            out.append(row)
            continue
        peak = float(win[blob].max())
        if peak < 2 * s.min_contrast:
            continue
        out += _cut_deeper(blob, win, x, y, s, level_scale, polarity, peak)
    return out


def _cut_deeper(
    blob: np.ndarray, win: np.ndarray, x: int, y: int, s: PipSettings, level_scale: float, polarity: int, peak: float
) -> list[tuple[float, ...]]:
    """Cut an odd blob at rising levels (a share of its peak contrast); the first level at which it falls apart
    into pip-shaped pieces gives them (pips blurred together only separate near their tops)."""
    for level in s.cut_levels:
        sub = (blob & (win > level * peak)).astype(np.uint8)
        m, sub_lab = cv2.connectedComponents(sub, connectivity=8)
        rows = [_blob_row(sub_lab == j, win, x, y, s, level_scale, polarity) for j in range(1, m)]
        found = [r for r in rows if r is not None]
        if found and len(found) >= (m - 1) / 2:
            return found
    return []


def find_pips(gray: np.ndarray, settings: PipSettings | None = None) -> Pips:
    """All pip candidates in a grey image, duplicates across pyramid levels removed."""
    s = settings or PipSettings()
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (s.kernel, s.kernel))
    rows: list[tuple[float, ...]] = []
    img = gray
    for level in range(s.levels):
        if min(img.shape[:2]) < 2 * s.kernel:
            break
        scale = 2.0**level
        for op, polarity in ((cv2.MORPH_BLACKHAT, DARK), (cv2.MORPH_TOPHAT, LIGHT)):
            hat = cv2.morphologyEx(img, op, kernel)
            rows += _blobs(hat, s, scale, polarity)
        img = cv2.pyrDown(img)
    if not rows:
        z = np.zeros(0, dtype=np.float32)
        return Pips(z, z, z, z.astype(np.int32), z, z)
    a = np.asarray(rows, dtype=np.float32)
    pips = _dedupe(Pips(a[:, 0], a[:, 1], a[:, 2], a[:, 3].astype(np.int32), a[:, 4], a[:, 5]))
    return pips.take(np.nonzero(ring_check(gray, pips, s))[0])


def ring_check(gray: np.ndarray, pips: Pips, s: PipSettings) -> np.ndarray:
    """Which candidates sit in an even surround, as a pip does on its face: the grey levels on two rings
    around the blob vary little compared with the pip's contrast to them (a die's corner against the felt, a
    glint on a die's edge, texture: all have an uneven surround)."""
    if not len(pips):
        return np.zeros(0, dtype=bool)
    h, w = gray.shape[:2]
    ang = np.linspace(0, 2 * np.pi, 12, endpoint=False)
    rings = np.concatenate([np.outer(pips.r, np.full(12, f)) for f in s.ring_at], axis=1)
    angles = np.tile(ang, len(s.ring_at))
    xs = np.clip(np.round(pips.x[:, None] + rings * np.cos(angles)), 0, w - 1).astype(np.int32)
    ys = np.clip(np.round(pips.y[:, None] + rings * np.sin(angles)), 0, h - 1).astype(np.int32)
    ring = np.sort(gray[ys, xs].astype(np.float32), axis=1)
    cx = np.clip(np.round(pips.x), 0, w - 1).astype(np.int32)
    cy = np.clip(np.round(pips.y), 0, h - 1).astype(np.int32)
    centre = gray[cy, cx].astype(np.float32)
    k = ring.shape[1] // 8  # ignore the most extreme eighth on each side (a neighbouring pip, a speck)
    spread = ring[:, -1 - k] - ring[:, k]
    contrast = np.where(pips.polarity == DARK, 1.0, -1.0) * (np.median(ring, axis=1) - centre)
    # inside, a pip is even too; a whole die seen as one blob at a coarse level has its own pips inside
    # (only big blobs: small pips are too blurred inside to judge, and a whole die is never small)
    inner_r = np.concatenate([pips.r[:, None] * f * np.ones(8) for f in s.inner_at], axis=1)
    inner_a = np.tile(np.linspace(0, 2 * np.pi, 8, endpoint=False), len(s.inner_at))
    ix = np.clip(np.round(pips.x[:, None] + inner_r * np.cos(inner_a)), 0, w - 1).astype(np.int32)
    iy = np.clip(np.round(pips.y[:, None] + inner_r * np.sin(inner_a)), 0, h - 1).astype(np.int32)
    inner = np.concatenate([gray[iy, ix].astype(np.float32), centre[:, None]], axis=1)
    inner_spread = np.where(pips.r >= s.inner_min_r, inner.max(axis=1) - inner.min(axis=1), 0.0)
    return (
        (contrast >= s.ring_contrast * s.min_contrast)
        & (spread <= s.ring_spread * contrast)
        & (inner_spread <= s.inner_spread * contrast)
    )


def _dedupe(p: Pips) -> Pips:
    """Keep one candidate where pyramid levels found the same blob: the one with the higher contrast."""
    order = np.argsort(-p.contrast, kind="stable")
    keep: list[int] = []
    xy = p.xy
    for i in order:
        if keep:
            k = np.asarray(keep)
            d = np.hypot(*(xy[k] - xy[i]).T)
            same = (d < 0.8 * np.maximum(p.r[k], p.r[i])) & (p.polarity[k] == p.polarity[i])
            if same.any():
                continue
        keep.append(int(i))
    return p.take(np.asarray(sorted(keep), dtype=np.int64))
