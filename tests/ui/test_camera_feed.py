"""The camera feed thread (companion/ui/camera_feed.py) without Kivy: a screen's want() is never lost."""

from __future__ import annotations

import threading
import time
from typing import Any

from companion.ui.camera_feed import CameraFeed
from hardware.camera import Frame


class StillSource:
    def read(self) -> Frame:
        return Frame("frame", time.monotonic())


class WantedArrivingLate(threading.Event):
    """The feed's "a screen wants frames" flag; the first time the feed thread looks, a screen's want() arrives
    right after the look (the race: a probe's read had started, then the dice screen opened)."""

    def __init__(self) -> None:
        super().__init__()
        self.feed: CameraFeed | None = None
        self.raced = False
        self.processed: list[Any] = []  # the frames the screen's processor was given

    def is_set(self) -> bool:
        answer = super().is_set()
        if not self.raced and threading.current_thread().name == "camera-feed" and self.feed is not None:
            self.raced = True
            self.feed.want(True, self.processed.append)
        return answer


def test_a_want_arriving_while_a_probe_starts_is_not_lost() -> None:
    posts: list[tuple[str, Any]] = []
    feed = CameraFeed(StillSource(), lambda kind, data: posts.append((kind, data)), interval_s=0.01, retry_s=0.01)
    wanted = WantedArrivingLate()
    wanted.feed = feed
    feed._wanted = wanted
    try:
        feed.probe()
        deadline = time.monotonic() + 5
        while not wanted.processed and time.monotonic() < deadline:
            time.sleep(0.01)
        assert wanted.raced
        assert wanted.processed, "the screen asked for frames while a probe started, and none came"
    finally:
        feed.stop()


def test_a_frame_the_hub_dropped_does_not_stop_the_feed() -> None:
    """The hub drops items when its queue is full; the UI then never says it took that frame. Frames keep
    coming (the newest, after ``REPOST_S``), instead of the feed waiting for ever."""
    posts: list[Any] = []
    dropped = {"n": 0}

    def post(kind: str, data: Any) -> None:
        if kind != "frame":
            return
        if not dropped["n"]:
            dropped["n"] = 1  # the first frame is lost on its way
            return
        posts.append(data)

    feed = CameraFeed(StillSource(), post, interval_s=0.01, retry_s=0.01)
    try:
        feed.want(True, lambda frame: "read")
        deadline = time.monotonic() + 5
        while not posts and time.monotonic() < deadline:
            time.sleep(0.01)
        assert dropped["n"] and posts[0] == ("frame", "read")
    finally:
        feed.stop()


def test_feeds_still_reading_are_stopped_at_exit() -> None:
    from companion.ui import camera_feed

    feed = CameraFeed(StillSource(), lambda kind, data: None, interval_s=0.01, retry_s=0.01)
    feed.want(True)
    assert feed in camera_feed._RUNNING
    camera_feed._stop_all()  # what atexit runs
    assert feed not in camera_feed._RUNNING and feed._thread is not None and not feed._thread.is_alive()
