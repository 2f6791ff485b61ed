"""The per-die kind stage: given dice boxes in a frame, say which are colour dice, picture dice or unknown, using the
active calibration profile (see ``calibration``). Pip dice stay with the pip reader.

Order of decisions for one die (a die is never guessed):
1. its face matches a learned picture-die face well enough -> ``picture`` with that face (the bar is higher when
   the pip reader found pips on it, or when its ink looks like round spots);
2. else, if the pip reader found 2-6 pips on it -> ``pips`` (left as the pip reader said: a red number die stays
   a number die even though red is a calibrated colour);
3. else its top face is plain (a plain face is sometimes taken for one big pip, a "1"; a real 1 has a spot in
   the centre, so the face is not plain) and matches a learned colour -> ``colour`` with that colour name;
4. else ``pips`` if the pip reader read it, ``unknown`` if not.
Without a profile (or with one that learned neither kind) nothing changes: the pip reader's result stands and dice
it could not read are unknown, so games fall back to touch entry.

With an empty-tray reference the stage also finds dice the pip reader did not report (a plain colour face has no
pips to find) by comparing the frame with the empty tray.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.profile import Profile, ProfileError
from calibration.store import ProfileStore
from companion.vision.colour import FEATURE_FLOOR, ColourClassifier, die_feature, tray_colour
from companion.vision.detections import Detections
from companion.vision.picture import ACCEPT, ACCEPT_NO_PIPS, PictureClassifier
from companion.vision.pipeline import VisionProfile
from companion.vision.roll import COLOUR, PICTURE, PIPS, UNKNOWN
from companion.vision.tray import Blob, find_dice

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class KindRead:
    """What the kind stage says about one die: kind, face (None for pips: the pip reader's value stands),
    confidence 0-1, and whether the player should check it."""

    kind: str
    face: str | None
    confidence: float
    flagged: bool = False


class DieKinds:
    """Classifiers built from one calibration profile (and its empty-tray image, when it has one)."""

    def __init__(self, profile: Profile, empty: np.ndarray | None = None) -> None:
        self.profile = profile
        self.empty = empty
        self.tray = profile.tray.corners if profile.tray else None
        self.colour: ColourClassifier | None = None
        self.picture: PictureClassifier | None = None
        if profile.colour is not None and len(profile.colour.faces) >= 2:
            self.colour = ColourClassifier(profile.colour.faces, profile.colour.texture)
        self.picture_bodies = np.zeros((0, 3))
        if profile.picture is not None and len(profile.picture.faces) >= 2:
            self.picture = PictureClassifier.from_encoded(profile.picture.faces, profile.die_size_px)
            if profile.picture.colours:
                self.picture_bodies = np.array(profile.picture.colours, np.float64)

    @classmethod
    def load(cls, profile: Profile, folder: Path | None) -> DieKinds:
        """Build from a profile whose assets (the empty-tray PNG) live in ``folder``. A profile that has an
        empty-tray picture which is missing, damaged or of another size is refused with :class:`ProfileError`
        naming the file (without it colour and picture dice would silently go unread)."""
        empty = None
        if profile.empty_tray is not None and folder is not None:
            path = folder / profile.empty_tray.image
            image = cv2.imread(str(path), cv2.IMREAD_COLOR) if path.is_file() else None
            if image is None:
                state = "damaged" if path.is_file() else "missing"
                raise ProfileError(f"{path}: the empty-tray picture is {state}; capture the empty tray again")
            if (image.shape[1], image.shape[0]) != tuple(profile.resolution):
                raise ProfileError(
                    f"{path}: the empty-tray picture is {image.shape[1]}x{image.shape[0]}, not "
                    f"{profile.resolution[0]}x{profile.resolution[1]}; capture the empty tray again"
                )
            empty = image
        return cls(profile, empty)

    @property
    def kinds(self) -> list[str]:
        """The kinds this stage can recognise."""
        return [k for k, c in ((COLOUR, self.colour), (PICTURE, self.picture)) if c is not None]

    def tray_now(self, frame: np.ndarray, boxes: Sequence[Box]) -> np.ndarray:
        """The tray's colour in this frame, away from the dice (the colour reference for this frame)."""
        return tray_colour(frame, boxes, self.tray)

    def classify(self, frame: np.ndarray, box: Box, tray_bgr: np.ndarray, pips: int = 0) -> KindRead:
        """Decide one die's kind and face (see the module docstring for the order); ``pips`` is what the pip
        reader read on it (0: nothing)."""
        has_pips = pips > 0
        if self.picture is not None:
            match = self.picture.classify(frame, box, ACCEPT if has_pips else ACCEPT_NO_PIPS)
            if match.face is not None and not self._colour_die_after_all(frame, box, tray_bgr):
                return KindRead(PICTURE, match.face, match.confidence, match.flagged)
        if has_pips and not (pips == 1 and self.colour is not None):
            return KindRead(PIPS, None, 1.0)  # pips on it: a number die, whatever its body colour
        if self.colour is not None:
            cmatch = self.colour.classify(frame, box, tray_bgr)
            if cmatch.face is not None:
                return KindRead(COLOUR, cmatch.face, cmatch.confidence, cmatch.flagged)
        if has_pips:  # a "1" whose centre is not plain: a real spot, so a number die
            return KindRead(PIPS, None, 1.0)
        return KindRead(UNKNOWN, None, 0.0, True)

    def _colour_die_after_all(self, frame: np.ndarray, box: Box, tray_bgr: np.ndarray) -> bool:
        """A face that matched an icon, but whose colours match a colour face better than the picture die's own
        colours (learned while calibrating it): a colour die with a round mark, not the picture die."""
        if self.colour is None or not len(self.picture_bodies):
            return False
        cmatch = self.colour.classify(frame, box, tray_bgr)
        if cmatch.face is None:
            return False
        feature, _texture = die_feature(frame, box, tray_bgr)
        body = float(np.sqrt((((self.picture_bodies - feature) / (FEATURE_FLOOR * 1.5)) ** 2).sum(axis=1)).min())
        return cmatch.distance < body

    def blobs(self, frame: np.ndarray) -> list[Blob]:
        """Die-sized changes from the empty tray (nothing without an empty-tray reference of this size)."""
        if self.empty is None or frame.shape != self.empty.shape:
            return []
        return find_dice(frame, self.empty, self.tray, self.profile.die_size_px)

    def extra_dice(self, frame: np.ndarray, known: Sequence[Box]) -> list[Box]:
        """Dice-sized changes from the empty tray that no known box covers (dice the pip reader did not report)."""
        blobs = self.blobs(frame)
        held = {_holding(box, [b.box for b in blobs]) for box in known}
        return [b.box for j, b in enumerate(blobs) if j not in held]

    def read(self, frame: np.ndarray, boxes: Sequence[Box] | None = None) -> list[tuple[Box, KindRead]]:
        """Classify the given dice boxes (or, when None, every die found against the empty tray)."""
        targets = list(boxes) if boxes is not None else self.extra_dice(frame, [])
        tray_bgr = self.tray_now(frame, targets)
        return [(box, self.classify(frame, box, tray_bgr)) for box in targets]


class KindStage:
    """The pipeline's per-die classifier stage (``companion.vision.pipeline.DieClassifier``) for colour and
    picture dice: relabels the dice it recognises, adds dice the pip reader missed (found against the empty tray),
    and marks unread dice it cannot place as unknown."""

    def __init__(self, kinds: DieKinds) -> None:
        self.kinds = kinds

    def __call__(self, frame_bgr: np.ndarray, detections: Detections) -> Detections:
        known: list[Box] = [(int(b[0]), int(b[1]), int(b[2]), int(b[3])) for b in detections.boxes]
        blobs = self.kinds.blobs(frame_bgr)
        single = (self.kinds.profile.die_size_px or 0.0) ** 2 * 1.5
        # the die outline (from the empty tray) holding each detection: a better face box than a pip group's
        holders = [_holding(box, [b.box for b in blobs]) for box in known]
        outline = [j if j is not None and (not single or blobs[j].area <= single) else None for j in holders]
        extra = [b.box for j, b in enumerate(blobs) if j not in set(holders)]
        boxes = known + extra
        if not boxes:
            return detections
        tray_bgr = self.kinds.tray_now(frame_bgr, boxes)
        n_old = len(detections)
        values = [int(v) for v in detections.values] + [0] * len(extra)
        confidences = [float(c) for c in detections.confidences] + [0.0] * len(extra)
        kinds = list(detections.kinds) + [UNKNOWN] * len(extra)
        faces: list[int | str | None] = list(detections.faces) + [None] * len(extra)
        flagged = [bool(f) for f in detections.flagged] + [False] * len(extra)
        keep = [True] * len(boxes)
        named: set[int] = set()  # outlines already read as a colour or picture die
        for i, box in enumerate(boxes):
            if i < n_old and kinds[i] != PIPS:
                continue  # an earlier stage already named this die
            j = outline[i] if i < n_old else None
            face_box = blobs[j].box if j is not None else box
            read = self.kinds.classify(frame_bgr, face_box, tray_bgr, pips=values[i])
            if read.kind == PIPS:
                continue
            if j is not None and j in named:
                keep[i] = False  # a second pip group on the same picture/colour die
                continue
            if j is not None and read.kind != UNKNOWN:
                named.add(j)
            boxes[i] = face_box
            kinds[i], faces[i] = read.kind, read.face
            values[i] = 0
            confidences[i], flagged[i] = read.confidence, read.flagged
        data = {k: np.concatenate([v, np.zeros(len(extra), dtype=v.dtype)]) for k, v in detections.data.items()}
        result = Detections.from_lists(
            [list(b) for b in boxes], values, confidences, kinds=kinds, faces=faces, data=data, flagged=flagged
        )
        return result[np.array(keep, dtype=bool)]


def _holding(box: Box, others: Sequence[Box]) -> int | None:
    """Index of the smallest box in ``others`` that holds ``box``'s centre (None if none does)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    best, best_area = None, float("inf")
    for i, (x0, y0, x1, y1) in enumerate(others):
        area = (x1 - x0) * (y1 - y0)
        if x0 <= cx <= x1 and y0 <= cy <= y1 and area < best_area:
            best, best_area = i, area
    return best


def vision_profile(profile: Profile, folder: Path | None) -> VisionProfile:
    """The dice reader's settings from a calibration profile: tray area, empty-tray reference and the kind stage."""
    kinds = DieKinds.load(profile, folder)
    stages: tuple[KindStage, ...] = (KindStage(kinds),) if kinds.kinds else ()
    return VisionProfile(tray_quad=kinds.tray, reference_bgr=kinds.empty, classifiers=stages)


@dataclass(frozen=True)
class ReaderCalibration:
    """What the dice reader is calibrated with: its settings from a profile (None: uncalibrated), a line saying
    which profile or why none, and whether a profile was chosen but cannot be used (``broken``: the players are
    told; simply not being calibrated is not broken)."""

    profile: VisionProfile | None
    message: str
    broken: bool = False


def active_vision_profile(
    resolution: tuple[int, int], camera: str | None = None, *, base_dir: Path
) -> ReaderCalibration:
    """The reader settings from the active calibration (profiles kept under ``base_dir``) for a camera at a
    resolution (for images of unknown origin, ``camera=None``: the one active profile made at that resolution).
    Never raises."""
    store = ProfileStore(base_dir)
    if camera is None:
        try:
            entries = store.entries()
        except (OSError, ValueError) as exc:
            return ReaderCalibration(None, f"cannot list calibration profiles: {exc}; using no calibration", True)
        broken_choice = [e for e in entries if e.path.name == "active.json" and e.problem]
        if broken_choice:
            return ReaderCalibration(None, f"{broken_choice[0].problem}; using no calibration", True)
        matches = [e for e in entries if e.active and tuple(e.resolution) == tuple(resolution)]
        if len(matches) != 1:
            why = "none" if not matches else "several (pick one with --camera)"
            return ReaderCalibration(None, f"no calibration: {why} active for {resolution[0]}x{resolution[1]}")
        camera = matches[0].camera
    active = store.active(camera, resolution)
    if active.profile is None:
        return ReaderCalibration(None, active.message, active.broken)
    try:
        return ReaderCalibration(vision_profile(active.profile, store.folder(camera, resolution)), active.message)
    except ProfileError as exc:  # the empty-tray picture (the message names it)
        return ReaderCalibration(None, f"{exc}; using no calibration", True)
    except ValueError as exc:  # a template that does not decode
        return ReaderCalibration(None, f"{active.path}: {exc}; using no calibration", True)


def calibration_for_images(
    resolution: tuple[int, int], name: str = "active", camera: str | None = None, *, base_dir: Path
) -> ReaderCalibration:
    """For ``companion dice read --calibration NAME|active``: the reader settings from a named (or the active)
    profile made at the images' resolution, for ``camera`` or, when None, the only camera that has one."""
    if name == "active":
        return active_vision_profile(resolution, camera, base_dir=base_dir)
    store = ProfileStore(base_dir)
    matches = [
        e
        for e in store.entries()
        if e.problem is None
        and tuple(e.resolution) == tuple(resolution)
        and (camera is None or e.camera == camera)
        and e.name.strip().lower() == name.strip().lower()
    ]
    if len(matches) != 1:
        why = "no" if not matches else "more than one (pick one with --camera)"
        return ReaderCalibration(None, f"{why} profile {name!r} made at {resolution[0]}x{resolution[1]}")
    entry = matches[0]
    try:
        profile = store.load_file(entry.path)
        message = f"calibration profile '{profile.name}' for {profile.key}"
        return ReaderCalibration(vision_profile(profile, entry.path.parent), message)
    except (ProfileError, ValueError) as exc:
        return ReaderCalibration(None, f"{exc}; using no calibration", True)
