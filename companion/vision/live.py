"""Live mode: tell rolling from settled, read once settled, vote over several settled frames, emit ONE roll.

Pure and clock-free: every call gets the frame's timestamp ``t`` (seconds, monotonic) from the caller.
:class:`SettleVoter` is the state machine over (t, moving, detections); :class:`LiveReader` adds the frame side
(a cheap thumbnail difference for motion, and the dice reader once the scene is still).

States: ``rolling`` (something moved within the last ``settle_s``), ``reading`` (still long enough: collecting
``votes`` readings), ``settled`` (a roll was emitted; the dice are only re-read now and then, and a roll they no
longer match starts a new vote).

Stillness is judged against the frame that started the still period as well as the previous frame, so a die
sliding a few pixels a frame does not count as still; while settled, a change confined to one die's worth of the
thumbnail (a die nudged onto another face) makes the dice be re-read at once instead of at the next re-check.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2
import numpy as np

from companion.vision.detections import Detections
from companion.vision.pipeline import FLAG_BELOW, read_dice, to_roll
from companion.vision.roll import LiveState, Roll

ROLLING, READING, SETTLED = LiveState.ROLLING, LiveState.READING, LiveState.SETTLED


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
    # A local change: this many changed thumbnail pixels within one die-sized window (a sixteenth of the
    # thumbnail's width) since the still period began. Before the roll it counts as movement; once settled it
    # makes the dice be re-read. 0 turns it off.
    change_pixels: int = 3
    recheck_s: float = 1.0  # while settled, re-read the dice this often (0: only on a local change)
    recheck_soon_s: float = 0.25  # at most this often when a local change asks for a re-read
    recheck_agree: int = 2  # consecutive re-reads that differ from the settled roll before it is voted again


Entry = tuple[np.ndarray, int, float, str, int | str | None, bool]  # box, value, confidence, kind, face, flagged


@dataclass
class _Cluster:
    """One die position over several readings: what each reading saw there."""

    centre: np.ndarray
    size: float
    entries: list[Entry] = field(default_factory=list)

    def faces_seen(self) -> list[tuple[str, int | str | None]]:
        """(kind, face) per reading that saw a die here (pips dice by their value)."""
        return [_key(e[3], e[1], e[4]) for e in self.entries]


def _key(kind: str, value: int, face: int | str | None) -> tuple[str, int | str | None]:
    return (kind, face if kind != "pips" else value)


def _sizes(det: Detections) -> np.ndarray:
    return np.maximum(det.long_sides, 1.0)


def _clusters(readings: list[Detections]) -> list[_Cluster]:
    """Match the dice of several readings by position (each reading adds at most one die to a position)."""
    clusters: list[_Cluster] = []
    for det in readings:
        taken: set[int] = set()
        c = det.centres
        sizes = _sizes(det) if len(det) else np.zeros(0)
        for i in range(len(det)):
            size = float(sizes[i])
            best, best_d = -1, np.inf
            for k, cl in enumerate(clusters):
                d = float(np.hypot(*(c[i] - cl.centre)))
                if k not in taken and d < 0.5 * max(size, cl.size) and d < best_d:
                    best, best_d = k, d
            entry = (
                det.boxes[i],
                int(det.values[i]),
                float(det.confidences[i]),
                det.kinds[i],
                det.faces[i],
                bool(det.flagged[i]),
            )
            if best < 0:
                clusters.append(_Cluster(c[i].astype(np.float64), size, [entry]))
                taken.add(len(clusters) - 1)
            else:
                cl = clusters[best]
                cl.entries.append(entry)
                cl.centre = cl.centre + (c[i] - cl.centre) / len(cl.entries)
                taken.add(best)
    return clusters


def vote(readings: list[Detections], settings: LiveSettings | None = None) -> Detections:
    """Combine several readings of the same still scene: dice are matched by position; a die seen in more than
    ``min_agree`` of the readings is kept with its most common value (one seen in fewer is dropped); confidence is
    its mean confidence times the share of readings that agree with that value (so disagreement, or a die missing
    from some readings, lowers it; ``data["agree"]`` is that share, below 1 for a die to check). It is flagged when
    more than half of the readings that agree on its face flagged it."""
    s = settings or LiveSettings()
    if not readings:
        return Detections.empty()
    boxes, values, confs, kinds, faces, agree, flagged = [], [], [], [], [], [], []
    n_read = len(readings)
    for cl in _clusters(readings):
        if len(cl.entries) <= s.min_agree * n_read:
            continue
        keys = cl.faces_seen()
        uniq = sorted(set(keys), key=lambda k: (-keys.count(k), str(k)))
        top = uniq[0]
        members = [e for e, k in zip(cl.entries, keys, strict=True) if k == top]
        share = len(members) / n_read
        boxes.append(np.median(np.stack([e[0] for e in members]), axis=0))
        values.append(members[0][1])
        confs.append(float(np.mean([e[2] for e in members])) * share)
        kinds.append(members[0][3])
        faces.append(members[0][4])
        agree.append(share)
        flagged.append(2 * sum(e[5] for e in members) > len(members))
    if not boxes:
        return Detections.empty()
    det = Detections(
        np.round(np.stack(boxes)).astype(np.int32),
        np.asarray(values, dtype=np.int32),
        np.asarray(confs, dtype=np.float32),
        kinds,
        faces,
        {"agree": np.asarray(agree)},
        np.asarray(flagged, dtype=bool),
    )
    return det.sorted_left_to_right()


def _face_count(det: Detections) -> Counter[tuple[str, int | str | None]]:
    """How many dice of each kind and face a reading found (two re-reads agree on faces when these match)."""
    return Counter(_key(k, int(v), f) for k, v, f in zip(det.kinds, det.values, det.faces, strict=True))


def shifted(a: Detections, b: Detections, shift: float) -> bool:
    """Whether a die seen in both readings moved by more than ``shift`` of its size (but at most one size).

    A die seen in one reading only (a weak die the reader sometimes misses) is not movement: a die with no
    partner within ``shift`` counts as moved only when a die of the other reading within one size has no partner
    of its own either."""
    if not len(a) or not len(b):
        return False
    d = np.hypot(*(a.centres[:, None] - b.centres[None]).transpose(2, 0, 1))  # (len a, len b)
    sa, sb = _sizes(a), _sizes(b)
    a_kept = (d <= shift * sa[:, None]).any(axis=1)
    b_kept = (d <= shift * sb[None, :]).any(axis=0)
    near = d <= np.maximum(sa[:, None], sb[None, :])
    return bool((near & ~a_kept[:, None] & ~b_kept[None, :]).any())


@dataclass
class SettleVoter:
    """The live state machine, fed per frame with its time, whether it moved, and (when :meth:`wants_reading`
    says so) a reading. ``update`` returns a :class:`Roll` exactly once per settle, else None.

    While settled the dice are re-read every ``recheck_s`` (sooner when the caller saw a local change); when
    ``recheck_agree`` re-reads in a row no longer match the settled roll (a die nudged onto another face, one
    added or taken away without much movement), those re-reads start a new vote and a new roll follows."""

    settings: LiveSettings = field(default_factory=LiveSettings)
    state: LiveState = ROLLING
    still_since: float | None = None
    readings: list[Detections] = field(default_factory=list)
    last: Detections | None = None  # the voted reading of the last emitted roll
    last_read: float | None = None  # when the dice were last read
    pending: list[Detections] = field(default_factory=list)  # re-reads in a row that differ from the roll
    _seen: list[_Cluster] = field(default_factory=list)  # what the voted readings saw, die position by position
    _n_voted: int = 0

    def wants_reading(self, t: float, changed: bool = False) -> bool:
        """Whether the frame at ``t`` should be read: the scene has been still for ``settle_s``, or (settled) a
        re-check is due, or ``changed`` (a local change in the picture) and the last re-read is not too recent."""
        s = self.settings
        if self.state == SETTLED:
            since = np.inf if self.last_read is None else t - self.last_read
            return (s.recheck_s > 0 and since >= s.recheck_s) or (changed and since >= s.recheck_soon_s)
        return self.state == READING or (
            self.state == ROLLING and self.still_since is not None and t - self.still_since >= s.settle_s
        )

    def update(self, t: float, moving: bool, detections: Detections | None = None, changed: bool = True) -> Roll | None:
        """Advance by one frame. ``detections`` is the frame's reading when :meth:`wants_reading` said so;
        ``changed``: the picture changed locally since the roll was read (a settled roll is voted again only
        then: re-reads of an unchanged picture that differ are the reader's doubt, not a new roll)."""
        s = self.settings
        if moving:
            self.state, self.still_since, self.readings, self.pending = ROLLING, None, [], []
            return None
        if self.state == SETTLED:
            return self._recheck(t, detections, changed)
        if self.still_since is None:
            self.still_since = t
        if t - self.still_since < s.settle_s or detections is None:
            return None
        self.last_read = t
        if self.readings and shifted(self.readings[-1], detections, s.shift):
            self.state, self.still_since, self.readings = ROLLING, t, []  # something shifted: start settling again
            return None
        self.state = READING
        self.readings.append(detections)
        return self._maybe_emit()

    def _recheck(self, t: float, detections: Detections | None, changed: bool) -> Roll | None:
        if detections is None:
            return None
        self.last_read = t
        if not changed or not self.differs(detections):
            self.pending = []
            return None
        if self.pending and (
            shifted(self.pending[-1], detections, self.settings.shift)
            or _face_count(self.pending[-1]) != _face_count(detections)
        ):
            self.pending = []  # the re-reads disagree with each other as well: count again from this one
        self.pending.append(detections)
        if len(self.pending) < self.settings.recheck_agree:
            return None
        # A new vote on fresh readings (re-reads that agreed to differ only start it: they are not its votes).
        self.state, self.readings, self.pending = READING, [], []
        return None

    def _maybe_emit(self) -> Roll | None:
        s = self.settings
        if len(self.readings) < s.votes:
            return None
        readings = self.readings[-s.votes :]
        voted = vote(readings, s)
        flagged = voted.flagged | (voted.confidences < s.flag_below)
        if "agree" in voted.data:
            flagged |= voted.data["agree"] < 1.0
        voted = voted.replace(flagged=flagged)
        self._seen, self._n_voted = _clusters(readings), len(readings)
        self.state, self.readings, self.pending, self.last = SETTLED, [], [], voted
        return to_roll(voted, flag_below=s.flag_below)

    def differs(self, reading: Detections) -> bool:
        """Whether a re-read no longer matches the settled roll: a die where the voted readings saw none, a die
        of the roll showing a face none of them saw, or a die that every one of them saw missing. (A die the vote
        was unsure of may come and go, and may show any face they saw, without that counting.)"""
        seen = self._seen
        used: set[int] = set()
        c = reading.centres
        sizes = _sizes(reading) if len(reading) else np.zeros(0)
        kept = [len(cl.entries) > self.settings.min_agree * self._n_voted for cl in seen]
        for i in range(len(reading)):
            best, best_d = -1, np.inf
            for k, cl in enumerate(seen):
                d = float(np.hypot(*(c[i] - cl.centre)))
                if k not in used and d < 0.5 * max(float(sizes[i]), cl.size) and d < best_d:
                    best, best_d = k, d
            if best < 0:
                return True
            used.add(best)
            key = _key(reading.kinds[i], int(reading.values[i]), reading.faces[i])
            if kept[best] and key not in seen[best].faces_seen():
                return True
        return any(len(cl.entries) >= self._n_voted and k not in used for k, cl in enumerate(seen))


class LiveReader:
    """Frames in (with their timestamps), one :class:`Roll` out per settle. Motion comes from a small grey
    thumbnail compared with the previous frame and with the frame that began the still period (so slow drift
    adds up); the (slower) dice reader runs only while the scene is still, and now and then once settled."""

    def __init__(
        self, settings: LiveSettings | None = None, reader: Callable[[np.ndarray], Detections] = read_dice
    ) -> None:
        self.settings = settings or LiveSettings()
        self.voter = SettleVoter(self.settings)
        self.reader = reader
        self._prev: np.ndarray | None = None
        self._anchor: np.ndarray | None = None  # the thumbnail still frames are compared with (see feed)
        self.latest: Detections = Detections.empty()  # the last reading, for the overlay

    @property
    def state(self) -> LiveState:
        return self.voter.state

    def _thumb(self, frame_bgr: np.ndarray) -> np.ndarray:
        s = self.settings
        h, w = frame_bgr.shape[:2]
        thumb_h = max(1, round(h * s.thumb_width / w))
        gray = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        return cv2.GaussianBlur(cv2.resize(gray, (s.thumb_width, thumb_h), interpolation=cv2.INTER_AREA), (3, 3), 0)

    def _share(self, small: np.ndarray, other: np.ndarray | None) -> float:
        if other is None or other.shape != small.shape:
            return 1.0
        return float((cv2.absdiff(small, other) > self.settings.motion_level).mean())

    def _drift(self, small: np.ndarray) -> tuple[float, bool]:
        """Change since the anchor: the share of changed pixels, and whether some die-sized window holds at
        least ``change_pixels`` of them (a local change too small to count in the share)."""
        s, anchor = self.settings, self._anchor
        if anchor is None or anchor.shape != small.shape:
            return 0.0, False
        changed = (cv2.absdiff(small, anchor) > s.motion_level).astype(np.uint8)
        share = float(changed.mean())
        if s.change_pixels <= 0 or share * changed.size < s.change_pixels:
            return share, False
        win = max(3, round(s.thumb_width / 16))
        counts = cv2.boxFilter(changed, cv2.CV_16U, (win, win), normalize=False, borderType=cv2.BORDER_CONSTANT)
        return share, int(counts.max()) >= s.change_pixels

    def feed(self, frame_bgr: np.ndarray, t: float) -> Roll | None:
        """Process one frame taken at time ``t``; returns a roll once per settle."""
        s = self.settings
        small = self._thumb(frame_bgr)
        prev, self._prev = self._prev, small
        drift, local = self._drift(small)
        settled = self.voter.state == SETTLED
        moving = self._share(small, prev) > s.motion_pixels or drift > s.motion_pixels or (local and not settled)
        if moving:
            self._anchor = None
        elif self._anchor is None or self._anchor.shape != small.shape:
            self._anchor = small  # the still period starts here: later frames must stay close to this one
        det = None
        if not moving and self.voter.wants_reading(t, changed=local):
            det = self.reader(frame_bgr)
            self.latest = det
        was = self.voter.state
        # With local changes not looked for (change_pixels 0), the re-reads alone decide, as configured.
        roll = self.voter.update(t, moving, det, changed=local or s.change_pixels <= 0)
        if det is not None and (
            (self.voter.state == SETTLED and (roll is not None or not self.voter.pending))
            or (was == SETTLED and self.voter.state == READING)
        ):
            # The roll was read from this frame, a re-read found the same dice, or re-reads that found other dice
            # start a new vote: from here on, changes are measured from this frame.
            self._anchor = small
        return roll
