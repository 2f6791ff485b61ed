"""Ratuki in words: the log line of each action, the verdict shown for a call, the score sheet and the result,
in the current language (``companion.i18n``)."""

from __future__ import annotations

from companion.games.base import Action, State
from companion.games.ratuki.referee import SEPARATE, TIE


def describe(action: Action, state: State | None = None) -> str:
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
        return "Ratuki call: " + ", ".join(f"seat {p.get('seat')}" for p in presses if isinstance(p, dict))
    if kind == "score":
        extra = f", hand {action['hand']}" if action.get("hand") else ""
        who = action.get("name") or f"seat {action.get('seat')}"
        return f"Score for {who}: pile {action.get('score_pile')}, left {action.get('left')}{extra}"
    if kind == "stop" and action.get("reason") == "out" and action.get("seat") is not None:
        return f"Round stopped: {action.get('name') or 'seat ' + str(action.get('seat'))} went out"
    return {
        "start": "Round started",
        "pause": "Clock paused",
        "resume": "Clock resumed",
        "stop": f"Round stopped ({action.get('reason', 'other')})",
        "separate": "The tie was on different stacks: each took their own",
    }.get(str(kind), f"{kind}")


def verdict_line(kind: str, names: list[str], margin_ms: float | None = None, runner_up: str | None = None) -> str:
    """The sentence shown for a verdict, e.g. "ANA takes the stack — 120 ms ahead of Bo"."""
    if kind == TIE:
        return f"TIE: {', '.join(names)} — cards back to your discard piles"
    if kind == SEPARATE:
        return f"Different stacks: {', '.join(names)} each take their own"
    if not names:
        return ""
    line = f"{names[0].upper()} takes the stack"
    if margin_ms is not None and runner_up:
        line += f" — {margin_ms:.0f} ms ahead of {runner_up}"
    return line


def score_sheet(state: State) -> list[list[str]]:
    """The score sheet as text rows: a header of names, one row per finished round (points and, in
    brackets, stacks taken), then the running totals."""
    names = [p["name"] for p in state["players"]]
    rows = [["Round", *names]]
    for record in state["rounds"]:
        cells = [str(record["round"])]
        for name in names:
            points = record["entries"][name]["points"]
            cells.append(f"{points:+d} ({record['stacks'][name]})")
        rows.append(cells)
    rows.append(["Total", *(str(state["totals"][n]) for n in names)])
    return rows


def result_line(state: State) -> str:
    """The end-of-game line, e.g. "ANA wins with 112 points" or "DRAW: Ana, Bo with 104 points" (empty before)."""
    result = state["result"]
    if result is None:
        return ""
    winners = result["winners"]
    points = state["totals"][winners[0]]
    if result["kind"] == "draw":
        return f"DRAW: {', '.join(winners)} with {points} points"
    return f"{winners[0].upper()} wins with {points} points"
