"""Lowdown's dice-entry hint in every language: one line of 16 px at least over the dice tiles (#21 item 10 at
800x480), for the open roll and for the secret pair, with the notice banner shown. It shrank a translation too long
for its line down to 12 px (the type scale then drew it at 16 px, two lines in a one-line row, over the player's
score line: 'Toca 2 dados de color + 2 de número. Toca un dado elegido para quitarlo.'). Screenshots
tests/screenshots/lowdown-hint-<language>-<mode>.png."""

from __future__ import annotations

from typing import Any

import pytest
from layout_check import check
from ui_support import UI

from companion import i18n
from companion.games.base import Player, Setup

pytestmark = pytest.mark.ui

LANGUAGES = ("en", "ko", "es", "ca")
PLAYERS = (Player("Guillem Ferrer", "#e53935", 1), Player("Ñandú García", "#1e88e5", 2))
HINTS = (
    "Tap 2 colour + 2 number dice. Tap a chosen die to remove it.",
    "Tap the secret pair: 1 colour + 1 number. Tap a chosen die to remove it.",
)


def hint_label(screen: Any) -> Any:
    from kivy.uix.label import Label

    hints = {i18n._(text) for text in HINTS}
    return next(w for w in screen.walk(restrict=True) if isinstance(w, Label) and w.text in hints)


def test_the_dice_entry_hint_is_one_line_of_16_px_in_every_language(ui: UI) -> None:
    problems = []
    try:
        for language in LANGUAGES:
            ui.go("home")
            ui.app.choose_language(language)
            ui.app.start_game(Setup("lowdown", PLAYERS, {"secret_dice": "physical"}, 3))
            ui.app.notice(
                "shots", i18n.Lazy("Camera lost: {reason}. Touch entry still works; reconnecting…", reason="USB")
            )
            ui.advance(3)
            screen = ui.screen()
            assert screen.name == "lowdown" and screen.mode() == "roll"
            for mode in ("roll", "secret"):
                if mode == "secret":  # the open roll entered, then the secret pair looked at: its own hint
                    for colour in ("red", "blue"):
                        screen.add_entry("colours", colour)
                    for number in (3, 5):
                        screen.add_entry("numbers", number)
                    screen.use_entry()
                    screen.look()
                    ui.advance(3)
                label = hint_label(screen)
                assert label.text == i18n._(HINTS[mode == "secret"])
                assert label.font_size >= 16, (language, mode, label.font_size)
                ui.screenshot(f"lowdown-hint-{language}-{mode}")
                names = {p.name for p in PLAYERS}
                problems += check(ui.app.root, ui.window, f"{language}/{mode}", allow_shortened=names, min_font=16)
            ui.app.dismiss_notices()
    finally:
        i18n.set_language("en")
    assert not problems, "\n".join(str(p) for p in problems)
