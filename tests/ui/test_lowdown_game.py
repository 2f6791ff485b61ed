"""A whole Lowdown game at the table, by touch: rolls tapped in, choices, pass-the-screen, the secret pair revealed
and looked at, a crossed line, a wild colour, the end and the count, with an undo to correct a mistake.
Screenshots at 800×480 under tests/screenshots/lowdown-game-*.png."""

from __future__ import annotations

from typing import Any

import pytest
from ui_support import UI

from companion.games import lowdown
from companion.games.base import Player, Setup

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def st(ui: UI) -> dict[str, Any]:
    return ui.screen().session.state  # type: ignore[no-any-return]


def button(ui: UI, text: str) -> Any:
    """The enabled button whose text is exactly ``text`` on the current screen (not a die tile)."""
    from kivy.uix.button import Button

    from companion.ui.screens.lowdown import DieTile

    for widget in ui.screen().walk(restrict=True):
        if (
            isinstance(widget, Button)
            and not isinstance(widget, DieTile)
            and widget.text == text
            and not widget.disabled
        ):
            return widget
    raise LookupError(text)


def enter(ui: UI, colours: list[str], numbers: list[int]) -> None:
    for value in [*colours, *numbers]:
        ui.tap(button(ui, str(value)))
    assert ui.screen().entry == {"colours": colours, "numbers": numbers}, ui.screen().entry
    ui.tap(button(ui, "Use these dice"))


def tile(ui: UI, face: Any) -> Any:
    from companion.ui.screens.lowdown import DieTile

    return next(
        w
        for w in ui.screen().ids.controls.walk(restrict=True)
        if isinstance(w, DieTile) and w.face == face and not w.disabled
    )


def square(ui: UI, g: int, r: int, c: int) -> Any:
    return ui.screen().board.squares[(g, r, c)]


def choose(ui: UI, number: int | None, colour: str | None, where: tuple[int, int, int]) -> None:
    """Tap a number tile and a colour tile (None: already picked for the player) and then the square."""
    screen = ui.screen()
    if number is not None and screen.number != number:
        ui.tap(tile(ui, number))
    if colour is not None and screen.colour != colour:
        ui.tap(tile(ui, colour))
    assert square(ui, *where).mode == "lit", f"{where} should be lit for {screen.number} {screen.colour}"
    ui.tap(square(ui, *where))


def assert_touch_targets(ui: UI) -> None:
    """Every enabled button on screen is at least 48 px both ways (800×480, density 1)."""
    from kivy.uix.button import Button

    small = [
        (w.text, tuple(round(v) for v in w.size))
        for w in ui.screen().walk(restrict=True)
        if isinstance(w, Button) and not w.disabled and w.get_root_window() is not None and min(w.size) < 48
    ]
    assert not small, small


def fast_forward(ui: UI, until: Any) -> None:
    """Play whole turns through the session (not by touch) until ``until(state)``: Ana writes low numbers in the
    Red/orange grid, Bo anywhere; the secret pair is revealed after the active player's choice."""
    session = ui.screen().session
    while not until(session.state):
        state = session.state
        if state["phase"] == "roll":
            session.do({"type": "roll", "colours": ["red", "orange"], "numbers": [1, 2]})
            continue
        who = lowdown.to_play(state)
        assert who is not None
        if state["phase"] == "others" and state["secret"] is None:
            session.do({"type": "secret", "colour": "purple", "number": 6})
            continue
        options = [a for a in lowdown.legal_placements(state, who, wild=False)]
        if who == 0:
            options = [a for a in options if a["square"][0] == 0] or options
        session.do(min(options, key=lambda a: (a["number"], a["square"])))
    ui.screen().view(lowdown.to_play(session.state) or 0)
    ui.advance(3)


@pytest.mark.slow
def test_a_whole_game_by_touch(ui: UI) -> None:
    ui.app.start_game(Setup("lowdown", PLAYERS, {"end_grids": 1}, 3))
    ui.advance(3)
    screen = ui.screen()
    # Turn 1: Ana rolls red, orange, 3, 3 (tapped in); both 3s are the same, so 3 is picked for her.
    enter(ui, ["red", "orange"], [3, 3])
    assert screen.number == 3 and screen.colour is None
    choose(ui, None, "red", (0, 0, 0))
    assert screen.header_text == "Ana writes 3 (red) in Red/orange row 1, column 1"
    ui.screenshot("lowdown-game-1-written")
    assert_touch_targets(ui)
    ui.tap(button(ui, "Pass to Bo"))
    assert screen.viewing == 1 and screen.mode() == "secret"  # Bo reveals the pair he rolled in secret
    enter(ui, ["green"], [6])
    choose(ui, 3, "orange", (0, 0, 2))
    # Turn 2: Bo rolls; Bo already holds the screen.
    assert st(ui)["turn"] == 2 and screen.viewing == 1 and screen.mode() == "roll"
    enter(ui, ["red", "orange"], [3, 3])
    choose(ui, None, "red", (0, 0, 0))
    ui.tap(button(ui, "Pass to Ana"))
    enter(ui, ["blue"], [1])  # Ana rolled the secret pair: revealed after Bo's choice
    choose(ui, 3, "orange", (0, 0, 2))
    # Turn 3: Ana: 3 _ 3 in her first row; a 4 in the middle makes 10.
    enter(ui, ["red", "purple"], [4, 2])
    choose(ui, 4, "red", (0, 0, 1))
    assert screen.board.highlight == [[[0, 0, 0], [0, 0, 1], [0, 0, 2]]]
    ui.screenshot("lowdown-game-3-crossable")
    ui.tap(square(ui, 0, 0, 1))  # picks the whole highlighted line
    ui.tap(square(ui, 0, 0, 1))  # crosses it out
    assert st(ui)["boards"][0]["crossed"] == [[[0, 0, 0], [0, 0, 1], [0, 0, 2]]]
    assert lowdown.board_score(st(ui), 0) == 0 and screen.header_text.startswith("Ana crosses out 3 4 3")
    ui.tap(button(ui, "Pass to Bo"))
    enter(ui, ["yellow"], [5])
    choose(ui, 5, "yellow", (2, 0, 1))
    # Turn 4: Bo looks at the secret pair Ana rolled and must use it (green 1); the open dice go dark.
    enter(ui, ["blue", "purple"], [2, 6])
    ui.tap(button(ui, "Look at the secret pair"))
    enter(ui, ["green"], [1])
    assert (screen.number, screen.colour) == (1, "green")
    assert screen.prompt == "Bo: use the secret pair, then tap a lit square"
    from companion.ui.screens.lowdown import DieTile

    open_tiles = [w for w in screen.ids.controls.walk(restrict=True) if isinstance(w, DieTile)][:4]
    assert [t.face for t in open_tiles] == ["blue", "purple", 2, 6]
    assert all(t.disabled and not t.picked for t in open_tiles)
    ui.screenshot("lowdown-game-4-looked")
    assert_touch_targets(ui)
    ui.tap(square(ui, 2, 0, 0))
    assert st(ui)["taken"] == ["sc", "sn"]
    ui.tap(button(ui, "Pass to Ana"))
    # Ana takes 2 with a wild colour into a red square (the dice left are blue and purple).
    assert sorted(map(str, lowdown.pool(st(ui))["colours"])) == ["blue", "purple"]
    ui.tap(button(ui, "Wild colour: off (4 left)"))
    ui.tap(tile(ui, 2))
    assert square(ui, 0, 1, 2).mode == "lit"
    ui.screenshot("lowdown-game-4-wild")
    ui.tap(square(ui, 0, 1, 2))
    assert st(ui)["boards"][0]["wilds"] == 1 and st(ui)["turn"] == 5
    # Later turns through the session, up to Ana's last free square in the Red/orange grid.
    fast_forward(
        ui, lambda s: s["phase"] == "roll" and sum(c is None for r in s["boards"][0]["grids"][0] for c in r) == 1
    )
    active = st(ui)["active"]
    name = PLAYERS[active].name
    assert screen.prompt == f"Turn {st(ui)['turn']}: {name} rolls"
    enter(ui, ["red", "orange"], [1, 2])
    last = next(
        (0, r, c) for r, row in enumerate(st(ui)["boards"][0]["grids"][0]) for c, cell in enumerate(row) if cell is None
    )
    assert active == 0, "the fast-forward should end on Ana's turn"
    ui.tap(tile(ui, 1))
    colour = "red" if "red" in lowdown.square_colours(st(ui), list(last)) else "orange"
    choose(ui, 1, colour, last)
    ui.tap(button(ui, "Pass to Bo"))
    enter(ui, ["purple"], [6])
    free = lowdown.legal_placements(st(ui), 1, number=6, colour="purple", wild=False)
    choose(ui, 6, "purple", tuple(free[0]["square"]))
    # Ana filled a grid: the others finished their part, now the last crossings, then the count.
    assert st(ui)["phase"] == "final" and screen.mode() == "final"
    assert screen.prompt == "Game over: Ana filled 1 grid"
    ui.screenshot("lowdown-game-final")
    ui.tap(button(ui, "Count the scores"))
    assert screen.session.over
    ui.screenshot("lowdown-game-over")
    assert "Ana   9" in ui.texts() and "Bo   24" in ui.texts()
    # A mistake (someone forgot a line)? Undo reopens the final phase; nothing is lost.
    ui.tap(ui.find("Undo"))
    assert st(ui)["phase"] == "final" and screen.header_text == "Undone: Final scores"
    ui.tap(button(ui, "Count the scores"))
    scores = screen.session.scores()
    assert screen.prompt.startswith(" and ".join(scores["winners"]))


def test_long_names_are_cut_to_fit(ui: UI) -> None:
    names = ["Maximiliano Rodríguez de la Vega", "Guadalupe Ana", "Christopher", "Bartholomew"]
    colours = ["#e53935", "#1e88e5", "#43a047", "#fdd835"]
    players = tuple(Player(n, c, i + 1) for i, (n, c) in enumerate(zip(names, colours, strict=True)))
    ui.app.start_game(Setup("lowdown", players, {}, 3))
    ui.advance(3)
    screen = ui.screen()
    screen.session.do({"type": "roll", "colours": ["red", "orange"], "numbers": [3, 3]})
    screen.view(0)
    ui.advance(2)
    ui.screenshot("lowdown-game-long-names")
    assert screen.board_title.startswith("[b]Maximiliano Rodrí…[/b]")
    # Both number dice show 3, so 3 is picked; until a colour is picked the board is not dimmed.
    assert screen.number == 3 and screen.colour is None
    assert all(b.mode == "normal" for b in screen.board.squares.values())
    strip = [b.text for b in reversed(screen.ids.players.children)]
    assert strip[0].startswith("Maximiliano Rodríguez d…") and strip[1].startswith("Guadalupe Ana  0")
    assert_touch_targets(ui)
