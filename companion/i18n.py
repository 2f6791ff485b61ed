"""Translation of user-facing text (gettext, standard library only, so engines may use it too).

Every string a player reads goes through ``_()`` (or ``ngettext`` for counts) at the moment it is shown, never at
import time, so that a language switch takes effect on the next draw. ``N_()`` marks a string for extraction
where it must be stored untranslated (a table of labels) and translated later with ``_()``.
"""

from __future__ import annotations

import gettext as _gettext

_translation: _gettext.NullTranslations = _gettext.NullTranslations()


def _(message: str) -> str:
    """``message`` in the current language."""
    return _translation.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language (its catalogue's plural rule)."""
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English text by ``context``."""
    return _translation.pgettext(context, message)


def N_(message: str) -> str:
    """``message`` unchanged, marked for extraction."""
    return message


def install(translation: _gettext.NullTranslations) -> None:
    """Make ``translation`` the current language."""
    global _translation
    _translation = translation
