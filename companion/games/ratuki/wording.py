"""Ratuki in words: the log line of each action, the verdict shown for a call, the score sheet and the result,
in the current language (``companion.i18n``), in the Spanish rulebook's words ("¡Ratuki!", "¡fuera!", "pila
central", "pila de puntuación")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Action
from companion.games.ratuki.referee import SEPARATE, TIE
from companion.i18n import _, pgettext


def _seat(seat: object) -> str:
    return _("seat {n}").format(n=seat)


def stop_reason(reason: object) -> str:
    """Why a round was stopped, in words (the recorded reason: out, blocked, stall, other)."""
    words = {
        "out": lambda: pgettext("round stopped", "out"),
        "blocked": lambda: pgettext("round stopped", "blocked"),
        "stall": lambda: pgettext("round stopped", "stall"),
        "other": lambda: pgettext("round stopped", "other"),
    }
    wording = words.get(str(reason))
    return wording() if wording is not None else str(reason)


def describe(action: Action, state: Mapping[str, Any] | None = None) -> str:
    """One line for the log and the undo prompt."""
    kind = action.get("type")
    if kind == "call":
        claim = action.get("verdict")
        if isinstance(claim, dict) and isinstance(claim.get("names"), list):
            return verdict_line(
                claim.get("kind", ""),
                [str(n) for n in claim["names"]],
                claim.get("margin_ms"),
                claim.get("runner_up_name"),
            )
        presses = action.get("presses") or []
        return _("Ratuki call: {seats}").format(
            seats=", ".join(_seat(p.get("seat")) for p in presses if isinstance(p, dict))
        )
    if kind == "score":
        who = action.get("name") or _seat(action.get("seat"))
        if action.get("hand"):
            return _("Score for {name}: pile {pile}, left {left}, hand {hand}").format(
                name=who, pile=action.get("score_pile"), left=action.get("left"), hand=action["hand"]
            )
        return _("Score for {name}: pile {pile}, left {left}").format(
            name=who, pile=action.get("score_pile"), left=action.get("left")
        )
    if kind == "stop" and action.get("reason") == "out" and action.get("seat") is not None:
        return _("Round stopped: {name} went out").format(name=action.get("name") or _seat(action.get("seat")))
    fixed = {
        "start": lambda: _("Round started"),
        "pause": lambda: _("Clock paused"),
        "resume": lambda: _("Clock resumed"),
        "stop": lambda: _("Round stopped ({reason})").format(reason=stop_reason(action.get("reason", "other"))),
        "separate": lambda: _("The tie was on different stacks: each took their own"),
    }
    wording = fixed.get(str(kind))
    return wording() if wording is not None else f"{kind}"


def shout(name: str) -> str:
    """A name as the banner shouts it (capitals where the script has them: "ANA", "민서")."""
    return name.upper()


def verdict_line(kind: str, names: list[str], margin_ms: float | None = None, runner_up: str | None = None) -> str:
    """The sentence shown for a verdict, e.g. "ANA takes the stack — 120 ms ahead of Bo"."""
    if kind == TIE:
        return _("TIE: {names} — cards back to your discard piles").format(names=", ".join(names))
    if kind == SEPARATE:
        return _("Different stacks: {names} each take their own").format(names=", ".join(names))
    if not names:
        return ""
    line = _("{name} takes the stack").format(name=shout(names[0]))
    if margin_ms is not None and runner_up:
        line = _("{taken} — {ms} ms ahead of {name}").format(taken=line, ms=f"{margin_ms:.0f}", name=runner_up)
    return line


def score_sheet(state: Mapping[str, Any]) -> list[list[str]]:
    """The score sheet as text rows: a header of names, one row per finished round (points and, in
    brackets, stacks taken), then the running totals."""
    names = [p["name"] for p in state["players"]]
    rows = [[_("Round"), *names]]
    for record in state["rounds"]:
        cells = [str(record["round"])]
        for name in names:
            points = record["entries"][name]["points"]
            cells.append(f"{points:+d} ({record['stacks'][name]})")
        rows.append(cells)
    rows.append([_("Total"), *(str(state["totals"][n]) for n in names)])
    return rows


def result_line(state: Mapping[str, Any]) -> str:
    """The end-of-game line, e.g. "ANA wins with 112 points" or "DRAW: Ana, Bo with 104 points" (empty before)."""
    result = state["result"]
    if result is None:
        return ""
    winners = result["winners"]
    points = state["totals"][winners[0]]
    if result["kind"] == "draw":
        return _("DRAW: {names} with {points} points").format(names=", ".join(winners), points=points)
    return _("{name} wins with {points} points").format(name=shout(winners[0]), points=points)
