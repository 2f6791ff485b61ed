"""Before and after a game (#21 item 12): Rematch on every end screen (the same players in the same seats and
colours, the same options, a new shuffle); a finished game opens from Saved games with its final scores and winner;
Stop offering does not call a game "finished"; a game with no moves does not take the Continue slot. Real
touches, banner shown and hidden; screenshots tests/screenshots/rematch-*.png and saved-games-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_support import UI, layout_problems

from companion.games.base import Player, Setup
from companion.journal.replay import load_lines

pytestmark = pytest.mark.ui

LOGS = Path(__file__).resolve().parents[1] / "games" / "logs"
ENDINGS = ["ratatat-2p-english", "lowdown-2p-spanish", "ratuki-2p-target-100", "artcollectors-count-2p"]
NOTICE = "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players' buttons"


def banner(ui: UI, shown: bool) -> None:
    ui.app.dismiss_notices()
    if shown:
        ui.app.notice("buttons", NOTICE)
    ui.advance(3)


def play_to_the_end(ui: UI, name: str) -> Any:
    """An example game started from the app (a new game, its people linked) and played to its end."""
    setup, actions = load_lines((LOGS / f"{name}.jsonl").read_text(encoding="utf-8").splitlines())
    ui.app.start_game(setup)
    ui.advance(3)
    screen = ui.screen()
    for action in actions:
        screen.session.do(action)
    screen._changed()
    ui.advance(4)
    assert screen.session.over, name
    return screen


def rematch_button(screen: Any) -> Any:
    from kivy.uix.button import Button

    return next(w for w in screen.walk(restrict=True) if isinstance(w, Button) and w.text == "Rematch" and w.opacity)


@pytest.mark.parametrize("shown", [False, True], ids=["plain", "banner"])
@pytest.mark.parametrize("name", ENDINGS)
def test_rematch_on_every_end_screen(ui: UI, name: str, shown: bool) -> None:
    banner(ui, shown)
    screen = play_to_the_end(ui, name)
    first = screen.session
    people = ui.app.history.seats_of(first.game_id)
    assert len(people) == len(first.setup.players)
    button = rematch_button(screen)
    shot = ui.screenshot(f"rematch-{name}" + ("-banner" if shown else ""))
    assert shot.exists()
    problems = [p for p in layout_problems(ui.app.root) if "Rematch" in p or "Home" in p]
    assert not problems, problems
    ui.tap(button)
    again = ui.screen()
    assert again.name == screen.name and again.session is not first
    new = again.session
    assert new.game_id != first.game_id and not new.actions and not new.over
    assert new.setup.players == first.setup.players  # names, colours and seats
    assert new.setup.settings == first.setup.settings and new.setup.game == first.setup.game
    assert ui.app.history.seats_of(new.game_id) == people  # the same people, so their history goes on
    assert ui.app.journal.game(first.game_id).finished  # the finished game is kept as it was


def test_saved_games_tell_finished_from_not_offered_and_open_the_result(ui: UI) -> None:
    screen = play_to_the_end(ui, "ratatat-2p-english")
    finished = screen.session.game_id
    players = (Player("Ana", "#e53935", 1), Player("Bo", "#42a5f5", 2))
    ui.app.start_game(Setup("ratuki", players, {}))
    ui.advance(2)
    stopped = ui.app.session.game_id
    ui.app.session.do({"type": "start", "tick": 1.0})  # one move, then nobody wants to go on
    saved = ui.go("games")
    ui.tap(next(b for b in rows(saved)[stopped] if b.text == "Stop"))
    ui.tap_text("Stop offering", ui.window.children[0])
    ui.advance(3)
    texts = {gid: "\n".join(str(w.text) for w in row) for gid, row in rows(saved).items()}
    assert "(finished)" in texts[finished] and "Result" in texts[finished]
    assert "(no longer offered)" in texts[stopped] and "(finished)" not in texts[stopped]
    assert "Result" not in texts[stopped]
    ui.screenshot("saved-games-finished-and-stopped")
    assert not layout_problems(saved, min_font=16), layout_problems(saved, min_font=16)
    ui.tap(next(b for b in rows(saved)[finished] if b.text == "Result"))
    play = ui.screen()
    assert play.name == "play" and play.play is not None and play.play.status == "finished"
    shown = ui.texts()
    winner = next(p for p in play.play.players if p.winner)
    assert winner.name in shown and str(int(winner.score or 0)) in shown  # the final scores and the winner
    ui.screenshot("saved-games-result")
    ui.tap_text("Back")
    assert ui.screen() is saved


def rows(saved: Any) -> dict[int, list[Any]]:
    """Saved games' rows by journal game id: the labels and buttons of each row."""
    from kivy.uix.label import Label

    return {
        int(line.game_id): [w for w in line.walk(restrict=True) if isinstance(w, Label)]
        for line in saved.ids.list.children
        if hasattr(line, "game_id")
    }


def test_a_game_with_no_moves_does_not_take_the_continue_slot(ui: UI) -> None:
    players = (Player("Ana", "#e53935", 1), Player("Bo", "#42a5f5", 2))
    ui.app.start_game(Setup("ratuki", players, {}))
    ui.advance(2)
    played = ui.app.session.game_id
    ui.app.session.do({"type": "start", "tick": 1.0})
    ui.app.start_game(Setup("lowdown", players, {}))  # set up, then left at once: no moves
    ui.advance(2)
    empty = ui.app.session.game_id
    ui.tap_text("Home")
    home = ui.screen()
    assert home.name == "home" and home._latest is not None and home._latest.id == played
    assert "Ratuki" in home.ids.resume.text
    ui.screenshot("continue-skips-an-empty-game")
    saved = ui.go("games")
    assert empty in rows(saved)  # still listed in Saved games
