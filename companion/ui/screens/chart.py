"""A chart, as large as the screen allows: a title, *Back* to where it was opened from, and the picture."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.ui.chart import ChartImage, FigureMaker
from companion.ui.screens import load_kv

load_kv("chart")

__all__ = ["ChartImage", "ChartScreen"]


class ChartScreen(Screen):
    """``show(title, make, back_to)`` then go here; the figure is drawn at the picture's size on screen."""

    title_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.back_to = "history"
        self._make: FigureMaker | None = None

    def show(self, title: str, make: FigureMaker, *, back_to: str) -> None:
        self.title_text = title
        self.back_to = back_to
        self._make = make

    def on_enter(self, *_args: Any) -> None:
        self.ids.picture.show(self._make)

    def on_leave(self, *_args: Any) -> None:
        self.ids.picture.show(None)  # the texture goes with the screen (a chart is ~1.5 MB of pixels)

    def back(self) -> None:
        App.get_running_app().go(self.back_to)
