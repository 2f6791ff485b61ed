"""Small reusable widgets (Python side; their kv rules are in ``screens/common.kv``)."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import ObjectProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.utils import get_color_from_hex

from companion.games.base import Player


class GameHeader(BoxLayout):
    """Home, the message line, Undo and Redo: the top bar of every game screen (``screen`` is set in kv)."""

    screen = ObjectProperty(None, allownone=True, rebind=True)


class SeatButton(Button):
    """One on-screen player button: presses on touch down, releases on touch up, like an arcade button."""

    def __init__(self, seat: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seat = seat

    def on_press(self) -> None:
        App.get_running_app().touch_seat(self.seat, True)

    def on_release(self) -> None:
        App.get_running_app().touch_seat(self.seat, False)


class SeatButtons(BoxLayout):
    """A row of on-screen seat buttons in the players' colours (shown in simulation only)."""

    def set_players(self, players: list[Player] | tuple[Player, ...]) -> None:
        self.clear_widgets()
        for player in players:
            self.add_widget(
                SeatButton(
                    player.seat,
                    text=f"{player.seat}  {player.name}",
                    font_size=dp(18),
                    background_normal="",
                    background_color=get_color_from_hex(player.colour),
                    color=readable_text(player.colour),
                )
            )


def readable_text(colour: str) -> tuple[float, float, float, float]:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (0, 0, 0, 1) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (1, 1, 1, 1)
