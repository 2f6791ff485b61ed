"""The banner under the screens: the notices fitted to its two lines (measured in the UI font), and Kivy's last
line, :class:`KeepRunning`, which shows there an error no screen caught."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kivy.base import ExceptionHandler, ExceptionManager

from companion.games.base import error_words
from companion.i18n import _
from companion.notices import Severity, Topic

if TYPE_CHECKING:
    from companion.ui.app import CompanionApp

log = logging.getLogger("companion.ui.app")  # the app's log, as before these were split out of it

BANNER_FONT = 17  # dp
BANNER_SLACK = 48  # dp a wrapped line may lose at its end (the word that did not fit) and the side margins


def fit_text(text: str, width: float, font_size: float) -> str:
    """``text``, cut with an ellipsis so that it is at most ``width`` pixels wide in the UI font at ``font_size``
    pixels (measured, not counted in characters)."""
    from kivy.core.text import Label as CoreLabel

    measure = CoreLabel(font_size=font_size)

    def wide(candidate: str) -> float:
        return float(measure.get_extents(candidate)[0])

    if wide(text) <= width:
        return text
    low, high = 0, len(text)
    while low < high:  # the longest cut that fits
        mid = (low + high + 1) // 2
        if wide(text[:mid].rstrip() + "…") <= width:
            low = mid
        else:
            high = mid - 1
    return text[:low].rstrip() + "…"


def banner_text(newest: Sequence[str], line: float, font_size: float) -> str:
    """The banner for the notices' texts, newest first, in lines ``line`` pixels wide. Two lines at most, so the
    banner has one height whatever it says and the screen above it never moves twice: the newest notice alone may
    wrap to two lines; with more, each has a line of its own. Tap to read them all in full."""
    if len(newest) == 1:
        return fit_text(newest[0], 2 * line, font_size)
    return "\n".join(fit_text(text, line, font_size) for text in newest[:2])


class KeepRunning(ExceptionHandler):  # type: ignore[misc]
    """Kivy's last line: an error no screen caught, in any callback of the UI loop, is logged with its
    traceback and shown on the banner; the app and the game in progress go on (every accepted move is in the
    journal already). Ctrl-C and a requested exit still stop the app."""

    REPEATS_LOGGED = 3  # the same error raised every frame is logged in full this often, then counted

    def __init__(self, app: CompanionApp) -> None:
        self.app = app
        self.seen: dict[str, int] = {}

    def handle_exception(self, exception: BaseException) -> int:
        if isinstance(exception, KeyboardInterrupt | SystemExit):
            return int(ExceptionManager.RAISE)
        what = f"{type(exception).__name__}: {exception}"[:160]
        count = self.seen[what] = self.seen.get(what, 0) + 1
        if count <= self.REPEATS_LOGGED:
            log.error("uncaught error in the UI loop (the app goes on)", exc_info=exception)
        elif count % 100 == 0:
            log.error("the same uncaught error again (%d times): %s", count, what)
        try:
            self.app.notice(
                Topic.ERROR,
                _("Something went wrong ({error}). The game is kept: carry on, or go Home and continue it.").format(
                    error=error_words(exception)
                ),
                Severity.ERROR,
            )
        except Exception:
            log.exception("the error could not be shown")
        return int(ExceptionManager.PASS)
