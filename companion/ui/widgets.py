"""Small reusable widgets (Python side; their kv rules are in ``screens/common.kv``). Text fitted to its room
(ellipsis, two lines, the largest type that fits) is :mod:`companion.ui.fit`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_color_from_hex

from companion.games.base import Player
from companion.i18n import _, ngettext


class GameHeader(BoxLayout):
    """Home, the message line, Undo and Redo: the top bar of every game screen (``screen`` is set in kv)."""

    screen = ObjectProperty(None, allownone=True, rebind=True)

    def how_to_play(self) -> None:
        """The ? button: the rules page of the game on show; Back returns to the game as it was."""
        session = getattr(self.screen, "session", None)
        if session is None:
            return
        from companion.ui.screens.howto import open_how_to_play

        open_how_to_play(session.setup.game, self.screen.name)


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


class PlayRow(ButtonBehavior, BoxLayout):
    """One entry of a list, the whole row a touch target: the first line of ``text`` over the second, each cut
    with an ellipsis only where it is too long (a Button's ``shorten`` draws both on one line). Layout in
    ``screens/history.kv``."""

    text = StringProperty("")


def readable_text(colour: str) -> tuple[float, float, float, float]:
    """Black or white, whichever reads better on ``colour`` (``#rrggbb``)."""
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (0, 0, 0, 1) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (1, 1, 1, 1)


def closing_row(view: ModalView, back: Widget, act: Widget, on_act: Callable[[], Any]) -> BoxLayout:
    """A modal's bottom row: ``back`` (left) only closes the view, ``act`` (right) closes it and calls ``on_act``."""
    row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(12))
    back.bind(on_release=lambda _b: view.dismiss())
    act.bind(on_release=lambda _b: (view.dismiss(), on_act()))
    row.add_widget(back)
    row.add_widget(act)
    return row


class QuickModal(ModalView):
    """A modal that closes at once (no fade): a tap right after it closes lands on the screen, not on the view
    still fading out there."""

    def dismiss(self, *args: Any, **kwargs: Any) -> Any:
        kwargs["animation"] = False
        return super().dismiss(*args, **kwargs)


def dialog(width: float, height: float) -> QuickModal:
    """An empty dark dialog of ``width`` x ``height`` dp over a dimmed screen; a tap outside closes it."""
    return QuickModal(
        size_hint=(None, None),
        size=(dp(width), dp(height)),
        auto_dismiss=True,
        background="",
        background_color=(0.16, 0.16, 0.20, 1),
        overlay_color=(0, 0, 0, 0.75),
    )


def confirm(question: str, yes_text: str, on_yes: Callable[[], Any], *, no_text: str | None = None) -> ModalView:
    """Ask before something a mis-tap should not do (stop a game...): a modal with the question, a safe
    button (left) and the red ``yes_text`` button. Returns the open view (tests tap its buttons). It closes at
    once: a quick second tap after *Keep it* must not land on the red button of a view still fading out."""
    view = dialog(560, 220)
    box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(12))
    box.add_widget(Label(text=question, font_size=dp(20), text_size=(dp(520), None), halign="center"))
    no = Factory.BigButton(text=no_text if no_text is not None else _("Keep it"))
    box.add_widget(closing_row(view, no, Factory.DangerButton(text=yes_text), on_yes))
    view.add_widget(box)
    view.open()
    return view


def choose_player(
    question: str,
    players: list[Player] | tuple[Player, ...],
    on_choose: Callable[[int], Any],
    *,
    other_text: str | None = None,
    on_other: Callable[[], Any] | None = None,
) -> ModalView:
    """Ask which player: a modal with the question, one big button per player in their colour (tapping it closes
    the view and calls ``on_choose(seat)``), and a bottom row with *Back* (only closes) and, if given, an
    ``other_text`` button for "none of them". The open view is returned; its ``choose(seat)`` does what tapping
    that player's button does (a screen routes a player's own arcade button there)."""
    view = dialog(640, 300)

    def choose(seat: int) -> None:
        view.dismiss()
        on_choose(seat)

    box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(12))
    box.add_widget(Label(text=question, font_size=dp(20), text_size=(dp(600), None), halign="center"))
    row = BoxLayout(size_hint_y=None, height=dp(80), spacing=dp(8))
    for player in players:
        button = Factory.BigButton(
            text=player.name,
            bold=True,
            background_normal="",
            background_color=get_color_from_hex(player.colour),
            color=readable_text(player.colour),
        )
        button.seat = player.seat
        button.bind(on_release=lambda b: choose(b.seat))
        row.add_widget(button)
    box.add_widget(row)
    back = Factory.BigButton(text=_("Back"))
    if other_text is not None and on_other is not None:
        box.add_widget(closing_row(view, back, Factory.BigButton(text=other_text), on_other))
    else:
        back.size_hint_y = None
        back.height = dp(56)
        back.bind(on_release=lambda _b: view.dismiss())
        box.add_widget(back)
    view.add_widget(box)
    view.choose = choose  # type: ignore[attr-defined]
    view.open()
    return view


MAX_NOTICES = 30  # notices listed in the dialog (a label's texture is one image: it must stay small)
NOTICE_CHARS = 600  # characters of each


def notices_view(lines: list[str], on_hide: Callable[[], Any]) -> ModalView:
    """A modal with each notice in full (scrolls when long): *Hide these* clears the banner, *Keep* closes."""
    view = ModalView(
        size_hint=(0.94, 0.9), background="", background_color=(0.16, 0.16, 0.20, 1), overlay_color=(0, 0, 0, 0.75)
    )
    box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(10))
    scroll = ScrollView(do_scroll_x=False)
    shown = [line if len(line) <= NOTICE_CHARS else line[: NOTICE_CHARS - 1] + "…" for line in lines[:MAX_NOTICES]]
    if len(lines) > MAX_NOTICES:
        shown.append(
            ngettext("… and {count} more", "… and {count} more", len(lines) - MAX_NOTICES).format(
                count=len(lines) - MAX_NOTICES
            )
        )
    text = Label(
        text="\n\n".join(escape_markup(line) for line in shown) or _("Nothing to report."),
        markup=True,
        font_size=dp(18),
        halign="left",
        valign="top",
        size_hint_y=None,
    )
    text.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
    text.bind(texture_size=lambda w, size: setattr(w, "height", size[1]))
    scroll.add_widget(text)
    box.add_widget(scroll)
    keep, hide = Factory.BigButton(text=_("Keep showing")), Factory.AccentButton(text=_("Hide these"))
    box.add_widget(closing_row(view, keep, hide, on_hide))
    view.add_widget(box)
    view.open()
    return view
