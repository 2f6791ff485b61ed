"""Typing a count on a touchscreen: a modal number pad (0-9, Delete, Clear, Cancel, OK). Ratuki's score entry uses
it: a 35-card score pile is "3 5 OK" instead of seven taps of +5."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.window import Window
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion.i18n import _
from companion.ui.widgets import QuickModal

DELETE, CLEAR = "<", "C"


def typed(digits: str, key: str, maximum: int) -> tuple[str, bool]:
    """``digits`` after one key (a digit, :data:`DELETE` or :data:`CLEAR`) and whether it was taken: a digit that
    would make the number larger than ``maximum`` is refused, a leading 0 is dropped."""
    if key == DELETE:
        return digits[:-1], True
    if key == CLEAR:
        return "", True
    if not (len(key) == 1 and key.isdigit()):
        return digits, False
    candidate = (digits + key).lstrip("0") or "0"
    if int(candidate) > maximum:
        return digits, False
    return candidate, True


class NumberPad(QuickModal):
    """Enter a whole number from 0 to ``maximum``; OK hands it to ``on_done``. The first key replaces the value
    shown (a fresh count), Delete takes the last digit back. While the pad is open a desktop keyboard's digits
    type into it (they do not press the players' seat buttons 1-5). It closes at once (no fade), so the next tap
    lands on the screen."""

    digits = StringProperty("")
    maximum = NumericProperty(999)

    def __init__(
        self, title: str, value: int, on_done: Callable[[int], Any], *, maximum: int = 999, **kwargs: Any
    ) -> None:
        super().__init__(
            size_hint=(None, None),
            size=(dp(440), min(Window.height - dp(8), dp(452))),
            auto_dismiss=False,
            background="",
            background_color=(0.16, 0.16, 0.20, 1),
            overlay_color=(0, 0, 0, 0.75),
            **kwargs,
        )
        self.maximum = maximum
        self.start = int(value)
        self._on_done = on_done
        box = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(6))
        heading = Label(text=title, font_size=dp(19), bold=True, size_hint_y=None, height=dp(28), shorten=True)
        heading.bind(size=lambda w, s: setattr(w, "text_size", s))
        box.add_widget(heading)
        self.shown = Label(font_size=dp(36), bold=True, markup=True, size_hint_y=None, height=dp(48))
        self.note = Label(text="", font_size=dp(16), color=(1, 0.55, 0.5, 1), size_hint_y=None, height=dp(22))
        box.add_widget(self.shown)
        box.add_widget(self.note)
        keys = GridLayout(cols=3, spacing=dp(4))
        for key in ("1", "2", "3", "4", "5", "6", "7", "8", "9", CLEAR, "0", DELETE):
            text = {DELETE: _("Delete"), CLEAR: _("Clear")}.get(key, key)
            button = Factory.BigButton(text=text, font_size=dp(26) if key.isdigit() else dp(19), size_hint_y=1)
            button.bind(on_release=lambda _b, k=key: self.press(k))
            keys.add_widget(button)
        box.add_widget(keys)
        bottom = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(8))
        cancel = Factory.BigButton(text=_("Cancel"))
        cancel.bind(on_release=lambda _b: self.dismiss())
        self.ok = Factory.AccentButton(text=_("OK"))
        self.ok.bind(on_release=lambda _b: self.done())
        bottom.add_widget(cancel)
        bottom.add_widget(self.ok)
        box.add_widget(bottom)
        self.add_widget(box)
        self.fresh = True  # nothing typed yet: the value shown is the one before, the first key replaces it
        self.bind(digits=self._show)
        self._show()
        Window.bind(on_key_down=self._hard_key, on_key_up=self._swallow, on_textinput=self._hard_text)
        self.bind(on_dismiss=self._unbind_keys)

    @property
    def value(self) -> int:
        """The number the pad would hand over now."""
        if self.fresh:
            return self.start
        return int(self.digits) if self.digits else 0

    def _show(self, *_args: Any) -> None:
        if self.fresh:
            self.shown.text = f"[color=9e9e9e]{self.start}[/color][color=4fc3f7]|[/color]"
        else:
            self.shown.text = escape_markup(self.digits or "0") + "[color=4fc3f7]|[/color]"

    def press(self, key: str) -> None:
        """One on-screen key: a digit, Delete or Clear."""
        digits, taken = typed("" if self.fresh else self.digits, key, int(self.maximum))
        if not taken:
            self.note.text = _("At most {n}").format(n=int(self.maximum))
            return
        self.note.text = ""
        self.fresh = False
        self.digits = digits
        self._show()

    def done(self) -> None:
        value = self.value
        self.dismiss()
        self._on_done(value)

    def _unbind_keys(self, *_args: Any) -> None:
        Window.unbind(on_key_down=self._hard_key, on_key_up=self._swallow, on_textinput=self._hard_text)

    def _swallow(self, *_args: Any) -> bool:
        return True

    def _hard_key(self, _window: Any, key: int, *_args: Any) -> bool:
        if key == 8:
            self.press(DELETE)
        elif key in (13, 271):
            self.done()
        elif key == 27:
            self.dismiss()
        return True  # digits come through on_textinput; none of them presses a seat button

    def _hard_text(self, _window: Any, text: str) -> None:
        for char in text:
            if char.isdigit():
                self.press(char)
