"""Appearance-wide scenes for the dice verifier and readers (issue #20): real-world dice and real-world tables.

``dice_render`` draws plain dice on plain felt for calibration tests. This module draws what families actually
put under a camera, every scene from one seed:

- **surfaces**: plain, wood, felt, fabric prints (tiled motifs: dots, rings, crosses, stars, fleurs, flowers,
  diamonds, letters), polka dots, plaid, lace, paper with text, graph paper, a poster with a grid of squares,
  carpets, maps, white photo boxes, and photographs (``Backgrounds``: the development sets' own photos with their
  labelled dice painted out, GIMP's tileable patterns where ``gimp-data`` is installed, matplotlib's sample photo);
- **things that are not dice** (each one a labelled negative): holes, dust, screws, coins, buttons with two or four
  holes, round stickers, toy bricks with studs, dominoes, rings, nuts, tokens, text;
- **dice** of every look: white, ivory, black, navy and coloured bodies, marbled or swirled, translucent, glossy
  with a glare streak; pips black, white, red, yellow, gold, blue, small or big, engraved or flat; the layouts
  makers use (a big 1, 2 and 3 on the diagonal or along the middle, 6 in rows or columns by the die's turn),
  rounded or sharp corners; touching, overlapping and leaning dice (a side face in view); soft or hard shadows;
- **the camera**: light colour and gradient, a round top camera's vignette, grey sensors, blur, motion, noise,
  JPEG.

Everything is linear-light reflectance drawn at twice the output size, then lit, gamma-encoded and shrunk.
Only numpy and OpenCV; deterministic for a seed. Used by ``tools/dicetrain`` only (not installed with the app).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

SS = 2  # supersampling
GIMP_PATTERNS = Path("/usr/share/gimp/2.0/patterns")

# body colours (linear RGB reflectance) with how often each is drawn
BODIES: tuple[tuple[str, tuple[float, float, float], float], ...] = (
    ("white", (0.80, 0.80, 0.78), 3.0),
    ("ivory", (0.78, 0.70, 0.52), 1.0),
    ("black", (0.025, 0.025, 0.03), 1.5),
    ("navy", (0.02, 0.03, 0.16), 1.0),
    ("red", (0.55, 0.03, 0.03), 1.2),
    ("dark red", (0.25, 0.01, 0.02), 0.6),
    ("blue", (0.03, 0.12, 0.55), 1.0),
    ("green", (0.04, 0.35, 0.08), 1.0),
    ("teal", (0.02, 0.30, 0.28), 0.7),
    ("yellow", (0.78, 0.62, 0.03), 0.8),
    ("orange", (0.80, 0.25, 0.02), 0.8),
    ("purple", (0.22, 0.04, 0.40), 0.8),
    ("pink", (0.80, 0.30, 0.45), 0.6),
    ("grey", (0.30, 0.30, 0.30), 0.6),
    ("brown", (0.25, 0.12, 0.05), 0.5),
    ("light blue", (0.35, 0.55, 0.80), 0.5),
)
INKS: tuple[tuple[str, tuple[float, float, float]], ...] = (
    ("black", (0.02, 0.02, 0.02)),
    ("white", (0.85, 0.85, 0.85)),
    ("red", (0.60, 0.02, 0.02)),
    ("yellow", (0.80, 0.65, 0.02)),
    ("gold", (0.55, 0.38, 0.08)),
    ("blue", (0.02, 0.08, 0.55)),
    ("green", (0.03, 0.35, 0.05)),
)


def _choice(rng: np.random.Generator, weights: list[float]) -> int:
    w = np.asarray(weights, np.float64)
    return int(rng.choice(len(w), p=w / w.sum()))


def _luma(rgb: tuple[float, ...] | np.ndarray) -> float:
    r, g, b = (float(v) for v in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


# -- what is drawn ---------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class WideDie:
    """One die: centre and side (output px), turn (degrees), value, and its look."""

    centre: tuple[float, float]
    size: float
    angle: float
    value: int
    body: tuple[float, float, float]
    ink: tuple[float, float, float]
    pip_size: float = 0.09  # pip radius as a share of the side
    spread: float = 0.23  # outer pips' centres from the face's centre, share of the side
    big_one: float = 1.0  # the 1's pip radius x this
    accent: tuple[float, float, float] | None = None  # 1 and 4 in this colour
    middle: bool = False  # 2 and 3 along the middle instead of the diagonal
    corner: float = 0.15  # corner radius, share of the side
    marble: tuple[float, float, float] | None = None
    opacity: float = 1.0
    glare: float = 0.0  # strength of a specular streak on the face
    engraved: bool = False  # pips sunk into the face: a shaded rim
    side: tuple[int, float, float] | None = None  # a side face in view: value, depth (share of side), shade
    look_seed: int = 0
    disc: tuple[float, float, float] | None = None  # a printed disc under the pips (its colour), see DISCS
    disc_radius: float = 0.42  # its radius, share of the side


@dataclass(frozen=True)
class Thing:
    """A thing that is not a die: its kind, centre, size (output px), turn and a seed for its details."""

    kind: str
    centre: tuple[float, float]
    size: float
    angle: float
    seed: int


@dataclass
class WideScene:
    """A rendered photo (BGR uint8) with its dice (box x0 y0 x1 y1, value; ``hidden`` when mostly covered by
    another die: neither a die to find nor a negative), and the boxes of things that are not dice."""

    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    hidden: np.ndarray
    things: np.ndarray
    thing_kinds: list[str] = field(default_factory=list)
    surface: str = ""


# -- surfaces --------------------------------------------------------------------------------------------------------


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


# -- things that are not dice ----------------------------------------------------------------------------------------

BLOCKS = 0.12  # share of scenes with a block of touching dice in rows
THINGS = (
    "hole",
    "speck",
    "screw",
    "coin",
    "button",
    "sticker",
    "brick",
    "domino",
    "ring",
    "nut",
    "token",
    "text",
    "pawn",
)


def _shadow(scene: np.ndarray, mask: np.ndarray, offset: tuple[float, float], soft: float, depth: float) -> None:
    m = np.float32([[1, 0, offset[0]], [0, 1, offset[1]]])
    moved = cv2.warpAffine(mask, m, (mask.shape[1], mask.shape[0]))
    if soft > 0.5:
        moved = cv2.GaussianBlur(moved, (0, 0), soft)
    scene *= (1 - depth * moved)[:, :, None]


def _paint(scene: np.ndarray, mask: np.ndarray, colour: np.ndarray | float) -> None:
    scene *= 1 - mask[:, :, None]
    scene += mask[:, :, None] * colour


def _draw_thing(scene: np.ndarray, t: Thing, shadow: tuple[float, float, float]) -> None:
    """Draw a thing that is not a die (supersampled coordinates inside)."""
    rng = np.random.default_rng(t.seed)
    h, w = scene.shape[:2]
    cx, cy, r = t.centre[0] * SS, t.centre[1] * SS, t.size * SS / 2
    aa = cv2.LINE_AA
    c = (round(cx), round(cy))
    mask = np.zeros((h, w), np.float32)
    ca, sa = math.cos(math.radians(t.angle)), math.sin(math.radians(t.angle))

    def pt(u: float, v: float) -> tuple[int, int]:
        return (round(cx + r * (u * ca - v * sa)), round(cy + r * (u * sa + v * ca)))

    def rect(u0: float, v0: float, u1: float, v1: float) -> np.ndarray:
        return np.array([pt(u0, v0), pt(u1, v0), pt(u1, v1), pt(u0, v1)], np.int32)

    k = t.kind
    if k in ("hole", "speck"):  # darker inside, no shadow: a hole in the table or a dust speck
        if k == "speck":
            pts = [
                pt(math.cos(a) * rng.uniform(0.5, 1), math.sin(a) * rng.uniform(0.5, 1))
                for a in np.linspace(0, 2 * np.pi, 9)[:-1]
            ]
            cv2.fillPoly(mask, [np.array(pts, np.int32)], 1.0, aa)
        else:
            cv2.ellipse(mask, c, (max(1, int(r)), max(1, int(r * rng.uniform(0.8, 1.0)))), t.angle, 0, 360, 1.0, -1, aa)
        soft = cv2.GaussianBlur(mask, (0, 0), max(0.6, r * rng.uniform(0.05, 0.3)))
        dark = rng.uniform(0.05, 0.6) if rng.random() < 0.8 else rng.uniform(1.3, 2.0)  # a few light specks
        scene *= (1 - soft * (1 - dark))[:, :, None]
        return
    if k == "text":
        word = "".join(chr(int(rng.integers(48, 91))) for _ in range(int(rng.integers(1, 4))))
        _put_text(mask, word, pt(-1, 0.5), int(rng.integers(0, 8)), r / 12, 1.0, max(1, int(r / 8)), aa)
        _paint(scene, mask, _rand_colour(rng))
        return
    body = np.zeros((h, w), np.float32)
    if k in ("screw", "coin", "button", "sticker", "ring", "token", "pawn"):
        cv2.circle(body, c, max(1, int(r)), 1.0, -1, aa)
    elif k == "brick":
        nx, ny = [(1, 1), (1, 2), (2, 2), (2, 3), (2, 4), (1, 3), (1, 4)][int(rng.integers(7))]
        sx, sy = nx / max(nx, ny), ny / max(nx, ny)
        cv2.fillPoly(body, [rect(-sx, -sy, sx, sy)], 1.0, aa)
    elif k == "domino":
        cv2.fillPoly(body, [rect(-0.5, -1, 0.5, 1)], 1.0, aa)
    elif k == "nut":
        cv2.fillPoly(
            body, [np.array([pt(math.cos(a), math.sin(a)) for a in np.arange(6) * np.pi / 3], np.int32)], 1.0, aa
        )
    off, soft, depth = shadow
    _shadow(scene, body, (off * r * ca, off * r * sa + off * r), soft * r, depth)
    if k in ("screw", "nut", "coin", "ring"):  # metal: a radial sheen
        metal = np.array(
            [[0.55, 0.55, 0.55], [0.15, 0.45, 0.65], [0.2, 0.35, 0.6], [0.4, 0.42, 0.45]][int(rng.integers(4))],
            np.float32,
        )
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        sheen = 0.6 + 0.6 * np.clip(1 - np.hypot(xx - cx + r * 0.3, yy - cy + r * 0.3) / (2 * r), 0, 1)
        tex = metal * sheen[:, :, None] * (1 + 0.1 * rng.normal(0, 1, (h, w)).astype(np.float32))[:, :, None]
        scene *= 1 - body[:, :, None]
        scene += body[:, :, None] * tex
        detail = np.zeros((h, w), np.float32)
        if k == "screw":
            th = max(1, int(r * 0.18))
            cv2.line(detail, pt(-0.7, 0), pt(0.7, 0), 1.0, th, aa)
            if rng.random() < 0.5:
                cv2.line(detail, pt(0, -0.7), pt(0, 0.7), 1.0, th, aa)
            _paint(scene, detail, metal * 0.15)
        elif k == "nut":
            cv2.circle(detail, c, max(1, int(r * 0.5)), 1.0, -1, aa)
            _paint(scene, detail, scene[min(h - 1, c[1] + int(r * 2)), min(w - 1, c[0])] * 0.5)
        elif k == "ring":
            cv2.circle(detail, c, max(1, int(r * rng.uniform(0.6, 0.85))), 1.0, -1, aa)
            # the hole shows the table: paint it from what is around
            _paint(scene, detail, scene[min(h - 1, max(0, c[1] + int(r * 1.5))), min(w - 1, c[0])])
        else:  # a coin: rim and embossing
            cv2.circle(detail, c, max(1, int(r * 0.85)), 1.0, max(1, int(r * 0.06)), aa)
            for _ in range(int(rng.integers(2, 8))):
                draw_motif(
                    detail,
                    MOTIFS[int(rng.integers(len(MOTIFS)))],
                    (cx + rng.uniform(-0.4, 0.4) * r, cy + rng.uniform(-0.4, 0.4) * r),
                    r * rng.uniform(0.15, 0.4),
                    0,
                    rng,
                )
            _paint(scene, detail * 0.6, metal * 0.5)
        return
    colour = _rand_colour(rng, light=rng.uniform(0.05, 0.95))
    _paint(scene, body, colour)
    detail = np.zeros((h, w), np.float32)
    ink = _rand_colour(rng, light=0.9 - _luma(colour[::-1]) ** 0.45)
    if k == "button":
        n = 2 if rng.random() < 0.5 else 4
        cv2.circle(detail, c, max(1, int(r * 0.8)), 1.0, max(1, int(r * 0.08)), aa)
        spots = [(-0.3, 0), (0.3, 0)] if n == 2 else [(-0.28, -0.28), (0.28, -0.28), (-0.28, 0.28), (0.28, 0.28)]
        for u, v in spots:
            cv2.circle(detail, pt(u, v), max(1, int(r * 0.13)), 1.0, -1, aa)
        _paint(scene, detail, colour * 0.3)
    elif k == "sticker":
        if rng.random() < 0.6:
            draw_motif(detail, MOTIFS[int(rng.integers(len(MOTIFS)))], (cx, cy), r * 0.6, 0, rng)
            _paint(scene, detail, ink)
    elif k == "token" or k == "pawn":
        cv2.circle(detail, c, max(1, int(r * 0.75)), 1.0, max(1, int(r * 0.1)), aa)
        if k == "pawn":
            cv2.circle(detail, c, max(1, int(r * 0.35)), 1.0, -1, aa)
        _paint(scene, detail, colour * 0.6)
    elif k == "brick":  # studs: round, lit from one side
        sx, sy = nx / max(nx, ny), ny / max(nx, ny)
        for i in range(nx):
            for j in range(ny):
                u = -sx + (2 * i + 1) * sx / nx
                v = -sy + (2 * j + 1) * sy / ny
                sr = max(1, int(r * 0.3 / max(nx, ny) * 2))
                shadow_m = np.zeros((h, w), np.float32)
                cv2.circle(shadow_m, pt(u + 0.08, v + 0.08), sr, 1.0, -1, aa)
                _paint(scene, shadow_m, colour * 0.55)
                top = np.zeros((h, w), np.float32)
                cv2.circle(top, pt(u, v), sr, 1.0, -1, aa)
                _paint(scene, top, np.minimum(colour * 1.25, 1.0))
                if rng.random() < 0.5:
                    ring = np.zeros((h, w), np.float32)
                    cv2.circle(ring, pt(u, v), sr, 1.0, max(1, sr // 4), aa)
                    _paint(scene, ring, colour * 0.7)
    elif k == "domino":
        cv2.line(detail, pt(-0.45, 0), pt(0.45, 0), 1.0, max(1, int(r * 0.04)), aa)
        for half, n in ((-0.5, int(rng.integers(0, 7))), (0.5, int(rng.integers(0, 7)))):
            for u, v in _pip_spots(n, 0.25, False):
                cv2.circle(detail, pt((u - 0.5) * 0.9, half + (v - 0.5) * 0.9), max(1, int(r * 0.07)), 1.0, -1, aa)
        _paint(scene, detail, ink)


# -- dice ------------------------------------------------------------------------------------------------------------


def _pip_spots(value: int, spread: float, middle: bool) -> list[tuple[float, float]]:
    lo, hi = 0.5 - spread, 0.5 + spread
    row = 0.5 - spread * 25 / 23, 0.5 + spread * 25 / 23
    if value == 0:
        return []
    if value == 2 and middle:
        return [(lo, 0.5), (hi, 0.5)]
    if value == 3 and middle:
        return [(lo, 0.5), (0.5, 0.5), (hi, 0.5)]
    return {
        1: [(0.5, 0.5)],
        2: [(lo, lo), (hi, hi)],
        3: [(lo, lo), (0.5, 0.5), (hi, hi)],
        4: [(lo, lo), (hi, lo), (lo, hi), (hi, hi)],
        5: [(lo, lo), (hi, lo), (0.5, 0.5), (lo, hi), (hi, hi)],
        6: [(lo, row[0]), (hi, row[0]), (lo, 0.5), (hi, 0.5), (lo, row[1]), (hi, row[1])],
    }[value]


DISCS = 0.0  # share of dice whose pips sit on a printed disc of another colour (train_verifier --discs); 0 keeps
# the renders of earlier runs as they were (the disc is drawn from its own generator, seeded by the die's look)


def with_a_disc(d: WideDie) -> WideDie:
    """The die, maybe (``DISCS``) with its pips printed on a big disc: dark with light pips or the other way, as on
    dice whose face carries a coloured circle."""
    rng = np.random.default_rng(d.look_seed + 17)
    if not DISCS or rng.random() >= DISCS:
        return d
    dark = rng.random() < 0.7
    disc = tuple(float(v) for v in (rng.uniform(0.02, 0.3, 3) if dark else rng.uniform(0.7, 0.98, 3)))
    ink = tuple(float(v) for v in (rng.uniform(0.75, 0.98, 3) if dark else rng.uniform(0.02, 0.2, 3)))
    spread, pip = float(rng.uniform(0.13, 0.2)), float(rng.uniform(0.05, 0.085))  # the pips inside the disc
    radius = min(0.48, spread * 1.414 + pip + float(rng.uniform(0.03, 0.08)))
    return replace(
        d,
        disc=disc,
        disc_radius=radius,
        spread=spread,
        pip_size=pip,
        big_one=1.0,
        ink=ink,
        accent=None,  # type: ignore[arg-type]
    )


def random_die(rng: np.random.Generator, centre: tuple[float, float], size: float, value: int | None = None) -> WideDie:
    """A die of any look that makers sell."""
    i = _choice(rng, [b[2] for b in BODIES])
    body = tuple(float(np.clip(v * rng.uniform(0.8, 1.2), 0.005, 0.95)) for v in BODIES[i][1])
    light_body = _luma(body) > 0.25
    if rng.random() < 0.6:
        ink = (0.02, 0.02, 0.02) if light_body else (0.85, 0.85, 0.85)
    else:
        choices = [c for n, c in INKS if (_luma(c) > 0.3) != light_body or n in ("red", "gold", "blue")]
        ink = choices[int(rng.integers(len(choices)))]
    if abs(_luma(ink) - _luma(body)) < 0.06 and rng.random() < 0.8:  # keep most pips readable
        ink = (0.02, 0.02, 0.02) if light_body else (0.85, 0.85, 0.85)
    marble = None
    if rng.random() < 0.25:
        second = BODIES[_choice(rng, [b[2] for b in BODIES])][1]
        marble = tuple(float(v) for v in second)
    opacity = float(rng.uniform(0.45, 0.85)) if rng.random() < 0.1 else 1.0
    big = rng.random() < 0.3
    return with_a_disc(
        WideDie(
            centre=centre,
            size=size,
            angle=float(rng.uniform(0, 360)),
            value=int(value if value is not None else rng.integers(1, 7)),
            body=body,  # type: ignore[arg-type]
            ink=ink,
            pip_size=float(rng.uniform(0.06, 0.13)),
            spread=float(rng.uniform(0.19, 0.28)),
            big_one=float(rng.uniform(1.5, 2.6)) if big else 1.0,
            accent=(0.6, 0.02, 0.02) if (rng.random() < 0.1 and light_body) else None,
            middle=bool(rng.random() < 0.2),
            corner=float(rng.uniform(0.04, 0.32)),
            marble=marble,  # type: ignore[arg-type]
            opacity=opacity,
            glare=float(rng.uniform(0.3, 1.2)) if rng.random() < 0.3 else 0.0,
            engraved=bool(rng.random() < 0.4),
            side=(int(rng.integers(1, 7)), float(rng.uniform(0.1, 0.45)), float(rng.uniform(0.35, 0.8)))
            if rng.random() < 0.25
            else None,
            look_seed=int(rng.integers(1 << 30)),
        )
    )


def _rounded_square(n: int, corner: float) -> np.ndarray:
    a = np.zeros((n, n), np.float32)
    r = max(1, int(n * corner))
    cv2.rectangle(a, (r, 0), (n - 1 - r, n - 1), 1.0, -1)
    cv2.rectangle(a, (0, r), (n - 1, n - 1 - r), 1.0, -1)
    for x, y in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(a, (x, y), r, 1.0, -1, cv2.LINE_AA)
    return a


def _marble_share(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    f = np.zeros((n, n), np.float32)
    for cells, weight in ((3, 1.0), (6, 0.5), (12, 0.25)):
        f += weight * cv2.resize(
            rng.normal(0, 1, (cells, cells)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC
        )
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    a = float(rng.uniform(0, np.pi))
    stripes = np.sin((xx * np.cos(a) + yy * np.sin(a)) * float(rng.uniform(4, 12)) + 3.0 * f)
    return np.asarray(np.clip(0.5 + float(rng.uniform(0.5, 2.0)) * stripes, 0.0, 1.0), np.float32)


def die_face(d: WideDie, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The die's top face drawn upright on an n x n canvas: (colour BGR, alpha)."""
    body = np.array(d.body[::-1], np.float32)
    canvas = _fill((n, n), body)
    if d.marble is not None:
        share = _marble_share(n, d.look_seed)[:, :, None]
        canvas = canvas * (1 - share) + np.array(d.marble[::-1], np.float32) * share
    if d.disc is not None:
        disc = np.zeros((n, n), np.float32)
        cv2.circle(disc, (n // 2, n // 2), max(2, int(n * d.disc_radius)), 1.0, -1, cv2.LINE_AA)
        canvas = canvas * (1 - disc[:, :, None]) + np.array(d.disc[::-1], np.float32) * disc[:, :, None]
    ink_mask = np.zeros((n, n), np.float32)
    rim = np.zeros((n, n), np.float32)
    radius = n * d.pip_size
    for u, v in _pip_spots(d.value, d.spread, d.middle):
        rr = radius * (d.big_one if d.value == 1 else 1.0)
        cv2.circle(ink_mask, (int(u * n), int(v * n)), max(1, int(rr)), 1.0, -1, cv2.LINE_AA)
        if d.engraved:
            cv2.circle(
                rim,
                (int(u * n - rr * 0.15), int(v * n - rr * 0.15)),
                max(1, int(rr)),
                1.0,
                max(1, int(rr * 0.25)),
                cv2.LINE_AA,
            )
    ink = np.array((d.accent if d.accent is not None and d.value in (1, 4) else d.ink)[::-1], np.float32)
    canvas = canvas * (1 - ink_mask[:, :, None]) + ink * ink_mask[:, :, None]
    if d.engraved:
        canvas *= (1 - 0.5 * rim * ink_mask)[:, :, None]
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    canvas *= (0.9 + 0.15 * (1 - (xx + yy) / 2))[:, :, None]
    if d.glare > 0:  # a specular streak: the light's own colour, brightest along a line
        rng = np.random.default_rng(d.look_seed + 1)
        a = rng.uniform(0, np.pi)
        dist = np.abs((xx - rng.uniform(0.2, 0.8)) * math.cos(a) + (yy - rng.uniform(0.2, 0.8)) * math.sin(a))
        width = rng.uniform(0.03, 0.15)
        streak = np.exp(-((dist / width) ** 2)) * d.glare
        canvas = canvas + streak[:, :, None] * (1.2 - canvas) * 0.9
    return canvas, _rounded_square(n, d.corner)


def _region(scene: np.ndarray, centre: tuple[float, float], reach: float) -> tuple[np.ndarray, float, float]:
    """The part of the (supersampled) scene within ``reach`` output px of ``centre`` (a view: drawing on it draws
    on the scene), and its origin in output px."""
    h, w = scene.shape[:2]
    x0 = int(max(0, math.floor((centre[0] - reach) * SS)))
    y0 = int(max(0, math.floor((centre[1] - reach) * SS)))
    x1 = int(min(w, math.ceil((centre[0] + reach) * SS)))
    y1 = int(min(h, math.ceil((centre[1] + reach) * SS)))
    return scene[y0:y1, x0:x1], x0 / SS, y0 / SS


def draw_die(scene: np.ndarray, d: WideDie, shadow: tuple[float, float, float]) -> np.ndarray:
    """Draw a die (shadow, sides, top face) on the part of the scene it can reach; returns the top face's corners
    in output px."""
    reach = d.size * (1.3 + 2.0 * shadow[0] + 3.0 * shadow[1] + (d.side[1] if d.side else 0.0)) + 4
    part, ox, oy = _region(scene, d.centre, reach)
    if part.size == 0:
        return _draw_die(scene, d, shadow)
    local = replace(d, centre=(d.centre[0] - ox, d.centre[1] - oy))
    return _draw_die(part, local, shadow) + np.array([ox, oy])


def draw_thing(scene: np.ndarray, t: Thing, shadow: tuple[float, float, float]) -> None:
    """Draw a thing that is not a die on the part of the scene it can reach."""
    reach = t.size * (1.2 + 2.0 * shadow[0] + 3.0 * shadow[1]) + 4
    if t.kind == "text":
        reach = t.size * 4 + 8
    part, ox, oy = _region(scene, t.centre, reach)
    if part.size:
        _draw_thing(part, replace(t, centre=(t.centre[0] - ox, t.centre[1] - oy)), shadow)


def _draw_die(scene: np.ndarray, d: WideDie, shadow: tuple[float, float, float]) -> np.ndarray:
    """Draw a die (shadow, sides, top face); returns the top face's corners in output px."""
    h, w = scene.shape[:2]
    n = max(4, round(d.size * SS))
    face, alpha = die_face(d, n)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), -d.angle, 1.0)
    m[:, 2] += np.array([d.centre[0] * SS, d.centre[1] * SS]) - np.array([n / 2, n / 2])
    # the body under the face, a little bigger, in shade
    body_a = cv2.warpAffine(
        _rounded_square(n, d.corner), m @ np.array([[1.08, 0, -0.04 * n], [0, 1.08, -0.04 * n], [0, 0, 1]]), (w, h)
    )
    off, soft, depth = shadow
    ang = math.radians(d.angle)
    _shadow(scene, body_a, (off * d.size * SS, off * d.size * SS * 1.2), soft * d.size * SS, depth)
    body_colour = np.array(d.body[::-1], np.float32) * 0.5
    cover = body_a[:, :, None] * d.opacity
    scene *= 1 - cover
    scene += cover * body_colour
    if d.side is not None:  # a side face in view below the top face (before the turn)
        value, dep, shade = d.side
        k = max(2, round(n * dep))
        flat_face, flat_alpha = die_face(
            WideDie(
                d.centre,
                d.size,
                0,
                value,
                d.body,
                d.ink,
                d.pip_size,
                d.spread,
                d.big_one,
                d.accent,
                d.middle,
                d.corner,
                d.marble,
                1.0,
                0.0,
                False,
                None,
                d.look_seed,
            ),
            n,
        )
        band = cv2.resize(flat_face, (n, k), interpolation=cv2.INTER_AREA) * shade
        band_a = cv2.resize(flat_alpha, (n, k), interpolation=cv2.INTER_AREA)
        below = np.array(m, np.float64)
        below[:, 2] = below[:, 2] + below[:, 1] * n
        ba = cv2.warpAffine(band_a, below, (w, h))[:, :, None]
        scene *= 1 - ba
        scene += cv2.warpAffine(band, below, (w, h)) * ba
    fa = cv2.warpAffine(alpha, m, (w, h))[:, :, None] * d.opacity
    if d.opacity < 1.0:
        pips = cv2.warpAffine(
            (np.abs(face - np.array(d.body[::-1], np.float32)).max(axis=2) > 0.1).astype(np.float32), m, (w, h)
        )[:, :, None]
        fa = fa + (cv2.warpAffine(alpha, m, (w, h))[:, :, None] - fa) * pips
    scene *= 1 - fa
    scene += cv2.warpAffine(face, m, (w, h)) * fa
    half = d.size / 2
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    return np.array([[-half, -half], [half, -half], [half, half], [-half, half]]) @ rot.T + np.array(d.centre)


# -- scenes ----------------------------------------------------------------------------------------------------------


def _box_of(corners: np.ndarray, w: int, h: int) -> tuple[float, float, float, float]:
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return (max(0.0, float(x0)), max(0.0, float(y0)), min(float(w), float(x1)), min(float(h), float(y1)))


def render_scene(seed: int, backgrounds: Backgrounds | None = None, size: tuple[int, int] | None = None) -> WideScene:
    """One appearance-wide scene (see the module docstring); ``size`` (w, h) or a random one of the usual frames."""
    rng = np.random.default_rng(seed)
    w, h = size or [(640, 480), (640, 640), (480, 640), (640, 360)][_choice(rng, [4, 3, 1, 1])]
    hw = (h * SS, w * SS)
    names = list(SURFACES)
    weights = [SURFACES[k][1] for k in names]
    if backgrounds:
        names.append("photo")
        weights.append(3.0)
    surface = names[_choice(rng, weights)]
    scene = backgrounds.surface(rng, hw) if surface == "photo" and backgrounds else SURFACES[surface][0](rng, hw)
    scene = np.ascontiguousarray(np.clip(scene, 0.0, 1.0), np.float32)
    # the shadows of this light: offset (share of size), softness (share), darkness
    hard = rng.random() < 0.35
    shadow = (
        float(rng.uniform(0.02, 0.25)),
        float(rng.uniform(0.0, 0.05) if hard else rng.uniform(0.05, 0.2)),
        float(rng.uniform(0.3, 0.75)),
    )
    die_size = float(np.exp(rng.uniform(np.log(14), np.log(110))))
    n_dice = 0 if rng.random() < 0.15 else int(rng.integers(1, 13))
    n_things = int(rng.integers(0, 4)) if rng.random() < 0.4 else int(rng.integers(3, 22))
    placed: list[tuple[float, float, float]] = []  # centre, radius of everything drawn
    things: list[Thing] = []
    for _ in range(n_things):
        kind = THINGS[_choice(rng, [3, 2, 1.5, 1.5, 2, 1.5, 2, 1, 1, 0.7, 1, 1, 0.8])]
        s = die_size * float(np.exp(rng.uniform(-0.9, 0.5)))
        if kind == "speck":
            s = min(s, die_size * 0.4)
        c = (float(rng.uniform(s, w - s)), float(rng.uniform(s, h - s)))
        things.append(Thing(kind, c, s, float(rng.uniform(0, 360)), int(rng.integers(1 << 30))))
        placed.append((c[0], c[1], s * 0.6))
    for t in things:
        draw_thing(scene, t, shadow)
    dice: list[WideDie] = []
    if n_dice and rng.random() < BLOCKS:  # a block of touching dice in rows, as pushed together on a tray
        cols, rows = int(rng.integers(2, 4)), int(rng.integers(1, 4))
        gap = float(rng.uniform(1.0, 1.08)) * die_size
        turn = float(rng.uniform(0, 360))
        ca, sa = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        reach = gap * max(cols, rows)
        if w > 2 * reach and h > 2 * reach:
            ox, oy = float(rng.uniform(reach, w - reach)), float(rng.uniform(reach, h - reach))
            for i in range(cols):
                for j in range(rows):
                    u, v = (i - (cols - 1) / 2) * gap, (j - (rows - 1) / 2) * gap
                    c = (ox + u * ca - v * sa, oy + u * sa + v * ca)
                    die = random_die(rng, c, die_size * float(rng.uniform(0.97, 1.03)))
                    dice.append(replace(die, angle=turn + float(rng.uniform(-4, 4))))
    for _ in range(max(0, n_dice - len(dice))):
        s = die_size * float(rng.uniform(0.85, 1.15))
        mode = rng.random()
        for _ in range(60):
            if dice and mode < 0.3:  # touching a die already there
                other = dice[int(rng.integers(len(dice)))]
                a = rng.uniform(0, 2 * np.pi)
                dist = (other.size + s) / 2 * rng.uniform(1.0, 1.25)
                c = (other.centre[0] + dist * math.cos(a), other.centre[1] + dist * math.sin(a))
            elif dice and mode < 0.38:  # overlapping (one fallen on another)
                other = dice[int(rng.integers(len(dice)))]
                a = rng.uniform(0, 2 * np.pi)
                dist = (other.size + s) / 2 * rng.uniform(0.55, 0.9)
                c = (other.centre[0] + dist * math.cos(a), other.centre[1] + dist * math.sin(a))
            else:
                c = (float(rng.uniform(s * 0.7, w - s * 0.7)), float(rng.uniform(s * 0.7, h - s * 0.7)))
            if not (s * 0.5 <= c[0] <= w - s * 0.5 and s * 0.5 <= c[1] <= h - s * 0.5):
                continue
            near_die = [math.dist(c, d.centre) for d in dice]
            if mode >= 0.38 and any(dd < (s + d.size) * 0.72 for dd, d in zip(near_die, dice, strict=True)):
                continue
            if mode < 0.38 and near_die and min(near_die) < s * 0.5:
                continue
            if all(math.dist(c, (p[0], p[1])) > p[2] + s * 0.6 for p in placed[: len(things)]):
                break
        else:
            continue
        dice.append(random_die(rng, c, s))
    corners = [draw_die(scene, d, shadow) for d in dice]
    boxes = [_box_of(cn, w, h) for cn in corners]
    # a die is hidden when a later die covers much of its face
    hidden = []
    for i, d in enumerate(dice):
        cover = 0.0
        for e in dice[i + 1 :]:
            dist = math.dist(d.centre, e.centre)
            cover = max(cover, float(np.clip(1.0 - dist / ((d.size + e.size) / 2 * 0.95), 0, 1)))
        hidden.append(cover > 0.3)
    scene = light_and_camera(scene, rng, (w, h))
    return WideScene(
        image=scene,
        boxes=np.array(boxes, np.float32).reshape(-1, 4),
        values=np.array([d.value for d in dice], np.int64),
        hidden=np.array(hidden, bool),
        things=np.array(
            [
                [t.centre[0] - t.size / 2, t.centre[1] - t.size / 2, t.centre[0] + t.size / 2, t.centre[1] + t.size / 2]
                for t in things
            ],
            np.float32,
        ).reshape(-1, 4),
        thing_kinds=[t.kind for t in things],
        surface=surface,
    )


def light_and_camera(scene: np.ndarray, rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Light (colour, level, gradient), a round top camera's dark surround sometimes, gamma, shrink to the output
    size, blur or motion, noise, grey sensors, JPEG."""
    w, h = size
    H, W = scene.shape[:2]
    kelvin_gain = np.exp(rng.normal(0, 0.12, 3)).astype(np.float32)
    level = float(np.exp(rng.uniform(np.log(0.9), np.log(2.6))))
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    a = rng.uniform(0, 2 * np.pi)
    ramp = 1 + rng.uniform(0, 0.5) * ((xx / W - 0.5) * math.cos(a) + (yy / H - 0.5) * math.sin(a))
    lit = scene * kelvin_gain * level * ramp[:, :, None]
    if rng.random() < 0.08:  # a round top camera's view: a bright disc, dark around it
        r = np.hypot(xx - W / 2, yy - H / 2) / (min(W, H) / 2 * rng.uniform(0.85, 1.1))
        lit *= np.clip(1.2 - r**4, 0.05, 1.0)[:, :, None]
    img = np.clip(lit, 0, 1) ** (1 / 2.2)
    img = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
    if rng.random() < 0.3:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.4))
    if rng.random() < 0.08:
        k = int(rng.integers(3, 9)) | 1
        kern = np.zeros((k, k), np.float32)
        kern[k // 2] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), rng.uniform(0, 180), 1.0)
        kern = cv2.warpAffine(kern, rot, (k, k))
        img = cv2.filter2D(img, -1, kern / max(kern.sum(), 1e-6))
    img = img + rng.normal(0, rng.uniform(0.0, 0.03), img.shape).astype(np.float32)
    out = np.clip(img * 255 + 0.5, 0, 255).astype(np.uint8)
    if rng.random() < 0.2:
        out = cv2.cvtColor(cv2.cvtColor(out, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if rng.random() < 0.6:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(40, 95))])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def clutter_photo(img: np.ndarray, dice: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A photo (BGR uint8) with 6-14 things that are not dice (``THINGS``) put on its table away from its dice
    (boxes (N, 4) in pixels), each a third to one and a half times the photo's dice, with a shadow; returns the
    new photo and the things' boxes."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    sides = np.maximum(dice[:, 2] - dice[:, 0], dice[:, 3] - dice[:, 1]) if len(dice) else np.zeros(0)
    die = float(np.median(sides)) if len(sides) else 30.0
    lin = cv2.resize((img.astype(np.float32) / 255.0) ** 2.2, (w * SS, h * SS), interpolation=cv2.INTER_LINEAR)
    shadow = (float(rng.uniform(0.03, 0.15)), float(rng.uniform(0.02, 0.15)), float(rng.uniform(0.3, 0.6)))
    things = []
    for _ in range(int(rng.integers(6, 15))):
        size = min(die * float(np.exp(rng.uniform(np.log(0.35), np.log(1.5)))), min(w, h) / 4)
        for _try in range(30):
            c = (float(rng.uniform(size, w - size)), float(rng.uniform(size, h - size)))
            clear = all(
                abs(c[0] - (b[0] + b[2]) / 2) > (b[2] - b[0]) / 2 + size
                or abs(c[1] - (b[1] + b[3]) / 2) > (b[3] - b[1]) / 2 + size
                for b in dice
            )
            if clear:
                kind = THINGS[int(rng.integers(len(THINGS)))]
                draw_thing(lin, Thing(kind, c, size, float(rng.uniform(0, 360)), int(rng.integers(1 << 30))), shadow)
                things.append([c[0] - size / 2, c[1] - size / 2, c[0] + size / 2, c[1] + size / 2])
                break
    small = cv2.resize(np.clip(lin, 0, 1), (w, h), interpolation=cv2.INTER_AREA)
    out = np.clip(small ** (1 / 2.2) * 255 + 0.5, 0, 255).astype(np.uint8)
    return out, np.array(things, np.float32).reshape(-1, 4)
