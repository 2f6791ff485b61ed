"""Typing a player's name on a touchscreen with no keyboard: big on-screen keys in a modal, with the
configured names as one-tap presets (a desktop keyboard types into it too)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.core.window import Window
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.utils import escape_markup

from companion.config import MAX_NAME  # fits the player strips of every game screen
from companion.i18n import _

KEY_ROWS = ["1234567890", "qwertyuiop", "asdfghjkl-", "^zxcvbnm <"]  # < delete, ^ shift (one letter)


class NamePad(ModalView):
    """Edit ``text``; OK hands the stripped name to ``on_done``. An empty name is refused on the pad, unless
    ``empty`` says what an empty entry means (shown while it is empty; OK then hands over ""). ``limit``: the
    most characters it takes."""

    text = StringProperty("")
    shift = BooleanProperty(True)  # the next letter is a capital (on at the start and after a space)

    def __init__(
        self,
        text: str,
        presets: Sequence[str],
        on_done: Callable[[str], None],
        *,
        limit: int = MAX_NAME,
        empty: str | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            size_hint=(None, None),
            size=(min(Window.width, dp(800)), min(Window.height, dp(480))),
            auto_dismiss=False,
            background="",
            background_color=(0.12, 0.12, 0.15, 1),
            **kwargs,
        )
        self.limit = limit
        self.empty = empty
        self.text = text[:limit]
        self._on_done = on_done
        box = BoxLayout(orientation="vertical", padding=dp(6), spacing=dp(6))
        top = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        cancel = Factory.BigButton(text=_("Cancel"), size_hint_x=None, width=dp(100))
        cancel.bind(on_release=lambda _b: self.dismiss())
        self.shown = Label(font_size=dp(28), bold=True, halign="left", valign="middle")
        self.shown.bind(size=lambda w, s: setattr(w, "text_size", s))
        self.bind(text=self._show)
        self._show()
        clear = Factory.BigButton(text=_("Clear"), size_hint_x=None, width=dp(90))
        clear.bind(on_release=lambda _b: self.clear())
        ok = Factory.AccentButton(text=_("OK"), size_hint_x=None, width=dp(110))
        ok.bind(on_release=lambda _b: self.done())
        for widget in (cancel, self.shown, clear, ok):
            top.add_widget(widget)
        box.add_widget(top)
        chips = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        for name in list(dict.fromkeys(presets))[:6]:
            chip = Factory.BigButton(text=name, font_size=dp(18), height=dp(52))
            chip.bind(on_release=lambda _b, n=name: setattr(self, "text", n.strip()[: self.limit]))
            chips.add_widget(chip)
        box.add_widget(chips)
        self.keyboard = BoxLayout(orientation="vertical", spacing=dp(4))
        for row in KEY_ROWS:
            line = BoxLayout(spacing=dp(4))
            for char in row:
                label = {"<": _("Delete"), " ": _("Space"), "^": "Aa"}.get(char, char)
                key = Factory.BigButton(text=label, font_size=dp(22), size_hint_y=1)
                if char in "<^ ":
                    key.size_hint_x = 2 if char == " " else 1.5
                key.bind(on_release=lambda _b, c=char: self.press(c))
                line.add_widget(key)
            self.keyboard.add_widget(line)
        box.add_widget(self.keyboard)
        self.add_widget(box)
        self.shift = not text
        self._label_keys()
        Window.bind(on_key_down=self._hard_key, on_key_up=self._swallow, on_textinput=self._hard_text)
        self.bind(on_dismiss=self._unbind_keys)

    def _unbind_keys(self, *_args: Any) -> None:
        Window.unbind(on_key_down=self._hard_key, on_key_up=self._swallow, on_textinput=self._hard_text)

    def _swallow(self, *_args: Any) -> bool:
        return True  # key releases while typing are not seat-button releases either

    def _show(self, *_args: Any) -> None:
        hint = self.empty if self.empty is not None else _("type a name")
        shown = escape_markup(self.text) if self.text else "[color=888888]" + escape_markup(hint) + "[/color]"
        self.shown.text = shown + "[color=4fc3f7]|[/color]"
        self.shown.markup = True

    def type(self, chars: str) -> None:
        """Append ``chars`` (cut at the name length limit)."""
        self.text = (self.text + chars)[: self.limit]

    def clear(self) -> None:
        self.text = ""
        self.shift = True
        self._label_keys()

    def backspace(self) -> None:
        self.text = self.text[:-1]

    def done(self) -> None:
        name = self.text.strip()
        if not name and self.empty is None:
            self.shown.text = "[color=ff8a80]" + escape_markup(_("A name cannot be empty")) + "[/color]"
            return
        self.dismiss()
        self._on_done(name)

    def press(self, char: str) -> None:
        """One on-screen key: a letter (capital after Aa, at the start and after a space), Space, Delete."""
        if char == "<":
            self.backspace()
        elif char == "^":
            self.shift = not self.shift
        else:
            self.type(char.upper() if self.shift else char)
            self.shift = char == " "
        self._label_keys()

    def _label_keys(self) -> None:
        for line in self.keyboard.children:
            for key in line.children:
                if len(key.text) == 1 and key.text.isalpha():
                    key.text = key.text.upper() if self.shift else key.text.lower()

    def _hard_key(self, _window: Any, key: int, *_args: Any) -> bool:
        # A physical keyboard (desktop): Backspace and Enter here; letters come through on_textinput.
        if key == 8:
            self.backspace()
        elif key == 13:
            self.done()
        elif key == 27:
            self.dismiss()
        return True  # while the pad is open, digits type, they do not press seat buttons

    def _hard_text(self, _window: Any, text: str) -> None:
        if text.isprintable():
            self.type(text)
