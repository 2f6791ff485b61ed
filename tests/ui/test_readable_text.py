"""Text a family can read at 800x480 (#21 item 10): every text at least 16 px on every screen (the Rat-a-Tat odds
table was ~12 px, the Art Collectors "why" column ~13 px, long header messages shrank to ~13 px), and player
colours readable on the dark background (contrast at least 4.5:1; the default blue of "Bo" and red of "Ana" were
not). The fonts are measured on the widgets of every screen and every phase of the example games; the contrast on
the colours drawn and on the pixels of a screenshot. Screenshots tests/screenshots/readable-*.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ui_support import UI, ink_rect, layout_problems, small_markup

from companion.config import defaults
from companion.games.base import Player, Setup
from companion.journal import GameSession
from companion.journal.replay import load_lines
from companion.ui.contrast import BUTTON, DARK, MIN_CONTRAST, contrast, legible, legible_rgba
from companion.ui.screens.setup import PALETTE

pytestmark = pytest.mark.ui

LOGS = sorted((Path(__file__).resolve().parents[1] / "games" / "logs").glob("*.jsonl"))
NOTICE = "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players' buttons"


def hex_of(rgba: Any) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(float(c) * 255) for c in rgba[:3]))


def test_player_colours_are_lightened_just_enough() -> None:
    for colour in {*PALETTE, *defaults()["players"]["colours"]}:
        assert contrast(legible(colour), DARK) >= MIN_CONTRAST, colour
        assert contrast(legible(colour, BUTTON), BUTTON) >= MIN_CONTRAST, colour
    assert contrast("#1e88e5", DARK) < MIN_CONTRAST and contrast("#e53935", DARK) < MIN_CONTRAST  # as they were
    assert legible("#fdd835") == "#fdd835"  # a colour that reads already is left as it is
    blue = legible("#1e88e5")
    r, g, b = (int(blue[i : i + 2], 16) for i in (1, 3, 5))
    assert b > g > r  # still blue


def small_text(ui: UI, where: str) -> list[str]:
    """Text under 16 px: a label's font size, and any smaller [size=N] inside its markup."""
    found = [f"{where}: {p}" for p in layout_problems(ui.app.root, min_font=16) if "smaller than" in p]
    return found + [f"{where}: {p}" for p in small_markup(ui.app.root, 16)]


def test_every_screen_and_phase_has_text_of_16_px_at_least(ui: UI) -> None:
    ui.app.notice("buttons", NOTICE)
    problems: list[str] = []
    for name in ("home", "games", "buttons", "camera", "history", "stats", "players", "transfer", "settings"):
        ui.go(name)
        problems += small_text(ui, name)
    for game in ("ratatat", "lowdown", "ratuki", "artcollectors"):
        ui.screen("setup").prepare(game)
        ui.go("setup")
        problems += small_text(ui, f"setup {game}")
        ui.screen("howto").show(game, "setup")
        ui.go("howto")
        problems += small_text(ui, f"how to play {game}")
    # Every phase of the example games (and a long header message in each) is checked for small text by the
    # layout audit (tests/ui/test_layout_audit.py), which walks the same moves with the banner shown and hidden.
    for path in LOGS:  # their plays, for the history screens below
        setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines())
        session = GameSession(ui.app.journal, ui.app.journal.new_game(setup))
        for action in actions:
            session.do(action)
    history = ui.go("history")
    problems += small_text(ui, "history")
    if history.ids.list.children:
        ui.tap(history.ids.list.children[-1])
        problems += small_text(ui, "a play")
    ui.screenshot("readable-a-play")
    assert not problems, "\n".join(sorted(set(problems))[:40])


def brightest(image: Any, rect: tuple[float, float, float, float]) -> str:
    """The brightest pixel's colour inside a window rectangle of a screenshot (a glyph's full ink)."""
    import numpy as np

    h = image.shape[0]
    x0, y0, x1, y1 = (round(v) for v in rect)
    patch = image[h - y1 : h - y0, x0:x1].reshape(-1, 3).astype(float)
    weights = np.array([0.0722, 0.7152, 0.2126])  # BGR
    b, g, r = patch[int(np.argmax(patch @ weights))]
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


def test_player_names_in_their_colours_read_on_the_dark_background(ui: UI) -> None:
    """The score sheet of a Ratuki game of the default players (the issue's blue "Bo"): each name cell drawn in a
    colour of contrast 4.5:1 at least with the background, measured on the screenshot's pixels too."""
    import cv2

    players = tuple(Player(n, c, s) for s, (n, c) in enumerate(zip(("Ana", "Bo", "Cai"), PALETTE[:3], strict=True), 1))
    ui.app.start_game(Setup("ratuki", players, {}))
    ui.advance(3)
    screen = ui.screen()
    session = screen.session
    session.do({"type": "start", "tick": 1.0})
    session.do({"type": "stop", "tick": 90.0, "reason": "blocked"})
    for seat in (1, 2, 3):
        session.do({"type": "score", "seat": seat, "score_pile": 10 * seat, "left": 0})
    screen.refresh()
    ui.advance(4)
    shot = ui.screenshot("readable-ratuki-names")
    image = cv2.imread(str(shot))
    sheet = screen.ready_panel.ids.sheet
    names = {str(w.text): w for w in sheet.ids.head.children if str(w.text) in ("Ana", "Bo", "Cai")}
    assert set(names) == {"Ana", "Bo", "Cai"}
    for name, cell in names.items():
        drawn = hex_of(cell.color)
        assert contrast(drawn, DARK) >= MIN_CONTRAST, (name, drawn)
        ink = ink_rect(cell)
        assert ink is not None
        seen = brightest(image, ink)
        x, y = cell.to_window(cell.x + 2, cell.y + 2)
        b, g, r = image[image.shape[0] - 1 - int(y), int(x)]
        ground = f"#{int(r):02x}{int(g):02x}{int(b):02x}"
        assert contrast(seen, ground) >= MIN_CONTRAST, (name, seen, ground, contrast(seen, ground))
    assert hex_of(names["Bo"].color) == legible("#1e88e5") != "#1e88e5"  # the blue, lightened
    assert list(names["Bo"].color) == list(legible_rgba("#1e88e5"))
