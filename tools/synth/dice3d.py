"""Dice drawn in three dimensions (issue #20): rounded cubes with sunk pips, lit and seen from a tilted camera.

``wide.py`` draws a die as a flat top face with a band for a side in view. Real dice are small rounded cubes: their
edges catch the light, their sides show at any tilt of the camera, sunk pips have a lit and a shaded rim, glossy
bodies carry a highlight where the light is reflected, translucent bodies let the table through. Here each die is
ray-marched as a signed distance field (a rounded box, minus a sphere for each sunk pip) from any view within a
tilt of the vertical (``wide.Shares.tilt``, 28 degrees unless asked), shaded with a key light, sky light and a
specular highlight, and put on ``wide.py``'s tables among its things that are not dice, under its light and camera.
The dice's looks are ``wide.random_die``'s (body and pip colours, marbling, translucency, pip sizes and layouts,
corner radius, gloss, sunk or flat pips).

A scene is a ``wide.WideScene`` whose boxes are the dice's top faces as seen (the corners of the face, projected).
Only numpy and OpenCV; deterministic for a seed. Used by ``tools/dicetrain`` only (not installed with the app).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tools.synth.wide import (
    LEGIBLE_CONTRAST,
    PLAIN,
    Shares,
    WideDie,
    WideScene,
    draw_thing,
    frame_and_table,
    light_and_camera,
    pip_contrast,
    random_die,
    random_things,
    thing_boxes,
)
from tools.synth.wide_dice import _pip_spots
from tools.synth.wide_draw import SS, _shadow

REACH = 1.9  # a sprite covers +-REACH half-sides around the die's centre (the cube's corners at any view)
STEPS = 40  # ray-marching steps
# the faces of the cube in its own frame: outward normal, the axes a face's (u, v) run along
FACES = (
    ((0, 0, 1), (1, 0, 0), (0, -1, 0)),
    ((0, 0, -1), (1, 0, 0), (0, 1, 0)),
    ((1, 0, 0), (0, 1, 0), (0, 0, -1)),
    ((-1, 0, 0), (0, -1, 0), (0, 0, -1)),
    ((0, 1, 0), (-1, 0, 0), (0, 0, -1)),
    ((0, -1, 0), (1, 0, 0), (0, 0, -1)),
)


def rotation(axis: tuple[float, float, float], degrees: float) -> np.ndarray:
    """The 3x3 rotation by ``degrees`` about ``axis`` (Rodrigues)."""
    a = np.asarray(axis, np.float64)
    a = a / np.linalg.norm(a)
    t = math.radians(degrees)
    k = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(t) * k + (1 - math.cos(t)) * (k @ k)


def face_values(top: int, rng: np.random.Generator) -> tuple[int, ...]:
    """The values of ``FACES`` for a die showing ``top``: opposite faces sum to 7, the sides any valid order."""
    pairs = [p for p in ((1, 6), (2, 5), (3, 4)) if top not in p]
    a, b = (p if rng.random() < 0.5 else p[::-1] for p in pairs)
    if rng.random() < 0.5:
        a, b = b, a
    return (top, 7 - top, a[0], a[1], b[0], b[1])


def _pips(d: WideDie, values: tuple[int, ...], visible: np.ndarray) -> list[tuple[int, np.ndarray, float]]:
    """Every pip of the faces in view: (face index, centre on the face in the cube's frame, radius in half-sides)."""
    out = []
    for f, (n, u, v) in enumerate(FACES):
        if not visible[f]:
            continue
        value = values[f]
        r = 2 * d.pip_size * (d.big_one if value == 1 else 1.0)
        for pu, pv in _pip_spots(value, d.spread, d.middle):
            c = np.asarray(n, np.float64) + (2 * pu - 1) * np.asarray(u, np.float64) + (2 * pv - 1) * np.asarray(v)
            out.append((f, c, r))
    return out


def _box_sdf(p: np.ndarray, r: float) -> np.ndarray:
    q = np.abs(p) - (1.0 - r)
    outside = np.linalg.norm(np.maximum(q, 0.0), axis=1)
    return np.asarray(outside + np.minimum(q.max(axis=1), 0.0) - r)


def _sdf(p: np.ndarray, r: float, dimples: list[tuple[np.ndarray, float]]) -> tuple[np.ndarray, np.ndarray]:
    """The distance to the die (a rounded box minus the dimples' spheres) and whether a dimple is what is nearest."""
    d = _box_sdf(p, r)
    in_dimple = np.zeros(len(p), bool)
    for c, radius in dimples:
        cut = radius - np.linalg.norm(p - c, axis=1)
        deeper = cut > d
        in_dimple |= deeper
        d = np.where(deeper, cut, d)
    return d, in_dimple


def render_die(
    d: WideDie,
    turn: np.ndarray,
    light: np.ndarray,
    n: int,
    rng: np.random.Generator,
    depth: float = 0.0,
    sky: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The die ``d`` (its looks; its value on the face ``turn`` brings towards the camera) on an n x n sprite that
    covers +-``REACH`` half-sides: (colour BGR float32, alpha float32, the top face's corners in sprite px).
    ``turn``: the cube's frame to the camera's (x right, y up, z to the camera); ``light``: the key light's
    direction in the camera's frame, ``sky`` the table's normal there (the camera's axis when not given);
    ``depth``: how deep sunk pips are (half-sides; 0 for flat ones)."""
    values = face_values(d.value, rng)
    corner = float(np.clip(2 * d.corner, 0.06, 0.55))
    view = turn.T @ np.array([0.0, 0.0, 1.0])  # towards the camera, in the cube's frame
    normals = np.array([f[0] for f in FACES], np.float64)
    visible = normals @ view > -0.05
    pips = _pips(d, values, visible)
    dimples = []
    if depth > 0:
        for f, c, radius in pips:
            big = (radius * radius + depth * depth) / (2 * depth)
            dimples.append((c + normals[f] * (big - depth), big))
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float64)
    x = (xs + 0.5) / n * 2 * REACH - REACH
    y = REACH - (ys + 0.5) / n * 2 * REACH
    inside = x * x + y * y < 3.0 + 1e-6
    px, py = x[inside], y[inside]
    origin = np.stack([px, py, np.full_like(px, 4.0)], axis=1) @ turn  # rows: camera -> cube frame (turn.T @ v)
    direction = turn.T @ np.array([0.0, 0.0, -1.0])
    t = np.full(len(px), 4.0 - math.sqrt(3.0) - 0.05)
    dist = np.ones(len(px))
    for _ in range(STEPS):
        live = (dist > 1e-3) & (t < 4.0 + math.sqrt(3.0))
        if not live.any():
            break
        dd, _ = _sdf(origin[live] + t[live, None] * direction, corner, dimples)
        dist[live] = dd
        t[live] += dd
    hit = dist < 5e-3
    colour = np.zeros((n, n, 3), np.float32)
    alpha = np.zeros((n, n), np.float32)
    if hit.any():
        p = origin[hit] + t[hit, None] * direction
        e = 1e-3
        grad = np.stack(
            [_sdf(p + e * ax, corner, dimples)[0] - _sdf(p - e * ax, corner, dimples)[0] for ax in np.eye(3)],
            axis=1,
        )
        normal = grad / np.maximum(np.linalg.norm(grad, axis=1, keepdims=True), 1e-9)
        _, sunk = _sdf(p, corner, dimples)
        albedo, ink = _albedo(d, p, pips, normals, values)
        key = turn.T @ light
        up = turn.T @ (np.array([0.0, 0.0, 1.0]) if sky is None else sky)
        lambert = np.clip(normal @ key, 0.0, None)
        ambient = 0.3 + 0.2 * np.clip(normal @ up, -1.0, 1.0)
        occluded = np.where(sunk, 0.7, 1.0)
        shade = (ambient + 0.7 * lambert) * occluded
        half = key + view
        half = half / np.linalg.norm(half)
        gloss = 0.08 + 0.6 * d.glare
        shine = float(40 + 160 * d.glare)
        spec = gloss * np.clip(normal @ half, 0.0, None) ** shine
        rgb = albedo * shade[:, None] + spec[:, None] * 0.9
        a = np.where(ink, 1.0, d.opacity)
        full_colour = np.zeros((len(px), 3), np.float32)
        full_alpha = np.zeros(len(px), np.float32)
        full_colour[hit] = rgb
        full_alpha[hit] = a
        colour[inside] = full_colour
        alpha[inside] = full_alpha
    cube_corners = np.array([[-1, 1, 1], [1, 1, 1], [1, -1, 1], [-1, -1, 1]], np.float64)
    seen = cube_corners @ turn.T
    corners = np.stack([(seen[:, 0] + REACH) / (2 * REACH) * n, (REACH - seen[:, 1]) / (2 * REACH) * n], axis=1)
    return colour, alpha, corners


def _albedo(
    d: WideDie,
    p: np.ndarray,
    pips: list[tuple[int, np.ndarray, float]],
    normals: np.ndarray,
    values: tuple[int, ...],
) -> tuple[np.ndarray, np.ndarray]:
    """Each surface point's colour before light (BGR) and whether it is a pip's ink."""
    body = np.array(d.body[::-1], np.float64)
    albedo = np.tile(body, (len(p), 1))
    if d.marble is not None:  # swirls through the body, the same on every face
        k = np.random.default_rng(d.look_seed).uniform(1.5, 4.0, 3)
        phase = np.random.default_rng(d.look_seed + 1).uniform(0, 2 * np.pi, 3)
        warp = p[:, 0] * k[0] + 1.3 * np.sin(k[1] * p[:, 1] + phase[0]) + 0.8 * np.sin(k[2] * p[:, 2] + phase[1])
        share = (0.5 + 0.5 * np.sin(3.0 * warp + phase[2])) ** 2
        albedo = albedo * (1 - share[:, None]) + np.array(d.marble[::-1], np.float64) * share[:, None]
    ink = np.zeros(len(p), bool)
    face = np.argmax(p @ normals.T, axis=1)
    colour = np.array(d.ink[::-1], np.float64)
    accent = np.array(d.accent[::-1], np.float64) if d.accent is not None else colour
    for f, c, radius in pips:
        on = (face == f) & (np.linalg.norm((p - c) - np.outer((p - c) @ normals[f], normals[f]), axis=1) < radius)
        albedo[on] = accent if values[f] in (1, 4) else colour
        ink |= on
    return albedo, ink


def random_view(rng: np.random.Generator, camera: np.ndarray, die: WideDie) -> np.ndarray:
    """The cube's frame to the camera's: turned about the table's normal by the die's angle, leaning a little
    sometimes (a die against another or on the tray's edge), then ``camera`` (the table's frame to the camera's)."""
    yaw = rotation((0, 0, 1), -die.angle)
    lean = np.eye(3)
    if rng.random() < 0.2:
        way = rng.uniform(0, 2 * np.pi)
        lean = rotation((math.cos(way), math.sin(way), 0), rng.uniform(3, 20))
    return np.asarray(camera @ lean @ yaw)


def render_scene3d(
    seed: int,
    backgrounds: object | None = None,
    size: tuple[int, int] | None = None,
    shares: Shares = PLAIN,
) -> WideScene:
    """One scene of dice drawn in three dimensions on ``wide.py``'s tables with its things (see the module
    docstring)."""
    rng = np.random.default_rng(seed)
    w, h, surface, scene = frame_and_table(rng, backgrounds, size)  # type: ignore[arg-type]
    elevation = math.radians(rng.uniform(35, 85))
    azimuth = rng.uniform(0, 2 * np.pi)
    flat = math.cos(elevation)
    light = np.array([math.cos(azimuth) * flat, math.sin(azimuth) * flat, math.sin(elevation)])
    hard = rng.random() < 0.35
    soft = float(rng.uniform(0.0, 0.05) if hard else rng.uniform(0.05, 0.2))
    darkness = float(rng.uniform(0.3, 0.75))
    reach = 1.0 / math.tan(elevation)  # the shadow's length per unit of height
    tilt = float(rng.uniform(0, shares.tilt)) if rng.random() < 0.85 else 0.0
    tilt_dir = float(rng.uniform(0, 2 * np.pi))
    camera = rotation((math.cos(tilt_dir), math.sin(tilt_dir), 0.0), tilt)
    die_size = float(np.exp(rng.uniform(np.log(14), np.log(90))))
    n_dice = 0 if rng.random() < 0.1 else int(rng.integers(1, 13))
    n_things = int(rng.integers(0, 4)) if rng.random() < 0.5 else int(rng.integers(3, 15))
    things = random_things(rng, n_things, die_size, w, h)
    placed = [(t.centre[0], t.centre[1], t.size * 0.6) for t in things]
    flat_shadow = (0.1, soft, darkness)
    for t in things:
        draw_thing(scene, t, flat_shadow)
    dice: list[WideDie] = []
    for _ in range(n_dice):
        s = die_size * float(rng.uniform(0.85, 1.15))
        for _ in range(60):
            if dice and rng.random() < 0.3:  # touching a die already there
                other = dice[int(rng.integers(len(dice)))]
                a = rng.uniform(0, 2 * np.pi)
                dist = (other.size + s) / 2 * rng.uniform(1.05, 1.3)
                c = (other.centre[0] + dist * math.cos(a), other.centre[1] + dist * math.sin(a))
            else:
                c = (float(rng.uniform(s * 0.8, w - s * 0.8)), float(rng.uniform(s * 0.8, h - s * 0.8)))
            if not (s * 0.6 <= c[0] <= w - s * 0.6 and s * 0.6 <= c[1] <= h - s * 0.6):
                continue
            if any(math.dist(c, e.centre) < (s + e.size) * 0.72 for e in dice):
                continue
            if all(math.dist(c, (p[0], p[1])) > p[2] + s * 0.6 for p in placed):
                break
        else:
            continue
        dice.append(replace(random_die(rng, c, s, shares=shares), side=None))
    boxes: list[tuple[float, float, float, float]] = []
    drawn: list[WideDie] = []
    H, W = scene.shape[:2]
    for d in dice:
        turn = random_view(rng, camera, d)
        n = max(8, math.ceil(d.size * REACH * SS))
        depth = float(rng.uniform(0.03, 0.12)) if d.engraved else 0.0
        colour, alpha, corners = render_die(d, turn, camera @ light, n, rng, depth, camera[:, 2])
        x0 = round(d.centre[0] * SS - n / 2)
        y0 = round(d.centre[1] * SS - n / 2)
        mask = np.zeros((H, W), np.float32)
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x0 + n), min(H, y0 + n)
        if cx1 <= cx0 or cy1 <= cy0:
            continue
        part = (slice(cy0 - y0, cy1 - y0), slice(cx0 - x0, cx1 - x0))
        mask[cy0:cy1, cx0:cx1] = alpha[part] > 0
        offset = (-light[0] * reach * d.size * SS * 0.6, light[1] * reach * d.size * SS * 0.6)  # image y is down
        _shadow(scene, mask, offset, soft * d.size * SS + 0.6, darkness)
        a = alpha[part][:, :, None]
        region = scene[cy0:cy1, cx0:cx1]
        region *= 1 - a
        region += colour[part] * a
        pts = (corners + np.array([x0, y0])) / SS
        box = (
            float(np.clip(pts[:, 0].min(), 0, w)),
            float(np.clip(pts[:, 1].min(), 0, h)),
            float(np.clip(pts[:, 0].max(), 0, w)),
            float(np.clip(pts[:, 1].max(), 0, h)),
        )
        boxes.append(box)
        drawn.append(replace(d, centre=(float(pts[:, 0].mean()), float(pts[:, 1].mean()))))
    image = light_and_camera(scene, rng, (w, h))
    legible = [pip_contrast(image, d) >= LEGIBLE_CONTRAST for d in drawn]
    return WideScene(
        image=image,
        boxes=np.array(boxes, np.float32).reshape(-1, 4),
        values=np.array([d.value for d in drawn], np.int64),
        hidden=np.zeros(len(boxes), bool),
        things=thing_boxes(things),
        thing_kinds=[t.kind for t in things],
        surface=surface,
        legible=np.array(legible, bool),
        dice=drawn,
    )
