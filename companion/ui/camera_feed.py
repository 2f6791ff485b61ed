"""A background thread that reads the camera, optionally processes each frame, and hands the newest result
to the UI through the hub. Only the newest frame is kept: a slow UI never builds up a backlog."""

from __future__ import annotations

import atexit
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from hardware.camera import CameraUnavailable, Frame

Processor = Callable[[Frame], Any]
WAKE_CHECK_S = 0.5  # the feed thread looks at the "wanted" flag at least this often, even with no wake
REPOST_S = 1.0  # a posted frame the UI has not taken after this long is taken as lost, and the newest is posted


_RUNNING: weakref.WeakSet[CameraFeed] = weakref.WeakSet()


@atexit.register
def _stop_all() -> None:
    """At exit, stop every feed still reading: a daemon thread killed inside OpenCV or onnxruntime while the
    interpreter shuts down aborts the process ("terminate called without an active exception")."""
    for feed in list(_RUNNING):
        feed.stop()


class CameraFeed:
    """Reads ``source`` while at least one screen wants frames; posts ``("frame", (image, result))`` and
    ``("camera", problem_or_None)`` to the hub (the exception that stopped the frames, once per new problem;
    ``None`` when they flow). ``result`` is ``processor(frame)`` when one is set: it gets the whole
    :class:`~hardware.camera.Frame`, so it times the frame by when it was taken, not by when it is processed."""

    def __init__(
        self, source: Any, post: Callable[[str, Any], None], *, interval_s: float = 0.1, retry_s: float = 2.0
    ) -> None:
        self.source = source
        self._post = post
        self.interval_s = interval_s
        self.retry_s = retry_s
        self.processor: Processor | None = None
        self._wanted = threading.Event()  # a screen shows frames
        self._wake = threading.Event()  # read now: wanted, or one probe
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._consumed = threading.Event()
        self._consumed.set()
        self._posted_at = 0.0
        self.latest: tuple[Any, Any] | None = None
        self.error: str | None = None
        self._seen_frame = False

    def want(self, on: bool, processor: Processor | None = None) -> None:
        """Start or pause reading (screens call this on enter/leave)."""
        self.processor = processor if on else None
        if on:
            self._wanted.set()
            self._wake.set()
            self._ensure_thread()
        else:
            self._wanted.clear()
            self._wake.clear()

    def probe(self) -> None:
        """Read one frame just to check the camera (the app calls this every few seconds while no screen
        wants frames), so a camera unplugged or plugged back in mid-game is noticed without opening a screen."""
        if self._wanted.is_set() or self._stop.is_set():
            return
        self._wake.set()
        self._ensure_thread()

    def _ensure_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="camera-feed", daemon=True)
            _RUNNING.add(self)
            self._thread.start()

    def consumed(self) -> None:
        """The UI has shown the last frame; the next one may be posted."""
        self._consumed.set()

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        _RUNNING.discard(self)
        if self._thread is not None:
            self._thread.join(timeout=2)
        close = getattr(self.source, "close", None)
        if close is not None:
            close()

    def _run(self) -> None:
        while not self._stop.is_set():
            # A wake may be missed between threads; the wanted flag is the truth, so look at it every so often.
            self._wake.wait(WAKE_CHECK_S)
            if self._stop.is_set():
                return
            if not (self._wake.is_set() or self._wanted.is_set()):
                continue
            probing = not self._wanted.is_set()
            if probing:
                self._wake.clear()  # one read, then sleep until the next probe or want
                if self._wanted.is_set():  # a want() came between the check and the clear: keep its wake
                    self._wake.set()
            started = time.monotonic()
            try:
                frame = self.source.read()
            except (CameraUnavailable, OSError, RuntimeError) as err:
                problem = err if str(err) else CameraUnavailable("camera not available")
                message = str(problem)
                if message != self.error:
                    self.error = message
                    self._post("camera", problem)
                if not probing:
                    self._stop.wait(self.retry_s)
                continue
            if self.error is not None or not self._seen_frame:
                # Frames flow: clear any camera notice, including one from start-up (camera plugged in later).
                self.error = None
                self._seen_frame = True
                self._post("camera", None)
            if probing:
                continue
            processor = self.processor
            result = None
            if processor is not None:
                try:
                    result = processor(frame)
                except Exception as err:  # a vision bug must not kill the feed; show it instead
                    result = err
            self.latest = (frame.image, result)
            # One frame in flight; one the UI never took (the hub dropped it when full) is replaced after a while.
            if self._consumed.is_set() or time.monotonic() - self._posted_at > REPOST_S:
                self._consumed.clear()
                self._posted_at = time.monotonic()
                self._post("frame", self.latest)
            self._stop.wait(max(0.0, self.interval_s - (time.monotonic() - started)))
