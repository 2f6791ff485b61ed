"""Saved games: resume any unfinished game, stop offering one, or export one as JSON lines."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.journal.export import export_game
from companion.paths import data_dir
from companion.ui.screens import load_kv
from companion.ui.screens.home import _known, describe_record

load_kv("games")


class GamesScreen(Screen):
    """Lists the journal's games, newest first (finished ones can be exported but not resumed)."""

    status_text = StringProperty("")

    def on_pre_enter(self, *_args: Any) -> None:
        self.status_text = "Unfinished games can be resumed exactly where they stopped."
        self.fill()

    def fill(self) -> None:
        app = App.get_running_app()
        grid = self.ids.list
        grid.clear_widgets()
        records = [r for r in app.journal.games() if _known(r.game)][:30]
        if not records:
            grid.add_widget(Factory.Caption(text="No games yet."))
        for record in records:
            line = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
            text = describe_record(record, app.game_title(record.game))
            label = Factory.Label(
                text=("" if not record.finished else "[finished]  ") + text,
                markup=True,
                font_size=dp(16),
                text_size=(None, None),
                halign="left",
                shorten=True,
            )
            label.bind(size=lambda w, s: setattr(w, "text_size", s))
            label.valign = "middle"
            line.add_widget(label)
            if not record.finished:
                resume = Factory.AccentButton(text="Resume", size_hint_x=None, width=dp(110))
                resume.bind(on_release=lambda _b, gid=record.id: app.resume(gid))
                line.add_widget(resume)
                drop = Factory.DangerButton(text="Stop", size_hint_x=None, width=dp(80))
                drop.bind(on_release=lambda _b, gid=record.id: self.abandon(gid))
                line.add_widget(drop)
            export = Factory.BigButton(text="Export", size_hint_x=None, width=dp(100))
            export.bind(on_release=lambda _b, gid=record.id: self.export(gid))
            line.add_widget(export)
            grid.add_widget(line)

    def abandon(self, game_id: int) -> None:
        App.get_running_app().journal.abandon(game_id)
        self.status_text = f"Game {game_id} is no longer offered for resume (it is kept; Export still works)."
        self.fill()

    def export(self, game_id: int) -> None:
        path = data_dir() / "exports" / f"game-{game_id}.jsonl"
        export_game(App.get_running_app().journal, game_id, path)
        self.status_text = f"Exported to {path}"
