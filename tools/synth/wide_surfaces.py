"""The tables of the appearance-wide renderer (``tools/synth/wide.py``): plain, wood, felt, fabric prints, polka dots,
plaid, lace, paper, carpets, maps and white photo boxes drawn from a seed, and photographs (``Backgrounds``)."""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

from tools.synth.wide_draw import MOTIFS, SS, _fill, _luma, _noise, _put_text, _rand_colour, draw_motif

GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")


def surface_plain(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    base = _rand_colour(rng)
    v = 1 + 0.05 * rng.uniform(0.2, 1.5) * _noise(rng, hw, 40) + 0.02 * rng.normal(0, 1, hw).astype(np.float32)
    return _fill(hw, base) * v[:, :, None]


def surface_white_box(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    """A white photo box: near-white, a soft fall-off to the corners."""
    h, w = hw
    base = _rand_colour(rng, light=0.92)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    r = np.hypot((xx - w / 2) / w, (yy - h / 2) / h)
    fall = 1 - rng.uniform(0.05, 0.4) * r**2
    return _fill(hw, base) * (fall + 0.01 * rng.normal(0, 1, hw).astype(np.float32))[:, :, None]


def surface_wood(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    h, w = hw
    a = _rand_colour(rng, light=rng.uniform(0.2, 0.7))
    b = a * rng.uniform(0.4, 0.8)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ang = rng.uniform(0, np.pi)
    u = xx * math.cos(ang) + yy * math.sin(ang)
    warp = _noise(rng, hw, 60) * rng.uniform(5, 30)
    period = rng.uniform(6, 40) * SS
    t = 0.5 + 0.5 * np.sin((u + warp) / period * 2 * np.pi + 2 * _noise(rng, hw, 120))
    t = t ** rng.uniform(0.5, 3)
    out = _fill(hw, a) * (1 - t[:, :, None]) + _fill(hw, b) * t[:, :, None]
    if rng.random() < 0.5:  # planks
        gap = int(rng.uniform(40, 200) * SS)
        v = xx * -math.sin(ang) + yy * math.cos(ang)
        out *= (1 - 0.6 * ((v % gap) < SS * rng.uniform(1, 3)))[:, :, None]
    return out


def surface_felt(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    base = _rand_colour(rng, light=rng.uniform(0.05, 0.4))
    v = 1 + 0.12 * rng.normal(0, 1, hw).astype(np.float32) + 0.08 * _noise(rng, hw, 16)
    out = _fill(hw, base) * v[:, :, None]
    return cv2.GaussianBlur(out, (0, 0), 0.8)


def surface_print(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    """A fabric or paper print: one to three motifs tiled on a grid (straight or staggered), in one or two inks."""
    h, w = hw
    ground = _rand_colour(rng)
    inks = [_rand_colour(rng, light=0.9 - _luma(ground[::-1]) ** 0.45) for _ in range(2)]
    kinds = [MOTIFS[int(rng.integers(len(MOTIFS)))] for _ in range(int(rng.integers(1, 4)))]
    pitch = rng.uniform(10, 70) * SS
    r = pitch * rng.uniform(0.15, 0.42)
    stagger = rng.random() < 0.5
    angle = rng.uniform(0, math.pi) if rng.random() < 0.3 else 0.0
    out = _fill(hw, ground)
    masks = [np.zeros(hw, np.float32) for _ in inks]
    jit = rng.uniform(0, 0.15)
    for j, yv in enumerate(np.arange(-pitch, h + pitch, pitch)):
        for i, xv in enumerate(np.arange(-pitch, w + pitch, pitch)):
            xo = xv + (pitch / 2 if stagger and j % 2 else 0) + rng.normal(0, jit * pitch)
            yo = yv + rng.normal(0, jit * pitch)
            k = (i + j) % len(kinds)
            draw_motif(masks[(i + 2 * j) % len(masks)], kinds[k], (xo, yo), r * rng.uniform(0.9, 1.1), angle, rng)
    for m, ink in zip(masks, inks, strict=True):
        out = out * (1 - m[:, :, None]) + ink * m[:, :, None]
    return out * (1 + 0.04 * _noise(rng, hw, 30))[:, :, None]


def surface_dots(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    """Polka dots or scattered spots: the likeliest thing to be read as 1s."""
    h, w = hw
    ground = _rand_colour(rng)
    ink = _rand_colour(rng, light=0.9 - _luma(ground[::-1]) ** 0.45)
    out = _fill(hw, ground)
    mask = np.zeros(hw, np.float32)
    r = rng.uniform(2, 12) * SS
    if rng.random() < 0.5:
        pitch = r * rng.uniform(2.5, 6)
        for j, yv in enumerate(np.arange(0, h + pitch, pitch)):
            for xv in np.arange(0, w + pitch, pitch):
                cv2.circle(mask, (int(xv + (pitch / 2 if j % 2 else 0)), int(yv)), int(r), 1.0, -1, cv2.LINE_AA)
    else:
        for _ in range(int(rng.integers(20, 400))):
            cv2.circle(
                mask,
                (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                int(r * rng.uniform(0.5, 1.5)),
                1.0,
                -1,
                cv2.LINE_AA,
            )
    return out * (1 - mask[:, :, None]) + ink * mask[:, :, None]


def surface_plaid(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    h, w = hw
    out = _fill(hw, _rand_colour(rng))
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(int(rng.integers(2, 5))):
        col = _rand_colour(rng)
        period = rng.uniform(20, 120) * SS
        width = period * rng.uniform(0.08, 0.4)
        off = rng.uniform(0, period)
        alpha = rng.uniform(0.3, 0.7)
        for coord in (xx, yy):
            band = ((coord + off) % period < width).astype(np.float32) * alpha
            out = out * (1 - band[:, :, None]) + col * band[:, :, None]
    weave = 1 + 0.08 * np.sign(np.sin(xx / SS * 1.7) * np.sin(yy / SS * 1.7))
    return out * weave[:, :, None]


def surface_lace(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    """Lace or a crocheted cloth: a light mesh with holes (and flowers) over a darker table, or the reverse."""
    h, w = hw
    cloth = _rand_colour(rng, light=rng.uniform(0.6, 0.95))
    under = _rand_colour(rng, light=rng.uniform(0.02, 0.4))
    if rng.random() < 0.3:
        cloth, under = under, cloth
    holes = np.zeros(hw, np.float32)
    pitch = rng.uniform(8, 40) * SS
    r = pitch * rng.uniform(0.2, 0.42)
    for j, yv in enumerate(np.arange(0, h + pitch, pitch * 0.87)):
        for xv in np.arange(0, w + pitch, pitch):
            cv2.circle(
                holes,
                (int(xv + (pitch / 2 if j % 2 else 0)), int(yv)),
                int(r * rng.uniform(0.8, 1.1)),
                1.0,
                -1,
                cv2.LINE_AA,
            )
    if rng.random() < 0.5:
        flowers = np.zeros(hw, np.float32)
        for _ in range(int(rng.integers(3, 20))):
            draw_motif(flowers, "flower", (rng.uniform(0, w), rng.uniform(0, h)), pitch * rng.uniform(1, 3), 0, rng)
        holes = holes * (1 - flowers)
    out = _fill(hw, cloth) * (1 - holes[:, :, None]) + _fill(hw, under) * holes[:, :, None]
    return cv2.GaussianBlur(out, (0, 0), 0.7)


def surface_paper(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    """Paper: lines of text, graph paper, or a poster with a grid of squares."""
    h, w = hw
    paper = _rand_colour(rng, light=rng.uniform(0.7, 0.95))
    ink = _rand_colour(rng, light=rng.uniform(0.02, 0.3))
    mask = np.zeros(hw, np.float32)
    style = int(rng.integers(3))
    if style == 0:  # text
        size = rng.uniform(0.3, 1.4) * SS
        line = int(30 * size)
        for y in range(line, h, line):
            x = int(rng.uniform(0, 40))
            while x < w:
                word = "".join(chr(int(rng.integers(97, 123))) for _ in range(int(rng.integers(1, 9))))
                _put_text(
                    mask,
                    word,
                    (x, y),
                    int(rng.choice([0, 1, 2, 3, 4, 6, 7])),
                    size,
                    1.0,
                    max(1, int(size * 1.5)),
                    cv2.LINE_AA,
                )
                x += int((len(word) + 1) * 20 * size)
    elif style == 1:  # graph paper
        pitch = rng.uniform(6, 30) * SS
        th = max(1, int(rng.uniform(0.5, 1.5) * SS))
        for v in np.arange(0, w, pitch):
            cv2.line(mask, (int(v), 0), (int(v), h), 1.0, th)
        for v in np.arange(0, h, pitch):
            cv2.line(mask, (0, int(v)), (w, int(v)), 1.0, th)
        mask *= rng.uniform(0.3, 1.0)
    else:  # a grid of squares (or rounded squares) printed on a poster
        pitch = rng.uniform(12, 60) * SS
        side = pitch * rng.uniform(0.5, 0.85)
        for yv in np.arange(0, h, pitch):
            for xv in np.arange(0, w, pitch):
                if rng.random() < 0.8:
                    cv2.rectangle(
                        mask, (int(xv), int(yv)), (int(xv + side), int(yv + side)), float(rng.uniform(0.4, 1.0)), -1
                    )
    out = _fill(hw, paper) * (1 - mask[:, :, None]) + ink * mask[:, :, None]
    return out * (1 + 0.02 * _noise(rng, hw, 50))[:, :, None]


def surface_carpet(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    cols = [_rand_colour(rng) for _ in range(int(rng.integers(2, 6)))]
    field_ = _noise(rng, hw, int(rng.uniform(10, 80))) + 0.5 * _noise(rng, hw, 8)
    levels = np.digitize(field_, np.quantile(field_, np.linspace(0, 1, len(cols) + 1)[1:-1]))
    out = np.stack([np.asarray(cols)[levels][:, :, c] for c in range(3)], axis=2).astype(np.float32)
    pile = 1 + 0.15 * rng.normal(0, 1, hw).astype(np.float32)
    out = cv2.GaussianBlur(out * pile[:, :, None], (0, 0), 0.8)
    if rng.random() < 0.5:
        return np.asarray(out * 0.5 + surface_print(rng, hw) * 0.5, np.float32)
    return np.asarray(out, np.float32)


def surface_speckle(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    """A speckled carpet, a confetti or leaf print, terrazzo: flecks of three to five colours, a light one among them,
    each about a pip's size, close together on a darker ground (the felt-tray photos' carpet: what a detector takes
    for dice). Not in ``SURFACES``: ``wide.Shares.speckle`` lays it, so earlier renders stay as they were."""
    h, w = hw
    out = _fill(hw, _rand_colour(rng, light=rng.uniform(0.05, 0.4)))
    inks = [_rand_colour(rng) for _ in range(int(rng.integers(2, 5)))]
    inks.append(_rand_colour(rng, light=rng.uniform(0.7, 0.95)))
    half = rng.uniform(1.0, 4.0) * SS  # a fleck's half-length (supersampled px)
    thin = rng.uniform(0.3, 0.9)  # its width against its length
    n = int(h * w / (half * half * rng.uniform(1.5, 4.0)))
    xs, ys = rng.uniform(0, w, n).astype(int), rng.uniform(0, h, n).astype(int)
    lengths = np.maximum(1, half * rng.uniform(0.5, 1.5, n)).astype(int)
    widths = np.maximum(1, lengths * thin * rng.uniform(0.6, 1.4, n)).astype(int)
    turns = rng.uniform(0, 180, n)
    which = rng.integers(0, len(inks), n)
    for i in range(n):
        ink = tuple(float(c) for c in inks[which[i]])
        cv2.ellipse(out, (xs[i], ys[i]), (lengths[i], widths[i]), turns[i], 0, 360, ink, -1, cv2.LINE_AA)
    return np.asarray(cv2.GaussianBlur(out, (0, 0), 0.7), np.float32)


def surface_map(rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
    h, w = hw
    f = _noise(rng, hw, int(rng.uniform(40, 150)))
    cols = [_rand_colour(rng, light=rng.uniform(0.4, 0.9)) for _ in range(4)]
    levels = np.digitize(f, [-0.6, 0.0, 0.6])
    out = np.stack([np.asarray(cols)[levels][:, :, c] for c in range(3)], axis=2).astype(np.float32)
    lines = np.zeros(hw, np.float32)
    for q in np.linspace(-1.5, 1.5, 9):
        lines += (np.abs(f - q) < 0.02).astype(np.float32)
    for _ in range(int(rng.integers(2, 12))):
        pts = np.cumsum(rng.normal(0, 20 * SS, (12, 2)), axis=0) + np.array([rng.uniform(0, w), rng.uniform(0, h)])
        cv2.polylines(lines, [pts.astype(np.int32)], False, 1.0, max(1, int(rng.uniform(1, 3) * SS)), cv2.LINE_AA)
    for _ in range(int(rng.integers(0, 15))):
        word = "".join(chr(int(rng.integers(65, 91))) for _ in range(int(rng.integers(3, 9))))
        _put_text(
            lines,
            word,
            (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
            0,
            rng.uniform(0.4, 1.2) * SS,
            1.0,
            SS,
            cv2.LINE_AA,
        )
        cv2.circle(
            lines, (int(rng.uniform(0, w)), int(rng.uniform(0, h))), int(rng.uniform(2, 5) * SS), 1.0, -1, cv2.LINE_AA
        )
    lines = np.clip(lines, 0, 1)
    return out * (1 - 0.8 * lines[:, :, None])


class Backgrounds:
    """Photographs to cut surfaces from: the given images (the development sets' training photos with their
    labelled dice painted out), GIMP's tileable patterns (``gimp-data``, when installed) and matplotlib's sample
    photo. Each is kept at most 640 px a side."""

    def __init__(self, images: list[np.ndarray] | None = None, gimp: bool = True) -> None:
        self.photos: list[np.ndarray] = list(images or [])
        self.tiles: list[np.ndarray] = []
        if gimp and GIMP_PATTERNS.is_dir():
            for p in sorted(GIMP_PATTERNS.rglob("*.pat")):
                tile = read_gimp_pattern(p)
                if tile is not None and min(tile.shape[:2]) >= 16:
                    self.tiles.append(tile)
        try:
            import matplotlib.cbook as cbook

            with cbook.get_sample_data("grace_hopper.jpg") as f:
                img = cv2.imdecode(np.frombuffer(f.read(), np.uint8), cv2.IMREAD_COLOR)
            if img is not None:
                self.photos.append(img)
        except Exception:  # matplotlib not installed, or no sample data: fine, fewer photos
            pass

    def __bool__(self) -> bool:
        return bool(self.photos or self.tiles)

    def surface(self, rng: np.random.Generator, hw: tuple[int, int]) -> np.ndarray:
        h, w = hw
        if self.tiles and (not self.photos or rng.random() < 0.35):
            tile = self.tiles[int(rng.integers(len(self.tiles)))]
            f = rng.uniform(0.5, 2.5) * SS
            tile = cv2.resize(tile, None, fx=f, fy=f, interpolation=cv2.INTER_LINEAR)
            reps = (h // tile.shape[0] + 2, w // tile.shape[1] + 2, 1)
            big = np.tile(tile, reps)
            y0, x0 = int(rng.integers(tile.shape[0])), int(rng.integers(tile.shape[1]))
            img = big[y0 : y0 + h, x0 : x0 + w]
        else:
            photo = self.photos[int(rng.integers(len(self.photos)))]
            ph, pw = photo.shape[:2]
            f = max(h / ph, w / pw) * rng.uniform(1.0, 2.0)
            big = cv2.resize(photo, None, fx=f, fy=f, interpolation=cv2.INTER_LINEAR)
            y0 = int(rng.integers(0, big.shape[0] - h + 1))
            x0 = int(rng.integers(0, big.shape[1] - w + 1))
            img = big[y0 : y0 + h, x0 : x0 + w]
            if rng.random() < 0.5:
                img = img[:, ::-1]
        return np.asarray((img.astype(np.float32) / 255.0) ** 2.2 / 1.6, np.float32)


def read_gimp_pattern(path: Path) -> np.ndarray | None:
    """A GIMP ``.pat`` file (header: size, version, width, height, bytes per pixel, 'GPAT', name; then pixels) as a
    BGR uint8 image; None when it is not one."""
    data = path.read_bytes()
    if len(data) < 24:
        return None
    header, _version, w, h, bpp = struct.unpack(">5I", data[:20])
    if data[20:24] != b"GPAT" or bpp not in (1, 2, 3, 4) or len(data) < header + w * h * bpp:
        return None
    px = np.frombuffer(data, np.uint8, w * h * bpp, header).reshape(h, w, bpp)
    if bpp in (1, 2):
        return np.ascontiguousarray(np.repeat(px[:, :, :1], 3, axis=2))
    return np.ascontiguousarray(px[:, :, 2::-1])


SURFACES: dict[str, tuple[Callable[[np.random.Generator, tuple[int, int]], np.ndarray], float]] = {
    "plain": (surface_plain, 2.0),
    "white box": (surface_white_box, 1.5),
    "wood": (surface_wood, 1.5),
    "felt": (surface_felt, 1.5),
    "print": (surface_print, 2.0),
    "dots": (surface_dots, 1.0),
    "plaid": (surface_plaid, 1.0),
    "lace": (surface_lace, 0.8),
    "paper": (surface_paper, 1.5),
    "carpet": (surface_carpet, 1.0),
    "map": (surface_map, 0.6),
}
