"""The calibration walk-through as plain logic, shared by the touch wizard and ``companion calibrate``.

Steps, in order (each screen or prompt drives one): camera check -> tray area -> empty tray -> colour faces ->
picture faces -> verify -> save. Frames go in, measurements and captures come out; nothing here draws or waits.
A wizard may start from an existing profile: whatever is not captured again is kept, so recalibrating one die kind
keeps the others (and the tray, the empty tray) as they were.

The steps and their titles are in ``steps``, the wizard's errors in ``errors``, a die kind's capture task and the
checks that refuse a capture in ``captures``; their names are still importable from here.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np

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
from calibration.store import ProfileExists, ProfileStore, same_name_key
from companion.calibrate.captures import (
    SAME_COLOUR,
    SAME_PICTURE,
    Box,
    FaceCapture,
    FaceTask,
    Image,
    colour_problem,
    dice_in_tray,
    picture_problem,
)
from companion.calibrate.errors import BrokenProfile, DiceOnEmptyTray, TrayTooSmall, WizardError
from companion.calibrate.steps import STEP_TITLES, STEPS, Step, face_words
from companion.calibrate.verify import Verification
from companion.i18n import _, ngettext
from companion.vision.colour import die_feature, tray_colour
from companion.vision.dice_kinds import DieKinds
from companion.vision.picture import encode_patch, face_patch
from companion.vision.tray import (
    MIN_TRAY_SHARE,
    Blob,
    Exposure,
    find_dice,
    find_tray_markers,
    measure_exposure,
    median_colour,
    order_quad,
    quad_area,
)

__all__ = [  # the old names, still importable from here
    "SAME_COLOUR",
    "SAME_PICTURE",
    "STEPS",
    "STEP_TITLES",
    "Box",
    "BrokenProfile",
    "DiceOnEmptyTray",
    "FaceCapture",
    "FaceTask",
    "Image",
    "Step",
    "TrayTooSmall",
    "Wizard",
    "WizardError",
    "face_words",
]


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
        source: str = "",
    ) -> None:
        if base is not None and (base.camera, tuple(base.resolution)) != (camera, tuple(resolution)):
            raise WizardError(f"profile '{base.name}' is for {base.key}, not this camera")
        self.profile = base or Profile(name="", camera=camera, resolution=(int(resolution[0]), int(resolution[1])))
        self.empty_image = empty_image
        self.source: str = source
        """Where the base profile was loaded from (its file), for messages; "" for a new profile."""
        self.notices: list[str] = []
        """Lines for the player about the base profile (e.g. broken parts that were dropped and must be captured
        again); empty when all is well."""
        self.markers_failed = False
        """True after :meth:`find_markers` found no usable tray (a kept older tray area included)."""
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
        """Start from a saved profile (with its empty-tray image), to recalibrate part of it. A broken profile file
        raises :class:`ProfileError`; broken picture templates are dropped (see :attr:`notices`); a missing or
        damaged empty-tray picture is dropped too, so the empty tray must be captured again."""
        path = store.path(name, camera, resolution)
        profile = store.load_file(path)
        empty = None
        notices: list[str] = []
        if profile.empty_tray is not None:
            png = store.asset_path(profile, profile.empty_tray.image)
            image = cv2.imread(str(png), cv2.IMREAD_COLOR)
            if image is not None and (image.shape[1], image.shape[0]) == tuple(profile.resolution):
                empty = image
            else:
                profile.empty_tray = None
                notices.append(f"{png}: the empty-tray picture is missing or damaged; capture the empty tray again")
        wizard = cls(camera, resolution, profile, empty, source=str(path), **kwargs)  # type: ignore[arg-type]
        wizard.notices[:0] = notices
        return wizard

    # -- navigation ----------------------------------------------------------------------------------------------
    @property
    def step_index(self) -> int:
        """Position of the current step in :data:`STEPS`."""
        return STEPS.index(self.step)

    def go(self, step: str) -> None:
        """Jump to a step (the wizard's step list, or a screen's Back/Skip)."""
        if step not in STEPS:
            raise WizardError(f"no step called {step!r}")
        self.step = Step(step)

    def next(self) -> Step:
        """Move on to the next step; refuses when a step's requirement is missing (with the reason)."""
        if self.step == Step.EMPTY and self.empty_image is None:
            raise WizardError(_("Take the empty-tray picture first: clear the tray and press Capture"))
        if self.step == Step.SAVE:
            return self.step
        self.step = STEPS[self.step_index + 1]
        return self.step

    def back(self) -> Step:
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
        """Look for the four tray markers; on success the tray area is set. Returns a line for the player.

        When no usable tray is found, :attr:`markers_failed` is True and the line says so (and that a tray area
        set before, e.g. the saved one, is kept)."""
        self._check_size(frame)
        quad, seen = find_tray_markers(frame)
        problem = ""
        if quad is None and len(seen) == 4:
            problem = _("The 4 markers do not make a tray shape: stick one at each corner of the tray")
        elif quad is None:
            missing = [str(i) for i in range(4) if i not in seen]
            problem = _("Markers found: {n} of 4 (missing {missing})").format(n=len(seen), missing=", ".join(missing))
        elif quad_area(quad) < MIN_TRAY_SHARE * self._frame_area():
            problem = _("The markers are too close together: stick them at the tray's corners, a few dice apart")
        self.markers_failed = bool(problem)
        if problem:
            if self.profile.tray is not None:
                return _("{problem}. The tray area set before is kept; or tap the tray's four corners").format(
                    problem=problem
                )
            return _("{problem}. Or tap the tray's four corners").format(problem=problem)
        assert quad is not None
        self.profile.tray = TrayArea(quad, "aruco")
        return _("Tray found from the 4 markers")

    def set_tray_taps(self, points: Sequence[tuple[float, float]]) -> str:
        """Set the tray area from four tapped corners (frame pixels, any order); :class:`WizardError` (or its
        :class:`TrayTooSmall`) when they make no usable tray."""
        try:
            quad = order_quad(points)
        except ValueError as exc:
            raise WizardError(str(exc)) from None
        w, h = self.profile.resolution
        if not all(-1 <= x <= w + 1 and -1 <= y <= h + 1 for x, y in quad):
            raise WizardError(_("a corner lies outside the picture: tap inside the live image"))
        if quad_area(quad) < MIN_TRAY_SHARE * self._frame_area():
            raise TrayTooSmall(_("That area is too small to hold the dice: tap the four corners of the whole tray"))
        self.profile.tray = TrayArea(quad, "taps")
        return _("Tray area set from your taps")

    def capture_empty(self, frame: Image) -> str:
        """Keep this frame as the empty-tray reference; :class:`DiceOnEmptyTray` when dice are seen in the tray
        (a die left there would be read as a phantom die on every roll)."""
        self._check_size(frame)
        dice = self.dice_in_empty(frame)
        if dice:
            raise DiceOnEmptyTray(
                ngettext(
                    "There is a die in the tray: take the dice out of the tray first, then capture the empty tray",
                    "There are {n} dice in the tray: take the dice out of the tray first, then capture the empty tray",
                    len(dice),
                ).format(n=len(dice))
            )
        self.empty_image = frame.copy()
        corners = self.profile.tray.corners if self.profile.tray else None
        self.profile.empty_tray = EmptyTray("", median_colour(frame, corners), now_iso())
        return "Empty tray captured"

    def dice_in_empty(self, frame: Image) -> list[Box]:
        """Dice seen in the tray on a frame meant to be empty (see :func:`dice_in_tray`)."""
        corners = self.profile.tray.corners if self.profile.tray else None
        return dice_in_tray(frame, corners, self.profile.die_size_px)

    # -- face captures -------------------------------------------------------------------------------------------
    def task(self, kind: str) -> FaceTask:
        """The capture task of a die kind ("colour" or "picture")."""
        if kind not in ("colour", "picture"):
            raise WizardError(f"no die kind {kind!r} to calibrate")
        return self.colour if kind == "colour" else self.picture

    def find(self, frame: Image) -> list[Blob]:
        """The dice on the tray now (against the empty-tray reference)."""
        if self.empty_image is None:
            raise WizardError(_("Take the empty-tray picture first"))
        corners = self.profile.tray.corners if self.profile.tray else None
        return find_dice(frame, self.empty_image, corners, None)

    def capture_face(self, kind: str, frame: Image) -> FaceCapture:
        """Learn the current face of a kind from every die on the tray (all showing that face)."""
        self._check_size(frame)
        task = self.task(kind)
        face = task.current
        if face is None:
            return FaceCapture(
                False, _("Every picture face is captured") if kind == "picture" else _("Every colour face is captured")
            )
        blobs = self.find(frame)
        if not blobs:
            return FaceCapture(
                False, _("No die found: put the die on the tray with {face} on top").format(face=face_words(face))
            )
        if kind == "picture" and len(blobs) > 1:
            return FaceCapture(False, _("Put only the picture die on the tray"), tuple(b.box for b in blobs))
        boxes = [b.box for b in blobs]
        if kind == "colour":
            tray_bgr = tray_colour(frame, boxes, self.profile.tray.corners if self.profile.tray else None)
            measured = [die_feature(frame, box, tray_bgr) for box in boxes]
            problem = colour_problem(face, [f for f, _ in measured], task.samples)
            if problem:
                return FaceCapture(False, problem, tuple(boxes))
            for feature, texture in measured:
                task.samples.setdefault(face, []).append([round(float(v), 4) for v in feature])
                task.texture = max(task.texture, texture)
        else:
            side = blobs[0].side
            grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
            patch = face_patch(grey, boxes[0], side)
            problem = picture_problem(face, patch, task.patches)
            if problem:
                return FaceCapture(False, problem, tuple(boxes))
            task.patches.setdefault(face, []).append(patch)
            tray_bgr = tray_colour(frame, boxes, self.profile.tray.corners if self.profile.tray else None)
            body, _texture = die_feature(frame, boxes[0], tray_bgr)
            task.bodies.append([round(float(v), 4) for v in body])
        task.sides.extend(b.side for b in blobs)
        task.done[face] = task.done.get(face, 0) + 1
        left = task.per_face - task.done[face]
        dice = ngettext("{n} die", "{n} dice", len(blobs)).format(n=len(blobs))
        follow = _("roll it again and capture {n} more").format(n=left) if left else _("done")
        return FaceCapture(
            True,
            _("{face}: captured {dice}; {next}").format(face=face_words(face), dice=dice, next=follow),
            tuple(boxes),
        )

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

            patches: dict[str, list[Image]] = {}
            for name, templates in picture.faces.items():
                try:
                    patches[name] = [decode_patch(t) for t in templates]
                except ValueError as exc:
                    where = self.source or f"profile '{self.profile.name}'"
                    self.notices.append(
                        f"{where}: the picture-die template for {name.upper()} is broken ({exc}); "
                        "the picture die must be captured again"
                    )
                    self.profile.picture = None  # never half-used: the reader would refuse the whole profile
                    return
            for name, decoded in patches.items():
                if name not in self.picture.faces:
                    self.picture.faces.append(name)
                self.picture.patches[name] = decoded
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
            raise WizardError(
                (
                    _("Capture every picture face first (next: {face})")
                    if kind == "picture"
                    else _("Capture every colour face first (next: {face})")
                ).format(face=face_words(str(task.current)))
            )
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
        """The kind stage built from the profile as it stands (what the dice reader will use);
        :class:`BrokenProfile` when a learned part cannot be used."""
        try:
            return DieKinds(self.profile, self.empty_image)
        except ValueError as exc:
            where = self.source or f"profile '{self.profile.name or 'new'}'"
            raise BrokenProfile(f"{where}: {exc}; capture that die kind again") from None

    def verify_read(self, frame: Image) -> list[tuple[Box, str, str | None]]:
        """Read every die on the tray with the profile so far: (box, kind, face) per die, left to right."""
        reader = self.reader()
        try:
            reads = reader.read(frame)
        except ValueError as exc:
            raise WizardError(_("Could not read the dice: {problem}").format(problem=exc)) from None
        return [(box, read.kind, read.face) for box, read in reads]

    def verification_for(self, kind: str) -> Verification:
        """The running tally for one kind's verify rolls."""
        return self.verifications.setdefault(kind, Verification(kind))

    def finish_verify(self) -> None:
        """Store the verify results of every kind that was checked."""
        for kind, tally in self.verifications.items():
            if tally.rolls:
                self.profile.verify[kind] = tally.result()

    # -- save ----------------------------------------------------------------------------------------------------
    def would_replace(self, store: ProfileStore, name: str) -> bool:
        """Whether saving under ``name`` would replace another saved profile (not the one being recalibrated):
        ask the player first, then save with ``replace=True``."""
        name = name.strip()
        profile = self.profile
        if not name or not store.exists(name, profile.camera, profile.resolution):
            return False
        return not (self.source and profile.name and same_name_key(profile.name) == same_name_key(name))

    def save(self, store: ProfileStore, name: str, replace: bool = True) -> Profile:
        """Save under a name (keeping parts of an existing profile of that name that were not recaptured) and
        make it the active profile for this camera. With ``replace=False``, :class:`ProfileExists` (a
        :class:`ProfileError`) is raised instead when another saved profile has that name."""
        name = name.strip()
        if not name:
            raise WizardError(_("Give the profile a name, e.g. 'kitchen table'"))
        if not replace and self.would_replace(store, name):
            raise ProfileExists(
                _("A profile called '{name}' is already saved for this camera: replace it?").format(name=name)
            )
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

    def _frame_area(self) -> float:
        w, h = self.profile.resolution
        return float(w * h)

    def _check_size(self, frame: Image) -> None:
        w, h = self.profile.resolution
        if frame.ndim != 3 or frame.shape[1] != w or frame.shape[0] != h:
            raise WizardError(
                _("the camera gives {fw}x{fh} frames but this calibration is for {w}x{h}").format(
                    fw=frame.shape[1], fh=frame.shape[0], w=w, h=h
                )
            )
