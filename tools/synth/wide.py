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

The parts are modules of their own: ``wide_surfaces`` (the tables), ``wide_things`` (what is not a die),
``wide_dice`` (faces and drawing a die) and ``wide_draw`` (the helpers they share). This module keeps the scene:
picking each die's look (``random_die``, ``with_a_disc``, ``with_veins``; how often, ``Shares``), ``render_scene``, the
light and camera, ``clutter_photo``; it re-exports every public name of the parts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

# the parts, each public name re-exported: ``from tools.synth.wide import X`` and ``wide.X`` keep working
from tools.synth.wide_dice import BODIES, INKS, LEGIBLE_CONTRAST, WideDie, die_face, draw_die, pip_contrast
from tools.synth.wide_draw import MOTIFS, SS, _choice, _luma, draw_motif
from tools.synth.wide_surfaces import (
    GIMP_PATTERNS,
    SURFACES,
    Backgrounds,
    read_gimp_pattern,
    surface_carpet,
    surface_dots,
    surface_felt,
    surface_lace,
    surface_map,
    surface_paper,
    surface_plaid,
    surface_plain,
    surface_print,
    surface_speckle,
    surface_white_box,
    surface_wood,
)
from tools.synth.wide_things import SNAP, THINGS, Thing, draw_thing

__all__ = [
    "BODIES",
    "GIMP_PATTERNS",
    "INKS",
    "LEGIBLE_CONTRAST",
    "MOTIFS",
    "PLAIN",
    "SNAP",
    "SS",
    "SURFACES",
    "THINGS",
    "Backgrounds",
    "Shares",
    "Thing",
    "WideDie",
    "WideScene",
    "clutter_photo",
    "die_face",
    "draw_die",
    "draw_motif",
    "draw_thing",
    "frame_and_table",
    "light_and_camera",
    "pip_contrast",
    "random_die",
    "random_snaps",
    "random_things",
    "read_gimp_pattern",
    "render_scene",
    "surface_carpet",
    "surface_dots",
    "surface_felt",
    "surface_lace",
    "surface_map",
    "surface_paper",
    "surface_plaid",
    "surface_plain",
    "surface_print",
    "surface_speckle",
    "surface_white_box",
    "surface_wood",
    "thing_boxes",
    "with_a_disc",
    "with_veins",
]


@dataclass
class WideScene:
    """A rendered photo (BGR uint8) with its dice (box x0 y0 x1 y1, value; ``hidden`` when mostly covered by
    another die: neither a die to find nor a negative; ``legible`` when its value can be read in the photo,
    ``wide_dice.pip_contrast``), and the boxes of things that are not dice."""

    image: np.ndarray
    boxes: np.ndarray
    values: np.ndarray
    hidden: np.ndarray
    things: np.ndarray
    thing_kinds: list[str] = field(default_factory=list)
    surface: str = ""
    legible: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    dice: list[WideDie] = field(default_factory=list)  # each box's die as drawn (its look)


DEFAULT_BLOCKS = 0.12


@dataclass(frozen=True)
class Shares:
    """How often a render gets the looks some training runs ask for: ``blocks`` the share of scenes with a block of
    touching dice in rows (``train.py --wide-blocks``), ``discs`` of dice whose pips sit on a printed disc of another
    colour (``train_verifier --discs``), ``veins`` of dice with thin veins in their pips' colour (``train_values
    --veins``). Passed down to every render (forked render workers get it with their work, not from a module
    global). At 0, discs and veins keep the renders of earlier runs as they were: each is drawn from the die's own
    generator, seeded by its look. ``solid`` scenes are ``dice3d.render_scene3d``'s (``train_verifier.scene_sample``
    picks the renderer; ``train_values --solid``, ``train_verifier --solid``)."""

    blocks: float = DEFAULT_BLOCKS
    discs: float = 0.0
    veins: float = 0.0
    solid: bool = False  # every scene's dice drawn in three dimensions (``tools/synth/dice3d.py``), not flat
    tilt: float = 28.0  # with ``solid``: the most a scene's camera leans off the vertical (degrees)
    snaps: float = 0.0  # share of scenes with rows of metal snap studs or rivets (``random_snaps``)
    speckle: float = 0.0  # share of scenes on a speckled carpet (``wide_surfaces.surface_speckle``)


PLAIN = Shares()  # the shares of the renders every run used before the options existed


def with_veins(d: WideDie, share: float) -> WideDie:
    """The die, maybe (``share`` of dice) marbled with thin veins as dark (or light) as its pips, as the felt trays'
    neon dice are: the kind whose veins a classifier counts as pips."""
    rng = np.random.default_rng(d.look_seed + 23)
    if not share or rng.random() >= share:
        return d
    return replace(d, marble=None, veins=float(rng.uniform(0.12, 0.35)))


def with_a_disc(d: WideDie, share: float) -> WideDie:
    """The die, maybe (``share`` of dice) with its pips printed on a big disc: dark with light pips or the other way,
    as on dice whose face carries a coloured circle."""
    rng = np.random.default_rng(d.look_seed + 17)
    if not share or rng.random() >= share:
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


def random_die(
    rng: np.random.Generator,
    centre: tuple[float, float],
    size: float,
    value: int | None = None,
    shares: Shares = PLAIN,
) -> WideDie:
    """A die of any look that makers sell (discs and veins as often as ``shares`` say)."""
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
    return with_veins(
        with_a_disc(
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
            ),
            shares.discs,
        ),
        shares.veins,
    )


def _box_of(corners: np.ndarray, w: int, h: int) -> tuple[float, float, float, float]:
    x0, y0 = corners.min(axis=0)
    x1, y1 = corners.max(axis=0)
    return (max(0.0, float(x0)), max(0.0, float(y0)), min(float(w), float(x1)), min(float(h), float(y1)))


def frame_and_table(
    rng: np.random.Generator, backgrounds: Backgrounds | None, size: tuple[int, int] | None
) -> tuple[int, int, str, np.ndarray]:
    """A scene's frame size (``size`` (w, h) or one of the usual frames) and its table: the surface's name and the
    supersampled linear reflectance (``SURFACES``, or a photo of ``backgrounds``)."""
    w, h = size or [(640, 480), (640, 640), (480, 640), (640, 360)][_choice(rng, [4, 3, 1, 1])]
    hw = (h * SS, w * SS)
    names = list(SURFACES)
    weights = [SURFACES[k][1] for k in names]
    if backgrounds:
        names.append("photo")
        weights.append(3.0)
    surface = names[_choice(rng, weights)]
    scene = backgrounds.surface(rng, hw) if surface == "photo" and backgrounds else SURFACES[surface][0](rng, hw)
    return w, h, surface, np.ascontiguousarray(np.clip(scene, 0.0, 1.0), np.float32)


def random_things(rng: np.random.Generator, n: int, die_size: float, w: int, h: int) -> list[Thing]:
    """``n`` things that are not dice (``THINGS``, by how often each is met) about the frame, a third to 1.6 times
    the scene's die size (specks smaller), each with its own turn and seed."""
    things = []
    for _ in range(n):
        kind = THINGS[_choice(rng, [3, 2, 1.5, 1.5, 2, 1.5, 2, 1, 1, 0.7, 1, 1, 0.8])]
        s = die_size * float(np.exp(rng.uniform(-0.9, 0.5)))
        if kind == "speck":
            s = min(s, die_size * 0.4)
        s = min(s, min(w, h) / 2 - 1)  # a thing fits the frame (only small frames need it)
        c = (float(rng.uniform(s, w - s)), float(rng.uniform(s, h - s)))
        things.append(Thing(kind, c, s, float(rng.uniform(0, 360)), int(rng.integers(1 << 30))))
    return things


def random_snaps(rng: np.random.Generator, die_size: float, w: int, h: int) -> list[Thing]:
    """One to three rows of one to five metal snap studs or rivets (``SNAP``), each a quarter to nine tenths of the
    scene's die size, as along a folding dice tray's rim and at its corners."""
    snaps = []
    for _ in range(int(rng.integers(1, 4))):
        s = min(die_size * float(np.exp(rng.uniform(np.log(0.25), np.log(0.9)))), min(w, h) / 2 - 1)
        gap = s * float(rng.uniform(1.5, 5.0))
        a = float(rng.uniform(0, 2 * np.pi))
        x, y = float(rng.uniform(s, w - s)), float(rng.uniform(s, h - s))
        for _ in range(int(rng.integers(1, 6))):
            if s <= x <= w - s and s <= y <= h - s:
                snaps.append(Thing(SNAP, (x, y), s, float(rng.uniform(0, 360)), int(rng.integers(1 << 30))))
            x, y = x + gap * math.cos(a), y + gap * math.sin(a)
    return snaps


def thing_boxes(things: list[Thing]) -> np.ndarray:
    """The things' boxes (N, 4) float32, x0 y0 x1 y1 in output px."""
    return np.array(
        [
            [t.centre[0] - t.size / 2, t.centre[1] - t.size / 2, t.centre[0] + t.size / 2, t.centre[1] + t.size / 2]
            for t in things
        ],
        np.float32,
    ).reshape(-1, 4)


def render_scene(
    seed: int,
    backgrounds: Backgrounds | None = None,
    size: tuple[int, int] | None = None,
    shares: Shares = PLAIN,
) -> WideScene:
    """One appearance-wide scene (see the module docstring); ``size`` (w, h) or a random one of the usual frames;
    ``shares``: how often the looks only some runs ask for are drawn."""
    rng = np.random.default_rng(seed)
    w, h, surface, scene = frame_and_table(rng, backgrounds, size)
    # from a generator of its own, replacing the table just drawn (so the scene's own draws stay as they were and
    # at 0 the scene is drawn as before)
    if shares.speckle:
        speckle_rng = np.random.default_rng((seed, 6))
        if speckle_rng.random() < shares.speckle:
            surface = "speckle"
            scene = np.clip(surface_speckle(speckle_rng, scene.shape[:2]), 0.0, 1.0).astype(np.float32)
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
    things = random_things(rng, n_things, die_size, w, h)
    if shares.snaps:  # from a generator of their own: at 0 the scene is drawn as before
        snap_rng = np.random.default_rng((seed, 5))
        if snap_rng.random() < shares.snaps:
            things += random_snaps(snap_rng, die_size, w, h)
    placed = [(t.centre[0], t.centre[1], t.size * 0.6) for t in things]  # centre, radius of everything drawn
    for t in things:
        draw_thing(scene, t, shadow)
    dice: list[WideDie] = []
    if n_dice and rng.random() < shares.blocks:  # a block of touching dice in rows, as pushed together on a tray
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
                    die = random_die(rng, c, die_size * float(rng.uniform(0.97, 1.03)), shares=shares)
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
        dice.append(random_die(rng, c, s, shares=shares))
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
        things=thing_boxes(things),
        thing_kinds=[t.kind for t in things],
        surface=surface,
        legible=np.array([pip_contrast(scene, d) >= LEGIBLE_CONTRAST for d in dice], bool),
        dice=dice,
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


def clutter_photo(img: np.ndarray, dice: np.ndarray, seed: int) -> tuple[np.ndarray, np.ndarray, list[str]]:
    """A photo (BGR uint8) with 6-14 things that are not dice (``THINGS``) put on its table away from its dice
    (boxes (N, 4) in pixels), each a third to one and a half times the photo's dice, with a shadow; returns the
    new photo, the things' boxes and their kinds."""
    rng = np.random.default_rng(seed)
    h, w = img.shape[:2]
    sides = np.maximum(dice[:, 2] - dice[:, 0], dice[:, 3] - dice[:, 1]) if len(dice) else np.zeros(0)
    die = float(np.median(sides)) if len(sides) else 30.0
    lin = cv2.resize((img.astype(np.float32) / 255.0) ** 2.2, (w * SS, h * SS), interpolation=cv2.INTER_LINEAR)
    shadow = (float(rng.uniform(0.03, 0.15)), float(rng.uniform(0.02, 0.15)), float(rng.uniform(0.3, 0.6)))
    things, kinds = [], []
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
                kinds.append(kind)
                break
    small = cv2.resize(np.clip(lin, 0, 1), (w, h), interpolation=cv2.INTER_AREA)
    out = np.clip(small ** (1 / 2.2) * 255 + 0.5, 0, 255).astype(np.uint8)
    return out, np.array(things, np.float32).reshape(-1, 4), kinds
