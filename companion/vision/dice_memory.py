"""The table's own dice, remembered (issue #20): a reader that learns from the player's corrections.

The networks learned from three development sets and renders; a family's dice may be a kind they never saw
(neon marbled dice whose veins look like pips, dice with pips in a printed ring), and then the face classifiers
call real dice "no die" or read spots of the table as dice, roll after roll. Every roll the player checks and
uses on the dice screen says what the dice on *this* table look like: each die used (with its face), each die
added where the camera missed it, and each spot removed as "not a die". :class:`DiceMemory` keeps those views
as the first face classifier sees them (``FEATURES_PATH``: that classifier with its last layer taken off, a
64-number description of a crop; ``features``), and the reader (``learned.read_found``) asks it about every
candidate: the ``memory_k`` remembered views most like it vote "no die" or a face, and where the nearest is at
least ``memory_near`` alike (cosine, about the memory's mean), the vote is mixed into the classifiers' reading
(``adjust``; ``ReaderSettings.memory_*``). A memory of fewer than ``memory_min`` views is not asked.

Measured on the leave-one-set-out folds with 20 photos of the left-out set checked as a player would
(``tools/dicetrain/loso.py --memory-shots 20``; docs/dice-reader.md, "seventeenth session").

The memory is a value (frozen arrays): the dice screen makes a new one with each used roll and the camera
thread reads whichever it was handed. It is kept per camera and resolution as JSON by
:class:`MemoryStore` (atomic writes; a broken, foreign or stale file is a message and an empty memory, never a
traceback). Standard library, numpy and the reader's networks only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from calibration.store import atomic_write
from companion.vision.detections import Detections
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings
from companion.vision.table_look import LookError, TableLook

log = logging.getLogger(__name__)

FEATURES_PATH = Path(__file__).parent / "models" / "dice_faces_features.onnx"  # dice_faces_stitched.onnx, its
# last layer taken off (tools/dicetrain/features_net.py makes it)
SCHEMA = 1
NOT_A_DIE = 0  # the value a remembered spot that is no die carries
MAX_FILE_BYTES = 4_000_000  # a memory file bigger than this is not read (a full memory is ~250 KB)
TOO_BIG, UNREADABLE, STALE = "too big", "unreadable", "stale"  # why a kept memory was not used (MemoryStore.load)


class DiceMemoryError(ValueError):
    """A memory file that cannot be read or written; the message says why in a sentence."""


def fingerprint(path: Path | None = None) -> str:
    """What names the features network (its file's SHA-256, 16 hex digits): views made by another one are
    not comparable and are not used. "" when the file cannot be read."""
    try:
        return hashlib.sha256((path or FEATURES_PATH).read_bytes()).hexdigest()[:16]
    except OSError:
        return ""


def features(
    frame_bgr: np.ndarray, boxes: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS, turns: int = 1
) -> np.ndarray:
    """The first face classifier's description of each box's crop, (N * turns, D) float32 (the crops the
    classifiers read, ``crops.die_crops``); with ``turns`` 2-4, also of each crop turned a quarter, a half and
    three quarters (all of the first turn's crops, then the second's...). Raises ``FileNotFoundError`` /
    ``ModelLoadError`` as the reader's networks do."""
    from companion.vision.crops import die_crops
    from companion.vision.learned import run_batched
    from companion.vision.networks import load_net

    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(boxes):
        return np.zeros((0, 0), np.float32)
    net = load_net(str(FEATURES_PATH), True)
    crops = die_crops(frame_bgr, boxes)
    if turns > 1:
        crops = np.concatenate([np.ascontiguousarray(np.rot90(crops, k, axes=(2, 3))) for k in range(turns)])
    out = run_batched(net, crops, settings.crop_batch)
    return np.asarray(out, np.float32).reshape(len(crops), -1)


def _unit(x: np.ndarray) -> np.ndarray:
    out: np.ndarray = x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)
    return out


@dataclass(frozen=True, eq=False)
class DiceMemory:
    """Remembered views of this table's dice: ``features`` (N, D) float32 and ``values`` (N,) int (1-6 a die
    showing that face, 0 a spot that is no die), oldest first; ``network``: the fingerprint of the features
    network that made them."""

    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    values: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int8))
    network: str = ""
    look: TableLook = field(default_factory=TableLook)  # the face classifiers' adaptation to the table (table_look)

    def __post_init__(self) -> None:
        if len(self.features) != len(self.values):
            raise DiceMemoryError(f"{len(self.features)} views but {len(self.values)} values")

    def __len__(self) -> int:
        return len(self.values)

    @property
    def dice(self) -> int:
        """How many remembered views are dice (the rest are spots that are no die)."""
        return int((self.values != NOT_A_DIE).sum())

    def with_views(self, feats: np.ndarray, values: list[int] | np.ndarray, cap: int) -> DiceMemory:
        """A new memory with these views added (each value 0-6); beyond ``cap`` views the oldest go."""
        feats = np.asarray(feats, np.float32)
        vals = np.asarray(values, np.int8).reshape(-1)
        if not len(vals):
            return self
        if feats.ndim != 2 or len(feats) != len(vals):
            raise DiceMemoryError(f"{len(vals)} values for features of shape {feats.shape}")
        if ((vals < 0) | (vals > 6)).any():
            raise DiceMemoryError("a remembered value is 0 (no die) or a face 1-6")
        if len(self) and feats.shape[1] != self.features.shape[1]:
            raise DiceMemoryError(f"views of {feats.shape[1]} numbers cannot join views of {self.features.shape[1]}")
        all_feats = np.concatenate([self.features, feats]) if len(self) else feats
        all_vals = np.concatenate([self.values, vals])
        return DiceMemory(all_feats[-cap:].copy(), all_vals[-cap:].copy(), self.network, self.look)

    def vote(self, feats: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS) -> tuple[np.ndarray, np.ndarray]:
        """Per view in ``feats``: the share of its ``memory_k`` most alike remembered views for no die and for
        each face, (N, 7), and how alike the nearest is (cosine about the memory's mean), (N,)."""
        n = len(feats)
        q = np.zeros((n, 7), np.float32)
        if not n or not len(self):
            return q, np.full(n, -1.0, np.float32)
        centre = self.features.mean(axis=0)
        sims = _unit(np.asarray(feats, np.float32) - centre) @ _unit(self.features - centre).T
        k = min(settings.memory_k, len(self))
        nearest = np.argsort(-sims, axis=1)[:, :k]
        for i in range(n):
            np.add.at(q[i], self.values[nearest[i]].astype(np.int64), 1.0 / k)
        return q, sims[np.arange(n), nearest[:, 0]].astype(np.float32)

    def adjust(self, p: np.ndarray, feats: np.ndarray, settings: ReaderSettings = DEFAULT_SETTINGS) -> np.ndarray:
        """The classifiers' reading ``p`` (N, 7: no die, faces 1-6) with the memory's vote mixed in where a
        remembered view is at least ``memory_near`` alike: the die probability becomes the ``memory_weight``
        mix of theirs and the memory's; the face keeps the classifiers' shares unless they give none
        ``memory_unsure`` of the die, then half of it is the memory's. Unchanged with fewer than
        ``memory_min`` views. Returns a new array."""
        if len(self) < settings.memory_min or not len(p) or feats.shape[1:] != self.features.shape[1:]:
            return p
        q, nearest = self.vote(feats, settings)
        near = nearest >= settings.memory_near
        if not near.any():
            return p
        w = settings.memory_weight
        die = (1 - w) * (1.0 - p[:, 0]) + w * (1.0 - q[:, 0])
        share = p[:, 1:] / np.maximum(p[:, 1:].sum(axis=1, keepdims=True), 1e-9)
        faces = q[:, 1:] / np.maximum(q[:, 1:].sum(axis=1, keepdims=True), 1e-9)
        unsure = (share.max(axis=1, keepdims=True) < settings.memory_unsure) & (q[:, 1:].sum(axis=1, keepdims=True) > 0)
        share = np.where(unsure, 0.5 * share + 0.5 * faces, share)
        mixed = np.concatenate([1.0 - die[:, None], share * die[:, None]], axis=1).astype(p.dtype)
        out = p.copy()
        out[near] = mixed[near]
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-ready: the network's fingerprint and each view as its value and numbers (4 decimals)."""
        return {
            "schema": SCHEMA,
            "network": self.network,
            "look": self.look.to_json() if self.look.crops else None,
            "views": [
                {"value": int(v), "f": [round(float(x), 4) for x in f]}
                for v, f in zip(self.values, self.features, strict=True)
            ],
        }

    @classmethod
    def from_json(cls, data: Any) -> DiceMemory:
        """The memory ``to_json`` wrote; :class:`DiceMemoryError` with a sentence when it is not one."""
        if not isinstance(data, dict) or data.get("schema") != SCHEMA or not isinstance(data.get("views"), list):
            raise DiceMemoryError("not a dice memory of this version")
        views = data["views"]
        try:
            look = TableLook.from_json(data.get("look"))
        except LookError as err:
            raise DiceMemoryError(str(err)) from None
        memory = cls(network=str(data.get("network", "")), look=look)
        if not views:
            return memory
        try:
            vals = np.array([int(v["value"]) for v in views], np.int8)
            feats = np.array([[float(x) for x in v["f"]] for v in views], np.float32).reshape(len(views), -1)
        except (KeyError, TypeError, ValueError, OverflowError) as err:
            raise DiceMemoryError(f"a remembered view is damaged ({err})") from None
        if not np.isfinite(feats).all():
            raise DiceMemoryError("a remembered view is damaged (not a number)")
        return memory.with_views(feats, vals, len(vals))


def learn(
    memory: DiceMemory,
    frame_bgr: np.ndarray,
    boxes: np.ndarray | list[tuple[int, int, int, int]],
    values: list[int],
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> DiceMemory:
    """``memory`` with the views of a checked roll added: each of ``boxes`` (frame pixels, as the reader read
    the frame) with its value, 1-6 a die used with that face, 0 a spot the player said is no die. The features
    network's errors are raised (the caller keeps the memory it had)."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(boxes):
        return memory
    turns = max(1, min(4, settings.memory_turns))
    feats = features(frame_bgr, boxes, settings, turns)
    return memory.with_views(feats, list(values) * turns, settings.memory_cap)


def learn_look(
    memory: DiceMemory,
    frame_bgr: np.ndarray,
    checked: np.ndarray | Sequence[Sequence[float]],
    values: Sequence[int],
    settings: ReaderSettings = DEFAULT_SETTINGS,
    boxes: np.ndarray | None = None,
) -> DiceMemory:
    """``memory`` with a checked roll's frame added to the table's look (``table_look.learn``): the crops of its
    candidate spots, the detector's finds (or ``boxes``, frame pixels), as the reader sees them; those whose
    centre lies in a box of ``checked`` (frame pixels) whose value in ``values`` is a face (the dice the player
    used) count as dice, the rest as other spots. First, where the look as it stands can be used
    (``TableLook.usable``), the checked roll is its trial (``try_look``, reading with ``memory``'s remembered dice:
    pass the memory as it was before this roll's views were added by ``learn``). The networks' errors and
    ``LookError`` are raised (the caller keeps the memory)."""
    from companion.vision import learned
    from companion.vision.crops import die_crops
    from companion.vision.table_look import centres_in
    from companion.vision.table_look import learn as learn_table

    c = np.asarray(checked, np.float32).reshape(-1, 4)
    look = try_look(memory.look, frame_bgr, c, values, settings, memory)  # a value missing: DiceMemoryError
    if boxes is None:
        boxes = learned.find_at_the_right_scale(frame_bgr, settings).boxes
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    if not len(b):
        return replace(memory, look=look)
    used = c[np.asarray(values, np.int64).reshape(-1) != NOT_A_DIE] if len(c) else c
    crops = die_crops(frame_bgr, b)
    return replace(memory, look=learn_table(look, crops, centres_in(b, used), learned.look_paths(), settings))


def try_look(
    look: TableLook,
    frame_bgr: np.ndarray,
    checked: np.ndarray | Sequence[Sequence[float]],
    values: Sequence[int],
    settings: ReaderSettings = DEFAULT_SETTINGS,
    memory: DiceMemory | None = None,
) -> TableLook:
    """``look`` with a checked roll in its trial (``TableLook.tried``): the frame read by the whole reader
    (``learned.read_dice_learned``: its finds, second looks, memory vote, second opinions, verifier and last
    steps) once with the face classifiers as trained and once adapted to ``look``, each reading scored against the
    checked roll by the scoring rule (``trial_marks``). ``memory``: the table's remembered dice both readings ask
    (the memory before this roll; none by default). Only where the look can be used (``TableLook.usable``); the
    reader reads adapted only while the trial says it reads better (``TableLook.ready``)."""
    from companion.vision import learned
    from companion.vision.table_look import adapted as adapted_net
    from companion.vision.table_look import forced

    b = np.asarray(checked, np.float32).reshape(-1, 4)
    v = np.asarray(values, np.int64).reshape(-1)
    if len(v) != len(b):
        raise DiceMemoryError(f"{len(b)} checked boxes but {len(v)} values")
    if not look.usable(settings) or not len(b):
        return look
    if all(adapted_net(path, look, settings) is None for path in learned.look_paths()):
        return look  # a table like a training set's (look_far): the classifiers read it as trained, nothing to try
    with_look = replace(memory, look=look) if memory is not None else DiceMemory(look=look)
    as_trained = learned.read_dice_learned(frame_bgr, replace(settings, look=False), with_look)
    as_adapted = learned.read_dice_learned(frame_bgr, forced(settings), with_look)  # whatever the trial says so far
    trained, adapted = trial_marks(b, v, as_trained, as_adapted)
    return look.tried(trained, adapted, settings.look_trial)


def trial_marks(
    checked: np.ndarray, values: np.ndarray, first: Detections, second: Detections
) -> tuple[list[bool], list[bool]]:
    """Two readings of a checked roll, scored against it as ``companion dice eval`` scores (``scoring.match``):
    per die of the roll (``values`` 1-6; a spot said to be no die, 0, is no die to find), whether each reading has
    it with its face; then, for the false dice (readings matched to no die of the roll, on a spot said to be no die
    or anywhere else), one mark per false die that one reading has more of than the other, against that reading."""
    from companion.vision.dataset import predictions
    from companion.vision.scoring import Label, match

    dice = [
        Label(int(value), (float(x0), float(y0), float(x1), float(y1)))
        for (x0, y0, x1, y1), value in zip(checked.tolist(), values.tolist(), strict=True)
        if value != NOT_A_DIE
    ]

    def marks(read: Detections) -> tuple[list[bool], int]:
        said = predictions(read)  # its pip dice, as the scorer takes them
        pairs = match(dice, said)
        right = [False] * len(dice)
        for li, pi in pairs:
            right[li] = dice[li].value == said[pi].value
        return right, len(said) - len(pairs)

    right_1, false_1 = marks(first)
    right_2, false_2 = marks(second)
    extra = false_2 - false_1  # > 0: the second reading's false dice more, each a mark the first won
    return right_1 + [extra > 0] * abs(extra), right_2 + [extra < 0] * abs(extra)


class MemoryStore:
    """One memory file per camera and resolution under ``folder`` (the app passes
    ``<calibration dir>/dice-memory``): ``<camera>@<W>x<H>.json``."""

    def __init__(self, folder: Path | str) -> None:
        self.folder = Path(folder)

    def path(self, camera_key: str) -> Path:
        safe = "".join(c if c.isalnum() or c in "@x-_." else "-" for c in camera_key)[:120] or "camera"
        return self.folder / f"{safe}.json"

    def load(self, camera_key: str, network: str) -> tuple[DiceMemory, str | None]:
        """The memory kept for ``camera_key`` and why it was not used (None when all is well): a missing file is
        an empty memory and no problem; a file too big to be one (``TOO_BIG``), a broken one (``UNREADABLE``)
        or one made by another features network than ``network`` (``STALE``) is an empty memory and that word,
        for the screen to say in the player's language."""
        path = self.path(camera_key)
        empty = DiceMemory(network=network)
        try:
            if path.stat().st_size > MAX_FILE_BYTES:
                return empty, TOO_BIG
            memory = DiceMemory.from_json(json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            return empty, None
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, DiceMemoryError, RecursionError) as err:
            log.warning("dice memory %s not read: %s", path, err)
            return empty, UNREADABLE
        if memory.network != network:
            return empty, STALE
        return memory, None

    def save(self, camera_key: str, memory: DiceMemory) -> Path:
        """Write the memory atomically; :class:`DiceMemoryError` with the system's reason (a full or read-only
        card)."""
        path = self.path(camera_key)
        try:
            atomic_write(path, json.dumps(memory.to_json(), separators=(",", ":")).encode("utf-8"))
        except OSError as err:
            raise DiceMemoryError(str(err.strerror or err)) from None
        return path

    def forget(self, camera_key: str) -> None:
        """Remove the memory kept for ``camera_key`` (nothing to remove is no error)."""
        try:
            self.path(camera_key).unlink(missing_ok=True)
        except OSError as err:
            raise DiceMemoryError(str(err.strerror or err)) from None


class MemoryKeeper:
    """The app's memories of its tables' dice, one per camera and resolution (``key``: ``<camera>@<W>x<H>``):
    each loaded from ``store`` once (why one was not used is kept for the screen to say, ``take_problem``), read
    by the camera thread (``get``), learned into and saved by the dice screen (``learn``), forgotten on the
    player's word (``forget``). Thread-safe: a memory is a value, swapped whole under a lock. The table's look
    (``learn_look``: the trial's two readings of the frame and a detector pass, a second or two on a Pi) is learned
    in a background thread, one roll at a time; ``settle`` waits for it."""

    def __init__(self, store: MemoryStore, network: str | None = None) -> None:
        self.store = store
        self._network = network
        self._memories: dict[str, DiceMemory] = {}
        self.problems: dict[str, str] = {}
        self._lock = threading.Lock()
        self._save_lock = threading.Lock()
        self._look_lock = threading.Lock()
        self._generation: dict[str, int] = {}  # forget() starts a new one: a look learned before is not kept
        self._jobs: list[threading.Thread] = []

    @property
    def network(self) -> str:
        if self._network is None:
            self._network = fingerprint()
        return self._network

    def get(self, key: str) -> DiceMemory:
        """The memory for ``key`` (loaded on first use)."""
        with self._lock:
            memory = self._memories.get(key)
            if memory is None:
                memory, problem = self.store.load(key, self.network)
                self._memories[key] = memory
                if problem is not None:
                    self.problems[key] = problem
            return memory

    def take_problem(self, key: str) -> str | None:
        """Why ``key``'s kept memory was not used (``TOO_BIG``, ``UNREADABLE``, ``STALE``), once; else None."""
        with self._lock:
            return self.problems.pop(key, None)

    def learn(
        self,
        key: str,
        frame_bgr: np.ndarray,
        boxes: list[tuple[int, int, int, int]],
        values: list[int],
        profile: Any = None,
        look: bool | None = None,
    ) -> DiceMemory:
        """Add a checked roll (``pipeline.remember``: boxes in frame pixels, each with its value, 0 not a die,
        read as ``profile`` reads) and save; with ``look`` (default: ``profile``'s settings' ``look``, off as
        shipped), the roll is first the look's trial and then learned into it, in the background. The memory is
        kept even when the file cannot be written: then :class:`DiceMemoryError` says why (the network's own
        errors are raised as the reader raises them)."""
        from companion.vision.pipeline import DEFAULT_PROFILE, remember

        before = self.get(key)  # the look's trial reads with the memory as it was before this roll
        memory = remember(before, frame_bgr, boxes, values, profile)
        with self._lock:
            self._memories[key] = memory
            generation = self._generation.get(key, 0)
        if look is None:
            look = (profile or DEFAULT_PROFILE).learned.look
        if look:
            job = threading.Thread(
                target=self._learn_look,
                args=(key, frame_bgr.copy(), list(boxes), list(values), profile, generation, before),
                name="dice-look",
                daemon=True,
            )
            with self._lock:
                self._jobs = [j for j in self._jobs if j.is_alive()] + [job]
            job.start()
        self._save(key)
        return memory

    def _save(self, key: str) -> None:
        with self._save_lock:  # whoever saves last writes the latest memory
            with self._lock:
                memory = self._memories.get(key)
            if memory is not None:
                self.store.save(key, memory)

    def _learn_look(
        self,
        key: str,
        frame_bgr: np.ndarray,
        boxes: list[Any],
        values: list[int],
        profile: Any,
        generation: int,
        before: DiceMemory,
    ) -> None:
        from companion.vision.pipeline import remember_look

        with self._look_lock:
            try:  # the remembered dice from before this roll, the look as the rolls before it left it
                learned = remember_look(replace(before, look=self.get(key).look), frame_bgr, boxes, values, profile)
            except Exception as err:  # a network or statistics file that cannot be used: the look stays as it was
                log.error("the table's look was not learned from this roll: %s", err)
                return
            with self._lock:
                if self._generation.get(key, 0) != generation:
                    return  # forgotten meanwhile
                self._memories[key] = replace(self._memories.get(key, learned), look=learned.look)
            try:
                self._save(key)
            except DiceMemoryError as err:
                log.warning("the table's look is kept until the app stops: %s", err)

    def settle(self, timeout: float | None = None) -> None:
        """Wait for the looks being learned (tests, and the app before it stops)."""
        with self._lock:
            jobs = list(self._jobs)
        for job in jobs:
            job.join(timeout)

    def forget(self, key: str) -> None:
        """Forget the table's dice and look for ``key``: an empty memory now, its file removed
        (``DiceMemoryError``)."""
        with self._lock:
            self._memories[key] = DiceMemory(network=self.network)
            self._generation[key] = self._generation.get(key, 0) + 1
            self.problems.pop(key, None)
        self.store.forget(key)
