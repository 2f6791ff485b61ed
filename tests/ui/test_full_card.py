"""A full card and errors nobody expected (issue #22, item 4): starting a game, correcting a die or any callback
that fails never ends the app; the players read what happened and the game is kept.

The full card is a real one: a small tmpfs mounted for the test (root only; skipped elsewhere) and filled up.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cards import fill, mounted
from ui_support import UI

from companion.games.base import Player, Setup
from companion.journal import JournalError

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


@pytest.fixture
def card(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB card (tmpfs), unmounted afterwards."""
    with mounted(tmp_path / "card") as folder:
        yield folder


def test_start_game_on_a_full_card_says_so_and_the_same_tap_works_once_there_is_room(
    tmp_path: Path, card: Path
) -> None:
    ui = UI(tmp_path, journal_path=card / "journal.sqlite3")
    try:
        filler = fill(card)
        screen = ui.screen("setup")
        screen.prepare("ratuki", seed=1)
        ui.go("setup")
        ui.tap(ui.find("Start game"))
        assert ui.screen().name == "setup" and ui.app.session is None
        assert screen.error_text == "Not saved, nothing changed: the SD card is full. Free some space, then try again."
        ui.screenshot("full-card-start")
        filler.unlink()
        ui.tap(ui.find("Start game"))
        assert ui.app.session is not None and ui.screen().name == "ratuki"
        assert screen.error_text == ""
    finally:
        ui.close()


def test_a_dice_correction_that_cannot_be_saved_changes_nothing_and_says_why(
    ui: UI, monkeypatch: pytest.MonkeyPatch
) -> None:
    ui.app.start_game(Setup("ratatat", PLAYERS, seed=3))
    ui.app.feed = None
    ui.app.open_dice("ratatat")
    ui.advance(3)
    screen = ui.screen()
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("4", root=screen.ids.picker))
    assert screen.roll.faces("pips") == [4]
    moves = len(ui.app.session.actions)

    def full(*_args: Any, **_kwargs: Any) -> int:
        raise JournalError("journal.sqlite3: the journal could not be read or written (database or disk is full)")

    monkeypatch.setattr(ui.app.journal, "append", full)
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("2", root=screen.ids.picker))
    assert screen.roll.faces("pips") == [4]  # nothing changed
    assert screen.status_is_error and "Not saved" in screen.status_text
    assert len(ui.app.session.actions) == moves
    monkeypatch.undo()
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("2", root=screen.ids.picker))
    assert screen.roll.faces("pips") == [4, 2] and len(ui.app.session.actions) == moves + 1


# The real app loop (App.run) with a callback that raises in the middle of a game.
LOOP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from companion.ui.launch import make_app, prepare_environment
    prepare_environment(headless=True)
    from kivy.clock import Clock
    from companion.games.base import Player, Setup

    home = Path(sys.argv[1])
    app = make_app(simulate=True, config_path=home / "none.toml", journal_path=home / "journal.sqlite3")

    def start(_dt):
        app.start_game(Setup("ratuki", (Player("Ana", seat=1), Player("Bo", seat=2)), seed=1))
        app.session.do({"type": "start", "tick": 1.0})

    def boom(_dt):
        raise RuntimeError("a bug in a callback")

    def check(_dt):
        print("BANNER:", app.banner.replace("\\n", " "))
        print("SCREEN:", app.manager.current, "GAME:", app.session.game_id, "MOVES:", len(app.session.actions))
        app.stop()

    Clock.schedule_once(start, 0.3)
    Clock.schedule_once(boom, 0.8)
    Clock.schedule_once(check, 1.5)
    app.run()
    print("EXITED CLEANLY")
    """
)


def test_an_error_in_any_callback_is_logged_shown_and_the_game_is_kept(tmp_path: Path) -> None:
    env = dict(os.environ, COMPANION_HOME=str(tmp_path), KIVY_HOME=str(tmp_path / "kivy"))
    env.pop("DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-c", LOOP, str(tmp_path)], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0 and "EXITED CLEANLY" in proc.stdout, proc.stderr[-3000:]
    assert "SCREEN: ratuki GAME: 1 MOVES: 1" in proc.stdout  # the game is still there, on its screen
    banner = next(line for line in proc.stdout.splitlines() if line.startswith("BANNER:"))
    # shown in words (base.error_words, #21.9), never Python's own text; the game is kept
    assert "Something went wrong (an unexpected problem)" in banner and "game is kept" in banner
    assert "RuntimeError" not in banner and "a bug in a callback" not in banner
    assert "RuntimeError: a bug in a callback" in proc.stderr  # logged, with its traceback, for the report


def test_the_error_banner_over_a_game(ui: UI) -> None:
    from kivy.base import ExceptionManager

    ui.app.start_game(Setup("ratuki", PLAYERS, seed=1))
    ui.advance(3)
    assert ExceptionManager.handle_exception(ValueError("something odd")) == ExceptionManager.PASS
    ui.advance(2)
    assert "something odd" in ui.app.banner and ui.screen().name == "ratuki" and ui.app.session is not None
    ui.screenshot("error-banner-over-game")
    assert ExceptionManager.handle_exception(KeyboardInterrupt()) == ExceptionManager.RAISE  # Ctrl-C still stops
