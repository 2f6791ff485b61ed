"""The calibration walk-through as plain logic, shared by the touch wizard and ``companion calibrate``.

Steps, in order (each screen or prompt drives one): camera check -> tray area -> empty tray -> colour faces ->
picture faces -> verify -> save. Frames go in, measurements and captures come out; nothing here draws or waits.
A wizard may start from an existing profile: whatever is not captured again is kept, so recalibrating one die kind
keeps the others (and the tray, the empty tray) as they were.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np
import numpy.typing as npt

from calibration.profile import (
    DEFAULT_COLOUR_FACES,
    DEFAULT_PICTURE_FACES,
    ColourCalibration,
    EmptyTray,
    PictureCalibration,
    Profile,
    TrayArea,
    now_iso,
)
from calibration.store import ProfileStore
from calibration.tray import Blob, Exposure, find_dice, find_tray_markers, measure_exposure, median_colour, order_quad
from calibration.verify import Verification
from companion.vision.colour import die_feature, tray_colour
from companion.vision.dice_kinds import DieKinds
from companion.vision.picture import encode_patch, face_patch

Image = npt.NDArray[np.uint8]
Box = tuple[int, int, int, int]

STEPS: tuple[str, ...] = ("camera", "tray", "empty", "colour", "picture", "verify", "save")
"""The wizard's steps in order; "colour" and "picture" may be skipped (their old data is then kept)."""

STEP_TITLES = {
    "camera": "Camera check",
    "tray": "Tray area",
    "empty": "Empty tray",
    "colour": "Colour dice",
    "picture": "Picture die",
    "verify": "Verify",
    "save": "Save profile",
}


class WizardError(ValueError):
    """A step cannot go on; the message tells the player what to do."""


@dataclass(frozen=True)
class FaceCapture:
    """The outcome of one capture: the dice it used (boxes) and a line for the player."""

    ok: bool
    message: str
    boxes: tuple[Box, ...] = ()


@dataclass
class FaceTask:
    """Capturing one die kind: its face names, captures wanted per face, and what was captured so far."""

    kind: str
    faces: list[str]
    per_face: int
    done: dict[str, int] = field(default_factory=dict)
    samples: dict[str, list[list[float]]] = field(default_factory=dict)
    patches: dict[str, list[Image]] = field(default_factory=dict)
    texture: float = 0.0
    sides: list[float] = field(default_factory=list)
    bodies: list[list[float]] = field(default_factory=list)

    @property
    def current(self) -> str | None:
        """The face to show next, or None when every face has its captures."""
        for face in self.faces:
            if self.done.get(face, 0) < self.per_face:
                return face
        return None

    @property
    def progress(self) -> float:
        """Share of this kind's captures done (0-1)."""
        total = len(self.faces) * self.per_face
        return sum(min(self.per_face, n) for n in self.done.values()) / total if total else 1.0


class Wizard:
    """One calibration session for one camera at one resolution."""

    def __init__(
        self,
        camera: str,
        resolution: tuple[int, int],
        base: Profile | None = None,
        empty_image: Image | None = None,
        colour_faces: Sequence[str] = DEFAULT_COLOUR_FACES,
        picture_faces: Sequence[str] = DEFAULT_PICTURE_FACES,
        captures_per_face: int = 3,
    ) -> None:
        if base is not None and (base.camera, tuple(base.resolution)) != (camera, tuple(resolution)):
            raise WizardError(f"profile '{base.name}' is for {base.key}, not this camera")
        self.profile = base or Profile(name="", camera=camera, resolution=(int(resolution[0]), int(resolution[1])))
        self.empty_image = empty_image
        self.colour = FaceTask("colour", list(colour_faces), captures_per_face)
        self.picture = FaceTask("picture", list(picture_faces), captures_per_face)
        self._preload()
        self.step = STEPS[0]
        self.exposure: Exposure | None = None
        self.verification: Verification | None = None
        self.verifications: dict[str, Verification] = {}

    @classmethod
    def resume(
        cls, store: ProfileStore, name: str, camera: str, resolution: tuple[int, int], **kwargs: object
    ) -> Wizard:
        """Start from a saved profile (with its empty-tray image), to recalibrate part of it."""
        profile = store.load(name, camera, resolution)
        empty = None
        if profile.empty_tray is not None:
            image = cv2.imread(str(store.asset_path(profile, profile.empty_tray.image)), cv2.IMREAD_COLOR)
            if image is not None and (image.shape[1], image.shape[0]) == tuple(profile.resolution):
                empty = image
        return cls(camera, resolution, profile, empty, **kwargs)  # type: ignore[arg-type]

    # -- navigation ----------------------------------------------------------------------------------------------
    @property
    def step_index(self) -> int:
        """Position of the current step in :data:`STEPS`."""
        return STEPS.index(self.step)

    def go(self, step: str) -> None:
        """Jump to a step (the wizard's step list, or a screen's Back/Skip)."""
        if step not in STEPS:
            raise WizardError(f"no step called {step!r}")
        self.step = step

    def next(self) -> str:
        """Move on to the next step; refuses when a step's requirement is missing (with the reason)."""
        if self.step == "empty" and self.empty_image is None:
            raise WizardError("Take the empty-tray picture first: clear the tray and press Capture")
        if self.step == "save":
            return self.step
        self.step = STEPS[self.step_index + 1]
        return self.step

    def back(self) -> str:
        """Go to the previous step (stays on the first)."""
        self.step = STEPS[max(0, self.step_index - 1)]
        return self.step

    @property
    def progress(self) -> float:
        """Overall progress 0-1 for the progress bar (captures count inside their steps)."""
        base = self.step_index / (len(STEPS) - 1)
        inner = {"colour": self.colour.progress, "picture": self.picture.progress}.get(self.step, 0.0)
        return min(1.0, base + inner / (len(STEPS) - 1))

    # -- camera, tray, empty tray --------------------------------------------------------------------------------
    def check_camera(self, frame: Image) -> Exposure:
        """Measure focus and exposure on a live frame (the step never blocks: the player decides)."""
        self._check_size(frame)
        self.exposure = measure_exposure(frame)
        return self.exposure

    def find_markers(self, frame: Image) -> str:
        """Look for the four tray markers; on success the tray area is set. Returns a line for the player."""
        self._check_size(frame)
        quad, seen = find_tray_markers(frame)
        if quad is None:
            missing = [str(i) for i in range(4) if i not in seen]
            return f"Markers found: {len(seen)} of 4 (missing {', '.join(missing)}). Or tap the tray's four corners"
        self.profile.tray = TrayArea(quad, "aruco")
        return "Tray found from the 4 markers"

    def set_tray_taps(self, points: Sequence[tuple[float, float]]) -> str:
        """Set the tray area from four tapped corners (frame pixels, any order)."""
        try:
            quad = order_quad(points)
        except ValueError as exc:
            raise WizardError(str(exc)) from None
        w, h = self.profile.resolution
        if not all(-1 <= x <= w + 1 and -1 <= y <= h + 1 for x, y in quad):
            raise WizardError("a corner lies outside the picture: tap inside the live image")
        self.profile.tray = TrayArea(quad, "taps")
        return "Tray area set from your taps"

    def capture_empty(self, frame: Image) -> str:
        """Keep this frame as the empty-tray reference."""
        self._check_size(frame)
        self.empty_image = frame.copy()
        corners = self.profile.tray.corners if self.profile.tray else None
        self.profile.empty_tray = EmptyTray("", median_colour(frame, corners), now_iso())
        return "Empty tray captured"

    # -- face captures -------------------------------------------------------------------------------------------
    def task(self, kind: str) -> FaceTask:
        """The capture task of a die kind ("colour" or "picture")."""
        if kind not in ("colour", "picture"):
            raise WizardError(f"no die kind {kind!r} to calibrate")
        return self.colour if kind == "colour" else self.picture

    def find(self, frame: Image) -> list[Blob]:
        """The dice on the tray now (against the empty-tray reference)."""
        if self.empty_image is None:
            raise WizardError("Take the empty-tray picture first")
        corners = self.profile.tray.corners if self.profile.tray else None
        return find_dice(frame, self.empty_image, corners, None)

    def capture_face(self, kind: str, frame: Image) -> FaceCapture:
        """Learn the current face of a kind from every die on the tray (all showing that face)."""
        self._check_size(frame)
        task = self.task(kind)
        face = task.current
        if face is None:
            return FaceCapture(False, f"Every {kind} face is captured")
        blobs = self.find(frame)
        if not blobs:
            return FaceCapture(False, f"No die found: put the die on the tray with {face} on top")
        if kind == "picture" and len(blobs) > 1:
            return FaceCapture(False, "Put only the picture die on the tray", tuple(b.box for b in blobs))
        boxes = [b.box for b in blobs]
        if kind == "colour":
            tray_bgr = tray_colour(frame, boxes, self.profile.tray.corners if self.profile.tray else None)
            measured = [die_feature(frame, box, tray_bgr) for box in boxes]
            problem = _colour_problem(face, [f for f, _ in measured], task.samples)
            if problem:
                return FaceCapture(False, problem, tuple(boxes))
            for feature, texture in measured:
                task.samples.setdefault(face, []).append([round(float(v), 4) for v in feature])
                task.texture = max(task.texture, texture)
        else:
            side = blobs[0].side
            grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            patch = face_patch(grey, boxes[0], side)
            problem = _picture_problem(face, patch, task.patches)
            if problem:
                return FaceCapture(False, problem, tuple(boxes))
            task.patches.setdefault(face, []).append(patch)
            tray_bgr = tray_colour(frame, boxes, self.profile.tray.corners if self.profile.tray else None)
            body, _texture = die_feature(frame, boxes[0], tray_bgr)
            task.bodies.append([round(float(v), 4) for v in body])
        task.sides.extend(b.side for b in blobs)
        task.done[face] = task.done.get(face, 0) + 1
        left = task.per_face - task.done[face]
        dice = f"{len(blobs)} dice" if len(blobs) > 1 else "1 die"
        follow = f"roll it again and capture {left} more" if left else "done"
        return FaceCapture(True, f"{face}: captured {dice}; {follow}", tuple(boxes))

    def _preload(self) -> None:
        """Start each kind from what the base profile learned, so one confused face can be captured again alone."""
        colour, picture = self.profile.colour, self.profile.picture
        if colour is not None:
            for name, samples in colour.faces.items():
                if name not in self.colour.faces:
                    self.colour.faces.append(name)
                self.colour.samples[name] = [list(s) for s in samples]
                self.colour.done[name] = self.colour.per_face
            self.colour.texture = colour.texture
        if picture is not None:
            from companion.vision.picture import decode_patch

            try:
                patches = {name: [decode_patch(t) for t in items] for name, items in picture.faces.items()}
            except ValueError:
                return  # broken templates: the picture die must be captured again
            for name, items in patches.items():
                if name not in self.picture.faces:
                    self.picture.faces.append(name)
                self.picture.patches[name] = items
                self.picture.done[name] = self.picture.per_face
            self.picture.bodies = [list(c) for c in picture.colours]

    def restart_kind(self, kind: str) -> None:
        """Capture every face of a kind again (its saved data is replaced once all are captured)."""
        task = self.task(kind)
        task.done.clear()
        task.samples.clear()
        task.patches.clear()
        task.texture = 0.0
        task.sides.clear()
        task.bodies.clear()

    def redo_face(self, kind: str, face: str) -> None:
        """Forget a face's captures (after a verify showed it is confused) so it is captured again."""
        task = self.task(kind)
        task.done.pop(face, None)
        task.samples.pop(face, None)
        task.patches.pop(face, None)

    def fit(self, kind: str) -> None:
        """Put a finished kind's captures into the profile (replacing only that kind)."""
        task = self.task(kind)
        if task.current is not None:
            raise WizardError(f"Capture every {kind} face first (next: {task.current})")
        if kind == "colour":
            self.profile.colour = ColourCalibration(dict(task.samples), round(task.texture, 4), now_iso())
        else:
            faces = {name: [encode_patch(p) for p in patches] for name, patches in task.patches.items()}
            self.profile.picture = PictureCalibration(faces, now_iso(), list(task.bodies))
        sides = self.colour.sides + self.picture.sides
        if sides:
            self.profile.die_size_px = round(float(np.median(sides)), 2)

    # -- verify --------------------------------------------------------------------------------------------------
    def reader(self) -> DieKinds:
        """The kind stage built from the profile as it stands (what the dice reader will use)."""
        return DieKinds(self.profile, self.empty_image)

    def verify_read(self, frame: Image) -> list[tuple[Box, str, str | None]]:
        """Read every die on the tray with the profile so far: (box, kind, face) per die, left to right."""
        return [(box, read.kind, read.face) for box, read in self.reader().read(frame)]

    def verification_for(self, kind: str) -> Verification:
        """The running tally for one kind's verify rolls."""
        return self.verifications.setdefault(kind, Verification(kind))

    def finish_verify(self) -> None:
        """Store the verify results of every kind that was checked."""
        for kind, tally in self.verifications.items():
            if tally.rolls:
                self.profile.verify[kind] = tally.result()

    # -- save ----------------------------------------------------------------------------------------------------
    def save(self, store: ProfileStore, name: str) -> Profile:
        """Save under a name (keeping parts of an existing profile of that name that were not recaptured) and
        make it the active profile for this camera."""
        name = name.strip()
        if not name:
            raise WizardError("Give the profile a name, e.g. 'kitchen table'")
        profile = self.profile
        if profile.name != name and store.exists(name, profile.camera, profile.resolution):
            old = store.load(name, profile.camera, profile.resolution)  # recalibrating part of another profile
            for part in ("tray", "die_size_px", "colour", "picture"):
                if getattr(profile, part) is None:
                    setattr(profile, part, getattr(old, part))
            if profile.empty_tray is None and old.empty_tray is not None:
                profile.empty_tray = old.empty_tray
            for kind, result in old.verify.items():
                profile.verify.setdefault(kind, result)
            profile.created = old.created
        profile.name = name
        if self.empty_image is not None and profile.empty_tray is not None:
            ok, png = cv2.imencode(".png", self.empty_image)
            if not ok:
                raise WizardError("could not encode the empty-tray picture")
            profile.empty_tray.image = store.asset_name(profile, "empty.png")
            store.write_asset(profile, profile.empty_tray.image, png.tobytes())
        store.save(profile)
        return profile

    def _check_size(self, frame: Image) -> None:
        w, h = self.profile.resolution
        if frame.ndim != 3 or frame.shape[1] != w or frame.shape[0] != h:
            raise WizardError(
                f"the camera gives {frame.shape[1]}x{frame.shape[0]} frames but this calibration is for {w}x{h}"
            )


SAME_COLOUR = 3.5
"""Captured colours closer than this (in units of the classifier's smallest spread) count as the same face."""
SAME_PICTURE = 0.9
"""Picture patches correlating at least this much (any rotation) count as the same face."""


def _colour_problem(face: str, features: list[npt.NDArray[np.float64]], samples: dict[str, list[list[float]]]) -> str:
    """Why a colour capture should not be learned ("" if it is fine): dice showing different colours in one
    capture, or a colour already captured as another face (the wrong face on top)."""
    from companion.vision.colour import FEATURE_FLOOR

    stack = np.array(features)
    centre = np.median(stack, axis=0)
    spread = np.sqrt((((stack - centre) / FEATURE_FLOOR) ** 2).sum(axis=1))
    if len(features) > 1 and float(spread.max()) > SAME_COLOUR:
        return f"The dice do not all show the same colour: put every colour die with {face.upper()} on top"
    for other, known in samples.items():
        if other == face or not known:
            continue
        distance = float(np.sqrt((((centre - np.mean(known, axis=0)) / FEATURE_FLOOR) ** 2).sum()))
        if distance < SAME_COLOUR:
            return f"That looks like {other.upper()}, captured before: is {face.upper()} on top?"
    return ""


def _picture_problem(face: str, patch: Image, patches: dict[str, list[Image]]) -> str:
    """Why a picture capture should not be learned ("" if fine): it matches another face better than its own."""
    from companion.vision.picture import polar_descriptor, rotation_correlation

    query = polar_descriptor(patch)
    best: dict[str, float] = {}
    for name, known in patches.items():
        for other in known:
            score = rotation_correlation(query, polar_descriptor(other))
            best[name] = max(best.get(name, -1.0), score)
    rivals = {name: score for name, score in best.items() if name != face}
    if not rivals:
        return ""
    rival, score = max(rivals.items(), key=lambda item: item[1])
    if score >= SAME_PICTURE and score > best.get(face, -1.0):
        return f"That looks like {rival.upper()}, captured before: is {face.upper()} on top?"
    return ""
