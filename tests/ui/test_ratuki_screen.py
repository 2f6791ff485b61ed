"""The Ratuki screen driven like at the table: buttons (keys, on-screen, fake GPIO ticks), real touches, pixels."""

from __future__ import annotations

import time
from typing import Any

import pytest
from ui_support import UI

from companion.games.base import Player, Setup
from companion.ui.screens.ratuki import TIE_COLOUR, clock_text, verdict_parts
from hardware.buttons import ButtonEvent

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2), Player("Cy", "#fdd835", 3))


def start(ui: UI, **settings: Any) -> Any:
    ui.app.start_game(Setup("ratuki", PLAYERS, settings))
    ui.advance(3)
    screen = ui.screen()
    assert screen.name == "ratuki"
    return screen


def playing(ui: UI, **settings: Any) -> Any:
    screen = start(ui, **settings)
    ui.tap(ui.screen().ready_panel.ids.start)
    assert screen.state["phase"] == "playing"
    return screen


def press(ui: UI, seat: int, tick: float, held: float = 0.04) -> None:
    """A button press and release at chosen edge ticks, through the board, the hub and the screen."""
    ui.app.sim_buttons.press(seat, at=tick)
    ui.app.sim_buttons.release(seat, at=tick + held)


def button(root: Any, text: str) -> Any:
    """The button under ``root`` whose text is exactly ``text`` (``ui.find`` matches substrings)."""
    from kivy.uix.button import Button

    return next(w for w in root.walk(restrict=True) if isinstance(w, Button) and w.text == text)


def enter(ui: UI, counter: Any, value: int) -> None:
    """Type a count on the number pad: tap the count, its digits, OK (real touches)."""
    from companion.ui.numberpad import NumberPad

    ui.tap(counter.ids.field)
    pad = next(w for w in ui.window.children if isinstance(w, NumberPad))
    for digit in str(value):
        ui.tap(button(pad, digit))
    ui.tap(button(pad, "OK"))
    assert counter.value == value


def box_pixel(ui: UI, screen: Any) -> tuple[int, int, int]:
    """The colour just inside the verdict banner's lower-left corner in the last screenshot (no text there)."""
    import cv2

    box = screen.play_panel.ids.verdict
    x, y = box.to_window(box.x + 6, box.y + 6)
    image = cv2.imread(str(ui.last_shot))
    b, g, r = image[image.shape[0] - 1 - int(y), int(x)]
    return int(r), int(g), int(b)


def calls(screen: Any) -> list[dict[str, Any]]:
    return [a for a in screen.session.actions if a["type"] == "call"]


def out(ui: UI, screen: Any, who: str = "End round, not sure who") -> None:
    """*Out! End round*, then the answer to "who went out?" tapped: a player's name, or not sure."""
    ui.tap_text("Out! End round")
    assert screen._out_view is not None
    ui.tap(button(screen._out_view, who))
    assert screen._out_view is None and screen.state["phase"] == "scoring"
    ui.advance(2)  # the score pane's layout (a tap lands where the widgets are drawn)


def test_verdict_sentences_and_clock() -> None:
    assert verdict_parts("take", ["Ana"], 37.2, "Bo") == ("ANA takes the stack", "37 ms ahead of Bo")
    assert verdict_parts("take", ["Ana"], None, None) == ("ANA takes the stack", "")
    assert verdict_parts("tie", ["Ana", "Bo"], None, None) == ("TIE: Ana, Bo", "cards back to your discard piles")
    assert clock_text(75.9) == "01:15" and clock_text(3725) == "1:02:05"


def test_the_window_timer_runs_on_the_button_clock(ui: UI) -> None:
    screen = playing(ui)
    ui.app.buttons.clock = lambda: 500.0
    assert screen.referee.window_delay(500.0) == pytest.approx(0.058)  # 50 ms window + 8 ms grace
    assert screen.referee.window_delay(499.98) == pytest.approx(0.038)  # the press waited 20 ms in the queue
    assert screen.referee.window_delay(499.5) == 0.0  # its window is already over: judge now
    assert screen.referee.window_delay(400.0) == pytest.approx(0.058)  # clocks disagree: wait the full window
    assert screen.referee.window_delay(500.5) == pytest.approx(0.058)


def test_a_press_queued_when_the_window_timer_fires_still_counts(ui: UI) -> None:
    """Bo's press, stamped 49 ms after Ana's, is in the hub's queue when the window timer fires (the timer runs
    before the queue is drained in the same frame): it is drained first, so it is a tie, not "Ana takes"."""
    screen = playing(ui)
    now = {"t": 700.0}
    ui.app.buttons.clock = lambda: now["t"]
    press(ui, 1, 700.0)
    ui.advance(1)
    assert screen.referee.phase == "open" and screen.referee.window_timer is not None
    screen.referee.window_timer.cancel()
    now["t"] = 700.060  # the window and its grace are over on the button clock
    press(ui, 2, 700.049)  # queued, not yet drained
    screen.referee.window_over()  # the timer fires first
    verdict = screen.referee.verdict
    assert verdict is not None and (verdict.kind, verdict.seats) == ("tie", (1, 2))


def test_a_glitch_on_a_button_wire_is_not_a_call(ui: UI) -> None:
    """A 1 ms pulse on a seat's wire (interference): the debouncer hides its release in the bounce window, the
    window timer polls the boards before judging, and the referee drops it: no call is journaled."""
    screen = playing(ui)
    now = {"t": 900.0}
    ui.app.buttons.clock = lambda: now["t"]
    ui.app.sim_buttons.clock = lambda: now["t"]
    ui.app.sim_buttons.press(2, at=900.0)
    ui.app.sim_buttons.release(2, at=900.001)
    ui.advance(1)
    assert screen.referee.phase == "open"
    screen.referee.window_timer.cancel()
    now["t"] = 900.060
    screen.referee.window_over()
    assert screen.referee.phase == "idle" and screen.referee.verdict is None
    screen.flush()
    assert calls(screen) == []


def test_a_window_timer_that_fires_early_waits_out_the_window(ui: UI) -> None:
    screen = playing(ui)
    now = {"t": 800.0}
    ui.app.buttons.clock = lambda: now["t"]
    press(ui, 1, 800.0)
    ui.advance(1)
    screen.referee.window_timer.cancel()
    now["t"] = 800.055  # Kivy counted the timer from its frame's start: 3 ms early on the button clock
    screen.referee.window_over()
    assert screen.referee.phase == "open" and screen.referee.window_timer is not None
    now["t"] = 800.059
    press(ui, 2, 800.050)
    ui.advance(3, seconds=0.01)
    verdict = screen.referee.verdict
    assert verdict is not None and (verdict.kind, verdict.seats) == ("tie", (1, 2))


def test_a_player_button_starts_the_round_without_calling(ui: UI) -> None:
    screen = start(ui)
    assert screen.ids.panes.current == "ready"
    ui.screenshot("ratuki-ready")
    assert ui.find("Start round 1").height >= 48
    ui.key("1")
    assert screen.state["phase"] == "playing" and screen.ids.panes.current == "play"
    assert screen.header_text == "Round started"
    ui.key("1", down=False)
    ui.advance(5, seconds=0.1)
    assert screen.referee.phase == "idle" and not calls(screen)
    ui.clock_value += 75
    ui.advance(3, seconds=0.3)
    assert screen.clock_text == "01:15"


def test_first_press_takes_the_stack_in_the_winners_colour_with_the_margin(ui: UI) -> None:
    screen = playing(ui)
    played: list[str] = []
    screen.chime.play = lambda name: played.append(name) or True
    t = time.monotonic()
    press(ui, 2, t)
    assert ui.wait_until(lambda: screen.verdict_headline == "BO takes the stack")
    assert played == ["take"]
    press(ui, 3, t + 0.120)
    assert ui.wait_until(lambda: screen.verdict_detail == "120 ms ahead of Cy")
    ui.screenshot("ratuki-take")
    assert box_pixel(ui, screen) == (0x1E, 0x88, 0xE5)  # the banner is Bo's blue
    assert ui.wait_until(lambda: len(calls(screen)) == 1)
    action = calls(screen)[0]
    assert action["presses"] == [{"seat": 2, "tick": t}] and action["late"] == [{"seat": 3, "tick": t + 0.120}]
    assert screen.state["calls"][0]["verdict"]["kind"] == "take"
    assert screen.header_text == "Round started"  # the verdict is on the banner, not repeated in the header
    stacks = screen.play_panel.ids.stats.labels["Bo"][0]
    assert stacks.text == "1"


def test_presses_inside_the_window_are_a_tie(ui: UI) -> None:
    screen = playing(ui)
    played: list[str] = []
    screen.chime.play = lambda name: played.append(name) or True
    t = time.monotonic()
    press(ui, 3, t + 0.020)
    press(ui, 1, t)  # stamped first, delivered second
    assert ui.wait_until(lambda: screen.verdict_headline.startswith("TIE"))
    assert screen.verdict_headline == "TIE: Ana, Cy" and screen.verdict_detail == "cards back to your discard piles"
    assert played == ["tie"]
    ui.screenshot("ratuki-tie")
    r, g, b = box_pixel(ui, screen)
    assert r > 230 and 150 < g < 200 and b < 30, (r, g, b)  # amber
    assert ui.wait_until(lambda: len(calls(screen)) == 1)
    assert calls(screen)[0]["verdict"]["names"] == ["Ana", "Cy"]


def test_on_screen_seat_buttons_call_in_simulation(ui: UI) -> None:
    screen = playing(ui)
    assert ui.app.simulation
    ui.tap(ui.find("3  Cy"))
    assert ui.wait_until(lambda: screen.verdict_headline == "CY takes the stack")
    assert ui.wait_until(lambda: len(calls(screen)) == 1)


def test_held_and_lockout_presses_do_not_start_a_new_call(ui: UI) -> None:
    screen = playing(ui)
    t = time.monotonic()
    ui.app.sim_buttons.press(1, at=t)  # Ana holds her button down
    assert ui.wait_until(lambda: screen.verdict_headline == "ANA takes the stack")
    screen.on_button(ButtonEvent(1, "press", t + 0.3, source="gpio"))  # a phantom edge while held
    press(ui, 2, t + 0.3)  # a late slap inside the lockout
    assert ui.wait_until(lambda: len(calls(screen)) == 1)
    assert screen.verdict_headline == "ANA takes the stack" and screen.verdict_detail == "300 ms ahead of Bo"
    assert calls(screen)[0]["late"] == [{"seat": 2, "tick": t + 0.3}]
    ui.app.sim_buttons.release(1, at=t + 2)


def test_undo_takes_back_the_verdict_on_screen(ui: UI) -> None:
    screen = playing(ui)
    press(ui, 2, time.monotonic())
    assert ui.wait_until(lambda: screen.verdict_headline == "BO takes the stack")
    ui.tap_text("Undo")
    assert not calls(screen) and screen.state["calls"] == []
    assert screen.verdict_headline == "Ratuki!"
    assert screen.header_text.startswith("Undone: BO takes the stack")


def test_the_stall_prompt_asks_whether_the_round_is_over(ui: UI) -> None:
    screen = playing(ui, stall_s=30)
    ui.clock_value += 31
    assert ui.wait_until(lambda: bool(screen.stall_text))
    assert screen.stall_text == "Nobody has called for 31 s — round over?"
    ui.screenshot("ratuki-stall")
    ui.tap_text("Keep playing")
    assert screen.stall_text == ""
    ui.clock_value += 31
    assert ui.wait_until(lambda: bool(screen.stall_text))
    ui.tap_text("Round over")
    assert screen.state["phase"] == "scoring" and screen.state["stopped"]["reason"] == "stall"


def test_score_entry_with_counters_then_the_sheet(ui: UI) -> None:
    screen = playing(ui)
    ui.clock_value += 200
    out(ui, screen, "Ana")
    assert screen.ids.panes.current == "score"
    rows = screen.score_rows
    enter(ui, rows[1].ids.pile, 20)
    ui.tap(button(rows[1].ids.pile, "+"))
    enter(ui, rows[2].ids.pile, 10)
    enter(ui, rows[2].ids.left, 5)
    ui.tap(button(rows[2].ids.left, "−"))
    assert rows[1].points_text == "+21" and rows[2].points_text == "+6"
    ui.screenshot("ratuki-score")
    ui.tap(ui.find("Save", rows[1]))
    assert rows[1].saved and screen.state["entries"]["Ana"]["points"] == 21
    ui.tap(ui.find("Save", rows[2]))
    assert screen.state["phase"] == "scoring"
    enter(ui, rows[3].ids.left, 5)
    ui.tap(ui.find("Save", rows[3]))
    assert screen.state["phase"] == "ready" and screen.ids.panes.current == "ready"
    assert screen.state["totals"] == {"Ana": 21, "Bo": 6, "Cy": -5}
    assert screen.round_text == "Round 2" and ui.find("Start round 2")
    texts = ui.texts()
    assert "+21 (0)" in texts and "-5 (0)" in texts
    ui.screenshot("ratuki-sheet")
    # rows are cleared for the next round
    assert rows[1].ids.pile.value == 0 and not rows[1].saved


def test_a_refused_score_says_why(ui: UI) -> None:
    screen = playing(ui, count_hand=True)
    ui.tap_text("Stuck: end round")
    row = screen.score_rows[1]
    assert row.show_hand
    enter(ui, row.ids.left, 35)
    ui.tap(button(row.ids.left, "+"))  # 36: more than a deck
    ui.tap(ui.find("hand", row))
    ui.tap(ui.find("Save", row))
    assert screen.message_is_error and "a deck has 35" in screen.header_text
    assert not row.saved


def test_game_over_announces_the_winner(ui: UI) -> None:
    screen = playing(ui)
    session = screen.session
    rounds = (  # (seat, score pile, cards left): Bo goes out twice, 52 + 50 = 102 points, alone over 100
        ((1, 30, 4), (2, 52, 0), (3, 12, 6)),
        ((1, 20, 5), (2, 50, 0), (3, 10, 3)),
    )
    for number, scores in enumerate(rounds):
        if number:
            session.do({"type": "start", "tick": 1400.0 * number})
        session.do({"type": "call", "presses": [{"seat": 2, "tick": 1400.0 * number + 5}]})
        session.do({"type": "stop", "tick": 1400.0 * number + 1300, "reason": "out", "seat": 2})
        for seat, pile, left in scores:
            session.do({"type": "score", "seat": seat, "score_pile": pile, "left": left})
    screen.refresh()
    ui.advance(2)
    assert screen.ids.panes.current == "over"
    assert screen.result_text == "BO wins with 102 points"
    shot = ui.screenshot("ratuki-over")
    assert shot.exists()
    press(ui, 1, time.monotonic())
    ui.advance(5, seconds=0.1)
    assert len(session.actions) == 12  # a press after the game is over changes nothing


def test_press_to_frame_latency(ui: UI) -> None:
    """Edge tick to the verdict object and to the first frame drawn with it, after the tie window closed.

    The issue asks for 50 ms on the Pi. Here the offscreen llvmpipe renderer on a shared CPU paces frames,
    so the bound asserted is looser; the figures are printed (``-s``) for the record."""
    screen = playing(ui)
    flips: list[float] = []
    ui.window.bind(on_flip=lambda *_a: flips.append(time.monotonic()))
    to_object, to_frame = [], []
    window = screen.referee.window_ms
    for k in range(6):
        t = time.monotonic()
        press(ui, 1 + k % 3, t)
        assert ui.wait_until(lambda: screen.live is not None, 2.0)
        shown = screen.shown_at_wall
        ui.advance(2)
        drawn = next(f for f in flips if f >= shown)
        to_object.append(round((shown - t) * 1000 - window, 1))
        to_frame.append(round((drawn - t) * 1000 - window, 1))
        assert ui.wait_until(lambda n=k + 1: len(calls(screen)) == n)
    print(f"\nratuki verdict after the window closed: object {sorted(to_object)} ms, frame {sorted(to_frame)} ms")
    assert min(to_object) >= 0  # never before the window has closed
    assert sorted(to_frame)[len(to_frame) // 2] < 100


def test_a_game_resumes_where_the_journal_stops(tmp_path: Any) -> None:
    journal = tmp_path / "journal.sqlite3"
    first = UI(tmp_path, journal_path=journal)
    try:
        screen = playing(first)
        t = time.monotonic()
        press(first, 1, t)
        press(first, 2, t + 0.2)  # late: the margin
        assert first.wait_until(lambda: len(calls(screen)) == 1)
        first.clock_value += 90
        out(first, screen)
        enter(first, screen.score_rows[1].ids.pile, 5)
        first.tap(button(screen.score_rows[1], "Save"))
        game_id = screen.session.game_id
        before = screen.state
    finally:
        first.close()
    second = UI(tmp_path, journal_path=journal)
    try:
        assert "Ratuki" in second.find("Continue").text
        second.tap_text("Continue")
        screen = second.screen()
        assert screen.name == "ratuki" and screen.session.game_id == game_id
        assert screen.state == before and screen.ids.panes.current == "score"
        assert screen.score_rows[1].saved and screen.score_rows[1].ids.pile.value == 5
        assert not screen.score_rows[2].saved
        second.tap_text("Undo")  # Ana's score
        assert not screen.score_rows[1].saved and screen.state["entries"] == {}
    finally:
        second.close()


def test_a_running_clock_survives_a_restarted_monotonic_clock(tmp_path: Any) -> None:
    journal = tmp_path / "journal.sqlite3"
    first = UI(tmp_path, journal_path=journal)
    try:
        first.clock_value = 5000.0
        screen = playing(first)
        first.clock_value = 5100.0
        first.advance(2, seconds=0.6)
        assert screen.clock_text == "01:40"
    finally:
        first.close()
    second = UI(tmp_path, journal_path=journal)  # the Pi rebooted: monotonic time starts near 0 again
    second.clock_value = 30.0
    try:
        second.tap_text("Continue")
        screen = second.screen()
        assert [a["type"] for a in screen.session.actions][-2:] == ["pause", "resume"]
        second.clock_value = 50.0
        second.advance(2, seconds=0.6)
        assert screen.clock_text == "00:20"  # the time before the restart is lost, never negative or frozen
    finally:
        second.close()


def test_five_players_tie_fits_the_banner(ui: UI) -> None:
    names = ["Alexandra", "Bartholomew", "Cyrille", "Dominique", "Evangelina"]
    colours = ["#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047"]
    players = tuple(Player(n, c, i + 1) for i, (n, c) in enumerate(zip(names, colours, strict=True)))
    ui.app.start_game(Setup("ratuki", players, {}))
    ui.advance(3)
    screen = ui.screen()
    ui.tap(screen.ready_panel.ids.start)
    t = time.monotonic()
    for seat in range(1, 6):
        press(ui, seat, t + seat * 0.005)
    assert ui.wait_until(lambda: screen.verdict_headline.startswith("TIE"))
    ui.screenshot("ratuki-tie-5")
    headline = screen.play_panel.ids.verdict_headline
    assert headline.norm_image_size[0] <= headline.width + 0.5  # scaled down to fit, not cut off
    assert screen.verdict_headline == "TIE: " + ", ".join(names)


FIVE = (
    *PLAYERS,
    Player("Dee", "#fb8c00", 4),
    Player("Eve", "#43a047", 5),
)


def layout_faults(ui: UI) -> list[str]:
    """Visible buttons under 48 px either way, and visible buttons covering each other, on the current pane."""
    from kivy.uix.button import Button

    screen = ui.screen()
    pane = screen.ids.panes.current_screen
    found = [
        w
        for root in (pane, screen.ids.seats)
        for w in root.walk(restrict=True)
        if isinstance(w, Button) and w.opacity > 0 and w.width > 0
    ]
    faults = [f"{w.text!r} {w.width:.0f}x{w.height:.0f}" for w in found if w.width < 48 or w.height < 48]
    boxes = [(w.text, *w.to_window(w.x, w.y), w.width, w.height) for w in found]
    for i, (a, ax, ay, aw, ah) in enumerate(boxes):
        for b, bx, by, bw, bh in boxes[i + 1 :]:
            if min(ax + aw, bx + bw) - max(ax, bx) > 1 and min(ay + ah, by + bh) - max(ay, by) > 1:
                faults.append(f"{a!r} over {b!r}")
    return faults


@pytest.mark.slow
def test_a_whole_five_player_game_with_hands_counted(ui: UI) -> None:
    """Two rounds as at the table: buttons call stacks, counters enter pile/left/hand, the winner at the target."""
    ui.app.start_game(Setup("ratuki", FIVE, {"count_hand": True}))  # to 100 points
    ui.advance(3)
    screen = ui.screen()
    expected = {"Ana": 0, "Bo": 0, "Cy": 0, "Dee": 0, "Eve": 0}
    rounds = [
        # seat: (score pile +5 taps, left +5 taps, hand taps)
        {1: (4, 1, 1), 2: (10, 0, 0), 3: (1, 1, 3), 4: (3, 2, 2), 5: (0, 1, 0)},
        {1: (3, 1, 2), 2: (11, 0, 1), 3: (2, 2, 0), 4: (1, 0, 3), 5: (2, 1, 1)},
    ]
    for number, counts in enumerate(rounds, start=1):
        assert not layout_faults(ui)
        ui.tap_text(f"Start round {number}")
        assert screen.state["phase"] == "playing"
        t = time.monotonic()
        press(ui, 4, t)
        assert ui.wait_until(lambda: screen.verdict_headline == "DEE takes the stack")
        assert ui.wait_until(lambda: len(screen.state["calls"]) == 1)
        press(ui, 5, t + 1.0)
        press(ui, 2, t + 1.03)
        assert ui.wait_until(lambda: screen.verdict_headline == "TIE: Eve, Bo")
        assert ui.wait_until(lambda: len(screen.state["calls"]) == 2)
        assert not layout_faults(ui)
        if number == 1:  # Bo went out and presses his button when asked
            ui.tap_text("Out! End round")
            press(ui, 2, time.monotonic())
            assert ui.wait_until(lambda: screen.state["phase"] == "scoring")
            ui.advance(2)  # the score pane's layout (a tap lands where the widgets are drawn)
        else:
            out(ui, screen, "Dee")
        for seat, (pile, left, hand) in counts.items():
            row = screen.score_rows[seat]
            enter(ui, row.ids.pile, 5 * pile)
            if not row.went_out:
                enter(ui, row.ids.left, 5 * left)
            for _ in range(hand):
                ui.tap(ui.find("hand", row))
        if number == 1:
            shot = ui.screenshot("ratuki-score-hand-5")
            assert shot.exists()
            assert not layout_faults(ui)
        for seat, (pile, left, hand) in counts.items():
            row = screen.score_rows[seat]
            assert row.points_text == f"{5 * pile - 5 * left - hand:+d}"
            ui.tap(ui.find("Save", row))
            expected[FIVE[seat - 1].name] += 5 * pile - 5 * left - hand
        assert screen.state["totals"] == expected
    # round 1: Ana 20-5-1 = 14, Bo 50, nobody at 100 yet; round 2: Bo 50 + (55-0-1) = 104, alone over the target
    assert expected == {"Ana": 22, "Bo": 104, "Cy": -3, "Dee": 5, "Eve": -1}
    assert screen.state["phase"] == "over" and screen.state["result"]["winners"] == ["Bo"]
    ui.screenshot("ratuki-over-5")
    assert not layout_faults(ui)
    assert "BO wins with 104 points" in ui.texts()


def test_equal_highest_over_the_target_is_announced_as_a_draw(ui: UI) -> None:
    screen = start(ui)
    score_rounds(ui, screen, [{1: 25, 2: 25, 3: 5}] * 3)  # Ana and Bo at 75 each before the last round
    ui.tap(screen.ready_panel.ids.start)
    assert screen.state["phase"] == "playing"
    ui.tap_text("Stuck: end round")
    for seat in (1, 2):
        enter(ui, screen.score_rows[seat].ids.pile, 25)
    for seat in (1, 2, 3):
        ui.tap(ui.find("Save", screen.score_rows[seat]))
    assert screen.state["result"] == {"kind": "draw", "winners": ["Ana", "Bo"]}
    assert screen.result_text == "DRAW: Ana, Bo with 100 points"
    ui.screenshot("ratuki-draw")
    assert list(screen.result_colour) == list(TIE_COLOUR)  # amber, not one player's colour


def test_a_press_that_ends_a_stale_contest_opens_a_full_new_window(ui: UI) -> None:
    """If the window timer was late, the press that proves the old contest over opens a new one whose tie
    window runs in full: no lockout timer of the old contest may cut it short (window longer than lockout)."""
    screen = playing(ui, tie_window_ms=100, lockout_ms=0)
    now = time.monotonic()
    screen.on_button(ButtonEvent(1, "press", now - 0.2))  # Ana; her window timer has not fired yet
    screen.on_button(ButtonEvent(2, "press", now))  # Bo, 200 ms later: Ana's call is over, Bo's opens
    assert [c["verdict"]["seats"] for c in screen.state["calls"]] == [[1]]
    # Only Bo's window timer runs: a lockout timer (8 ms here) would judge Bo alone before Cy's press counts.
    assert screen.referee.window_timer is not None and screen.referee.lockout_timer is None
    screen.on_button(ButtonEvent(3, "press", now + 0.05))  # Cy, 50 ms after Bo: a tie
    assert ui.wait_until(lambda: len(screen.state["calls"]) == 2)
    assert screen.state["calls"][1]["verdict"]["kind"] == "tie"
    assert screen.state["calls"][1]["verdict"]["seats"] == [2, 3]


def test_a_tie_on_different_stacks_is_corrected_by_touch(ui: UI) -> None:
    """The rules' tie is only on one central stack; one button cannot say which, so the players correct it."""
    screen = playing(ui)
    separate, stats = screen.play_panel.ids.separate, screen.play_panel.ids.stats
    assert separate.opacity == 0 and separate.disabled
    t = time.monotonic()
    press(ui, 1, t)
    press(ui, 3, t + 0.02)
    assert ui.wait_until(lambda: screen.verdict_headline == "TIE: Ana, Cy")
    assert separate.opacity == 1 and separate.height >= 48 and separate.width >= 48
    ui.screenshot("ratuki-tie-offers-separate")
    ui.tap(separate)  # still in the lockout: the call is journaled first, then corrected
    assert [a["type"] for a in screen.session.actions][-2:] == ["call", "separate"]
    assert screen.state["calls"][0]["verdict"]["kind"] == "separate"
    assert screen.verdict_headline == "Different stacks: Ana, Cy"
    assert screen.verdict_detail == "each takes their own stack"
    assert stats.labels["Ana"][0].text == "1" and stats.labels["Cy"][1].text == "0"
    assert separate.opacity == 0
    ui.screenshot("ratuki-separate")
    ui.tap_text("Undo")
    assert screen.verdict_headline == "TIE: Ana, Cy" and separate.opacity == 1
    assert stats.labels["Ana"][1].text == "1"


def test_undoing_a_save_keeps_the_counts_to_correct_them(ui: UI) -> None:
    screen = playing(ui, count_hand=True)
    out(ui, screen, "Bo")
    rows = screen.score_rows
    for seat, (pile, left, hand) in {1: (3, 1, 2), 2: (2, 0, 1), 3: (1, 2, 0)}.items():
        enter(ui, rows[seat].ids.pile, 5 * pile)
        if left:
            enter(ui, rows[seat].ids.left, 5 * left)
        for _ in range(hand):
            ui.tap(ui.find("hand", rows[seat]))
    ui.tap(ui.find("Save", rows[1]))
    ui.tap_text("Undo")  # Ana saw a wrong count: her numbers stay in the counters to fix
    assert not rows[1].saved and rows[1].ids.pile.value == 15 and rows[1].ids.left.value == 5 and rows[1].hand == 2
    ui.tap(button(rows[1].ids.left, "−"))
    ui.tap(ui.find("Save", rows[1]))
    assert screen.state["entries"]["Ana"] == {"score_pile": 15, "left": 4, "hand": 2, "points": 9}
    ui.tap(ui.find("Save", rows[2]))
    ui.tap(ui.find("Save", rows[3]))
    assert screen.state["phase"] == "ready"
    ui.tap_text("Undo")  # the last Save closed the round: undoing it brings Cy's counts back too
    assert screen.state["phase"] == "scoring" and screen.ids.panes.current == "score"
    assert rows[3].ids.pile.value == 5 and rows[3].ids.left.value == 10 and not rows[3].saved
    assert rows[1].saved and rows[1].ids.left.value == 4


def test_everyone_pressing_to_start_the_round_is_not_a_call(ui: UI) -> None:
    """All shout "Ratuki!" to start: the first button starts the clock, the others' start presses (within the
    lockout of that first one) must not become a call or a tie."""
    screen = start(ui)
    t = time.monotonic()
    press(ui, 2, t)
    press(ui, 1, t + 0.03)
    press(ui, 3, t + 0.2)
    ui.advance(5, seconds=0.1)
    assert screen.state["phase"] == "playing"
    assert screen.referee.phase == "idle" and not calls(screen)
    assert screen.verdict_headline == "Ratuki!"
    press(ui, 3, t + 2.0)  # a real call afterwards still counts
    assert ui.wait_until(lambda: len(calls(screen)) == 1)
    assert screen.state["calls"][0]["verdict"]["seats"] == [3]


def test_out_asks_who_went_out_and_keeps_their_cards_left_at_0(ui: UI) -> None:
    screen = playing(ui)
    t = time.monotonic()
    ui.tap_text("Out! End round")
    view = screen._out_view
    assert view is not None
    assert any("Who went out?" in str(getattr(w, "text", "")) for w in view.walk())
    shot = ui.screenshot("ratuki-who-went-out")
    assert shot.exists()
    ui.tap(button(view, "Back"))  # a mis-tap: play goes on
    assert screen._out_view is None and screen.state["phase"] == "playing"
    ui.tap_text("Out! End round")
    press(ui, 3, t + 5)  # Cy went out: her button answers, and is no call
    assert ui.wait_until(lambda: screen.state["phase"] == "scoring")
    ui.advance(2)
    assert calls(screen) == []
    stop = screen.session.actions[-1]
    assert stop["type"] == "stop" and stop["reason"] == "out" and stop["seat"] == 3 and stop["name"] == "Cy"
    rows = screen.score_rows
    assert rows[3].went_out and not rows[1].went_out and not rows[2].went_out
    assert "went out" in ui.texts()
    ui.tap(button(rows[3].ids.left, "+"))
    ui.tap(rows[3].ids.left.ids.field)  # no pad either
    assert rows[3].ids.left.value == 0  # both her piles are empty: no cards left
    enter(ui, rows[2].ids.left, 5)
    enter(ui, rows[3].ids.pile, 5)
    ui.screenshot("ratuki-score-went-out")
    ui.tap(ui.find("Save", rows[3]))
    assert screen.state["entries"]["Cy"]["left"] == 0
    ui.tap_text("Undo")  # her score
    ui.tap_text("Undo")  # the stop: back to playing, nobody marked
    assert screen.state["phase"] == "playing" and not screen.state.get("stopped")
    out(ui, screen, "Bo")  # the right one this time
    assert rows[2].went_out and not rows[3].went_out and rows[3].ids.left.maximum > 0
    assert "Bo went out" in screen.session.describe(screen.session.actions[-1])


# -- fitting the 800×480 screen: long names, many rounds, a notice shown ------------------------------------

FOUR = (*PLAYERS[:2], Player("Cai", "#fdd835", 3), Player("Dee", "#fb8c00", 4))
LONG_NAMES = (
    "Bartholomew-Ch",
    "Dmitri-Konstan",
    "Alexandrina-Ma",
    "Maximiliano-Jo",
    "Christophe-Xav",
)  # 14: the pad's limit
LONG = tuple(Player(n, p.colour, p.seat) for n, p in zip(LONG_NAMES, FIVE, strict=True))


def begin(ui: UI, players: tuple[Player, ...], **settings: Any) -> Any:
    ui.app.start_game(Setup("ratuki", players, settings))
    ui.advance(3)
    return ui.screen()


def score_rounds(ui: UI, screen: Any, rounds: list[dict[int, int]]) -> None:
    """Whole rounds played through the journal: start, stuck, each seat's score pile (nothing left)."""
    session = screen.session
    for piles in rounds:
        ui.clock_value += 30
        session.do({"type": "start", "tick": ui.clock_value})
        ui.clock_value += 120
        session.do({"type": "stop", "tick": ui.clock_value, "reason": "blocked"})
        for seat, pile in piles.items():
            session.do({"type": "score", "seat": seat, "score_pile": pile, "left": 0})
    screen.refresh()
    ui.advance(3)


def hidden_by(ui: UI, widget: Any, covers: tuple[Any, ...] = ()) -> list[str]:
    """Why ``widget`` is not wholly in view: off the window, clipped by a scrolling view, under a cover."""
    from kivy.uix.stencilview import StencilView

    def box(w: Any) -> tuple[float, float, float, float]:
        x, y = w.to_window(w.x, w.y)
        return x, y, x + w.width, y + w.height

    def inside(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
        return a[0] >= b[0] - 0.5 and a[1] >= b[1] - 0.5 and a[2] <= b[2] + 0.5 and a[3] <= b[3] + 0.5

    me = box(widget)
    faults = [] if inside(me, (0, 0, *ui.window.size)) else [f"off the window at {me}"]
    parent = widget.parent
    while parent is not None and parent is not parent.parent:
        if isinstance(parent, StencilView) and not inside(me, box(parent)):
            faults.append(f"clipped by {type(parent).__name__} {box(parent)}: {me}")
        parent = parent.parent
    for cover in covers:
        c = box(cover)
        if (
            cover.opacity > 0
            and min(me[2], c[2]) - max(me[0], c[0]) > 0.5
            and min(me[3], c[3]) - max(me[1], c[1]) > 0.5
        ):
            faults.append(f"under {getattr(cover, 'text', cover)!r}")
    return faults


def text_faults(labels: Any) -> list[str]:
    """Labels whose whole text (one line, unshortened) is wider than the label."""
    from kivy.core.text import Label as CoreLabel

    faults = []
    for label in labels:
        core = CoreLabel(text=str(label.text), font_size=label.font_size, bold=label.bold)
        core.refresh()
        if core.texture.width > label.width:
            faults.append(f"{label.text!r} {core.texture.width}>{label.width:.0f}")
    return faults


def sheet_row(ui: UI, first: str) -> list[Any]:
    """The score-sheet cells, left to right, of the row whose first cell reads ``first`` on the current pane."""
    from kivy.uix.gridlayout import GridLayout

    pane = ui.screen().ids.panes.current_screen
    cells = [w for w in pane.walk(restrict=True) if isinstance(w.parent, GridLayout) and hasattr(w, "text")]
    head = next(w for w in cells if w.text == first)
    y = head.to_window(head.x, head.y)[1]
    row = (w for w in cells if w.parent is head.parent and abs(w.to_window(w.x, w.y)[1] - y) < 0.5)
    return sorted(row, key=lambda w: w.x)


def result_label(ui: UI) -> Any:
    screen = ui.screen()
    pane = screen.ids.panes.current_screen
    return next(w for w in pane.walk(restrict=True) if getattr(w, "text", None) == screen.result_text)


def banner(ui: UI) -> Any:
    return next(w for w in ui.app.root.children if w is not ui.app.manager)


def test_totals_stay_in_view_after_many_rounds(ui: UI) -> None:
    """4 players (Ana/Bo/Cai/Dee), 5 rounds: the Total row was below the Home button until scrolled."""
    screen = begin(ui, FOUR)
    each = {1: 15, 2: 20, 3: 10, 4: 15}
    score_rounds(ui, screen, [each] * 4)
    assert screen.ids.panes.current == "ready" and screen.round_text == "Round 5"
    ui.screenshot("ratuki-sheet-4-rounds")
    covers = (screen.ready_panel.ids.start, screen.ids.seats)
    totals = sheet_row(ui, "Total")
    assert [c.text for c in totals] == ["Total", "60", "80", "40", "60"]
    for cell in totals + sheet_row(ui, "Round") + sheet_row(ui, "4"):  # the latest round in view too
        assert hidden_by(ui, cell, covers) == []
    score_rounds(ui, screen, [each])
    assert screen.ids.panes.current == "over" and screen.result_text == "BO wins with 100 points"
    ui.screenshot("ratuki-over-4-rounds")
    covers = (ui.find("Home", screen.ids.panes.current_screen), screen.ids.seats)
    totals = sheet_row(ui, "Total")
    assert [c.text for c in totals] == ["Total", "75", "100", "50", "75"]
    for cell in totals + sheet_row(ui, "Round") + sheet_row(ui, "5"):
        assert hidden_by(ui, cell, covers) == []
    assert result_label(ui).font_size == pytest.approx(40)  # a short line keeps the big font
    assert text_faults(totals + sheet_row(ui, "Round")) == []


def test_a_draw_of_long_names_shows_whole(ui: UI) -> None:
    """5 players with 14-character names: the result wraps in a smaller font, names and totals fit."""
    screen = begin(ui, LONG)
    score_rounds(ui, screen, [{1: 25, 2: 25, 3: 5, 4: 10, 5: 20}] * 4)
    assert screen.result_text == "DRAW: Bartholomew-Ch, Dmitri-Konstan with 100 points"
    ui.screenshot("ratuki-draw-long-names")
    result = result_label(ui)
    width, height = result.texture_size
    assert width <= result.width and height <= result.height, (result.texture_size, result.size)
    assert result.font_size >= 30  # 40 px on one line was cut at both ends
    covers = (ui.find("Home", screen.ids.panes.current_screen), screen.ids.seats)
    names, totals = sheet_row(ui, "Round"), sheet_row(ui, "Total")
    assert [c.text for c in names[1:]] == list(LONG_NAMES)
    assert text_faults(names + totals) == []  # not shortened
    for cell in names + totals + sheet_row(ui, "4"):
        assert hidden_by(ui, cell, covers) == []


def test_a_five_way_draw_still_fits_the_banner(ui: UI) -> None:
    screen = begin(ui, LONG)
    score_rounds(ui, screen, [dict.fromkeys(range(1, 6), 25)] * 4)
    assert screen.result_text == f"DRAW: {', '.join(LONG_NAMES)} with 100 points"
    ui.screenshot("ratuki-draw-5-long-names")
    result = result_label(ui)
    assert result.texture_size[0] <= result.width and result.texture_size[1] <= result.height
    assert result.font_size >= 20


def test_long_seat_names_are_cut_not_drawn_over_the_next_button(ui: UI) -> None:
    names = ("Alexandrina-Maximiliana", "Bartholomew-Christophe", "Cassiopeia-Wilhelmina", "Dmitri-Konstantinovich")
    names += ("Evangeline-Rosalind",)  # 19-23 characters, as a config file may name them
    screen = begin(ui, tuple(Player(n, p.colour, p.seat) for n, p in zip(names, FIVE, strict=True)))
    ui.tap(screen.ready_panel.ids.start)
    ui.screenshot("ratuki-long-seat-names")
    seats = list(screen.ids.seats.children)
    assert len(seats) == 5
    for button in seats:
        assert button.texture_size[0] <= button.width, (button.text, button.texture_size, button.width)
        assert button.texture_size[1] <= button.height
    assert ui.find("1  Alexandrina-Maximiliana")  # the name itself is kept; only its drawing is cut


def test_a_notice_takes_room_once(ui: UI) -> None:
    """The app's notice banner sits below the screens: the seat buttons end right on it, no empty strip, and
    five score rows still show whole above them."""
    screen = begin(ui, LONG)
    ui.tap(screen.ready_panel.ids.start)
    ui.tap_text("Stuck: end round")
    ui.app.notice("camera", "Camera lost: the dice camera stopped sending pictures")
    ui.advance(3)
    ui.screenshot("ratuki-score-with-notice")
    notice = banner(ui)
    assert notice.height >= 48 and notice.opacity == 1
    seats = screen.ids.seats
    assert seats.to_window(seats.x, seats.y)[1] == pytest.approx(notice.top, abs=1)
    rows = [screen.score_rows[seat] for seat in range(1, 6)]
    assert [hidden_by(ui, row, (seats, notice)) for row in rows] == [[]] * 5
    for seat in range(1, 6):
        ui.tap(ui.find("Save", screen.score_rows[seat]))
    assert screen.state["phase"] == "ready"
    ui.screenshot("ratuki-sheet-with-notice")
    for cell in sheet_row(ui, "Total"):
        assert hidden_by(ui, cell, (screen.ready_panel.ids.start, seats, notice)) == []


def test_a_new_round_starts_without_the_last_rounds_prompt(ui: UI) -> None:
    """#21: "Nobody has called for 59 s — round over?" carried into the next round, frozen, with a live Round
    over button at 00:01 of round 2. A new round starts clean and the question comes back only after its own
    quiet stretch."""
    screen = playing(ui, stall_s=30)
    ui.clock_value += 59
    assert ui.wait_until(lambda: bool(screen.stall_text))
    out(ui, screen, "Ana")
    for seat in (1, 2, 3):
        ui.tap(button(screen.score_rows[seat], "Save"))
    assert screen.state["phase"] == "ready"
    ui.clock_value += 5
    ui.tap(screen.ready_panel.ids.start)
    ui.clock_value += 1
    ui.advance(3, seconds=0.3)
    assert screen.state["phase"] == "playing" and screen.clock_text == "00:01"
    assert screen.stall_text == ""
    ui.screenshot("ratuki-round-2-clean")
    assert "round over?" not in ui.texts()
    assert button(screen, "Round over").disabled and button(screen, "Round over").parent.opacity == 0
    ui.clock_value += 30
    assert ui.wait_until(lambda: screen.stall_text == "Nobody has called for 31 s — round over?")


def test_an_uncontested_take_has_no_bar_under_it(ui: UI) -> None:
    """#21: a blank white bar sat under every uncontested "X takes the stack" (the detail line had no text, and
    an Image without a texture draws a white rectangle). The banner is the taker's colour all the way down."""
    screen = playing(ui)
    screen._paint("take", [1], ["Ana"], None, None)
    ui.advance(3)
    assert screen.verdict_detail == ""
    ui.screenshot("ratuki-take-no-bar")
    detail = screen.play_panel.ids.verdict_detail
    r, g, b = ui.pixel(detail)
    assert (r, g, b) != (255, 255, 255)
    assert abs(r - 0xE5) < 12 and abs(g - 0x39) < 12 and abs(b - 0x35) < 12  # Ana's red, not white
    screen._paint("take", [2], ["Bo"], 37.0, "Ana")  # a margin: the line is drawn again
    ui.advance(3)
    assert detail.opacity == 1 and detail.texture is not None
