"""Button test: every seat's button lights up while pressed; a log shows presses with edge timestamps."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen
from kivy.utils import get_color_from_hex

from companion.ui.screens import load_kv
from companion.ui.widgets import readable_text
from hardware.buttons import ButtonEvent

load_kv("buttons")

IDLE = (0.22, 0.24, 0.32, 1)


def log_line(event: ButtonEvent, first_tick: float) -> str:
    """One log row: seat, kind, edge time relative to the first press (ms), hold time, source."""
    rel = (event.tick - first_tick) * 1000
    held = f"  held {event.held * 1000:7.0f} ms" if event.kind != "press" else ""
    return f"seat {event.seat}  {event.kind:<7} t={rel:9.1f} ms{held}  ({event.source})"


class ButtonTestScreen(Screen):
    """Live view of the player buttons, for wiring checks (on-screen tiles also press in simulation)."""

    log_text = StringProperty("Press any player button (or keys 1–5).")
    backend_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tiles: dict[int, Button] = {}
        self.lines: list[str] = []
        self.first_tick: float | None = None

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        board = app.buttons
        pins: dict[int, int] = dict(getattr(board, "pins", {}) or {})
        if app.simulation:
            self.backend_text = "Simulation: keys 1–5 or tap a tile (no GPIO buttons)"
        else:
            self.backend_text = "GPIO buttons (BCM numbering, each pin wired to ground); tiles also press"
        if not self.tiles:
            names = app.settings.get("players", "names")
            colours = app.settings.get("players", "colours")
            for seat in board.seats:
                wiring = f"\n[size={int(dp(16))}]GPIO{pins[seat]}[/size]" if seat in pins else ""
                tile = Button(
                    text=f"{seat}\n{names[seat - 1]}{wiring}",
                    markup=True,
                    font_size=dp(24),
                    halign="center",
                    background_normal="",
                    background_color=IDLE,
                )
                tile.colour = colours[seat - 1]
                tile.bind(
                    on_press=lambda _t, s=seat: app.touch_seat(s, True),
                    on_release=lambda _t, s=seat: app.touch_seat(s, False),
                )
                self.tiles[seat] = tile
                self.ids.tiles.add_widget(tile)

    def on_button(self, event: ButtonEvent) -> None:
        tile = self.tiles.get(event.seat)
        if tile is not None:
            lit = event.kind in ("press", "long")
            tile.background_color = get_color_from_hex(tile.colour) if lit else IDLE
            tile.color = readable_text(tile.colour) if lit else (1, 1, 1, 1)
        if self.first_tick is None:
            self.first_tick = event.tick
        self.lines.append(log_line(event, self.first_tick))
        self.lines = self.lines[-12:]
        self.log_text = "\n".join(reversed(self.lines))

    def clear(self) -> None:
        self.lines = []
        self.first_tick = None
        self.log_text = "Press any player button (or keys 1–5)."
