"""Buttons: debouncing on edge ticks, long presses, the gpiozero backend on MockFactory, and the fallback."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware.buttons import ButtonEvent, ButtonsUnavailable, Debouncer, FakeButtons
from hardware.gpio import NO_GPIO_MESSAGE, GpioButtons, open_buttons

PINS = {1: 17, 2: 27, 3: 22}


def kinds(events: list[ButtonEvent]) -> list[tuple[int, str]]:
    return [(e.seat, e.kind) for e in events]


# -- Debouncer: pure timestamps ------------------------------------------------------------------------------


def feed(debouncer: Debouncer, edges: list[tuple[bool, float]]) -> list[ButtonEvent]:
    out: list[ButtonEvent] = []
    for pressed, tick in edges:
        out += debouncer.edge(pressed, tick)
    return out


def test_bounce_train_on_press_and_release_gives_one_press_and_one_release() -> None:
    d = Debouncer(1, bounce_s=0.015)
    train = [(True, 10.000), (False, 10.002), (True, 10.003), (False, 10.006), (True, 10.009)]
    train += [(False, 10.300), (True, 10.301), (False, 10.304), (True, 10.305), (False, 10.310)]
    events = feed(d, train)
    assert [(e.kind, e.tick) for e in events] == [("press", 10.000), ("release", 10.300)]
    assert events[1].held == pytest.approx(0.300)
    assert not d.is_down


def test_edges_just_outside_the_bounce_window_are_separate_presses() -> None:
    d = Debouncer(2, bounce_s=0.015)
    events = feed(d, [(True, 0.0), (False, 0.020), (True, 0.040), (False, 0.060)])
    assert [e.kind for e in events] == ["press", "release", "press", "release"]


def test_held_button_repeating_down_edges_does_not_press_twice() -> None:
    d = Debouncer(1, bounce_s=0.015)
    events = feed(d, [(True, 1.0), (True, 1.5), (True, 2.0)])
    assert [e.kind for e in events] == ["press"]


def test_long_press_is_reported_once_while_held_then_release_carries_duration() -> None:
    d = Debouncer(1, bounce_s=0.015, long_press_s=1.0)
    assert [e.kind for e in d.edge(True, 5.0)] == ["press"]
    assert d.poll(5.5) == []
    long_events = d.poll(6.0)
    assert [(e.kind, e.held) for e in long_events] == [("long", 1.0)]
    assert d.poll(6.5) == [] and d.poll(9.0) == []
    (release,) = d.edge(False, 9.25)
    assert (release.kind, release.held) == ("release", 4.25)


def test_short_press_never_becomes_long() -> None:
    d = Debouncer(1, long_press_s=1.0)
    feed(d, [(True, 0.0), (False, 0.2)])
    assert d.poll(5.0) == []


def test_release_hidden_in_bounce_window_is_recovered_at_its_real_tick() -> None:
    # A 5 ms glitch: down, then up inside the bounce window, and the contact stays up.
    d = Debouncer(3, bounce_s=0.015)
    assert [e.kind for e in d.edge(True, 1.000)] == ["press"]
    assert d.edge(False, 1.005) == []
    assert d.is_down  # still unknown: could be bounce
    assert d.poll(1.010) == []  # the level has not been stable for a bounce period yet
    (release,) = d.poll(1.030)
    assert (release.kind, release.tick, round(release.held, 6)) == ("release", 1.005, 0.005)
    # The next real press is then reported normally instead of being swallowed as "already down".
    assert [(e.kind, e.tick) for e in d.edge(True, 2.0)] == [("press", 2.0)]


def test_hidden_release_is_also_settled_by_the_next_edge() -> None:
    d = Debouncer(3, bounce_s=0.015)
    feed(d, [(True, 1.000), (False, 1.005)])
    events = d.edge(True, 2.0)
    assert [(e.kind, e.tick) for e in events] == [("release", 1.005), ("press", 2.0)]


# -- FakeButtons --------------------------------------------------------------------------------------------


def test_fake_buttons_press_at_ticks_and_listeners(make_clock: Any) -> None:
    clock = make_clock(100.0)
    board = FakeButtons([1, 2], clock=clock, source="key")
    seen: list[ButtonEvent] = []
    board.add_listener(seen.append)
    board.tap(2, at=3.0, held=0.1)
    board.press(1)
    board.press(9)  # unknown seat: ignored
    clock.advance(1.5)
    board.poll()
    assert [(e.seat, e.kind, e.tick, e.source) for e in seen] == [
        (2, "press", 3.0, "key"),
        (2, "release", pytest.approx(3.1), "key"),
        (1, "press", 100.0, "key"),
        (1, "long", 101.5, "key"),
    ]
    assert board.is_down(1) and not board.is_down(2)
    board.remove_listener(seen.append)
    board.release(1)
    assert len(seen) == 4
    # every raw edge is recorded, unknown seats and edges nobody listened to included (gpiozero's MockPin.states)
    board.assert_edges([(2, True), (2, False), (1, True), (9, True), (1, False)])
    assert [(e.tick, e.source) for e in board.edges[:2]] == [(3.0, "key"), (pytest.approx(3.1), "key")]
    with pytest.raises(AssertionError, match=r"button edges \[\(2, True\)"):
        board.assert_edges([(1, True)])
    board.clear_edges()
    board.assert_edges([])


# -- GpioButtons on gpiozero's MockFactory -----------------------------------------------------------------


@pytest.fixture
def gpio(mock_factory: Any, edge_ticks: Any, make_clock: Any) -> Iterator[tuple[GpioButtons, list[ButtonEvent], Any]]:
    board_clock = make_clock(50.0)  # Python's arrival time: deliberately unrelated to the edge ticks
    board = GpioButtons(PINS, pin_factory=mock_factory, clock=board_clock)
    events: list[ButtonEvent] = []
    board.add_listener(events.append)
    try:
        yield board, events, edge_ticks
    finally:
        for pin in PINS.values():  # release every button: a held one makes gpiozero's teardown wait
            mock_factory.pin(pin).drive_high()
        board.close()


def test_gpio_press_and_release_use_the_factory_edge_ticks(gpio: Any, mock_factory: Any) -> None:
    board, events, ticks = gpio
    pin = mock_factory.pin(PINS[1])
    pin.drive_low()
    ticks.advance(0.250)
    pin.drive_high()
    # Both edges arrived at the same Python time (the board clock never moved), yet the release is 250 ms later.
    assert kinds(events) == [(1, "press"), (1, "release")]
    assert events[1].tick - events[0].tick == pytest.approx(0.250)
    assert events[1].held == pytest.approx(0.250)
    assert {e.source for e in events} == {"gpio"}
    assert board.seats == [1, 2, 3]


def test_gpio_bounce_train_is_one_press(gpio: Any, mock_factory: Any) -> None:
    _board, events, ticks = gpio
    pin = mock_factory.pin(PINS[2])
    for _ in range(4):  # 4 ms of chatter; the mock ignores bounce_time, our debouncer does not
        pin.drive_low()
        ticks.advance(0.001)
        pin.drive_high()
        ticks.advance(0.001)
    pin.drive_low()
    ticks.advance(0.2)
    pin.drive_high()
    ticks.advance(0.002)
    pin.drive_low()
    ticks.advance(0.002)
    pin.drive_high()
    assert kinds(events) == [(2, "press"), (2, "release")]
    assert events[1].held == pytest.approx(0.008 + 0.2)


def test_gpio_who_pressed_first_follows_edge_ticks(gpio: Any, mock_factory: Any) -> None:
    _board, events, ticks = gpio
    mock_factory.pin(PINS[3]).drive_low()
    ticks.advance(0.003)
    mock_factory.pin(PINS[1]).drive_low()
    presses = [e for e in events if e.kind == "press"]
    assert [e.seat for e in sorted(presses, key=lambda e: e.tick)] == [3, 1]
    assert presses[1].tick - presses[0].tick == pytest.approx(0.003)


def test_gpio_held_button_long_press_once_and_no_repeat(gpio: Any, mock_factory: Any) -> None:
    board, events, _ticks = gpio
    mock_factory.pin(PINS[1]).drive_low()
    for _ in range(30):  # 3 s of UI polling at 10 Hz
        board.clock.advance(0.1)
        board.poll()
    assert kinds(events) == [(1, "press"), (1, "long")]
    assert board.is_down(1) and not board.is_down(2)


def test_gpio_ticks_survive_factory_wraparound(
    mock_factory: Any, monkeypatch: pytest.MonkeyPatch, make_clock: Any
) -> None:
    # A pigpio-style factory: unsigned 32-bit microsecond ticks that wrap every 71.6 minutes.
    mock_factory.ticks_diff = lambda later, earlier: ((later - earlier) % 0x100000000) / 1_000_000
    raw = make_clock(0x100000000 - 100_000)  # 0.1 s before the wrap
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", raw)
    board = GpioButtons({1: 5}, pin_factory=mock_factory, clock=make_clock(7.0))
    events: list[ButtonEvent] = []
    board.add_listener(events.append)
    pin = mock_factory.pin(5)
    try:
        pin.drive_low()
        raw.now = 200_000  # wrapped: 0.3 s after the press
        pin.drive_high()
    finally:
        pin.drive_high()
        board.close()
    assert kinds(events) == [(1, "press"), (1, "release")]
    assert events[0].tick == 7.0
    assert events[1].held == pytest.approx(0.3)


def test_gpio_close_releases_pins_for_reuse(mock_factory: Any) -> None:
    from gpiozero.exc import GPIOPinInUse

    board = GpioButtons({1: 6}, pin_factory=mock_factory)
    events: list[ButtonEvent] = []
    board.add_listener(events.append)
    pin = mock_factory.pin(6)
    assert pin.when_changed is not None
    with pytest.raises(GPIOPinInUse):  # claimed while the board is open
        gpiozero_button(6, mock_factory)
    board.close()
    board.close()  # twice is fine
    assert pin.when_changed is None  # no edge reaches the closed board
    pin.drive_low()
    pin.drive_high()
    assert events == []
    again = GpioButtons({1: 6}, pin_factory=mock_factory)  # the pin is free again
    try:
        again.add_listener(events.append)
        pin.drive_low()
        assert kinds(events) == [(1, "press")]
    finally:
        pin.drive_high()
        again.close()


def gpiozero_button(pin: int, factory: Any) -> Any:
    from gpiozero import Button

    return Button(pin, pin_factory=factory)


def test_gpio_uses_only_gpiozeros_public_pin_api(mock_factory: Any) -> None:
    """The edge ticks come through the pin's documented ``when_changed``, not a device's private hook."""
    import hardware.gpio as gpio_module

    source = Path(gpio_module.__file__).read_text(encoding="utf-8")
    code = "\n".join(line for line in source.splitlines() if not line.lstrip().startswith("#"))
    assert "def _pin_changed" not in code and "super()._pin_changed" not in code
    board = GpioButtons({1: 5}, pin_factory=mock_factory)
    try:
        assert type(board._devices[1]).__name__ == "InputDevice"
        assert board.pin_factory is mock_factory
    finally:
        board.close()


def test_gpio_rejects_two_seats_on_one_pin(mock_factory: Any) -> None:
    with pytest.raises(ButtonsUnavailable, match="seats 1 and 2 are both wired to GPIO17"):
        GpioButtons({1: 17, 2: 17}, pin_factory=mock_factory)


# -- open_buttons: backend choice and fallback -------------------------------------------------------------


def test_open_buttons_falls_back_when_there_is_no_pin_factory(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    def no_factory() -> None:
        raise BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_factory))
    board, message = open_buttons(PINS)
    assert isinstance(board, FakeButtons)
    assert message == NO_GPIO_MESSAGE == "No GPIO found: using keys 1–5 and on-screen buttons"
    assert board.seats == [1, 2, 3]
    seen: list[ButtonEvent] = []
    board.add_listener(seen.append)
    board.tap(2, at=1.0)
    assert kinds(seen) == [(2, "press"), (2, "release")]


@pytest.mark.skipif(os.environ.get("COMPANION_PI_TESTS") == "1", reason="this machine may have real GPIO")
def test_open_buttons_on_this_pc_without_gpio_does_not_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    from gpiozero import Device

    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    board, message = open_buttons(PINS, backend="gpio")
    try:
        if isinstance(board, GpioButtons):  # a developer machine that does have GPIO
            assert message is None
        else:
            assert message is not None and "using keys 1–5" in message
    finally:
        board.close()


def test_open_buttons_falls_back_when_a_pin_is_busy(mock_factory: Any) -> None:
    from gpiozero import Button

    other = Button(27, pin_factory=mock_factory)  # another program holds seat 2's pin
    try:
        board, message = open_buttons(PINS, pin_factory=mock_factory)
        assert isinstance(board, FakeButtons)
        assert message is not None
        assert "already in use" in message and message.endswith("using keys 1–5 and on-screen buttons")
        # The pins claimed before the failure were released again.
        again = GpioButtons({1: 17}, pin_factory=mock_factory)
        again.close()
    finally:
        other.close()


def test_open_buttons_backends() -> None:
    board, message = open_buttons({1: 17}, backend="fake")
    assert type(board) is FakeButtons and message is None
    board, message = open_buttons({1: 17}, backend="mock")
    try:
        assert isinstance(board, GpioButtons) and message is None
    finally:
        board.close()
    board, message = open_buttons({1: 17}, backend="bluetooth")
    assert isinstance(board, FakeButtons) and message is not None and "bluetooth" in message


def test_open_buttons_reports_bad_pin_numbers(mock_factory: Any) -> None:
    board, message = open_buttons({1: 40}, pin_factory=mock_factory)
    assert isinstance(board, FakeButtons)
    assert message is not None and "seat 1" in message and "40" in message


# -- on a real Pi only -------------------------------------------------------------------------------------


@pytest.mark.pi
@pytest.mark.skipif(os.environ.get("COMPANION_PI_TESTS") != "1", reason="set COMPANION_PI_TESTS=1 on a Raspberry Pi")
def test_real_gpio_buttons_on_a_pi() -> None:
    """Claims the configured pins through the real pin factory (lgpio) and checks the resting level."""
    pins = {seat: int(pin) for seat, pin in enumerate(os.environ.get("COMPANION_PI_PINS", "17").split(","), 1)}
    board, message = open_buttons(pins, backend="gpio")
    try:
        assert message is None, message
        assert isinstance(board, GpioButtons)
        factory = board.pin_factory
        assert "Mock" not in type(factory).__name__
        tick = board._seconds(factory.ticks())
        assert abs(tick - board.clock()) < 0.1
        for seat, pin in pins.items():  # pulled up: high at rest, low while pressed (wired to ground)
            assert factory.pin(pin).state, f"seat {seat}'s button reads pressed at rest: check the wiring"
    finally:
        board.close()


def test_fake_board_source_can_switch_between_keys_and_touch() -> None:
    board = FakeButtons([1])
    seen: list[ButtonEvent] = []
    board.add_listener(seen.append)
    board.source = "key"
    board.press(1, at=1.0)
    board.source = "touch"
    board.release(1, at=1.2)
    assert [(e.kind, e.source) for e in seen] == [("press", "key"), ("release", "touch")]
