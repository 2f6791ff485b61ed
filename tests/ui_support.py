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
    """A camera showing one frame (the test may swap ``frame``) that the test can unplug (``present = False``);
    ``id`` is the camera its calibration profiles are filed under."""

    def __init__(self, frame: Any, name: str = "test camera", id: str = "test") -> None:
        self.frame = frame
        self.id = id
        self.name = name
        self.present = True

    def open(self) -> None:
        pass

    def read(self) -> Any:
        from hardware.camera import CameraUnavailable, Frame

        if not self.present:
            raise CameraUnavailable("test camera unplugged")
        # the same image object: tests may wait for the screen to show exactly this frame
        return Frame(self.frame, time.monotonic())

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
        from hardware.simtray import tray_of

        self.app.camera = camera
        self.app.sim_tray = tray_of(camera)
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
        """Save the window after the next real frame to ``tests/screenshots/<name>.png`` and return it.

        One frame drawn after the request is enough (layout and canvas are brought up to date before each draw).
        The window draws, and flips, only when something changed: waiting for a second flip ran into the 5 s
        timeout on every still screen (most of the UI suite's time)."""
        flipped = {"n": 0}

        def count(*_args: Any) -> None:
            flipped["n"] += 1

        self.window.bind(on_flip=count)
        self.window.canvas.ask_update()
        end = time.monotonic() + 5
        while flipped["n"] < 1 and time.monotonic() < end:
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


# -- layout audit ------------------------------------------------------------------------------------------


def _shown(widget: Any) -> bool:
    """Drawn at all: no ancestor (or the widget) is fully transparent."""
    w = widget
    while w is not None and w is not w.parent:
        if getattr(w, "opacity", 1) <= 0:
            return False
        w = w.parent
    return True


def window_rect(widget: Any) -> tuple[float, float, float, float]:
    """``(x1, y1, x2, y2)`` of a widget in window coordinates."""
    x, y = widget.to_window(*widget.pos)
    return (x, y, x + widget.width, y + widget.height)


def ink_rect(label: Any) -> tuple[float, float, float, float] | None:
    """Where a label's text is actually drawn (window coordinates): its laid-out lines placed in the texture,
    the texture centred on the widget, as Kivy draws it. None when nothing is drawn."""
    lines = [line for line in getattr(label._label, "_cached_lines", []) if line.w > 0]
    tw, th = label.texture_size
    if not lines or tw <= 0:
        return None
    x0 = min(line.x for line in lines)
    x1 = max(line.x + line.w for line in lines)
    y0 = min(line.y for line in lines)
    y1 = max(line.y + line.h for line in lines)
    cx, cy = label.to_window(*label.center)
    left, top = cx - tw / 2, cy + th / 2
    return (left + x0, top - y1, left + x1, top - y0)


def small_markup(root: Any, min_font: float) -> list[str]:
    """Text drawn smaller than ``min_font`` px by a ``[size=N]`` inside a shown label's markup (a label's own font
    size is :func:`layout_problems`' ``min_font`` check)."""
    import re

    from kivy.uix.label import Label

    found = []
    for widget in root.walk(restrict=True):
        if isinstance(widget, Label) and widget.markup and _shown(widget):
            for size in re.findall(r"\[size=(\d+)", str(widget.text)):
                if int(size) < min_font:
                    found.append(f"[size={size}] in {str(widget.text)[:40]!r}")
    return found


def _intersect(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _rounded(rect: tuple[float, ...]) -> tuple[int, ...]:
    return tuple(round(v) for v in rect)


def _ancestor(a: Any, b: Any) -> bool:
    w = b.parent
    while w is not None and w is not w.parent:
        if w is a:
            return True
        w = w.parent
    return False


def layout_problems(root: Any, *, min_font: float | None = None, size: tuple[int, int] = (800, 480)) -> list[str]:
    """What a player would see wrong in ``root``'s layout: text drawn outside its own box or off the window,
    text or buttons drawn over each other, and (with ``min_font``) text smaller than that. Buttons count by their
    whole face (their background is drawn), labels by the ink of their text; a ScrollView clips what is in it."""
    from kivy.uix.button import Button
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView

    screen = (0.0, 0.0, float(size[0]), float(size[1]))
    drawn: list[tuple[Any, tuple[float, float, float, float]]] = []
    problems: list[str] = []
    for w in root.walk(restrict=True):
        if not isinstance(w, Label) or w.width <= 1 or w.height <= 1 or not _shown(w):
            continue
        text = str(w.text).strip()
        is_button = isinstance(w, Button)
        if not text and not is_button:
            continue
        clip = screen
        parent = w.parent
        while parent is not None and parent is not parent.parent:
            if isinstance(parent, ScrollView):
                clip = _intersect(clip, window_rect(parent))
            parent = parent.parent
        box = window_rect(w)
        ink = ink_rect(w) if text else None
        name = f"{type(w).__name__} {text[:40]!r}"
        if ink is not None and (
            ink[0] < box[0] - 2 or ink[1] < box[1] - 2 or ink[2] > box[2] + 2 or ink[3] > box[3] + 2
        ):
            problems.append(f"text outside its box: {name} ink {_rounded(ink)} box {_rounded(box)}")
        face = box if is_button else (ink or box)
        if clip == screen and (face[0] < -1 or face[1] < -1 or face[2] > size[0] + 1 or face[3] > size[1] + 1):
            problems.append(f"off the window: {name} at {_rounded(face)}")
        if min_font is not None and text and w.font_size < min_font - 0.01:
            problems.append(f"text smaller than {min_font:g} px: {name} ({w.font_size:.0f} px)")
        seen = _intersect(face, clip)
        if seen[2] - seen[0] > 1 and seen[3] - seen[1] > 1:
            drawn.append((w, seen))
    for i, (a, ra) in enumerate(drawn):
        for b, rb in drawn[i + 1 :]:
            both = _intersect(ra, rb)
            if both[2] - both[0] > 1 and both[3] - both[1] > 1 and not (_ancestor(a, b) or _ancestor(b, a)):
                overlap = f"{both[2] - both[0]:.0f}x{both[3] - both[1]:.0f} px"
                problems.append(
                    f"drawn over each other: {type(a).__name__} {str(a.text).strip()[:30]!r} and "
                    f"{type(b).__name__} {str(b.text).strip()[:30]!r} ({overlap})"
                )
    return problems
