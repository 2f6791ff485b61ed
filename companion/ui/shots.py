"""Screenshots that wait for a real frame (a fixed sleep gave blank frames on cold start)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.clock import Clock
from kivy.core.window import Window


def save_window(path: Path) -> Path:
    """Write the whole window as it is now drawn to ``path`` (PNG)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    from kivy.app import App

    App.get_running_app().root.export_to_png(str(path))
    return path


def after_flips(count: int, callback: Callable[[int], Any], *, timeout_s: float = 10.0) -> None:
    """Run ``callback(flips)`` on the frame after the ``count``-th window flip, or after ``timeout_s`` whatever
    happens (``flips`` then says how many there were: 0 means nothing was drawn)."""
    state = {"flips": 0, "done": False}

    def fire(*_args: Any) -> None:
        if state["done"]:
            return
        state["done"] = True
        Window.unbind(on_flip=on_flip)
        callback(int(state["flips"]))

    def on_flip(*_args: Any) -> None:
        state["flips"] += 1
        if state["flips"] >= count:
            Clock.schedule_once(fire, 0)

    Window.bind(on_flip=on_flip)
    Clock.schedule_once(fire, timeout_s)


def save_when_drawn(app: Any, path: Path, *, timeout_s: float = 10.0) -> None:
    """Once the app's first screen has been drawn (its first flip: offscreen an unchanging screen flips once, so
    waiting for more only ran into the timeout), save it to ``path`` and stop the app."""

    def shoot(flips: int) -> None:
        if flips:
            print(f"companion: screenshot: drawn after {flips} frame{'s' if flips > 1 else ''}", file=sys.stderr)
        else:
            print(f"companion: screenshot: no frame drawn in {timeout_s:g} s; saving what there is", file=sys.stderr)
        save_window(path)
        app.stop()

    def start(*_args: Any) -> None:
        after_flips(1, shoot, timeout_s=timeout_s)

    app.bind(on_start=start)
