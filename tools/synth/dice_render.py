"""Synthetic top-down photos of a dice tray with colour dice, picture dice (cat / rat / swap icons) and pip dice.

Used to prove calibration and the colour / picture classifiers: every render comes with the truth (kind, face, box).
A *table* (:class:`Table`) fixes what does not change during an evening: the tray's felt texture, the four ArUco
markers at its corners and the camera's view (a perspective warp). A *light* (:class:`Light`) is what drifts: colour
temperature (per-channel gains, i.e. white balance), a green/magenta tint, brightness and an uneven gradient.
Dice are drawn at twice the output size and scaled down, then blur, noise and 8-bit quantisation are applied.

Everything is deterministic for a given seed. Only numpy and OpenCV are used.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

SS = 2  # supersampling factor

# Linear-light reflectances (R, G, B) of plain colour-die faces; real dice differ, so renders jitter them.
COLOUR_REFLECTANCE: dict[str, tuple[float, float, float]] = {
    "red": (0.62, 0.05, 0.05),
    "orange": (0.80, 0.25, 0.03),
    "yellow": (0.78, 0.66, 0.04),
    "green": (0.05, 0.36, 0.09),
    "blue": (0.03, 0.13, 0.58),
    "purple": (0.26, 0.05, 0.42),
}
PICTURE_FACES = ("cat", "rat", "swap")

# Tray felt reflectances (R, G, B).
TRAY_COLOURS: dict[str, tuple[float, float, float]] = {
    "green felt": (0.06, 0.22, 0.10),
    "black felt": (0.035, 0.035, 0.04),
    "brown wood": (0.30, 0.16, 0.07),
    "grey board": (0.28, 0.28, 0.28),
    "purple felt": (0.16, 0.06, 0.22),
}
# Light tables, by name only (random trays come from TRAY_COLOURS, so seeded scenes stay as they were): white dice
# on them show hardly any edge, only their pips.
LIGHT_TABLES: dict[str, tuple[float, float, float]] = {
    "white paper": (0.75, 0.75, 0.72),
    "light wood": (0.62, 0.45, 0.28),
    "light grey": (0.5, 0.5, 0.5),
}

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_IDS = (0, 1, 2, 3)  # top-left, top-right, bottom-right, bottom-left


@dataclass(frozen=True)
class Light:
    """The light on the table as the camera sees it: colour temperature in kelvin, tint (+ green, - magenta),
    overall brightness multiplier and how strongly it falls off from one side (0 = even)."""

    kelvin: float = 5000.0
    tint: float = 0.0
    brightness: float = 1.0
    gradient: float = 0.0
    gradient_angle: float = 0.0

    def gains(self) -> np.ndarray:
        """Per-channel gains (B, G, R) of this light relative to a neutral one."""
        r, g, b = _kelvin_rgb(self.kelvin)
        g *= 1.0 + self.tint
        scale = self.brightness / g
        return np.array([b * scale, g * scale, r * scale], dtype=np.float32)


@dataclass(frozen=True)
class DieSpec:
    """One die to draw: its kind ("colour", "picture", "pips"), face (name or 1-6), centre (output px), side length
    (output px), rotation (degrees), and body colour for pip dice (RGB reflectance)."""

    kind: str
    face: str | int
    centre: tuple[float, float]
    size: float = 40.0
    angle: float = 0.0
    body: tuple[float, float, float] = (0.85, 0.85, 0.82)
    colour_jitter: tuple[float, float, float] = (1.0, 1.0, 1.0)
    mark: bool = False  # colour dice only: a white face with a coloured disc instead of a plain coloured face
    marble: tuple[float, float, float] | None = None  # pip dice: a second body colour swirled through the first
    ink: tuple[float, float, float] | None = None  # pip dice: the pips' colour (RGB); None = black or white
    opacity: float = 1.0  # pip dice: below 1 the tray shows through the body (translucent plastic)
    look_seed: int = 0  # where the marble's swirls lie
    # pip dice: how the pips are laid out, as dice makers differ (defaults: the layout every render used so far)
    pip_size: float = 0.09  # pip radius, a share of the face's side
    pip_spread: float = 0.23  # from the face's centre to the outer pips' centres, a share of the side
    big_one: float = 1.0  # the 1's pip radius x this (many dice have a big 1)
    accent: tuple[float, float, float] | None = None  # the 1's and the 4's pips in this colour (Chinese dice: red)
    # pip dice: a side face in view, as from a camera at an angle: (its value, its depth as a share of the side,
    # its shade); drawn beside the top face's lower edge (before the die's rotation), its pips squashed
    side: tuple[int, float, float] | None = None


@dataclass(frozen=True)
class TruthDie:
    """What a render contains: kind, face and the axis-aligned box of the die's top face in output pixels."""

    kind: str
    face: str | int
    box: tuple[int, int, int, int]


@dataclass
class Rendered:
    """One synthetic photo (BGR uint8) and its truth."""

    image: np.ndarray
    dice: list[TruthDie]
    tray_corners: list[tuple[float, float]]


@dataclass
class Table:
    """What stays fixed over an evening: output size, tray texture (linear reflectance, supersampled), markers and
    camera view (a homography from the flat layout to the output image)."""

    size: tuple[int, int]
    texture: np.ndarray
    view: np.ndarray
    tray_corners_flat: list[tuple[float, float]] = field(default_factory=list)

    @property
    def tray_corners(self) -> list[tuple[float, float]]:
        """The tray area (marker centres) in output pixels, clockwise from top-left."""
        pts = np.array(self.tray_corners_flat, dtype=np.float64).reshape(-1, 1, 2)
        out = cv2.perspectiveTransform(pts, self.view).reshape(-1, 2)
        return [(float(x), float(y)) for x, y in out]


def make_table(
    seed: int,
    size: tuple[int, int] = (640, 480),
    tray: str | None = None,
    perspective: float = 0.0,
    markers: bool = True,
) -> Table:
    """A table: felt/wood texture of the given (or a random) tray colour, ArUco markers at the corners, and a
    camera view tilted by up to ``perspective`` × image size at each corner."""
    rng = np.random.default_rng(seed)
    w, h = size
    name = tray or list(TRAY_COLOURS)[int(rng.integers(len(TRAY_COLOURS)))]
    base = np.array({**TRAY_COLOURS, **LIGHT_TABLES}[name][::-1], dtype=np.float32)  # BGR
    big = (h * SS, w * SS)
    fine = rng.normal(0.0, 1.0, big).astype(np.float32)
    coarse = cv2.resize(rng.normal(0.0, 1.0, (h // 16 + 1, w // 16 + 1)).astype(np.float32), (w * SS, h * SS))
    variation = 1.0 + 0.06 * fine + 0.08 * coarse
    texture = base[None, None, :] * variation[:, :, None]
    corners: list[tuple[float, float]] = []
    if markers:
        m = int(min(w, h) * 0.09)
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
        pad = int(m * 0.35)
        spots = [(pad, pad), (w - pad - m, pad), (w - pad - m, h - pad - m), (pad, h - pad - m)]
        for marker_id, (x, y) in zip(MARKER_IDS, spots, strict=True):
            img = cv2.aruco.generateImageMarker(dictionary, marker_id, m * SS).astype(np.float32) / 255.0
            quiet = int(m * SS * 0.2)
            x0, y0 = x * SS - quiet, y * SS - quiet
            x1, y1 = (x + m) * SS + quiet, (y + m) * SS + quiet
            texture[max(0, y0) : y1, max(0, x0) : x1] = 0.85
            texture[y * SS : (y + m) * SS, x * SS : (x + m) * SS] = 0.02 + 0.83 * img[:, :, None]
            corners.append((x + m / 2, y + m / 2))
    else:  # no markers: the tray is the frame less a margin
        mx, my = w * 0.08, h * 0.08
        corners = [(mx, my), (w - mx, my), (w - mx, h - my), (mx, h - my)]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    jitter = rng.uniform(-perspective, perspective, (4, 2)) * np.array([w, h])
    # keep the whole tray in view: pull corners inwards only
    inward = np.array([[1, 1], [-1, 1], [-1, -1], [1, -1]], dtype=np.float64)
    dst = src + np.abs(jitter) * inward
    view = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    return Table((w, h), texture.astype(np.float32), view, corners)


def random_light(rng: np.random.Generator, drift: float = 1.0) -> Light:
    """A light drawn from an evening's range: 2700-6500 K, tint, brightness 0.6-1.4, some unevenness.
    ``drift`` scales how far from a neutral 5000 K lamp it may wander (0 = always neutral)."""
    kelvin = 5000.0 + drift * float(rng.uniform(-2300.0, 1500.0))
    return Light(
        kelvin=kelvin,
        tint=drift * float(rng.uniform(-0.08, 0.08)),
        brightness=1.0 + drift * float(rng.uniform(-0.4, 0.4)),
        gradient=drift * float(rng.uniform(0.0, 0.35)),
        gradient_angle=float(rng.uniform(0.0, 360.0)),
    )


def place_dice(
    rng: np.random.Generator,
    table: Table,
    faces: Sequence[tuple[str, str | int]],
    size: float = 40.0,
    size_jitter: float = 0.1,
    mark: bool = False,
) -> list[DieSpec]:
    """Scatter the given (kind, face) dice inside the tray without overlap, random rotations, slightly uneven
    colours (a real die's plastic is not a perfect reference)."""
    w, h = table.size
    xs = [c[0] for c in table.tray_corners_flat] or [0.0, float(w)]
    ys = [c[1] for c in table.tray_corners_flat] or [0.0, float(h)]
    margin = size * 1.2
    x_lo, x_hi = min(xs) + margin, max(xs) - margin
    y_lo, y_hi = min(ys) + margin, max(ys) - margin
    placed: list[DieSpec] = []
    for kind, face in faces:
        s = size * float(rng.uniform(1 - size_jitter, 1 + size_jitter))
        for _ in range(200):
            c = (float(rng.uniform(x_lo, x_hi)), float(rng.uniform(y_lo, y_hi)))
            if all(math.dist(c, d.centre) > (s + d.size) * 0.85 for d in placed):
                break
        jitter = tuple(float(v) for v in rng.uniform(0.9, 1.1, 3))
        angle = float(rng.uniform(0, 360))
        placed.append(DieSpec(kind, face, c, s, angle, colour_jitter=jitter, mark=mark))  # type: ignore[arg-type]
    return placed


def render(
    table: Table,
    dice: Sequence[DieSpec],
    light: Light,
    *,
    blur: float = 0.0,
    noise: float = 0.0,
    seed: int = 0,
    jpeg: int | None = None,
) -> Rendered:
    """Photograph the table with the dice under a light: returns the BGR image and each die's true face and box."""
    rng = np.random.default_rng(seed)
    w, h = table.size
    scene = table.texture.copy()
    truth: list[TruthDie] = []
    for die in dice:
        _draw_shadow(scene, die)
    for die in dice:
        corners = _draw_die(scene, die)
        truth.append(TruthDie(die.kind, die.face, _box(corners, table.view, w, h)))
        if die.side is not None:  # what a reader must not take for a die
            truth.append(TruthDie("side", die.side[0], _box(_side_corners(die), table.view, w, h)))
    # light: white balance gains, brightness, smooth gradient, then the camera's gamma
    yy, xx = np.mgrid[0 : h * SS, 0 : w * SS].astype(np.float32)
    a = math.radians(light.gradient_angle)
    ramp = ((xx / (w * SS) - 0.5) * math.cos(a) + (yy / (h * SS) - 0.5) * math.sin(a)) * 2.0
    shading = 1.0 + light.gradient * ramp * 0.5
    lit = scene * light.gains()[None, None, :] * shading[:, :, None] * 1.6
    gamma = np.clip(lit, 0.0, 1.0) ** (1 / 2.2)
    big_view = np.diag([SS, SS, 1.0]) @ table.view @ np.diag([1 / SS, 1 / SS, 1.0])
    warped = cv2.warpPerspective(gamma, big_view, (w * SS, h * SS), flags=cv2.INTER_LINEAR, borderValue=(0.1, 0.1, 0.1))
    small = cv2.resize(warped, (w, h), interpolation=cv2.INTER_AREA)
    if blur > 0:
        small = cv2.GaussianBlur(small, (0, 0), blur)
    if noise > 0:
        small = small + rng.normal(0.0, noise / 255.0, small.shape).astype(np.float32)
    image = np.clip(small * 255.0 + 0.5, 0, 255).astype(np.uint8)
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        assert ok
        image = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return Rendered(image, truth, table.tray_corners)


# -- drawing ---------------------------------------------------------------------------------------------------------


def _kelvin_rgb(kelvin: float) -> tuple[float, float, float]:
    """Approximate linear RGB of a black body (Tanner Helland's fit), normalised so 6500 K is about neutral."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * math.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * math.log(t - 10) - 305.0447927307)
    vals = [max(1.0, min(255.0, v)) / 255.0 for v in (r, g, b)]
    lin = [v**2.2 for v in vals]
    return lin[0], lin[1], lin[2]


def _placed(die: DieSpec, pts: np.ndarray) -> np.ndarray:
    """Points given about the die's centre (before its rotation) where they lie: turned and moved (output px)."""
    a = math.radians(die.angle)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return np.asarray(pts @ rot.T + np.array(die.centre), np.float64)


def _square(die: DieSpec, scale: float = 1.0) -> np.ndarray:
    half = die.size * scale / 2
    return _placed(die, np.array([[-half, -half], [half, -half], [half, half], [-half, half]]))


def _box(corners: np.ndarray, view: np.ndarray, w: int, h: int) -> tuple[int, int, int, int]:
    out = cv2.perspectiveTransform(corners.reshape(-1, 1, 2).astype(np.float64), view).reshape(-1, 2)
    x0, y0 = np.floor(out.min(axis=0)).astype(int)
    x1, y1 = np.ceil(out.max(axis=0)).astype(int)
    return (max(0, int(x0)), max(0, int(y0)), min(w, int(x1)), min(h, int(y1)))


def _draw_shadow(scene: np.ndarray, die: DieSpec) -> None:
    pts = (_square(die, 1.1) + np.array([die.size * 0.12, die.size * 0.15])) * SS
    mask = np.zeros(scene.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round(pts).astype(np.int32), 1.0, lineType=cv2.LINE_AA)
    soft = cv2.GaussianBlur(mask, (0, 0), die.size * SS * 0.08)
    scene *= (1.0 - 0.55 * soft)[:, :, None]


def _face_reflectance(die: DieSpec) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """Top-face colour (BGR), an optional ink mask drawer result, and the ink colour (BGR)."""
    if die.kind == "colour":
        rgb = np.array(COLOUR_REFLECTANCE[str(die.face)]) * np.array(die.colour_jitter)
        colour = np.clip(rgb[::-1], 0, 1).astype(np.float32)
        if die.mark:
            return np.array(die.body[::-1], dtype=np.float32), None, colour
        return colour, None, np.zeros(3, np.float32)
    body = np.array(die.body[::-1], dtype=np.float32)
    if die.accent is not None and die.face in (1, 4):
        return body, None, np.array(die.accent[::-1], dtype=np.float32)
    if die.ink is not None:
        return body, None, np.array(die.ink[::-1], dtype=np.float32)
    return body, None, np.array(usual_ink(die.body)[::-1], dtype=np.float32)


def usual_ink(body: tuple[float, ...]) -> tuple[float, float, float]:
    """The pips' colour (RGB) of a pip die without its own ``ink``: near black on a light body, near white on a
    dark one."""
    return (0.03, 0.03, 0.03) if float(np.mean(body[:3])) > 0.3 else (0.85, 0.85, 0.85)


def marble(
    n: int, seed: int, stripes: tuple[float, float] = (4, 10), sharpness: tuple[float, float] = (0.5, 1.5)
) -> np.ndarray:
    """An (n, n) share in 0..1 of a marbled die's second colour: smooth noise bent into veins and swirls (veins
    per side and how sharp they are drawn from ``stripes`` and ``sharpness``)."""
    rng = np.random.default_rng(seed)
    field = np.zeros((n, n), np.float32)
    for cells, weight in ((3, 1.0), (6, 0.5), (12, 0.25)):
        field += weight * cv2.resize(
            rng.normal(0, 1, (cells, cells)).astype(np.float32), (n, n), interpolation=cv2.INTER_CUBIC
        )
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    a = float(rng.uniform(0, np.pi))
    veins = np.sin((xx * np.cos(a) + yy * np.sin(a)) * float(rng.uniform(*stripes)) + 3.0 * field)
    share: np.ndarray = np.clip(0.5 + float(rng.uniform(*sharpness)) * veins, 0.0, 1.0)  # soft or sharp veins
    return share


def _draw_die(scene: np.ndarray, die: DieSpec) -> np.ndarray:
    """Draw the die's body and top face; return the top face corners (flat layout, output px)."""
    body_pts = np.round(_square(die, 1.08) * SS).astype(np.int32)
    face, _, ink = _face_reflectance(die)
    body_colour = face * 0.55  # the bevel and sides are in shade
    if die.opacity < 1.0:
        body_mask = np.zeros(scene.shape[:2], np.float32)
        cv2.fillConvexPoly(body_mask, body_pts, 1.0, lineType=cv2.LINE_AA)
        cover = die.opacity * body_mask[:, :, None]
        scene *= 1 - cover
        scene += body_colour[None, None, :] * cover
    else:
        cv2.fillConvexPoly(scene, body_pts, body_colour.tolist(), lineType=cv2.LINE_AA)
    # the top face: rendered upright on its own canvas, then rotated into place
    n = round(die.size * SS)
    canvas = np.zeros((n, n, 3), np.float32)
    canvas[:] = face
    if die.kind == "pips" and die.marble is not None:
        share = marble(n, die.look_seed)[:, :, None]
        canvas[:] = canvas * (1 - share) + np.array(die.marble[::-1], np.float32)[None, None, :] * share
    radius = max(2, n // 9)
    alpha = np.zeros((n, n), np.float32)
    cv2.rectangle(alpha, (radius, 0), (n - 1 - radius, n - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, radius), (n - 1, n - 1 - radius), 1.0, -1)
    for cx, cy in (
        (radius, radius),
        (n - 1 - radius, radius),
        (radius, n - 1 - radius),
        (n - 1 - radius, n - 1 - radius),
    ):
        cv2.circle(alpha, (cx, cy), radius, 1.0, -1, lineType=cv2.LINE_AA)
    ink_mask = np.zeros((n, n), np.float32)
    if die.kind == "picture":
        _draw_icon(ink_mask, str(die.face))
    elif die.kind == "colour" and die.mark:
        cv2.circle(ink_mask, (n // 2, n // 2), int(0.3 * n), 1.0, -1, lineType=cv2.LINE_AA)
    elif die.kind == "pips":
        _draw_pips(ink_mask, int(die.face), die.pip_size, die.pip_spread, die.big_one)
    canvas[:] = canvas * (1 - ink_mask[:, :, None]) + ink[None, None, :] * ink_mask[:, :, None]
    # a soft highlight towards one corner so faces are not perfectly flat
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32) / n
    canvas *= (0.92 + 0.12 * (1 - (xx + yy) / 2))[:, :, None]
    c = (die.centre[0] * SS, die.centre[1] * SS)
    m = cv2.getRotationMatrix2D((n / 2, n / 2), -die.angle, 1.0)
    m[:, 2] += np.array(c) - np.array([n / 2, n / 2])
    hh, ww = scene.shape[:2]
    warped = cv2.warpAffine(canvas, m, (ww, hh), flags=cv2.INTER_LINEAR)
    a = cv2.warpAffine(alpha, m, (ww, hh), flags=cv2.INTER_LINEAR)[:, :, None]
    if die.opacity < 1.0:  # translucent: the body lets some of the tray through; the pips stay solid
        ink_a = cv2.warpAffine(ink_mask, m, (ww, hh), flags=cv2.INTER_LINEAR)[:, :, None]
        a = a * (die.opacity + (1.0 - die.opacity) * ink_a)
    scene *= 1 - a
    scene += warped * a
    if die.kind == "pips" and die.side is not None:
        value, depth, shade = die.side
        k = max(2, round(n * depth))
        flat = np.zeros((n, n), np.float32)
        _draw_pips(flat, value, die.pip_size, die.pip_spread, die.big_one)
        pips = cv2.resize(flat, (n, k), interpolation=cv2.INTER_AREA)
        band = np.zeros((k, n, 3), np.float32)
        band[:] = face * shade
        band[:] = band * (1 - pips[:, :, None]) + ink[None, None, :] * shade * pips[:, :, None]
        below = np.array(m, np.float64)
        below[:, 2] = below[:, 2] + below[:, 1] * n  # the band's (u, v) is the top canvas's (u, v + n)
        band_alpha = cv2.warpAffine(np.ones((k, n), np.float32), below, (ww, hh), flags=cv2.INTER_LINEAR)[:, :, None]
        scene *= 1.0 - band_alpha
        shown = cv2.warpAffine(band, below, (ww, hh), flags=cv2.INTER_LINEAR)
        scene += shown * band_alpha
    return _square(die)


def _side_corners(die: DieSpec) -> np.ndarray:
    """The corners of a die's side face in view (``DieSpec.side``), flat layout, output px."""
    assert die.side is not None
    half, depth = die.size / 2, die.size * die.side[1]
    return _placed(die, np.array([[-half, half], [half, half], [half, half + depth], [-half, half + depth]]))


def pip_spots(value: int, spread: float = 0.23) -> list[tuple[float, float]]:
    """Where the pips of ``value`` (1-6) sit on a face, as shares of its side (x, y): the usual layout, the
    corner pips ``spread`` from the centre."""
    lo, hi = 0.5 - spread, 0.5 + spread
    row = 0.5 - spread * 25 / 23, 0.5 + spread * 25 / 23  # a 6's rows lie a little further out
    return {
        1: [(0.5, 0.5)],
        2: [(lo, lo), (hi, hi)],
        3: [(lo, lo), (0.5, 0.5), (hi, hi)],
        4: [(lo, lo), (hi, lo), (lo, hi), (hi, hi)],
        5: [(lo, lo), (hi, lo), (0.5, 0.5), (lo, hi), (hi, hi)],
        6: [(lo, row[0]), (hi, row[0]), (lo, 0.5), (hi, 0.5), (lo, row[1]), (hi, row[1])],
    }[value]


def _draw_pips(mask: np.ndarray, value: int, size: float = 0.09, spread: float = 0.23, big_one: float = 1.0) -> None:
    n = mask.shape[0]
    spots = pip_spots(value, spread)
    radius = int(n * size * (big_one if value == 1 else 1.0))
    for x, y in spots:
        cv2.circle(mask, (int(x * n), int(y * n)), radius, 1.0, -1, lineType=cv2.LINE_AA)


def _draw_icon(mask: np.ndarray, name: str) -> None:
    """Simple, distinct dark icons: a cat's head, a rat in profile with a long tail, two swap arrows."""
    n = mask.shape[0]

    def p(x: float, y: float) -> tuple[int, int]:
        return (int(x * n), int(y * n))

    aa = cv2.LINE_AA
    if name == "cat":
        cv2.circle(mask, p(0.5, 0.56), int(0.25 * n), 1.0, -1, aa)
        ears = [
            np.array([p(0.27, 0.45), p(0.3, 0.16), p(0.47, 0.34)]),
            np.array([p(0.73, 0.45), p(0.7, 0.16), p(0.53, 0.34)]),
        ]
        cv2.fillPoly(mask, ears, 1.0, aa)
        for ex in (0.41, 0.59):  # eyes cut out of the head
            cv2.ellipse(mask, p(ex, 0.52), (int(0.045 * n), int(0.06 * n)), 0, 0, 360, 0.0, -1, aa)
        cv2.circle(mask, p(0.5, 0.64), int(0.03 * n), 0.0, -1, aa)
        for sy in (0.63, 0.69):  # whiskers
            cv2.line(mask, p(0.1, sy), p(0.3, sy), 1.0, max(1, n // 40), aa)
            cv2.line(mask, p(0.7, sy), p(0.9, sy), 1.0, max(1, n // 40), aa)
    elif name == "rat":
        cv2.ellipse(mask, p(0.45, 0.55), (int(0.25 * n), int(0.15 * n)), -10, 0, 360, 1.0, -1, aa)
        cv2.fillPoly(mask, [np.array([p(0.6, 0.42), p(0.88, 0.5), p(0.62, 0.64)])], 1.0, aa)  # snout
        cv2.circle(mask, p(0.6, 0.38), int(0.07 * n), 1.0, -1, aa)  # ear
        cv2.circle(mask, p(0.72, 0.5), int(0.025 * n), 0.0, -1, aa)  # eye
        pts = np.array([p(0.22, 0.58), p(0.12, 0.7), p(0.18, 0.82), p(0.34, 0.86), p(0.5, 0.84)], np.int32)
        cv2.polylines(mask, [pts], False, 1.0, max(2, n // 25), aa)  # tail
    elif name == "swap":
        thick = max(2, n // 14)
        cv2.arrowedLine(mask, p(0.18, 0.34), p(0.84, 0.34), 1.0, thick, aa, tipLength=0.3)
        cv2.arrowedLine(mask, p(0.82, 0.68), p(0.16, 0.68), 1.0, thick, aa, tipLength=0.3)
    else:
        raise ValueError(f"no icon called {name!r}")
