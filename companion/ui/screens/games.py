"""Saved games: resume any unfinished game, stop offering one, or export one as JSON lines."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.i18n import _
from companion.journal.export import export_game
from companion.journal.store import GameRecord, JournalError
from companion.paths import data_dir
from companion.ui.screens import load_kv
from companion.ui.screens.home import _known, ago, moves
from companion.ui.widgets import confirm

load_kv("games")


class GamesScreen(Screen):
    """Lists the journal's games, newest first (finished ones can be exported but not resumed)."""

    status_text = StringProperty("")

    def on_pre_enter(self, *_args: Any) -> None:
        self.status_text = _("Unfinished games resume exactly where they stopped. Export writes to {folder}").format(
            folder=export_dir()
        )
        self.fill()

    def on_leave(self, *_args: Any) -> None:
        # The rows (and their textures) are made afresh on every visit: none are kept while other screens show.
        self.ids.list.clear_widgets()

    def fill(self) -> None:
        app = App.get_running_app()
        grid = self.ids.list
        grid.clear_widgets()
        try:
            records = [r for r in app.journal.games() if _known(r.game)][:30]
        except JournalError as err:
            self.status_text = _("The saved games cannot be listed: {problem}").format(problem=escape_markup(str(err)))
            records = []
        if not records:
            grid.add_widget(Factory.Caption(text=_("No games yet."), font_size=dp(20)))
        results = self.results(records)
        for record in records:
            line = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(6))
            line.game_id = record.id  # type: ignore[attr-defined]  # which game a row is (tests find it)
            result = results.get(record.id)
            # A game played to its end is finished; one nobody will resume (Stop offering) is only not offered.
            state = _("(finished)") if result is not None else _("(no longer offered)")
            title = app.game_title(record.game) + (
                "  [color=9aa0b0]" + escape_markup(state) + "[/color]" if record.finished else ""
            )
            names = ", ".join(p.name for p in record.setup.players)
            when = ago(time.time() - record.updated)
            if record.problem is not None:  # named, kept in the file, never resumed
                title = app.game_title(record.game) + "  [color=ff8a80]" + escape_markup(_("(damaged)")) + "[/color]"
                names = _("game {id}: {reason}").format(id=record.id, reason=record.problem)
            # Title, then who/when, each on its own line: long names are cut with "…", never the game's title.
            label = BoxLayout(orientation="vertical")
            for text, size in (
                (f"[b]{title}[/b]", dp(19)),
                (f"{escape_markup(names)} · {moves(record.actions)} · {when}", dp(16)),
            ):
                part = Factory.Label(
                    text=text, markup=True, font_size=size, halign="left", valign="middle", shorten=True
                )
                part.bind(size=lambda w, s: setattr(w, "text_size", s))
                label.add_widget(part)
            line.add_widget(label)
            if not record.finished and record.problem is None:
                resume = Factory.AccentButton(text=_("Resume"), size_hint_x=None, width=dp(110))
                resume.bind(on_release=lambda _b, gid=record.id: app.resume(gid))
                line.add_widget(resume)
                drop = Factory.DangerButton(text=_("Stop"), size_hint_x=None, width=dp(80))
                drop.bind(on_release=lambda _b, r=record: self.ask_abandon(r))
                line.add_widget(drop)
            if result is not None:  # its final scores and winner, as in History
                shown = Factory.AccentButton(text=_("Result"), size_hint_x=None, width=dp(104))
                shown.bind(on_release=lambda _b, uid=result: self.open_result(uid))
                line.add_widget(shown)
            if record.problem is None:
                export = Factory.BigButton(text=_("Export"), size_hint_x=None, width=dp(100))
                export.bind(on_release=lambda _b, gid=record.id: self.export(gid))
                line.add_widget(export)
            elif not record.finished:
                drop = Factory.DangerButton(text=_("Stop"), size_hint_x=None, width=dp(80))
                drop.bind(on_release=lambda _b, r=record: self.ask_abandon(r))
                line.add_widget(drop)
            grid.add_widget(line)

    def results(self, records: list[GameRecord]) -> dict[int, str]:
        """journal game id -> its play in history (uid), for the games played to their end (a game stopped being
        offered is not one). Derived from the journal by history (replayed when they changed); a game history
        cannot tell about is asked of its own replay."""
        from companion.history import FINISHED, HistoryError, record_uid
        from companion.journal import GameSession, ReplayError

        app = App.get_running_app()
        ended = [r for r in records if r.finished and r.problem is None]
        if not ended:
            return {}
        plays: dict[str, Any] = {}
        try:
            app.history.refresh()
            plays = {p.uid: p for p in app.history.plays(statuses=(FINISHED,))}
        except (HistoryError, JournalError):
            pass
        out: dict[int, str] = {}
        for record in ended:
            uid = record_uid(record)
            if uid in plays:
                out[record.id] = uid
                continue
            try:
                over = GameSession(app.journal, record.id).over
            except (ReplayError, JournalError):
                over = False
            if over and app.history.play(uid) is not None:
                out[record.id] = uid
        return out

    def open_result(self, uid: str) -> None:
        """A finished game's final scores and winner (the History play screen; Back comes here)."""
        app = App.get_running_app()
        app.manager.get_screen("play").show(uid, back_to=self.name)
        app.go("play")

    def ask_abandon(self, record: GameRecord) -> ModalView:
        """Stop offering a game only after a confirmation: a mis-tap must not hide a game in progress."""
        app = App.get_running_app()
        names = ", ".join(p.name for p in record.setup.players)
        question = _(
            "Stop offering {game} ({names}, {moves}) for resume?\nIt stays saved and can still be exported."
        ).format(game=app.game_title(record.game), names=names, moves=moves(record.actions))
        return confirm(question, _("Stop offering"), lambda: self.abandon(record.id))

    def abandon(self, game_id: int) -> None:
        try:
            App.get_running_app().journal.abandon(game_id)
        except JournalError as err:
            self.status_text = _("Not changed: {problem}").format(problem=escape_markup(str(err)))
            return
        self.status_text = _("Game {id} is no longer offered for resume (it is kept; Export still works).").format(
            id=game_id
        )
        self.fill()

    def export(self, game_id: int) -> None:
        path = export_dir() / f"game-{game_id}.jsonl"
        try:
            export_game(App.get_running_app().journal, game_id, path)
        except (JournalError, OSError) as err:
            self.status_text = _("Game {id} was not exported: {problem}").format(
                id=game_id, problem=escape_markup(str(err))
            )
            return
        self.status_text = _("Game {id} saved as [b]{path}[/b]").format(id=game_id, path=escape_markup(str(path)))


def export_dir() -> Path:
    """Where the Export button writes: ``exports/`` in the app's data folder (named on screen after export)."""
    return data_dir() / "exports"
