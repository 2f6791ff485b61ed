"""Setup by touch: names typed on the on-screen keyboard or picked from presets, seats rearranged with five
players, and the result is the game's players."""

from __future__ import annotations

from itertools import pairwise
from typing import Any

import pytest
from ui_support import UI

GAME = "ratatat"


def open_setup(ui: UI, count: int) -> Any:
    screen = ui.screen("setup")
    screen.prepare(GAME, seed=1)
    ui.go("setup")
    screen.set_count(count)
    ui.advance(2)
    return screen


def name_buttons(screen: Any) -> list[Any]:
    rows = [row for row in reversed(screen.ids.players.children) if row.children]
    return [list(reversed(row.children))[1] for row in rows]


def tap_key(ui: UI, pad: Any, label: str) -> None:
    """Touch the on-screen key labelled ``label``."""
    ui.tap(next(k for line in pad.keyboard.children for k in line.children if k.text == label))


def test_type_a_name_on_the_screen_keyboard(ui: UI) -> None:
    screen = open_setup(ui, 2)
    ui.tap(name_buttons(screen)[0])
    from companion.ui.namepad import NamePad

    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    ui.advance(3)
    ui.tap(ui.find("Clear", root=pad))
    for label in ("Z", "o", "e", "Space", "L", "i", "Delete", "Delete", "Delete"):
        tap_key(ui, pad, label)  # a capital first, then small letters; a mistake taken back with Delete
    assert pad.text == "Zoe"
    ui.screenshot("setup-namepad")
    ui.tap(ui.find("OK", root=pad))
    assert screen.rows[0]["name"] == "Zoe"
    assert name_buttons(screen)[0].text == "Zoe"


def test_preset_name_cancel_and_empty_refused(ui: UI) -> None:
    screen = open_setup(ui, 2)
    from companion.ui.namepad import NamePad

    ui.tap(name_buttons(screen)[1])
    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    with pytest.raises(LookupError):
        ui.find("Ana", root=pad.children[0].children[1])  # Ana is player 1: not offered to player 2
    ui.tap(ui.find("Dee", root=pad))
    ui.tap(ui.find("Cancel", root=pad))  # changed the mind: nothing changes
    assert screen.rows[1]["name"] == "Bo"
    ui.wait_until(lambda: not any(isinstance(w, NamePad) for w in ui.window.children))
    ui.tap(name_buttons(screen)[1])
    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    ui.tap(ui.find("Clear", root=pad))
    ui.tap(ui.find("OK", root=pad))
    assert pad in ui.window.children and "empty" in pad.shown.text  # an empty name is refused on the pad
    ui.window.dispatch("on_textinput", "Eve 2")  # a desktop keyboard types too; digits do not press seats
    ui.window.dispatch("on_key_down", ord("2"), 0, "2", [])
    ui.window.dispatch("on_key_down", 8, 0, None, [])
    ui.advance(2)
    assert pad.text == "Eve "
    ui.tap(ui.find("OK", root=pad))
    assert screen.rows[1]["name"] == "Eve"
    assert not ui.app.sim_buttons.is_down(2)
    ui.app.sim_buttons.assert_edges([])  # the digit typed on the pad pressed no seat
    assert ui.wait_until(lambda: pad.parent is None)
    ui.key("3")  # with the pad closed, number keys are seat buttons again
    assert ui.app.sim_buttons.is_down(3)
    ui.app.sim_buttons.assert_edges([(3, True)])
    ui.key("3", down=False)


def test_five_players_can_swap_seats(ui: UI) -> None:
    screen = open_setup(ui, 5)
    ui.screenshot("setup-5")
    ui.tap(ui.find("Seat 1", root=screen.ids.players))
    seats = [row["seat"] for row in screen.rows[:5]]
    assert seats == [2, 1, 3, 4, 5]  # Ana and Bo swapped buttons
    ui.tap_text("Start game")
    players = ui.app.session.setup.players
    assert [(p.name, p.seat) for p in players][:2] == [("Ana", 2), ("Bo", 1)]


def test_number_setting_steps_within_its_range(ui: UI, toy_game: str) -> None:
    """A number setting with a range and no choices (the toy game's target, 1-100) steps with − and +."""
    screen = ui.screen("setup")
    screen.prepare(toy_game, seed=1)
    ui.go("setup")
    ui.advance(2)
    line = next(w for w in screen.ids.settings.children if len(getattr(w, "children", [])) == 3)
    scroll = screen.ids.settings.parent
    if hasattr(scroll, "scroll_to"):  # the options list scrolls: bring the row into view, as a finger would
        scroll.scroll_to(line, padding=0, animate=False)
        ui.advance(3)
    minus, label, plus = reversed(line.children)
    assert "Count to" in label.text and "]20[" in label.text
    ui.tap(plus)
    assert screen.settings["target"] == 21 and "]21[" in label.text  # the new value is shown
    screen.settings["target"] = 1
    ui.tap(minus)  # at the bottom of its range already: stays
    assert screen.settings["target"] == 1
    screen.settings["target"] = 100
    ui.tap(plus)  # at the top of its range already: stays
    assert screen.settings["target"] == 100
    assert screen.current_setup().settings["target"] == 100


def test_same_name_twice_is_refused_with_a_reason(ui: UI) -> None:
    screen = open_setup(ui, 2)
    from companion.ui.namepad import NamePad

    ui.tap(name_buttons(screen)[1])
    pad = next(w for w in ui.window.children if isinstance(w, NamePad))
    with pytest.raises(LookupError):
        ui.find("Ana", root=pad.children[0].children[1])  # taken names are not offered...
    ui.tap(ui.find("Clear", root=pad))
    for label in ("A", "n", "a"):
        tap_key(ui, pad, label)  # ...but can be typed
    ui.tap(ui.find("OK", root=pad))
    assert screen.rows[1]["name"] == "Ana"
    assert ui.wait_until(lambda: pad.parent is None)
    ui.tap_text("Start game")
    assert ui.screen().name == "setup" and ui.app.session is None
    assert "different" in screen.error_text
    assert "different" in ui.texts()
    ui.screenshot("setup-same-name")


def test_settings_rows_do_not_overlap(ui: UI) -> None:
    """Number settings with long names wrap and their rows grow: no row covers the next one."""
    screen = open_setup(ui, 2)
    ui.advance(3)
    rows = list(reversed(screen.ids.settings.children))
    for upper, lower in pairwise(rows):
        assert lower.top <= upper.y + 0.5, (upper, lower)
    for row in rows:
        label = next((w for w in row.children if type(w).__name__ == "Label"), None)
        if label is not None:
            assert label.texture_size[1] <= row.height


def test_lowdown_board_layout_is_picked_from_the_layouts_folder(
    ui: UI, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another board layout: its file copied into the data folder's ``lowdown-layouts``, then picked by tapping;
    a broken file is refused at Start with the file named; the game records the picked board inline."""
    import json

    from companion.games.lowdown import DEFAULT_LAYOUT_PATH, default_layout
    from companion.paths import data_dir

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    screen = ui.screen("setup")
    screen.prepare("lowdown", seed=1)
    ui.go("setup")
    ui.advance(2)
    with pytest.raises(LookupError):
        ui.find("Board")  # no other board in the data folder: nothing to choose, so not offered
    ui.screenshot("setup-lowdown-layout-none")
    folder = data_dir() / "lowdown-layouts"
    folder.mkdir(parents=True)
    club = json.loads(DEFAULT_LAYOUT_PATH.read_text())
    club["name"] = "Club board"
    (folder / "club.json").write_text(json.dumps(club))
    mine = json.loads(DEFAULT_LAYOUT_PATH.read_text())
    mine["grids"] = mine["grids"][:1]
    mine["name"] = "Half board"
    (folder / "broken.json").write_text(json.dumps(mine))
    screen.prepare("lowdown", seed=1)
    ui.advance(2)
    button = ui.find("Board")
    assert "[b]standard[/b]" in button.text
    ui.tap(button)
    assert screen.settings["layout"] == str(folder / "broken.json")
    button = ui.find("Board")
    assert "[b]Half board[/b]" in button.text and ".json" not in button.text
    ui.tap_text("Start game")
    assert ui.app.session is None and "broken.json" in screen.error_text
    ui.tap(ui.find("Board"))
    assert screen.settings["layout"] == str(folder / "club.json")
    ui.screenshot("setup-lowdown-layout")
    ui.tap_text("Start game")
    assert ui.app.session is not None
    recorded = ui.app.session.setup.settings["layout"]
    assert recorded == json.loads((folder / "club.json").read_text())  # recorded inline, not as a path
    assert ui.app.session.state["layout"] == {**default_layout(), "name": "Club board"}  # the default, renamed


def test_a_long_preset_is_cut_to_the_name_limit(ui: UI) -> None:
    from companion.config import MAX_NAME
    from companion.ui.namepad import NamePad

    pad = NamePad("", ["Bartholomew-Christophe"], lambda _name: None)
    pad.open()
    ui.advance(3)
    ui.tap(ui.find("Bartholomew-Christophe", root=pad))
    assert pad.text == "Bartholomew-Christophe"[:MAX_NAME]
    pad.dismiss()
