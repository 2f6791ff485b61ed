"""Player buttons: one interface, a gpiozero backend and a fake.

Every backend produces :class:`ButtonEvent` values. ``tick`` is the edge time in seconds from the pin factory
(the kernel's edge timestamp on a Pi with lgpio; ``time.monotonic()`` in the mock and in the fake): compare ticks
only with each other, never with wall time. Debouncing is done here on those ticks (gpiozero's mock ignores
``bounce_time``), so a bouncing contact produces exactly one press.

Listeners are called on whatever thread the backend delivers edges on (gpiozero's callback thread for GPIO):
the UI hands events over to its own thread through a queue.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

Listener = Callable[["ButtonEvent"], None]

DEFAULT_BOUNCE_S = 0.015
DEFAULT_LONG_PRESS_S = 1.0


class ButtonsUnavailable(RuntimeError):
    """No GPIO on this machine (or the pins are taken); the message says why, for the on-screen banner."""


class ButtonKind(StrEnum):
    """What a button did; equal to its name as a string ("press", "release", "long")."""

    PRESS = "press"
    RELEASE = "release"
    LONG = "long"


@dataclass(frozen=True)
class ButtonEvent:
    """A press, release or long press of one seat's button.

    ``kind`` is a :class:`ButtonKind`; ``tick`` is the edge time (s, pin-factory clock); ``held`` is the
    press duration for releases and long presses; ``source`` is "gpio", "key", "touch" or "fake".
    """

    seat: int
    kind: ButtonKind
    tick: float
    held: float = 0.0
    source: str = "gpio"


class Debouncer:
    """Turns raw edges of one button into clean press/release/long events, using only edge ticks.

    The first edge of a change is reported at once (its tick is the true edge time); edges within ``bounce_s``
    of the last accepted edge are bounce and ignored. A second "down" while already down (a held button) is
    ignored too, so holding never counts twice. If the contact settles in the opposite state inside a bounce
    window (a glitch shorter than ``bounce_s``), the next edge or :meth:`poll` notices the stable level and
    reports the missed change at the tick it really happened, so the button never gets stuck.
    """

    def __init__(
        self,
        seat: int,
        *,
        bounce_s: float = DEFAULT_BOUNCE_S,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        source: str = "gpio",
    ) -> None:
        self.seat = seat
        self.bounce_s = bounce_s
        self.long_press_s = long_press_s
        self.source = source
        self._down_tick: float | None = None
        self._last_edge: float | None = None
        self._long_sent = False
        self._raw: bool = False  # level after the latest raw edge, accepted or not
        self._raw_tick: float | None = None

    @property
    def is_down(self) -> bool:
        """True between an accepted press and its release."""
        return self._down_tick is not None

    def edge(self, pressed: bool, tick: float) -> list[ButtonEvent]:
        """Feed one raw edge; returns the events it produces (none, one, or a missed change plus this one)."""
        events = self._settle(tick)
        self._raw, self._raw_tick = pressed, tick
        if self._last_edge is not None and tick - self._last_edge < self.bounce_s:
            return events
        if pressed == self.is_down:
            return events
        events.append(self._accept(pressed, tick))
        return events

    def poll(self, tick: float) -> list[ButtonEvent]:
        """Call periodically with the current tick: settles a hidden change, emits one "long" per press."""
        events = self._settle(tick)
        if self._down_tick is not None and not self._long_sent and tick - self._down_tick >= self.long_press_s:
            self._long_sent = True
            events.append(ButtonEvent(self.seat, ButtonKind.LONG, tick, tick - self._down_tick, self.source))
        return events

    def _accept(self, pressed: bool, tick: float) -> ButtonEvent:
        if pressed:
            self._down_tick, self._last_edge, self._long_sent = tick, tick, False
            return ButtonEvent(self.seat, ButtonKind.PRESS, tick, 0.0, self.source)
        held = tick - (self._down_tick if self._down_tick is not None else tick)
        self._down_tick, self._last_edge = None, tick
        return ButtonEvent(self.seat, ButtonKind.RELEASE, tick, held, self.source)

    def _settle(self, tick: float) -> list[ButtonEvent]:
        """Report a level that changed inside a bounce window and then stayed put for ``bounce_s``."""
        if self._raw_tick is None or self._raw == self.is_down:
            return []
        if self._last_edge is not None and tick - self._last_edge < self.bounce_s:
            return []
        if tick - self._raw_tick < self.bounce_s:
            return []
        return [self._accept(self._raw, self._raw_tick)]


class ButtonBoard:
    """Base for every backend: seats, listeners, debouncing. Subclasses call :meth:`_edge`.

    Listeners are called with the board's lock held, so events reach them in order even when edges (backend
    thread) and :meth:`poll` (UI thread) run at the same time; a listener should only queue the event.
    """

    source = "fake"

    def __init__(
        self,
        seats: list[int],
        *,
        bounce_s: float = DEFAULT_BOUNCE_S,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        clock: Callable[[], float] = time.monotonic,
        source: str | None = None,
    ) -> None:
        if source is not None:
            self.source = source
        self.clock = clock
        self._debouncers = {
            s: Debouncer(s, bounce_s=bounce_s, long_press_s=long_press_s, source=self.source) for s in seats
        }
        self._listeners: list[Listener] = []
        self._lock = threading.RLock()

    @property
    def seats(self) -> list[int]:
        """The seat numbers this board reports."""
        return sorted(self._debouncers)

    def add_listener(self, listener: Listener) -> None:
        """Call ``listener(event)`` for every event (on the backend's thread)."""
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
        """Stop calling ``listener``; unknown listeners are ignored."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def _emit(self, events: list[ButtonEvent]) -> None:
        for event in events:
            for listener in list(self._listeners):
                listener(event)

    def _edge(self, seat: int, pressed: bool, tick: float) -> None:
        debouncer = self._debouncers.get(seat)
        if debouncer is None:
            return
        with self._lock:
            debouncer.source = self.source  # the simulation board switches between "key" and "touch"
            self._emit(debouncer.edge(pressed, tick))

    def poll(self) -> None:
        """Emit long-press events (and settle glitches); the UI calls this a few times a second."""
        now = self.clock()
        with self._lock:
            for debouncer in self._debouncers.values():
                debouncer.source = self.source
                self._emit(debouncer.poll(now))

    def is_down(self, seat: int) -> bool:
        """Whether ``seat``'s button is pressed right now (after debouncing)."""
        return seat in self._debouncers and self._debouncers[seat].is_down

    def close(self) -> None:
        """Release pins and threads."""
        self._listeners.clear()


@dataclass(frozen=True)
class Edge:
    """A raw edge given to :class:`FakeButtons`: which seat, pressed or released, its tick, and from where."""

    seat: int
    pressed: bool
    tick: float
    source: str


class FakeButtons(ButtonBoard):
    """Buttons for tests and simulation: ``press(seat, at=...)`` and ``release(seat, at=...)``.

    ``at`` is the edge tick; without it the board's clock is read. Keyboard keys and on-screen buttons in
    simulation use this backend (``source="key"`` / ``"touch"`` on the board, or per call). Every raw edge is
    recorded in :attr:`edges` (like the states of gpiozero's ``MockPin``), so a test asserts what was pressed
    with :meth:`assert_edges`.
    """

    source = "fake"

    def __init__(
        self,
        seats: list[int],
        *,
        bounce_s: float = DEFAULT_BOUNCE_S,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        clock: Callable[[], float] = time.monotonic,
        source: str | None = None,
    ) -> None:
        super().__init__(seats, bounce_s=bounce_s, long_press_s=long_press_s, clock=clock, source=source)
        self.edges: list[Edge] = []

    def press(self, seat: int, *, at: float | None = None) -> None:
        """A raw "down" edge for ``seat``."""
        self._record(seat, True, self.clock() if at is None else at)

    def release(self, seat: int, *, at: float | None = None) -> None:
        """A raw "up" edge for ``seat``."""
        self._record(seat, False, self.clock() if at is None else at)

    def _record(self, seat: int, pressed: bool, tick: float) -> None:
        self.edges.append(Edge(seat, pressed, tick, self.source))
        self._edge(seat, pressed, tick)

    def assert_edges(self, expected: Sequence[tuple[int, bool]]) -> None:
        """Raise :class:`AssertionError` unless the raw edges given so far were exactly ``expected``: (seat,
        pressed) pairs in order (like gpiozero's ``MockPin.assert_states``; ticks are not compared)."""
        got = [(edge.seat, edge.pressed) for edge in self.edges]
        if got != list(expected):
            raise AssertionError(f"button edges {got}, expected {list(expected)}")

    def clear_edges(self) -> None:
        """Forget the recorded edges (the next :meth:`assert_edges` looks at what follows)."""
        self.edges.clear()

    def tap(self, seat: int, *, at: float | None = None, held: float = 0.08) -> None:
        """Press and release (``held`` seconds later)."""
        start = self.clock() if at is None else at
        self.press(seat, at=start)
        self.release(seat, at=start + held)
