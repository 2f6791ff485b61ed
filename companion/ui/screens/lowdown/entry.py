"""Lowdown's dice entry by touch (the open roll, 2 colour + 2 number dice, and a physical secret pair, 1 + 1): the
dice chosen so far, one row of colours and one of numbers, and the camera. Taps are forwarded to the screen."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.utils import get_color_from_hex

from companion.games.lowdown.wording import colour_name
from companion.i18n import _
from companion.ui.screens import load_kv
from companion.ui.widgets import readable_text

EMPTY = (0.2, 0.2, 0.24, 1)  # a die still to be chosen
NUMBER_DIE = (0.93, 0.93, 0.9, 1)


class DieTile(Button):
    """A die on the right panel: a colour die shows its colour, a number die its number; tap to pick it."""

    picked = BooleanProperty(False)
    kind = StringProperty("")  # "colour" or "number"
    face = ObjectProperty(None)


class EntryPanel(BoxLayout):
    """The left panel while dice are entered (``mode`` "roll" or "secret"); ``screen`` is the Lowdown screen."""

    screen = ObjectProperty(None)
    hint = StringProperty("")
    ready = BooleanProperty(False)  # every die chosen: "Use these dice" may be tapped
    need = NumericProperty(2)  # dice of each kind: 2 for the open roll, 1 for the secret pair

    def show(self, mode: str, entry: dict[str, list[Any]], layout: dict[str, Any], *, camera: bool) -> None:
        """Fill in the chosen dice and the colours and numbers that may still be tapped."""
        need = self.need = 2 if mode == "roll" else 1
        # TRANSLATORS: one line above the dice tiles, 540 px at 16 px: about 70 Latin letters or 40 Hangul at most
        roll_hint = _("Tap 2 colour + 2 number dice. Tap a chosen die to remove it.")
        # TRANSLATORS: one line above the dice tiles, 540 px at 16 px: about 70 Latin letters or 40 Hangul at most
        pair_hint = _("Tap the secret pair: 1 colour + 1 number. Tap a chosen die to remove it.")
        self.hint = roll_hint if mode == "roll" else pair_hint
        slots = self.ids.slots
        for i in range(need):
            face = entry["colours"][i] if i < len(entry["colours"]) else None
            tile = DieTile()
            tile.background_color = get_color_from_hex(layout["colours"][face]) if face else EMPTY
            tile.text = "" if face else "?"
            tile.bind(on_release=lambda _b, i=i: self.screen.clear_entry("colours", i))
            slots.add_widget(tile, index=2)
        for i in range(need):
            face = entry["numbers"][i] if i < len(entry["numbers"]) else None
            tile = DieTile()
            tile.background_color = NUMBER_DIE if face else EMPTY
            tile.color = (0.1, 0.1, 0.1, 1) if face else (1, 1, 1, 1)
            tile.text = str(face) if face else "?"
            tile.bind(on_release=lambda _b, i=i: self.screen.clear_entry("numbers", i))
            slots.add_widget(tile, index=2)
        self.ready = len(entry["colours"]) == need and len(entry["numbers"]) == need
        colours = self.ids.colours
        colours.cols = len(layout["colours"])
        for name, hexa in layout["colours"].items():
            button = Factory.EntryColour(text=colour_name(name))
            button.background_color = get_color_from_hex(hexa)
            button.color = readable_text(hexa)
            button.disabled = len(entry["colours"]) >= need
            button.bind(on_release=lambda _b, n=name: self.screen.add_entry("colours", n))
            colours.add_widget(button)
        numbers = self.ids.numbers
        numbers.cols = len(layout["numbers"])
        for value in layout["numbers"]:
            button = Factory.EntryNumber(text=str(value))
            button.disabled = len(entry["numbers"]) >= need
            button.bind(on_release=lambda _b, v=value: self.screen.add_entry("numbers", v))
            numbers.add_widget(button)
        if not camera:
            self.remove_widget(self.ids.camera)


load_kv("lowdown/entry")
