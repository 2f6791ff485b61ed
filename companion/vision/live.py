"""Live mode: tell rolling from settled, read once settled, vote over several settled frames, emit ONE roll.

Pure and clock-free: every call gets the frame's timestamp ``t`` (seconds, monotonic) from the caller.
:class:`SettleVoter` is the state machine over (t, moving, detections); :class:`LiveReader` adds the frame side
(a cheap thumbnail difference for motion, and the dice reader once the scene is still).

States: ``rolling`` (something moved within the last ``settle_s``), ``reading`` (still long enough: collecting
``votes`` readings), ``settled`` (a roll was emitted; nothing more until something moves again).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.pipeline import FLAG_BELOW, read_dice, to_roll
from companion.vision.roll import Roll

ROLLING = "rolling"
READING = "reading"
SETTLED = "settled"


@dataclass(frozen=True)
class LiveSettings:
    """Timing and voting knobs of live mode."""

    settle_s: float = 0.5  # the scene must be still this long before reading
    votes: int = 3  # settled frames read and voted over for one roll
    min_agree: float = 0.5  # a die must be seen in more than this share of the voted frames
    flag_below: float = FLAG_BELOW  # dice less sure than this (or with disagreeing votes) are flagged
    motion_pixels: float = 0.004  # share of thumbnail pixels that changed for a frame to count as moving
    motion_level: int = 18  # grey-level change that counts as a changed pixel
    shift: float = 0.35  # a die whose centre moved by this share of its box between voted frames is moving
    thumb_width: int = 96


def vote(readings: list[Detections], settings: LiveSettings | None = None) -> Detections:
    """Combine several readings of the same still scene: dice are matched by position; a die seen in more than
    ``min_agree`` of the readings is kept with its most common value; confidence is its mean confidence times the
    share of readings that agree with that value (so disagreement lowers it)."""
    s = settings or LiveSettings()
    if not readings:
        return Detections.empty()
    clusters: list[list[tuple[np.ndarray, int, float, str, int | str | None]]] = []
    centres: list[np.ndarray] = []
    sizes: list[float] = []
    for det in readings:
        taken: set[int] = set()
        c = det.centres
        for i in range(len(det)):
            box = det.boxes[i]
            size = float(max(box[2] - box[0], box[3] - box[1], 1))
            best, best_d = -1, np.inf
            for k, ck in enumerate(centres):
                d = float(np.hypot(*(c[i] - ck)))
                if k not in taken and d < 0.5 * max(size, sizes[k]) and d < best_d:
                    best, best_d = k, d
            entry = (box, int(det.values[i]), float(det.confidences[i]), det.kinds[i], det.faces[i])
            if best < 0:
                clusters.append([entry])
                centres.append(c[i].astype(np.float64))
                sizes.append(size)
                taken.add(len(clusters) - 1)
            else:
                clusters[best].append(entry)
                n = len(clusters[best])
                centres[best] = centres[best] + (c[i] - centres[best]) / n
                taken.add(best)
    boxes, values, confs, kinds, faces, agree = [], [], [], [], [], []
    n_read = len(readings)
    for cl in clusters:
        if len(cl) <= s.min_agree * n_read:
            continue
        keys = [(e[3], e[4] if e[3] != "pips" else e[1]) for e in cl]
        uniq = sorted(set(keys), key=lambda k: (-keys.count(k), str(k)))
        top = uniq[0]
        members = [e for e, k in zip(cl, keys, strict=True) if k == top]
        share = len(members) / n_read
        boxes.append(np.median(np.stack([e[0] for e in members]), axis=0))
        values.append(members[0][1])
        confs.append(float(np.mean([e[2] for e in members])) * share)
        kinds.append(members[0][3])
        faces.append(members[0][4])
        agree.append(share)
    if not boxes:
        return Detections.empty()
    det = Detections(
        np.round(np.stack(boxes)).astype(np.int32),
        np.asarray(values, dtype=np.int32),
        np.asarray(confs, dtype=np.float32),
        kinds,
        faces,
        {"agree": np.asarray(agree)},
    )
    return det.sorted_left_to_right()


def moved(a: Detections, b: Detections, shift: float) -> bool:
    """Whether two readings differ in dice count or any die moved by more than ``shift`` of its size."""
    if len(a) != len(b):
        return True
    if not len(a):
        return False
    ca, cb = a.centres, b.centres
    size = np.maximum(a.boxes[:, 2] - a.boxes[:, 0], a.boxes[:, 3] - a.boxes[:, 1]).astype(np.float64)
    d = np.hypot(*(ca[:, None] - cb[None]).transpose(2, 0, 1))
    return bool((d.min(axis=1) > shift * np.maximum(size, 1)).any())


@dataclass
class SettleVoter:
    """The live state machine, fed per frame with its time, whether it moved, and (while reading) a reading.
    ``update`` returns a :class:`Roll` exactly once per settle, else None."""

    settings: LiveSettings = field(default_factory=LiveSettings)
    state: str = ROLLING
    still_since: float | None = None
    readings: list[Detections] = field(default_factory=list)
    last: Detections | None = None  # the voted reading of the last emitted roll

    def wants_reading(self, t: float) -> bool:
        """Whether the frame at ``t`` should be read (the scene has been still for ``settle_s``)."""
        return self.state == READING or (
            self.state == ROLLING and self.still_since is not None and t - self.still_since >= self.settings.settle_s
        )

    def update(self, t: float, moving: bool, detections: Detections | None = None) -> Roll | None:
        """Advance by one frame. ``detections`` is the frame's reading when :meth:`wants_reading` said so."""
        s = self.settings
        if moving:
            self.state, self.still_since, self.readings = ROLLING, None, []
            return None
        if self.state == SETTLED:
            return None
        if self.still_since is None:
            self.still_since = t
        if t - self.still_since < s.settle_s or detections is None:
            return None
        if self.readings and moved(self.readings[-1], detections, s.shift):
            self.state, self.still_since, self.readings = ROLLING, t, []  # something shifted: start settling again
            return None
        self.state = READING
        self.readings.append(detections)
        if len(self.readings) < s.votes:
            return None
        voted = vote(self.readings, s)
        flagged = voted.confidences < s.flag_below
        if "agree" in voted.data:
            flagged |= voted.data["agree"] < 1.0
        confs = np.where(flagged, np.minimum(voted.confidences, s.flag_below - 1e-3), voted.confidences)
        voted = voted.replace(confidences=confs.astype(np.float32))
        self.state, self.readings, self.last = SETTLED, [], voted
        return to_roll(voted, flag_below=s.flag_below)


class LiveReader:
    """Frames in (with their timestamps), one :class:`Roll` out per settle. Motion comes from a small grey
    thumbnail compared with the previous frame; the (slower) dice reader runs only while the scene is still."""

    def __init__(
        self, settings: LiveSettings | None = None, reader: Callable[[np.ndarray], Detections] = read_dice
    ) -> None:
        self.settings = settings or LiveSettings()
        self.voter = SettleVoter(self.settings)
        self.reader = reader
        self._prev: np.ndarray | None = None
        self.latest: Detections = Detections.empty()  # the last reading, for the overlay

    @property
    def state(self) -> str:
        return self.voter.state

    def motion(self, frame_bgr: np.ndarray) -> float:
        """Share of thumbnail pixels that changed since the previous frame (1.0 for the first frame)."""
        s = self.settings
        h, w = frame_bgr.shape[:2]
        thumb_h = max(1, round(h * s.thumb_width / w))
        gray = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        small = cv2.GaussianBlur(cv2.resize(gray, (s.thumb_width, thumb_h), interpolation=cv2.INTER_AREA), (3, 3), 0)
        prev, self._prev = self._prev, small
        if prev is None or prev.shape != small.shape:
            return 1.0
        return float((cv2.absdiff(small, prev) > s.motion_level).mean())

    def feed(self, frame_bgr: np.ndarray, t: float) -> Roll | None:
        """Process one frame taken at time ``t``; returns a roll once per settle."""
        moving = self.motion(frame_bgr) > self.settings.motion_pixels
        det = None
        if not moving and self.voter.wants_reading(t):
            det = self.reader(frame_bgr)
            self.latest = det
        return self.voter.update(t, moving, det)
