"""Fixtures for the hardware tests: gpiozero's MockFactory with edge ticks the test controls."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


class TickClock:
    """A settable clock: ``now`` seconds, moved on by ``advance``."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> float:
        self.now += seconds
        return self.now


@pytest.fixture
def make_clock() -> type[TickClock]:
    """The settable clock class (tests build their own clocks with it)."""
    return TickClock


@pytest.fixture
def edge_ticks(monkeypatch: pytest.MonkeyPatch) -> TickClock:
    """The clock gpiozero's mock pins stamp their edges with (the "kernel" edge time of these tests)."""
    clock = TickClock(1000.0)
    monkeypatch.setattr("gpiozero.pins.mock.monotonic", clock)
    return clock


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """A fresh MockFactory installed as gpiozero's default; reset and restored afterwards."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    previous = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        Device.pin_factory = previous
