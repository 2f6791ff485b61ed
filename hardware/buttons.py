"""Player buttons: one interface, a gpiozero backend and a fake.

Every backend produces :class:`ButtonEvent` values. ``tick`` is the edge time in seconds from the pin factory
(the kernel's edge timestamp on a Pi with lgpio; ``time.monotonic()`` in the mock and in the fake): compare ticks
only with each other, never with wall time. Debouncing is done here on those ticks (gpiozero's mock ignores
``bounce_time``), so a bouncing contact produces exactly one press.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

Listener = Callable[["ButtonEvent"], None]

DEFAULT_BOUNCE_S = 0.015
DEFAULT_LONG_PRESS_S = 1.0


class ButtonsUnavailable(RuntimeError):
    """No GPIO on this machine (or the pins are taken); the message says why, for the on-screen banner."""


@dataclass(frozen=True)
class ButtonEvent:
    """A press, release or long press of one seat's button.

    ``kind`` is "press", "release" or "long"; ``tick`` is the edge time (s, pin-factory clock); ``held`` is the
    press duration for releases and long presses; ``source`` is "gpio", "key", "touch" or "fake".
    """

    seat: int
    kind: str
    tick: float
    held: float = 0.0
    source: str = "gpio"


class Debouncer:
    """Turns raw edges of one button into clean press/release/long events, using only edge ticks.

    An edge that comes within ``bounce_s`` of the last accepted edge is bounce and ignored; a second "down"
    while already down (a held button) is ignored too, so holding never counts twice.
    """

    def __init__(self, seat: int, *, bounce_s: float = DEFAULT_BOUNCE_S, long_press_s: float = DEFAULT_LONG_PRESS_S,
                 source: str = "gpio") -> None:
        self.seat = seat
        self.bounce_s = bounce_s
        self.long_press_s = long_press_s
        self.source = source
        self._down_tick: float | None = None
        self._last_edge: float | None = None
        self._long_sent = False

    @property
    def is_down(self) -> bool:
        return self._down_tick is not None

    def edge(self, pressed: bool, tick: float) -> list[ButtonEvent]:
        """Feed one raw edge; returns the events it produces (zero or one)."""
        if self._last_edge is not None and tick - self._last_edge < self.bounce_s:
            return []
        if pressed:
            if self._down_tick is not None:
                return []
            self._down_tick, self._last_edge, self._long_sent = tick, tick, False
            return [ButtonEvent(self.seat, "press", tick, 0.0, self.source)]
        if self._down_tick is None:
            return []
        held = tick - self._down_tick
        self._down_tick, self._last_edge = None, tick
        return [ButtonEvent(self.seat, "release", tick, held, self.source)]

    def poll(self, tick: float) -> list[ButtonEvent]:
        """Call periodically with the current tick: emits one "long" event once a press is held long enough."""
        if self._down_tick is not None and not self._long_sent and tick - self._down_tick >= self.long_press_s:
            self._long_sent = True
            return [ButtonEvent(self.seat, "long", tick, tick - self._down_tick, self.source)]
        return []


class ButtonBoard:
    """Base for every backend: seats 1..n, listeners, debouncing. Subclasses call :meth:`_edge`."""

    source = "fake"

    def __init__(self, seats: list[int], *, bounce_s: float = DEFAULT_BOUNCE_S,
                 long_press_s: float = DEFAULT_LONG_PRESS_S, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._debouncers = {s: Debouncer(s, bounce_s=bounce_s, long_press_s=long_press_s, source=self.source)
                            for s in seats}
        self._listeners: list[Listener] = []
        self._lock = threading.Lock()

    @property
    def seats(self) -> list[int]:
        return sorted(self._debouncers)

    def add_listener(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: Listener) -> None:
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
            events = debouncer.edge(pressed, tick)
        self._emit(events)

    def poll(self) -> None:
        """Emit long-press events; the UI calls this a few times a second."""
        now = self.clock()
        with self._lock:
            events = [e for d in self._debouncers.values() for e in d.poll(now)]
        self._emit(events)

    def is_down(self, seat: int) -> bool:
        return seat in self._debouncers and self._debouncers[seat].is_down

    def close(self) -> None:
        """Release pins and threads."""
        self._listeners.clear()


class FakeButtons(ButtonBoard):
    """Buttons for tests and simulation: ``press(seat, at=...)`` and ``release(seat, at=...)``.

    ``at`` is the edge tick; without it the board's clock is read. Keyboard keys and on-screen buttons in
    simulation use this backend with ``source="key"`` / ``"touch"``.
    """

    source = "fake"

    def press(self, seat: int, *, at: float | None = None) -> None:
        self._edge(seat, True, self.clock() if at is None else at)

    def release(self, seat: int, *, at: float | None = None) -> None:
        self._edge(seat, False, self.clock() if at is None else at)

    def tap(self, seat: int, *, at: float | None = None, held: float = 0.08) -> None:
        """Press and release (``held`` seconds later)."""
        start = self.clock() if at is None else at
        self.press(seat, at=start)
        self.release(seat, at=start + held)
