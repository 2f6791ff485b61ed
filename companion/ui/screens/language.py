"""Choosing the language: the first-start picker (before the home screen, when nothing is chosen yet) and the
settings screen (language, the font in use, how dates and numbers read). Each language is shown in its own
script, with no flags: a flag is a country, and Catalan, Spanish and Korean tables are not countries."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion import formatting, i18n
from companion.i18n import _, pgettext
from companion.ui import fonts
from companion.ui.screens import load_kv

load_kv("language")

# How each language is named in English: shown instead of its own name when the font cannot draw that.
ENGLISH_NAMES = {"en": "English", "ko": "Korean", "es": "Spanish", "ca": "Catalan"}


def language_name(code: str) -> str:
    """The language's name in its own script (in English when the font in use cannot draw it)."""
    own = i18n.LANGUAGES[code]
    return own if fonts.active().covers(own) else ENGLISH_NAMES[code]


def in_language(code: str, render: Callable[[], str]) -> str:
    """``render()`` worded in ``code`` (whatever the current language is), e.g. each picker button's own line."""
    with i18n.using(code):
        return render()


def order(first: str) -> list[str]:
    """The languages with ``first`` (the system's or the current one) at the top left."""
    return [first] + [code for code in i18n.LANGUAGES if code != first]


def fill_picker(grid: Any, current: str, on_choose: Callable[[str], Any], *, mark_current: bool) -> None:
    """Four big buttons, one a language: its name, and under it a line in that language. At first start the
    system's language comes first; in settings the order stays put and the one in use is lit."""
    grid.clear_widgets()
    for code in order(current) if not mark_current else list(i18n.LANGUAGES):
        # TRANSLATORS: under the language's own name on the language picker: "continue in <this language>".
        line = in_language(code, lambda: pgettext("language picker", "Continue in English"))
        if mark_current and code == current:
            line = in_language(code, lambda: pgettext("language picker", "✓ In use"))
        if not fonts.active().covers(line):
            line = ""
        text = f"[b]{escape_markup(language_name(code))}[/b]" + (
            f"\n[size={int(dp(18))}]{escape_markup(line)}[/size]" if line else ""
        )
        kind = Factory.AccentButton if code == current else Factory.BigButton
        button = kind(text=text, markup=True, font_size=dp(34), size_hint_y=1)
        button.language = code
        button.bind(on_release=lambda b: on_choose(b.language))
        grid.add_widget(button)


class LanguageScreen(Screen):
    """The first start: pick the table's language (the system's is first and lit). Home comes next."""

    def on_pre_enter(self, *_args: Any) -> None:
        self.reword()

    def reword(self) -> None:
        fill_picker(self.ids.choices, i18n.current(), self.choose, mark_current=False)

    def choose(self, code: str) -> None:
        app = App.get_running_app()
        app.choose_language(code)
        app.go("home")


class SettingsScreen(Screen):
    """Settings: the language (live, remembered), the font in use, and how dates and numbers read now."""

    font_text = StringProperty("")
    sample_text = StringProperty("")

    def on_pre_enter(self, *_args: Any) -> None:
        self.reword()

    def reword(self) -> None:
        fill_picker(self.ids.choices, i18n.current(), self.choose, mark_current=True)
        self.ids.title.text = _("Settings")
        self.ids.back.text = _("Back")
        self.ids.language_caption.text = _("Language")
        font = fonts.active()
        if font.problem:
            self.font_text = f"[color=ff8a80]{escape_markup(fonts.readable(fonts.notice(font)))}[/color]"
        else:
            self.font_text = _("Font: {family} (Hangul, accents and every player name)").format(family=font.family)
        now = _dt.datetime.now()
        self.sample_text = _("Dates and numbers: {date} · {time} · {number}").format(
            date=formatting.date(now), time=formatting.time(now), number=formatting.number(1234.5)
        )

    def choose(self, code: str) -> None:
        App.get_running_app().choose_language(code)
