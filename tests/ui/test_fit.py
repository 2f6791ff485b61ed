"""The one text-fitting helper (companion.ui.fit): names cut with an ellipsis and nothing else, two lines, the
largest type that fits, and the FitLines label, never below 16 px (#21 item 10)."""

from __future__ import annotations

from typing import Any

from ui_support import UI

LONG = "Guillem Ferrer Puigdomènech"


def test_shorten_keeps_what_fits_and_cuts_only_the_text(ui: UI) -> None:
    from companion.ui.fit import ELLIPSIS, shorten, text_width

    assert shorten("Ana", 200, 18) == "Ana"
    cut = shorten(LONG, 120, 18, bold=True)
    assert cut.endswith(ELLIPSIS) and LONG.startswith(cut[:-1])
    assert text_width(cut, 18, bold=True) <= 120
    assert not cut[:-1].endswith((" ", "-"))  # "Guillem…", never "Guillem …"

    def turn(name: str) -> str:
        return f"{name}'s turn"

    name = shorten(LONG, 180, 18, around=turn)
    assert name.endswith(ELLIPSIS) and text_width(turn(name), 18) <= 180  # the words around it stay whole
    assert shorten(LONG, 1, 18) == ELLIPSIS


def test_two_lines_breaks_between_words(ui: UI) -> None:
    from companion.ui.fit import text_width, two_lines

    text = two_lines(LONG, 150, 16)
    lines = text.split("\n")
    assert len(lines) == 2 and all(text_width(line, 16) <= 150 for line in lines)
    assert two_lines("Bo", 150, 16) == "Bo"


def test_largest_size_and_fit_font_stop_at_the_smallest(ui: UI) -> None:
    from companion.ui.fit import fit_font, largest_size, text_width

    assert largest_size(lambda size: size <= 20, 24, 16) == 20
    assert largest_size(lambda size: False, 24, 16) == 16
    assert largest_size(lambda size: size <= 21, 24, 16, step=2) == 20
    size = fit_font("Deshacer cambios", 90, 18, 16)
    assert 16 <= size <= 18 and (size == 16 or text_width("Deshacer", size) <= 90)


def _fit_lines(ui: UI, text: str, **kwargs: Any) -> Any:
    from companion.ui.fit import FitLines

    label = FitLines(text=text, size_hint=(None, None), **kwargs)
    ui.window.add_widget(label)
    ui.advance(3)
    return label


def test_fit_lines_shrinks_to_fit_never_under_16_px(ui: UI) -> None:
    short = _fit_lines(ui, "Ana", size=(300, 52), max_font=19)
    long = _fit_lines(ui, f"{LONG}: swap your card 2 with which of {LONG}'s cards?", size=(300, 52), max_font=19)
    wider = _fit_lines(ui, f"{LONG} wins", size=(300, 84), max_font=40, step=2, inset=10, halign="center")
    try:
        assert short.font_size == 19
        assert 16 <= long.font_size < 19 and long.text_size[0] == 300  # cut after the lines that fit at 16 px
        assert 16 <= wider.font_size < 40 and wider.text_size[0] == 280  # the inset kept clear left and right
        assert wider.texture_size[1] <= wider.height
    finally:
        for label in (short, long, wider):
            ui.window.remove_widget(label)
