"""Art Collectors' scoring: majorities with the black-cat tie-break, over the final count or the tracker's piles.

Where the black-cat token is, how many tokens of each painting every pile holds, and the working (per painting:
counts, winner and reason; per player: points and rank; the winners) that ``finish`` and the end of the bag keep.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.artcollectors.catalogue import BLACK_CAT_MARK, painting_of
from companion.games.artcollectors.state import (
    ArtCollectorsState,
    PaintingRow,
    Phase,
    PlayerResult,
    Result,
    Why,
    described,
)


def black_cat_painting(state: Mapping[str, Any]) -> int:
    """The black-cat token's painting: from the settings, else from the draw that showed it (0: not known yet)."""
    state = described(state)
    return int(state["settings"]["black_cat_painting"]) or int(state.get("black_cat_seen", 0))


def black_cat_where(state: ArtCollectorsState) -> tuple[str, int | None]:
    """("bag", None), ("turn", seat) or ("pile", seat)."""
    for seat, pile in enumerate(state["piles"]):
        if any(code.endswith(BLACK_CAT_MARK) for code in pile):
            return "pile", seat
    if any(code.endswith(BLACK_CAT_MARK) for code in state["turn"]["tokens"]):
        return "turn", int(state["current"])
    return "bag", None


# --------------------------------------------------------------------------------------------------------------
# Scoring


def tally(state: ArtCollectorsState, counts: list[dict[str, int]], black_cat: int | None) -> Result:
    """The working: per painting the counts, winner and reason; per player the points and rank; the winners.

    Majority wins a painting; a tie for the most goes to the black-cat holder even if not among the tied
    (nobody takes it when nobody holds the black cat). Tokens score their points (twins 2), paintings their value.
    Each painting's ``why`` says how it was decided ("none", "most", "tie_no_cat", "tie_cat"); the words for it
    and for what was not counted are :mod:`companion.games.artcollectors.wording`'s.
    """
    names = state["players"]
    rows: list[PaintingRow] = []
    token_points = [0] * len(names)
    token_counts = [0] * len(names)
    won: list[list[int]] = [[] for _ in names]
    for key in state["order"]:
        info = state["paintings"][key]
        number = int(key)
        these = [int(c.get(key, 0)) for c in counts]
        total = sum(these)
        top = max(these) if these else 0
        leaders = [i for i, n in enumerate(these) if n == top and n > 0]
        winner: int | None
        why: Why
        if total == 0:
            winner, why = None, "none"
        elif len(leaders) == 1:
            winner, why = leaders[0], "most"
        elif black_cat is None:
            winner, why = None, "tie_no_cat"
        else:
            winner, why = black_cat, "tie_cat"
        if winner is not None:
            won[winner].append(number)
        for i, n in enumerate(these):
            token_points[i] += n * int(info["points"])
            token_counts[i] += n
        rows.append(
            {
                "painting": number,
                "value": int(info["value"]),
                "points_per_token": int(info["points"]),
                "counts": these,
                "total": total,
                "tokens": int(info["tokens"]),
                "winner": winner,
                "tied": leaders if len(leaders) > 1 else [],
                "why": why,
            }
        )
    painting_points = [sum(int(state["paintings"][str(n)]["value"]) for n in won[i]) for i in range(len(names))]
    totals = [token_points[i] + painting_points[i] for i in range(len(names))]
    players: list[PlayerResult] = [
        {
            "name": name,
            "tokens": token_counts[i],
            "token_points": token_points[i],
            "paintings": won[i],
            "painting_points": painting_points[i],
            "total": totals[i],
            "rank": 1 + sum(1 for t in totals if t > totals[i]),
        }
        for i, name in enumerate(names)
    ]
    best = max(totals) if totals else 0
    winners = [p["name"] for p in players if p["total"] == best]
    return {"paintings": rows, "players": players, "winners": winners, "black_cat": black_cat}


def top_run(pile: list[str]) -> int:
    """How many tokens of the same painting lie together on top of ``pile`` (what one steal may take)."""
    run = 0
    for code in reversed(pile):
        if painting_of(code) != painting_of(pile[-1]):
            break
        run += 1
    return run


def uncounted(state: Mapping[str, Any]) -> dict[str, int]:
    """Tokens of each painting the final count has not placed with a player yet (painting key -> how many;
    only paintings short of their tokens, in catalogue order). At the end the bag is empty, so any is a slip."""
    state = described(state)
    out: dict[str, int] = {}
    for key, info in state["paintings"].items():
        missing = int(info["tokens"]) - sum(int(row[key]) for row in state["counts"])
        if missing > 0:
            out[key] = missing
    return out


def pile_counts(state: ArtCollectorsState) -> list[dict[str, int]]:
    """Tokens per painting in each player's pile (the tracker's version of the final count)."""
    counts: list[dict[str, int]] = []
    for pile in state["piles"]:
        row = dict.fromkeys(state["order"], 0)
        for code in pile:
            row[str(painting_of(code))] += 1
        counts.append(row)
    return counts


def working(state: Mapping[str, Any]) -> Result:
    """The final result if the game is over, else the result the current counts or piles would give."""
    state = described(state)
    result = state.get("result")
    if result is not None:
        return result.copy()
    if state["phase"] == Phase.PLAY:
        where, seat = black_cat_where(state)
        return tally(state, pile_counts(state), seat if where == "pile" else None)
    return tally(state, state["counts"], state["black_cat"])


# --------------------------------------------------------------------------------------------------------------
