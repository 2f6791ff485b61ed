"""Wording shared by several screens: game titles as each language's edition calls the game, player counts,
"how long ago". Kept here so a game's name reads the same on home, saved games, setup and in game."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.i18n import _, ngettext, pgettext

TITLES: dict[str, Callable[[], str]] = {
    "ratatat": lambda: pgettext("game title", "Rat-a-Tat Roll"),
    "lowdown": lambda: pgettext("game title", "Lowdown"),
    "ratuki": lambda: pgettext("game title", "Ratuki"),
    "artcollectors": lambda: pgettext("game title", "Art Collectors"),
}


def game_title(engine: Any) -> str:
    """The game's name in the current language (an engine without a wording here keeps its own title)."""
    name = getattr(engine, "name", engine)
    wording = TITLES.get(str(name))
    return wording() if wording is not None else str(getattr(engine, "title", name))


def players_range(low: int, high: int) -> str:
    """ "2–5 players" in the current language."""
    return ngettext("{low}–{high} player", "{low}–{high} players", high).format(low=low, high=high)


def ago(seconds: float) -> str:
    """ "just now", "5 min ago", "3 h ago", "2 days ago" in the current language (CLDR words, Babel)."""
    from companion.formatting import timedelta

    if seconds < 60:
        return _("just now")
    return timedelta(seconds)
