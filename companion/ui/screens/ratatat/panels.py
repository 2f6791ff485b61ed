"""Rat-a-Tat Roll's choices, one panel a phase (or a step of one): each sets the prompt and the info line and puts
up that phase's buttons; their layout, and the rows every such panel has, are in panels.kv. A panel draws and
forwards: every tap calls a :class:`~companion.ui.screens.ratatat.screen.RatatatScreen` method, which acts
through the engine or keeps the half-made choice (dice picked, a swap's first card)."""

from __future__ import annotations

import math
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.widget import Widget

from companion.i18n import _
from companion.ui.fit import shorten
from companion.ui.screens import load_kv

# The picture die's faces on their buttons, as the Korean rulebook names them (고양이, 쥐, 교환).
FACE_NAMES = {"cat": lambda: _("Cat (lowest)"), "rat": lambda: _("Rat (highest)"), "swap": lambda: _("Swap")}


class RatatatPanel(BoxLayout):
    """Base of the panels: the rows a phase's state calls for go above the rows its kv rule always has."""

    screen = ObjectProperty(None)

    def on_kv_post(self, *_args: Any) -> None:
        self.fixed_rows = len(self.children)

    @property
    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.screen.state
        return state

    def fill(self, me: str) -> None:
        """Override: set the prompt (and info) and add the rows for the state on show; ``me``: whose turn."""

    def add_row(self, widget: Widget) -> None:
        """``widget`` under the rows added so far, above the kv rule's own rows."""
        self.add_widget(widget, index=getattr(self, "fixed_rows", 0))

    # -- builders ---------------------------------------------------------------------------------------------
    @staticmethod
    def button(text: str, callback: Any, *, kind: str = "BigButton", **kwargs: Any) -> Button:
        button: Button = getattr(Factory, kind)(text=text, **kwargs)
        button.bind(on_release=lambda *_a: callback())
        return button

    @staticmethod
    def row(buttons: list[Button], height: float = dp(52)) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=height, spacing=dp(4))
        for button in buttons:
            button.size_hint_y = None
            button.height = height
            row.add_widget(button)
        return row

    def grid(self, buttons: list[Button], height: float = dp(52)) -> BoxLayout | GridLayout:
        """Up to three buttons in one row; more (players' names) two to a row, so a name has room to be read."""
        if len(buttons) <= 3:
            return self.row(buttons, height)
        rows = math.ceil(len(buttons) / 2)
        grid = GridLayout(cols=2, spacing=dp(4), size_hint_y=None, height=height * rows + dp(4) * (rows - 1))
        for button in buttons:
            button.size_hint_y = None
            button.height = height
            grid.add_widget(button)
        return grid

    def name_button(self, name: str, after: str, callback: Any, **kwargs: Any) -> Button:
        """A button saying ``name`` + ``after`` ("Bob 2", "Bob: total 13") in at most two lines: the name (with
        what is glued to it, like the colon) is shortened with an ellipsis to fit a line of its own, so it is
        never broken mid-word over three lines; the rest of ``after`` is short and wraps onto the second line."""
        glued, space, rest = after.partition(" ")
        button = self.button(name + after, callback, **kwargs)

        def fit(*_args: Any) -> None:
            room = button.width - dp(8) - dp(2)  # BigButton's text_size, and a little slack for rounding
            if room > 0:
                first = shorten(name, room, button.font_size, bold=button.bold, around=lambda n: n + glued)
                button.text = first + glued + space + rest

        button.bind(width=fit, font_size=fit)
        fit()
        return button

    def value_grid(self, values: list[int], callback: Any) -> GridLayout:
        """Card-value buttons, five to a row; the grid is exactly as tall as its rows, so nothing overlaps."""
        rows = math.ceil(len(values) / 5)
        grid = GridLayout(cols=5, spacing=dp(4), size_hint_y=None, height=dp(52) * rows + dp(4) * (rows - 1))
        for value in values:
            grid.add_widget(self.button(str(value), lambda v=value: callback(v), font_size=dp(26), height=dp(52)))
        return grid

    def face_keypad(self) -> BoxLayout:
        """One row of faces 1-6: each tap is the next die's face (the info line shows them). One row for any
        number of dice, so the keypad stays where it is as faces are entered."""
        full = all(f is not None for f in self.screen.faces)
        buttons = [
            self.button(str(face), lambda f=face: self.screen.add_face(f), font_size=dp(24), disabled=full)
            for face in range(1, 7)
        ]
        return self.row(buttons, dp(52))

    def picture_rows(self, *, reroll: bool) -> None:
        """The picture die's faces to tap and, where the camera is calibrated for the picture die, the camera
        (as the number dice are read: the dice screen hands the reading to the screen's ``on_roll``)."""
        screen = self.screen
        faces = sorted(set(self.state["picture_faces"]))
        kind = "reroll" if reroll else "picture"
        buttons = [
            self.button(FACE_NAMES[f](), lambda f=f: screen.picture(f, kind), font_size=dp(20), height=dp(60))
            for f in faces
        ]
        self.add_row(self.row(buttons, dp(60)))
        app = screen.app
        if app is not None and app.manager.has_screen("dice") and app.camera_reads("picture"):
            self.add_row(self.row([self.button(_("Read the picture die with the camera"), screen.open_dice)]))


load_kv("ratatat/panels")
