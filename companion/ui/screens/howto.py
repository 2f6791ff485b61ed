"""How to play: a game's short rules page (what the game is, a turn, the end and scoring, what the app does for
you), opened from the game's setup screen and from the ? of a game in progress. The words are
:mod:`companion.games.howto`'s; this screen only lays them out."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.games import engine as find_engine
from companion.games.howto import how_to_play
from companion.i18n import _
from companion.ui.screens import load_kv
from companion.ui.words import game_title

load_kv("howto")

HEADING_COLOUR = "ffd54f"  # amber on the dark background (contrast about 12:1)


class HowToScreen(Screen):
    """One game's rules page; Back returns to the screen it was opened from."""

    title_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = ""
        self.back_to = "home"

    def show(self, game: str, back_to: str) -> None:
        """Fill the page for ``game`` (a game id) and say where Back goes."""
        self.game = game
        self.back_to = back_to
        self.reword()

    def reword(self) -> None:
        """Word the page in the current language (also after a language switch with the page open)."""
        if not self.game:
            return
        self.title_text = _("How to play: {game}").format(game=game_title(find_engine(self.game)))
        page = self.ids.page
        page.clear_widgets()
        for section in how_to_play(self.game):
            text = f"[b][color={HEADING_COLOUR}]{escape_markup(section.heading)}[/color][/b]\n" + "\n\n".join(
                escape_markup(paragraph) for paragraph in section.paragraphs
            )
            page.add_widget(Factory.HowToSection(text=text))
        self.ids.scroll.scroll_y = 1  # each opening starts at the top

    def back(self) -> None:
        app = App.get_running_app()
        app.go(self.back_to if app.manager.has_screen(self.back_to) else "home")


def open_how_to_play(game: str, back_to: str) -> None:
    """Show ``game``'s rules page; its Back returns to ``back_to`` (the setup screen, or the game in progress)."""
    app = App.get_running_app()
    if app is None or not app.manager.has_screen("howto"):
        return
    app.manager.get_screen("howto").show(game, back_to)
    app.go("howto")
