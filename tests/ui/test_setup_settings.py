"""Every game's setup screen in the table's words (#21.8): each option named as players say it, its value in
words (no file names, codes or "0 = top row"), the option list opening at its top for each game, showing that it
scrolls while there is more below, and nothing cut off at its bottom; with the notice banner shown and hidden."""

from __future__ import annotations

import re
from typing import Any

import pytest
from ui_support import UI

from companion.games import engine

GAMES = ("ratatat", "lowdown", "ratuki", "artcollectors")
CODE_LIKE = re.compile(r"\.json|_|\b(ko|en|es|physical|virtual|play_on|edition)\b|0 =|\(0")


def open_setup(ui: UI, game: str, count: int = 3) -> Any:
    screen = ui.screen("setup")
    screen.prepare(game, seed=1)
    ui.go("setup")
    screen.set_count(count)
    ui.advance(3)
    return screen


def setting_texts(screen: Any) -> list[str]:
    rows = [w for w in reversed(screen.ids.settings.children) if getattr(w, "text", "")]
    return [re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", row.text) for row in rows]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("banner", [True, False], ids=["banner", "no-banner"])
def test_options_in_the_tables_words(ui: UI, game: str, banner: bool) -> None:
    if banner:
        ui.app.notice("test", "Buttons: no GPIO on this computer; keys 1-5 and the on-screen buttons stand in")
    else:
        ui.app.dismiss_notices()
    screen = open_setup(ui, game)
    scroll = screen.ids.settings_scroll
    assert scroll.scroll_y == 1  # opens at its top
    texts = setting_texts(screen)
    table = engine(game).settings
    shown = [k for k, s in table.items() if s.shown and len(screen._options(k, s) or [True, False]) > 1]
    assert len(texts) == len(shown)
    for text in texts:
        assert not CODE_LIKE.search(text), text
    ui.screenshot(f"setup-options-{game}-{'banner' if banner else 'plain'}")
    grid = screen.ids.settings
    if grid.height > scroll.height:
        assert screen.ids.more_below.opacity == 1 and "more options below" in screen.ids.more_below.text
        scroll.scroll_y = 0
        ui.advance(3)
        assert screen.ids.more_below.opacity == 0
        ui.screenshot(f"setup-options-{game}-{'banner' if banner else 'plain'}-bottom")
    else:
        assert screen.ids.more_below.opacity == 0
    last = next(w for w in grid.children if getattr(w, "text", ""))  # children are bottom first
    bottom = last.to_window(0, last.y)[1]
    assert bottom >= scroll.to_window(0, scroll.y)[1] - 0.5, "the last option is cut off at the bottom"


def tap_setting(ui: UI, screen: Any, label: str) -> None:
    """Tap an option's row as a finger would: scrolled into view first (a row may sit below the visible list)."""
    button = ui.find(label, root=screen.ids.settings)
    screen.ids.settings_scroll.scroll_to(button, padding=0, animate=False)
    ui.advance(3)
    ui.tap(button)


def test_first_to_play_is_a_name_and_follows_the_players(ui: UI) -> None:
    screen = open_setup(ui, "artcollectors", 3)
    button = ui.find("First to play", root=screen.ids.settings)
    assert "Ana" in button.text
    tap_setting(ui, screen, "First to play")
    tap_setting(ui, screen, "First to play")
    assert screen.settings["first_player"] == 2 and "Cai" in ui.find("First to play").text
    screen.set_count(2)  # Cai leaves the table: the first row plays first
    ui.advance(2)
    assert screen.settings["first_player"] == 0 and "Ana" in ui.find("First to play").text
    tap_setting(ui, screen, "First to play")
    ui.tap_text("Start game")
    assert ui.app.session is not None and ui.app.session.setup.settings["first_player"] == 1


def test_the_list_opens_at_its_top_for_each_game(ui: UI) -> None:
    screen = open_setup(ui, "ratuki")
    screen.ids.settings_scroll.scroll_y = 0
    ui.advance(2)
    ui.go("home")
    screen = open_setup(ui, "artcollectors")
    assert screen.ids.settings_scroll.scroll_y == 1


def test_a_choice_cycles_and_reaches_the_game(ui: UI) -> None:
    screen = open_setup(ui, "ratatat", 2)
    button = ui.find("Rules", root=screen.ids.settings)
    assert "Korean rulebook" in button.text
    ui.tap(button)
    assert screen.settings["edition"] == "en" and "English edition" in ui.find("Rules").text
    ui.tap(ui.find("The statue starts on"))
    assert "second picture-die space" in ui.find("The statue starts on").text
    ui.tap_text("Start game")
    settings = ui.app.session.setup.settings
    assert settings["edition"] == "en" and settings["start"] == 1
