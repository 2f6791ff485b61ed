"""Players: everyone who has played, most recent first; rename one (in any script), change their colour or
avatar initial, or merge two entries that are one person. Nothing of anyone's history is lost either way."""

from __future__ import annotations

from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.screenmanager import Screen
from kivy.uix.scrollview import ScrollView
from kivy.utils import escape_markup, get_color_from_hex

import companion.ui.screens.play  # noqa: F401  (PlayRow, AvatarChip)
from companion import formatting
from companion.history import HistoryError, Person
from companion.history.stats import player_stats
from companion.history.store import first_initial
from companion.i18n import _, ngettext
from companion.ui.contrast import BUTTON, legible
from companion.ui.namepad import NamePad
from companion.ui.screens import load_kv
from companion.ui.screens.setup import PALETTE
from companion.ui.widgets import confirm, dialog, readable_text

load_kv("players")


class PlayersScreen(Screen):
    """The list; each player's *Edit* opens what can be changed about them."""

    status_text = StringProperty("")

    def on_pre_enter(self, *_args: Any) -> None:
        self.status_text = _("Tap a player to rename them, change their colour or initial, or merge two.")
        self.fill()

    def fill(self) -> None:
        app = App.get_running_app()
        grid = self.ids.list
        grid.clear_widgets()
        try:
            persons = app.history.store.persons()
            counts = player_stats(app.history.plays(), app.history.store.all_links())
        except HistoryError as err:
            self.status_text = escape_markup(str(err))
            return
        if not persons:
            grid.add_widget(Factory.Caption(text=_("Nobody has played yet."), font_size=dp(20)))
        for person in persons:
            plays = counts[person.uid].plays if person.uid in counts else 0
            when = formatting.day(person.last_used, year=True) if person.last_used else "–"
            detail = ngettext("{n} finished game", "{n} finished games", plays).format(n=plays)
            detail += "  ·  " + _("last played {date}").format(date=when)
            row = BoxLayout(size_hint_y=None, height=dp(60), spacing=dp(8))
            badge = Factory.AvatarChip(text=escape_markup(person.avatar))
            badge.colour = person.colour
            badge.color = readable_text(person.colour)
            row.add_widget(badge)
            button = Factory.PlayRow(
                text=f"[b]{escape_markup(person.name)}[/b]\n[color=9aa0b0]{detail}[/color]", height=dp(60)
            )
            button.person = person.uid
            button.bind(on_release=lambda _b, uid=person.uid: self.edit(uid))
            row.add_widget(button)
            grid.add_widget(row)

    # -- one player -----------------------------------------------------------------------------------------

    def edit(self, uid: str) -> ModalView | None:
        app = App.get_running_app()
        person = app.history.store.person(uid)
        if person is None:
            return None
        view = dialog(600, 330)
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
        box.add_widget(Label(text=f"[b]{escape_markup(person.name)}[/b]", markup=True, font_size=dp(24)))
        actions = [
            (_("Rename"), lambda: self.rename(person)),
            (_("Colour"), lambda: self.recolour(person)),
            (_("Initial"), lambda: self.set_initial(person)),
            (_("Merge into another player…"), lambda: self.choose_merge(person)),
        ]
        for text, act in actions:
            button = Factory.BigButton(text=text)
            button.bind(on_release=lambda _b, a=act: (view.dismiss(), a()))
            box.add_widget(button)
        view.add_widget(box)
        view.open()
        return view

    def _update(self, person: Person, **changes: Any) -> None:
        try:
            App.get_running_app().history.store.update_person(person.uid, **changes)
        except HistoryError as err:
            self.status_text = f"[color=ff8a80]{escape_markup(str(err))}[/color]"
        else:
            self.status_text = _("Saved.")
        self.fill()

    def rename(self, person: Person) -> NamePad:
        pad = NamePad(person.name, [], lambda name: self._update(person, name=name))
        pad.open()
        return pad

    def recolour(self, person: Person) -> ModalView:
        """The palette as swatches, the player's colour ticked; a tap gives them that one (it was the next colour
        per tap, the dialog closing each time: up to eight taps and reopenings to reach one)."""
        view = dialog(600, 300)
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(10))
        question = _("{name}'s colour").format(name=person.name)
        box.add_widget(Factory.Caption(text=question, font_size=dp(20), halign="center"))
        grid = Factory.GridLayout(cols=5, spacing=dp(8), size_hint_y=None, height=dp(136))

        def pick(colour: str) -> None:
            view.dismiss()
            self._update(person, colour=colour)

        # Their own colour is offered too when it is not the palette's (a configured seat colour, an old game's).
        for colour in PALETTE if person.colour in PALETTE else [*PALETTE, person.colour]:
            swatch = Factory.BigButton(text="✓" if colour == person.colour else "", font_size=dp(30), height=dp(64))
            swatch.background_color = get_color_from_hex(colour)
            swatch.color = readable_text(colour)
            swatch.colour = colour
            swatch.bind(on_release=lambda _b, c=colour: pick(c))
            grid.add_widget(swatch)
        box.add_widget(grid)
        back = Factory.BigButton(text=_("Back"))
        back.bind(on_release=lambda _b: view.dismiss())
        box.add_widget(back)
        view.add_widget(box)
        view.open()
        return view

    def set_initial(self, person: Person) -> NamePad:
        """One or two characters on the avatar; left empty (Clear, OK), the avatar shows the name's first letter
        again (once set, an initial could not be taken back: the pad refused an empty entry)."""
        hint = _("empty: {initial}, the name's first letter").format(initial=first_initial(person.name))
        pad = NamePad(person.initial, [], lambda text: self._update(person, initial=text), limit=2, empty=hint)
        pad.open()
        return pad

    def choose_merge(self, person: Person) -> ModalView:
        app = App.get_running_app()
        view = dialog(620, 420)
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(8))
        question = _("{name} is the same person as…").format(name=person.name)
        box.add_widget(Factory.Caption(text=escape_markup(question), font_size=dp(20)))
        scroll = ScrollView(do_scroll_x=False)
        grid = Factory.GridLayout(cols=2, spacing=dp(6), size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for other in app.history.store.persons():
            if other.uid == person.uid:
                continue
            shown = f"[color={legible(other.colour, BUTTON)}]{escape_markup(other.name)}[/color]"
            button = Factory.BigButton(text=shown, markup=True)
            button.bind(on_release=lambda _b, o=other: (view.dismiss(), self.ask_merge(person, o)))
            grid.add_widget(button)
        scroll.add_widget(grid)
        box.add_widget(scroll)
        back = Factory.BigButton(text=_("Back"))
        back.bind(on_release=lambda _b: view.dismiss())
        box.add_widget(back)
        view.add_widget(box)
        view.open()
        return view

    def ask_merge(self, source: Person, target: Person) -> ModalView:
        question = _("Merge {a} into {b}? Every game of {a} becomes {b}'s, and the name {a} leads to {b}.").format(
            a=source.name, b=target.name
        )
        return confirm(question, _("Merge"), lambda: self.merge(source, target))

    def merge(self, source: Person, target: Person) -> None:
        try:
            App.get_running_app().history.store.merge(source.uid, target.uid)
        except HistoryError as err:
            self.status_text = f"[color=ff8a80]{escape_markup(str(err))}[/color]"
        else:
            self.status_text = _("{a} and {b} are one player now.").format(a=source.name, b=target.name)
        self.fill()
