"""Home: continue the unfinished game, start one of the implemented games, or open a tool screen."""

from __future__ import annotations

import time
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion import i18n
from companion.games import GAMES, engines
from companion.i18n import N_, _, ngettext
from companion.journal.session import latest_unfinished
from companion.journal.store import GameRecord, JournalError
from companion.ui.screens import SCREENS, load_kv
from companion.ui.words import game_title, players_range

load_kv("home")

TOOLS = [
    ("history", N_("History")),
    ("games", N_("Saved games")),
    ("buttons", N_("Button test")),
    ("camera", N_("Camera")),
    ("dice", N_("Dice")),
    ("calibrate", N_("Calibrate")),
]


def ago(seconds: float) -> str:
    """ "just now", "5 minutes ago", "3 hours ago", "2 days ago" in the current language."""
    from companion.ui.words import ago as worded

    return worded(seconds)


def moves(count: int) -> str:
    return ngettext("{n} move", "{n} moves", count).format(n=count)


def describe_record(record: GameRecord, title: str, *, now: float | None = None) -> str:
    names = ", ".join(p.name for p in record.setup.players)
    when = ago((time.time() if now is None else now) - record.updated)
    return _("{title} — {names} · {moves} · {when}").format(
        title=title, names=names, moves=moves(record.actions), when=when
    )


class HomeScreen(Screen):
    """The first screen. Offers the most recent unfinished game for resume, exactly where it stopped."""

    resume_text = StringProperty("")
    mode_text = StringProperty("")
    language_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._latest: GameRecord | None = None
        self._built = False

    def on_pre_enter(self, *_args: Any) -> None:
        app = App.get_running_app()
        if not self._built:
            self._build(app)
        try:
            records = app.journal.games(unfinished_only=True)
        except JournalError as err:  # a damaged journal: the app still runs, and says so
            app.notice("journal", i18n.Lazy("Saved games cannot be listed: {problem}", problem=str(err)))
            records = []
        # A game whose row is damaged is named, never offered; the others stay playable.
        app.notice("damaged-games", damaged_notice([g for g in records if g.problem], app.game_title))
        # A game with no moves yet (set up, then left) does not take the Continue slot; Saved games lists it.
        unfinished = [g for g in records if _known(g.game) and g.problem is None and g.actions > 0]
        try:  # a game whose moves end it is never offered, whatever its flag says
            self._latest = latest_unfinished(app.journal, unfinished)
        except JournalError:
            self._latest = unfinished[0] if unfinished else None
        if self._latest is not None:
            title = app.game_title(self._latest.game)
            self.resume_text = _("Continue  {game}").format(game=describe_record(self._latest, title))
        else:
            self.resume_text = ""
        self.mode_text = _("Simulation: keys 1–5 / on-screen buttons") if app.simulation else _("GPIO buttons")
        from companion.ui.screens.language import language_name

        self.language_text = language_name(i18n.current())

    def _build(self, app: Any) -> None:
        self._built = True
        for engine in engines():
            if not _known(engine.name):
                continue
            button = Factory.BigButton(
                text=f"{game_title(engine)}\n[size=16]{players_range(engine.min_players, engine.max_players)}[/size]",
                markup=True,
                size_hint_y=1,  # rows share the room left (they shrink when the banner needs lines)
                font_size=dp(24),
            )
            button.bind(on_release=lambda _b, name=engine.name: self.new_game(name))
            self.ids.games.add_widget(button)
        for name, label in TOOLS:
            if name in SCREENS:
                button = Factory.BigButton(text=_(label), font_size=17)
                button.bind(on_release=lambda _b, target=name: self.open_tool(target))
                self.ids.tools.add_widget(button)

    def open_tool(self, name: str) -> None:
        """Open a tool screen; the dice tool hands its roll to the game in progress (if any) and comes back here."""
        app = App.get_running_app()
        if name == "dice":
            app.open_dice(app.game_in_progress() or "home", back_to="home")
        else:
            app.go(name)

    def new_game(self, name: str) -> None:
        app = App.get_running_app()
        app.manager.get_screen("setup").prepare(name)
        app.go("setup")

    def resume_latest(self) -> None:
        if self._latest is not None:
            App.get_running_app().resume(self._latest.id)


def damaged_notice(records: list[GameRecord], title: Any) -> str | None:
    """What the banner says about saved games whose rows cannot be read (None when there are none)."""
    if not records:
        return None
    named = "; ".join(
        _("game {id} ({title}): {reason}").format(
            id=r.id, title=title(r.game) if _known(r.game) else r.game[:30], reason=r.problem
        )
        for r in records[:3]
    )
    return ngettext(
        "A saved game is damaged and cannot be continued ({games}). It stays in the journal file; the other "
        "games are fine.",
        "{count} saved games are damaged and cannot be continued ({games}). They stay in the journal file; the "
        "other games are fine.",
        len(records),
    ).format(count=len(records), games=named)


def _known(game: str) -> bool:
    """A game of the table with a screen to be played on (a journal may hold games this version does not have)."""
    entry = GAMES.get(game)
    return entry is not None and entry.screen is not None
