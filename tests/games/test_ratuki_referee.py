"""The Ratuki referee on invented edge ticks: no clock anywhere, every case spelled out or enumerated."""

from __future__ import annotations

import itertools
import random

import pytest

from companion.games.ratuki.referee import TAKE, TIE, Contest, Press, Referee, judge, split

WINDOW = 50
LOCKOUT = 500


def referee() -> Referee:
    return Referee(window_ms=WINDOW, lockout_ms=LOCKOUT)


def oracle(presses: list[tuple[int, float]], window_ms: int = WINDOW) -> tuple[str, tuple[int, ...]]:
    """Independent statement of the rule: the earliest press opens; everyone within the window of it ties."""
    first_tick = min(t for _, t in presses)
    firsts: dict[int, float] = {}
    for seat, tick in presses:
        firsts[seat] = min(tick, firsts.get(seat, tick))
    inside = sorted((t, s) for s, t in firsts.items() if (t - first_tick) * 1000 <= window_ms + 1e-6)
    seats = tuple(s for _, s in inside)
    return (TIE if len(seats) > 1 else TAKE), seats


def feed(ref: Referee, presses: list[tuple[int, float]]) -> list[str]:
    kinds = []
    for seat, tick in presses:
        kinds.append(ref.press(seat, tick).kind)
        ref.release(seat, tick + 0.03)
    return kinds


# -- single contests ---------------------------------------------------------------------------------------------


def test_a_lone_press_takes_the_stack_without_a_margin() -> None:
    ref = referee()
    step = ref.press(2, 100.0)
    assert step.kind == "opened" and ref.phase == "open"
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TAKE and verdict.seats == (2,)
    assert verdict.margin_ms is None and verdict.runner_up is None
    assert verdict.closes_at == pytest.approx(100.05)
    assert ref.phase == "lockout"
    contest = ref.finish()
    assert contest == Contest((Press(100.0, 2),), ())
    assert ref.phase == "idle"
    assert contest.to_action() == {"type": "call", "presses": [{"seat": 2, "tick": 100.0}]}


def test_two_presses_inside_the_window_tie_in_press_order() -> None:
    ref = referee()
    ref.press(3, 10.020)
    assert ref.press(1, 10.050).kind == "joined"
    verdict = ref.close_window()
    assert verdict is not None
    assert (verdict.kind, verdict.seats, verdict.spread_ms) == (TIE, (3, 1), 30.0)


def test_the_window_edge_is_inside_and_one_microsecond_more_is_outside() -> None:
    assert oracle([(1, 5.0), (2, 5.05)]) == (TIE, (1, 2))
    assert judge([Press(5.0, 1), Press(5.05, 2)], WINDOW).kind == TIE
    inside, outside = split([Press(5.0, 1), Press(5.050001, 2)], WINDOW)
    assert inside == (Press(5.0, 1),) and outside == (Press(5.050001, 2),)


def test_equal_ticks_are_a_tie_even_with_a_zero_window() -> None:
    ref = Referee(window_ms=0, lockout_ms=LOCKOUT)
    ref.press(4, 7.5)
    ref.press(2, 7.5)
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TIE and verdict.seats == (2, 4)
    ref2 = Referee(window_ms=0, lockout_ms=LOCKOUT)
    ref2.press(4, 7.5)
    assert ref2.press(2, 7.500001).kind == "held"
    assert ref2.close_window() == judge([Press(7.5, 4)], 0, [Press(7.500001, 2)])
    assert ref2.verdict is not None and ref2.verdict.kind == TAKE and ref2.verdict.margin_ms == 0.001


def test_a_press_delivered_late_but_stamped_earlier_still_wins() -> None:
    ref = referee()
    ref.press(1, 20.100)
    ref.press(2, 20.000)  # its edge came first; the queue just delivered it second
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TAKE and verdict.seats == (2,)
    assert verdict.runner_up == 1 and verdict.margin_ms == 100.0


def test_a_press_past_the_window_waits_for_the_timer_and_becomes_the_margin() -> None:
    ref = referee()
    ref.press(1, 1.000)
    step = ref.press(5, 1.137)
    assert step.kind == "held" and step.closed is None and ref.phase == "open"
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TAKE and verdict.seats == (1,)
    assert verdict.margin_ms == 137.0 and verdict.runner_up == 5
    contest = ref.finish()
    assert contest is not None and contest.late == (Press(1.137, 5),)


def test_a_press_past_the_window_does_not_shut_out_one_stamped_inside_it() -> None:
    """Cy's press past the window reaches the referee before Bo's inside it (one thread per button): Ana and
    Bo still tie. (It used to close the window at once, and Bo's press was ignored as after the verdict.)"""
    for order in itertools.permutations([(1, 10.000), (2, 10.049), (3, 10.051)]):
        ref = referee()
        for seat, tick in order:
            assert ref.press(seat, tick).kind in ("opened", "joined", "held")
        verdict = ref.close_window()
        assert verdict is not None and (verdict.kind, verdict.seats) == (TIE, (1, 2)), order


def test_a_press_past_the_window_and_its_lockout_closes_it_and_opens_the_next() -> None:
    ref = referee()
    ref.press(1, 1.000)
    ref.release(1, 1.050)
    step = ref.press(2, 1.551)  # the window timer never fired (a stalled screen): the tick proves it all over
    assert step.kind == "opened" and step.closed is not None and step.closed.seats == (1,)
    assert step.finished is not None and step.finished.presses == (Press(1.0, 1),)


def test_a_slap_for_the_last_stack_delivered_after_the_next_call_is_ignored() -> None:
    """Ana took; Bo calls the next stack just after her lockout; Cy's slap stamped inside that lockout reaches
    the referee after Bo's press. It belongs to Ana's stack: Bo takes alone (it used to make a tie of Cy and
    Bo that the engine then refused, and Bo's take was lost)."""
    ref = referee()
    ref.press(1, 50.000)
    ref.close_window()
    assert ref.finish() is not None
    assert ref.press(2, 50.551).kind == "opened"
    step = ref.press(3, 50.549)
    assert step.kind == "ignored" and "lockout" in step.reason
    verdict = ref.close_window()
    assert verdict is not None and (verdict.kind, verdict.seats) == (TAKE, (2,))


# -- bounce, held buttons, lockout ---------------------------------------------------------------------------------


def test_a_bounce_train_without_releases_counts_once() -> None:
    ref = referee()
    assert ref.press(1, 3.000).kind == "opened"
    for k in range(1, 6):
        step = ref.press(1, 3.000 + k * 0.002)
        assert step.kind == "ignored" and "held" in step.reason
    verdict = ref.close_window()
    assert verdict is not None and verdict.seats == (1,) and verdict.kind == TAKE


def test_a_bounce_train_with_releases_still_counts_once() -> None:
    ref = referee()
    ref.press(1, 3.000)
    for k in range(1, 6):
        ref.release(1, 3.000 + k * 0.002 - 0.001)
        step = ref.press(1, 3.000 + k * 0.002)
        assert step.kind == "ignored" and "already called" in step.reason
    ref.press(2, 3.030)
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TIE and verdict.seats == (1, 2)


def test_presses_during_the_lockout_are_late_once_and_cannot_open_a_contest() -> None:
    ref = referee()
    ref.press(1, 50.0)
    ref.release(1, 50.05)
    ref.close_window()
    assert ref.lockout_ends() == pytest.approx(50.55)
    assert ref.press(2, 50.300).kind == "late"
    ref.release(2, 50.35)
    assert ref.press(2, 50.400).kind == "ignored"  # a second late slap from the same seat
    ref.release(2, 50.45)
    assert ref.press(1, 50.450).kind == "ignored"  # the winner slapping again
    ref.release(1, 50.5)
    assert ref.press(3, 50.550).kind == "late"  # the lockout's last tick is still inside
    ref.release(3, 50.6)
    step = ref.press(4, 50.551)
    assert step.kind == "opened"
    assert step.finished == Contest((Press(50.0, 1),), (Press(50.3, 2), Press(50.55, 3)))


def test_after_the_lockout_timer_a_stale_press_is_still_ignored() -> None:
    ref = referee()
    ref.press(1, 9.0)
    ref.release(1, 9.1)
    ref.close_window()
    assert ref.finish() is not None
    step = ref.press(2, 9.2)  # the lockout timer fired early on the screen clock; the tick says it is inside
    assert step.kind == "ignored" and "lockout" in step.reason
    ref.release(2, 9.25)
    assert ref.press(2, 9.6).kind == "opened"


def test_a_restarted_button_clock_is_a_new_epoch() -> None:
    ref = referee()
    ref.press(1, 5000.0)
    ref.release(1, 5000.1)
    ref.finish()
    assert ref.press(2, 3.0).kind == "opened"  # ticks went backwards: the board restarted


def test_holding_the_button_down_cannot_win_the_next_stack() -> None:
    ref = referee()
    ref.press(1, 10.0)  # Ana presses and keeps holding
    ref.close_window()
    ref.finish()
    assert ref.press(2, 15.0).kind == "opened"
    step = ref.press(1, 14.9)  # a phantom edge while still held (no release since 10.0)
    assert step.kind == "ignored" and "held" in step.reason
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TAKE and verdict.seats == (2,)
    ref.release(1, 16.0)
    assert ref.press(1, 16.5).kind == "opened"


def test_finish_without_close_judges_first_and_nothing_to_finish_returns_none() -> None:
    ref = referee()
    assert ref.finish() is None and ref.close_window() is None
    ref.press(3, 1.0)
    contest = ref.finish()
    assert contest == Contest((Press(1.0, 3),))


# -- five players ----------------------------------------------------------------------------------------------------


def test_five_players_at_once_all_tie() -> None:
    ref = referee()
    ticks = {1: 2.010, 2: 2.000, 3: 2.049, 4: 2.020, 5: 2.035}
    for seat, tick in ticks.items():
        ref.press(seat, tick)
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TIE
    assert verdict.seats == (2, 1, 4, 5, 3) and verdict.spread_ms == 49.0


def test_five_players_one_clear_winner_with_the_margin_to_the_next() -> None:
    ref = referee()
    for seat, tick in {3: 4.000, 1: 4.061, 2: 4.070, 4: 4.090, 5: 4.300}.items():
        ref.press(seat, tick)
    assert ref.phase == "open"  # presses past the window wait for its timer
    verdict = ref.close_window()
    assert verdict is not None and verdict.kind == TAKE and verdict.seats == (3,)
    assert verdict.runner_up == 1 and verdict.margin_ms == 61.0
    contest = ref.finish()
    assert contest is not None and [p.seat for p in contest.late] == [1, 2, 4, 5]


@pytest.mark.parametrize(
    "ticks",
    [
        [0.000, 0.000, 0.000, 0.000, 0.000],
        [0.000, 0.010, 0.020, 0.030, 0.040],
        [0.000, 0.050, 0.051, 0.100, 0.200],
        [0.000, 0.051, 0.052, 0.053, 0.054],
        [0.025, 0.000, 0.050, 0.075, 0.049],
        [0.000, 0.000, 0.300, 0.300, 0.300],
    ],
)
def test_every_delivery_order_within_the_window_gives_the_same_verdict(ticks: list[float]) -> None:
    """Presses may reach the UI out of tick order (one thread per button); until the window timer fires, the
    order they arrive in must not matter. Presses stamped after the window come later, in tick order."""
    base = 1000.0
    presses = [(seat, base + t) for seat, t in enumerate(ticks, start=1)]
    expected = oracle(presses)
    first = min(t for _, t in presses)
    early = [p for p in presses if (p[1] - first) * 1000 <= WINDOW + 1e-6]
    after = sorted((p for p in presses if p not in early), key=lambda p: p[1])
    for order in itertools.permutations(early):
        ref = referee()
        for seat, tick in order:
            assert ref.press(seat, tick).kind in ("opened", "joined")
        verdict = ref.close_window()
        assert verdict is not None and (verdict.kind, verdict.seats) == expected
        for seat, tick in after:
            ref.press(seat, tick)
        contest = ref.finish()
        assert contest is not None
        # What gets journaled re-judges to the same verdict, margin included.
        assert judge(contest.presses, WINDOW, contest.late) == ref.last_verdict
        assert [p.seat for p in contest.late] == [s for s, t in after if (t - first) <= 0.55 + 1e-9]


def test_a_press_stamped_inside_the_window_but_delivered_after_the_verdict_is_ignored() -> None:
    ref = referee()
    ref.press(1, 30.000)
    ref.close_window()
    step = ref.press(2, 30.010)
    assert step.kind == "ignored" and "after the verdict" in step.reason
    verdict = ref.verdict
    assert verdict is not None and verdict.seats == (1,) and verdict.margin_ms is None


def test_random_streams_match_the_oracle_when_delivered_in_tick_order() -> None:
    rng = random.Random(4)
    for _ in range(2000):
        n = rng.randint(1, 5)
        seats = rng.sample(range(1, 6), n)
        start = rng.uniform(0, 10_000)
        presses = [(s, start + rng.choice([0.0, rng.uniform(0, 0.12)])) for s in seats]
        presses.sort(key=lambda p: (p[1], p[0]))
        ref = referee()
        feed(ref, presses)
        contest = ref.finish()
        assert contest is not None
        verdict = judge(contest.presses, WINDOW, contest.late)
        assert (verdict.kind, verdict.seats) == oracle(presses)
        if verdict.kind == TAKE and len(presses) > 1:
            assert verdict.runner_up == presses[1][0]
            assert verdict.margin_ms == pytest.approx((presses[1][1] - presses[0][1]) * 1000, abs=0.0011)


def test_a_glitch_on_the_wire_is_not_a_call() -> None:
    """A press released within 3 ms is interference on a long wire (no hand is that quick): taken out of the
    open contest; a real press (tens of ms) stays."""
    ref = referee()
    ref.press(1, 5.000)
    assert ref.release(1, 5.001) is True
    assert ref.close_window() is None and ref.phase == "idle"
    ref.press(4, 5.500)  # contact bounce: released for 1 ms, pressed again at once -> a real call
    ref.release(4, 5.501)
    assert ref.press(4, 5.502).kind == "ignored"
    verdict = ref.close_window()
    assert verdict is not None and verdict.seats == (4,)
    assert ref.finish() is not None
    ref.press(2, 7.000)
    ref.press(3, 7.010)
    assert ref.release(3, 7.0115) is True  # Cy's glitch: Bo takes alone
    assert ref.release(2, 7.040) is False
    verdict = ref.close_window()
    assert verdict is not None and (verdict.kind, verdict.seats) == (TAKE, (2,))
