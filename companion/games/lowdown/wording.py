"""Lowdown in words: the log line of each action, in the current language (``companion.i18n``)."""

from __future__ import annotations

from companion.games.base import Action, State
from companion.games.lowdown.board import SHADED_POINTS


def article(word: object) -> str:
    """ "a red", "an orange", "a 3", "an 8": the article a player would say."""
    text = str(word)
    vowel = text[:1].lower() in "aeiou" or text.startswith("8") or text in ("11", "18")
    return f"{'an' if vowel else 'a'} {text}"


def describe(action: Action, state: State | None = None) -> str:
    """One line for the log and the undo prompt; with a ``state`` of this game it names the players and
    grids ("Ana writes 3 (red) in Red/orange row 1, column 1"), without one it numbers them."""
    kind = action.get("type")
    players = state.get("players") if isinstance(state, dict) else None
    grids = state["layout"]["grids"] if isinstance(state, dict) and "layout" in state else None
    p = action.get("player")
    who = "Someone"
    if isinstance(p, int) and not isinstance(p, bool):
        who = f"Player {p + 1}"
        if isinstance(players, list) and 0 <= p < len(players):
            who = str(players[p].get("name", who))
    sq = action.get("square")
    where = "?"
    if isinstance(sq, list) and len(sq) == 3 and all(isinstance(v, int) for v in sq):
        if grids is not None and 0 <= sq[0] < len(grids):
            where = f"{grids[sq[0]]['name']} row {sq[1] + 1}, column {sq[2] + 1}"
        else:
            where = f"grid {sq[0] + 1}, row {sq[1] + 1}, column {sq[2] + 1}"
    if kind == "roll":
        colours, numbers = action.get("colours"), action.get("numbers")
        colours = colours if isinstance(colours, list) else []
        numbers = numbers if isinstance(numbers, list) else []
        return f"Roll: {' '.join(map(str, colours))} / {' '.join(map(str, numbers))}"
    if kind == "secret":
        if "colour" in action:
            return f"Secret pair: {action.get('colour')} {action.get('number')}"
        secret = state.get("secret") if isinstance(state, dict) else None
        if isinstance(secret, dict):
            return f"Secret pair: {secret.get('colour')} {secret.get('number')}"
        return "Secret pair revealed"
    if kind == "place":
        if action.get("wild"):
            extra = f", {action['colour']} die out of play" if action.get("colour") else ""
            return f"{who} writes {action.get('number')} with a wild colour in {where}{extra}"
        return f"{who} writes {action.get('number')} ({action.get('colour')}) in {where}"
    if kind == "shade":
        return f"{who} shades {where} (+{SHADED_POINTS})"
    if kind == "cross":
        return f"{who} crosses out {_line_text(state, action)}"
    if kind == "finish":
        return "Final scores"
    return str(kind)


def _line_text(state: State | None, action: Action) -> str:
    """'3 3 4 (Red/orange row 1)' when the state has the numbers, else 'a line'."""
    squares, p = action.get("squares"), action.get("player")
    if not (isinstance(state, dict) and isinstance(squares, list) and squares and isinstance(p, int)):
        return "a line"
    try:
        values = [state["boards"][p]["grids"][g][r][c]["n"] for g, r, c in squares]
        line = sorted([list(s) for s in squares])
        grid = state["layout"]["grids"][line[0][0]]["name"]
        (_, r1, c1), (_, r2, c2) = line[0], line[-1]
        kind = f"row {r1 + 1}" if r1 == r2 else f"column {c1 + 1}" if c1 == c2 else "diagonal"
        return f"{' '.join(map(str, values))} ({grid} {kind})"
    except (LookupError, TypeError, ValueError):
        return "a line"
