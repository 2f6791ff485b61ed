"""Lowdown's state and what can be read from it: the constants, squares and cells, whose part of the turn
it is, the dice known this turn and the pool left for the others, and the app's seeded secret roll. Standard
library only.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from companion.games.base import (
    Action,
    is_whole,
    require,
)
from companion.games.lowdown.shape import Cell, LowdownState, Phase, Secret, Square, described
from companion.games.lowdown.wording import colour_name
from companion.i18n import _

NAME = "lowdown"
LINE_SUM = 10
EDITIONS = ("es", "en")
ROLLERS = ("edition", "right", "left")
SECRET_MODES = ("physical", "virtual")
PHASES = ("roll", "active", "others", "final", "over")  # the values of shape.Phase

# Die ids: the open roll is c0, c1 (colours) and n0, n1 (numbers); the secret pair is sc and sn.
OPEN_COLOUR_IDS = ("c0", "c1")
OPEN_NUMBER_IDS = ("n0", "n1")
SECRET_IDS = ("sc", "sn")


def square_colours(state: LowdownState, sq: Square) -> list[str]:
    """The colours a number may have to be written in square ``sq`` (one, or two for a split square)."""
    return state["layout"]["grids"][sq[0]]["rows"][sq[1]][sq[2]]


def cell_at(state: LowdownState, player: int, sq: Square) -> Cell | None:
    """What the player wrote in square ``sq`` (None while it is free)."""
    return state["boards"][player]["grids"][sq[0]][sq[1]][sq[2]]


def parse_square(state: LowdownState, value: Any) -> Square:
    """A ``[grid, row, column]`` on this board, or IllegalAction."""
    require(
        isinstance(value, list | tuple)
        and len(value) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value),
        _("a square is given as [grid, row, column], not {value!r}").format(value=value),
    )
    g, r, c = (int(v) for v in value)
    grids = state["layout"]["grids"]
    require(0 <= g < len(grids), _("there is no grid {n} on the board").format(n=g + 1))
    rows = grids[g]["rows"]
    require(
        0 <= r < len(rows) and 0 <= c < len(rows[0]),
        _("the {grid} grid has no square there").format(grid=colour_name(grids[g]["name"])),
    )
    return [g, r, c]


def player_index(state: LowdownState, action: Action) -> int:
    """The action's ``player`` as a player number, or IllegalAction."""
    p = action.get("player")
    n = len(state["players"])
    require(
        is_whole(p) and 0 <= p < n,
        _("'player' must be a player number from 0 to {last}, not {value!r}").format(last=n - 1, value=p),
    )
    return p  # type: ignore[return-value]


def player_name(state: Mapping[str, Any], player: int) -> str:
    """The player's name."""
    state = described(state)
    return str(state["players"][player]["name"])


def free_squares(state: Mapping[str, Any], player: int) -> list[Square]:
    """Every square on the player's board that holds neither a number nor shading."""
    state = described(state)
    out: list[Square] = []
    for g, grid in enumerate(state["boards"][player]["grids"]):
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if cell is None:
                    out.append([g, r, c])
    return out


def wilds_left(state: Mapping[str, Any], player: int) -> int:
    """How many wild-colour boxes the player has not marked yet."""
    state = described(state)
    return state["layout"]["wilds"] - state["boards"][player]["wilds"]


def filled_grids(state: Mapping[str, Any], player: int) -> int:
    """How many of the player's grids have every square written or shaded (the end condition counts these)."""
    state = described(state)
    return sum(1 for grid in state["boards"][player]["grids"] if all(cell is not None for row in grid for cell in row))


def secret_roller(state: Mapping[str, Any]) -> int:
    """Who rolls the secret pair this turn: the player on the active player's right (Spanish manual; players
    are listed in playing order, which goes to the left) or on the left (English edition)."""
    state = described(state)
    side = state["settings"]["secret_roller"]
    if side == "edition":
        side = "right" if state["settings"]["edition"] == "es" else "left"
    n = len(state["players"])
    step = -1 if side == "right" else 1
    return (state["active"] + step) % n


def to_play(state: Mapping[str, Any]) -> int | None:
    """Whose part of the turn it is: the active player (rolling or choosing), else the first other player in
    turn order who has not written yet; None in the final phase and once the game is over."""
    state = described(state)
    phase = state["phase"]
    active = state["active"]
    if phase in (Phase.ROLL, Phase.ACTIVE):
        return active
    if phase == Phase.OTHERS:
        n = len(state["players"])
        for step in range(1, n):
            p = (active + step) % n
            if p not in state["done"]:
                return p
    return None


def dice(state: Mapping[str, Any]) -> dict[str, tuple[str, Any]]:
    """The dice known this turn: id -> (kind "colour"/"number", face). The secret pair appears once revealed."""
    state = described(state)
    out: dict[str, tuple[str, Any]] = {}
    roll = state["open"]
    if roll is not None:
        for i, face in zip(OPEN_COLOUR_IDS, roll["colours"], strict=True):
            out[i] = ("colour", face)
        for i, number in zip(OPEN_NUMBER_IDS, roll["numbers"], strict=True):
            out[i] = ("number", number)
    secret = state["secret"]
    if secret is not None:
        out["sc"] = ("colour", secret["colour"])
        out["sn"] = ("number", secret["number"])
    return out


def pool(state: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The dice left for the other players: all six minus the two the active player took, in die order."""
    state = described(state)
    taken = set(state["taken"] or [])
    left = [die for i, die in dice(state).items() if i not in taken]
    return {
        "colours": [f for k, f in left if k == "colour"],
        "numbers": [f for k, f in left if k == "number"],
    }


def virtual_secret(seed: int, turn: int, layout: Mapping[str, Any]) -> Secret:
    """The app's secret roll for a turn: a seeded RNG on (setup seed, turn), so replay gives the same dice."""
    rng = random.Random(f"lowdown-secret:{seed}:{turn}")
    return {"colour": rng.choice(list(layout["colours"])), "number": rng.choice(list(layout["numbers"]))}
