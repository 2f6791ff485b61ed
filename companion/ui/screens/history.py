"""History: every finished play, newest first, filtered by game and by player; a play opens to its score sheet.
Abandoned games (stopped, never finished) are listed apart, so they never count in anyone's results."""

from __future__ import annotations

import datetime as dt
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.utils import escape_markup

from companion.games import engine as find_engine
from companion.history import ABANDONED, DAMAGED, FINISHED, HistoryError, Play
from companion.i18n import _, ngettext
from companion.journal.store import JournalError
from companion.ui.contrast import BUTTON, legible
from companion.ui.screens import load_kv
from companion.ui.widgets import dialog

load_kv("history")

WIN = "ffca28"  # winners' gold (the charts' too)
SHOWN = 60  # plays listed at once (the newest); a filter finds older ones


def score_text(value: float | None) -> str:
    """A score as a player writes it: 12, 12.5, or a dash where the game gives none."""
    if value is None:
        return "–"
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def when_text(seconds: float) -> str:
    """A play's start as the language writes it: "12 Nov 20:14" (this year) or "12 Nov 2024 20:14" (Babel)."""
    from companion import formatting

    moment = dt.datetime.fromtimestamp(seconds)
    day = formatting.day(moment, year=moment.year != dt.datetime.now().year)
    return f"{day} {formatting.time(moment)}"


def duration_text(seconds: float) -> str:
    minutes = max(0, round(seconds / 60))
    if minutes < 60:
        return ngettext("{n} min", "{n} min", minutes).format(n=minutes)
    return _("{h} h {m:02d}").format(h=minutes // 60, m=minutes % 60)


def game_title(game: str) -> str:
    """The game's name in the table's language ("Coleccionistas de arte"); an imported play of a game this
    version does not have keeps its id."""
    from companion.ui.words import TITLES
    from companion.ui.words import game_title as worded

    if game in TITLES:
        return worded(game)
    try:
        return worded(find_engine(game))
    except Exception:  # a game this version does not have (an imported play)
        return game


def play_line(play: Play, names: dict[int, str]) -> str:
    """Players best first ("Ana 103 · Ed 88 · Bo 34"), each in their colour; winners in bold gold."""
    parts = []
    for seat in sorted(play.players, key=lambda p: (p.rank or 99, p.seat)):
        name = escape_markup(names.get(seat.seat, seat.name))
        score = f" {score_text(seat.score)}" if seat.score is not None else ""
        if seat.winner:
            parts.append(f"[b][color={WIN}]{name}{score}[/color][/b]")
        else:
            parts.append(f"[color={legible(seat.colour, BUTTON)}]{name}[/color]{score}")
    return "  ·  ".join(parts)


class HistoryScreen(Screen):
    """The list of plays with its two filters; tapping a play opens it on the ``play`` screen."""

    status_text = StringProperty("")
    game_text = StringProperty("")
    player_text = StringProperty("")
    kind_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game: str | None = None
        self.person: str | None = None
        self.kind = FINISHED

    def on_pre_enter(self, *_args: Any) -> None:
        self.refresh()

    def on_leave(self, *_args: Any) -> None:
        # Up to 60 rows (and their textures) are made afresh on every visit: none are kept meanwhile.
        self.ids.list.clear_widgets()

    def refresh(self) -> None:
        app = App.get_running_app()
        self.status_text = ""
        try:
            report = app.history.refresh()
            if report.problems:
                self.status_text = ngettext(
                    "{n} saved game could not be read; it is listed under Abandoned & damaged.",
                    "{n} saved games could not be read; they are listed under Abandoned & damaged.",
                    len(report.problems),
                ).format(n=len(report.problems))
        except (HistoryError, JournalError) as err:
            self.status_text = _("The history cannot be read: {error}").format(error=escape_markup(str(err)))
        self.fill()

    # -- filters --------------------------------------------------------------------------------------------

    def statuses(self) -> tuple[str, ...]:
        return (FINISHED,) if self.kind == FINISHED else (ABANDONED, DAMAGED)

    def cycle_game(self) -> None:
        """All games, then each game that has plays, in turn."""
        app = App.get_running_app()
        games = sorted({p.game for p in app.history.plays(statuses=(FINISHED, ABANDONED, DAMAGED))})
        options: list[str | None] = [None, *games]
        self.game = options[(options.index(self.game) + 1) % len(options)] if self.game in options else None
        self.fill()

    def choose_player(self) -> ModalView:
        """Pick a player (or everyone) from a list of everyone who has played, most recent first."""
        app = App.get_running_app()
        view = dialog(620, 420)
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(8))
        box.add_widget(Factory.Caption(text=_("Show the plays of"), font_size=dp(20)))
        scroll = ScrollView(do_scroll_x=False)
        grid = Factory.GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))

        def pick(uid: str | None) -> None:
            view.dismiss()
            self.person = uid
            self.fill()

        everyone = Factory.AccentButton(text=_("Everyone"))
        everyone.bind(on_release=lambda _b: pick(None))
        grid.add_widget(everyone)
        for person in app.history.store.persons():
            label = f"[color={legible(person.colour, BUTTON)}]{escape_markup(person.name)}[/color]"
            button = Factory.BigButton(text=label, markup=True)
            button.bind(on_release=lambda _b, uid=person.uid: pick(uid))
            grid.add_widget(button)
        scroll.add_widget(grid)
        box.add_widget(scroll)
        close = Factory.BigButton(text=_("Back"))
        close.bind(on_release=lambda _b: view.dismiss())
        box.add_widget(close)
        view.add_widget(box)
        view.open()
        return view

    def toggle_kind(self) -> None:
        self.kind = ABANDONED if self.kind == FINISHED else FINISHED
        self.fill()

    # -- the list -----------------------------------------------------------------------------------------------

    def fill(self) -> None:
        app = App.get_running_app()
        grid = self.ids.list
        grid.clear_widgets()
        person = app.history.store.person(self.person) if self.person else None
        if self.person and person is None:
            self.person = None
        self.game_text = _("Game: {game}").format(game=game_title(self.game) if self.game else _("all"))
        self.player_text = _("Player: {name}").format(name=person.name if person else _("everyone"))
        try:
            plays = app.history.plays(game=self.game, person=self.person, statuses=self.statuses())
            others = app.history.plays(
                game=self.game,
                person=self.person,
                statuses=(ABANDONED, DAMAGED) if self.kind == FINISHED else (FINISHED,),
            )
        except HistoryError as err:
            self.status_text = escape_markup(str(err))
            plays, others = [], []
        if self.kind == FINISHED:
            self.kind_text = _("Abandoned & damaged ({n})").format(n=len(others))
        else:
            self.kind_text = _("Finished ({n})").format(n=len(others))
        if not plays:
            empty = (
                _("No finished games yet. Games appear here when they end.")
                if self.kind == FINISHED
                else _("No abandoned games.")
            )
            grid.add_widget(Factory.Caption(text=empty, font_size=dp(20)))
        links = app.history.store.all_links()
        persons = {p.uid: p for p in app.history.store.persons()}
        for play in plays[:SHOWN]:
            names = {seat: persons[uid].name for seat, uid in links.get(play.uid, {}).items() if uid in persons}
            grid.add_widget(self._row(play, names))
        if len(plays) > SHOWN:
            more = len(plays) - SHOWN
            grid.add_widget(
                Factory.Caption(
                    text=ngettext(
                        "{n} older play not shown: choose a game or a player to find it.",
                        "{n} older plays not shown: choose a game or a player to find them.",
                        more,
                    ).format(n=more)
                )
            )

    def _row(self, play: Play, names: dict[int, str]) -> Any:
        top = f"[b]{escape_markup(game_title(play.game))}[/b]  ·  {when_text(play.started)}"
        if play.status == FINISHED:
            top += f"  ·  {duration_text(play.duration_s)}"
        elif play.status == DAMAGED:
            why = escape_markup(_("damaged: {why}").format(why=play.problem or ""))
            top += f"  ·  [color=ff8a80]{why}[/color]"
        else:
            top += "  ·  " + ngettext("stopped after {n} move", "stopped after {n} moves", play.actions).format(
                n=play.actions
            )
        button = Factory.PlayRow(text=f"{top}\n{play_line(play, names)}")
        button.play_uid = play.uid
        button.bind(on_release=lambda _b, uid=play.uid: self.open_play(uid))
        return button

    def open_play(self, uid: str) -> None:
        app = App.get_running_app()
        app.manager.get_screen("play").show(uid)
        app.go("play")
