"""Export the history (to the data folder; copy it to a USB stick from there) and import one: from the data
folder's ``imports/`` and ``exports/``, or a USB stick under ``/media``. Importing is safe to repeat: plays and
players already here are left alone."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen
from kivy.utils import escape_markup

from companion.history import HistoryError
from companion.history.exchange import ExchangeError, Report, export, import_from
from companion.i18n import _, ngettext
from companion.journal.store import JournalError
from companion.paths import data_dir
from companion.ui.screens import load_kv

load_kv("transfer")

USB_ROOTS = (Path("/media"), Path("/mnt"))  # where a stick is mounted on Raspberry Pi OS (/media/<user>/<label>)


def import_places() -> list[Path]:
    """Folders that hold a history export (a ``plays.csv``), newest first."""
    found: list[Path] = []
    for root in (data_dir() / "imports", data_dir() / "exports", *USB_ROOTS):
        for depth in ("plays.csv", "*/plays.csv", "*/*/plays.csv", "*/*/*/plays.csv"):
            try:
                found += [p.parent for p in root.glob(depth)]
            except OSError:
                continue
    unique = {p.resolve(): p for p in found}
    return sorted(unique.values(), key=lambda p: p.stat().st_mtime if p.exists() else 0, reverse=True)[:20]


class TransferScreen(Screen):
    """*Export* writes a new folder; each folder found is an *Import* button."""

    status_text = StringProperty("")

    def on_pre_enter(self, *_args: Any) -> None:
        self.status_text = _(
            "Export writes the history to {folder}. To import, put an export folder in {imports} or on a USB stick."
        ).format(folder=escape_markup(str(data_dir() / "exports")), imports=escape_markup(str(data_dir() / "imports")))
        self.fill()

    def fill(self) -> None:
        grid = self.ids.list
        grid.clear_widgets()
        places = import_places()
        if not places:
            grid.add_widget(Factory.Caption(text=_("No export found to import.")))
        for place in places:
            button = Factory.BigButton(text=_("Import {folder}").format(folder=str(place)), font_size=17)
            button.place = place
            button.bind(on_release=lambda _b, p=place: self.import_(p))
            grid.add_widget(button)

    def export_now(self) -> Path | None:
        folder = data_dir() / "exports" / time.strftime("history-%Y%m%d-%H%M%S")
        try:
            report = export(App.get_running_app().history, folder)
        except (ExchangeError, HistoryError, JournalError) as err:
            self.status_text = (
                "[color=ff8a80]" + escape_markup(_("Not exported: {error}").format(error=err)) + "[/color]"
            )
            return None
        self.status_text = _("Exported {plays} and {players} to {folder}").format(
            plays=ngettext("{n} play", "{n} plays", report.plays).format(n=report.plays),
            players=ngettext("{n} player", "{n} players", report.players).format(n=report.players),
            folder=f"[b]{escape_markup(str(folder))}[/b]",
        )
        self.fill()
        return folder

    def import_(self, place: Path) -> Report | None:
        try:
            report = import_from(App.get_running_app().history, place)
        except (ExchangeError, HistoryError, JournalError) as err:
            self.status_text = (
                "[color=ff8a80]" + escape_markup(_("Not imported: {error}").format(error=err)) + "[/color]"
            )
            return None
        text = _("Imported {plays} and {players}; {skipped} already here.").format(
            plays=ngettext("{n} play", "{n} plays", report.plays).format(n=report.plays),
            players=ngettext("{n} player", "{n} players", report.players).format(n=report.players),
            skipped=report.skipped,
        )
        if report.problems:
            text += "\n[color=ff8a80]" + escape_markup("; ".join(report.problems[:3])) + "[/color]"
        self.status_text = text
        return report


def _red(text: str) -> str:
    return f"[color=ff8a80]{escape_markup(text)}[/color]"
