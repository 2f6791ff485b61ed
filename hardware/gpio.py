"""Player buttons on GPIO: gpiozero ``Button``s timed by the pin factory's edge ticks, and the backend choice.

:func:`open_buttons` is what the app calls: it never raises, and when there is no GPIO (a PC) or the pins are
busy it returns the keyboard/touch board with a message for the on-screen banner.
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
    """One gpiozero ``Button`` per seat (BCM pin numbers, wired to ground, internal pull-ups).

    Edges are timed with the pin factory's own ticks (the kernel edge timestamp with lgpio), not with the
    moment Python gets to run the callback, so who-pressed-first is decided by the hardware. Ticks are turned
    into seconds on the board clock's scale with the factory's ``ticks_diff`` (which handles wrap-around), so
    differences between edges are exact and ticks stay comparable with :meth:`ButtonBoard.poll`.
    This uses gpiozero's private ``_pin_changed`` hook: gpiozero is pinned to 2.0.1 for it.

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
        self._buttons: dict[int, Any] = {}
        self._tick_lock = threading.Lock()
        self._anchor: tuple[Any, float] | None = None  # (raw factory ticks, seconds on the board clock)
        self._factory: Any = None
        _check_pins(self.pins)
        try:
            button_class = _edge_button_class()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # gpiozero warns once per factory it fails to load
                for seat, pin in sorted(self.pins.items()):
                    self._buttons[seat] = button_class(
                        pin, on_edge=self._make_handler(seat), pull_up=True, bounce_time=None, pin_factory=pin_factory
                    )
            self._factory = next(iter(self._buttons.values())).pin_factory if self._buttons else pin_factory
        except Exception as err:
            self.close()
            raise ButtonsUnavailable(_describe_gpio_error(err, self.pins)) from err

    def _make_handler(self, seat: int) -> Callable[[Any, bool], None]:
        def handler(ticks: Any, pressed: bool) -> None:
            self._edge(seat, pressed, self._seconds(ticks))

        return handler

    def _seconds(self, ticks: Any) -> float:
        """Factory ticks → seconds on the board clock's scale (exact between edges, resynced after a wrap)."""
        now = self.clock()
        factory = self._factory
        with self._tick_lock:
            if self._anchor is not None and factory is not None:
                raw0, sec0 = self._anchor
                tick = sec0 + float(factory.ticks_diff(ticks, raw0))
                if abs(now - tick) <= RESYNC_S:
                    return tick
            self._anchor = (ticks, now)
            return now

    def pressed_now(self, seat: int) -> bool:
        """The raw pin level of ``seat`` (for the button test screen), not debounced."""
        button = self._buttons.get(seat)
        return bool(button is not None and button.is_pressed)

    def close(self) -> None:
        """Release the pins (safe to call twice)."""
        super().close()
        buttons, self._buttons = self._buttons, {}
        for button in buttons.values():
            with contextlib.suppress(Exception):  # best effort: a pin that cannot be released is gone anyway
                button.close()


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


_EDGE_BUTTON: type | None = None


def _edge_button_class() -> type:
    """A gpiozero ``Button`` that also reports every raw edge with the factory's tick (built on first use)."""
    global _EDGE_BUTTON
    if _EDGE_BUTTON is None:
        from gpiozero import Button

        class EdgeButton(Button):  # type: ignore[misc]
            def __init__(self, pin: Any, *, on_edge: Callable[[Any, bool], None], **kwargs: Any) -> None:
                self._on_edge = on_edge  # set first: edges may arrive while Button.__init__ runs
                super().__init__(pin, **kwargs)

            def _pin_changed(self, ticks: Any, state: Any) -> None:
                # gpiozero 2.0.1 calls this from the pin's when_changed with the factory's edge ticks.
                self._on_edge(ticks, bool(self._state_to_value(state)))
                super()._pin_changed(ticks, state)

        _EDGE_BUTTON = EdgeButton
    return _EDGE_BUTTON


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
