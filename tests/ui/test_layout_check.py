"""The text checker of the language screenshots finds what it is meant to: cut text, text outside its box,
texts drawn over each other and missing-glyph boxes; and passes text that reads whole."""

from __future__ import annotations

from typing import Any

from layout_check import check
from ui_support import UI


def _place(ui: UI, *labels: Any) -> Any:
    from kivy.uix.floatlayout import FloatLayout

    root = FloatLayout(size=(800, 480), size_hint=(None, None))
    for label in labels:
        root.add_widget(label)
    ui.window.add_widget(root)
    ui.advance(3)
    return root


def _label(text: str, pos: tuple[int, int], size: tuple[int, int], **kwargs: Any) -> Any:
    from kivy.uix.label import Label

    return Label(text=text, pos=pos, size=size, size_hint=(None, None), font_size=20, **kwargs)


def test_whole_text_passes(ui: UI) -> None:
    root = _place(ui, _label("Nova partida · 새 게임", (10, 10), (400, 40)), _label("¡Ratuki!", (10, 100), (200, 40)))
    try:
        assert check(root, ui.window, "ok") == []
    finally:
        ui.window.remove_widget(root)


def test_each_kind_of_fault_is_found(ui: UI) -> None:
    lost = _label("una frase larga que no cabe en dos líneas de esta caja", (10, 10), (150, 50))
    lost.text_size = lost.size  # wraps, and the third line is dropped
    wide = _label("Col·leccionistes d'art", (10, 200), (60, 40))  # no text_size: drawn past its box
    short = _label("Guillem Ferrer Puigdomènech", (400, 10), (90, 40), shorten=True)
    short.text_size = short.size
    sentence = _label("Guillem Ferrer Puigdomènech: take a number", (400, 60), (150, 40), shorten=True)
    sentence.text_size = sentence.size  # cut where it is not the name: the words lost are not a name's
    over_a = _label("Robin Tell", (300, 300), (200, 40))
    over_b = _label("el banquer", (310, 305), (200, 40))
    tofu = _label("Naïve த", (500, 400), (250, 40))
    split = _label("Deshacer", (600, 100), (60, 60))  # one word wider than its box: Kivy breaks it in two
    split.text_size = (split.width, None)
    from kivy.uix.boxlayout import BoxLayout

    row = BoxLayout(pos=(520, 250), size=(250, 22), size_hint=(None, None))  # a one-line row...
    tall = _label("Queden: robar + descartar", (0, 0), (250, 60))  # ...holding two lines: drawn out of it
    tall.size_hint_x = 1
    tall.text_size = (250, None)
    row.add_widget(tall)
    root = _place(ui, lost, wide, short, sentence, over_a, over_b, tofu, split, row)
    try:
        problems = check(root, ui.window, "faults")
        kinds = {(p.kind, p.text) for p in problems}
        assert ("clipped", lost.text) in kinds, problems
        assert ("overflow", wide.text) in kinds
        assert ("shortened", short.text) in kinds
        assert any(p.kind == "overlap" and p.text in (over_a.text, over_b.text) for p in problems)
        assert any(p.kind == "tofu" and "U+0BA4" in p.detail for p in problems), problems
        assert ("broken word", split.text) in kinds, problems
        assert ("outside its row", tall.text) in kinds, problems
        assert not any(p.kind == "tofu" and "Naïve" in p.text and "U+00EF" in p.detail for p in problems)
        allowed = check(root, ui.window, "names", allow_shortened={"Guillem Ferrer Puigdomènech"})
        assert not any(p.kind == "shortened" and p.text == short.text for p in allowed)  # a long name cut by design
        assert any(p.kind == "shortened" and p.text == sentence.text for p in allowed)  # not the words after it
    finally:
        ui.window.remove_widget(root)


def test_text_off_the_window_is_found(ui: UI) -> None:
    off = _label("Fora de la pantalla", (700, 10), (300, 40))
    off.text_size = off.size
    off.halign = "right"
    root = _place(ui, off)
    try:
        assert any(p.kind == "offscreen" for p in check(root, ui.window, "off"))
    finally:
        ui.window.remove_widget(root)


def test_text_under_the_smallest_size_is_found_when_asked(ui: UI) -> None:
    small = _label("Toca 2 dados de color + 2 de número", (10, 10), (500, 30))
    small.font_size = 13  # a long translation shrunk to fit one line
    tag = _label("puntos [size=12]+6[/size]", (10, 100), (300, 40), markup=True)
    fine = _label("Deshacer", (10, 200), (200, 40))  # 20 px
    root = _place(ui, small, tag, fine)
    try:
        assert not any(p.kind == "small text" for p in check(root, ui.window, "no minimum"))
        problems = [p for p in check(root, ui.window, "min 16", min_font=16) if p.kind == "small text"]
        assert {p.text for p in problems} == {small.text, "puntos +6"}, problems
    finally:
        ui.window.remove_widget(root)
