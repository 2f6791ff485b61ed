"""The dice of the appearance-wide renderer (``tools/synth/wide.py``): the looks makers sell, a die's top face and
drawing a die (shadow, a side in view, the face) on a scene. Picking a random look is ``wide.random_die``."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tools.synth.dice_render import marble, pip_spots
from tools.synth.wide_draw import SS, _fill, _region, _shadow

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
    disc: tuple[float, float, float] | None = None  # a printed disc under the pips (its colour), see wide.Shares
    disc_radius: float = 0.42  # its radius, share of the side
    veins: float = 0.0  # thin veins in the pips' colour over the face (their width; 0: none), see wide.Shares


LEGIBLE_CONTRAST = 0.10  # least contrast of every pip against the face just around it in the finished photo


def pip_contrast(image: np.ndarray, d: WideDie) -> float:
    """How well the die's value can be read in the finished photo ``image`` (BGR uint8, after light and camera):
    the least, over its pips, of the difference (0-1, the colour channel that differs most) between the median of
    the pip's core and of the ring of face just around it. Low when a pip is lost in a marbled vein or its own body
    colour, covered by another die, washed out by a glare streak, blurred or too small to survive the shrink, or
    the light is too dim; 0 for a pip off the photo."""
    h, w = image.shape[:2]
    radius = d.pip_size * d.size * (d.big_one if d.value == 1 else 1.0)
    reach = math.ceil(radius * 1.9) + 1
    dy, dx = np.mgrid[-reach : reach + 1, -reach : reach + 1].astype(np.float32)
    dist = np.hypot(dx, dy)
    core = dist <= max(0.75, radius * 0.5)
    ring = (dist >= radius * 1.3 + 0.5) & (dist <= radius * 1.8 + 1.0)
    least = 1.0
    spots = _pip_spots(d.value, d.spread, d.middle)
    for x, y in face_points(d, np.array(spots, np.float64).reshape(-1, 2)):
        xi, yi = int(np.rint(x)), int(np.rint(y))
        if not (0 <= xi < w and 0 <= yi < h):
            return 0.0
        x0, y0 = max(0, xi - reach), max(0, yi - reach)  # the window, cut by the photo's edge
        part = image[y0 : yi + reach + 1, x0 : xi + reach + 1].astype(np.float32) / 255.0
        keep = (slice(y0 - (yi - reach), y0 - (yi - reach) + part.shape[0]),)
        keep += (slice(x0 - (xi - reach), x0 - (xi - reach) + part.shape[1]),)
        inner, around = core[keep], ring[keep]
        if not inner.any() or not around.any():
            return 0.0
        diff = np.abs(np.median(part[inner], axis=0) - np.median(part[around], axis=0))
        least = min(least, float(diff.max()))
    return least


def face_points(d: WideDie, uv: np.ndarray) -> np.ndarray:
    """Points of the die's top face, (N, 2) in face units (0-1 across and down, as its pips are placed), in output
    px: turned with the die about its centre."""
    ang = math.radians(d.angle)
    rot = np.array([[math.cos(ang), -math.sin(ang)], [math.sin(ang), math.cos(ang)]])
    return np.asarray((uv - 0.5) * d.size @ rot.T + np.array(d.centre))


def _pip_spots(value: int, spread: float, middle: bool) -> list[tuple[float, float]]:
    lo, hi = 0.5 - spread, 0.5 + spread
    if value == 0:
        return []
    if value == 2 and middle:
        return [(lo, 0.5), (hi, 0.5)]
    if value == 3 and middle:
        return [(lo, 0.5), (0.5, 0.5), (hi, 0.5)]
    return pip_spots(value, spread)


def _rounded_square(n: int, corner: float) -> np.ndarray:
    a = np.zeros((n, n), np.float32)
    r = max(1, int(n * corner))
    cv2.rectangle(a, (r, 0), (n - 1 - r, n - 1), 1.0, -1)
    cv2.rectangle(a, (0, r), (n - 1, n - 1 - r), 1.0, -1)
    for x, y in ((r, r), (n - 1 - r, r), (r, n - 1 - r), (n - 1 - r, n - 1 - r)):
        cv2.circle(a, (x, y), r, 1.0, -1, cv2.LINE_AA)
    return a


def _marble_share(n: int, seed: int) -> np.ndarray:
    return np.asarray(marble(n, seed, stripes=(4, 12), sharpness=(0.5, 2.0)), np.float32)


def die_face(d: WideDie, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The die's top face drawn upright on an n x n canvas: (colour BGR, alpha)."""
    body = np.array(d.body[::-1], np.float32)
    canvas = _fill((n, n), body)
    if d.marble is not None:
        share = _marble_share(n, d.look_seed)[:, :, None]
        canvas = canvas * (1 - share) + np.array(d.marble[::-1], np.float32) * share
    if d.veins > 0:  # thin lines of the pips' colour, as a marbled die whose veins are as dark as its pips
        share = _marble_share(n, d.look_seed + 29)
        line = np.exp(-(((share - 0.5) / d.veins) ** 2))[:, :, None]
        canvas = canvas * (1 - line) + np.array(d.ink[::-1], np.float32) * line
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


def draw_die(scene: np.ndarray, d: WideDie, shadow: tuple[float, float, float]) -> np.ndarray:
    """Draw a die (shadow, sides, top face) on the part of the scene it can reach; returns the top face's corners
    in output px."""
    reach = d.size * (1.3 + 2.0 * shadow[0] + 3.0 * shadow[1] + (d.side[1] if d.side else 0.0)) + 4
    part, ox, oy = _region(scene, d.centre, reach)
    if part.size == 0:
        return _draw_die(scene, d, shadow)
    local = replace(d, centre=(d.centre[0] - ox, d.centre[1] - oy))
    return _draw_die(part, local, shadow) + np.array([ox, oy])


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
    _shadow(scene, body_a, (off * d.size * SS, off * d.size * SS * 1.2), soft * d.size * SS, depth)
    body_colour = np.array(d.body[::-1], np.float32) * 0.5
    cover = body_a[:, :, None] * d.opacity
    scene *= 1 - cover
    scene += cover * body_colour
    if d.side is not None:  # a side face in view below the top face (before the turn)
        value, dep, shade = d.side
        k = max(2, round(n * dep))
        flat_face, flat_alpha = die_face(
            replace(d, angle=0, value=value, opacity=1.0, glare=0.0, engraved=False, side=None),
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
    return face_points(d, np.array([[0.0, 0.0], [1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]))
