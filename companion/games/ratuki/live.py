"""Ratuki's live referee: the timing around :class:`~companion.games.ratuki.referee.Referee` during play.

The referee judges on edge ticks alone; this controller decides *when* it judges. It opens a tie window timer on
the first press (on the button board's own clock, so a press that waited in the queue is not given extra time),
waits out a timer that fired a few ms early, lets presses still on their way reach the referee before judging,
runs the lockout after a verdict, and keeps the presses that started a round from counting as calls. Its
scheduler, button clock and "deliver what is queued" step are injected, so everything here is tested with a fake
scheduler and invented ticks, without Kivy (the screen passes the Kivy clock and its button boards).

Verdicts go out through ``on_verdict`` (show it, with or without a sound) and finished contests through
``on_contest`` (journal them as one ``call`` action: :func:`call_action`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Protocol

from companion.games.ratuki.referee import Contest, Referee, Step, Verdict, judge, micros
from companion.games.ratuki.rules import claim_for

# Extra wait after the tie window before judging, for presses still crossing the hardware→UI queue (s).
GRACE_S = 0.008


class Timer(Protocol):
    """A scheduled callback that can be called off (Kivy's ``ClockEvent`` is one)."""

    def cancel(self) -> None: ...


# schedule(callback, delay_s) -> Timer: run ``callback()`` once, ``delay_s`` seconds from now.
Scheduler = Callable[[Callable[[], None], float], Timer]


def call_action(state: Mapping[str, Any], contest: Contest, window_ms: int) -> dict[str, Any]:
    """The ``call`` action that journals ``contest``: its presses, late presses and the verdict claimed."""
    verdict = judge(contest.presses, window_ms, contest.late)
    action = contest.to_action()
    action["verdict"] = claim_for(state, verdict)
    return action


class LiveReferee:
    """Presses in, verdicts and contests out, with the tie window and lockout timed on an injected scheduler.

    ``clock`` reads the button board's clock (the domain of edge ticks; it may raise when a board has none),
    ``deliver`` hands the referee every press already on its way (polls the boards, drains the queue) before a
    window is judged. The owner forwards edges (:meth:`press`, :meth:`release`, :meth:`start_press`) and calls
    :meth:`flush` before anything that must see every call journaled (stop, pause, undo, leaving).
    """

    def __init__(
        self,
        window_ms: int,
        lockout_ms: int,
        *,
        schedule: Scheduler,
        clock: Callable[[], float],
        deliver: Callable[[], None] = lambda: None,
        on_verdict: Callable[[Verdict, bool], None] = lambda _verdict, _sound: None,
        on_contest: Callable[[Contest], None] = lambda _contest: None,
    ) -> None:
        self.schedule = schedule
        self.clock = clock
        self.deliver = deliver
        self.on_verdict = on_verdict
        self.on_contest = on_contest
        self.referee = Referee(window_ms=window_ms, lockout_ms=lockout_ms)
        self.window_timer: Timer | None = None
        self.lockout_timer: Timer | None = None
        self.start_tick: float | None = None  # edge tick of the button press that started the round
        self._window_rechecked = False  # the window timer fired once and, early on the button clock, waited more

    # -- what the screen reads ----------------------------------------------------------------------------

    @property
    def window_ms(self) -> int:
        return self.referee.window_ms

    @property
    def lockout_ms(self) -> int:
        return self.referee.lockout_ms

    @property
    def phase(self) -> str:
        """The referee's phase: "idle", "open" (window running) or "lockout"."""
        return self.referee.phase

    @property
    def verdict(self) -> Verdict | None:
        """The verdict of the contest in its lockout (None otherwise)."""
        return self.referee.verdict

    # -- life cycle -----------------------------------------------------------------------------------------

    def reset(self, window_ms: int, lockout_ms: int) -> None:
        """A new or resumed game: timers off, a fresh referee with the game's window and lockout."""
        self.cancel_timers()
        self.referee = Referee(window_ms=window_ms, lockout_ms=lockout_ms)
        self.start_tick = None

    def new_round(self) -> None:
        """A round has started (from the screen): no start press is known yet."""
        self.start_tick = None

    def cancel_timers(self) -> None:
        for name in ("window_timer", "lockout_timer"):
            timer = getattr(self, name)
            if timer is not None:
                timer.cancel()
                setattr(self, name, None)

    # -- edges ----------------------------------------------------------------------------------------------

    def release(self, seat: int, tick: float) -> None:
        self.referee.release(seat, tick)

    def start_press(self, seat: int, tick: float) -> None:
        """The press that started the round: not a call; presses within the window plus lockout after it are
        not calls either (everyone slaps their button with the starting "Ratuki!"). Its release frees the seat."""
        self.start_tick = tick
        self.referee.down.add(seat)

    def in_start_lockout(self, tick: float) -> bool:
        """True for a press within the tie window plus lockout after a player button started the round."""
        start = self.start_tick
        if start is None:
            return False
        span = (self.window_ms + self.lockout_ms) * 1000
        return 0 <= micros(tick - start) <= span

    def press(self, seat: int, tick: float) -> Step | None:
        """A press during play (the clock running). Returns the referee's step (None for a start-lockout press)."""
        if self.in_start_lockout(tick):
            self.referee.down.add(seat)
            return None
        step = self.referee.press(seat, tick)
        if step.closed is not None:
            self.on_verdict(step.closed, True)
        if step.finished is not None:
            self.on_contest(step.finished)
        if step.kind == "opened":
            self.cancel_timers()
            self._window_rechecked = False
            self.window_timer = self.schedule(self.window_over, self.window_delay(tick))
        elif step.kind == "late" and step.verdict is not None:
            self.on_verdict(step.verdict, False)
        if step.closed is not None and step.finished is None:
            # The closed contest is now in its lockout. (Finished too: it is journaled already, and a lockout
            # timer here would cut short the window this press may just have opened.)
            self._schedule_lockout()
        return step

    # -- timers ---------------------------------------------------------------------------------------------

    def window_delay(self, tick: float) -> float:
        """Seconds until the window opened at ``tick`` closes (plus grace), on the button board's own clock,
        which is in the same domain as edge ticks: 0 if the press reached us after its window had already
        closed, the full window if that clock disagrees with the tick (negative or absurd age)."""
        full = self.window_ms / 1000 + GRACE_S
        try:
            age = float(self.clock()) - tick
        except Exception:  # a board without a usable clock
            return full
        if 0 <= age <= full:
            return full - age
        return 0.0 if full < age <= 5.0 else full

    def window_over(self) -> None:
        """The window timer fired: judge the open contest, after every press already on its way."""
        self.window_timer = None
        # Presses already queued reach the referee before it judges: the queue may be drained after this timer
        # in the same frame. (Else a press stamped inside the window was lost.)
        self.deliver()
        if self.window_timer is not None or self.referee.phase != "open":
            return  # a press just delivered closed this window (and may have opened the next, with its own timer)
        first = self.referee.opened_at
        if first is not None and not self._window_rechecked:
            # A timer can fire a few ms early (Kivy counts from the start of its frame): on the button clock,
            # wait out the rest of the window (once; a clock that does not move is not waited for).
            self._window_rechecked = True
            left = self.window_delay(first)
            if 0 < left < self.window_ms / 1000 + GRACE_S:
                self.window_timer = self.schedule(self.window_over, left)
                return
        verdict = self.referee.close_window()
        if verdict is not None:
            self.on_verdict(verdict, True)
            self._schedule_lockout()

    def _schedule_lockout(self) -> None:
        if self.lockout_timer is not None:
            self.lockout_timer.cancel()
        self.lockout_timer = self.schedule(self.lockout_over, self.lockout_ms / 1000 + GRACE_S)

    def lockout_over(self) -> None:
        """The lockout timer fired: the contest is complete, hand it on to be journaled."""
        self.lockout_timer = None
        contest = self.referee.finish()
        if contest is not None:
            self.on_contest(contest)

    def flush(self) -> None:
        """Hand on a contest still in its window or lockout now (before stopping, pausing, undoing or leaving)."""
        self.cancel_timers()
        if self.referee.phase == "open":
            verdict = self.referee.close_window()
            if verdict is not None:
                self.on_verdict(verdict, True)
        contest = self.referee.finish()
        if contest is not None:
            self.on_contest(contest)
