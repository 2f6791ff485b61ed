"""Ratuki's live referee without Kivy: a fake scheduler whose timers the test fires, a button clock the test sets,
invented edge ticks. Lockout after a round's start, the tie window on the button clock, its grace, a timer that
fires early, presses still queued when it fires, the lockout, late presses and flushing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from companion.games.ratuki.live import GRACE_S, LiveReferee, call_action
from companion.games.ratuki.referee import TAKE, TIE, Contest, Press, Verdict

WINDOW = 50
LOCKOUT = 500


@dataclass
class FakeTimer:
    callback: Callable[[], None]
    delay: float
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class Table:
    """The referee with everything it is handed recorded: timers, verdicts shown, contests journaled."""

    now: float = 100.0  # the button board's clock
    timers: list[FakeTimer] = field(default_factory=list)
    shown: list[tuple[Verdict, bool]] = field(default_factory=list)
    journaled: list[Contest] = field(default_factory=list)
    queued: list[tuple[int, float]] = field(default_factory=list)  # presses on their way, delivered on demand
    live: LiveReferee = field(init=False)

    def __post_init__(self) -> None:
        self.live = LiveReferee(
            WINDOW,
            LOCKOUT,
            schedule=self.schedule,
            clock=lambda: self.now,
            deliver=self.deliver,
            on_verdict=lambda verdict, sound: self.shown.append((verdict, sound)),
            on_contest=self.journaled.append,
        )

    def schedule(self, callback: Callable[[], None], delay: float) -> FakeTimer:
        timer = FakeTimer(callback, delay)
        self.timers.append(timer)
        return timer

    def deliver(self) -> None:
        while self.queued:
            self.live.press(*self.queued.pop(0))

    def fire(self, timer: FakeTimer | None) -> None:
        """The timer runs (a timer runs once: it is then no longer pending)."""
        assert timer is not None and not timer.cancelled
        timer.cancelled = True
        timer.callback()

    def tap(self, seat: int, tick: float, held: float = 0.04) -> None:
        """A press and its release; the board's clock is at the press."""
        self.now = max(self.now, tick)
        self.live.press(seat, tick)
        self.live.release(seat, tick + held)


def test_a_press_opens_the_window_the_timer_judges_and_the_lockout_journals() -> None:
    table = Table()
    table.tap(2, 100.0)
    live = table.live
    assert live.phase == "open" and live.window_timer is not None and live.lockout_timer is None
    assert live.window_timer.delay == pytest.approx(WINDOW / 1000 + GRACE_S)
    table.now = 100.060
    table.fire(live.window_timer)
    verdict, sound = table.shown[-1]
    assert (verdict.kind, verdict.seats, sound) == (TAKE, (2,), True)
    assert live.phase == "lockout" and live.lockout_timer is not None and not table.journaled
    assert live.lockout_timer.delay == pytest.approx(LOCKOUT / 1000 + GRACE_S)
    table.fire(live.lockout_timer)
    assert table.journaled == [Contest((Press(100.0, 2),))] and live.phase == "idle"


def test_presses_inside_the_tie_window_are_a_tie_whatever_their_delivery_order() -> None:
    table = Table()
    table.tap(3, 100.020)
    table.tap(1, 100.0)  # stamped first, delivered second
    table.now = 100.080
    table.fire(table.live.window_timer)
    verdict, _sound = table.shown[-1]
    assert (verdict.kind, verdict.seats) == (TIE, (1, 3))


def test_a_press_after_the_window_is_late_it_only_sets_the_margin_silently() -> None:
    table = Table()
    table.tap(1, 100.0)
    table.now = 100.060
    table.fire(table.live.window_timer)
    table.tap(2, 100.120)  # in the lockout: too late for this stack
    verdict, sound = table.shown[-1]
    assert (verdict.kind, verdict.seats, verdict.margin_ms, verdict.runner_up) == (TAKE, (1,), 120.0, 2)
    assert sound is False  # the take was already announced
    assert table.live.window_timer is None  # a late press opens no window
    table.fire(table.live.lockout_timer)
    assert table.journaled == [Contest((Press(100.0, 1),), (Press(100.120, 2),))]


def test_a_press_just_past_the_window_delivered_before_the_timer_is_held_for_the_verdict() -> None:
    table = Table()
    table.tap(1, 100.0)
    table.tap(2, 100.051)  # 51 ms: past the 50 ms window, before its timer fired
    table.now = 100.060
    table.fire(table.live.window_timer)
    verdict, _sound = table.shown[-1]
    assert (verdict.kind, verdict.seats, verdict.runner_up) == (TAKE, (1,), 2)


def test_the_window_timer_runs_on_the_button_clock() -> None:
    table = Table(now=500.0)
    live = table.live
    assert live.window_delay(500.0) == pytest.approx(0.058)  # 50 ms window + 8 ms grace
    assert live.window_delay(499.98) == pytest.approx(0.038)  # the press waited 20 ms in the queue
    assert live.window_delay(499.5) == 0.0  # its window is already over: judge now
    assert live.window_delay(400.0) == pytest.approx(0.058)  # clocks disagree: wait the full window
    assert live.window_delay(500.5) == pytest.approx(0.058)


def test_a_board_without_a_clock_waits_the_full_window() -> None:
    def broken() -> float:
        raise OSError("no clock")

    table = Table()
    table.live.clock = broken
    table.tap(1, 100.0)
    assert table.live.window_timer is not None
    assert table.live.window_timer.delay == pytest.approx(WINDOW / 1000 + GRACE_S)


def test_a_press_queued_when_the_window_timer_fires_still_counts() -> None:
    """Bo's press, stamped 49 ms after Ana's, is still queued when the window timer fires: it is delivered
    before the referee judges, so it is a tie, not "Ana takes"."""
    table = Table()
    table.tap(1, 700.0)
    table.now = 700.060  # the window and its grace are over on the button clock
    table.queued.append((2, 700.049))
    table.fire(table.live.window_timer)
    verdict = table.live.verdict
    assert verdict is not None and (verdict.kind, verdict.seats) == (TIE, (1, 2))


def test_a_window_timer_that_fires_early_waits_out_the_window_once() -> None:
    table = Table()
    table.tap(1, 800.0)
    first = table.live.window_timer
    table.now = 800.055  # the timer counted from its frame's start: 3 ms early on the button clock
    table.fire(first)
    again = table.live.window_timer
    assert table.live.phase == "open" and again is not None and again is not first
    assert again.delay == pytest.approx(0.003)
    table.tap(2, 800.050)  # stamped inside the window, arriving in those 3 ms
    table.now = 800.058
    table.fire(again)
    verdict = table.live.verdict
    assert verdict is not None and (verdict.kind, verdict.seats) == (TIE, (1, 2))


def test_a_button_clock_that_does_not_move_is_not_waited_for_twice() -> None:
    table = Table()
    table.tap(1, 800.0)
    table.now = 800.020
    table.fire(table.live.window_timer)  # early: waits the rest once
    table.fire(table.live.window_timer)  # the clock still says 20 ms: judged now all the same
    assert table.live.phase == "lockout" and table.shown[-1][0].seats == (1,)


def test_a_glitch_on_a_button_wire_is_not_a_call() -> None:
    table = Table()
    table.live.press(2, 900.0)
    table.live.release(2, 900.001)  # a 1 ms pulse: interference, no hand presses that briefly
    table.now = 900.060
    table.fire(table.live.window_timer)
    assert table.live.phase == "idle" and table.live.verdict is None and not table.shown
    table.live.flush()
    assert table.journaled == []


def test_everyone_pressing_to_start_the_round_is_not_a_call() -> None:
    """The first button starts the round; the others' presses within the tie window plus the lockout after it
    are the same starting "Ratuki!", not calls. A press after that is a call."""
    table = Table()
    live = table.live
    live.new_round()
    live.start_press(2, 100.0)
    live.release(2, 100.04)
    table.tap(1, 100.030)
    table.tap(3, 100.2)
    table.tap(2, 100.550)  # the span's last microsecond still belongs to the start
    assert live.phase == "idle" and not table.timers and not table.shown
    table.tap(3, 100.551)
    assert live.phase == "open"
    table.now = 100.62
    table.fire(live.window_timer)
    table.fire(live.lockout_timer)
    assert [c.presses for c in table.journaled] == [(Press(100.551, 3),)]


def test_a_start_press_held_down_does_not_call_until_released() -> None:
    table = Table()
    table.live.start_press(1, 100.0)
    assert table.live.press(1, 101.0) is not None and table.live.phase == "idle"  # still held: ignored
    table.live.release(1, 101.5)
    table.tap(1, 102.0)
    assert table.live.phase == "open"


def test_a_new_round_or_game_forgets_the_start_press() -> None:
    table = Table()
    table.live.start_press(1, 100.0)
    assert table.live.in_start_lockout(100.3)
    table.live.new_round()
    assert not table.live.in_start_lockout(100.3)
    table.live.start_press(1, 100.0)
    table.live.reset(100, 200)
    assert not table.live.in_start_lockout(100.1) and table.live.window_ms == 100 and table.live.lockout_ms == 200


def test_a_press_that_ends_a_stale_contest_opens_a_full_new_window() -> None:
    """The window timer was late: a press that proves the old contest over journals it and opens a new window
    that runs in full; no lockout timer of the old contest may cut it short."""
    table = Table()
    table.live.reset(100, 0)
    table.tap(1, 99.8)  # Ana; her window timer has not fired
    table.tap(2, 100.0)  # Bo, 200 ms later: Ana's call is over, Bo's opens
    assert [c.presses for c in table.journaled] == [(Press(99.8, 1),)]
    assert table.shown[-1][0].seats == (1,)
    assert table.live.window_timer is not None and table.live.lockout_timer is None
    table.tap(3, 100.05)  # Cy, 50 ms after Bo: a tie
    table.now = 100.2
    table.fire(table.live.window_timer)
    table.fire(table.live.lockout_timer)
    assert table.journaled[-1].presses == (Press(100.0, 2), Press(100.05, 3))


def test_flush_judges_and_journals_a_contest_still_in_its_window() -> None:
    table = Table()
    table.tap(1, 100.0)
    window = table.live.window_timer
    table.live.flush()  # stop, pause, undo, leaving: nothing may stay unjournaled
    assert window is not None and window.cancelled
    assert [(v.seats, sound) for v, sound in table.shown] == [((1,), True)]
    assert table.journaled == [Contest((Press(100.0, 1),))] and table.live.phase == "idle"
    table.live.flush()  # nothing more
    assert len(table.journaled) == 1


def test_flush_in_the_lockout_journals_without_showing_again() -> None:
    table = Table()
    table.tap(1, 100.0)
    table.now = 100.06
    table.fire(table.live.window_timer)
    lockout = table.live.lockout_timer
    table.live.flush()
    assert lockout is not None and lockout.cancelled and len(table.shown) == 1 and len(table.journaled) == 1


def test_a_press_during_the_finished_contests_lockout_is_ignored() -> None:
    table = Table()
    table.tap(1, 100.0)
    table.live.flush()
    table.tap(2, 100.3)  # within the last call's lockout: a slap for the stack already taken
    assert table.live.phase == "idle" and len(table.journaled) == 1


def test_the_call_action_claims_the_verdict_the_engine_will_find() -> None:
    state = {"players": [{"name": "Ana", "seat": 1}, {"name": "Bo", "seat": 2}]}
    contest = Contest((Press(100.0, 1),), (Press(100.12, 2),))
    action = call_action(state, contest, WINDOW)
    assert action == {
        "type": "call",
        "presses": [{"seat": 1, "tick": 100.0}],
        "late": [{"seat": 2, "tick": 100.12}],
        "verdict": {"kind": TAKE, "seats": [1], "names": ["Ana"], "margin_ms": 120.0, "runner_up_name": "Bo"},
    }
