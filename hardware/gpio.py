"""Player buttons on GPIO: gpiozero input pins timed by the pin factory's edge ticks, and the backend choice.

:func:`open_buttons` is what the app calls: it never raises, and when there is no GPIO (a PC) or the pins are
busy it returns the keyboard/touch board with a message for the on-screen banner.

Edge times come through gpiozero's public pin API: each seat is a plain ``InputDevice`` (pull-up, pins claimed
and released by gpiozero) whose ``pin.when_changed`` is called with ``(ticks, state)`` for every edge, the ticks
being the factory's own (the kernel's edge timestamp with lgpio). A ``Button``'s ``when_pressed`` and
``when_released`` would give no ticks (only the moment Python runs the callback), and the ticks reach a device
only through its private ``_pin_changed``; the pin's ``when_changed`` is the documented way to have them.
"""

from __future__ import annotations

import contextlib
import threading
import time
import warnings
from collections.abc import Callable, Mapping
from typing import Any

from hardware.buttons import (
    DEFAULT_BOUNCE_S,
    DEFAULT_LONG_PRESS_S,
    ButtonBoard,
    ButtonsUnavailable,
    FakeButtons,
)

# A GPIO edge reaches Python within milliseconds of its kernel timestamp; a bigger disagreement between the
# pin factory's ticks and the board clock means the ticks wrapped (pigpio: every 71.6 min) or jumped.
RESYNC_S = 5.0

FALLBACK_TAIL = "using keys 1–5 and on-screen buttons"
NO_GPIO_MESSAGE = f"No GPIO found: {FALLBACK_TAIL}"
BACKENDS = ("auto", "gpio", "mock", "fake")


class GpioButtons(ButtonBoard):
    """One gpiozero input pin per seat (BCM pin numbers, wired to ground, internal pull-ups).

    Edges are timed with the pin factory's own ticks (the kernel edge timestamp with lgpio), not with the
    moment Python gets to run the callback, so who-pressed-first is decided by the hardware. Ticks are turned
    into seconds on the board clock's scale with the factory's ``ticks_diff`` (which handles wrap-around), so
    differences between edges are exact and ticks stay comparable with :meth:`ButtonBoard.poll`. Only gpiozero's
    public API is used (``InputDevice``, ``pin.when_changed``, ``pin_factory.ticks_diff``).

    ``pin_factory`` is passed to gpiozero (``None``: its default, ``BadPinFactory`` on a PC). Any failure to
    claim the pins is raised as :class:`ButtonsUnavailable` with a message for the banner.
    """

    source = "gpio"

    def __init__(
        self,
        pins: Mapping[int, int],
        *,
        pin_factory: Any = None,
        bounce_s: float = DEFAULT_BOUNCE_S,
        long_press_s: float = DEFAULT_LONG_PRESS_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__(sorted(pins), bounce_s=bounce_s, long_press_s=long_press_s, clock=clock)
        self.pins = dict(pins)
        self._devices: dict[int, Any] = {}
        # gpiozero keeps only a weak reference to a pin's when_changed: the handlers live here.
        self._handlers: dict[int, Callable[[Any, Any], None]] = {}
        self._tick_lock = threading.Lock()
        self._anchor: tuple[Any, float] | None = None  # (raw factory ticks, seconds on the board clock)
        self.pin_factory: Any = None
        _check_pins(self.pins)
        try:
            from gpiozero import InputDevice

            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero warns once per factory it fails to load
                for seat, pin in sorted(self.pins.items()):
                    device = InputDevice(pin, pull_up=True, pin_factory=pin_factory)
                    self._devices[seat] = device
                    handler = self._handlers[seat] = self._make_handler(seat)
                    device.pin.bounce = None  # debounced here, on the edge ticks (the mock ignores it anyway)
                    device.pin.edges = "both"
                    device.pin.when_changed = handler
            self.pin_factory = next(iter(self._devices.values())).pin_factory if self._devices else pin_factory
        except Exception as err:
            self.close()
            raise ButtonsUnavailable(_describe_gpio_error(err, self.pins)) from err

    def _make_handler(self, seat: int) -> Callable[[Any, Any], None]:
        def handler(ticks: Any, state: Any) -> None:
            # Wired to ground with a pull-up: a pressed button pulls the pin low.
            self._edge(seat, not state, self._seconds(ticks))

        return handler

    def _seconds(self, ticks: Any) -> float:
        """Factory ticks → seconds on the board clock's scale (exact between edges, resynced after a wrap)."""
        now = self.clock()
        factory = self.pin_factory
        with self._tick_lock:
            if self._anchor is not None and factory is not None:
                raw0, sec0 = self._anchor
                tick = sec0 + float(factory.ticks_diff(ticks, raw0))
                if abs(now - tick) <= RESYNC_S:
                    return tick
            self._anchor = (ticks, now)
            return now

    def close(self) -> None:
        """Release the pins (safe to call twice)."""
        super().close()
        devices, self._devices = self._devices, {}
        for device in devices.values():
            with contextlib.suppress(Exception):  # best effort: a pin that cannot be released is gone anyway
                device.pin.when_changed = None
            with contextlib.suppress(Exception):
                device.close()
        self._handlers.clear()


def _check_pins(pins: Mapping[int, int]) -> None:
    seen: dict[int, int] = {}
    for seat, pin in sorted(pins.items()):
        if not isinstance(pin, int) or isinstance(pin, bool) or not 0 <= pin <= 27:
            raise ButtonsUnavailable(f"seat {seat}: GPIO pin must be a BCM number 0–27, not {pin!r}")
        if pin in seen:
            raise ButtonsUnavailable(f"seats {seen[pin]} and {seat} are both wired to GPIO{pin}")
        seen[pin] = seat


def _describe_gpio_error(err: Exception, pins: Mapping[int, int]) -> str:
    from gpiozero.exc import BadPinFactory, GPIOPinInUse

    if isinstance(err, BadPinFactory):
        return "no GPIO pin factory on this machine (not a Raspberry Pi, or lgpio is not installed)"
    if isinstance(err, GPIOPinInUse):
        return f"a button pin is already in use by another program ({err})"
    wired = ", ".join(f"seat {s}: GPIO{p}" for s, p in sorted(pins.items()))
    return f"cannot open the button pins ({wired}): {type(err).__name__}: {err}"


def open_buttons(
    pins: Mapping[int, int],
    *,
    backend: str = "auto",
    pin_factory: Any = None,
    bounce_s: float = DEFAULT_BOUNCE_S,
    long_press_s: float = DEFAULT_LONG_PRESS_S,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[ButtonBoard, str | None]:
    """The button board for ``backend`` and a banner message when it had to fall back; never raises.

    ``pins`` maps seat → BCM pin. "auto" and "gpio" use gpiozero (``pin_factory`` or its default) and fall back
    to :class:`FakeButtons` (keys and on-screen buttons) with a message when there is no GPIO or the pins are
    busy; "mock" uses gpiozero's ``MockFactory`` (a laptop with pretend pins); "fake" is the simulation board.
    """
    seats = sorted(pins)
    options: dict[str, Any] = {"bounce_s": bounce_s, "long_press_s": long_press_s, "clock": clock}
    if backend == "fake":
        return FakeButtons(seats, **options), None
    if backend not in BACKENDS:
        message = f"Unknown buttons backend {backend!r} (use {', '.join(BACKENDS)}): {FALLBACK_TAIL}"
        return FakeButtons(seats, **options), message
    if backend == "mock" and pin_factory is None:
        from gpiozero.pins.mock import MockFactory

        pin_factory = MockFactory()
    try:
        return GpioButtons(pins, pin_factory=pin_factory, **options), None
    except ButtonsUnavailable as err:
        cause = err.__cause__
        from gpiozero.exc import BadPinFactory

        if isinstance(cause, BadPinFactory):
            message = NO_GPIO_MESSAGE
        else:
            message = f"GPIO buttons unavailable ({err}): {FALLBACK_TAIL}"
        return FakeButtons(seats, **options), message
