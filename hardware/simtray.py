"""A simulated camera: one fixed camera looking down at a dice tray, for playing without a camera.

It shows a still picture of the dice on the tray, held until someone rolls again (:meth:`SimulatedTray.roll`),
with a short burst of motion in between, as a real roll gives, so the app's settle-and-vote path runs. What a roll
holds is set by whoever shows the picture (:meth:`SimulatedTray.want`): the dice a game expects now (1-3 number
dice in Rat-a-Tat, 2 colour + 2 number dice in Lowdown), an empty tray or one colour face for the calibration.

Number dice are real dice cut from the bundled sample photos (``companion/vision/samples/angled-webcam``, with
their YOLO labels; only sharp ones, so the dice reader reads them as it reads a camera); colour dice and the
picture die are drawn. Four ArUco markers (ids 0-3) sit at the tray's corners, so the calibration finds the tray.
Frames are one size for the whole session. numpy and OpenCV only, imported when the tray is opened.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hardware.camera import CameraUnavailable, Frame

SAMPLES = Path(__file__).resolve().parent.parent / "companion" / "vision" / "samples" / "angled-webcam"
NAME = "simulated camera (a tray of sample dice)"
MOTION_S = 0.8  # a roll tumbles this long before the dice lie still
SHARP_ENOUGH = 150.0  # variance of the Laplacian: blurrier sample dice are not used (the reader misreads them)
MIN_SIDE = 30  # px: smaller (far-off) sample dice are not used: the reader misreads them more often
# Lowdown's six die colours (BGR), as its board draws them.
COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (53, 57, 229),
    "orange": (0, 140, 251),
    "purple": (170, 36, 142),
    "blue": (229, 136, 30),
    "green": (71, 160, 67),
    "yellow": (53, 216, 253),
}
PICTURES = ("cat", "rat", "swap")
GROW = 1.25  # the mask a little wider than the labelled box: the die's edge and a rim of table around it
# Sample dice (photo:label line) the dice reader often reads as two dice once cut out and turned a little (a 2
# seen at a slant: one pip read again as a 1); tests/hardware/test_simtray.py reads the tray's rolls.
LEFT_OUT = frozenset({"train_two_17:1", "train_six_58:4"})
PIPS = "pips"
COLOUR = "colour"
PICTURE = "picture"


@dataclass(frozen=True)
class TrayRoll:
    """What a roll puts on the tray: how many number dice (a range: the count is rolled too), colour dice and
    picture dice, and optionally the face every colour or picture die shows (a calibration step)."""

    pips: tuple[int, int] = (0, 0)
    colours: int = 0
    pictures: int = 0
    colour_face: str | None = None
    picture_face: str | None = None

    @classmethod
    def empty(cls) -> TrayRoll:
        return cls()

    def fits(self, dice: list[tuple[str, Any]]) -> bool:
        """Whether ``dice`` ((kind, face) pairs) could be a roll of this kind."""
        count = {kind: sum(1 for k, _ in dice if k == kind) for kind in (PIPS, COLOUR, PICTURE)}
        if not self.pips[0] <= count[PIPS] <= self.pips[1]:
            return False
        if count[COLOUR] != self.colours or count[PICTURE] != self.pictures:
            return False
        if self.colour_face is not None and any(k == COLOUR and f != self.colour_face for k, f in dice):
            return False
        return self.picture_face is None or all(f == self.picture_face for k, f in dice if k == PICTURE)


@dataclass
class _Die:
    kind: str
    face: Any
    image: Any  # BGR patch
    mask: Any  # float32 0-1, same size
    x: float  # centre, frame pixels
    y: float
    start: tuple[float, float] = (0.0, 0.0)  # where it enters the tray from during the motion
    spin: float = 0.0  # degrees turned during the motion


@dataclass
class _Picture:
    dice: list[_Die] = field(default_factory=list)
    rolled_at: float = -1e9


class SimulatedTray:
    """A :class:`hardware.camera.FrameSource` drawing a dice tray (see the module docstring). ``clock`` and
    ``seed`` make it repeatable in tests; :attr:`dice` is what lies on the tray now (the truth, for tests)."""

    id = "sim"

    def __init__(
        self,
        size: tuple[int, int] = (640, 480),
        *,
        samples: str | Path = SAMPLES,
        clock: Callable[[], float] = time.monotonic,
        seed: int | None = None,
        motion_s: float = MOTION_S,
        name: str = NAME,
    ) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.samples = Path(samples)
        self.clock = clock
        self.motion_s = motion_s
        self.name = name
        self.rng = random.Random(seed)
        self.spec = TrayRoll(pips=(1, 3))
        self._lock = threading.Lock()
        self._picture = _Picture()
        self._opened = False
        self._background: Any = None
        self._still: Any = None  # the still frame of the current picture (drawn once)
        self._cut: dict[int, list[tuple[Any, Any]]] = {}  # pips -> sample dice (patch, mask)
        self.tray_quad: list[tuple[float, float]] = []  # the tray floor's corners (the marker centres)
        self.rolls = 0
        self._pending = False  # a roll asked for while closed, done when opened

    # -- FrameSource ------------------------------------------------------------------------------------------

    def open(self) -> None:
        """Cut the sample dice and draw the empty tray; :class:`CameraUnavailable` without sample photos."""
        if self._opened:
            return
        if self._background is None:
            try:
                cut = cut_sample_dice(self.samples)
            except OSError as err:
                problem = f"{self.name}: cannot read the sample photos in {self.samples} ({err})"
                raise CameraUnavailable(problem) from err
            missing = [str(f) for f in range(1, 7) if not cut.get(f)]
            if missing:
                raise CameraUnavailable(
                    f"{self.name}: no sharp sample dice showing {', '.join(missing)} in {self.samples}"
                )
            self._cut = cut
            self._background, self.tray_quad = draw_tray(self.size)
        self._opened = True
        if self.rolls == 0:
            self._settle(self._new_dice(self.spec), rolled_at=-1e9)  # the first roll lies still from the start
        elif self._pending:
            self.roll()  # asked for while closed (between two readers of the camera)

    def read(self) -> Frame:
        """The tray now: the dice still, or tumbling for ``motion_s`` after a roll."""
        if not self._opened:
            raise CameraUnavailable(f"{self.name} is not open")
        with self._lock:
            picture = self._picture
            now = self.clock()
            since = now - picture.rolled_at
            if since >= self.motion_s:
                if self._still is None:
                    self._still = self._draw(picture.dice, 1.0)
                return Frame(self._still.copy(), now)
            return Frame(self._draw(picture.dice, max(0.0, since / self.motion_s)), now)

    def close(self) -> None:
        self._opened = False

    # -- rolling ----------------------------------------------------------------------------------------------

    @property
    def dice(self) -> list[tuple[str, Any]]:
        """(kind, face) of every die on the tray now."""
        with self._lock:
            return [(d.kind, d.face) for d in self._picture.dice]

    @property
    def moving(self) -> bool:
        """True while the last roll still tumbles."""
        return self.clock() - self._picture.rolled_at < self.motion_s

    def want(self, spec: TrayRoll) -> bool:
        """Set what a roll holds from now on; when the dice on the tray do not fit it, roll now (the dice a game
        or a calibration step expects are on the tray when its screen shows the picture). True if it rolled."""
        self.spec = spec
        if spec.fits(self.dice) and self.rolls > 0:
            return False
        self.roll()
        return True

    def roll(self) -> None:
        """Roll again: a burst of motion, then a new still picture of a roll as :attr:`spec` says (once open)."""
        self._pending = not self._opened
        if self._pending:
            return
        self._settle(self._new_dice(self.spec), rolled_at=self.clock())

    def _settle(self, dice: list[_Die], *, rolled_at: float) -> None:
        with self._lock:
            self._picture = _Picture(dice, rolled_at)
            self._still = None
            self.rolls += 1

    def _new_dice(self, spec: TrayRoll) -> list[_Die]:
        rng = self.rng
        kinds: list[tuple[str, Any]] = []
        for _ in range(rng.randint(spec.pips[0], max(spec.pips))):
            kinds.append((PIPS, rng.randint(1, 6)))
        for _ in range(spec.colours):
            kinds.append((COLOUR, spec.colour_face or rng.choice(list(COLOURS))))
        for _ in range(spec.pictures):
            kinds.append((PICTURE, spec.picture_face or rng.choice(PICTURES)))
        side = self.size[1] / 8  # a die about as big as in the sample photos at 640x480
        places = self._places(len(kinds), side)
        dice = []
        for (kind, face), (x, y) in zip(kinds, places, strict=True):
            size = side * rng.uniform(0.92, 1.08)
            if kind == PIPS:
                # at the size it was photographed, turned a little: the dice reader reads these as from a camera
                # (scaled or turned much further, the slanted sample dice are misread more often)
                patch, mask = rng.choice(self._cut[int(face)])
                turn = rng.uniform(-10, 10)
            elif kind == COLOUR:
                patch, mask = draw_colour_die(COLOURS[str(face)], int(size))
                turn = rng.uniform(0, 360)
            else:
                patch, mask = draw_picture_die(str(face), int(size))
                turn = rng.uniform(-30, 30)
            patch, mask = _turned(patch, mask, turn)
            edge = rng.choice([(x, -side), (x, self.size[1] + side), (-side, y), (self.size[0] + side, y)])
            dice.append(_Die(kind, face, patch, mask, x, y, edge, rng.uniform(-400, 400)))
        return dice

    def _places(self, count: int, side: float) -> list[tuple[float, float]]:
        """Die centres inside the tray floor, a die's width apart at least."""
        xs = [p[0] for p in self.tray_quad] or [0.0, float(self.size[0])]
        ys = [p[1] for p in self.tray_quad] or [0.0, float(self.size[1])]
        x0, x1 = min(xs) + side, max(xs) - side
        y0, y1 = min(ys) + side, max(ys) - side
        places: list[tuple[float, float]] = []
        for _ in range(count):
            for _attempt in range(200):
                x, y = self.rng.uniform(x0, x1), self.rng.uniform(y0, y1)
                if all(math.hypot(x - px, y - py) > 1.7 * side for px, py in places):
                    break
            places.append((x, y))
        return places

    def _draw(self, dice: list[_Die], done: float) -> Any:
        """The tray with ``dice``: ``done`` 1 lies still; below 1 the dice slide in from an edge, turning, blurred."""
        import cv2
        import numpy as np

        frame = self._background.copy()
        ease = 1 - (1 - done) ** 2
        for die in dice:
            patch, mask = die.image, die.mask
            if done < 1:
                patch, mask = _turned(patch, mask, die.spin * (1 - ease))
                k = max(1, int(9 * (1 - done)))
                patch = cv2.blur(patch, (k, k))
            x = die.start[0] + (die.x - die.start[0]) * ease
            y = die.start[1] + (die.y - die.start[1]) * ease
            _paste(frame, patch, mask, x, y, np)
        return frame


# -- drawing ------------------------------------------------------------------------------------------------------


def draw_tray(size: tuple[int, int]) -> tuple[Any, list[tuple[float, float]]]:
    """The empty tray: a dark rim, a light wooden floor (the colour of the sample photos' table, so the cut dice
    sit on it naturally) and the four corner markers. Returns the frame and the marker centres."""
    import cv2
    import numpy as np

    w, h = size
    rng = np.random.default_rng(7)
    frame = np.zeros((h, w, 3), np.uint8)
    frame[:] = (52, 60, 70)
    mx, my = int(w * 0.06), int(h * 0.06)
    grain: Any = cv2.GaussianBlur(rng.normal(0, 1, (h, 1)).astype(np.float32), (1, 31), 0) * 30
    floor = np.empty((h, w, 3), np.float32)
    floor[:] = (176, 196, 210)
    floor += grain[:, :, None] * np.array([0.6, 0.8, 1.0], np.float32)
    floor += rng.normal(0, 1.5, (h, w, 1)).astype(np.float32)
    frame[my : h - my, mx : w - mx] = np.clip(floor, 0, 255).astype(np.uint8)[my : h - my, mx : w - mx]
    side = int(min(w, h) * 0.085)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    centres = []
    spots = [
        (mx + 4, my + 4),
        (w - mx - 4 - side, my + 4),
        (w - mx - 4 - side, h - my - 4 - side),
        (mx + 4, h - my - 4 - side),
    ]
    for marker_id, (x, y) in enumerate(spots):
        inner = side - 2 * max(2, side // 8)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, inner)
        frame[y : y + side, x : x + side] = 255
        pad = (side - inner) // 2
        frame[y + pad : y + pad + inner, x + pad : x + pad + inner] = marker[:, :, None]
        centres.append((x + side / 2, y + side / 2))
    return frame, centres


def draw_colour_die(bgr: tuple[int, int, int], side: int) -> tuple[Any, Any]:
    """A colour die seen from above: a rounded square of its colour, lit from the top left."""
    import cv2
    import numpy as np

    pad = max(4, side // 6)
    n = side + 2 * pad
    patch = np.zeros((n, n, 3), np.uint8)
    mask: Any = np.zeros((n, n), np.float32)
    radius = max(3, side // 6)
    _rounded(mask, pad, pad, side, radius, 1.0)
    colour = np.array(bgr, np.float32)
    ys, xs = np.mgrid[0:n, 0:n].astype(np.float32)
    light = 1.08 - 0.16 * (xs + ys) / (2 * n)
    patch[:] = np.clip(colour[None, None, :] * light[:, :, None], 0, 255).astype(np.uint8)
    mask = cv2.GaussianBlur(mask, (3, 3), 0)
    return patch, mask


def draw_picture_die(face: str, side: int) -> tuple[Any, Any]:
    """The picture die seen from above: black, with a white cat, rat or swap (two arrows) on top (a body unlike the
    white number dice and the colour dice, so the calibration tells it apart by its body too)."""
    import cv2
    import numpy as np

    body = (40, 38, 36)
    patch, mask = draw_colour_die(body, side)
    n = patch.shape[0]
    c = n / 2
    s = side / 2
    ink = (240, 240, 236)
    t = max(2, side // 18)
    if face == "cat":
        cv2.circle(patch, (int(c), int(c + s * 0.1)), int(s * 0.48), ink, -1, cv2.LINE_AA)
        for sx in (-1, 1):
            ear = np.array(
                [[c + sx * s * 0.45, c - s * 0.05], [c + sx * s * 0.5, c - s * 0.7], [c + sx * s * 0.1, c - s * 0.35]]
            )
            cv2.fillConvexPoly(patch, ear.astype(np.int32), ink, cv2.LINE_AA)
            cv2.circle(patch, (int(c + sx * s * 0.2), int(c + s * 0.02)), max(2, int(s * 0.1)), body, -1)
    elif face == "rat":
        cv2.ellipse(patch, (int(c - s * 0.05), int(c + s * 0.1)), (int(s * 0.5), int(s * 0.3)), 0, 0, 360, ink, -1)
        cv2.circle(patch, (int(c - s * 0.3), int(c - s * 0.25)), int(s * 0.16), ink, -1, cv2.LINE_AA)
        cv2.circle(patch, (int(c + s * 0.05), int(c - s * 0.25)), int(s * 0.16), ink, -1, cv2.LINE_AA)
        tail = np.array(
            [[c + s * 0.42, c + s * 0.15], [c + s * 0.7, c + s * 0.3], [c + s * 0.6, c + s * 0.65]], np.int32
        )
        cv2.polylines(patch, [tail], False, ink, t, cv2.LINE_AA)
    else:  # swap: two arrows, one each way
        for y, direction in ((c - s * 0.28, 1), (c + s * 0.28, -1)):
            a, b = c - direction * s * 0.55, c + direction * s * 0.55
            cv2.line(patch, (int(a), int(y)), (int(b), int(y)), ink, t + 1, cv2.LINE_AA)
            head = np.array([[b, y], [b - direction * s * 0.3, y - s * 0.22], [b - direction * s * 0.3, y + s * 0.22]])
            cv2.fillConvexPoly(patch, head.astype(np.int32), ink, cv2.LINE_AA)
    return patch, mask


def cut_sample_dice(folder: Path) -> dict[int, list[tuple[Any, Any]]]:
    """Every sharp die of the labelled sample photos, cut out with a mask of its own shape, by the face it shows
    (YOLO labels: class k shows k+1 pips)."""
    import cv2
    import numpy as np

    out: dict[int, list[tuple[Any, Any]]] = {}
    for image_path in sorted((folder / "images").glob("*.jpg")):
        label_path = folder / "labels" / f"{image_path.stem}.txt"
        image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if image is None or not label_path.exists():
            continue
        h, w = image.shape[:2]
        for number, line in enumerate(label_path.read_text(encoding="utf-8").splitlines()):
            parts = line.split()
            if f"{image_path.stem}:{number}" in LEFT_OUT:
                continue
            if len(parts) != 5:
                continue
            face = int(parts[0]) + 1
            cx, cy, bw, bh = (float(v) for v in parts[1:])
            side = max(bw * w, bh * h)
            margin = side * 0.25
            x0, y0 = int(cx * w - side / 2 - margin), int(cy * h - side / 2 - margin)
            x1, y1 = int(cx * w + side / 2 + margin), int(cy * h + side / 2 + margin)
            if side < MIN_SIDE or x0 < 0 or y0 < 0 or x1 > w or y1 > h or not 1 <= face <= 6:
                continue
            patch = image[y0:y1, x0:x1].copy()
            grey = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY)
            if cv2.Laplacian(grey, cv2.CV_64F).var() < SHARP_ENOUGH:
                continue
            box = (bw * w / 2, bh * h / 2)  # the labelled die's half-width and half-height in the cut-out
            mask = _die_mask(patch, box, cv2, np)
            if mask is not None:
                # room to turn the die any way without cutting its corners off
                pad = patch.shape[0] // 3
                patch = cv2.copyMakeBorder(patch, pad, pad, pad, pad, cv2.BORDER_REFLECT)
                mask = cv2.copyMakeBorder(mask, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=0)
                out.setdefault(face, []).append((patch, mask))
    return out


def _die_mask(patch: Any, box: tuple[float, float], cv2: Any, np: Any) -> Any:
    """The die's shape in a cut-out: its labelled box with rounded corners (the table showing in the corners of
    a die seen at a slant is mostly cut away), feathered so it sits on the tray without a seam."""
    n = patch.shape[0]
    half_w, half_h = box[0] * GROW, box[1] * GROW
    shape = np.zeros(patch.shape[:2], np.float32)
    radius = int(min(half_w, half_h) * 0.2)
    x0, y0 = int(n / 2 - half_w), int(n / 2 - half_h)
    side_w, side_h = int(2 * half_w), int(2 * half_h)
    cv2.rectangle(shape, (x0 + radius, y0), (x0 + side_w - radius, y0 + side_h), 1.0, -1)
    cv2.rectangle(shape, (x0, y0 + radius), (x0 + side_w, y0 + side_h - radius), 1.0, -1)
    for cx, cy in (
        (x0 + radius, y0 + radius),
        (x0 + side_w - radius, y0 + radius),
        (x0 + radius, y0 + side_h - radius),
        (x0 + side_w - radius, y0 + side_h - radius),
    ):
        cv2.circle(shape, (cx, cy), radius, 1.0, -1, cv2.LINE_AA)
    return cv2.GaussianBlur(shape, (5, 5), 0)


def _turned(patch: Any, mask: Any, degrees: float) -> tuple[Any, Any]:
    import cv2

    n = patch.shape[0]
    turn = cv2.getRotationMatrix2D((n / 2, n / 2), degrees, 1.0)
    return (
        cv2.warpAffine(patch, turn, (n, n), borderMode=cv2.BORDER_REFLECT),
        cv2.warpAffine(mask, turn, (n, n), borderValue=0),
    )


def _rounded(mask: Any, x: int, y: int, side: int, radius: int, value: float) -> None:
    import cv2

    cv2.rectangle(mask, (x + radius, y), (x + side - radius, y + side), value, -1)
    cv2.rectangle(mask, (x, y + radius), (x + side, y + side - radius), value, -1)
    for cx, cy in (
        (x + radius, y + radius),
        (x + side - radius, y + radius),
        (x + radius, y + side - radius),
        (x + side - radius, y + side - radius),
    ):
        cv2.circle(mask, (cx, cy), radius, value, -1, cv2.LINE_AA)


def _paste(frame: Any, patch: Any, mask: Any, x: float, y: float, np: Any) -> None:
    """Blend ``patch`` into ``frame`` centred at (x, y) through ``mask``, clipped at the frame's edges."""
    n = patch.shape[0]
    h, w = frame.shape[:2]
    left, top = round(x - n / 2), round(y - n / 2)
    a0, b0 = max(0, left), max(0, top)
    a1, b1 = min(w, left + n), min(h, top + n)
    if a1 <= a0 or b1 <= b0:
        return
    sub = patch[b0 - top : b1 - top, a0 - left : a1 - left].astype(np.float32)
    alpha = mask[b0 - top : b1 - top, a0 - left : a1 - left, None]
    roi = frame[b0:b1, a0:a1].astype(np.float32)
    frame[b0:b1, a0:a1] = (roi * (1 - alpha) + sub * alpha).astype(np.uint8)


def tray_of(camera: Any) -> SimulatedTray | None:
    """The simulated tray behind ``camera`` (it may be wrapped in a reconnecting source), or None."""
    source = camera
    for _ in range(3):
        if isinstance(source, SimulatedTray):
            return source
        source = getattr(source, "source", None)
    return None
