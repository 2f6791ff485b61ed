"""The things that are not dice in the appearance-wide renderer (``tools/synth/wide.py``), each one a labelled
negative: holes, dust, screws, coins, buttons, stickers, toy bricks, dominoes, rings, nuts, tokens, pawns, text;
and, only where a run asks for them (``wide.Shares.snaps``), ``SNAP``: the domed metal snap studs and rivets of a
folding dice tray's corners and rim."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np

from tools.synth.wide_dice import _pip_spots
from tools.synth.wide_draw import MOTIFS, SS, _luma, _paint, _put_text, _rand_colour, _region, _shadow, draw_motif

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
SNAP = "snap"  # not in THINGS: drawn in rows by ``wide.random_snaps``, so the renders of earlier runs stay as they were


@dataclass(frozen=True)
class Thing:
    """A thing that is not a die: its kind, centre, size (output px), turn and a seed for its details."""

    kind: str
    centre: tuple[float, float]
    size: float
    angle: float
    seed: int


def draw_thing(scene: np.ndarray, t: Thing, shadow: tuple[float, float, float]) -> None:
    """Draw a thing that is not a die on the part of the scene it can reach."""
    reach = t.size * (1.2 + 2.0 * shadow[0] + 3.0 * shadow[1]) + 4
    if t.kind == "text":
        reach = t.size * 4 + 8
    part, ox, oy = _region(scene, t.centre, reach)
    if part.size:
        _draw_thing(part, replace(t, centre=(t.centre[0] - ox, t.centre[1] - oy)), shadow)


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
    if k in ("screw", "coin", "button", "sticker", "ring", "token", "pawn", SNAP):
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
    if k in ("screw", "nut", "coin", "ring", SNAP):  # metal: a radial sheen
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
        elif k == SNAP:  # a dome: a dark rim, one bright glint (a "pip"), maybe a dimple at its top
            cv2.circle(detail, c, max(1, int(r * rng.uniform(0.6, 0.9))), 1.0, max(1, int(r * 0.12)), aa)
            _paint(scene, detail * float(rng.uniform(0.4, 0.9)), metal * 0.25)
            glint = np.zeros((h, w), np.float32)
            u, v = rng.uniform(-0.45, 0.15, 2)
            cv2.circle(glint, pt(u, v), max(1, int(r * rng.uniform(0.12, 0.35))), 1.0, -1, aa)
            shine = cv2.GaussianBlur(glint, (0, 0), max(0.6, r * 0.08)) * body
            _paint(scene, shine, np.full(3, rng.uniform(0.8, 1.0), np.float32))
            if rng.random() < 0.4:
                dimple = np.zeros((h, w), np.float32)
                cv2.circle(dimple, c, max(1, int(r * rng.uniform(0.15, 0.3))), 1.0, -1, aa)
                _paint(scene, dimple, metal * 0.3)
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
