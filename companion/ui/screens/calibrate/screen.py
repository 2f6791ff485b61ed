"""Calibrate: the touch wizard that teaches the app this table's camera, tray, colour dice and picture die.

Steps (``companion.calibrate.wizard.STEPS``): camera focus/exposure meters -> tray area (ArUco markers, or four
taps on the live image) -> empty-tray reference -> show each colour face -> show each picture face -> verify (roll, the
app reads, the player confirms or corrects) -> name and save (or choose another saved profile). The logic is in
``companion.calibrate.wizard``; this screen feeds it frames from the app's camera feed and shows what it says.
Without a camera the screen says so and the rest of the app keeps working (touch entry of dice).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.screenmanager import Screen

from calibration.profile import ProfileError
from calibration.store import ProfileStore
from companion import paths
from companion.calibrate.wizard import STEPS, Wizard, WizardError
from companion.i18n import _
from companion.ui.screens import load_kv
from companion.ui.screens.calibrate import words
from companion.ui.screens.calibrate.chips import build_chips
from companion.ui.screens.calibrate.preview import Preview, overlay, thumbnail, to_texture
from companion.ui.screens.calibrate.save import name_key, replace_kwargs, would_replace
from companion.ui.screens.calibrate.steps import step_view, tray_roll
from companion.ui.screens.calibrate.verify import Read, pip_numbers, record_answers, with_numbers
from companion.ui.screens.calibrate.words import ACTION_ERRORS, WAITING, guarded, problem_sentence
from companion.ui.words import face_name
from companion.vision.tray import SHARP_ENOUGH
from hardware.simtray import TrayRoll

load_kv("calibrate/screen")

__all__ = ["CalibrateScreen", "Preview"]


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
        self.reads: list[Read] = []
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
            self.meter_text = words.meter_text(exposure.sharpness, exposure.brightness)
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

    # -- actions (buttons in screen.kv) ----------------------------------------------------------------------------
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
                    self.show(words.all_captured_sentence(self.step))
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
            self.show(words.restarted_sentence((w, h), old))

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
            self.show(words.again_sentence(self.step))
        elif self.step in ("colour", "picture"):
            self.show(words.skipped_sentence(self.step, kept=getattr(wizard.profile, self.step) is not None))
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
            reads = with_numbers(reads, pip_numbers(frame, self.wizard.profile.tray))
        self.reads = reads
        self.answers = [face for _, _, face in self.reads]
        self.choosing = None
        self.show(words.read_sentence(len(self.reads)), error=not self.reads)

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
            self.show(words.unanswered_sentence(unanswered[0]), error=True)
            return
        record_answers(self.wizard, self.reads, self.answers)
        self.reads, self.answers = [], []
        confused = any(t.confusions() for t in self.wizard.verifications.values())
        self.show(words.tally_sentence(self.wizard.verifications), error=confused)

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
        just_saved = self.saved_name is not None and name_key(self.saved_name) == name_key(name)
        if self.replace_name != name and not just_saved and would_replace(self.wizard, self.store, name):
            self.ask_replace(name)
            return
        self.write_profile(name, replace=self.replace_name == name or just_saved)

    def ask_replace(self, name: str) -> None:
        """Ask before a save replaces the profile called ``name``."""
        self.replace_name = name
        self.show(_("A profile called '{name}' exists: replace it?").format(name=name), error=True)

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
        try:
            profile = self.wizard.save(self.store, name, **replace_kwargs(self.wizard, replace))
        except ProfileError as exc:
            if replace or type(exc).__name__ != "ProfileExists":
                raise
            self.ask_replace(name)  # the store found it when the screen did not: ask all the same
            return
        self.problem, self.saved_name = "", profile.name
        self.show(words.saved_sentence(profile.name, profile.calibrated_kinds()))

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
        view = step_view(
            self.wizard,
            has_camera=self.has_camera,
            has_frame=self.frame is not None,
            reading=bool(self.reads),
            tapping=self.tapping,
            choosing=self.choosing,
            mismatch=self.mismatch,
        )
        self.step, self.step_title, self.step_count, self.progress = view.step, view.title, view.count, view.progress
        self.instruction, self.choosing_now = view.instruction, view.choosing_now
        self.primary_text, self.primary_enabled = view.primary_text, view.primary_enabled
        self.secondary_text, self.next_enabled = view.secondary_text, view.next_enabled
        build_chips(self)
        if self.simulated:
            App.get_running_app().expect_dice(self.tray_roll())

    def tray_roll(self) -> TrayRoll | None:
        """What the step asks to put on the tray, for the simulated tray to show."""
        return tray_roll(self.wizard, self.step, self.mismatch)

    def draw_preview(self) -> None:
        """The live picture with what the wizard knows drawn on it: tray, taps, captured or read dice."""
        if self.frame is None:
            return
        wizard = self.wizard
        tray = wizard.profile.tray if wizard is not None and self.step != "camera" else None
        view = overlay(
            self.frame,
            tray.corners if tray is not None else None,
            self.taps,
            self.live_boxes,
            self.last_boxes,
            self.reads,
            self.answers,
        )
        self._texture = to_texture(view, self._texture)
        self.ids.preview.texture = self._texture

    def update_thumbnail(self, frame: np.ndarray, boxes: tuple[tuple[int, int, int, int], ...]) -> None:
        """Show the dice of the last capture, cut out of the frame, beside the instruction."""
        if not boxes:
            return
        self._thumb = to_texture(thumbnail(frame, boxes), None)
        self.ids.thumb.texture = self._thumb
