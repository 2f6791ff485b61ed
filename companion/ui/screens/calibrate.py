"""Calibrate: the touch wizard that teaches the app this table's camera, tray, colour dice and picture die.

Steps (``companion.calibrate.wizard.STEPS``): camera focus/exposure meters -> tray area (ArUco markers, or four
taps on the live image) -> empty-tray reference -> show each colour face -> show each picture face -> verify (roll, the
app reads, the player confirms or corrects) -> name and save (or choose another saved profile). The logic is in
``companion.calibrate.wizard``; this screen feeds it frames from the app's camera feed and shows what it says.
Without a camera the screen says so and the rest of the app keeps working (touch entry of dice).
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar, cast

import cv2
import numpy as np
from kivy.app import App
from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.image import Image
from kivy.uix.screenmanager import Screen

from calibration.profile import ProfileError
from calibration.store import ProfileStore, slug
from companion import paths
from companion.calibrate.wizard import STEP_TITLES, STEPS, Wizard, WizardError
from companion.i18n import N_, _, ngettext
from companion.ui.screens import load_kv
from companion.ui.words import face_name
from companion.vision.tray import BRIGHT_RANGE, SHARP_ENOUGH
from hardware.simtray import TrayRoll

load_kv("calibrate")

GREEN = (80, 200, 80)
YELLOW = (40, 220, 240)
CYAN = (230, 200, 40)
RED = (60, 60, 230)
NOT_A_DIE = "not a die"
NUMBER_DIE = "number die"
WAITING = N_("Waiting for the camera…")
ACTION_ERRORS: tuple[type[BaseException], ...] = (WizardError, ProfileError, ValueError, OSError, cv2.error)
"""What a step's action may raise (the wizard's and the store's own errors first); shown, never a crash."""

F = TypeVar("F", bound=Callable[..., Any])


def problem_sentence(exc: BaseException) -> str:
    """A line for the player from an error of the wizard, the store or the files under them."""
    if isinstance(exc, (WizardError, ProfileError)):
        return str(exc)
    if isinstance(exc, OSError):
        return _("Could not read or write the calibration files ({problem}). Nothing was changed").format(
            problem=exc.strerror or exc
        )
    return _("That did not work: {problem}. Try again, or capture that part again").format(problem=exc)


def guarded(method: F) -> F:
    """A button's action: an error of the wizard or the store is shown on the status line, never a crash."""

    @functools.wraps(method)
    def wrapper(self: CalibrateScreen, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except ACTION_ERRORS as exc:
            self.show(problem_sentence(exc), error=True)
            self.refresh()
            return None

    return cast(F, wrapper)


NAME_PRESETS = (N_("kitchen table"), N_("club"), N_("living room"))

INSTRUCTIONS = {
    "camera": N_("Point the camera straight down at the tray. Adjust focus and light until both meters are green."),
    "tray": N_(
        "Tap Find markers (4 ArUco markers at the tray corners), or Tap corners and touch the tray's 4 corners "
        "on the picture."
    ),
    "empty": N_("Take everything off the tray (no dice, no hands), then tap Capture."),
    "verify": N_("Roll the dice and tap Read. Tap a die to correct it, then Confirm. Repeat a few times."),
    "save": N_("Name this profile (e.g. kitchen table) and save it. Or make another saved profile the active one."),
}
KIND_NAMES = {"colour": N_("colour"), "picture": N_("picture")}
STEP_WORDS = {  # the wizard's STEP_TITLES, worded in the current language
    "camera": N_("Camera check"),
    "tray": N_("Tray area"),
    "empty": N_("Empty tray"),
    "colour": N_("Colour dice"),
    "picture": N_("Picture die"),
    "verify": N_("Verify"),
    "save": N_("Save profile"),
}


def answer_name(face: str | None) -> str:
    """A verify answer or reading as the player reads it ("number 4", "not a die", a colour or picture face)."""
    if face is None:
        return "?"
    if face == NOT_A_DIE:
        return _("not a die")
    if face == NUMBER_DIE:
        return _("number die")
    if face.startswith("number "):
        return _("number {n}").format(n=face.removeprefix("number "))
    return face_name(face)


class Preview(Image):
    """The live camera picture; in tap mode a touch on it becomes a point in frame pixels."""

    def on_touch_down(self, touch: Any) -> bool:
        """In tap mode, a touch on the picture is a tray corner."""
        if not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)  # type: ignore[no-any-return]
        screen = self.parent
        while screen is not None and not isinstance(screen, CalibrateScreen):
            screen = screen.parent
        if screen is None or not screen.tapping or self.texture is None:
            return super().on_touch_down(touch)  # type: ignore[no-any-return]
        point = self.frame_point(touch.x, touch.y)
        if point is not None:
            screen.tap_corner(point)
        return True

    def frame_point(self, x: float, y: float) -> tuple[float, float] | None:
        """Touch position (parent coordinates) -> frame pixel (None outside the shown picture)."""
        shown_w, shown_h = self.norm_image_size
        left = self.center_x - shown_w / 2
        top = self.center_y + shown_h / 2
        tw, th = self.texture.size
        fx = (x - left) / shown_w * tw
        fy = (top - y) / shown_h * th
        if not (0 <= fx <= tw and 0 <= fy <= th):
            return None
        return (float(fx), float(fy))

    def local_point(self, fx: float, fy: float) -> tuple[float, float]:
        """Frame pixel -> position in this widget's parent coordinates (where its touches arrive)."""
        shown_w, shown_h = self.norm_image_size
        tw, th = self.texture.size
        left = self.center_x - shown_w / 2
        top = self.center_y + shown_h / 2
        return (left + fx / tw * shown_w, top - fy / th * shown_h)


class CalibrateScreen(Screen):
    """The calibration wizard (a plain Screen: no game session)."""

    step = StringProperty(STEPS[0])
    step_title = StringProperty("")
    step_count = StringProperty("")
    instruction = StringProperty("")
    status = StringProperty("")
    status_error = BooleanProperty(False)
    progress = NumericProperty(0.0)
    sharp_level = NumericProperty(0.0)
    bright_level = NumericProperty(0.0)
    sharp_ok = BooleanProperty(False)
    bright_ok = BooleanProperty(False)
    meter_text = StringProperty("")
    primary_text = StringProperty("")
    primary_enabled = BooleanProperty(True)
    secondary_text = StringProperty("")
    next_enabled = BooleanProperty(True)
    tapping = BooleanProperty(False)
    has_camera = BooleanProperty(True)
    frames_seen = BooleanProperty(False)
    problem = StringProperty("")
    """A lasting problem (the active profile is broken): its own red line, not replaced by the camera advice."""
    choosing_now = BooleanProperty(False)
    simulated = BooleanProperty(False)  # the simulated tray: a Roll button, and it shows what each step asks for

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.store: ProfileStore | None = None
        self.wizard: Wizard | None = None
        self.editing = False
        self.frame: np.ndarray | None = None
        self.frames = 0
        self.taps: list[tuple[float, float]] = []
        self.last_boxes: tuple[tuple[int, int, int, int], ...] = ()
        self.live_boxes: list[tuple[int, int, int, int]] = []
        self.captured_at = 0
        self.used_at = -1  # the frame count when a capture or read last used a frame
        self.camera_lost = False
        self.mismatch: tuple[int, int] | None = None  # the camera's frame size when it differs from the wizard's
        self.replace_name: str | None = None  # a save waiting for "replace it?"
        self.saved_name: str | None = None  # saved by this wizard: saving again under it asks nothing
        self.reads: list[tuple[tuple[int, int, int, int], str, str | None]] = []
        self.answers: list[str | None] = []
        self.choosing: int | None = None
        self.camera_name = "camera"
        self._texture: Texture | None = None
        self._thumb: Texture | None = None

    # -- entering and leaving ------------------------------------------------------------------------------------
    def on_pre_enter(self, *_args: Any) -> None:
        """Ask the camera feed for frames (or say there is no camera)."""
        app = App.get_running_app()
        if self.store is None:
            self.store = ProfileStore(paths.calibration_dir())
        self.camera_name = app.camera.id if app.camera is not None else "camera"
        self.has_camera = app.feed is not None
        self.simulated = self.has_camera and getattr(app, "sim_tray", None) is not None
        if not self.has_camera:
            self.wizard = None
            self.show(_("No camera: calibration needs one. Dice can still be entered by touch."), error=True)
            self.refresh()
            return
        if not self.frames_seen or self.wizard is None:
            self.show(_(WAITING))
        app.feed.want(True)
        self.refresh()

    def on_leave(self, *_args: Any) -> None:
        """Stop the camera feed while the screen is not shown."""
        app = App.get_running_app()
        if app.feed is not None:
            app.feed.want(False)

    def on_camera(self, problem: str | None) -> None:
        """The camera feed's state: a problem (unplugged) or None when frames flow again."""
        self.camera_lost = bool(problem)

    def on_frame(self, frame: Any, _result: Any) -> None:
        """A new camera frame (from the app's feed, on the Kivy thread)."""
        self.frame = frame
        self.frames += 1
        self.frames_seen = True
        self.camera_lost = False
        if self.status == _(WAITING):
            self.show("")
        if self.wizard is None:
            try:
                self.start(frame)
            except ACTION_ERRORS as exc:
                self.show(problem_sentence(exc), error=True)
        wizard = self.wizard
        if wizard is None:
            return
        size = (int(frame.shape[1]), int(frame.shape[0]))
        mismatch = size if size != tuple(wizard.profile.resolution) else None
        if mismatch != self.mismatch:
            self.mismatch = mismatch
            if mismatch is None:
                self.show("")
            self.refresh()
        if mismatch is not None:
            self.live_boxes = []
            self.draw_preview()
            return
        if self.step == "camera" and self.frames % 2 == 1:
            try:
                exposure = wizard.check_camera(frame)
            except ACTION_ERRORS as exc:
                self.show(problem_sentence(exc), error=True)
                return
            self.sharp_level = min(1.0, exposure.sharpness / (2 * SHARP_ENOUGH))
            self.bright_level = min(1.0, exposure.brightness / 255.0)
            self.sharp_ok, self.bright_ok = exposure.sharp_ok, exposure.bright_ok
            self.meter_text = _(
                "Sharpness {sharp} (need {sharp_need})\nBrightness {bright} (need {low}-{high})"
            ).format(
                sharp=f"{exposure.sharpness:.0f}",
                sharp_need=f"{SHARP_ENOUGH:.0f}",
                bright=f"{exposure.brightness:.0f}",
                low=f"{BRIGHT_RANGE[0]:.0f}",
                high=f"{BRIGHT_RANGE[1]:.0f}",
            )
            self.show(exposure.advice, error=not (exposure.sharp_ok and exposure.bright_ok))
        if self.step in ("colour", "picture") and wizard.empty_image is not None and self.frames % 3 == 0:
            try:  # what a capture would take, outlined live so the player sees every die is found
                self.live_boxes = [b.box for b in wizard.find(frame)]
            except ACTION_ERRORS:
                self.live_boxes = []
            if self.frames - self.captured_at > 10:
                self.last_boxes = ()  # the last capture's outline stays about a second, then live only
        elif self.step not in ("colour", "picture"):
            self.live_boxes = []
        self.draw_preview()

    def start(self, frame: Any) -> None:
        """First frame: start from the active profile of this camera (recalibrate parts) or from scratch."""
        assert self.store is not None
        resolution = (int(frame.shape[1]), int(frame.shape[0]))
        self.wizard, self.mismatch, self.problem, self.saved_name = None, None, "", None
        self.editing = False  # resumed from a saved profile (said on the status line)
        self.reads, self.answers, self.choosing, self.replace_name = [], [], None, None
        self.taps, self.last_boxes, self.live_boxes, self.tapping = [], (), [], False
        active = self.store.active(self.camera_name, resolution)
        if active.profile is not None:
            try:
                self.wizard = Wizard.resume(self.store, active.profile.name, self.camera_name, resolution)
                self.ids.name_input.text = active.profile.name
                self.show(_("Editing '{name}': skip what needs no change").format(name=active.profile.name))
                self.editing = True
                notices = list(getattr(self.wizard, "notices", []) or [])
                if notices:  # e.g. a broken picture template dropped: that part is captured again
                    self.problem = " ".join(notices)
            except ACTION_ERRORS as exc:
                self.problem = problem_sentence(exc)
        if self.wizard is None:
            self.wizard = Wizard(self.camera_name, resolution)
            if "not calibrated" not in active.message:
                # kept on its own line: the camera step's advice replaces the status line every frame
                self.problem = active.message
        self.refresh()

    def fresh_frame(self, consume: bool = True) -> np.ndarray | None:
        """The frame for a capture or read: None (with the reason shown) when the camera is lost or no new
        picture came since the last capture, so nothing is learned twice from one picture."""
        if self.frame is None:
            self.show(_("No picture from the camera yet"), error=True)
            return None
        if self.camera_lost:
            self.show(
                _("The camera is lost: plug it back in and wait for the live picture, then try again"), error=True
            )
            return None
        if not consume:
            return self.frame
        if self.frames <= self.used_at:
            self.show(_("No new picture from the camera since the last one: wait a moment and try again"), error=True)
            return None
        self.used_at = self.frames
        return self.frame

    # -- actions (buttons in calibrate.kv) ------------------------------------------------------------------------
    @guarded
    def primary(self) -> None:
        """The step's main action: Find markers / Capture / Read / Confirm / Save (or start again at a new frame
        size)."""
        wizard = self.wizard
        if wizard is None:
            return
        if self.mismatch is not None and self.frame is not None:
            self.restart_at_new_size()
            return
        try:
            if self.step == "save":
                self.save()
            elif self.step == "verify" and self.reads:
                self.confirm_verify()
            elif (frame := self.fresh_frame(consume=self.step != "tray")) is None:
                pass
            elif self.step == "tray":
                self.tapping = False
                message = wizard.find_markers(frame)
                self.show(message, error=wizard.profile.tray is None or bool(getattr(wizard, "markers_failed", False)))
            elif self.step == "empty":
                self.show(wizard.capture_empty(frame))
            elif self.step in ("colour", "picture"):
                result = wizard.capture_face(self.step, frame)
                self.last_boxes, self.captured_at = result.boxes, self.frames
                self.show(result.message, error=not result.ok)
                if result.ok:
                    self.update_thumbnail(frame, result.boxes)
                if result.ok and wizard.task(self.step).current is None:
                    wizard.fit(self.step)
                    self.show(
                        _("Every colour face captured. Tap Next")
                        if self.step == "colour"
                        else _("Every picture face captured. Tap Next")
                    )
            elif self.step == "verify":
                self.read_verify(frame)
        except WizardError as exc:
            self.show(str(exc), error=True)
        self.refresh()

    def restart_at_new_size(self) -> None:
        """The camera now gives frames of another size: start the wizard again for that size (a calibration is
        made for one frame size; the saved profiles of the old size are kept)."""
        assert self.frame is not None
        old = self.wizard.profile.resolution if self.wizard is not None else None
        self.start(self.frame)
        w, h = self.frame.shape[1], self.frame.shape[0]
        if not self.problem and not self.status_error and not self.editing:
            if old:
                self.show(
                    _("Started again for {w}x{h} frames (the {ow}x{oh} profiles are kept)").format(
                        w=w, h=h, ow=old[0], oh=old[1]
                    )
                )
            else:
                self.show(_("Started again for {w}x{h} frames").format(w=w, h=h))

    @guarded
    def secondary(self) -> None:
        """The step's second action: Tap corners / Skip a kind / Read again."""
        wizard = self.wizard
        if wizard is None:
            return
        if self.step == "tray":
            self.tapping = not self.tapping
            self.taps = []
            self.show(_("Touch the tray's 4 corners on the picture") if self.tapping else _("Tapping cancelled"))
        elif self.step in ("colour", "picture") and wizard.task(self.step).current is None:
            wizard.restart_kind(self.step)
            self.show(
                _("Capture every colour face again (the saved ones are kept until all are done)")
                if self.step == "colour"
                else _("Capture every picture face again (the saved ones are kept until all are done)")
            )
        elif self.step in ("colour", "picture"):
            kept = getattr(wizard.profile, self.step) is not None
            if self.step == "colour":
                self.show(_("Colour skipped: the saved calibration is kept") if kept else _("Colour skipped"))
            else:
                self.show(_("Picture skipped: the saved calibration is kept") if kept else _("Picture skipped"))
            self.go_next()
            return
        elif self.step == "verify":
            frame = self.fresh_frame()
            if frame is not None:
                self.read_verify(frame)
        self.refresh()

    @guarded
    def go_next(self) -> None:
        """Next step (refused, with the reason, when the step's requirement is missing)."""
        if self.wizard is None:
            return
        try:
            self.wizard.next()
        except WizardError as exc:
            self.show(str(exc), error=True)
            return
        self.enter_step()

    @guarded
    def go_back(self) -> None:
        """Previous step; from the first step, back to Home."""
        if self.wizard is None or self.step == STEPS[0]:
            App.get_running_app().go("home")
            return
        self.wizard.back()
        self.enter_step()

    def enter_step(self) -> None:
        """Reset per-step state after moving to another step."""
        self.tapping = False
        self.taps, self.last_boxes, self.reads, self.answers, self.choosing = [], (), [], [], None
        self.replace_name = None
        assert self.wizard is not None
        if self.wizard.step == "save":
            self.wizard.finish_verify()
        self.show("")
        self.refresh()

    @guarded
    def tap_corner(self, point: tuple[float, float]) -> None:
        """A touch on the picture in tap mode: one tray corner."""
        if self.wizard is None:
            return
        self.taps.append(point)
        if len(self.taps) < 4:
            self.show(_("Corner {n} of 4").format(n=len(self.taps)))
        else:
            try:
                self.show(self.wizard.set_tray_taps(self.taps))
            except WizardError as exc:
                self.show(str(exc), error=True)
            self.taps, self.tapping = [], False
        self.refresh()
        self.draw_preview()

    # -- verify ------------------------------------------------------------------------------------------------------
    def read_verify(self, frame: np.ndarray) -> None:
        """Read the dice on the tray now with the profile so far; number (pip) dice are read by the pip reader
        and left out of the check."""
        assert self.wizard is not None
        reads = self.wizard.verify_read(frame)
        if any(face is None for _, _, face in reads):
            numbers = self.pip_numbers(frame)
            reads = [
                (box, "pips", f"number {n}") if face is None and (n := _number_in(box, numbers)) else (box, kind, face)
                for box, kind, face in reads
            ]
        self.reads = reads
        self.answers = [face for _, _, face in self.reads]
        self.choosing = None
        count = len(self.reads)
        self.show(
            ngettext(
                "{n} die read: tap it if it is wrong, then Confirm",
                "{n} dice read: tap any that is wrong, then Confirm",
                count,
            ).format(n=count)
            if self.reads
            else _("No dice found on the tray"),
            error=not self.reads,
        )

    def pip_numbers(self, frame: np.ndarray) -> list[tuple[tuple[int, int, int, int], int]]:
        """Number dice the pip reader finds on the tray: (box, value); none when it cannot run."""
        from companion.vision.pipeline import VisionProfile, read_dice

        assert self.wizard is not None
        tray = self.wizard.profile.tray
        try:
            found = read_dice(frame, VisionProfile(tray_quad=tray.corners if tray else None))
        except (ValueError, OSError, RuntimeError, ImportError, cv2.error):
            return []
        return [
            (_box4(found.boxes[i]), int(found.values[i]))
            for i in range(len(found))
            if found.kinds[i] == "pips" and int(found.values[i]) > 0
        ]

    @guarded
    def choose(self, index: int) -> None:
        """Tap on a read die: offer its correction."""
        self.choosing = index
        self.refresh()

    @guarded
    def correct(self, face: str) -> None:
        """The player's answer for the die being corrected."""
        if self.choosing is not None:
            self.answers[self.choosing] = face
            self.choosing = None
        self.refresh()

    def confirm_verify(self) -> None:
        """Count this roll (with the player's corrections) and show the running accuracy."""
        assert self.wizard is not None
        unanswered = [i + 1 for i, a in enumerate(self.answers) if a is None]
        if unanswered:
            self.show(
                _("Die {n} was not read: tap it and say what it shows ({number_die} for pips)").format(
                    n=unanswered[0], number_die=_("number die")
                ),
                error=True,
            )
            return
        for (_box, kind, face), truth in zip(self.reads, self.answers, strict=True):
            if truth in (NOT_A_DIE, NUMBER_DIE) or truth is None or (kind == "pips" and truth == face):
                continue  # number dice are the pip reader's: not part of this check
            truth_kind = "colour" if truth in self.wizard.colour.faces else "picture"
            self.wizard.verification_for(truth_kind).record(face, truth)
        self.reads, self.answers = [], []
        lines = [f"{_(KIND_NAMES.get(k, k))}: {t.summary()}" for k, t in self.wizard.verifications.items() if t.rolls]
        confused = any(t.confusions() for t in self.wizard.verifications.values())
        self.show("  ".join(lines) or _("Nothing to count"), error=confused)

    @guarded
    def recapture(self, kind: str, face: str) -> None:
        """Capture a confused face again: forget its captures and go to its step."""
        assert self.wizard is not None
        self.wizard.redo_face(kind, face)
        self.wizard.go(kind)
        self.enter_step()
        self.show(_("Capture {face} again, then come back to Verify").format(face=face_name(face)))

    # -- save ------------------------------------------------------------------------------------------------------
    def save(self) -> None:
        """Save under the typed name and make the profile active; asks first when another profile has that name."""
        assert self.wizard is not None and self.store is not None
        name = self.ids.name_input.text.strip()
        if not name:
            raise WizardError(_("Give the profile a name, e.g. 'kitchen table'"))
        just_saved = self.saved_name is not None and _name_key(self.saved_name) == _name_key(name)
        if self.replace_name != name and not just_saved and self.would_replace(name):
            self.ask_replace(name)
            return
        self.write_profile(name, replace=self.replace_name == name or just_saved)

    def would_replace(self, name: str) -> bool:
        """Whether saving under ``name`` replaces another saved profile (not the one being edited)."""
        assert self.wizard is not None and self.store is not None
        ask = getattr(self.wizard, "would_replace", None)
        if callable(ask):
            return bool(ask(self.store, name))
        profile = self.wizard.profile
        editing = bool(profile.name) and slug(profile.name) == slug(name)
        return not editing and self.profile_exists(name)

    def ask_replace(self, name: str) -> None:
        """Ask before a save replaces the profile called ``name``."""
        self.replace_name = name
        self.show(_("A profile called '{name}' exists: replace it?").format(name=name), error=True)

    def profile_exists(self, name: str) -> bool:
        """Whether a saved profile of this camera and size would be replaced by saving under ``name``."""
        assert self.wizard is not None and self.store is not None
        camera, resolution = self.wizard.profile.camera, self.wizard.profile.resolution
        exists = getattr(self.store, "exists", None)
        if callable(exists):
            try:
                return bool(exists(name, camera, resolution))
            except TypeError:
                pass  # another signature: fall back to the list of names
        return any(
            slug(entry.name) == slug(name) and (entry.camera, tuple(entry.resolution)) == (camera, tuple(resolution))
            for entry in self.store.entries()
        )

    @guarded
    def confirm_replace(self, yes: bool) -> None:
        """The player's answer to "replace it?"."""
        name, self.replace_name = self.replace_name, None
        if yes and name is not None:
            self.ids.name_input.text = name
            self.write_profile(name, replace=True)
        else:
            self.show(_("Not saved: type another name, or tap Save again to be asked once more"))
        self.refresh()

    def write_profile(self, name: str, replace: bool) -> None:
        """Save under ``name`` (``replace``: the player agreed to replace a profile of that name)."""
        assert self.wizard is not None and self.store is not None
        self.replace_name = None
        params = inspect.signature(self.wizard.save).parameters
        kwargs: dict[str, Any] = {key: replace for key in ("replace", "overwrite") if key in params}
        try:
            profile = self.wizard.save(self.store, name, **kwargs)
        except ProfileError as exc:
            if replace or type(exc).__name__ != "ProfileExists":
                raise
            self.ask_replace(name)  # the store found it when the screen did not: ask all the same
            return
        self.problem, self.saved_name = "", profile.name
        kinds = ", ".join(_(KIND_NAMES.get(k, k)) for k in profile.calibrated_kinds()) or _("tray only")
        self.show(_("Saved '{name}' ({kinds}); it is now the active profile").format(name=profile.name, kinds=kinds))

    def set_name(self, name: str) -> None:
        """A preset name tapped: put it in the name field."""
        self.ids.name_input.text = name

    @guarded
    def use_profile(self, name: str) -> None:
        """Make another saved profile of this camera the active one."""
        assert self.store is not None and self.wizard is not None
        try:
            profile = self.store.use(name, self.wizard.profile.camera, self.wizard.profile.resolution)
        except ProfileError as exc:
            self.show(str(exc), error=True)
            return
        self.show(_("'{name}' is now the active profile").format(name=profile.name))
        self.problem = ""
        self.refresh()

    # -- display ---------------------------------------------------------------------------------------------------
    def show(self, text: str, error: bool = False) -> None:
        """Set the status line (red when ``error``)."""
        self.status, self.status_error = text, error

    def refresh(self) -> None:
        """Bring labels, buttons and the chips row in line with the wizard's state."""
        wizard = self.wizard
        step = wizard.step if wizard is not None else STEPS[0]
        self.step = step
        self.step_title = _(STEP_WORDS[step]) if step in STEP_WORDS else STEP_TITLES[step]
        self.step_count = f"{STEPS.index(step) + 1}/{len(STEPS)}"
        self.progress = wizard.progress if wizard is not None else 0.0
        self.next_enabled = wizard is not None and step != "save"
        self.secondary_text = ""
        self.primary_enabled = wizard is not None and self.frame is not None
        if step in ("colour", "picture") and wizard is not None:
            task = wizard.task(step)
            face = task.current
            if face and step == "colour":
                self.instruction = _(
                    "Put the colour dice (all of them) on the tray with [b]{face}[/b] on top, tap Capture. "
                    "Roll between captures."
                ).format(face=face_name(face).upper())
            elif face:
                self.instruction = _(
                    "Put only the picture die on the tray with [b]{face}[/b] on top, tap Capture. "
                    "Roll between captures."
                ).format(face=face_name(face).upper())
            elif step == "colour":
                self.instruction = _("Every colour face is captured. Tap Next, or capture them all again.")
            else:
                self.instruction = _("Every picture face is captured. Tap Next, or capture them all again.")
            self.primary_text = _("Capture {face}").format(face=face_name(face)) if face else ""
            self.primary_enabled = self.primary_enabled and face is not None
            self.secondary_text = _("Skip") if face else _("Capture all again")
        elif wizard is None:
            self.instruction = "" if self.has_camera else _("Calibration learns your dice from the camera's pictures.")
            self.primary_text = ""
        else:
            self.instruction = _(INSTRUCTIONS[step]) if step in INSTRUCTIONS else ""
            self.primary_text = {
                "camera": "",
                "tray": _("Find markers"),
                "empty": _("Capture"),
                "verify": _("Confirm") if self.reads else _("Read"),
                "save": _("Save"),
            }[step]
            if step == "tray":
                self.secondary_text = _("Cancel taps") if self.tapping else _("Tap corners")
            if step == "verify":
                self.secondary_text = _("Read again") if self.reads else ""
                self.primary_enabled = self.primary_enabled and bool(wizard and wizard.profile.calibrated_kinds())
                if wizard is not None and not wizard.profile.calibrated_kinds():
                    self.instruction = _("Nothing to verify yet: capture colour or picture faces first (or tap Next).")
            if step == "save":
                self.primary_enabled = wizard is not None
        if step == "empty" and wizard is not None:
            self.next_enabled = wizard.empty_image is not None
        self.choosing_now = step == "verify" and self.choosing is not None
        if self.choosing_now and self.choosing is not None:
            self.instruction = _("What does die {n} show?").format(n=self.choosing + 1)
        if self.mismatch is not None and wizard is not None:
            (w, h), (ow, oh) = self.mismatch, wizard.profile.resolution
            self.instruction = _(
                "The camera now gives {w}x{h} pictures; this calibration is for {ow}x{oh}. Set the camera back to "
                "{ow}x{oh}, or start again at {w}x{h} (saved profiles are kept)."
            ).format(w=w, h=h, ow=ow, oh=oh)
            self.primary_text, self.primary_enabled = _("Start again at {w}x{h}").format(w=w, h=h), True
            self.secondary_text, self.next_enabled = "", False
        self.build_chips()
        if self.simulated:
            App.get_running_app().expect_dice(self.tray_roll())

    def tray_roll(self) -> TrayRoll | None:
        """What the step asks to put on the tray, for the simulated tray to show: nothing for the empty tray,
        the colour dice or the picture die with the face to capture up, all kinds to verify."""
        wizard = self.wizard
        if wizard is None or self.mismatch is not None:
            return None
        if self.step == "empty":
            return TrayRoll.empty()
        if self.step in ("colour", "picture"):
            face = wizard.task(self.step).current
            if face is None:
                return None
            if self.step == "colour":
                return TrayRoll(colours=2, colour_face=face)
            return TrayRoll(pictures=1, picture_face=face)
        if self.step == "verify":
            return TrayRoll(pips=(1, 1), colours=2, pictures=1)
        return None

    def build_chips(self) -> None:
        """The row under the instruction: captured faces, verify answers and corrections, or saved profiles."""
        box = self.ids.chips
        box.clear_widgets()
        wizard = self.wizard
        if wizard is None or self.mismatch is not None:
            return
        if self.step == "save" and self.replace_name is not None:
            yes = Factory.ChoiceButton(
                text=_("Replace '{name}'").format(name=self.replace_name),
                on_release=lambda _b: self.confirm_replace(True),
            )
            yes.background_color = (0.6, 0.35, 0.1, 1)
            box.add_widget(yes)
            box.add_widget(Factory.ChoiceButton(text=_("Keep it"), on_release=lambda _b: self.confirm_replace(False)))
            return
        if self.step in ("colour", "picture"):
            task = wizard.task(self.step)
            for face in task.faces:
                n = task.done.get(face, 0)
                chip = Factory.FaceChip(text=f"{face_name(face)} {n}/{task.per_face}")
                chip.done = n >= task.per_face
                chip.current = face == task.current
                box.add_widget(chip)
        elif self.step == "verify" and self.choosing is not None:
            kind = self.reads[self.choosing][1]
            faces = (
                wizard.task(kind).faces if kind in ("colour", "picture") else wizard.colour.faces + wizard.picture.faces
            )
            for face in [*faces, NUMBER_DIE, NOT_A_DIE]:  # four to a row, so the row never runs over the text above
                pick = Factory.PickButton(text=answer_name(face), on_release=lambda b: self.correct(b.face))
                pick.face = face
                box.add_widget(pick)
        elif self.step == "verify" and not self.reads:
            confused: list[tuple[str, str]] = []
            for kind, tally in wizard.verifications.items():
                for truth, _read, _n in tally.confusions():
                    if (kind, truth) not in confused:
                        confused.append((kind, truth))
            for kind, face in confused[:4]:
                button = Factory.ChoiceButton(
                    text=_("Recapture {face}").format(face=face_name(face)),
                    on_release=lambda _b, k=kind, f=face: self.recapture(k, f),
                )
                box.add_widget(button)
        elif self.step == "verify":
            for i, answer in enumerate(self.answers):
                read = self.reads[i][2]
                text = f"{i + 1}: {answer_name(answer)}"
                if answer != read:
                    text = _("{answer} (read {read})").format(answer=text, read=answer_name(read))
                button = Factory.ChoiceButton(text=text, on_release=lambda b, i=i: self.choose(i))
                button.background_color = (0.15, 0.45, 0.3, 1) if answer == read else (0.6, 0.35, 0.1, 1)
                box.add_widget(button)
        elif self.step == "save" and self.store is not None:
            profile = wizard.profile
            # names to tap: a kiosk has no keyboard (the text field still works with one)
            for preset in NAME_PRESETS:
                button = Factory.ChoiceButton(text=_(preset), on_release=lambda b: self.set_name(b.text))
                button.background_color = (0.18, 0.30, 0.42, 1)
                box.add_widget(button)
            active = self.store.active(profile.camera, profile.resolution).profile
            try:
                entries = self.store.entries()
            except ACTION_ERRORS as exc:  # e.g. an unreadable active.json: saving still works (it is replaced)
                self.problem = problem_sentence(exc)
                entries = []
            for entry in entries:
                if (entry.camera, tuple(entry.resolution)) != (profile.camera, tuple(profile.resolution)):
                    continue
                if entry.problem:
                    continue
                is_active = active is not None and active.name == entry.name
                text = (
                    _("{name} (active)").format(name=entry.name)
                    if is_active
                    else _("Use {name}").format(name=entry.name)
                )
                button = Factory.ChoiceButton(text=text, on_release=lambda b, n=entry.name: self.use_profile(n))
                button.disabled = is_active
                box.add_widget(button)

    def draw_preview(self) -> None:
        """The live picture with what the wizard knows drawn on it: tray, taps, captured or read dice."""
        if self.frame is None:
            return
        view = self.frame.copy()
        wizard = self.wizard
        if wizard is not None and wizard.profile.tray is not None and self.step != "camera":
            quad = np.round(np.array(wizard.profile.tray.corners)).astype(np.int32)
            cv2.polylines(view, [quad], True, GREEN, 2, cv2.LINE_AA)
        for x, y in self.taps:
            cv2.circle(view, (round(x), round(y)), 7, YELLOW, 2, cv2.LINE_AA)
        for x0, y0, x1, y1 in self.live_boxes:
            cv2.rectangle(view, (x0 - 3, y0 - 3), (x1 + 3, y1 + 3), CYAN, 1)
        for x0, y0, x1, y1 in self.last_boxes:
            cv2.rectangle(view, (x0, y0), (x1, y1), YELLOW, 2)
        for i, (box, _kind, _face) in enumerate(self.reads):
            answer = self.answers[i] if i < len(self.answers) else None
            colour = GREEN if answer == self.reads[i][2] else RED
            cv2.rectangle(view, box[:2], box[2:], colour, 2)
            cv2.putText(view, str(i + 1), (box[0], box[1] - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.7, colour, 2)
        self._texture = _texture(view, self._texture)
        self.ids.preview.texture = self._texture

    def update_thumbnail(self, frame: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...]) -> None:
        """Show the dice of the last capture, cut out of the frame, beside the instruction."""
        if not boxes:
            return
        x0 = max(0, min(b[0] for b in boxes) - 8)
        y0 = max(0, min(b[1] for b in boxes) - 8)
        x1 = min(frame.shape[1], max(b[2] for b in boxes) + 8)
        y1 = min(frame.shape[0], max(b[3] for b in boxes) + 8)
        crop = np.ascontiguousarray(frame[y0:y1, x0:x1])
        self._thumb = _texture(crop, None)
        self.ids.thumb.texture = self._thumb


def _texture(frame: np.ndarray, texture: Texture | None) -> Texture:
    height, width = frame.shape[:2]
    if texture is None or tuple(texture.size) != (width, height):
        texture = Texture.create(size=(width, height), colorfmt="bgr")
        texture.flip_vertical()
    texture.blit_buffer(np.ascontiguousarray(frame).tobytes(), colorfmt="bgr", bufferfmt="ubyte")
    return texture


def _box4(values: Any) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = (int(v) for v in values)
    return (x0, y0, x1, y1)


def _number_in(box: tuple[int, int, int, int], numbers: list[tuple[tuple[int, int, int, int], int]]) -> int:
    """The pip reader's value for the die in ``box`` (0: it found no number die there)."""
    x0, y0, x1, y1 = box
    margin = max(4, (x1 - x0) // 4)
    for (a0, b0, a1, b1), value in numbers:
        cx, cy = (a0 + a1) / 2, (b0 + b1) / 2
        if x0 - margin <= cx <= x1 + margin and y0 - margin <= cy <= y1 + margin:
            return value
    return 0


def _name_key(name: str) -> str:
    """Profile names compared as the player means them: "Club" and " club " are one."""
    return " ".join(name.split()).casefold()
