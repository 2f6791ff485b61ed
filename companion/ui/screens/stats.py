"""Stats: per game (or over all games) each player's plays, wins, win rate, average and best score (the lowest in
a lowest-wins game) and the game's own figures; tapping a player charts their results over time."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.history import FINISHED, HistoryError
from companion.history.adapters import STAT_LABELS
from companion.history.stats import GAME_STATS, PlayerStats, player_stats, ranked, results_over_time
from companion.i18n import _
from companion.ui.contrast import BUTTON, legible
from companion.ui.screens import load_kv
from companion.ui.screens.history import game_title, score_text
from companion.ui.screens.play import stat_text

load_kv("stats")

NAME_WIDTH = 2.4  # the player column, against 1 for each figure


class StatsScreen(Screen):
    """One table: a row per player, best first."""

    game_text = StringProperty("")
    hint_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game: str | None = None

    def on_pre_enter(self, *_args: Any) -> None:
        history = App.get_running_app().history
        if self.game is None:
            games = [p.game for p in history.plays()]
            self.game = max(set(games), key=games.count) if games else None  # the most played game first
        self.fill()

    def cycle_game(self) -> None:
        games = sorted({p.game for p in App.get_running_app().history.plays()})
        options: list[str | None] = [*games, None]
        self.game = options[(options.index(self.game) + 1) % len(options)] if self.game in options else options[0]
        self.fill()

    def fill(self) -> None:
        app = App.get_running_app()
        grid = self.ids.table
        grid.clear_widgets()
        self.game_text = _("Game: {game}").format(game=game_title(self.game) if self.game else _("all games"))
        try:
            plays = app.history.plays(statuses=(FINISHED,))
            links = app.history.store.all_links()
            persons = {p.uid: p for p in app.history.store.persons()}
        except HistoryError as err:
            self.hint_text = escape_markup(str(err))
            return
        table = ranked(player_stats(plays, links, game=self.game))
        extras = GAME_STATS.get(self.game, ()) if self.game else ()
        headers = [_("Player"), _("Plays"), _("Wins"), _("Win rate")]
        if self.game:
            headers += [_("Average"), _("Best")]
        headers += [_(STAT_LABELS[s]) for s in extras]
        grid.cols = len(headers)
        for index, header in enumerate(headers):
            cell = _cell(f"[color=9aa0b0]{escape_markup(header)}[/color]", 16)
            cell.size_hint_x = NAME_WIDTH if index == 0 else 1
            grid.add_widget(cell)
        for line in table:
            person = persons.get(line.person)
            if person is None:
                continue
            shown = f"[color={legible(person.colour, BUTTON)}][b]{escape_markup(person.name)}[/b][/color]"
            name = Factory.PlayRow(text=shown, height=dp(48))
            name.person = person.uid
            name.size_hint_x = NAME_WIDTH
            name.bind(on_release=lambda _b, uid=person.uid: self.chart_person(uid))
            name.disabled = self.game is None
            grid.add_widget(name)
            for text in self._figures(line, extras):
                grid.add_widget(_cell(text, 18))
        if not table:
            self.hint_text = _("No finished games yet.")
        elif self.game is None:
            self.hint_text = _("Choose a game to see scores, and to chart a player's results over time.")
        else:
            self.hint_text = _("Tap a player to chart their results over time.")

    def _figures(self, line: PlayerStats, extras: tuple[str, ...]) -> list[str]:
        out = [str(line.plays), str(line.wins), f"{round(line.win_rate * 100)}%"]
        if self.game:
            out += [score_text(round(line.average, 1)) if line.average is not None else "–", score_text(line.best)]
        for stat in extras:
            value = line.extras.get(stat)
            out.append(stat_text(stat, value) if value is not None else "–")
        return out

    def chart_person(self, uid: str) -> None:
        """Their score in every play of this game, oldest first; wins starred."""
        from companion.history import charts

        app = App.get_running_app()
        game = self.game
        person = app.history.store.person(uid)
        if game is None or person is None:
            return
        points = [
            (play.started, score, won)
            for play, score, won in results_over_time(app.history.plays(), app.history.store.all_links(), uid, game)
        ]
        lowest = any(p.lowest_wins for p in app.history.plays(game=game))
        wins = sum(1 for _when, _score, won in points if won)
        title = _("{name} at {game}: {wins} of {plays} won").format(
            name=person.name, game=game_title(game), wins=wins, plays=len(points)
        )

        def make(size: tuple[int, int]) -> Any:
            who = charts.Who(person.name, person.colour)
            return charts.results_over_time(points, who, lowest_wins=lowest, title=title, size=size)

        app.manager.get_screen("chart").show(title, make, back_to="stats")
        app.go("chart")


def _cell(text: str, size: int) -> Label:
    label = Label(text=text, markup=True, font_size=dp(size), halign="center", valign="middle", size_hint_y=None)
    label.height = dp(48)
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    return label
