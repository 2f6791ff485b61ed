"""Text fitted to its room, one way everywhere: measured in the UI font, cut at the end with an ellipsis
(:func:`shorten`), broken onto two lines (:func:`two_lines`), or drawn in the largest type that fits
(:func:`largest_size`, :func:`fit_font` for kv, the :class:`FitLines` label). No text is fitted below 16 px
(#21 item 10); a screen that needs more room shortens a name rather than shrinking it further."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import NumericProperty
from kivy.uix.label import Label

ELLIPSIS = "…"
MIN_FONT = 16.0  # px: the smallest text on any screen (#21 item 10)


def _core(font_size: float, *, bold: bool = False, font_name: str | None = None) -> Any:
    from kivy.core.text import Label as CoreLabel

    options: dict[str, Any] = {"font_size": font_size, "bold": bold}
    if font_name:
        options["font_name"] = font_name
    return CoreLabel(**options)


def text_width(text: str, font_size: float, *, bold: bool = False, font_name: str | None = None) -> float:
    """How wide ``text`` is drawn at ``font_size`` px (the widest of its lines), in pixels."""
    measure = _core(font_size, bold=bold, font_name=font_name).get_extents
    return float(max(measure(line)[0] for line in str(text).split("\n")))


def wrapped_size(
    text: str, font_size: float, width: float, *, bold: bool = False, markup: bool = False, font_name: str | None = None
) -> tuple[float, float]:
    """The size of ``text`` wrapped to ``width`` px at ``font_size`` (0 x 0 for no text)."""
    from kivy.core.text import Label as CoreLabel

    options: dict[str, Any] = {"font_size": font_size, "bold": bold, "markup": markup, "text_size": (width, None)}
    if font_name:
        options["font_name"] = font_name
    probe = CoreLabel(text=str(text), **options)
    probe.refresh()
    texture = probe.texture
    return (0.0, 0.0) if texture is None else (float(texture.width), float(texture.height))


def shorten(
    text: str,
    room: float,
    font_size: float,
    *,
    bold: bool = False,
    around: Callable[[str], str] | None = None,
) -> str:
    """``text`` as it is if it fits one line of ``room`` px, else cut at the end with an ellipsis as much as
    needed ("Guillem F…"). ``around`` gives the whole line the text sits in (plain text, no markup), so it is
    the text that is cut, never the words around it: ``around=lambda n: f"{n}'s turn"`` gives "Guillem F…'s
    turn"; the caller writes those words itself."""
    whole = around or (lambda part: part)

    def fits(part: str) -> bool:
        return text_width(whole(part), font_size, bold=bold) <= room

    if fits(text):
        return text
    for end in range(len(text) - 1, 0, -1):
        cut = text[:end].rstrip(" -") + ELLIPSIS
        if fits(cut):
            return cut
    return ELLIPSIS


def two_lines(text: str, room: float, font_size: float, *, bold: bool = False) -> str:
    """``text`` on at most two lines within ``room`` px: broken at a space or after a hyphen (the most even
    break that fits), else filled letter by letter; what still does not fit ends in an ellipsis."""

    def fits(part: str) -> bool:
        return text_width(part, font_size, bold=bold) <= room

    if fits(text):
        return text
    best: tuple[float, str] | None = None
    for index, char in enumerate(text):
        if char == " ":
            first, second = text[:index].rstrip(), text[index + 1 :].lstrip()
        elif char == "-":
            first, second = text[: index + 1], text[index + 1 :].lstrip()
        else:
            continue
        if first and second and fits(first) and fits(second):
            widest = max(text_width(first, font_size, bold=bold), text_width(second, font_size, bold=bold))
            if best is None or widest < best[0]:
                best = (widest, f"{first}\n{second}")
    if best is not None:
        return best[1]
    cut = len(text) - 1
    while cut > 1 and not fits(text[:cut]):
        cut -= 1
    return f"{text[:cut]}\n{shorten(text[cut:].lstrip(), room, font_size, bold=bold)}"


def largest_size(fits: Callable[[float], bool], largest: float, smallest: float, step: float = 1.0) -> float:
    """The largest size from ``largest`` down to ``smallest`` (``step`` px at a time) at which ``fits(size)``;
    ``smallest`` when none does. The one shrink loop of the screens."""
    size = float(largest)
    while size > smallest and not fits(size):
        size -= dp(step)
    return max(size, float(smallest))


def fit_font(text: str, room: float, largest: float, smallest: float, *, bold: bool = False) -> float:
    """The largest type, ``largest`` down to ``smallest``, in which every word of ``text`` fits ``room`` px, so a
    word is never broken in two ("Deshace / r"); for kv: ``font_size: fit_font(self.text, ...)``."""
    words = str(text).split() or [""]
    return largest_size(lambda size: max(text_width(w, size, bold=bold) for w in words) <= room, largest, smallest)


def keep_fitted(widget: Label, make: Callable[[float], tuple[str, float]], margin: float = dp(8)) -> None:
    """Give ``widget`` the text and font size ``make(room)`` returns for its width, now and whenever it resizes
    (``room`` is the width less ``margin``): a name shortened or put on two lines to fit."""

    def update(*_args: Any) -> None:
        widget.text, widget.font_size = make(max(dp(8), widget.width - margin))

    widget.bind(width=update)
    update()


class FitLines(Label):
    """Text in a box of a fixed height, never moving what is around it: wrapped to the width (less ``inset``
    left and right) in the largest font from ``max_font`` down to ``min_font`` (``step`` px at a time) whose
    lines fit the height (less a quarter of ``inset``); still too long at ``min_font``, it is cut after the
    lines that fit (the screens show the whole text on a tap)."""

    max_font = NumericProperty(dp(18))
    min_font = NumericProperty(dp(MIN_FONT))
    step = NumericProperty(1)
    inset = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        self._fit_soon = Clock.create_trigger(self.fit, -1)
        super().__init__(**kwargs)
        self.bind(text=self._fit_soon, size=self._fit_soon, max_font=self._fit_soon, min_font=self._fit_soon)
        self.bind(bold=self._fit_soon, markup=self._fit_soon, inset=self._fit_soon, step=self._fit_soon)
        self._fit_soon()  # made in Python with its text and size already given: fitted all the same

    def fit(self, *_args: Any) -> None:
        """Set ``font_size`` (and the lines kept) for the text and the box as they are now."""
        width = max(1.0, float(self.width) - 2 * float(self.inset))
        height = max(1.0, float(self.height) - float(self.inset) / 2)

        def fits(size: float) -> bool:
            drawn = wrapped_size(self.text, size, width, bold=self.bold, markup=self.markup, font_name=self.font_name)
            return drawn[0] <= width + 0.5 and drawn[1] <= height + 0.5

        self.font_size = largest_size(fits, float(self.max_font), float(self.min_font), float(self.step))
        line = _core(self.font_size, bold=self.bold, font_name=self.font_name).get_extents("Ag")[1]
        self.max_lines = max(1, int((height + 0.5) // max(1, line)))
        self.text_size = (width, height)
