"""Stage 1: find pip-like blobs (dark pips on light dice and light pips on dark dice) at several scales.

A pip is a compact blob that differs from its surroundings by a clear contrast: it shows in a morphological
black-hat (dark pips) or top-hat (light pips) image. Scales come from an image pyramid with one small kernel, so
the cost stays low and any die size from about 10 px to about 200 px across is covered. Blobs that are no pip's
shape but have a strong core are cut again at rising levels. A candidate must then sit in an even surround, be
even inside (big blobs) and enclose no holes (a whole die seen at a coarse level has pips inside it).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

DARK = 0  # dark pip on a lighter face
LIGHT = 1  # light pip on a darker face


@dataclass(frozen=True)
class PipSettings:
    """Knobs of the pip finder; set by hand for any photo, not fitted by a program to a data set."""

    kernel: int = 15  # top-hat kernel at each pyramid level: blobs up to about 0.9x this are kept
    scales: tuple[float, ...] = (1.0, 2.0, 4.0)  # the image is searched shrunk by these factors (a pyramid):
    # with kernel 15, blobs up to about 13, 27 and 54 px across
    min_contrast: float = 20.0  # grey levels between pip and face
    min_area: int = 5  # pixels at the level the blob was found
    min_fill: float = 0.5  # blob area / bounding-box area
    max_aspect: float = 2.6  # bounding-box long side / short side
    ring_at: tuple[float, ...] = (1.7, 2.2)  # the surround is sampled on rings at these multiples of the radius
    ring_pip_share: float = 0.4  # share of ring samples that may fall on neighbouring pips
    ring_contrast: float = 0.7  # pip centre vs ring median, as a share of min_contrast
    ring_spread: float = 1.0  # the ring's spread (less its extremes) at most this share of the pip's contrast
    inner_at: tuple[float, ...] = (0.3, 0.55)  # the inside of blobs at least inner_min_r px across is sampled on
    inner_min_r: float = 6.0  # rings at these multiples of the radius ...
    inner_spread: float = 0.9  # ... and may vary by at most this share of the pip's contrast
    cut_contrast: float = 2.0  # odd blobs are cut again only if their mean contrast is this x min_contrast
    cut_size: float = 16.0  # odd blobs up to this many kernels across are cut again ...
    cut_fill: float = 0.3  # ... if they fill at least this share of their bounding box
    cut_share: float = 0.5  # a cut level counts when at least this share of the pieces are pip-shaped
    cut_levels: tuple[float, ...] = (0.5, 0.65, 0.8)  # odd blobs are cut again at these shares of their peak
    relative_shape: bool = False  # judge pip elongation against the frame's typical pip (see relative_shapes):
    # helps photos stretched to a new aspect ratio (felt-trays 34% -> 40%), hurts angled views (97% -> 95%)
    max_holes: float = 0.01  # a pip has no spots inside it: enclosed holes at most this share of its area


@dataclass(frozen=True)
class Pips:
    """Pip candidates as parallel arrays: centre x, y, radius r (px, full resolution), polarity, contrast,
    aspect (elongation: long/short axis of the blob's ellipse, relative to the typical pip of the frame) and
    shape (N, 3): the blob's second moments xx, yy, xy scaled to a trace of 1."""

    x: np.ndarray
    y: np.ndarray
    r: np.ndarray
    polarity: np.ndarray
    contrast: np.ndarray
    aspect: np.ndarray
    shape: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.x)

    def take(self, idx: np.ndarray) -> Pips:
        """A subset."""
        shape = None if self.shape is None else self.shape[idx]
        return Pips(
            self.x[idx], self.y[idx], self.r[idx], self.polarity[idx], self.contrast[idx], self.aspect[idx], shape
        )

    @property
    def xy(self) -> np.ndarray:
        return np.stack([self.x, self.y], axis=1)


def _label_rows(
    lab: np.ndarray,
    stats: np.ndarray,
    hat: np.ndarray,
    s: PipSettings,
    level_scale: float,
    polarity: int,
    x0: int = 0,
    y0: int = 0,
    check_holes: bool = True,
) -> tuple[list[tuple[float, ...]], np.ndarray]:  # rows: x, y, r, polarity, contrast, elongation
    """Pip candidates among the labelled blobs of one window (all blobs at once, numpy only), and which blobs
    failed only on shape (those may be pips blurred together, to be cut again)."""
    n = len(stats)
    w_, h_, a_ = stats[:, 2], stats[:, 3], stats[:, 4].astype(np.float64)
    long_, short_ = np.maximum(w_, h_), np.minimum(w_, h_)
    sized = (a_ >= s.min_area) & (long_ >= 0.17 * s.kernel)
    shaped = (long_ <= 0.9 * s.kernel) & (a_ >= s.min_fill * w_ * h_) & (long_ <= s.max_aspect * short_)
    sized[0] = False
    # odd blobs that may be pips blurred together: big enough for two, no bigger than a cluster of six, compact
    cuttable = (
        sized & ~shaped & (a_ >= 3 * s.min_area) & (long_ <= s.cut_size * s.kernel) & (a_ >= s.cut_fill * w_ * h_)
    )
    # only the pixels of blobs that matter (texture specks and big smears are most of them)
    ys, xs = np.nonzero((sized & (shaped | cuttable))[lab])
    lb = lab[ys, xs]
    area = np.maximum(a_, 1)
    contrast = np.bincount(lb, hat[ys, xs].astype(np.float64), n) / area
    ok = sized & shaped
    # only odd blobs with a strong core are worth cutting again (flat texture is not)
    odd = cuttable & (contrast >= s.cut_contrast * s.min_contrast)
    if check_holes:
        for i in np.nonzero(ok & (a_ >= 4 * s.min_area))[0]:
            ok[i] = not _has_holes(lab, stats, int(i), s)
    if not ok.any():
        return [], odd
    xf, yf = xs.astype(np.float64), ys.astype(np.float64)
    mx = np.bincount(lb, xf, n) / area
    my = np.bincount(lb, yf, n) / area
    # shape from contrast-weighted moments: steadier than the pixel mask for blobs a few pixels across
    wt = hat[ys, xs].astype(np.float64)
    wsum = np.maximum(np.bincount(lb, wt, n), 1e-9)
    wx = np.bincount(lb, wt * xf, n) / wsum
    wy = np.bincount(lb, wt * yf, n) / wsum
    mu20 = np.bincount(lb, wt * xf * xf, n) / wsum - wx * wx
    mu02 = np.bincount(lb, wt * yf * yf, n) / wsum - wy * wy
    mu11 = np.bincount(lb, wt * xf * yf, n) / wsum - wx * wy
    common = np.sqrt(((mu20 - mu02) / 2) ** 2 + mu11**2)
    lam1 = (mu20 + mu02) / 2 + common
    lam2 = np.maximum((mu20 + mu02) / 2 - common, 0.0)
    elong = np.sqrt((lam1 + 1 / 12) / (lam2 + 1 / 12))
    trace = np.maximum(mu20 + mu02 + 1 / 6, 1e-9)
    sxx, syy, sxy = (mu20 + 1 / 12) / trace, (mu02 + 1 / 12) / trace, mu11 / trace
    half = (level_scale - 1) / 2
    rows: list[tuple[float, ...]] = [
        (
            float((x0 + mx[i]) * level_scale + half),
            float((y0 + my[i]) * level_scale + half),
            float(np.sqrt(a_[i] / np.pi)) * level_scale,
            float(polarity),
            float(contrast[i]),
            float(elong[i]),
            float(sxx[i]),
            float(syy[i]),
            float(sxy[i]),
        )
        for i in np.nonzero(ok)[0]
    ]
    return rows, odd


def _has_holes(lab: np.ndarray, stats: np.ndarray, i: int, s: PipSettings) -> bool:
    """Whether blob ``i`` encloses pixels that are not part of it (a pip has none; a whole die has its pips)."""
    x, y, w, h, a = (int(v) for v in stats[i])
    outside = np.ones((h + 2, w + 2), np.uint8)
    outside[1:-1, 1:-1] = lab[y : y + h, x : x + w] != i
    cv2.floodFill(outside, None, (0, 0), 0)
    return int(outside.sum()) > max(3, s.max_holes * a)


def _blobs(hat: np.ndarray, s: PipSettings, level_scale: float, polarity: int) -> list[tuple[float, ...]]:
    """Pip candidates in one top-hat image. A blob that is no pip's shape but has a strong core (pips blurred
    together, a pip joined to a shadow) is cut again at rising levels."""
    _, mask = cv2.threshold(hat, s.min_contrast, 255, cv2.THRESH_BINARY)
    _, lab, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    rows, odd = _label_rows(lab, stats, hat, s, level_scale, polarity)
    for i in np.nonzero(odd)[0]:
        x, y, w, h = (int(v) for v in stats[i][:4])
        win = hat[y : y + h, x : x + w]
        blob = lab[y : y + h, x : x + w] == i
        peak = float(win[blob].max())
        if peak >= 2 * s.min_contrast:
            rows += _cut_deeper(blob, win, x, y, s, level_scale, polarity, peak)
    return rows


def _cut_deeper(
    blob: np.ndarray,
    win: np.ndarray,
    x: int,
    y: int,
    s: PipSettings,
    level_scale: float,
    polarity: int,
    peak: float,
) -> list[tuple[float, ...]]:
    """Cut an odd blob at rising levels (shares of its peak contrast); the first level at which it falls apart
    into mostly pip-shaped pieces gives them (pips blurred together, or a die merged with the texture around it,
    only separate near their tops)."""
    for level in s.cut_levels:
        sub = (blob & (win > level * peak)).astype(np.uint8)
        m, sub_lab, stats, _ = cv2.connectedComponentsWithStats(sub, connectivity=8)
        found, _ = _label_rows(sub_lab, stats, win, s, level_scale, polarity, x, y, check_holes=False)
        if found and len(found) >= s.cut_share * (m - 1):
            return found
    return []


def find_pips(gray: np.ndarray, settings: PipSettings | None = None) -> Pips:
    """All pip candidates in a grey image, duplicates across pyramid levels removed."""
    s = settings or PipSettings()
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (s.kernel, s.kernel))
    rows: list[tuple[float, ...]] = []
    h, w = gray.shape[:2]
    for scale in s.scales:
        size = (round(w / scale), round(h / scale))
        if min(size) < 2 * s.kernel:
            break
        img = gray if scale == 1 else cv2.resize(gray, size, interpolation=cv2.INTER_AREA)
        for op, polarity in ((cv2.MORPH_BLACKHAT, DARK), (cv2.MORPH_TOPHAT, LIGHT)):
            hat = cv2.morphologyEx(img, op, kernel)
            rows += _blobs(hat, s, w / size[0], polarity)
    if not rows:
        z = np.zeros(0, dtype=np.float32)
        return Pips(z, z, z, z.astype(np.int32), z, z, np.zeros((0, 3), dtype=np.float32))
    a = np.asarray(rows, dtype=np.float32)
    pips = Pips(a[:, 0], a[:, 1], a[:, 2], a[:, 3].astype(np.int32), a[:, 4], a[:, 5], a[:, 6:9])
    pips = _dedupe(pips.take(np.nonzero(ring_check(gray, pips, s))[0]))
    return relative_shapes(pips) if s.relative_shape else pips


def relative_shapes(pips: Pips, min_count: int = 8, min_stretch: float = 1.2) -> Pips:
    """Elongation relative to the frame's typical pip: a photo stretched to a new aspect ratio, or a camera
    looking a little askew, flattens every pip alike; what matters is a pip flatter than the others (a side
    face). The typical shape is the median moment tensor of the candidates."""
    if pips.shape is None or len(pips) < min_count:
        return pips
    typical = np.median(pips.shape, axis=0)
    t = np.array([[typical[0], typical[2]], [typical[2], typical[1]]])
    vals, vecs = np.linalg.eigh(t)
    if vals.min() <= 1e-6 or np.sqrt(vals.max() / vals.min()) < min_stretch:
        return pips  # no frame-wide stretch to take out
    w = vecs @ np.diag(vals**-0.5) @ vecs.T  # whitening: the typical pip becomes round
    c = np.stack(
        [np.stack([pips.shape[:, 0], pips.shape[:, 2]], -1), np.stack([pips.shape[:, 2], pips.shape[:, 1]], -1)], 1
    )
    rel = w @ c @ w
    ev = np.linalg.eigvalsh(rel)
    aspect = np.sqrt(np.maximum(ev[:, 1], 1e-9) / np.maximum(ev[:, 0], 1e-9)).astype(np.float32)
    return Pips(pips.x, pips.y, pips.r, pips.polarity, pips.contrast, aspect, pips.shape)


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
    # neighbouring pips of a tight layout can cover much of the ring: judge the face side of it (for a dark pip
    # the lighter samples), leaving out the pip-side share ``ring_pip_share`` and the extreme eighth beyond
    n = ring.shape[1]
    k, m = n // 8, int(n * s.ring_pip_share)
    dark = pips.polarity == DARK
    face_lo = np.where(dark, ring[:, m], ring[:, k])
    face_hi = np.where(dark, ring[:, n - 1 - k], ring[:, n - 1 - m])
    spread = face_hi - face_lo
    face_mid = np.where(dark, ring[:, (m + n - 1 - k) // 2], ring[:, (k + n - 1 - m) // 2])
    contrast = np.where(dark, 1.0, -1.0) * (face_mid - centre)
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
    q = p.take(order)
    xy = q.xy
    d = np.hypot(*(xy[:, None] - xy[None]).transpose(2, 0, 1))
    clash = (d < 0.8 * np.maximum(q.r[:, None], q.r[None])) & (q.polarity[:, None] == q.polarity[None])
    np.fill_diagonal(clash, False)
    gone = np.zeros(len(q), dtype=bool)
    keep = []
    for i in range(len(q)):
        if not gone[i]:
            keep.append(i)
            gone |= clash[i]
    return p.take(np.sort(order[np.asarray(keep, dtype=np.int64)]))
