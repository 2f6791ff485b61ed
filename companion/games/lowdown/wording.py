"""Lowdown in words: the log line of each action, colours and grids as the Spanish rulebook names them
("rojo", "cuadrícula rojo/naranja"), in the current language (``companion.i18n``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.base import Action
from companion.games.lowdown.board import SHADED_POINTS
from companion.i18n import _, pgettext

# The dice colours (the same words as the UI's dice faces: one catalogue entry each).
COLOURS: dict[str, Callable[[], str]] = {
    "red": lambda: pgettext("colour", "red"),
    "orange": lambda: pgettext("colour", "orange"),
    "purple": lambda: pgettext("colour", "purple"),
    "blue": lambda: pgettext("colour", "blue"),
    "green": lambda: pgettext("colour", "green"),
    "yellow": lambda: pgettext("colour", "yellow"),
}


def article(word: object) -> str:
    """ "a red", "an orange", "a 3", "an 8": the English article a player would say."""
    text = str(word)
    vowel = text[:1].lower() in "aeiou" or text.startswith("8") or text in ("11", "18")
    return f"{'an' if vowel else 'a'} {text}"


def starts_with_vowel(word: object) -> bool:
    """Whether English says "an" before ``word`` (the English source picks its "a"/"an" sentence by this)."""
    return article(word).startswith("an ")


def colour_name(colour: Any) -> str:
    """A die colour in the current language ("red" -> "rojo", "빨강"); "red/orange" part by part; a colour of a
    board file of one's own as written."""
    text = str(colour)
    if "/" in text:
        return "/".join(colour_name(part) for part in text.split("/"))
    wording = COLOURS.get(text.lower())
    if wording is None:
        return text
    word = wording()
    return word[:1].upper() + word[1:] if text[:1].isupper() else word


def colour_list(colours: list[Any], joiner: str | None = None) -> str:
    """Colours (or numbers) in words, joined by ``joiner`` (default ", ")."""
    return (", " if joiner is None else joiner).join(colour_name(c) for c in colours)


def or_list(items: list[Any]) -> str:
    """ "3 or 5", "rojo o azul": the choices as said."""
    return _(" or ").join(colour_name(i) for i in items)


def grid_name(state: Mapping[str, Any], grid: int) -> str:
    """A grid by its colours in the current language ("Red/orange", "Rojo/naranja", "빨강/주황")."""
    return colour_name(state["layout"]["grids"][grid]["name"])


def square_text(state: Mapping[str, Any], square: list[int]) -> str:
    """ "Red/orange grid, row 1, column 2" (refusals)."""
    g, r, c = square
    return _("{grid} grid, row {row}, column {column}").format(grid=grid_name(state, g), row=r + 1, column=c + 1)


def describe(action: Action, state: Mapping[str, Any] | None = None) -> str:
    """One line for the log and the undo prompt; with a ``state`` of this game it names the players and
    grids ("Ana writes 3 (red) in Red/orange row 1, column 1"), without one it numbers them."""
    kind = action.get("type")
    players = state.get("players") if isinstance(state, dict) else None
    grids = state["layout"]["grids"] if isinstance(state, dict) and "layout" in state else None
    p = action.get("player")
    who = _("Someone")
    if isinstance(p, int) and not isinstance(p, bool):
        who = _("Player {n}").format(n=p + 1)
        if isinstance(players, list) and 0 <= p < len(players):
            who = str(players[p].get("name", who))
    sq = action.get("square")
    where = "?"
    if isinstance(sq, list) and len(sq) == 3 and all(isinstance(v, int) for v in sq):
        if grids is not None and state is not None and 0 <= sq[0] < len(grids):
            where = _("{grid} row {row}, column {column}").format(
                grid=grid_name(state, sq[0]), row=sq[1] + 1, column=sq[2] + 1
            )
        else:
            where = _("grid {grid}, row {row}, column {column}").format(grid=sq[0] + 1, row=sq[1] + 1, column=sq[2] + 1)
    if kind == "roll":
        colours, numbers = action.get("colours"), action.get("numbers")
        colours = colours if isinstance(colours, list) else []
        numbers = numbers if isinstance(numbers, list) else []
        return _("Roll: {colours} / {numbers}").format(
            colours=colour_list(colours, " "), numbers=" ".join(map(str, numbers))
        )
    if kind == "secret":
        if "colour" in action:
            return _("Secret pair: {colour} {number}").format(
                colour=colour_name(action.get("colour")), number=action.get("number")
            )
        secret = state.get("secret") if isinstance(state, dict) else None
        if isinstance(secret, dict):
            return _("Secret pair: {colour} {number}").format(
                colour=colour_name(secret.get("colour")), number=secret.get("number")
            )
        return _("Secret pair revealed")
    if kind == "place":
        if action.get("wild"):
            if action.get("colour"):
                return _("{name} writes {number} with a wild colour in {square}, {colour} die out of play").format(
                    name=who, number=action.get("number"), square=where, colour=colour_name(action["colour"])
                )
            return _("{name} writes {number} with a wild colour in {square}").format(
                name=who, number=action.get("number"), square=where
            )
        return _("{name} writes {number} ({colour}) in {square}").format(
            name=who, number=action.get("number"), colour=colour_name(action.get("colour")), square=where
        )
    if kind == "shade":
        return _("{name} shades {square} (+{points})").format(name=who, square=where, points=SHADED_POINTS)
    if kind == "cross":
        return _("{name} crosses out {line}").format(name=who, line=_line_text(state, action))
    if kind == "finish":
        return _("Final scores")
    return str(kind)


def _line_text(state: Mapping[str, Any] | None, action: Action) -> str:
    """'3 3 4 (Red/orange row 1)' when the state has the numbers, else 'a line'."""
    squares, p = action.get("squares"), action.get("player")
    if not (isinstance(state, dict) and isinstance(squares, list) and squares and isinstance(p, int)):
        return _("a line")
    try:
        values = [state["boards"][p]["grids"][g][r][c]["n"] for g, r, c in squares]
        line = sorted([list(s) for s in squares])
        grid = grid_name(state, line[0][0])
        (_g1, r1, c1), (_g2, r2, c2) = line[0], line[-1]
        if r1 == r2:
            kind = _("row {n}").format(n=r1 + 1)
        elif c1 == c2:
            kind = _("column {n}").format(n=c1 + 1)
        else:
            kind = _("diagonal")
        return _("{values} ({grid} {line})").format(values=" ".join(map(str, values)), grid=grid, line=kind)
    except (LookupError, TypeError, ValueError):
        return _("a line")
