"""The one queue through which hardware threads reach the UI.

GPIO callbacks and camera threads call :meth:`Hub.put` from any thread; the Kivy clock calls :meth:`Hub.drain`
on the UI thread, which hands each item to the handlers registered for its kind. Kivy-free, so it is unit-tested
without a window.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from typing import Any

Handler = Callable[[Any], None]


class Hub:
    """A thread-safe queue of ``(kind, payload)`` items, drained on the UI thread."""

    def __init__(self, *, wake: Callable[[], None] | None = None, max_items: int = 1000) -> None:
        self._queue: queue.Queue[tuple[str, Any]] = queue.Queue(maxsize=max_items)
        self._handlers: dict[str, list[Handler]] = {}
        self._wake = wake
        self.dropped = 0

    def set_wake(self, wake: Callable[[], None] | None) -> None:
        """A callable run after each ``put`` (a Kivy clock trigger) so draining happens on the next frame."""
        self._wake = wake

    def on(self, kind: str, handler: Handler) -> None:
        self._handlers.setdefault(kind, []).append(handler)

    def put(self, kind: str, payload: Any) -> None:
        """Queue an item (any thread). When the UI is stalled and the queue is full, the item is counted and
        dropped rather than blocking a GPIO thread."""
        try:
            self._queue.put_nowait((kind, payload))
        except queue.Full:
            self.dropped += 1
            return
        if self._wake is not None:
            self._wake()

    def drain(self, *_args: Any) -> int:
        """Deliver everything queued so far, in order (UI thread). Returns how many items were delivered."""
        count = 0
        while True:
            try:
                kind, payload = self._queue.get_nowait()
            except queue.Empty:
                return count
            count += 1
            for handler in list(self._handlers.get(kind, ())):
                handler(payload)
