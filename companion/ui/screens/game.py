"""Base class of every game screen: the session, acting through the journal, messages, undo/redo, hardware
events. A game screen subclasses :class:`GameScreen` and overrides ``on_session``, ``refresh`` and, when it
uses them, ``on_button`` and ``on_roll``."""

from __future__ import annotations

import time
from typing import Any

from kivy.app import App
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import Screen

from companion.games.base import Action, IllegalAction, Player
from companion.i18n import _
from companion.journal import GameSession, JournalBusy, JournalError, JournalFull, ReplayError
from companion.ui.screens import load_kv
from companion.vision.roll import Roll
from hardware.buttons import ButtonEvent
from hardware.simtray import TrayRoll

load_kv("common")


# Characters Kivy's own Roboto lacks (drawn as a box), as engines and notes write them: replaced only when the
# font in use cannot draw them (without fonts-noto-cjk).
MISSING_GLYPHS = {"→": "->"}


def drawable(text: str) -> str:
    """``text`` with characters the UI font cannot draw replaced ("5 → 6" reads "5 -> 6" in Roboto)."""
    from companion.ui.fonts import active

    font = active()
    for char, word in MISSING_GLYPHS.items():
        if char in text and (font.regular is None or not font.covers(char)):
            text = text.replace(char, word)
    return text


def not_saved(err: Exception) -> str:
    """What a player reads when the journal could not record a move (a full or failing card, or another
    program holding the file): nothing changed."""
    if isinstance(err, JournalBusy):
        return _("Not saved, nothing changed: the saved games are in use by another program. Close it, then try again.")
    if isinstance(err, JournalFull):
        return _("Not saved, nothing changed: the SD card is full. Free some space, then try again.")
    return _("Not saved, nothing changed: {problem}. Free some space or check the SD card, then try again.").format(
        problem=err
    )


class GameScreen(Screen):
    """A screen that shows one game in progress."""

    header_text = StringProperty("")
    message_is_error = BooleanProperty(False)
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session: GameSession | None = None

    @property
    def app(self) -> Any:
        return App.get_running_app()

    @property
    def players(self) -> tuple[Player, ...]:
        return self.session.setup.players if self.session else ()

    def now(self) -> float:
        """Monotonic seconds (the app's injected clock, so tests can drive time)."""
        app = self.app
        return float(app.now()) if app is not None else time.monotonic()

    # -- life cycle --------------------------------------------------------------------------------------

    def attach(self, session: GameSession) -> None:
        """Called by the app for a new or resumed game."""
        self.session = session
        from companion.ui.words import game_title

        self.show_message(_("{game} — game {id}").format(game=game_title(session.engine), id=session.game_id))
        self.on_session()
        self._changed()

    def on_session(self) -> None:
        """Override: build widgets that depend on the players or settings."""

    def refresh(self) -> None:
        """Override: redraw from ``self.session.state``."""

    def _changed(self) -> None:
        session = self.session
        self.can_undo = bool(session and session.actions)
        self.can_redo = bool(session and session.can_redo)
        self.refresh()

    # -- acting ------------------------------------------------------------------------------------------

    def act(self, action: Action, *, quiet: bool = False) -> bool:
        """Perform ``action``: committed to the journal before the screen changes. A refused action shows
        the rules' reason and changes nothing."""
        if self.session is None:
            return False
        try:
            self.session.do(action)
        except IllegalAction as err:
            self.show_message(str(err), error=True)
            return False
        except JournalError as err:
            self.show_message(not_saved(err), error=True)
            return False
        if not quiet:
            self.show_message(self.describe(action))
        self._changed()
        return True

    def undo(self) -> None:
        if self.session is None:
            return
        try:
            undone = self.session.undo()
        except (JournalError, ReplayError) as err:
            self.show_message(not_saved(err), error=True)
            return
        if undone is None:
            self.show_message(_("Nothing to undo"), error=True)
        else:
            self.show_message(_("Undone: {what}").format(what=self.describe(undone)))
        self._changed()

    def redo(self) -> None:
        if self.session is None:
            return
        try:
            redone = self.session.redo()
        except (JournalError, ReplayError) as err:
            self.show_message(not_saved(err), error=True)
            return
        if redone is None:
            self.show_message(_("Nothing to redo"), error=True)
        else:
            self.show_message(_("Redone: {what}").format(what=self.describe(redone)))
        self._changed()

    def describe(self, action: Action) -> str:
        """The message line's words for ``action`` (default: the log line; a screen may say it its own way)."""
        assert self.session is not None
        return self.session.describe(action)

    def show_message(self, text: str, error: bool = False) -> None:
        self.header_text = drawable(text)
        self.message_is_error = error

    def show_full_message(self) -> Any:
        """The message line in full, in a dialog (the line shows two lines at most)."""
        if not self.header_text:
            return None
        from kivy.factory import Factory
        from kivy.uix.boxlayout import BoxLayout
        from kivy.uix.label import Label

        from companion.ui.widgets import dialog

        view = dialog(620, 260)
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(12))
        colour = (1, 0.55, 0.5, 1) if self.message_is_error else (1, 1, 1, 1)
        text = Label(text=self.header_text, markup=True, font_size=dp(19), color=colour, halign="left", valign="top")
        text.bind(size=lambda w, size: setattr(w, "text_size", size))
        box.add_widget(text)
        ok = Factory.BigButton(text=_("OK"), size_hint_y=None, height=dp(56))
        ok.bind(on_release=lambda _b: view.dismiss())
        box.add_widget(ok)
        view.add_widget(box)
        view.open()
        return view

    def go_home(self) -> None:
        """Leave the game (it stays in the journal and can be resumed from the home screen)."""
        self.app.go("home")

    def rematch(self) -> None:
        """*Rematch* on the end screen: a new game of the same players in the same seats and colours, with the same
        options (a new shuffle), on this screen. A game that cannot be started says why and changes nothing."""
        import os

        from companion.games.base import BadSetup
        from companion.history import HistoryError
        from companion.journal.session import rematch_setup

        if self.session is None:
            return
        app = self.app
        setup = rematch_setup(self.session.setup, int.from_bytes(os.urandom(4), "big"))
        try:
            persons = app.history.seats_of(self.session.game_id)
        except HistoryError:  # history is a convenience: the names still bring their people
            persons = {}
        try:
            app.start_game(setup, persons)
        except BadSetup as err:
            self.show_message(str(err), error=True)
        except JournalError as err:
            self.show_message(not_saved(err), error=True)

    def open_dice(self) -> None:
        """Show the live dice reader; its "use this roll" comes back to :meth:`on_roll`."""
        self.app.open_dice(self.name)

    # -- hardware ----------------------------------------------------------------------------------------

    def on_button(self, event: ButtonEvent) -> None:
        """Override to use player buttons."""

    def tray_roll(self) -> TrayRoll | None:
        """Override: the dice this game waits for now (the simulated tray shows a roll of them), or None."""
        return None

    def on_roll(self, roll: Roll) -> None:
        """Override to use dice readings from the camera."""
