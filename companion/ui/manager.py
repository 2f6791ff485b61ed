"""The app's root layout: the screen manager (:class:`Screens`, each screen made the first time it is asked for)
above the banner."""

from __future__ import annotations

import importlib
from typing import Any

from kivy.factory import Factory
from kivy.uix.screenmanager import Screen, ScreenManager


class Screens(ScreenManager):  # type: ignore[misc]
    """The app's screens, each made the first time it is asked for (``has_screen`` is true of every screen it can
    make; ``get_screen`` and ``current`` make it). On the home screen only home exists: a table that never opens
    History or the calibration wizard does not hold their widgets and text textures (17 MB here, #21 item 16)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.makers: dict[str, str] = {}  # screen name -> "module:Class", set by the app

    def has_screen(self, name: str) -> bool:
        return name in self.makers or bool(super().has_screen(name))

    def get_screen(self, name: str) -> Screen:
        if name in self.makers and not super().has_screen(name):
            self.add_widget(instantiate(self.makers[name], name=name))
        return super().get_screen(name)


Factory.register("Screens", cls=Screens)


def instantiate(target: str, **kwargs: Any) -> Screen:
    """A screen made from its ``"module:Class"`` name."""
    module, _, attr = target.partition(":")
    cls = getattr(importlib.import_module(module), attr)
    return cls(**kwargs)  # type: ignore[no-any-return]


ROOT_KV = """
#:import dp kivy.metrics.dp
BoxLayout:
    orientation: "vertical"
    canvas.before:
        Color:
            rgba: 0.118, 0.118, 0.141, 1
        Rectangle:
            pos: self.pos
            size: self.size
    Screens:
        id: manager
    Button:
        # Hardware and config problems; tap to read them in full and hide them. No room taken when all is well.
        text: app.banner
        opacity: 1 if app.banner else 0
        disabled: not app.banner
        size_hint_y: None
        # One height whatever it says (two lines), so the screen above never moves again when a notice changes.
        height: dp(52) if app.banner else 0
        font_size: dp(17)
        text_size: self.width - dp(16), None
        max_lines: 2
        halign: "left"
        background_normal: ""
        background_disabled_normal: ""
        background_color: 0.72, 0.33, 0.05, 1
        on_release: app.show_notices()
"""
