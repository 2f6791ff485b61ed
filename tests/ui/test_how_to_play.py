"""How to play (#21 item 11): each game's short rules page, from its setup screen and from the game in progress,
by real touches; the page scrolls with a visible cue, its text is at least 16 px and nothing is cut or drawn over.
Screenshots: tests/screenshots/howto-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from ui_support import UI, layout_problems

from companion.games.base import Player, Setup
from companion.games.howto import PAGES, NoRulesPage, how_to_play

pytestmark = pytest.mark.ui

GAMES = ("ratatat", "lowdown", "ratuki", "artcollectors")
PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#42a5f5", 2))


def test_every_game_has_a_page_of_four_parts() -> None:
    assert set(PAGES) == set(GAMES)
    for game in GAMES:
        sections = how_to_play(game)
        assert [s.heading for s in sections] == [
            "The game",
            "A turn",
            "The end and the scores",
            "What the app does for you",
        ]
        words = sum(len(p.split()) for s in sections for p in s.paragraphs)
        assert 120 < words < 520, (game, words)  # short: a page, not the rulebook
    with pytest.raises(NoRulesPage, match="no rules page"):
        how_to_play("chess")


def test_pages_say_what_the_rulebooks_say() -> None:
    """A few facts each page must get right (from shared/rules)."""
    text = {game: " ".join(p for s in how_to_play(game) for p in s.paragraphs) for game in GAMES}
    assert "lowest total at the end wins" in text["ratatat"] and "3 or more face-up cards" in text["ratatat"]
    assert "2–4 players" in text["lowdown"] and "plus 6 for each shaded square" in text["lowdown"]
    assert "add up to 10" in text["lowdown"]
    assert "100" in text["ratuki"] and "one up or one down" in text["ratuki"]
    assert "black-cat token" in text["artcollectors"] and "the twins 2" in text["artcollectors"]


def page_text(screen: Any) -> str:
    return "\n".join(str(w.text) for w in screen.ids.page.children)


def check_page(ui: UI, screen: Any, shot: str) -> None:
    """The page: at least 16 px, nothing cut or overlapping, a scroll cue while there is more below, and the
    whole page reachable by scrolling (the cue goes at the bottom)."""
    assert screen.name == "howto"
    assert screen.ids.scroll.scroll_y == 1  # opens at its top
    ui.advance(3)
    assert not layout_problems(screen, min_font=16), layout_problems(screen, min_font=16)
    assert screen.ids.page.height > screen.ids.scroll.height  # a page longer than the screen ...
    assert screen.ids.more_below.opacity == 1 and "more below" in screen.ids.more_below.text  # ... says so
    ui.screenshot(shot)
    screen.ids.scroll.scroll_y = 0  # scrolled to the end (as a swipe would): the cue goes
    ui.advance(3)
    assert screen.ids.more_below.opacity == 0
    assert not layout_problems(screen, min_font=16), layout_problems(screen, min_font=16)
    ui.screenshot(shot + "-end")


@pytest.mark.parametrize("game", GAMES)
def test_from_the_setup_screen_and_back(ui: UI, game: str) -> None:
    ui.tap(ui.find(ui.app.game_title(game), ui.screen("home")))  # the home screen's game button
    setup = ui.screen()
    assert setup.name == "setup" and setup.game == game
    setup.set_count(2)
    ui.advance(2)
    ui.tap_text("How to play")
    screen = ui.screen()
    assert screen.title_text == f"How to play: {ui.app.game_title(game)}"
    assert "What the app does for you" in page_text(screen)
    check_page(ui, screen, f"howto-{game}")
    ui.tap(screen.ids.back)
    assert ui.screen() is setup and setup.count == 2  # the setup as it was left
    ui.screenshot(f"howto-setup-{game}")


@pytest.mark.parametrize("banner", [False, True])
def test_from_a_game_in_progress_and_back(ui: UI, banner: bool) -> None:
    if banner:
        ui.app.notice("test", "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players")
    else:
        ui.app.dismiss_notices()
    ui.app.start_game(Setup("ratatat", PLAYERS, {}))
    ui.advance(3)
    game = ui.screen()
    game.act({"type": "reveal", "region": 0, "value": 5, "balloon": False})
    ui.advance(2)
    before = dict(game.session.state)
    ui.tap(ui.find("?", game))
    screen = ui.screen()
    assert screen.name == "howto" and "Rat-a-Tat Roll" in screen.title_text
    check_page(ui, screen, "howto-in-game" + ("-banner" if banner else ""))
    ui.tap(screen.ids.back)
    assert ui.screen() is game and game.session.state == before  # back to the game, nothing changed
    from companion.ui.widgets import GameHeader

    header = next(w for w in game.walk(restrict=True) if isinstance(w, GameHeader))
    assert not layout_problems(header), layout_problems(header)  # the ? fits beside Home, the message, Undo, Redo
    ui.screenshot("howto-game-header" + ("-banner" if banner else ""))
