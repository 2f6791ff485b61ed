"""The "round over?" question's timing, without Kivy: when it is due, and what starts its quiet stretch again."""

from __future__ import annotations

from companion.games.ratuki.stall import StallWatch


def test_asked_after_the_quiet_stretch_and_counted_in_whole_seconds() -> None:
    watch = StallWatch(45)
    watch.restart(100.0)
    assert watch.asking(144.9) is None
    assert watch.asking(145.0) == 45 and watch.asking(159.7) == 59


def test_a_new_round_call_or_keep_playing_starts_again() -> None:
    watch = StallWatch(30)
    watch.restart(0.0)
    assert watch.asking(59.0) == 59
    watch.restart(70.0)  # the next round starts: nothing carried over from the last one
    assert watch.asking(71.0) is None and watch.asking(100.0) == 30


def test_never_asked_while_not_running_or_when_off() -> None:
    watch = StallWatch(30)
    watch.restart(0.0)
    assert watch.asking(40.0, running=False) is None  # paused, or a call still being judged
    watch.stop()
    assert watch.asking(400.0) is None
    off = StallWatch(0)
    off.restart(0.0)
    assert off.asking(10_000.0) is None
