"""Lowdown screen by touch: roll entry, lit squares, the secret pair, wilds, crossing, pass-the-screen, the end;
screenshots at 800×480 under tests/screenshots/lowdown-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from ui_support import UI

from companion.games import lowdown
from companion.games.base import Player, Setup
from companion.vision.roll import DieRead, Roll

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2), Player("Cy", "#43a047", 3))


def start(ui: UI, players: tuple[Player, ...] = PLAYERS[:2], seed: int = 3, **settings: Any) -> Any:
    ui.app.start_game(Setup("lowdown", players, settings, seed))
    ui.advance(3)
    screen = ui.screen()
    assert screen.name == "lowdown"
    return screen


def state(ui: UI) -> dict[str, Any]:
    return ui.screen().session.state  # type: ignore[no-any-return]


def square(ui: UI, g: int, r: int, c: int) -> Any:
    return ui.screen().board.squares[(g, r, c)]


def enter(ui: UI, colours: list[str], numbers: list[int]) -> None:
    """Tap the dice into the entry panel and confirm."""
    for name in colours:
        ui.tap(ui.find(name, ui.screen().ids.content))
    for value in numbers:
        ui.tap(exact(ui, str(value)))
    ui.tap_text("Use these dice")


def exact(ui: UI, text: str, root: Any = None) -> Any:
    from kivy.uix.button import Button

    base = root if root is not None else ui.screen().ids.content
    for widget in base.walk(restrict=True):
        if isinstance(widget, Button) and widget.text == text and not widget.disabled:
            return widget
    raise LookupError(text)


def tile(ui: UI, face: Any) -> Any:
    """The die tile showing ``face`` (a colour name or a number); the first one when two dice show it."""
    return next(t for t in tiles(ui) if t.face == face)


def tiles(ui: UI) -> list[Any]:
    from companion.ui.screens.lowdown import DieTile

    return [w for w in ui.screen().ids.controls.walk(restrict=True) if isinstance(w, DieTile)]


def test_first_turn_by_touch(ui: UI) -> None:
    start(ui)
    ui.screenshot("lowdown-roll-entry")
    enter(ui, ["red", "blue"], [3, 5])
    assert state(ui)["phase"] == "active"
    ui.screenshot("lowdown-choose")
    # Ana picks 3 and red: only the red squares of her board light up.
    ui.tap(tile(ui, 3))
    red = tile(ui, "red")
    ui.tap(red)
    lit = {sq for sq, b in ui.screen().board.squares.items() if b.mode == "lit"}
    assert lit == {(0, 0, 0), (0, 0, 1), (0, 1, 1), (0, 1, 2), (0, 2, 0), (0, 2, 1)}
    assert square(ui, 0, 0, 2).mode == "dim"
    ui.screenshot("lowdown-lit")
    # A square of the wrong colour is refused with the reason, nothing recorded.
    ui.tap(square(ui, 0, 0, 2))
    assert "that square is orange" in ui.screen().header_text and ui.screen().message_is_error
    assert state(ui)["boards"][0]["grids"][0][0][2] is None
    ui.tap(square(ui, 0, 0, 0))
    assert state(ui)["boards"][0]["grids"][0][0][0]["n"] == 3
    assert square(ui, 0, 0, 0).text == "3"
    ui.screenshot("lowdown-pass")
    ui.tap_text("Pass to Bo")
    assert ui.screen().viewing == 1
    # Physical secret pair: revealed by touch before Bo chooses.
    assert "Reveal the secret pair" in ui.screen().prompt
    enter(ui, ["green"], [6])
    assert sorted((t.kind, str(t.face)) for t in tiles(ui)) == [
        ("colour", "blue"),
        ("colour", "green"),
        ("number", "5"),
        ("number", "6"),
    ]
    ui.screenshot("lowdown-others")
    ui.tap(tile(ui, 6))
    green = tile(ui, "green")
    ui.tap(green)
    ui.tap(square(ui, 2, 0, 0))
    assert state(ui)["turn"] == 2 and state(ui)["active"] == 1 and state(ui)["phase"] == "roll"
    # Bo holds the screen and is the next to roll: straight to his roll entry.
    assert ui.screen().prompt == "Turn 2: Bo rolls"
    # Undo takes Bo's number back and shows whose part it is again.
    ui.tap_text("Undo")
    assert state(ui)["phase"] == "others"
    assert ui.screen().header_text == "Undone: Bo writes 6 (green) in Green/yellow row 1, column 1"
    assert ui.screen().mode() in ("choose", "pass")


def camera(colours: list[str], numbers: list[int]) -> Roll:
    dice = [DieRead("colour", c) for c in colours] + [DieRead("pips", n) for n in numbers]
    return Roll(tuple(dice), source="camera")


def test_camera_roll_virtual_look_and_active_wild(ui: UI) -> None:
    screen = start(ui, PLAYERS, seed=7, secret_dice="virtual")
    screen.on_roll(camera(["red", "blue"], [3, 5]))
    ui.advance(2)
    assert state(ui)["open"] == {"colours": ["red", "blue"], "numbers": [3, 5]}
    ui.tap_text("Look at the secret pair")
    secret = lowdown.virtual_secret(7, 1, state(ui)["layout"])
    assert state(ui)["looked"] and state(ui)["secret"] == secret
    ui.screenshot("lowdown-looked")
    # Wild colour with the secret pair: the secret number anywhere, the secret colour die leaves play (the pair is
    # used as a whole, so the open dice stay disabled and the pair is picked); any free square lights up.
    ui.tap_text("Wild colour")
    faces = (secret["number"], secret["colour"])
    assert all(t.disabled for t in tiles(ui) if t.face not in faces)  # open dice showing other faces
    assert (ui.screen().number, ui.screen().colour) == (secret["number"], secret["colour"])
    assert sum(b.mode == "lit" for b in ui.screen().board.squares.values()) == 27
    ui.screenshot("lowdown-wild")
    ui.tap(square(ui, 1, 1, 1))
    st = state(ui)
    assert st["boards"][0]["wilds"] == 1 and st["wild_out"] == secret["colour"]
    assert lowdown.pool(st) == {"colours": ["red", "blue"], "numbers": [3, 5]}
    ui.tap_text("Pass to Bo")
    assert f"used a wild colour and took the {secret['colour']} die out of play" in ui.screen().info


def test_camera_numbers_only_then_colours_by_touch(ui: UI) -> None:
    screen = start(ui)
    screen.on_roll(camera([], [2, 6]))
    ui.advance(2)
    assert "Tap the colour dice" in screen.header_text
    assert state(ui)["phase"] == "roll"
    ui.tap(ui.find("yellow", screen.ids.content))
    ui.tap(ui.find("purple", screen.ids.content))
    ui.screenshot("lowdown-numbers-read")
    ui.tap_text("Use these dice")
    assert state(ui)["open"] == {"colours": ["yellow", "purple"], "numbers": [2, 6]}
    screen.on_roll(camera(["red"], [1, 2, 3]))
    assert "No dice are expected" in screen.header_text


def play(ui: UI, actions: list[dict[str, Any]]) -> Any:
    screen = ui.screen()
    for action in actions:
        screen.session.do(action)
    screen.view(lowdown.to_play(screen.session.state) or 0)
    ui.advance(3)
    return screen


def test_crossing_by_line_button_and_by_three_taps(ui: UI) -> None:
    start(ui)
    sec = {"type": "secret", "colour": "blue", "number": 1}
    ro = {"type": "roll", "colours": ["red", "orange"], "numbers": [3, 3]}
    screen = play(
        ui,
        [
            ro, {"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 0]}, sec,
            {"type": "place", "player": 1, "number": 3, "colour": "orange", "square": [0, 0, 2]},
            ro, {"type": "place", "player": 1, "number": 3, "colour": "red", "square": [0, 0, 0]}, sec,
            {"type": "place", "player": 0, "number": 3, "colour": "orange", "square": [0, 0, 2]},
            ro, {"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 1]}, sec,
        ],
    )  # fmt: skip
    screen.view(0)
    ui.advance(3)
    assert screen.board.highlight == [[[0, 0, 0], [0, 0, 1], [0, 0, 2]]]
    ui.screenshot("lowdown-crossable")
    ui.tap_text("Cross Red/orange row 1: 3 3 3")
    assert state(ui)["boards"][0]["crossed"] == [[[0, 0, 0], [0, 0, 1], [0, 0, 2]]]
    assert lowdown.board_score(state(ui), 0) == 0
    ui.screenshot("lowdown-crossed")
    ui.tap_text("Undo")
    assert state(ui)["boards"][0]["crossed"] == []
    # Tapping the highlighted line picks it whole; a second tap on it crosses it out.
    ui.tap(square(ui, 0, 0, 1))
    assert all(square(ui, 0, 0, c).mode == "picked" for c in range(3))
    assert "Tap the line again to cross out 3 3 3" in screen.header_text
    ui.screenshot("lowdown-line-picked")
    assert state(ui)["boards"][0]["crossed"] == []
    ui.tap(square(ui, 0, 0, 2))
    assert state(ui)["boards"][0]["crossed"] == [[[0, 0, 0], [0, 0, 1], [0, 0, 2]]]
    ui.tap(square(ui, 0, 0, 0))
    assert "already crossed out" in screen.header_text


def test_three_taps_that_are_not_a_legal_line_are_refused(ui: UI) -> None:
    start(ui)
    sec = {"type": "secret", "colour": "blue", "number": 1}
    ro = {"type": "roll", "colours": ["red", "orange"], "numbers": [3, 5]}
    screen = play(
        ui,
        [
            ro, {"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 0]}, sec,
            {"type": "place", "player": 1, "number": 5, "colour": "orange", "square": [0, 0, 2]},
            ro, {"type": "place", "player": 1, "number": 3, "colour": "red", "square": [0, 0, 0]}, sec,
            {"type": "place", "player": 0, "number": 5, "colour": "orange", "square": [0, 0, 2]},
            ro, {"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 1]},
        ],
    )  # fmt: skip
    screen.view(0)
    ui.advance(2)
    assert screen.board.highlight == []
    ui.tap(square(ui, 0, 0, 0))
    ui.tap(square(ui, 0, 0, 1))
    assert "2 of 3" in screen.header_text and square(ui, 0, 0, 1).mode == "picked"
    ui.tap(square(ui, 0, 0, 1))  # unpick
    assert "1 of 3" in screen.header_text and square(ui, 0, 0, 1).mode == "normal"
    ui.tap(square(ui, 0, 0, 1))
    ui.tap(square(ui, 0, 0, 2))
    assert "3 + 3 + 5 = 11" in screen.header_text and screen.message_is_error
    assert state(ui)["boards"][0]["crossed"] == []
    assert all(square(ui, 0, 0, c).mode == "normal" for c in range(3))


def load_log(name: str) -> tuple[Setup, list[dict[str, Any]]]:
    from pathlib import Path

    from companion.journal.replay import load_lines

    path = Path(__file__).resolve().parent.parent / "games" / "logs" / name
    with path.open(encoding="utf-8") as fh:
        return load_lines(fh, source=str(path))


def test_forced_shade_and_end_of_game(ui: UI) -> None:
    setup, actions = load_log("lowdown-4p-spanish-virtual.jsonl")
    ui.app.start_game(setup)
    ui.advance(3)
    # The example game's last shaded square, made by touch this time.
    k = max(i for i, a in enumerate(actions) if a["type"] == "shade")
    who, (g, r, c) = actions[k]["player"], actions[k]["square"]
    screen = play(ui, actions[:k])
    screen.view(who)  # the others may write in any order
    ui.advance(2)
    assert screen.mode() == "shade"
    assert "nothing fits" in screen.prompt
    assert screen.info.startswith("Dice left: " if who != state(ui)["active"] else "The secret pair: ")
    name = state(ui)["players"][who]["name"]  # the strip marks everyone who still has to write, the shader too
    assert any(t.startswith(f"{name}  ") and t.endswith("[b]>[/b]") for t in ui.texts().splitlines())
    ui.screenshot("lowdown-shade")
    ui.tap(square(ui, g, r, c))
    assert state(ui)["boards"][who]["grids"][g][r][c] == {"shaded": True, "turn": state(ui)["turn"]}
    assert square(ui, g, r, c).text == "+6"
    screen = play(ui, actions[k + 1 : -1])
    assert screen.mode() == "final"
    ui.screenshot("lowdown-final")
    ui.tap_text("Count the scores")
    assert screen.session.over
    expected = screen.session.scores()
    assert f"{expected['winners'][0]} wins with {expected[expected['winners'][0]]}" == screen.prompt
    ui.screenshot("lowdown-over")


def test_resume_shows_whose_part_it_is(ui: UI) -> None:
    screen = start(ui, PLAYERS)
    play(ui, [{"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]},
              {"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 0]}])  # fmt: skip
    game_id = screen.session.game_id
    ui.app.resume(game_id)
    ui.advance(3)
    assert ui.screen().viewing == 1 and ui.screen().mode() == "secret"


def test_physical_look_must_then_be_used_and_buttons_switch_boards(ui: UI) -> None:
    screen = start(ui, PLAYERS)
    enter(ui, ["red", "blue"], [3, 5])
    ui.tap_text("Look at the secret pair")
    assert screen.mode() == "secret" and "looks at the secret pair" in screen.prompt
    ui.tap_text("Don't look")
    assert screen.mode() == "choose" and not state(ui)["looked"]
    ui.tap_text("Look at the secret pair")
    ui.screenshot("lowdown-look-entry")
    enter(ui, ["yellow"], [6])
    assert state(ui)["looked"] and state(ui)["secret"] == {"colour": "yellow", "number": 6}
    # Once seen, the secret pair must be used as a pair: the open dice are disabled, yellow 6 is picked for Ana.
    assert tile(ui, 3).disabled and tile(ui, "red").disabled
    assert (screen.number, screen.colour) == (6, "yellow")
    ui.tap(square(ui, 0, 0, 0))  # red square: dimmed, refused with the reason
    assert state(ui)["boards"][0]["grids"][0][0][0] is None and screen.message_is_error
    ui.tap(square(ui, 2, 0, 1))
    assert state(ui)["boards"][0]["grids"][2][0][1]["n"] == 6
    assert state(ui)["taken"] == ["sc", "sn"]
    # Cy's arcade button brings up Cy's board: the others may choose in any order, so Cy can write first.
    from hardware.buttons import ButtonEvent

    screen.on_button(ButtonEvent(3, "press", 1.0))
    ui.advance(2)
    assert screen.viewing == 2 and screen.mode() == "choose"
    # Ana's button: she has written, her board offers the pass to the next one who has not.
    screen.on_button(ButtonEvent(1, "press", 1.0))
    ui.advance(2)
    assert screen.viewing == 0 and screen.mode() == "pass"
    assert "Pass to Bo" in ui.find("Pass to").text
    ui.tap(square(ui, 1, 0, 0))
    assert "Ana has already written this turn; next: Bo" in screen.header_text
    ui.tap_text("Pass to Bo")
    assert screen.viewing == 1 and screen.mode() == "choose"
    ui.screenshot("lowdown-bo-after-look")


def test_refresh_changes_nothing_when_nothing_happened(ui: UI) -> None:
    """Redrawing a long game's boards again and again shows the same thing (its speed is a benchmark's business,
    never a test's)."""
    setup, actions = load_log("lowdown-4p-spanish-virtual.jsonl")
    ui.app.start_game(setup)
    ui.advance(3)
    screen = play(ui, actions[:100])

    def texts() -> list[str]:
        return sorted(str(w.text) for w in screen.walk() if hasattr(w, "text"))

    before = texts()
    for _ in range(10):
        screen.refresh()
    assert texts() == before


def test_new_game_screen_offers_the_lowdown_settings(ui: UI) -> None:
    setup_screen = ui.screen("setup")
    setup_screen.prepare("lowdown", seed=9)
    ui.go("setup")
    ui.tap_text("Rules:")
    ui.tap_text("Secret pair:")
    ui.screenshot("lowdown-new-game")
    assert setup_screen.settings["edition"] == "en" and setup_screen.settings["secret_dice"] == "virtual"
    ui.tap_text("Start")
    screen = ui.screen()
    assert screen.name == "lowdown"
    assert screen.session.state["settings"]["edition"] == "en"
    assert "app keeps a secret pair hidden" in screen.info


@pytest.mark.slow
def test_a_stuck_active_player_is_told_to_look_then_what_they_did(ui: UI) -> None:
    """Nothing fits the open dice and no wild is left: the hint and a tapped square both point at the secret
    pair (not at a spent wild or a number die that cannot be picked), and after shading, the others read that the
    active player shaded and keeps the pair (not that they took dice they never wrote)."""
    screen = start(ui, PLAYERS)
    for board in state(ui)["boards"]:  # a late position, set straight on the state: two grids full, no wild left
        for g in (0, 1):
            board["grids"][g] = [[{"n": 1, "wild": False, "turn": 0} for _c in range(3)] for _r in range(3)]
        board["wilds"] = 4
    enter(ui, ["red", "blue"], [3, 5])
    assert "No open die colour fits: look at the secret pair." in screen.info
    assert "wild" not in screen.info
    ui.tap(square(ui, 2, 0, 0))
    assert screen.message_is_error and "Look at the secret pair" in screen.header_text
    ui.tap_text("Look at the secret pair")
    enter(ui, ["orange"], [6])
    ui.tap(square(ui, 2, 1, 1))
    assert state(ui)["boards"][0]["grids"][2][1][1]["shaded"]
    assert "Ana could not use the secret pair, shaded a square (+6) and keeps the pair." in screen.info
    ui.screenshot("lowdown-stuck-active-shaded")
    ui.tap_text("Pass to Bo")
    assert "Dice left: red, blue, 3, 5." in screen.info  # Bo is stuck too, with the open four


def test_the_message_line_names_the_board_on_screen(ui: UI) -> None:
    screen = start(ui, PLAYERS)
    screen.show_message("It is Bo's turn to write", error=True)
    screen.view(1)
    assert screen.header_text == "Bo's board"
    screen.view(2)
    assert screen.header_text == "Cy's board"  # it used to keep saying Bo's board


def test_messages_say_an_orange() -> None:
    assert lowdown.article("orange") == "an orange" and lowdown.article("red") == "a red"
    assert lowdown.article(8) == "an 8" and lowdown.article(3) == "a 3" and lowdown.article(11) == "an 11"
