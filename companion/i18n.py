"""Translation of user-facing text (gettext, standard library only, so engines may use it too).

Every string a player reads goes through ``_()`` (or ``ngettext`` for counts) at the moment it is shown, never at
import time, so that a language switch takes effect on the next draw. ``N_()`` marks a string for extraction
where it must be stored untranslated (a table of labels) and translated later with ``_()``; :class:`Lazy` keeps a
message (with its arguments) that is worded again in whatever language is current when it is shown (a notice
that stays on screen across a language switch).

Catalogues are ``companion/locale/<lang>/LC_MESSAGES/companion.po``, compiled to ``.mo`` by the build (see
``tools/build_backend.py``); the source strings are English, and English has a catalogue of its own too.

Placeholders are named (``"{name} takes the stack"``) so a translation may put them in any order. A translated
string's ``format`` also takes Korean particle choices after a name: ``"{name:이/가}"`` gives ``민수가`` /
``지민이``: the form after a final consonant first, the one after a vowel second (Ana가, Tom이).
"""

from __future__ import annotations

import gettext as _gettext
import logging
import os
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

DOMAIN = "companion"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

# Language code -> its name in its own script (shown as is in every language: a player looks for their own).
LANGUAGES: dict[str, str] = {"en": "English", "ko": "한국어", "es": "Español", "ca": "Català"}
DEFAULT_LANGUAGE = "en"
# Babel/CLDR locale used for dates and numbers in each language.
LOCALES: dict[str, str] = {"en": "en_GB", "ko": "ko_KR", "es": "es_ES", "ca": "ca_ES"}

log = logging.getLogger(__name__)


class Translated(str):
    """A translated string; its :meth:`format` also understands Korean particle choices (``{name:을/를}``)."""

    __slots__ = ()

    def format(self, *args: Any, **kwargs: Any) -> str:
        return str.format(self, *(_word(a) for a in args), **{k: _word(v) for k, v in kwargs.items()})

    def format_map(self, mapping: Mapping[str, Any]) -> str:  # type: ignore[override]
        return str.format_map(self, {k: _word(v) for k, v in mapping.items()})


class Word(str):
    """A name or number inside a sentence: ``format(word, "이/가")`` picks the particle that follows it."""

    __slots__ = ()

    def __format__(self, spec: str) -> str:
        if "/" in spec and not spec.startswith(("<", ">", "^")):
            after_consonant, _, after_vowel = spec.partition("/")
            return str(self) + (after_consonant if ends_in_consonant(str(self), after_consonant) else after_vowel)
        return str.__format__(str(self), spec)


class Number(int):
    """An integer inside a sentence: ``{n:이/가}`` picks the particle after it as the number is read."""

    def __format__(self, spec: str) -> str:
        if "/" in spec:
            return format(Word(str(int(self))), spec)
        return int.__format__(int(self), spec)


def _word(value: Any) -> Any:
    if isinstance(value, str) and not isinstance(value, Word):
        return Word(value)
    if isinstance(value, int) and not isinstance(value, bool | Number):
        return Number(value)
    return value


# How a digit is read in Korean (Sino-Korean), for the particle after a number: 일, 이, 삼, 사, 오, 육, 칠, 팔, 구, 영.
_DIGIT_ENDS_IN_CONSONANT = {"0": True, "1": True, "2": False, "3": True, "4": False, "5": False, "6": True, "7": True}
_DIGIT_ENDS_IN_CONSONANT.update({"8": True, "9": False})


def ends_in_consonant(word: str, particle: str = "") -> bool:
    """Whether a Korean particle after ``word`` takes its after-consonant form. Hangul: the last syllable's
    final consonant (for 으로/로, a final ㄹ counts as a vowel); digits as read aloud; Latin letters as an
    English name is said (Tom, Ben: yes; Ana, Bo, Dee: no)."""
    text = word.rstrip(" )]}\"'’.!?")
    if not text:
        return False
    last = text[-1]
    code = ord(last)
    if 0xAC00 <= code <= 0xD7A3:
        final = (code - 0xAC00) % 28
        if particle.startswith("으로") and final == 8:  # ㄹ: "서울로", not "서울으로"
            return False
        return final != 0
    if last in _DIGIT_ENDS_IN_CONSONANT:
        return _DIGIT_ENDS_IN_CONSONANT[last]
    if last.isalpha() and last.isascii():
        return last.lower() in "bcdgjklmnpqrtvxz" and not text.lower().endswith(("ey", "ay", "oy"))
    return False


class _Fallback(_gettext.NullTranslations):
    """No catalogue: the English source text, still :class:`Translated`."""


_translation: _gettext.NullTranslations = _Fallback()
_language = DEFAULT_LANGUAGE
_listeners: list[Callable[[str], Any]] = []


def _(message: str) -> str:
    """``message`` in the current language."""
    return Translated(_translation.gettext(message))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of ``singular``/``plural`` for ``n`` in the current language (its catalogue's plural rule)."""
    return Translated(_translation.ngettext(singular, plural, n))


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, told apart from the same English text by ``context``."""
    return Translated(_translation.pgettext(context, message))


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """:func:`ngettext` with a context."""
    return Translated(_translation.npgettext(context, singular, plural, n))


def N_(message: str) -> str:
    """``message`` unchanged, marked for extraction."""
    return message


class Lazy:
    """A message worded when it is shown: ``str(Lazy("Game {id} ...", id=3))`` translates in the language of
    that moment. ``plural``/``n`` make it an ngettext message, ``context`` a pgettext one. Arguments that are
    themselves :class:`Lazy` are worded too."""

    __slots__ = ("context", "kwargs", "message", "n", "plural")

    def __init__(
        self,
        message: str,
        *,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
        **kwargs: Any,
    ) -> None:
        self.message = message
        self.plural = plural
        self.n = n
        self.context = context
        self.kwargs = kwargs

    def __str__(self) -> str:
        if self.plural is not None:
            n = int(self.n or 0)
            text = (
                npgettext(self.context, self.message, self.plural, n)
                if self.context
                else ngettext(self.message, self.plural, n)
            )
        else:
            text = pgettext(self.context, self.message) if self.context else _(self.message)
        if not self.kwargs and self.plural is None:
            return text
        values = {k: str(v) if isinstance(v, Lazy) else v for k, v in self.kwargs.items()}
        if self.plural is not None:
            values.setdefault("n", self.n)
        return Translated(text).format(**values)

    def __repr__(self) -> str:
        return f"Lazy({self.message!r}, {self.kwargs!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Lazy):
            return (self.message, self.plural, self.n, self.context, self.kwargs) == (
                other.message,
                other.plural,
                other.n,
                other.context,
                other.kwargs,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.message, self.plural, self.n, self.context))


def lazy_n(singular: str, plural: str, n: int, **kwargs: Any) -> Lazy:
    """A :class:`Lazy` plural message (``{n}`` is the count)."""
    return Lazy(singular, plural=plural, n=n, **kwargs)


def lazy_p(context: str, message: str, **kwargs: Any) -> Lazy:
    """A :class:`Lazy` message with a context."""
    return Lazy(message, context=context, **kwargs)


Text = str | Lazy


def text(value: Text | None) -> str:
    """A message as it reads now (``None`` reads as empty)."""
    return "" if value is None else str(value)


# -- choosing and switching the language -----------------------------------------------------------------------


def install(translation: _gettext.NullTranslations, language: str | None = None) -> None:
    """Make ``translation`` the current language (and tell the listeners, see :func:`on_change`)."""
    global _translation, _language
    _translation = translation
    if language is not None:
        _language = language
    for listener in list(_listeners):
        listener(_language)


@contextmanager
def using(language: str) -> Iterator[None]:
    """Word things in ``language`` inside the ``with`` block only (no listener is told): each language picker
    button says its line in its own language."""
    global _translation, _language
    saved = _translation, _language
    _translation, _language = translation(language)[0], language if language in LANGUAGES else DEFAULT_LANGUAGE
    try:
        yield
    finally:
        _translation, _language = saved


def current() -> str:
    """The current language code (``en``, ``ko``, ``es``, ``ca``)."""
    return _language


def current_locale() -> str:
    """The Babel/CLDR locale of the current language (``ko_KR``...), for dates and numbers."""
    return LOCALES.get(_language, "en_GB")


def on_change(listener: Callable[[str], Any]) -> Callable[[], None]:
    """Call ``listener(code)`` after every language switch; returns a function that stops it."""
    _listeners.append(listener)

    def stop() -> None:
        if listener in _listeners:
            _listeners.remove(listener)

    return stop


def catalogue_file(language: str, suffix: str = ".mo") -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def translation(language: str) -> tuple[_gettext.NullTranslations, str | None]:
    """The catalogue for ``language`` and, when it could not be used as built, why (the English text is used
    then). A ``.mo`` older than its ``.po`` (a catalogue edited in a checkout) is compiled again in memory."""
    if language not in LANGUAGES:
        return _Fallback(), f"unknown language {language!r} (known: {', '.join(LANGUAGES)})"
    mo, po = catalogue_file(language), catalogue_file(language, ".po")
    try:
        stale = not mo.exists() or (po.exists() and po.stat().st_mtime > mo.stat().st_mtime)
        if not stale:
            with open(mo, "rb") as handle:
                return _gettext.GNUTranslations(handle), None
    except (OSError, ValueError) as err:  # a damaged .mo (ValueError/OSError from the parser)
        log.warning("catalogue %s cannot be read: %s", mo, err)
    if po.exists():
        try:
            return compile_in_memory(po), None
        except Exception as err:  # Babel missing, or a broken .po: English, and say so
            return _Fallback(), f"the {LANGUAGES[language]} catalogue cannot be read ({err})"
    return _Fallback(), f"the {LANGUAGES[language]} catalogue is not installed ({mo})"


def compile_in_memory(po: Path) -> _gettext.GNUTranslations:
    """``po`` compiled with Babel, without writing a file."""
    import io

    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with open(po, "rb") as handle:
        catalog = read_po(handle)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def set_language(language: str) -> str | None:
    """Switch to ``language`` now; returns why its catalogue could not be used, or ``None``."""
    catalogue, problem = translation(language)
    install(catalogue, language if language in LANGUAGES else DEFAULT_LANGUAGE)
    return problem


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The supported language the system locale asks for (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    as gettext reads them), else English. ``ca_ES.UTF-8`` -> ``ca``; ``LANGUAGE=gl:es`` -> ``es``."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].split("-")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":  # LANGUAGE lists fallbacks; the first LC_* that is set decides
            break
    return DEFAULT_LANGUAGE


def and_list(items: list[str]) -> str:
    """ "Ana", "Ana and Bo", "Ana, Bo and Cai" in the current language (Korean: "Ana, Bo, Cai")."""
    names = [str(item) for item in items]
    if len(names) <= 1:
        return names[0] if names else ""
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def a_number(number: int) -> str:
    """The number with its article, as said aloud: "a 7", but "an 8", "an 11", "an 18", "an 80" (English);
    "un 8" in Spanish and Catalan; the bare number in Korean."""
    language = current()
    if language in ("es", "ca"):
        return f"un {number}"
    if language == "ko":
        return str(number)
    lead = abs(number)
    while lead >= 1000:  # 11 000 is "eleven thousand": the leading group is what is said first
        lead //= 1000
    return f"{'an' if lead in (11, 18) or str(lead).startswith('8') else 'a'} {number}"
