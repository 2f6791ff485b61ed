"""New game: how many players, their names, colours and buttons (seats), and the game's settings."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup, get_color_from_hex

from companion.games import engine as find_engine
from companion.games.base import BadSetup, Engine, Player, Setting, Setup
from companion.history import HistoryError
from companion.history.store import name_key
from companion.i18n import _
from companion.journal import JournalError
from companion.paths import data_dir
from companion.ui.namepad import NamePad
from companion.ui.screens import load_kv
from companion.ui.screens.game import not_saved
from companion.ui.widgets import readable_text

load_kv("setup")

NAME_BG = (0.30, 0.32, 0.42, 1)
PALETTE = ["#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047", "#8e24aa", "#00acc1", "#f5f5f5", "#6d4c41"]


def _file_title(path: Path) -> str:
    """What a data file is called at the table: the ``name`` it holds, else its file name without ``.json``."""
    try:
        name = json.loads(path.read_text(encoding="utf-8")).get("name")
    except (OSError, ValueError, AttributeError):
        name = None
    return str(name) if isinstance(name, str) and name.strip() else path.stem.replace("_", " ")


class SetupScreen(Screen):
    """Collects a :class:`Setup` and starts the game. The game's options come from the engine's settings table
    (:class:`~companion.games.base.Setting`), in its words: a tap cycles a choice (the players' names for who
    plays first, the boards in the data folder for a board), toggles an on/off, and −/+ step a number."""

    title_text = StringProperty("")
    error_text = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.game = ""
        self.count = 0
        self.rows: list[dict[str, Any]] = []
        self.settings: dict[str, Any] = {}
        self._files: dict[str, Path] = {}  # file settings: the folder each one's choices come from

    def prepare(self, game: str, *, seed: int | None = None) -> None:
        """Fill the screen for ``game`` from the config's default names and colours."""
        app = App.get_running_app()
        engine = find_engine(game)
        self.game = game
        self.seed = seed
        from companion.ui.words import game_title

        self.title_text = _("New {game}").format(game=game_title(engine))
        self.error_text = ""
        self.rows = starting_rows(app)
        self.settings = engine.default_settings()
        self.min_players, self.max_players = engine.min_players, min(engine.max_players, 5)
        self.count = max(self.min_players, min(self.max_players, 3 if self.max_players >= 3 else 2))
        self._build_counts()
        self._build_players()
        self._build_settings(engine)

    # -- building ----------------------------------------------------------------------------------------

    def _build_counts(self) -> None:
        box = self.ids.counts
        box.clear_widgets()
        for n in range(2, 6):
            button = Factory.BigButton(text=str(n), disabled=not self.min_players <= n <= self.max_players)
            if n == self.count:
                button.background_color = (0.10, 0.55, 0.35, 1)
            button.bind(on_release=lambda _b, k=n: self.set_count(k))
            box.add_widget(button)

    def set_count(self, n: int) -> None:
        self.count = n
        engine = find_engine(self.game)
        for key, setting in engine.settings.items():
            if setting.player and self.settings.get(key, 0) >= n:
                self.settings[key] = 0  # the first player left the table: the top row plays first
        self._build_counts()
        self._build_players()
        self._build_settings(engine)

    def _build_players(self) -> None:
        box = self.ids.players
        box.clear_widgets()
        for index in range(self.count):
            row = self.rows[index]
            line = BoxLayout(spacing=dp(6), size_hint_y=None, height=dp(52))
            seat = Factory.BigButton(
                text=_("Seat {n}").format(n=row["seat"]), size_hint_x=None, width=dp(96), height=dp(52)
            )
            seat.bind(on_release=lambda _b, i=index: self.cycle_seat(i))
            name = Factory.BigButton(
                text=row["name"], font_size=dp(22), height=dp(52), halign="left", background_color=NAME_BG
            )
            name.bind(on_release=lambda _b, i=index: self.edit_name(i))
            colour = Factory.BigButton(
                text=_("colour"),
                size_hint_x=None,
                width=dp(96),
                height=dp(52),
                background_color=get_color_from_hex(row["colour"]),
                color=readable_text(row["colour"]),
            )
            colour.bind(on_release=lambda _b, i=index: self.cycle_colour(i))
            line.add_widget(seat)
            line.add_widget(name)
            line.add_widget(colour)
            box.add_widget(line)
        box.add_widget(Factory.Widget())

    def _build_settings(self, engine: Engine) -> None:
        """One row per setting of the engine's table that a player can change, in the table's words; a choice of
        one is not offered (e.g. a board setting while the data folder holds no other board). The list opens at
        its top."""
        grid = self.ids.settings
        grid.clear_widgets()
        self._files = {key: data_dir() / s.files for key, s in engine.settings.items() if s.files}
        for key, setting in engine.settings.items():
            options = self._options(key, setting)
            if not setting.shown or (options is not None and len(options) < 2):
                continue
            value = self.settings[key]
            if isinstance(value, bool) or options is not None:
                button = Factory.BigButton(font_size=dp(17), height=dp(52))
                # a long text wraps (at spaces) and the button grows with it
                button.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(12), None)))
                button.bind(texture_size=lambda b, size: setattr(b, "height", max(dp(52), size[1] + dp(14))))
                button.bind(on_release=lambda _b, k=key: self.cycle_setting(k))
                self._show_setting(button, key)
                grid.add_widget(button)
            elif isinstance(value, int | float):
                line = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(4))
                minus = Factory.BigButton(text="−", size_hint=(None, 1), width=dp(52))
                plus = Factory.BigButton(text="+", size_hint=(None, 1), width=dp(52))
                text = Factory.Label(font_size=dp(16), halign="center")
                # The row grows with its label (a long name wraps to two lines above the value).
                text.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))
                text.bind(texture_size=lambda _w, size, row=line: setattr(row, "height", max(dp(56), size[1] + dp(8))))
                minus.bind(on_release=lambda _b, k=key, t=text: self.step_setting(k, -1, t))
                plus.bind(on_release=lambda _b, k=key, t=text: self.step_setting(k, +1, t))
                self.step_setting(key, 0, text)
                line.add_widget(minus)
                line.add_widget(text)
                line.add_widget(plus)
                grid.add_widget(line)
        if not grid.children:
            grid.add_widget(Factory.Caption(text=_("No settings for this game.")))
        grid.add_widget(Factory.Widget(size_hint_y=None, height=dp(8)))  # the last row clear of the edge
        self.ids.settings_scroll.scroll_y = 1

    def _options(self, key: str, setting: Setting) -> list[Any] | None:
        """The values a tap cycles through: the choices, the players (a seat setting), ``None`` and the
        folder's files (a file setting); ``None`` for a toggle or a number."""
        if setting.player:
            return list(range(self.count))
        if setting.files:
            return [None, *sorted(str(path) for path in self._files[key].glob("*.json"))]
        return setting.values or None

    def _words(self, key: str, setting: Setting, value: Any) -> str:
        """How a value is shown: the choice's words, a player's name, a board's own name, on or off."""
        if setting.player:
            return str(self.rows[value]["name"]) if 0 <= value < self.count else str(value + 1)
        if setting.files:
            if value is None:
                return _("standard")
            if isinstance(value, dict):
                return _("the game's own")
            return _file_title(Path(str(value)))
        label = setting.choice_label(value)
        if label is not None:
            return _(label).format(value=value)
        if isinstance(value, bool):
            return _("on") if value else _("off")
        return str(value)

    def _show_setting(self, button: Any, key: str) -> None:
        setting = find_engine(self.game).settings[key]
        shown = self._words(key, setting, self.settings[key])
        button.text = f"{escape_markup(_(setting.label))}: [b]{escape_markup(shown)}[/b]"
        button.markup = True

    # -- edits -------------------------------------------------------------------------------------------

    def edit_name(self, index: int) -> NamePad:
        """Open the on-screen keyboard for player ``index``; the presets are the players who played most recently
        (then the configured names), less the ones already at the table."""
        app = App.get_running_app()
        taken = {name_key(r["name"]) for i, r in enumerate(self.rows[: self.count]) if i != index}
        presets = [n for n in offered_names(app) if name_key(n) not in taken]
        pad = NamePad(self.rows[index]["name"], presets, lambda name: self._set_name(index, name))
        pad.open()
        return pad

    def _set_name(self, index: int, value: str) -> None:
        """A name typed or picked: a known player brings their colour (unless someone else at the table has it).
        The same name at two seats is refused at Start game, with the reason."""
        row = self.rows[index]
        row["name"] = value
        row["person"] = None
        person = _known_person(value)
        if person is not None:
            row["person"] = person.uid
            row["name"] = person.name
            used = {r["colour"] for i, r in enumerate(self.rows[: self.count]) if i != index}
            if person.colour not in used:
                row["colour"] = person.colour
        self._build_players()
        self._build_settings(find_engine(self.game))  # "First to play" shows names

    def cycle_seat(self, index: int) -> None:
        """Move player ``index`` to the next button; a player already there swaps onto this one's old button
        (so seats can be rearranged even with five players)."""
        old = self.rows[index]["seat"]
        new = old % 5 + 1
        for other in self.rows:
            if other is not self.rows[index] and other["seat"] == new:
                other["seat"] = old
        self.rows[index]["seat"] = new
        self._build_players()

    def cycle_colour(self, index: int) -> None:
        used = {r["colour"] for i, r in enumerate(self.rows[: self.count]) if i != index}
        current = self.rows[index]["colour"]
        start = PALETTE.index(current) if current in PALETTE else -1
        for step in range(1, len(PALETTE) + 1):
            candidate = PALETTE[(start + step) % len(PALETTE)]
            if candidate not in used:
                self.rows[index]["colour"] = candidate
                break
        self._build_players()

    def cycle_setting(self, key: str) -> None:
        """A tap on a setting: the next choice (after the last, the first again), or on/off."""
        setting = find_engine(self.game).settings[key]
        options = self._options(key, setting)
        value = self.settings[key]
        if options:
            at = next((i for i, o in enumerate(options) if o == value and type(o) is type(value)), -1)
            self.settings[key] = options[(at + 1) % len(options)]
        else:
            self.settings[key] = not value
        scroll = self.ids.settings_scroll.scroll_y
        self._build_settings(find_engine(self.game))
        self.ids.settings_scroll.scroll_y = scroll  # the list stays where the finger is

    def step_setting(self, key: str, direction: int, label: Any) -> None:
        setting = find_engine(self.game).settings[key]
        value = self.settings[key]
        step = 1 if isinstance(value, int) else 0.01 if abs(value) < 1 else 0.5
        lo, hi = setting.range or (0, 10**6)
        new = min(hi, max(lo, value + direction * step))
        self.settings[key] = type(value)(round(new, 3))
        label.text = f"{escape_markup(_(setting.label))}\n[b][size={int(dp(22))}]{self.settings[key]}[/size][/b]"
        label.markup = True

    # -- start -------------------------------------------------------------------------------------------

    def current_setup(self) -> Setup:
        players = tuple(
            Player(name=r["name"].strip(), colour=r["colour"], seat=r["seat"]) for r in self.rows[: self.count]
        )
        seed = self.seed if self.seed is not None else int.from_bytes(os.urandom(4), "big")
        return Setup(game=self.game, players=players, settings=dict(self.settings), seed=seed)

    def chosen_persons(self) -> dict[int, str]:
        """seat -> player uid for the rows that are known players."""
        return {r["seat"]: r["person"] for r in self.rows[: self.count] if r.get("person")}

    def how_to_play(self) -> None:
        """This game's rules page; Back returns here with the players and options as they were."""
        from companion.ui.screens.howto import open_how_to_play

        open_how_to_play(self.game, self.name)

    def start(self) -> None:
        self.error_text = ""
        try:
            App.get_running_app().start_game(self.current_setup(), self.chosen_persons())
        except BadSetup as err:
            self.error_text = str(err)
        except JournalError as err:  # a full or failing card: no game was recorded, the screen stays as it was
            self.error_text = not_saved(err)


def offered_names(app: Any) -> list[str]:
    """Names to offer, recent players first, then the configured default names (each once)."""
    names: list[str] = []
    with contextlib.suppress(HistoryError):
        names = [p.name for p in app.history.recent()]
    seen = {name_key(n) for n in names}
    for name in app.settings.get("players", "names"):
        if name_key(name) not in seen:
            seen.add(name_key(name))
            names.append(name)
    return names


def starting_rows(app: Any) -> list[dict[str, Any]]:
    """Seats 1-5 for a new game: the most recent players in their own colours, then the configured names; no two
    rows share a name or a colour."""
    colours = list(app.settings.get("players", "colours"))
    try:
        recent = app.history.recent(5)
    except HistoryError:
        recent = []
    rows: list[dict[str, Any]] = []
    used_colours: set[str] = set()
    for person in recent:
        colour = person.colour if person.colour not in used_colours else ""
        rows.append({"name": person.name, "colour": colour, "seat": len(rows) + 1, "person": person.uid})
        used_colours.add(colour)
    taken = {name_key(r["name"]) for r in rows}
    for name in app.settings.get("players", "names"):
        if len(rows) == 5:
            break
        if name_key(name) not in taken:
            rows.append({"name": name, "colour": "", "seat": len(rows) + 1, "person": None})
            taken.add(name_key(name))
    for row in rows:
        if not row["colour"]:
            row["colour"] = next(c for c in [*colours, *PALETTE] if c not in used_colours)
            used_colours.add(row["colour"])
    return rows


def _known_person(name: str) -> Any:
    try:
        return App.get_running_app().history.person_named(name)
    except HistoryError:
        return None
