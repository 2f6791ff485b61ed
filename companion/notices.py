"""What the players are told about problems around the game (hardware, config, files): a :class:`Notice` has a
topic (one notice per topic is shown; a newer one replaces it, ``None`` clears it), a severity and the text.

Code decides by the type, never by the wording: the text is for people and changes with the language."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from enum import IntEnum, StrEnum

from companion.i18n import Text, text


class Topic(StrEnum):
    """The topics the app itself raises notices under (screens may use others); equal to the plain string."""

    BUTTONS = "buttons"
    CAMERA = "camera"
    CALIBRATION = "calibration"
    DICE_MEMORY = "dice-memory"
    CONFIG = "config"
    JOURNAL = "journal"
    DAMAGED_GAMES = "damaged-games"
    RESUME = "resume"
    HISTORY = "history"
    FONT = "font"
    LANGUAGE = "language"
    PREFERENCES = "preferences"
    ERROR = "error"


class Severity(IntEnum):
    """How bad it is, as the log records it: the game goes on in every case."""

    INFO = logging.INFO  # something the players may like to know (a fallback that works)
    WARNING = logging.WARNING  # a part does not work as configured; the app works around it
    ERROR = logging.ERROR  # something failed (a damaged file, an uncaught error); nothing committed is lost


@dataclass(frozen=True)
class Notice:
    """One notice: its topic, severity and text (a :class:`companion.i18n.Lazy` re-words after a language
    switch). ``str()`` gives the text in the current language."""

    topic: str
    severity: Severity
    text: Text

    def __str__(self) -> str:
        return text(self.text)
