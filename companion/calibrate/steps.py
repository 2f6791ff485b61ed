"""The calibration walk-through's steps in order and their titles, and a die face as the players call it (for the
wizard's sentences and the verify summary)."""

from __future__ import annotations

from enum import StrEnum

from companion.i18n import _, pgettext


class Step(StrEnum):
    """A step of the walk-through; equal to its name as a string."""

    CAMERA = "camera"
    TRAY = "tray"
    EMPTY = "empty"
    COLOUR = "colour"
    PICTURE = "picture"
    VERIFY = "verify"
    SAVE = "save"


STEPS: tuple[Step, ...] = tuple(Step)
"""The wizard's steps in order; "colour" and "picture" may be skipped (their old data is then kept)."""


def face_words(face: str) -> str:
    """A die face as the players call it ("rojo", "고양이"), for the wizard's sentences; unknown faces as they are
    (the same catalogue words as the game screens')."""
    words = {
        "red": lambda: pgettext("colour", "red"),
        "orange": lambda: pgettext("colour", "orange"),
        "purple": lambda: pgettext("colour", "purple"),
        "blue": lambda: pgettext("colour", "blue"),
        "green": lambda: pgettext("colour", "green"),
        "yellow": lambda: pgettext("colour", "yellow"),
        "cat": lambda: pgettext("picture die", "cat"),
        "rat": lambda: pgettext("picture die", "rat"),
        "swap": lambda: pgettext("picture die", "swap"),
        "unknown": lambda: _("unknown"),
    }
    wording = words.get(str(face))
    return wording() if wording is not None else str(face)


STEP_TITLES = {
    Step.CAMERA: "Camera check",
    Step.TRAY: "Tray area",
    Step.EMPTY: "Empty tray",
    Step.COLOUR: "Colour dice",
    Step.PICTURE: "Picture die",
    Step.VERIFY: "Verify",
    Step.SAVE: "Save profile",
}
