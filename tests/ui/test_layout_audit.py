"""Every game's screens at 800×480, with the notice banner shown and hidden: the example games of
``tests/games/logs/`` are played through the app, and at the first move of each phase and every few moves the
screen is checked for text drawn over other text or buttons, text outside its box and anything off the window
(``ui_support.layout_problems``), and for text under 16 px, a long header message included (#21 item 10, the
check ``test_readable_text`` makes of the other screens: one walk through the games serves both). Screenshots of
the first screen of each phase: tests/screenshots/audit-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_support import UI, layout_problems, small_markup

from companion.journal.replay import load_lines

pytestmark = [pytest.mark.ui, pytest.mark.slow]

LOGS = sorted((Path(__file__).resolve().parents[1] / "games" / "logs").glob("*.jsonl"))
EVERY = 9  # a check every this many moves, and at the first move of each phase
NOTICE = "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players' buttons"
LONG_NOTICE = (
    "Camera lost: the camera gives no frames (it was unplugged or its cable is loose). Touch entry still works; "
    "reconnecting every 5 s. Plug it back in and the dice screen picks it up by itself."
)


MIN_FONT = 16  # px: no text smaller (#21 item 10)
LONG_MESSAGE = (
    "Bartholomew-Ch takes the Yellow 9 with a balloon: +1 token; the bank is empty now, so nobody gets a token "
    "for a balloon until one is spent"
)


def phase_of(state: dict[str, Any]) -> str:
    return str(state.get("phase", ""))


def banner(ui: UI, shown: bool, *, long: bool = False) -> None:
    ui.app.dismiss_notices()
    if shown:
        ui.app.notice("buttons", NOTICE)
        if long:
            ui.app.notice("camera", LONG_NOTICE)
    ui.advance(2)


def check(ui: UI, where: str, *, min_font: float | None = None) -> list[str]:
    problems = [f"{where}: {problem}" for problem in layout_problems(ui.app.root, min_font=min_font)]
    if min_font is not None:
        problems += [f"{where}: {problem}" for problem in small_markup(ui.app.root, min_font)]
    return problems


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_every_phase_fits_with_and_without_the_banner(ui: UI, path: Path) -> None:
    setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines())
    # Opened as a recorded game (some were played under settings a new game no longer takes, e.g. Ratuki to 30)
    assert ui.app.resume(ui.app.journal.new_game(setup)) is not None
    ui.advance(3)
    screen = ui.screen()
    assert screen.name == setup.game
    problems: list[str] = []
    phases: set[str] = set()
    for seq, action in enumerate([None, *actions]):
        if action is not None:
            screen.session.do(action)
        phase = phase_of(screen.session.state)
        first = phase not in phases
        if not (first or seq % EVERY == 0 or seq == len(actions)):
            continue
        phases.add(phase)
        screen._changed()
        for shown, long in ((True, seq % 2 == 1), (False, False)):
            banner(ui, shown, long=long)
            where = f"after move {seq} ({phase}, banner {'shown' if shown else 'hidden'})"
            problems += check(ui, where, min_font=MIN_FONT)
            if first and shown:
                ui.screenshot(f"audit-{path.stem}-{seq:03d}-{phase}")
    banner(ui, True)
    screen.show_message(LONG_MESSAGE)  # a long header message: smaller type, never below 16 px
    ui.advance(2)
    problems += check(ui, "a long message", min_font=MIN_FONT)
    assert not problems, "\n".join(problems[:20])


def test_the_banner_keeps_one_height(ui: UI) -> None:
    """One notice or two, short or long, the banner is one height (the screen above it moves once, not again as
    notices come and go) and every line of it is inside the window."""
    heights = []
    for notices in ([NOTICE], [LONG_NOTICE], [NOTICE, LONG_NOTICE], [LONG_NOTICE, LONG_NOTICE + " Again."]):
        ui.app.dismiss_notices()
        for k, text in enumerate(notices):
            ui.app.notice(f"topic{k}", text)
        ui.advance(3)
        strip = next(w for w in ui.app.root.children if getattr(w, "text", None) == ui.app.banner)
        heights.append(strip.height)
        assert not layout_problems(ui.app.root), layout_problems(ui.app.root)
        assert strip.texture_size[1] <= strip.height
    assert len(set(heights)) == 1 and heights[0] > 0
    assert ui.app.banner.count("\n") == 1 and ui.app.banner.endswith("…")  # two notices: a line each, cut
    shot = ui.screenshot("banner-two-long-notices")
    assert shot.exists()
    ui.tap(strip)  # every notice in full
    assert LONG_NOTICE in ui.texts(ui.window.children[0])


@pytest.mark.parametrize("game", ["ratatat", "lowdown", "ratuki", "artcollectors"])
def test_setup_screens_fit(ui: UI, game: str) -> None:
    """Each game's setup screen, five players (or the most the game takes), banner shown and hidden."""
    ui.screen("home").new_game(game)
    ui.advance(3)
    screen = ui.screen()
    assert screen.name == "setup"
    screen.set_count(screen.max_players)
    problems: list[str] = []
    for shown in (True, False):
        banner(ui, shown, long=True)
        problems += check(ui, f"{game} setup, banner {'shown' if shown else 'hidden'}")
    ui.screenshot(f"audit-setup-{game}")
    assert not problems, "\n".join(problems[:20])


def test_screens_between_moves_fit(ui: UI) -> None:
    """Screens a move log does not reach: Lowdown's look at the secret pair, Ratuki's "round over?" prompt and
    "who went out?" question, each with the banner shown."""
    from companion.games.base import Player, Setup

    players = tuple(Player(n, c, s) for n, c, s in (("Ana", "#e53935", 1), ("Bo", "#1e88e5", 2), ("Cy", "#43a047", 3)))
    banner(ui, True, long=True)
    ui.app.start_game(Setup("lowdown", players, {}, 5))
    ui.advance(3)
    screen = ui.screen()
    screen.act({"type": "roll", "colours": ["red", "blue"], "numbers": [1, 2]})
    ui.advance(2)
    ui.tap_text("Look at the secret pair")
    assert screen.mode() == "secret"
    problems = check(ui, "Lowdown, looking at the secret pair")
    ui.screenshot("audit-lowdown-look")
    ui.app.start_game(Setup("ratuki", (*players, Player("Di", "#fb8c00", 4), Player("Ed", "#8e24aa", 5)), {}, 5))
    ui.advance(3)
    screen = ui.screen()
    ui.tap_text("Start round 1")
    ui.clock_value += screen.settings["stall_s"] + 1
    ui.advance(30, seconds=0.3)
    assert screen.stall_text
    problems += check(ui, "Ratuki, round over? prompt")
    ui.screenshot("audit-ratuki-stall")
    view = screen.ask_who_went_out()
    ui.advance(3)
    problems += check(ui, "Ratuki, who went out?")  # the question over the screen
    problems += [f"Ratuki, who went out?: {p}" for p in layout_problems(view)]
    ui.screenshot("audit-ratuki-who-went-out")
    assert not problems, "\n".join(problems[:20])
