"""Ratuki referee: who called a central stack first, decided on button edge ticks alone.

Everything here is pure (standard library, no clock): the screen feeds press/release edges with their ticks
(seconds from the pin factory, comparable only with each other) and tells the referee when its timers fire;
the engine re-derives the same verdict from the journaled presses. Tests drive it with invented ticks.

A *contest* opens on the first press. Every seat whose first press lies within ``window_ms`` of the earliest
press is a contender: one contender takes the stack, two or more are a TIE (their cards go back to their
discard piles). After the window closes, a lockout of ``lockout_ms`` swallows bounce and late slaps; the
first late press of each other seat is kept only to say by how much the winner was ahead.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

TAKE = "take"
TIE = "tie"
# A tie the players corrected: the tied presses were on different central stacks, each took their own.
SEPARATE = "separate"


@dataclass(frozen=True, order=True)
class Press:
    """One press edge: ``tick`` in seconds (pin-factory clock), ``seat`` the 1-based button number."""

    tick: float
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "tick": self.tick}


def micros(seconds: float) -> int:
    """A tick difference as whole microseconds, so window comparisons do not depend on float rounding."""
    return round(seconds * 1_000_000)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one contest.

    ``kind`` is :data:`TAKE` (``seats`` = the winner) or :data:`TIE` (``seats`` = every contender, earliest
    first). ``closes_at`` is the tick at which the tie window closed. For a take, ``runner_up`` and
    ``margin_ms`` name the next press (a late one) and the gap to it, once known; for a tie, ``spread_ms`` is
    the gap between the first and the last tied press.
    """

    kind: str
    seats: tuple[int, ...]
    first_tick: float
    closes_at: float
    margin_ms: float | None = None
    runner_up: int | None = None
    spread_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "seats": list(self.seats),
            "margin_ms": self.margin_ms,
            "runner_up": self.runner_up,
            "spread_ms": self.spread_ms,
        }


@dataclass(frozen=True)
class Contest:
    """What one call journals: the contenders' presses and the late presses seen during the lockout."""

    presses: tuple[Press, ...]
    late: tuple[Press, ...] = ()

    def to_action(self) -> dict[str, Any]:
        """The ``call`` action for the Ratuki engine (presses with their ticks, in order)."""
        action: dict[str, Any] = {"type": "call", "presses": [p.to_json() for p in self.presses]}
        if self.late:
            action["late"] = [p.to_json() for p in self.late]
        return action


def split(presses: Iterable[Press], window_ms: int) -> tuple[tuple[Press, ...], tuple[Press, ...]]:
    """Contenders (first press per seat within the window of the earliest press) and the rest, both sorted.

    Equal ticks are contenders together; a press exactly ``window_ms`` after the first is still inside.
    A seat's repeat presses (bounce, a second slap) are dropped: a seat counts once.
    """
    ordered = sorted(presses)
    if not ordered:
        return (), ()
    first = ordered[0].tick
    seen: set[int] = set()
    inside: list[Press] = []
    outside: list[Press] = []
    for press in ordered:
        if press.seat in seen:
            continue
        seen.add(press.seat)
        (inside if micros(press.tick - first) <= window_ms * 1000 else outside).append(press)
    return tuple(inside), tuple(outside)


def judge(contenders: Iterable[Press], window_ms: int, late: Iterable[Press] = ()) -> Verdict:
    """The verdict for a closed window. ``contenders`` must be non-empty; ``late`` only sets the margin."""
    inside = sorted(contenders)
    if not inside:
        raise ValueError("a contest needs at least one press")
    first = inside[0]
    closes_at = first.tick + window_ms / 1000
    if len({p.seat for p in inside}) > 1:
        seats: list[int] = []
        for press in inside:
            if press.seat not in seats:
                seats.append(press.seat)
        spread = micros(inside[-1].tick - first.tick) / 1000
        return Verdict(TIE, tuple(seats), first.tick, closes_at, spread_ms=spread)
    others = sorted(p for p in late if p.seat != first.seat)
    if others:
        margin = micros(others[0].tick - first.tick) / 1000
        return Verdict(TAKE, (first.seat,), first.tick, closes_at, margin_ms=margin, runner_up=others[0].seat)
    return Verdict(TAKE, (first.seat,), first.tick, closes_at)


def valid_tick(value: object) -> bool:
    """True for a finite number that is not a bool (what a journaled tick must be)."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


@dataclass(frozen=True)
class Step:
    """What one press did. ``kind``: "opened", "joined", "held" (past the open window: a late press once the
    window timer fires), "late" or "ignored" (``reason`` says why).

    A press whose tick proves that the window (or the lockout) is already over first closes the open
    contest: ``closed`` is then the verdict to show and ``finished`` the contest to journal. ``verdict`` is the
    current contest's verdict updated by a late press (the winner's margin), if any.
    """

    kind: str
    seat: int
    reason: str = ""
    closed: Verdict | None = None
    finished: Contest | None = None
    verdict: Verdict | None = None


@dataclass
class Referee:
    """The live referee the screen feeds: edges in, verdicts and contests out, no clock inside.

    The screen calls :meth:`press` / :meth:`release` for each button event, :meth:`close_window` when its
    window timer fires (``window_ms`` plus a little grace after the first press reached it) and
    :meth:`finish` when its lockout timer fires; the contest :meth:`finish` returns is journaled as one action.
    """

    window_ms: int
    lockout_ms: int
    min_press_ms: float = 3.0  # a press released sooner is a glitch on the wire (interference), not a hand
    down: set[int] = field(default_factory=set)
    _open: list[Press] = field(default_factory=list)
    _verdict: Verdict | None = None
    _contenders: tuple[Press, ...] = ()
    _late: list[Press] = field(default_factory=list)
    _last: Verdict | None = None
    _suspect: set[int] = field(default_factory=set)  # seats whose press in the open window may be a glitch

    @property
    def phase(self) -> str:
        """Either "idle" (no contest), "open" (window running) or "lockout" (verdict given, late presses collected)."""
        if self._open:
            return "open"
        return "lockout" if self._verdict is not None else "idle"

    @property
    def opened_at(self) -> float | None:
        """Tick of the earliest press of the open contest (None when no window is open)."""
        return min(self._open).tick if self._open else None

    @property
    def verdict(self) -> Verdict | None:
        """The verdict of the contest in lockout (updated with the margin as late presses come)."""
        return self._verdict

    @property
    def last_verdict(self) -> Verdict | None:
        """The verdict of the last finished contest (its lockout still guards against stale presses)."""
        return self._last

    def lockout_ends(self) -> float | None:
        """Tick at which the current lockout ends (None when not in lockout)."""
        if self._verdict is None:
            return None
        return self._verdict.closes_at + self.lockout_ms / 1000

    def _in_last_lockout(self, tick: float) -> bool:
        # Ticks before the last contest's first press can only come from a restarted button clock: a new epoch.
        last = self._last
        if last is None:
            return False
        end = last.closes_at + self.lockout_ms / 1000
        return micros(tick - last.first_tick) >= 0 and micros(end - tick) >= 0

    def release(self, seat: int, tick: float) -> bool:
        """A release edge: the seat may press again. A press in the open window released within
        ``min_press_ms`` is suspect: a glitch on the wire (interference; no hand presses that briefly) unless
        the seat presses again at once (contact bounce). Suspects still suspect when the window closes are not
        calls. Returns True when this release made the seat's press suspect."""
        self.down.discard(seat)
        for press in self._open:
            if press.seat == seat and 0 <= micros(tick - press.tick) < self.min_press_ms * 1000:
                self._suspect.add(seat)
                return True
        return False

    def press(self, seat: int, tick: float) -> Step:
        """A press edge. Held buttons (no release since the last press) never count twice."""
        if seat in self.down:
            return Step("ignored", seat, "held down: a held button does not call again")
        self.down.add(seat)
        closed: Verdict | None = None
        finished: Contest | None = None
        if self._open:
            # Only a press past the window AND its lockout proves the contest over; one just past the window
            # waits for the window timer (a press stamped inside it may still be on its way: delivery order
            # must not matter until then).
            first = min(self._open).tick
            if micros(tick - first) > (self.window_ms + self.lockout_ms) * 1000:
                closed = self.close_window()
        if self._verdict is not None:
            end = self.lockout_ends()
            assert end is not None
            if micros(tick - end) > 0:
                finished = self.finish()
            else:
                return self._late_press(seat, tick, closed)
        if self._in_last_lockout(tick):
            # Also when a new contest is open: a slap for the last stack delivered after the next call's press.
            return Step("ignored", seat, "during the lockout after the last call", closed, finished)
        if self._open:
            if any(p.seat == seat for p in self._open):
                self._suspect.discard(seat)  # pressed again at once: the short release was contact bounce
                return Step("ignored", seat, "already called this stack", closed, finished)
            self._open.append(Press(tick, seat))
            if micros(tick - min(self._open).tick) > self.window_ms * 1000:
                return Step("held", seat, "after the tie window: too late for this stack", closed, finished)
            return Step("joined", seat, "", closed, finished)
        self._open.append(Press(tick, seat))
        return Step("opened", seat, "", closed, finished)

    def _late_press(self, seat: int, tick: float, closed: Verdict | None) -> Step:
        assert self._verdict is not None
        if any(p.seat == seat for p in self._contenders) or any(p.seat == seat for p in self._late):
            return Step("ignored", seat, "already called this stack", closed)
        if micros(tick - self._verdict.first_tick) <= self.window_ms * 1000:
            # Stamped inside the window but delivered after the verdict was given: too late to change it.
            return Step("ignored", seat, "reached the referee after the verdict", closed)
        self._late.append(Press(tick, seat))
        self._verdict = judge(self._contenders, self.window_ms, self._late)
        return Step("late", seat, "after the tie window: too late for this stack", closed, verdict=self._verdict)

    def close_window(self) -> Verdict | None:
        """The window is over: judge the open contest (None if none is open). Presses past the window that
        were already received become late presses."""
        glitches, self._suspect = self._suspect, set()
        self._open = [p for p in self._open if p.seat not in glitches]
        if not self._open:
            return None
        inside, outside = split(self._open, self.window_ms)
        self._open = []
        self._contenders = inside
        self._late = list(outside)
        self._verdict = judge(inside, self.window_ms, self._late)
        return self._verdict

    def finish(self) -> Contest | None:
        """The lockout is over: hand back the complete contest to journal (closing the window first if the
        caller skipped that). Presses before the lockout's end tick stay ignored afterwards too."""
        if self._open:
            self.close_window()
        if self._verdict is None:
            return None
        self._last = self._verdict
        contest = Contest(self._contenders, tuple(sorted(self._late)))
        self._verdict = None
        self._contenders = ()
        self._late = []
        return contest
