"""Helpers for UI tests: one offscreen window per test run, a fresh app per test, real touches, screenshots.

Usage::

    from ui_support import UI
    def test_home(ui: UI) -> None:        # the ``ui`` fixture is in tests/ui/conftest.py
        ui.tap(ui.screen("home").ids.resume)
        ui.screenshot("home")
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SHOTS = Path(__file__).resolve().parent / "screenshots"


class FakeCamera:
    """A camera showing one frame (the test may swap ``frame``) that the test can unplug (``present = False``)."""

    def __init__(self, frame: Any, name: str = "test camera") -> None:
        self.frame = frame
        self.name = name
        self.present = True

    def open(self) -> None:
        pass

    def read(self) -> Any:
        from hardware.camera import CameraUnavailable

        if not self.present:
            raise CameraUnavailable("test camera unplugged")
        return self.frame  # the same object: tests may wait for the screen to show exactly this frame

    def close(self) -> None:
        pass


class UI:
    """A running :class:`CompanionApp` driven frame by frame from the test."""

    def __init__(
        self, tmp: Path, *, simulate: bool = True, config_text: str | None = None, journal_path: Path | None = None
    ) -> None:
        from companion.ui.launch import make_app, prepare_environment

        prepare_environment(headless=True)
        config_path = tmp / "config.toml"
        if config_text is not None:
            config_path.write_text(config_text, encoding="utf-8")
        self.journal_path = journal_path or tmp / "journal.sqlite3"
        self.app = make_app(simulate=simulate, config_path=config_path, journal_path=self.journal_path)
        # Every camera feed this app had: a test may replace or drop the app's feed, and close() stops them all
        # (a feed thread left reading, in OpenCV or onnxruntime, when the interpreter exits aborts the process).
        self.feeds = [self.app.feed] if self.app.feed is not None else []
        self.clock_value = 1000.0
        self.app.now = lambda: self.clock_value
        from kivy.base import EventLoop
        from kivy.core.window import Window

        self.window = Window
        Window.size = (800, 480)
        self.app._run_prepare()
        EventLoop.ensure_window()
        self.advance(3)

    # -- driving -----------------------------------------------------------------------------------------

    def advance(self, frames: int = 1, *, seconds: float = 0.0) -> None:
        """Run the Kivy loop for ``frames`` frames (the clock really ticks; ``seconds`` sleeps between)."""
        from kivy.base import EventLoop

        for _ in range(frames):
            if seconds:
                time.sleep(seconds / frames)
            EventLoop.idle()

    def wait_until(self, condition: Callable[[], bool], timeout_s: float = 5.0) -> bool:
        """Run frames until ``condition()`` is true (for hub deliveries and camera threads)."""
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            self.advance(1, seconds=0.01)
            if condition():
                return True
        return False

    def tap(self, widget: Any, *, hold_frames: int = 1) -> None:
        """A real touch (down, then up) at the widget's centre, through the window's event loop."""
        from kivy.tests.common import UnitTestTouch

        x, y = widget.to_window(*widget.center)
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        self.advance(hold_frames)
        touch.touch_up()
        self.advance(2)

    def tap_text(self, text: str, root: Any = None) -> Any:
        """Tap the first visible button whose text contains ``text`` (on the current screen by default)."""
        widget = self.find(text, root)
        self.tap(widget)
        return widget

    def find(self, text: str, root: Any = None) -> Any:
        """The first button-like widget on screen whose text contains ``text``."""
        from kivy.uix.button import Button

        base = root if root is not None else self.app.manager.current_screen
        for widget in base.walk(restrict=True):
            if isinstance(widget, Button) and text in str(widget.text) and widget.opacity > 0:
                return widget
        raise LookupError(f"no button with {text!r} on {getattr(base, 'name', base)}")

    def texts(self, root: Any = None) -> str:
        """All label and button texts on the current screen, joined (for asserting what the player sees)."""
        from kivy.uix.label import Label

        base = root if root is not None else self.app.manager.current_screen
        return "\n".join(str(w.text) for w in base.walk(restrict=True) if isinstance(w, Label))

    def use_camera(self, camera: Any, *, interval_s: float = 0.02, retry_s: float = 0.05) -> Any:
        """Make ``camera`` the app's camera, read by a fast feed (as at start-up, before any screen wants it)."""
        from companion.ui.camera_feed import CameraFeed

        if self.app.feed is not None:
            self.app.feed.stop()
        self.app.camera = camera
        self.app.feed = CameraFeed(camera, self.app.hub.put, interval_s=interval_s, retry_s=retry_s)
        self.feeds.append(self.app.feed)
        return camera

    def screen(self, name: str | None = None) -> Any:
        manager = self.app.manager
        return manager.current_screen if name is None else manager.get_screen(name)

    def go(self, name: str) -> Any:
        self.app.go(name)
        self.advance(3)
        return self.screen()

    def key(self, key: str, *, down: bool = True) -> None:
        """A key press (or release) as the window would deliver it."""
        self.window.dispatch("on_key_down" if down else "on_key_up", ord(key), 0, key, [])
        self.advance(2)

    def screenshot(self, name: str) -> Path:
        """Save the window after the next real frame to ``tests/screenshots/<name>.png`` and return it."""
        flipped = {"n": 0}

        def count(*_args: Any) -> None:
            flipped["n"] += 1

        self.window.bind(on_flip=count)
        self.window.canvas.ask_update()
        end = time.monotonic() + 5
        while flipped["n"] < 2 and time.monotonic() < end:
            self.advance(1)
        self.window.unbind(on_flip=count)
        path = SHOTS / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        if any(child is not self.app.root for child in self.window.children):
            # A popup or modal sits on the window beside the root: take the whole window as drawn.
            import os

            made = Path(self.window.screenshot(str(path.with_name(path.stem + "-window.png"))))
            os.replace(made, path)
        else:
            self.app.root.export_to_png(str(path))
        self.last_shot = path
        return path

    def pixel(self, widget: Any, path: Path | None = None) -> tuple[int, int, int]:
        """The RGB colour at a widget's centre in the last screenshot (or ``path``)."""
        import cv2

        image = cv2.imread(str(path or self.last_shot))
        x, y = widget.to_window(*widget.center)
        b, g, r = image[image.shape[0] - 1 - int(y), int(x)]
        return int(r), int(g), int(b)

    def close(self) -> None:
        """Stop the app (on_stop also clears kv's cached ``app``) and take its widgets off the shared window."""
        from kivy.app import App
        from kivy.clock import Clock
        from kivy.uix.modalview import ModalView

        app = self.app
        app.dispatch("on_stop")
        for feed in self.feeds:
            feed.stop()
        for widget in list(self.window.children):
            if isinstance(widget, ModalView):  # a pop-up left open (or mid-animation) must not leak into the next test
                self.window.remove_widget(widget)
        if app.root is not None and app.root.parent is not None:
            self.window.remove_widget(app.root)
        self.window.unbind(on_key_down=app._key_down, on_key_up=app._key_up)
        for event in Clock.get_events():
            event.cancel()
        app.journal.close()
        App._running_app = None
