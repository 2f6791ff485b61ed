"""Lowdown's legality: which dice the active player may take, where a number may be written, when a square
must be shaded, which lines may be crossed out, whose part of the turn it is, and each board's score. The
checks the moves run (``check_place``, ``check_shade``, ``line_reason``) and the questions the screen asks
(``legal_placements``, ``legal_crossings``, ``must_shade``, ``part_of_turn``) share one set of reasons.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from companion.games.base import (
    Action,
    IllegalAction,
    require,
)
from companion.games.lowdown.board import (
    LINE_LENGTH,
    SHADED_POINTS,
    all_lines,
    grid_lines,
    lines_conflict,
)
from companion.games.lowdown.shape import Line, LowdownState, Phase, Square, described
from companion.games.lowdown.state import (
    LINE_SUM,
    OPEN_COLOUR_IDS,
    OPEN_NUMBER_IDS,
    cell_at,
    dice,
    free_squares,
    parse_square,
    player_name,
    pool,
    square_colours,
    to_play,
    wilds_left,
)
from companion.games.lowdown.wording import colour_list, colour_name, or_list, square_text, starts_with_vowel
from companion.i18n import _, a_number, ngettext


def _active_dice_options(state: LowdownState) -> list[tuple[str, str]]:
    """The (colour die id, number die id) pairs the active player may take.

    Before looking: one open colour die and one open number die. After looking: exactly the secret pair, in both
    editions. The Spanish manual offers the secret dice as an alternative to the open roll, as a pair: "si no te
    gusta ninguna de las opciones de los cuatro dados que lanzaste, puedes elegir utilizar los dos dados que el
    otro jugador lanzó … una vez que veas los dados ocultos, debes utilizarlos" (use *the two* dice; once seen
    you must use *them*).
    """
    if state["looked"]:
        return [("sc", "sn")]
    return [(c, n) for c in OPEN_COLOUR_IDS for n in OPEN_NUMBER_IDS]


def _fits(state: LowdownState, player: int, colour: str) -> bool:
    return any(colour in square_colours(state, sq) for sq in free_squares(state, player))


def _whose_part(state: LowdownState, player: int) -> str | None:
    """Why ``player`` may not write now, or None when they may."""
    phase = state["phase"]
    if phase == Phase.ROLL:
        return _("roll the open dice first")
    if phase in (Phase.FINAL, Phase.OVER):
        return _("the game has ended: nobody writes any more")
    active = int(state["active"])
    if phase == Phase.ACTIVE:
        if player != active:
            return _("{name} chooses first; the others choose after").format(name=player_name(state, active))
        return None
    if player == active:
        return _("{name} has already chosen this turn").format(name=player_name(state, active))
    if player in state["done"]:
        return _("{name} has already written a number this turn").format(name=player_name(state, player))
    if state["secret"] is None:
        return _("reveal the secret pair first: the other players choose from the four dice left")
    return None


def check_place(state: LowdownState, player: int, action: Action) -> tuple[Square, list[str] | None]:
    """Validate a ``place`` action; returns the square and, for the active player, the two die ids taken."""
    why = _whose_part(state, player)
    require(why is None, _("{name} cannot write now: {why}").format(name=player_name(state, player), why=why))
    number = action.get("number")
    colour = action.get("colour")
    wild = action.get("wild", False)
    require(isinstance(wild, bool), _("'wild' must be true or false"))
    require(
        isinstance(number, int) and not isinstance(number, bool),
        _("'number' must be a whole number, not {value!r}").format(value=number),
    )
    require(
        colour is None or isinstance(colour, str),
        _("'colour' must be a colour name, not {value!r}").format(value=colour),
    )
    taken: list[str] | None = None
    if player == int(state["active"]):
        known = dice(state)
        options = _active_dice_options(state)
        numbers = sorted({known[n][1] for _, n in options})
        require(
            any(known[n][1] == number for _, n in options),
            _secret_hint(
                state,
                _("there is no {number!r} among the dice {name} may take ({numbers})").format(
                    number=number, name=player_name(state, player), numbers=or_list(numbers)
                ),
            ),
        )
        require(
            colour is not None,
            _("the active player names a colour die: the colour written, or with a wild the die taken out of play"),
        )
        match = [(c, n) for c, n in options if known[c][1] == colour and known[n][1] == number]
        possible = sorted({str(known[c][1]) for c, n in options if known[n][1] == number})
        require(
            bool(match),
            _secret_hint(
                state,
                _("{name} cannot take {colour} with {number} (colours possible with {number}: {colours})").format(
                    name=player_name(state, player),
                    colour=colour_name(colour),
                    number=number,
                    colours=colour_list(possible),
                ),
            ),
        )
        taken = list(match[0])
    else:
        left = pool(state)
        require(
            number in left["numbers"],
            _("{number!r} is not among the dice left ({numbers})").format(
                number=number, numbers=or_list(left["numbers"])
            ),
        )
        if wild:
            require(colour is None, _("with a wild colour only the active player takes a colour die out of play"))
        else:
            require(
                colour in left["colours"],
                _("{colour!r} is not among the dice left ({colours})").format(
                    colour=colour_name(colour) if isinstance(colour, str) else colour, colours=or_list(left["colours"])
                ),
            )
    sq = parse_square(state, action.get("square"))
    cell = cell_at(state, player, sq)
    if cell is not None:
        if "shaded" in cell:
            raise IllegalAction(_("{square} is shaded: write in a free square").format(square=square_text(state, sq)))
        raise IllegalAction(
            _("{square} already holds {a_number}: write in a free square").format(
                square=square_text(state, sq), a_number=a_number(int(cell["n"]))
            )
        )
    if wild:
        wilds = int(state["layout"]["wilds"])
        require(
            wilds_left(state, player) > 0,
            ngettext("{name} has used all {n} wild colour", "{name} has used all {n} wild colours", wilds).format(
                name=player_name(state, player), n=wilds
            ),
        )
    else:
        accepts = square_colours(state, sq)
        # English says "an orange number", "a red number": one sentence for each article, the same in translation.
        cannot = (
            _("an {colour} number cannot go in {square}: that square is {colours}")
            if starts_with_vowel(colour)
            else _("a {colour} number cannot go in {square}: that square is {colours}")
        )
        require(
            colour in accepts,
            cannot.format(colour=colour_name(colour), square=square_text(state, sq), colours=colour_list(accepts, "/")),
        )
    return sq, taken


def _secret_hint(state: LowdownState, reason: str) -> str:
    """``reason``, and once the secret pair is looked at, that it must be used as a pair."""
    if not state["looked"]:
        return reason
    return _(
        "{reason}; after looking at the secret pair it must be used as a pair (its number, and its colour or a wild)"
    ).format(reason=reason)


def _can_write(state: LowdownState, player: int) -> bool:
    """True when some number can be written without shading (a fitting die colour, or a wild left)."""
    if wilds_left(state, player) > 0 and free_squares(state, player):
        return True
    if player == int(state["active"]):
        known = dice(state)
        return any(_fits(state, player, known[c][1]) for c, _ in _active_dice_options(state))
    return any(_fits(state, player, c) for c in pool(state)["colours"])


def check_shade(state: LowdownState, player: int, action: Action) -> Square:
    """A shaded (+6) square is allowed only when nothing fits and no wild is left (manual: "ADVERTENCIA")."""
    why = _whose_part(state, player)
    require(why is None, _("{name} cannot shade now: {why}").format(name=player_name(state, player), why=why))
    sq = parse_square(state, action.get("square"))
    require(cell_at(state, player, sq) is None, _("{square} is not free").format(square=square_text(state, sq)))
    if player == int(state["active"]) and not state["looked"]:
        raise IllegalAction(
            _("not yet: {name} taps 'Look at the secret pair' first; its dice may fit a free square").format(
                name=player_name(state, player)
            )
        )
    if wilds_left(state, player) > 0:
        raise IllegalAction(
            ngettext(
                "{name} still has {n} wild colour: use it instead of shading",
                "{name} still has {n} wild colours: use one instead of shading",
                wilds_left(state, player),
            ).format(name=player_name(state, player), n=wilds_left(state, player))
        )
    require(
        not _can_write(state, player),
        _("{name} can still write a number, so shading a square is not allowed").format(
            name=player_name(state, player)
        ),
    )
    return sq


def must_shade(state: Mapping[str, Any], player: int) -> bool:
    """True when it is the player's part of the turn and the only thing they can do is shade a square."""
    state = described(state)
    if _whose_part(state, player) is not None:
        return False
    if player == int(state["active"]) and not state["looked"]:
        return False
    return not _can_write(state, player)


class Part(StrEnum):
    """What a player does now (the screen shows the matching controls); equal to its word."""

    OVER = "over"  # the game is over
    FINAL = "final"  # the game has ended: everyone crosses their last lines, then the finish
    WAIT = "pass"  # not this player's part of the turn: they wait
    ROLL = "roll"  # the active player rolls the open dice
    SECRET = "secret"  # the secret pair is entered (revealed to the others, or looked at by the active player)
    SHADE = "shade"  # nothing can be written: a square must be shaded
    CHOOSE = "choose"  # choose a colour and a number and write it


def part_of_turn(state: Mapping[str, Any], player: int, *, looking: bool = False) -> Part:
    """What ``player`` (an index) does now. The others may write in any order after the active player (the
    engine allows it), so every board still to write is live then. ``looking``: the active player has asked to
    look at a physical secret pair and is entering it."""
    state = described(state)
    phase = state["phase"]
    if phase == Phase.OVER:
        return Part.OVER
    if phase == Phase.FINAL:
        return Part.FINAL
    if phase == Phase.OTHERS:
        if player == state["active"] or player in state["done"]:
            return Part.WAIT
    elif to_play(state) != player:
        return Part.WAIT
    if phase == Phase.ROLL:
        return Part.ROLL
    if state["secret"] is None and (phase == Phase.OTHERS or looking):
        return Part.SECRET
    if must_shade(state, player):
        return Part.SHADE
    return Part.CHOOSE


def legal_placements(
    state: Mapping[str, Any],
    player: int,
    *,
    number: Any = None,
    colour: Any = None,
    wild: bool | None = None,
) -> list[Action]:
    """Every ``place`` action the player may make now, optionally narrowed to a number, colour or wild flag.

    The UI lights only the squares these name. For the active player with ``wild=True`` the ``colour`` is the
    colour die taken out of play.
    """
    state = described(state)
    if _whose_part(state, player) is not None:
        return []
    if player == int(state["active"]):
        known = dice(state)
        options = _active_dice_options(state)
        combos = sorted({(known[n][1], known[c][1]) for c, n in options}, key=str)
        candidates = [(num, col, w) for num, col in combos for w in (False, True)]
    else:
        left = pool(state)
        nums = sorted(set(left["numbers"]))
        cols = sorted(set(left["colours"]))
        candidates = [(num, col, False) for num in nums for col in cols] + [(num, None, True) for num in nums]
    out: list[Action] = []
    for num, col, w in candidates:
        if number is not None and num != number:
            continue
        if colour is not None and col != colour:
            continue
        if wild is not None and w != wild:
            continue
        if w and wilds_left(state, player) <= 0:
            continue
        for sq in free_squares(state, player):
            if not w and col not in square_colours(state, sq):
                continue
            action: Action = {"type": "place", "player": player, "number": num, "square": sq}
            if col is not None:
                action["colour"] = col
            if w:
                action["wild"] = True
            out.append(action)
    return out


def line_reason(state: LowdownState, player: int, squares: Any) -> tuple[Line, str | None]:
    """Check a crossing; returns the line in board order and why it is refused (None when legal)."""
    require(isinstance(squares, list) and len(squares) == LINE_LENGTH, _("cross out exactly three squares"))
    sqs = [parse_square(state, s) for s in squares]
    if len({tuple(s) for s in sqs}) != LINE_LENGTH:
        return sqs, _("the three squares must be different")
    if len({s[0] for s in sqs}) != 1:
        return sqs, _("a crossed line must stay inside one grid")
    as_set = {tuple(s) for s in sqs}
    line = next((ln for ln in grid_lines(state["layout"], sqs[0][0]) if {tuple(s) for s in ln} == as_set), None)
    if line is None:
        return sqs, _("the three squares are not in a straight line (row, column or diagonal)")
    values: list[int] = []
    for s in line:
        cell = cell_at(state, player, s)
        if cell is None:
            return line, _("{square} is empty: a line needs three numbers").format(square=square_text(state, s))
        if "shaded" in cell:
            return line, _("{square} is shaded: a line needs three numbers").format(square=square_text(state, s))
        values.append(int(cell["n"]))
    if not (len(set(values)) == 1 or sum(values) == LINE_SUM):
        shown = " + ".join(str(v) for v in values)
        return line, _("{sum} = {total}: a line needs three equal numbers or a sum of {target}").format(
            sum=shown, total=sum(values), target=LINE_SUM
        )
    for done in state["boards"][player]["crossed"]:
        if lines_conflict(line, done):
            shared = {tuple(s) for s in line} & {tuple(s) for s in done}
            if shared:
                return line, _("this line shares a square with a line already crossed out; crossed lines may not cross")
            return line, _("this line would cross a line already crossed out; crossed lines may not cross")
    return line, None


def legal_crossings(state: Mapping[str, Any], player: int) -> list[Line]:
    """Every line the player may cross out now (the UI highlights these)."""
    state = described(state)
    if state["phase"] == Phase.OVER:
        return []
    out: list[Line] = []
    for line in all_lines(state["layout"]):
        _, why = line_reason(state, player, line)
        if why is None:
            out.append(line)
    return out


def board_score(state: Mapping[str, Any], player: int) -> int:
    """Sum of the numbers not crossed out plus 6 per shaded square."""
    state = described(state)
    crossed = {tuple(s) for line in state["boards"][player]["crossed"] for s in line}
    total = 0
    for g, grid in enumerate(state["boards"][player]["grids"]):
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if cell is None:
                    continue
                if "shaded" in cell:
                    total += SHADED_POINTS
                elif (g, r, c) not in crossed:
                    total += int(cell["n"])
    return total
