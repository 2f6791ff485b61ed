"""Lowdown's answers to what the screen tells a player: why a tap on a square writes nothing (the dice still to
pick, whose part of the turn it is), whether the active player is stuck without the secret pair, whether a
square was shaded this turn, what the active player took, and whom the player strip marks as still to play.
Each is a question a scenario file can ask; the screen only shows the answer."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.lowdown.legality import Part, legal_placements, part_of_turn
from companion.games.lowdown.shape import Phase, described
from companion.games.lowdown.state import dice, player_name, to_play
from companion.games.lowdown.wording import colour_name
from companion.i18n import _


def stuck(state: Mapping[str, Any], player: int) -> bool:
    """True when ``player`` is the active player choosing, has not looked at the secret pair, and no open die
    fits a free square without a wild colour: looking at the secret pair (or a wild colour) is the way on."""
    state = described(state)
    return (
        state["phase"] == Phase.ACTIVE
        and player == int(state["active"])
        and not state["looked"]
        and not legal_placements(state, player, wild=False)
    )


def write_refusal(
    state: Mapping[str, Any],
    player: int,
    *,
    number: int | None = None,
    colour: str | None = None,
    wild: bool = False,
    looking: bool = False,
) -> str | None:
    """Why a tap on a free square of ``player``'s board writes nothing, with the dice picked so far (``number``,
    ``colour``, a ``wild`` colour toggled; ``looking`` as in :func:`part_of_turn`); None when the tap writes
    (or shades, when that is all the player can do) and the engine judges the square itself."""
    state = described(state)
    part = part_of_turn(state, player, looking=looking)
    if part is Part.SHADE:
        return None
    if part is not Part.CHOOSE:
        who = to_play(state)
        if who is None:
            return _("The game has ended: nobody writes any more")
        if state["phase"] == Phase.OTHERS and (player in state["done"] or player == state["active"]):
            return _("{name} has already written this turn; next: {next}").format(
                name=player_name(state, player), next=player_name(state, who)
            )
        if who != player:
            return _("It is {name}'s turn to write").format(name=player_name(state, who))
        return _("Enter the dice first")  # rolling or entering the secret pair: the board is not the place
    if number is None:
        if stuck(state, player):
            return _("No open die fits: tap 'Look at the secret pair' first")
        return _("Pick a number die first")
    active = player == state["active"]
    if colour is None and not (wild and not active):
        return _("Pick the colour die to take out of play") if wild else _("Pick a colour die first")
    return None


def cross_refusal(state: Mapping[str, Any], player: int, square: Sequence[int]) -> str | None:
    """Why a square of ``player``'s board that is not free cannot be picked for a crossing (shaded, or already
    crossed out); None when it holds a number that may still be crossed. ``square``: [grid, row, column]."""
    state = described(state)
    g, r, c = square
    cell = state["boards"][player]["grids"][g][r][c]
    if cell is not None and "shaded" in cell:
        return _("A shaded square holds no number and cannot be crossed out")
    if any(list(square) in line for line in state["boards"][player]["crossed"]):
        return _("That square is already crossed out")
    return None


def shaded_this_turn(state: Mapping[str, Any], player: int) -> bool:
    """True when ``player`` shaded a square (+6) this turn (the active player: nothing fitted after looking at
    the secret pair, so the pair stays with the others)."""
    state = described(state)
    grids = state["boards"][player]["grids"]
    cells = [cell for grid in grids for row in grid for cell in row if cell]
    return any("shaded" in cell and cell["turn"] == state["turn"] for cell in cells)


def taken_text(state: Mapping[str, Any]) -> str:
    """What the active player took this turn, as the others read it before choosing from the dice left ('' when
    nothing is known to have been taken yet)."""
    state = described(state)
    active = int(state["active"])
    name = player_name(state, active)
    if shaded_this_turn(state, active):
        return _("{name} could not use the secret pair, shaded a square (+6) and keeps the pair.").format(name=name)
    if state["wild_out"]:
        return _("{name} used a wild colour and took the {colour} die out of play.").format(
            name=name, colour=colour_name(state["wild_out"])
        )
    known = dice(state)
    faces = [colour_name(known[i][1]) for i in state["taken"] or [] if i in known]
    return _("{name} took {dice}.").format(name=name, dice=" + ".join(faces)) if faces else ""


def still_to_play(state: Mapping[str, Any]) -> list[int]:
    """The players the strip marks as having a part of this turn still to do: whoever's part it is, and while
    the others write (in any order) every one of them who has not written yet. Empty once the game has ended."""
    state = described(state)
    who = to_play(state)
    out = [] if who is None else [who]
    if state["phase"] == Phase.OTHERS:
        out += [p for p in range(len(state["players"])) if p != state["active"] and p not in state["done"]]
    return sorted(set(out))
