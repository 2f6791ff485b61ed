"""A chart on screen: a figure from :mod:`companion.history.charts` drawn at the widget's own pixel size into a
texture (matplotlib's Agg backend; no matplotlib window or event loop)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.factory import Factory
from kivy.graphics.texture import Texture
from kivy.uix.image import Image

from companion.history import charts

# A figure for a size in pixels (width, height).
FigureMaker = Callable[[tuple[int, int]], Any]


def texture_of(picture: charts.Picture) -> Texture:
    """An RGBA texture of a drawn chart (the picture's rows run top-down, a texture's bottom-up)."""
    texture = Texture.create(size=(picture.width, picture.height), colorfmt="rgba")
    texture.blit_buffer(picture.rgba, colorfmt="rgba", bufferfmt="ubyte")
    texture.flip_vertical()
    return texture


class ChartImage(Image):
    """Shows ``make((w, h))`` drawn at its own size; drawn again only when its size changes."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("fit_mode", "contain")
        super().__init__(**kwargs)
        self._make: FigureMaker | None = None
        self._drawn: tuple[int, int] | None = None
        self.bind(size=lambda *_a: self.redraw())

    def show(self, make: FigureMaker | None) -> None:
        self._make = make
        self._drawn = None
        self.redraw()

    def redraw(self) -> None:
        size = (int(self.width), int(self.height))
        if self._make is None:
            self.texture = None
            return
        if size[0] < 50 or size[1] < 50 or size == self._drawn:
            return
        self._drawn = size
        self.texture = texture_of(charts.render(self._make(size)))


Factory.register("ChartImage", cls=ChartImage)
