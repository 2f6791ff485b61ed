"""The calibrate screen's words: each step's title and instruction, what a verify answer is called, the status
line's sentences, and an error of the wizard or the store as a line for the player (``guarded``: a button's action
shows it, never crashes)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

import cv2

from calibration.profile import ProfileError
from companion.calibrate.verify import Verification
from companion.calibrate.wizard import WizardError
from companion.i18n import N_, _, ngettext
from companion.ui.words import face_name
from companion.vision.tray import BRIGHT_RANGE, SHARP_ENOUGH

if TYPE_CHECKING:
    from companion.ui.screens.calibrate.screen import CalibrateScreen

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


def meter_text(sharpness: float, brightness: float) -> str:
    """The camera step's figures under its two meters, with what each needs."""
    return _("Sharpness {sharp} (need {sharp_need})\nBrightness {bright} (need {low}-{high})").format(
        sharp=f"{sharpness:.0f}",
        sharp_need=f"{SHARP_ENOUGH:.0f}",
        bright=f"{brightness:.0f}",
        low=f"{BRIGHT_RANGE[0]:.0f}",
        high=f"{BRIGHT_RANGE[1]:.0f}",
    )


def all_captured_sentence(kind: str) -> str:
    """Said when the last face of ``kind`` ("colour" or "picture") is captured."""
    return _("Every colour face captured. Tap Next") if kind == "colour" else _("Every picture face captured. Tap Next")


def again_sentence(kind: str) -> str:
    """Said when every face of ``kind`` is to be captured again."""
    return (
        _("Capture every colour face again (the saved ones are kept until all are done)")
        if kind == "colour"
        else _("Capture every picture face again (the saved ones are kept until all are done)")
    )


def skipped_sentence(kind: str, kept: bool) -> str:
    """Said when ``kind`` is skipped (``kept``: a saved calibration of it stays)."""
    if kind == "colour":
        return _("Colour skipped: the saved calibration is kept") if kept else _("Colour skipped")
    return _("Picture skipped: the saved calibration is kept") if kept else _("Picture skipped")


def restarted_sentence(size: tuple[int, int], old: tuple[int, int] | None) -> str:
    """Said when the wizard starts again for frames of ``size`` (``old``: the size it was calibrating)."""
    w, h = size
    if old:
        return _("Started again for {w}x{h} frames (the {ow}x{oh} profiles are kept)").format(
            w=w, h=h, ow=old[0], oh=old[1]
        )
    return _("Started again for {w}x{h} frames").format(w=w, h=h)


def read_sentence(count: int) -> str:
    """Said after verify's read of ``count`` dice."""
    if not count:
        return _("No dice found on the tray")
    return ngettext(
        "{n} die read: tap it if it is wrong, then Confirm",
        "{n} dice read: tap any that is wrong, then Confirm",
        count,
    ).format(n=count)


def unanswered_sentence(n: int) -> str:
    """Said when die ``n`` (from 1) has no answer yet at Confirm."""
    return _("Die {n} was not read: tap it and say what it shows ({number_die} for pips)").format(
        n=n, number_die=_("number die")
    )


def tally_sentence(verifications: Mapping[str, Verification]) -> str:
    """The running accuracy of each kind verified so far, after a roll is counted."""
    lines = [f"{_(KIND_NAMES.get(k, k))}: {t.summary()}" for k, t in verifications.items() if t.rolls]
    return "  ".join(lines) or _("Nothing to count")


def saved_sentence(name: str, kinds: Iterable[str]) -> str:
    """Said when the profile ``name`` is saved with ``kinds`` calibrated."""
    listed = ", ".join(_(KIND_NAMES.get(k, k)) for k in kinds) or _("tray only")
    return _("Saved '{name}' ({kinds}); it is now the active profile").format(name=name, kinds=listed)
