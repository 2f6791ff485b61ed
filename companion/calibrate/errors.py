"""The wizard's errors: a step that cannot go on, with a message that tells the player what to do."""

from __future__ import annotations


class WizardError(ValueError):
    """A step cannot go on; the message tells the player what to do."""


class DiceOnEmptyTray(WizardError):
    """The empty-tray picture was refused: dice (or something die-sized) lie in the tray."""


class TrayTooSmall(WizardError):
    """The tapped tray area is too small to hold a few dice."""


class BrokenProfile(WizardError):
    """The profile being recalibrated has a part that cannot be used (the message names the file and part)."""
