"""Ratuki before and after a round (#21 item 13): counts typed on a number pad (a 35-card pile was seven taps of
+5), the whole score sheet reachable with a cue that says which way the hidden rounds are, and the round clock
stopped while "Who went out?" is open. Real touches; screenshots tests/screenshots/ratuki-pad*.png,
ratuki-sheet-scroll*.png, ratuki-out-clock.png."""

from __future__ import annotations

from typing import Any

import pytest
from test_ratuki_screen import FIVE, begin, button, hidden_by, out, playing, score_rounds, sheet_row
from ui_support import UI, layout_problems

from companion.ui.numberpad import CLEAR, DELETE, NumberPad, typed

pytestmark = pytest.mark.ui


def open_pad(ui: UI, counter: Any) -> NumberPad:
    ui.tap(counter.ids.field)
    return next(w for w in ui.window.children if isinstance(w, NumberPad))


def test_typed_digits() -> None:
    assert typed("", "3", 175) == ("3", True)
    assert typed("3", "5", 175) == ("35", True)
    assert typed("35", "0", 175) == ("35", False)  # 350 > 175: refused
    assert typed("0", "7", 175) == ("7", True)  # no leading zero
    assert typed("35", DELETE, 175) == ("3", True)
    assert typed("35", CLEAR, 175) == ("", True)
    assert typed("3", "x", 175) == ("3", False)


@pytest.mark.parametrize("banner", [False, True])
def test_a_35_card_pile_is_three_taps(ui: UI, banner: bool) -> None:
    if banner:
        ui.app.notice("test", "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players")
    else:
        ui.app.dismiss_notices()
    screen = playing(ui)
    out(ui, screen, "Ana")
    row = screen.score_rows[2]
    pad = open_pad(ui, row.ids.pile)
    assert pad.value == 0 and "Bo: score pile" in ui.texts(pad)
    ui.tap(button(pad, "3"))
    ui.tap(button(pad, "5"))
    assert pad.value == 35
    ui.screenshot("ratuki-pad" + ("-banner" if banner else ""))
    assert not layout_problems(pad, min_font=16), layout_problems(pad, min_font=16)
    ui.tap(button(pad, "OK"))
    assert row.ids.pile.value == 35 and row.points_text == "+35"
    # a second count: the first key replaces what was there; Delete takes a digit back; over a deck is refused
    pad = open_pad(ui, row.ids.left)
    for key in ("4", "0"):
        ui.tap(button(pad, key))
    assert pad.value == 4 and "At most 35" in ui.texts(pad)  # 40 > a deck (35): the 0 is refused
    ui.tap(button(pad, "Delete"))
    ui.tap(button(pad, "6"))
    ui.tap(button(pad, "OK"))
    assert row.ids.left.value == 6 and row.points_text == "+29"
    # Cancel keeps the count; a keyboard's digits type into the pad and press no seat button
    pad = open_pad(ui, row.ids.left)
    ui.window.dispatch("on_textinput", "2")
    ui.key("2")
    assert pad.value == 2 and not ui.app.sim_buttons.is_down(2)
    ui.tap(button(pad, "Cancel"))
    assert row.ids.left.value == 6
    ui.tap(ui.find("Save", row))
    assert screen.state["entries"]["Bo"] == {"score_pile": 35, "left": 6, "hand": 0, "points": 29}
    ui.tap(row.ids.pile.ids.field)  # saved: no pad
    assert not any(isinstance(w, NumberPad) for w in ui.window.children)


def test_the_clock_stops_while_who_went_out_is_open(ui: UI) -> None:
    screen = playing(ui)
    ui.clock_value += 75
    ui.advance(4, seconds=0.4)  # the clock face ticks every 0.25 s
    assert screen.clock_text == "01:15"
    ui.tap_text("Out! End round")
    assert screen._out_view is not None and screen.paused
    ui.clock_value += 40  # the table talks it over
    ui.advance(4, seconds=0.4)  # the clock face ticks every 0.25 s
    assert screen.clock_text == "01:15"
    ui.screenshot("ratuki-out-clock")
    ui.tap(button(screen._out_view, "Back"))  # nobody went out after all: play on, the clock runs again
    ui.advance(4, seconds=0.4)  # the clock face ticks every 0.25 s
    assert screen.state["phase"] == "playing" and not screen.paused
    ui.clock_value += 5
    ui.advance(4, seconds=0.4)  # the clock face ticks every 0.25 s
    assert screen.clock_text == "01:20"
    ui.tap_text("Out! End round")
    ui.clock_value += 30
    ui.tap(button(screen._out_view, "Cy"))
    assert screen.state["phase"] == "scoring" and screen.state["clock"]["elapsed"] == pytest.approx(80)
    stop = screen.session.actions[-1]
    assert stop["type"] == "stop" and stop["seat"] == 3


def swipe(ui: UI, widget: Any, dy: float) -> None:
    """A real finger drag inside ``widget``: down, moved ``dy`` px in a few steps, up."""
    from kivy.tests.common import UnitTestTouch

    x, y = widget.to_window(widget.center_x, widget.center_y)
    touch = UnitTestTouch(x, y)
    touch.touch_down()
    ui.advance(1)
    for step in range(1, 7):
        touch.touch_move(x, y + dy * step / 6)
        ui.advance(1)
    touch.touch_up()
    ui.advance(4, seconds=0.4)


@pytest.mark.parametrize("banner", [False, True])
def test_every_round_of_the_sheet_can_be_reached(ui: UI, banner: bool) -> None:
    if banner:
        ui.app.notice("test", "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players")
    else:
        ui.app.dismiss_notices()
    screen = begin(ui, FIVE)
    score_rounds(ui, screen, [{1: 11, 2: 12, 3: 13, 4: 14, 5: 5}] * 6)
    assert screen.ids.panes.current == "ready"
    sheet = screen.ready_panel.ids.sheet
    ui.advance(3)
    ui.screenshot("ratuki-sheet-scroll" + ("-banner" if banner else ""))
    assert sheet.hidden_rounds > 0  # six rounds do not all fit above Start round 7 ...
    cue = sheet.ids.cue
    assert cue.opacity == 1 and "earlier round" in cue.text and "swipe down" in cue.text  # ... and it says so
    covers = (screen.ready_panel.ids.start, screen.ids.seats)
    assert all(not hidden_by(ui, cell, covers) for cell in sheet_row(ui, "6"))  # the latest round shows
    assert hidden_by(ui, sheet_row(ui, "1")[0], covers)  # the first does not
    ui.screenshot("ratuki-sheet-scroll" + ("-banner" if banner else ""))
    assert not layout_problems(sheet, min_font=16), layout_problems(sheet, min_font=16)
    first_shows = lambda: all(not hidden_by(ui, cell, covers) for cell in sheet_row(ui, "1"))  # noqa: E731
    for _ in range(6):  # a finger drags the rounds down until the first one shows (whole, once at rest)
        swipe(ui, sheet.ids.scroll, -sheet.ids.scroll.height)
        if ui.wait_until(first_shows, timeout_s=2):
            break
    assert all(not hidden_by(ui, cell, covers) for cell in sheet_row(ui, "1")), hidden_by(ui, sheet_row(ui, "1")[0])
    assert "later round" in cue.text and "swipe up" in cue.text
    for cell in sheet_row(ui, "Total"):  # the totals stay in view
        assert hidden_by(ui, cell, covers) == []
    ui.screenshot("ratuki-sheet-scroll-top" + ("-banner" if banner else ""))
