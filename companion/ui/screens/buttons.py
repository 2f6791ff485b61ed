"""Button test: every seat's button lights up while pressed; a log shows presses with edge timestamps."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.button import Button
from kivy.uix.screenmanager import Screen
from kivy.utils import get_color_from_hex

from companion.i18n import N_, _
from companion.ui.screens import load_kv
from companion.ui.widgets import readable_text
from hardware.buttons import ButtonEvent

load_kv("buttons")

IDLE = (0.22, 0.24, 0.32, 1)


KINDS = {"press": N_("press"), "release": N_("release"), "long": N_("long")}
SOURCES = {"key": N_("key"), "touch": N_("touch"), "gpio": N_("gpio")}


def log_line(event: ButtonEvent, first_tick: float) -> str:
    """One log row: seat, kind, edge time relative to the first press (ms), hold time, source."""
    rel = (event.tick - first_tick) * 1000
    kind = _(KINDS[event.kind]) if event.kind in KINDS else event.kind
    source = _(SOURCES[event.source]) if event.source in SOURCES else event.source
    if event.kind != "press":
        return _("seat {seat}  {kind} t={t} ms  held {held} ms  ({source})").format(
            seat=event.seat, kind=f"{kind:<7}", t=f"{rel:9.1f}", held=f"{event.held * 1000:7.0f}", source=source
        )
    return _("seat {seat}  {kind} t={t} ms  ({source})").format(
        seat=event.seat, kind=f"{kind:<7}", t=f"{rel:9.1f}", source=source
    )


class ButtonTestScreen(Screen):
    """Live view of the player buttons, for wiring checks (on-screen tiles also press in simulation)."""

    log_text = StringProperty("")
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
        if not self.lines:
            self.log_text = _("Press any player button (or keys 1–5).")
        if app.simulation:
            self.backend_text = _("Simulation: keys 1–5 or tap a tile (no GPIO buttons)")
        else:
            self.backend_text = _("GPIO buttons (BCM numbering, each pin wired to ground); tiles also press")
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
        self.log_text = _("Press any player button (or keys 1–5).")
