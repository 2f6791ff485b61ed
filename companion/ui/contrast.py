"""Player colours as text that can be read on the app's dark backgrounds (WCAG contrast of at least 4.5:1).

A player's colour is theirs (a tile, a button, a seat light is filled with it as chosen); where it colours text
on the dark background (a name on a score sheet, in a table, in History) it is lightened just enough to be read:
the default red and blue, and the palette's purple and brown, were not. Standard library only.
"""

from __future__ import annotations

MIN_CONTRAST = 4.5  # WCAG AA for normal text
DARK = "#292933"  # the lighter of the app's dark backgrounds (the header bar; the screen itself is #1e1e24)
BUTTON = "#383d52"  # a plain button's face (a name in a player's colour on a button)


def _rgb(colour: str) -> tuple[int, int, int]:
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"not a #rrggbb colour: {colour!r}")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def luminance(colour: str) -> float:
    """The relative luminance of ``#rrggbb`` (0 black to 1 white), as WCAG defines it."""

    def linear(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = _rgb(colour)
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two colours (1 to 21)."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def legible(colour: str, background: str = DARK, ratio: float = MIN_CONTRAST) -> str:
    """``colour`` as it is when it reads at ``ratio`` on ``background``, else mixed with white in small steps
    until it does (the same hue, lighter): the blue of a player called Bo stays blue, and readable."""
    r, g, b = _rgb(colour)
    for step in range(21):
        mix = step / 20
        shade = tuple(round(c + (255 - c) * mix) for c in (r, g, b))
        candidate = "#{:02x}{:02x}{:02x}".format(*shade)
        if contrast(candidate, background) >= ratio:
            return candidate
    return "#ffffff"


def legible_rgba(colour: str, background: str = DARK) -> tuple[float, float, float, float]:
    """:func:`legible` as Kivy's 0-1 RGBA."""
    r, g, b = _rgb(legible(colour, background))
    return (r / 255, g / 255, b / 255, 1.0)
