"""Rat-a-Tat Roll's number dice: the exact odds of each total (the roll assistant: the chance of landing on each
space and region, and of taking the lowest face-up card, with 1, 2 or 3 dice) and what a camera reading after a
re-roll says the picked dice now show.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from companion.games.base import (
    IllegalAction,
)
from companion.games.ratatat.board import (
    REGIONS,
)
from companion.games.ratatat.phases import MAX_DICE
from companion.games.ratatat.state import described
from companion.i18n import _, ngettext


def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice`` fair d6, by repeated convolution."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _die in range(dice):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / 6
        dist = nxt
    return dist


def assistant(state: Mapping[str, Any]) -> dict[str, Any]:
    """Before a roll: for 1, 2 and 3 dice, the chance of landing on each space, each region and a picture-die
    space, and of ending up with the lowest face-up card (its region, or a picture space showing the cat).

    Returns ``{"options": {n: {...}}, "best": n, "lowest": value}``; chances are floats from exact fractions.
    """
    state = described(state)
    spaces = state["board"]["spaces"]
    ring = len(spaces)
    values = [card["value"] for card in state["face_up"] if card is not None]
    lowest = min(values) if values else None
    low_regions = {r for r, card in enumerate(state["face_up"]) if card is not None and card["value"] == lowest}
    faces = state["picture_faces"]
    p_cat = Fraction(faces.count("cat"), len(faces))
    options: dict[int, dict[str, Any]] = {}
    best, best_p = 1, Fraction(-1)
    for n in range(1, MAX_DICE + 1):
        by_space: dict[int, Fraction] = {}
        for total, p in sum_distribution(n).items():
            target = (state["statue"] + total) % ring
            by_space[target] = by_space.get(target, Fraction(0)) + p
        by_region = [Fraction(0)] * REGIONS
        picture = Fraction(0)
        for index, p in by_space.items():
            space = spaces[index]
            if space["kind"] == "picture":
                picture += p
            else:
                by_region[space["region"]] += p
        p_low = sum((by_region[r] for r in low_regions), Fraction(0)) + picture * p_cat if lowest is not None else 0
        options[n] = {
            "spaces": {i: float(p) for i, p in sorted(by_space.items())},
            "regions": [float(p) for p in by_region],
            "picture": float(picture),
            "lowest": float(p_low),
        }
        if p_low > best_p:  # ties keep fewer dice
            best, best_p = n, Fraction(p_low)
    return {"options": options, "best": best, "lowest": lowest}


def reroll_values(state: Mapping[str, Any], picked: list[int], seen: list[int]) -> list[int]:
    """The new faces of the ``picked`` dice (indices into ``state["dice"]``) from a reading of the tray after a
    re-roll: the picked dice alone, in order, or every die (the camera's order), where the dice kept must still
    show their faces and the others are the new ones. Raises :class:`IllegalAction`, in words for the players,
    when nothing is picked or the reading does not fit the pick."""
    if not picked:
        raise IllegalAction(_("Tap the dice to re-roll first (a token each time), or move the statue"))
    if len(seen) == len(picked):
        return list(seen)
    if len(seen) != len(state["dice"]):
        raise IllegalAction(
            ngettext("Saw {seen} die; re-roll {n} of them", "Saw {seen} dice; re-roll {n} of them", len(seen)).format(
                seen=len(seen), n=len(picked)
            )
        )
    kept = [v for i, v in enumerate(state["dice"]) if i not in picked]
    new = list(seen)
    for value in kept:
        if value not in new:
            raise IllegalAction(
                _(
                    "The dice you kept show {kept}; the camera saw {seen}. Roll only the picked dice, "
                    "or tap the new faces"
                ).format(kept=", ".join(map(str, kept)), seen=", ".join(map(str, seen)))
            )
        new.remove(value)
    return new
