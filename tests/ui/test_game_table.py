"""One table of games (#23 item 6): ``companion.games.GAMES`` names each game's engine and screen; the journal,
the home screen and the app find games only there, and nothing probes for modules that might be missing."""

from __future__ import annotations

import importlib

from ui_support import UI

from companion.games import GAMES, GameEntry, engine, engines, register


def test_every_game_has_its_engine_and_its_screen() -> None:
    from kivy.uix.screenmanager import Screen

    assert list(GAMES) == [e.name for e in engines()]
    for name, entry in GAMES.items():
        assert engine(name).name == name
        assert entry.screen is not None, name
        module, _, attr = entry.screen.partition(":")
        assert issubclass(getattr(importlib.import_module(module), attr), Screen), entry.screen


def test_the_home_screen_offers_the_games_of_the_table_and_a_game_opens_its_screen(ui: UI, toy_game: str) -> None:
    from companion.games.base import Player, Setup
    from companion.ui.words import game_title

    assert GAMES[toy_game] == GameEntry("companion_tests_toy_engine:ENGINE")  # no screen: never offered
    ui.app.manager.remove_widget(ui.screen("home"))  # built afresh with the toy game in the table
    ui.app._add_screens()
    ui.go("home")
    shown = ui.texts()
    for name in GAMES:
        assert (game_title(engine(name)) in shown) == (name != toy_game), name
    ui.app.start_game(Setup("lowdown", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=1))
    ui.advance(3)
    assert type(ui.screen()).__name__ == "LowdownScreen"


def test_register_adds_a_game_everywhere() -> None:
    saved = dict(GAMES)
    try:
        register("again", GameEntry(GAMES["ratuki"].engine))
        assert engine("again") is engine("ratuki")
    finally:
        GAMES.clear()
        GAMES.update(saved)
