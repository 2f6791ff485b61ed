"""Every screen in every language at 800x480, looked at for text a player cannot read: cut off, shortened,
outside its box or the window, drawn over other text, or drawn as missing-glyph boxes (see layout_check).
The pictures are saved under tests/screenshots/lang/<language>/ to be looked at by eye too."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from layout_check import Problem, check
from ui_support import UI

from companion import i18n
from companion.games.base import Player, Setup

LANGUAGES = ("en", "ko", "es", "ca")
LONG_NAMES = ("Guillem Ferrer", "민서연", "Mª Àngels Puig", "Ñandú García", "Ana")  # 14 characters at most
MIN_FONT = 16  # px: no text smaller in any language (#21 item 10 at 800x480)
pytestmark = [pytest.mark.ui, pytest.mark.slow]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    yield tmp_path
    i18n.set_language("en")


class Shots:
    """Takes each screen's picture and checks its text, in one language."""

    def __init__(self, ui: UI, language: str) -> None:
        self.ui = ui
        self.language = language
        self.problems: list[Problem] = []
        self.names = set(LONG_NAMES)

    def take(self, name: str, root: Any = None) -> None:
        ui = self.ui
        ui.advance(3)
        path = ui.screenshot(f"lang/{self.language}/{name}")
        assert path.exists()
        target = root if root is not None else ui.app.root
        where = f"{self.language}/{name}"
        self.problems += check(target, ui.window, where, allow_shortened=self.names, min_font=MIN_FONT)
        for child in ui.window.children:  # an open modal: its own text too
            if child is not ui.app.root and root is None:
                self.problems += check(
                    child, ui.window, f"{where} (dialog)", allow_shortened=self.names, min_font=MIN_FONT
                )

    def both_banners(self, name: str, before: Callable[[], Any] | None = None) -> None:
        """The screen with the orange notice banner shown, then hidden."""
        app = self.ui.app
        app.notice("camera", i18n.Lazy("Camera lost: {reason}. Touch entry still works; reconnecting…", reason="USB"))
        if before:
            before()
        self.take(f"{name}-banner")
        app.dismiss_notices()
        if before:
            before()
        self.take(name)


def close_dialogs(ui: UI) -> None:
    from kivy.uix.modalview import ModalView

    for child in list(ui.window.children):
        if isinstance(child, ModalView):
            child.dismiss()
    ui.advance(3)


def tool_screens(shots: Shots) -> None:
    ui = shots.ui
    app = ui.app
    ui.go("language")
    shots.take("language-picker")
    ui.go("settings")
    shots.take("settings")
    colours = ("#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047")
    players = tuple(Player(n, c, s) for s, (n, c) in enumerate(zip(LONG_NAMES, colours, strict=True), 1))
    session = app.start_game(Setup("ratuki", players, {}, 7))
    app.journal.new_game(Setup("lowdown", players[:2], {}, 3))
    finished = app.journal.new_game(Setup("artcollectors", players[:3], {}, 5))
    app.journal.set_finished(finished, True)
    del session
    ui.go("home")
    shots.both_banners("home", lambda: ui.go("home"))
    ui.go("games")
    shots.both_banners("saved-games", lambda: ui.go("games"))
    screen = ui.screen()
    stop = next(w for w in screen.walk() if getattr(w, "text", "") == i18n._("Stop"))
    ui.tap(stop)
    shots.take("saved-games-stop-offering")
    close_dialogs(ui)
    app.notice("camera", i18n.Lazy("Camera lost: {reason}. Touch entry still works; reconnecting…", reason="USB"))
    ui.go("home")
    app.show_notices()
    shots.take("notices")
    close_dialogs(ui)
    app.dismiss_notices()
    ui.go("buttons")
    for seat in (1, 3, 2):
        app.touch_seat(seat, True)
        ui.advance(2)
        app.touch_seat(seat, False)
        ui.advance(2)
    ui.wait_until(lambda: bool(ui.screen().lines), 3)
    shots.take("button-test")
    ui.go("camera")
    shots.take("camera")
    app.open_dice("home")
    ui.advance(3)
    ui.wait_until(lambda: ui.screen().ids.view.texture is not None, 5)
    shots.take("dice")
    ui.screen().start_add()
    shots.take("dice-add")
    ui.screen().cancel_pick()
    # A die read, tapped: its faces, "Not a die" and the picker's Cancel in a third of a column each (Catalan's
    # "Cancel·la" broke at its middle dot there)
    from companion.vision.roll import DieRead, Roll

    ui.screen().roll = Roll((DieRead("pips", 4, 0.9, (300, 220, 340, 260)),), source="touch")
    ui.screen().select(0)
    shots.take("dice-correct")
    ui.screen().cancel_pick()
    # what the reader has learned of the table's dice, and Forget; then Forget's question
    ui.screen()._show_learned(128, tuned=True)  # the longer line: the reading tuned to the table
    shots.take("dice-learned")
    ui.screen().ask_forget()
    shots.take("dice-forget")
    close_dialogs(ui)
    ui.go("calibrate")
    ui.wait_until(lambda: ui.screen().wizard is not None, 5)
    shots.take("calibrate")
    ui.go("home")
    from companion.ui.namepad import NamePad

    pad = NamePad("", ["Ana", "Bo", "민서연"], lambda _name: None)
    pad.open()
    shots.take("name-pad")
    pad.done()  # empty: refused, says why
    shots.take("name-pad-empty")
    pad.dismiss()
    ui.advance(3)


@pytest.mark.parametrize("language", LANGUAGES)
def test_tool_screens_read_whole_in_every_language(home: Path, language: str) -> None:
    ui = UI(home)
    try:
        ui.app.choose_language(language)
        shots = Shots(ui, language)
        tool_screens(shots)
    finally:
        ui.close()
    assert not shots.problems, "\n".join(str(p) for p in shots.problems)
