"""One play: its final score sheet (and Ratuki's round by round), its timeline worded from the journal, its chart,
and *Delete* (after a confirmation; its saved game stays in the journal unless that is asked for too)."""

from __future__ import annotations

import re
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion import formatting
from companion.history import HistoryError, Moment, Play
from companion.history.adapters import STAT_LABELS
from companion.history.stats import GAME_STATS
from companion.i18n import _, ngettext
from companion.journal.store import JournalError
from companion.ui.contrast import legible
from companion.ui.screens import load_kv
from companion.ui.screens.history import WIN, duration_text, game_title, score_text, when_text
from companion.ui.widgets import dialog, readable_text

load_kv("play")

CHARTED = ("ratuki", "lowdown")  # games whose play has a chart of its own
PAGE = 150  # timeline lines drawn at once: a 5,000-move game made 5,000 labels (seconds on a Pi, past the watchdog)


def stat_text(stat: str, value: float) -> str:
    if stat == "margin_ms":
        return _("{ms:.0f} ms").format(ms=value)
    return score_text(value)


def options_text(play: Play) -> str:
    """Edition and options in a line, in the words and the order of the setup screen ("Rules: Spanish manual … ·
    Play to: 150 points"); options the game no longer offers, files and the sound are left out. An edition the
    game tells by another option (Ratuki's deck size, Art Collectors' full game) is said by that option."""
    from companion.games import engine as find_engine
    from companion.ui.words import setting_words

    try:
        engine = find_engine(play.game)
    except (KeyError, LookupError, ImportError):
        engine = None
    if engine is None:  # a game this version does not have (an imported play): its edition as recorded
        return _("edition {edition}").format(edition=play.edition) if play.edition else ""
    names = [seat.name for seat in sorted(play.players, key=lambda p: p.seat)]
    options = dict(play.options)
    if play.edition and "edition" in engine.settings:
        options.setdefault("edition", play.edition)  # a play imported from an older export
    order = list(engine.settings)
    parts = []
    for key in sorted(options, key=lambda k: order.index(k) if k in order else len(order)):
        if key in ("board", "deck", "picture_die", "layout", "catalogue", "data", "sound"):
            continue
        words = setting_words(engine, key, options[key], names)
        if words is not None:
            parts.append(words)
    return " · ".join(parts)


class PlayScreen(Screen):
    """Shows the play chosen in History (``show(uid)``)."""

    title_text = StringProperty("")
    info_text = StringProperty("")
    showing_timeline = BooleanProperty(False)
    has_chart = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.play: Play | None = None
        self.back_to = "history"
        self.moments: list[Moment] | None = None  # the timeline of the play on show, worded once
        self.page = 0  # the timeline's page on show (PAGE lines each)

    def show(self, uid: str, back_to: str = "history") -> None:
        """Show the play ``uid``; Back returns to ``back_to`` (History, or Saved games for a finished game)."""
        app = App.get_running_app()
        self.play = app.history.play(uid)
        self.back_to = back_to
        self.showing_timeline = False
        self.moments = None
        self.page = 0
        self.fill()

    def back(self) -> None:
        App.get_running_app().go(self.back_to)

    def names(self) -> dict[int, Any]:
        """seat -> the person now (renamed or merged players show as who they are now)."""
        assert self.play is not None
        try:
            return App.get_running_app().history.who(self.play)
        except HistoryError:
            return {}

    def fill(self) -> None:
        body = self.ids.body
        body.clear_widgets()
        play = self.play
        if play is None:
            self.title_text = _("This play is no longer in history.")
            self.info_text = ""
            self.has_chart = False
            return
        # The game over when and how long, so the longest title ("Col·leccionistes d'art") is never cut.
        when = f"{when_text(play.started)} · {duration_text(play.duration_s)}"
        self.title_text = (
            f"[b]{escape_markup(game_title(play.game))}[/b]\n[size={int(dp(16))}]{escape_markup(when)}[/size]"
        )
        self.info_text = ""
        self.has_chart = play.game in CHARTED and bool(play.series)
        if self.showing_timeline:
            self._timeline(body, play)
        else:
            self._sheet(body, play)

    def toggle_timeline(self) -> None:
        self.showing_timeline = not self.showing_timeline
        self.fill()

    # -- score sheet -------------------------------------------------------------------------------------------

    def _sheet(self, body: Any, play: Play) -> None:
        people = self.names()
        stats = GAME_STATS.get(play.game, ())
        # Rank, score and the game's figures as wide as they need; the player's column takes the rest (equal
        # columns left a 14-character name 130 px and cut it, beside a 160 px column for the rank).
        widths = [dp(44), None, dp(100), *(dp(120) for _s in stats)]
        grid = Factory.GridLayout(cols=len(widths), size_hint_y=None, spacing=(dp(4), dp(4)), row_default_height=dp(48))
        grid.bind(minimum_height=grid.setter("height"))
        for header, width in zip(
            ["", _("Player"), _("Score"), *(_(STAT_LABELS[s]) for s in stats)], widths, strict=True
        ):
            # A long heading wraps to a second line ("Empats de la pila central"), never cut short.
            head = Label(text=f"[color=9aa0b0]{escape_markup(header)}[/color]", markup=True, font_size=dp(16))
            head.halign, head.valign = "left", "middle"
            head.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
            if width is not None:
                head.size_hint_x, head.width, head.text_size = None, width, (width, None)
            grid.add_widget(head)
        for seat in sorted(play.players, key=lambda p: (p.rank or 99, p.seat)):
            person = people.get(seat.seat)
            name = person.name if person is not None else seat.name
            avatar = person.avatar if person is not None else seat.name[:1].upper()
            rank = str(seat.rank) if seat.rank else ""
            if seat.winner:
                rank = f"[color={WIN}]{rank or '1'}[/color]"
            grid.add_widget(_cell(f"[b]{rank}[/b]", size=24, width=dp(44)))
            chip = BoxLayout(spacing=dp(8))
            badge = Factory.AvatarChip(text=escape_markup(avatar))
            badge.colour = seat.colour
            badge.color = readable_text(seat.colour)
            chip.add_widget(badge)
            label = name if name == seat.name else _("{name} (as {played})").format(name=name, played=seat.name)
            shown = f"[color={WIN}]{escape_markup(label)}[/color]" if seat.winner else escape_markup(label)
            chip.add_widget(_cell(f"[b]{shown}[/b]", size=20))
            grid.add_widget(chip)
            grid.add_widget(_cell(f"[b]{score_text(seat.score)}[/b]", size=22, width=widths[2]))
            for stat in stats:
                value = seat.stats.get(stat)
                grid.add_widget(_cell(stat_text(stat, value) if value is not None else "–", size=18, width=dp(120)))
        body.add_widget(grid)
        if play.lowest_wins:
            body.add_widget(Factory.Caption(text=_("Lowest score wins.")))
        if play.problem:
            body.add_widget(Factory.Caption(text=play.problem, color=(1, 0.55, 0.5, 1)))
        rounds = play.series.get("rounds") if play.game == "ratuki" else None
        if rounds:
            body.add_widget(Factory.Caption(text=_("Round by round"), font_size=dp(18)))
            order = sorted(play.players, key=lambda p: p.seat)
            sheet = Factory.GridLayout(
                cols=1 + len(order), size_hint_y=None, spacing=(dp(4), dp(2)), row_default_height=dp(36)
            )
            sheet.bind(minimum_height=sheet.setter("height"))
            round_word = _("Round")  # (outside the f-string: Babel does not look inside one)
            sheet.add_widget(_cell(f"[color=9aa0b0]{round_word}[/color]", size=16))
            for seat in order:
                person = people.get(seat.seat)
                who = person.name if person is not None else seat.name
                sheet.add_widget(_cell(f"[color={legible(seat.colour)}]{escape_markup(who)}[/color]", size=17))
            totals = {seat.seat: 0.0 for seat in order}
            for number, record in enumerate(rounds, start=1):
                sheet.add_widget(_cell(str(number), size=17))
                for seat in order:
                    points = float(record.get(str(seat.seat), 0) or 0)
                    totals[seat.seat] += points
                    sheet.add_widget(_cell(f"{points:+.0f}  [color=9aa0b0]{totals[seat.seat]:.0f}[/color]", size=17))
            body.add_widget(sheet)
        # Edition and options last (above the scores, a Ratuki play's seven took three lines of the first screen).
        options = options_text(play)
        if options:
            body.add_widget(Factory.Caption(text=options))

    # -- timeline ----------------------------------------------------------------------------------------------

    def _timeline(self, body: Any, play: Play) -> None:
        """The moves, PAGE at a time (Earlier / Later moves between pages)."""
        if self.moments is None:
            try:
                self.moments = App.get_running_app().history.timeline(play)
            except (HistoryError, JournalError) as err:
                body.add_widget(Factory.Caption(text=str(err)))
                return
        moments = self.moments
        if moments is None:
            body.add_widget(
                Factory.Caption(
                    text=_("This play's moves are not on this machine (it was imported from a CSV file)."),
                    font_size=dp(18),
                )
            )
            return
        self.page = max(0, min(self.page, (len(moments) - 1) // PAGE))
        first = self.page * PAGE
        shown = moments[first : first + PAGE]
        if first:
            earlier = Factory.BigButton(
                text=ngettext("{n} earlier move", "{n} earlier moves", first).format(n=first), font_size=dp(18)
            )
            earlier.bind(on_release=lambda _b: self.turn_page(-1))
            body.add_widget(earlier)
        grid = Factory.GridLayout(cols=1, size_hint_y=None, spacing=dp(2))
        grid.bind(minimum_height=grid.setter("height"))
        for moment in shown:
            at = formatting.time(moment.at, style="medium") if moment.at is not None else ""
            text = f"[color=9aa0b0]{moment.number:>3}  {at}[/color]   {escape_markup(moment.text)}"
            line = Label(text=text, markup=True, font_size=dp(17), halign="left", valign="middle", size_hint_y=None)
            line.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
            line.bind(texture_size=lambda w, size: setattr(w, "height", max(dp(30), size[1] + dp(4))))
            grid.add_widget(line)
        body.add_widget(grid)
        after = len(moments) - first - len(shown)
        if after > 0:
            later = Factory.BigButton(
                text=ngettext("{n} later move", "{n} later moves", after).format(n=after), font_size=dp(18)
            )
            later.bind(on_release=lambda _b: self.turn_page(1))
            body.add_widget(later)

    def turn_page(self, step: int) -> None:
        """The timeline's next (1) or previous (-1) page, from its top."""
        self.page += step
        self.fill()
        self.ids.scroll.scroll_y = 1 if step > 0 else 0  # earlier moves: their end meets the page left

    # -- chart and delete --------------------------------------------------------------------------------------

    def open_chart(self) -> None:
        from companion.history import charts

        play = self.play
        if play is None or not self.has_chart:
            return
        people = self.names()
        who = {s.seat: charts.Who(people[s.seat].name if s.seat in people else s.name, s.colour) for s in play.players}
        series = play.series
        if play.game == "ratuki":

            def make(size: tuple[int, int]) -> Any:
                return charts.ratuki_progression(series["rounds"], who, series.get("target"), size=size)

            title = _("Ratuki: score by round")
        else:

            def make(size: tuple[int, int]) -> Any:
                return charts.lowdown_breakdown(
                    series["breakdown"],
                    [grid_title(name) for name in series["grids"]],
                    who,
                    [w.seat for w in play.winners],
                    shaded_points=int(series.get("shaded_points", 6)),
                    size=size,
                )

            title = _("Lowdown: where the points came from")
        app = App.get_running_app()
        app.manager.get_screen("chart").show(title, make, back_to="play")
        app.go("chart")

    def ask_delete(self) -> ModalView | None:
        """Delete only after a confirmation; the saved game is kept unless *Also delete the saved game* is on."""
        play = self.play
        if play is None:
            return None
        app = App.get_running_app()
        in_journal = app.history.game_record(play) is not None
        view = dialog(600, 300 if in_journal else 230)
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(12))
        question = _("Delete this {game} play of {when} from history?").format(
            game=game_title(play.game), when=when_text(play.started)
        )
        box.add_widget(Label(text=question, font_size=dp(20), text_size=(dp(560), None), halign="center"))
        also = Factory.ToggleButton(
            text=_("Also delete the saved game (its moves): off"),
            font_size=dp(18),
            size_hint_y=None,
            height=dp(56),
            background_normal="",
            background_down="",
            background_color=(0.22, 0.24, 0.32, 1),
        )

        def switched(button: Any, state: str) -> None:
            on = state == "down"
            button.text = (
                _("Also delete the saved game (its moves): on")
                if on
                else _("Also delete the saved game (its moves): off")
            )
            button.background_color = (0.62, 0.18, 0.18, 1) if on else (0.22, 0.24, 0.32, 1)

        also.bind(state=switched)
        if in_journal:
            box.add_widget(also)
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(12))
        keep = Factory.BigButton(text=_("Keep it"))
        keep.bind(on_release=lambda _b: view.dismiss())
        delete = Factory.DangerButton(text=_("Delete"))

        def delete_now(_button: Any) -> None:
            view.dismiss()
            self.delete(journal_too=also.state == "down")

        delete.bind(on_release=delete_now)
        row.add_widget(keep)
        row.add_widget(delete)
        box.add_widget(row)
        view.add_widget(box)
        view.also = also  # type: ignore[attr-defined]  # tests switch it by touch
        view.open()
        return view

    def delete(self, *, journal_too: bool) -> None:
        app = App.get_running_app()
        if self.play is None:
            return
        try:
            app.history.delete(self.play, journal_too=journal_too)
        except (HistoryError, JournalError) as err:
            self.info_text = _("Not deleted: {error}").format(error=escape_markup(str(err)))
            return
        self.play = None
        self.back()


def _cell(text: str, *, size: int, width: float | None = None) -> Label:
    label = Label(text=text, markup=True, font_size=dp(size), halign="left", valign="middle", shorten=True)
    if width is not None:
        label.size_hint_x = None
        label.width = width
    label.bind(size=lambda w, s: setattr(w, "text_size", s))
    return label


def grid_title(name: str) -> str:
    """A Lowdown grid's name as stored in a play (the board file's English, "Red/orange"; "Grid 2" for a grid of a
    board file of one's own without one) in the table's language ("Rojo/naranja")."""
    from companion.games.lowdown.wording import colour_name

    number = re.fullmatch(r"Grid (\d+)", str(name))
    return _("Grid {n}").format(n=number.group(1)) if number else colour_name(name)
