"""Screenshots that wait for a real frame (a fixed sleep gave blank frames on cold start)."""

from __future__ import annotations

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


def after_flips(count: int, callback: Callable[[], Any], *, timeout_s: float = 10.0) -> None:
    """Run ``callback`` after ``count`` window flips, or after ``timeout_s`` whatever happens."""
    state = {"left": count, "done": False}

    def fire(*_args: Any) -> None:
        if state["done"]:
            return
        state["done"] = True
        Window.unbind(on_flip=on_flip)
        callback()

    def on_flip(*_args: Any) -> None:
        state["left"] -= 1
        if state["left"] <= 0:
            Clock.schedule_once(fire, 0)

    Window.bind(on_flip=on_flip)
    Clock.schedule_once(fire, timeout_s)


def save_when_drawn(app: Any, path: Path) -> None:
    """Once the app's first screen has been drawn, save it to ``path`` and stop the app."""

    def start(*_args: Any) -> None:
        after_flips(3, lambda: (save_window(path), app.stop()))

    app.bind(on_start=start)
