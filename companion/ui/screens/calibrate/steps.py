"""What the calibrate screen shows for the wizard's state, worked out without Kivy: the step's title, instruction
and buttons (:func:`step_view`), and what the simulated tray puts down for it (:func:`tray_roll`)."""

from __future__ import annotations

from dataclasses import dataclass

from companion.calibrate.wizard import STEP_TITLES, STEPS, Wizard
from companion.i18n import _
from companion.ui.screens.calibrate.words import INSTRUCTIONS, STEP_WORDS
from companion.ui.words import face_name
from hardware.simtray import TrayRoll


@dataclass(frozen=True)
class StepView:
    """The screen's labels and buttons for one state of the wizard."""

    step: str
    title: str
    count: str
    progress: float
    instruction: str
    primary_text: str
    primary_enabled: bool
    secondary_text: str
    next_enabled: bool
    choosing_now: bool


def step_view(
    wizard: Wizard | None,
    *,
    has_camera: bool,
    has_frame: bool,
    reading: bool,
    tapping: bool,
    choosing: int | None,
    mismatch: tuple[int, int] | None,
) -> StepView:
    """The labels and buttons for ``wizard`` (None: not started), ``reading``: verify's dice are read and wait for
    Confirm; ``choosing``: the die being corrected; ``mismatch``: the camera's frame size when it differs."""
    step = wizard.step if wizard is not None else STEPS[0]
    title = _(STEP_WORDS[step]) if step in STEP_WORDS else STEP_TITLES[step]
    next_enabled = wizard is not None and step != "save"
    secondary_text = ""
    primary_enabled = wizard is not None and has_frame
    if step in ("colour", "picture") and wizard is not None:
        task = wizard.task(step)
        face = task.current
        if face and step == "colour":
            instruction = _(
                "Put the colour dice (all of them) on the tray with [b]{face}[/b] on top, tap Capture. "
                "Roll between captures."
            ).format(face=face_name(face).upper())
        elif face:
            instruction = _(
                "Put only the picture die on the tray with [b]{face}[/b] on top, tap Capture. Roll between captures."
            ).format(face=face_name(face).upper())
        elif step == "colour":
            instruction = _("Every colour face is captured. Tap Next, or capture them all again.")
        else:
            instruction = _("Every picture face is captured. Tap Next, or capture them all again.")
        primary_text = _("Capture {face}").format(face=face_name(face)) if face else ""
        primary_enabled = primary_enabled and face is not None
        secondary_text = _("Skip") if face else _("Capture all again")
    elif wizard is None:
        instruction = "" if has_camera else _("Calibration learns your dice from the camera's pictures.")
        primary_text = ""
    else:
        instruction = _(INSTRUCTIONS[step]) if step in INSTRUCTIONS else ""
        primary_text = {
            "camera": "",
            "tray": _("Find markers"),
            "empty": _("Capture"),
            "verify": _("Confirm") if reading else _("Read"),
            "save": _("Save"),
        }[step]
        if step == "tray":
            secondary_text = _("Cancel taps") if tapping else _("Tap corners")
        if step == "verify":
            secondary_text = _("Read again") if reading else ""
            primary_enabled = primary_enabled and bool(wizard.profile.calibrated_kinds())
            if not wizard.profile.calibrated_kinds():
                instruction = _("Nothing to verify yet: capture colour or picture faces first (or tap Next).")
        if step == "save":
            primary_enabled = True
    if step == "empty" and wizard is not None:
        next_enabled = wizard.empty_image is not None
    choosing_now = step == "verify" and choosing is not None
    if choosing_now and choosing is not None:
        instruction = _("What does die {n} show?").format(n=choosing + 1)
    if mismatch is not None and wizard is not None:
        (w, h), (ow, oh) = mismatch, wizard.profile.resolution
        instruction = _(
            "The camera now gives {w}x{h} pictures; this calibration is for {ow}x{oh}. Set the camera back to "
            "{ow}x{oh}, or start again at {w}x{h} (saved profiles are kept)."
        ).format(w=w, h=h, ow=ow, oh=oh)
        primary_text, primary_enabled = _("Start again at {w}x{h}").format(w=w, h=h), True
        secondary_text, next_enabled = "", False
    return StepView(
        step=step,
        title=title,
        count=f"{STEPS.index(step) + 1}/{len(STEPS)}",
        progress=wizard.progress if wizard is not None else 0.0,
        instruction=instruction,
        primary_text=primary_text,
        primary_enabled=primary_enabled,
        secondary_text=secondary_text,
        next_enabled=next_enabled,
        choosing_now=choosing_now,
    )


def tray_roll(wizard: Wizard | None, step: str, mismatch: tuple[int, int] | None) -> TrayRoll | None:
    """What the step asks to put on the tray, for the simulated tray to show: nothing for the empty tray,
    the colour dice or the picture die with the face to capture up, all kinds to verify."""
    if wizard is None or mismatch is not None:
        return None
    if step == "empty":
        return TrayRoll.empty()
    if step in ("colour", "picture"):
        face = wizard.task(step).current
        if face is None:
            return None
        if step == "colour":
            return TrayRoll(colours=2, colour_face=face)
        return TrayRoll(pictures=1, picture_face=face)
    if step == "verify":
        return TrayRoll(pips=(1, 1), colours=2, pictures=1)
    return None
