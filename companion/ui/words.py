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


# Dice faces and board icons as the editions name them (the Korean Rat-a-Tat Roll rulebook's 고양이, 쥐, 교환,
# 열기구, 표범; the Spanish Lowdown rulebook's colours).
FACE_NAMES: dict[str, Callable[[], str]] = {
    "red": lambda: pgettext("colour", "red"),
    "orange": lambda: pgettext("colour", "orange"),
    "purple": lambda: pgettext("colour", "purple"),
    "blue": lambda: pgettext("colour", "blue"),
    "green": lambda: pgettext("colour", "green"),
    "yellow": lambda: pgettext("colour", "yellow"),
    "cat": lambda: pgettext("picture die", "cat"),
    "rat": lambda: pgettext("picture die", "rat"),
    "swap": lambda: pgettext("picture die", "swap"),
    "card": lambda: pgettext("board icon", "card"),
    "balloon": lambda: pgettext("board icon", "balloon"),
    "leopard": lambda: pgettext("board icon", "leopard"),
    "picture": lambda: pgettext("board icon", "picture die"),
}


def face_name(face: Any) -> str:
    """A die face or board icon as the players call it: "rojo", "고양이"; numbers as they are; "red/orange"
    (a two-colour square) worded part by part."""
    if face is None:
        return "?"
    text = str(face)
    if "/" in text:
        return "/".join(face_name(part) for part in text.split("/"))
    wording = FACE_NAMES.get(text)
    return wording() if wording is not None else text


def setting_words(engine: Any, key: str, value: Any, names: list[str] | None = None) -> str | None:
    """A recorded game option in the table's words, "Play to: 150 points" (its label and value as the setup
    screen shows them), or ``None`` for an option the game does not offer (kept out of summaries)."""
    setting = getattr(engine, "settings", {}).get(key)
    if setting is None or not setting.shown or not setting.label:
        return None
    if setting.player:
        shown = names[value] if names is not None and isinstance(value, int) and 0 <= value < len(names) else None
        if shown is None:
            return None
    elif (label := setting.choice_label(value)) is not None:
        shown = _(label).format(value=value)
    elif isinstance(value, bool):
        shown = _("on") if value else _("off")
    elif setting.files or isinstance(value, dict | list) or value is None:
        return None
    else:
        shown = str(value)
    return _("{setting}: {value}").format(setting=_(setting.label), value=shown)
