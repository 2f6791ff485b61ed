"""Players remembered: the next new game offers the people who played last, first, in their own colours."""

from __future__ import annotations

from typing import Any

from ui_support import UI

from companion.ui.namepad import NamePad


def name_buttons(screen: Any) -> list[Any]:
    rows = [row for row in reversed(screen.ids.players.children) if row.children]
    return [list(reversed(row.children))[1] for row in rows]


def open_pad(ui: UI, screen: Any, index: int) -> NamePad:
    ui.tap(name_buttons(screen)[index])
    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    ui.advance(2)
    return pad


def type_name(ui: UI, screen: Any, index: int, text: str) -> None:
    pad = open_pad(ui, screen, index)
    ui.tap(ui.find("Clear", root=pad))
    ui.window.dispatch("on_textinput", text)  # a desktop keyboard (any script) types into the pad
    ui.advance(1)
    ui.tap(ui.find("OK", root=pad))
    ui.wait_until(lambda: pad.parent is None)


def new_game(ui: UI, title: str = "Ratuki") -> Any:
    """Home, then the game's own button (not the Continue button, which names the game too)."""
    home = ui.go("home")
    ui.tap(next(b for b in home.ids.games.children if str(b.text).startswith(title + "\n")))
    assert ui.app.manager.current == "setup"
    return ui.screen("setup")


def test_recent_players_come_first_with_their_colours(ui: UI) -> None:
    screen = new_game(ui)
    assert [r["name"] for r in screen.rows[:3]] == ["Ana", "Bo", "Cai"]  # nobody has played yet: the defaults
    type_name(ui, screen, 0, "민지")
    type_name(ui, screen, 1, "Inés")
    ui.tap(ui.find("colour", root=screen.ids.players.children[-2]))  # Inés picks another colour
    ines_colour = screen.rows[1]["colour"]
    ui.tap_text("Start game")
    assert ui.app.manager.current == "ratuki"
    ui.go("home")
    screen = new_game(ui)
    ui.screenshot("setup-recent-players")
    rows = screen.rows
    # The three who just played lead, in their seats, in the colours they played in.
    assert [r["name"] for r in rows[:3]] == ["민지", "Inés", "Cai"]
    assert next(r for r in rows if r["name"] == "Inés")["colour"] == ines_colour
    assert all(r["person"] for r in rows[:3]) and len({r["colour"] for r in rows}) == 5
    assert len({r["name"].casefold() for r in rows}) == 5
    # The name pad offers recent players first (the one at another seat is not offered), then the defaults.
    ui.tap(next(b for b in screen.ids.counts.children if b.text == "2"))
    cai = next(r for r in rows if r["name"] == "Cai")
    pad = open_pad(ui, screen, 1)
    chips = [b.text for b in pad.children[0].children[1].children][::-1]
    assert chips[:3] == ["Inés", "Cai", "Ana"] and "민지" not in chips
    ui.tap(ui.find("Cai", root=pad.children[0].children[1]))  # picked: the row becomes Cai, in Cai's colour
    ui.tap(ui.find("OK", root=pad))
    ui.wait_until(lambda: pad.parent is None)
    assert (screen.rows[1]["name"], screen.rows[1]["person"], screen.rows[1]["colour"]) == (
        "Cai",
        cai["person"],
        cai["colour"],
    )


def test_a_known_name_typed_again_brings_the_player(ui: UI) -> None:
    screen = new_game(ui)
    type_name(ui, screen, 0, "Zoe")
    ui.tap_text("Start game")
    ui.go("home")
    screen = new_game(ui)
    assert screen.rows[0]["name"] == "Zoe"
    zoe = screen.rows[0]["person"]
    type_name(ui, screen, 0, "Eli")
    type_name(ui, screen, 2, "zoe ")  # typed carelessly at another seat: still Zoe, the same person
    assert (screen.rows[2]["name"], screen.rows[2]["person"]) == ("Zoe", zoe)
    ui.tap_text("Start game")
    assert ui.app.manager.current == "ratuki"
    assert [p.name for p in ui.app.session.setup.players][::2] == ["Eli", "Zoe"]
