"""Lowdown (Mattel GKD68): colour dice and number dice written into colour grids; lowest total wins.

Rules from the Spanish manual (``shared/rules/original/color-number-dice.es.txt``). A turn: the active player
rolls 2 colour + 2 number dice openly while a neighbour rolls 1 colour + 1 number die in secret; the active
player takes one colour and one number die (from the open dice, or from the secret pair once looked at, which
must then be used) and writes the number in a free square of that colour; every other player then takes a
colour and a number from the four dice the active player did not take. Wild colours, forced shaded squares,
crossed-out lines and the end condition are explained at the functions that check them. Standard library only.

Squares are addressed ``[grid, row, column]``, all 0-based. The board is data (``data/lowdown_board.json``);
another layout can be given as a file path or inline in the ``layout`` setting.
"""

from __future__ import annotations

import random
from enum import StrEnum
from typing import Any

from companion.games.base import (
    Action,
    BadSetup,
    Engine,
    IllegalAction,
    Move,
    Setting,
    Setup,
    State,
    check_players,
    check_settings,
    choices,
    is_whole,
    require,
    seat_index,
    seats,
)
from companion.games.lowdown import wording
from companion.games.lowdown.board import (
    DEFAULT_LAYOUT_PATH,
    LINE_LENGTH,
    SHADED_POINTS,
    Line,
    Square,
    all_lines,
    default_layout,
    grid_lines,
    lines_conflict,
    load_layout,
    read_layout_file,
    validate_layout,
)
from companion.games.lowdown.wording import colour_list, colour_name, or_list, square_text, starts_with_vowel
from companion.i18n import N_, _, a_number, ngettext

NAME = "lowdown"
LINE_SUM = 10
EDITIONS = ("es", "en")
ROLLERS = ("edition", "right", "left")
SECRET_MODES = ("physical", "virtual")
PHASES = ("roll", "active", "others", "final", "over")

# Die ids: the open roll is c0, c1 (colours) and n0, n1 (numbers); the secret pair is sc and sn.
OPEN_COLOUR_IDS = ("c0", "c1")
OPEN_NUMBER_IDS = ("n0", "n1")
SECRET_IDS = ("sc", "sn")

# --------------------------------------------------------------------------------------------- helpers


def _square_text(state: State, sq: Square) -> str:
    return square_text(state, sq)


def square_colours(state: State, sq: Square) -> list[str]:
    """The colours a number may have to be written in square ``sq`` (one, or two for a split square)."""
    colours: list[str] = state["layout"]["grids"][sq[0]]["rows"][sq[1]][sq[2]]
    return colours


def _cell(state: State, player: int, sq: Square) -> dict[str, Any] | None:
    cell: dict[str, Any] | None = state["boards"][player]["grids"][sq[0]][sq[1]][sq[2]]
    return cell


def _parse_square(state: State, value: Any) -> Square:
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


def _player_index(state: State, action: Action) -> int:
    p = action.get("player")
    n = len(state["players"])
    require(
        is_whole(p) and 0 <= p < n,
        _("'player' must be a player number from 0 to {last}, not {value!r}").format(last=n - 1, value=p),
    )
    return p  # type: ignore[return-value]


def _name(state: State, player: int) -> str:
    return str(state["players"][player]["name"])


def free_squares(state: State, player: int) -> list[Square]:
    """Every square on the player's board that holds neither a number nor shading."""
    out: list[Square] = []
    for g, grid in enumerate(state["boards"][player]["grids"]):
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if cell is None:
                    out.append([g, r, c])
    return out


def wilds_left(state: State, player: int) -> int:
    """How many wild-colour boxes the player has not marked yet."""
    return int(state["layout"]["wilds"]) - int(state["boards"][player]["wilds"])


def filled_grids(state: State, player: int) -> int:
    """How many of the player's grids have every square written or shaded (the end condition counts these)."""
    return sum(1 for grid in state["boards"][player]["grids"] if all(cell is not None for row in grid for cell in row))


def secret_roller(state: State) -> int:
    """Who rolls the secret pair this turn: the player on the active player's right (Spanish manual; players
    are listed in playing order, which goes to the left) or on the left (English edition)."""
    side = state["settings"]["secret_roller"]
    if side == "edition":
        side = "right" if state["settings"]["edition"] == "es" else "left"
    n = len(state["players"])
    step = -1 if side == "right" else 1
    return (int(state["active"]) + step) % n


def to_play(state: State) -> int | None:
    """Whose part of the turn it is: the active player (rolling or choosing), else the first other player in
    turn order who has not written yet; None in the final phase and once the game is over."""
    phase = state["phase"]
    active = int(state["active"])
    if phase in ("roll", "active"):
        return active
    if phase == "others":
        n = len(state["players"])
        for step in range(1, n):
            p = (active + step) % n
            if p not in state["done"]:
                return p
    return None


def dice(state: State) -> dict[str, tuple[str, Any]]:
    """The dice known this turn: id -> (kind "colour"/"number", face). The secret pair appears once revealed."""
    out: dict[str, tuple[str, Any]] = {}
    roll = state["open"]
    if roll is not None:
        for i, face in zip(OPEN_COLOUR_IDS, roll["colours"], strict=True):
            out[i] = ("colour", face)
        for i, face in zip(OPEN_NUMBER_IDS, roll["numbers"], strict=True):
            out[i] = ("number", face)
    secret = state["secret"]
    if secret is not None:
        out["sc"] = ("colour", secret["colour"])
        out["sn"] = ("number", secret["number"])
    return out


def pool(state: State) -> dict[str, list[Any]]:
    """The dice left for the other players: all six minus the two the active player took, in die order."""
    taken = set(state["taken"] or [])
    left = [die for i, die in dice(state).items() if i not in taken]
    return {
        "colours": [f for k, f in left if k == "colour"],
        "numbers": [f for k, f in left if k == "number"],
    }


def virtual_secret(seed: int, turn: int, layout: dict[str, Any]) -> dict[str, Any]:
    """The app's secret roll for a turn: a seeded RNG on (setup seed, turn), so replay gives the same dice."""
    rng = random.Random(f"lowdown-secret:{seed}:{turn}")
    return {"colour": rng.choice(list(layout["colours"])), "number": rng.choice(list(layout["numbers"]))}


# --------------------------------------------------------------------------------------------- legality


def _active_dice_options(state: State) -> list[tuple[str, str]]:
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


def _fits(state: State, player: int, colour: str) -> bool:
    return any(colour in square_colours(state, sq) for sq in free_squares(state, player))


def _whose_part(state: State, player: int) -> str | None:
    """Why ``player`` may not write now, or None when they may."""
    phase = state["phase"]
    if phase == "roll":
        return _("roll the open dice first")
    if phase in ("final", "over"):
        return _("the game has ended: nobody writes any more")
    active = int(state["active"])
    if phase == "active":
        if player != active:
            return _("{name} chooses first; the others choose after").format(name=_name(state, active))
        return None
    if player == active:
        return _("{name} has already chosen this turn").format(name=_name(state, active))
    if player in state["done"]:
        return _("{name} has already written a number this turn").format(name=_name(state, player))
    if state["secret"] is None:
        return _("reveal the secret pair first: the other players choose from the four dice left")
    return None


def _check_place(state: State, player: int, action: Action) -> tuple[Square, list[str] | None]:
    """Validate a ``place`` action; returns the square and, for the active player, the two die ids taken."""
    why = _whose_part(state, player)
    require(why is None, _("{name} cannot write now: {why}").format(name=_name(state, player), why=why))
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
                    number=number, name=_name(state, player), numbers=or_list(numbers)
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
                    name=_name(state, player), colour=colour_name(colour), number=number, colours=colour_list(possible)
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
    sq = _parse_square(state, action.get("square"))
    cell = _cell(state, player, sq)
    if cell is not None:
        if cell.get("shaded"):
            raise IllegalAction(_("{square} is shaded: write in a free square").format(square=_square_text(state, sq)))
        raise IllegalAction(
            _("{square} already holds {a_number}: write in a free square").format(
                square=_square_text(state, sq), a_number=a_number(int(cell["n"]))
            )
        )
    if wild:
        wilds = int(state["layout"]["wilds"])
        require(
            wilds_left(state, player) > 0,
            ngettext("{name} has used all {n} wild colour", "{name} has used all {n} wild colours", wilds).format(
                name=_name(state, player), n=wilds
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
            cannot.format(
                colour=colour_name(colour), square=_square_text(state, sq), colours=colour_list(accepts, "/")
            ),
        )
    return sq, taken


def _secret_hint(state: State, reason: str) -> str:
    """``reason``, and once the secret pair is looked at, that it must be used as a pair."""
    if not state["looked"]:
        return reason
    return _(
        "{reason}; after looking at the secret pair it must be used as a pair (its number, and its colour or a wild)"
    ).format(reason=reason)


def _can_write(state: State, player: int) -> bool:
    """True when some number can be written without shading (a fitting die colour, or a wild left)."""
    if wilds_left(state, player) > 0 and free_squares(state, player):
        return True
    if player == int(state["active"]):
        known = dice(state)
        return any(_fits(state, player, known[c][1]) for c, _ in _active_dice_options(state))
    return any(_fits(state, player, c) for c in pool(state)["colours"])


def _check_shade(state: State, player: int, action: Action) -> Square:
    """A shaded (+6) square is allowed only when nothing fits and no wild is left (manual: "ADVERTENCIA")."""
    why = _whose_part(state, player)
    require(why is None, _("{name} cannot shade now: {why}").format(name=_name(state, player), why=why))
    sq = _parse_square(state, action.get("square"))
    require(_cell(state, player, sq) is None, _("{square} is not free").format(square=_square_text(state, sq)))
    if player == int(state["active"]) and not state["looked"]:
        raise IllegalAction(
            _("not yet: {name} taps 'Look at the secret pair' first; its dice may fit a free square").format(
                name=_name(state, player)
            )
        )
    if wilds_left(state, player) > 0:
        raise IllegalAction(
            ngettext(
                "{name} still has {n} wild colour: use it instead of shading",
                "{name} still has {n} wild colours: use one instead of shading",
                wilds_left(state, player),
            ).format(name=_name(state, player), n=wilds_left(state, player))
        )
    require(
        not _can_write(state, player),
        _("{name} can still write a number, so shading a square is not allowed").format(name=_name(state, player)),
    )
    return sq


def must_shade(state: State, player: int) -> bool:
    """True when it is the player's part of the turn and the only thing they can do is shade a square."""
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


def part_of_turn(state: State, player: int, *, looking: bool = False) -> Part:
    """What ``player`` (an index) does now. The others may write in any order after the active player (the
    engine allows it), so every board still to write is live then. ``looking``: the active player has asked to
    look at a physical secret pair and is entering it."""
    phase = state["phase"]
    if phase == "over":
        return Part.OVER
    if phase == "final":
        return Part.FINAL
    if phase == "others":
        if player == state["active"] or player in state["done"]:
            return Part.WAIT
    elif to_play(state) != player:
        return Part.WAIT
    if phase == "roll":
        return Part.ROLL
    if state["secret"] is None and (phase == "others" or looking):
        return Part.SECRET
    if must_shade(state, player):
        return Part.SHADE
    return Part.CHOOSE


def legal_placements(
    state: State,
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


def _line_reason(state: State, player: int, squares: Any) -> tuple[Line, str | None]:
    """Check a crossing; returns the line in board order and why it is refused (None when legal)."""
    require(isinstance(squares, list) and len(squares) == LINE_LENGTH, _("cross out exactly three squares"))
    sqs = [_parse_square(state, s) for s in squares]
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
        cell = _cell(state, player, s)
        if cell is None:
            return line, _("{square} is empty: a line needs three numbers").format(square=_square_text(state, s))
        if cell.get("shaded"):
            return line, _("{square} is shaded: a line needs three numbers").format(square=_square_text(state, s))
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


def legal_crossings(state: State, player: int) -> list[Line]:
    """Every line the player may cross out now (the UI highlights these)."""
    if state["phase"] == "over":
        return []
    out: list[Line] = []
    for line in all_lines(state["layout"]):
        _, why = _line_reason(state, player, line)
        if why is None:
            out.append(line)
    return out


def board_score(state: State, player: int) -> int:
    """Sum of the numbers not crossed out plus 6 per shaded square."""
    crossed = {tuple(s) for line in state["boards"][player]["crossed"] for s in line}
    total = 0
    for g, grid in enumerate(state["boards"][player]["grids"]):
        for r, row in enumerate(grid):
            for c, cell in enumerate(row):
                if cell is None:
                    continue
                if cell.get("shaded"):
                    total += SHADED_POINTS
                elif (g, r, c) not in crossed:
                    total += int(cell["n"])
    return total


# --------------------------------------------------------------------------------------------- engine


class LowdownEngine(Engine[State]):
    """Lowdown rules engine (see the module docstring and docs/lowdown.md for the action list)."""

    name = NAME
    title = "Lowdown"
    min_players = 2
    max_players = 4
    # ``edition``: who rolls the secret pair by default (Spanish the right, English the left; both take a
    # looked-at secret pair as a whole); ``layout``: None = the default board, a file path, or a layout object.
    settings = {  # noqa: RUF012  (the base class declares it; one table per game)
        "edition": Setting(
            "es",
            N_("Rules"),
            choices(
                ("es", N_("Spanish manual: the secret pair is rolled on the right")),
                ("en", N_("English edition: the secret pair is rolled on the left")),
            ),
        ),
        "secret_roller": Setting(
            "edition",
            N_("The secret pair is rolled by"),
            choices(
                ("edition", N_("the neighbour the rules say")),
                ("right", N_("the player on the right")),
                ("left", N_("the player on the left")),
            ),
        ),
        "secret_dice": Setting(
            "physical",
            N_("Secret pair"),
            choices(("physical", N_("real dice, entered by touch")), ("virtual", N_("rolled by the app"))),
        ),
        "layout": Setting(None, N_("Board"), files="lowdown-layouts"),
        "end_grids": Setting(
            2,
            N_("The game ends when a player has filled"),
            choices((1, N_("1 grid")), (2, N_("2 grids")), (3, N_("3 grids"))),
        ),
    }

    def setup(self, setup: Setup) -> State:
        """Empty boards for every player; the first player (youngest, per the manual) rolls first."""
        check_players(setup, self.min_players, self.max_players)
        settings = check_settings(self.default_settings(), setup.settings)
        if settings["edition"] not in EDITIONS:
            raise BadSetup(f"edition must be one of {', '.join(EDITIONS)}, not {settings['edition']!r}")
        if settings["secret_roller"] not in ROLLERS:
            raise BadSetup(f"secret_roller must be 'edition', 'right' or 'left', not {settings['secret_roller']!r}")
        if settings["secret_dice"] not in SECRET_MODES:
            raise BadSetup(f"secret_dice must be 'physical' or 'virtual', not {settings['secret_dice']!r}")
        raw = settings["layout"]
        if raw is None:
            layout = default_layout()
        elif isinstance(raw, str):
            layout = load_layout(raw)
        elif isinstance(raw, dict):
            layout = validate_layout(raw, source="layout setting")
        else:
            raise BadSetup("the layout setting must be empty, a file path or a layout object")
        end = settings["end_grids"]
        if not 1 <= end <= len(layout["grids"]):
            raise BadSetup(f"end_grids must be between 1 and {len(layout['grids'])}, not {end}")
        boards = [
            {
                "grids": [[[None for _ in row] for row in grid["rows"]] for grid in layout["grids"]],
                "wilds": 0,
                "crossed": [],
            }
            for _ in setup.players
        ]
        return {
            "game": NAME,
            "players": [p.to_json() for p in setup.players],
            "settings": settings,
            "seed": setup.seed,
            "layout": layout,
            "boards": boards,
            "turn": 1,
            "active": 0,
            "phase": "roll",
            "open": None,
            "secret": None,
            "looked": False,
            "taken": None,
            "wild_out": None,
            "done": [],
            "enders": [],
        }

    def moves(self) -> dict[str, Move]:
        """roll, secret, place, shade, cross, finish."""
        return dict(_HANDLERS)

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        """The roll and the secret pair (the active player's, or the table's), every square each player may
        write in or must shade, every line they may cross out, and the finish once the game has ended."""
        phase = state["phase"]
        if phase == "over":
            return []
        index = seat_index(state, seat)
        if seat is not None and index is None:
            return []
        players = range(len(state["players"])) if index is None else [index]
        active = int(state["active"])
        out: list[Action] = []
        if phase == "roll" and (index is None or index == active):
            out.append({"type": "roll"})
        if phase in ("active", "others") and state["secret"] is None:
            looks = phase == "active" and (index is None or index == active)
            if looks or (phase == "others" and (index is None or index == to_play(state))):
                out.append({"type": "secret"})
        for p in players:
            out += legal_placements(state, p)
            if must_shade(state, p):
                out += [{"type": "shade", "player": p, "square": sq} for sq in free_squares(state, p)]
            out += [{"type": "cross", "player": p, "squares": line} for line in legal_crossings(state, p)]
        if phase == "final" and index is None:
            out.append({"type": "finish"})
        return out

    def to_play(self, state: State) -> list[int]:
        """The seat whose part of the turn it is (rolling, choosing, or writing after the active player)."""
        who = to_play(state)
        return [] if who is None else [seats(state)[who]]

    def is_over(self, state: State) -> bool:
        """True after ``finish``: every player has finished the last turn and crossed their last lines."""
        return bool(state["phase"] == "over")

    def scores(self, state: State) -> dict[str, Any]:
        """Each player's total (numbers not crossed + 6 per shaded square); lowest wins, ties share the win."""
        out: dict[str, Any] = {_name(state, p): board_score(state, p) for p in range(len(state["players"]))}
        if self.is_over(state):
            best = min(board_score(state, p) for p in range(len(state["players"])))
            out["winners"] = [_name(state, p) for p in range(len(state["players"])) if board_score(state, p) == best]
        return out

    def prepare_setup(self, setup: Setup) -> Setup:
        """The setup to record: the board (the packaged default, or a ``layout`` given as a file path) is read
        now and stored inline, so a journal or export replays the same board even after an update changes the
        packaged file, or the player's file changes or disappears (BadSetup if unreadable)."""
        raw = setup.settings.get("layout")
        if raw is None:
            data = read_layout_file(DEFAULT_LAYOUT_PATH)
        elif not isinstance(raw, str):
            return setup
        else:
            data = read_layout_file(raw)
        return Setup(setup.game, setup.players, {**setup.settings, "layout": data}, setup.seed)

    def describe(self, action: Action, state: State | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)


# --------------------------------------------------------------------------------------------- handlers


def _do_roll(state: State, action: Action) -> None:
    require(state["phase"] != "final", _("the game has ended: cross out any last lines, then finish"))
    require(state["phase"] == "roll", _("the dice for this turn are already rolled"))
    colours, numbers = action.get("colours"), action.get("numbers")
    layout = state["layout"]
    require(
        isinstance(colours, list)
        and len(colours) == 2
        and all(isinstance(c, str) and c in layout["colours"] for c in colours),
        _("the open roll needs 2 colour dice, each one of {colours}; got {value!r}").format(
            colours=colour_list(list(layout["colours"])), value=colours
        ),
    )
    require(
        isinstance(numbers, list)
        and len(numbers) == 2
        and all(isinstance(n, int) and not isinstance(n, bool) and n in layout["numbers"] for n in numbers),
        _("the open roll needs 2 number dice, each one of {numbers}; got {value!r}").format(
            numbers=", ".join(map(str, layout["numbers"])), value=numbers
        ),
    )
    state["open"] = {"colours": list(colours), "numbers": list(numbers)}  # type: ignore[arg-type]
    state["phase"] = "active"


def _do_secret(state: State, action: Action) -> None:
    """Look at (active player, before choosing) or reveal (for the others) the secret pair."""
    phase = state["phase"]
    require(phase in ("active", "others"), _("the secret pair is rolled with the open dice: roll first"))
    require(state["secret"] is None, _("the secret pair is already revealed"))
    layout = state["layout"]
    if state["settings"]["secret_dice"] == "virtual":
        require(
            "colour" not in action and "number" not in action,
            _("in this game the app rolls the secret pair itself; do not enter dice"),
        )
        state["secret"] = virtual_secret(int(state["seed"]), int(state["turn"]), layout)
    else:
        colour, number = action.get("colour"), action.get("number")
        require(
            isinstance(colour, str) and colour in layout["colours"],
            _("the secret colour die must be one of {colours}").format(colours=colour_list(list(layout["colours"]))),
        )
        require(
            isinstance(number, int) and not isinstance(number, bool) and number in layout["numbers"],
            _("the secret number die must be one of {numbers}").format(numbers=", ".join(map(str, layout["numbers"]))),
        )
        state["secret"] = {"colour": colour, "number": number}
    if phase == "active":
        state["looked"] = True


def _do_place(state: State, action: Action) -> None:
    player = _player_index(state, action)
    sq, taken = _check_place(state, player, action)
    wild = bool(action.get("wild", False))
    board = state["boards"][player]
    board["grids"][sq[0]][sq[1]][sq[2]] = {"n": action["number"], "wild": wild, "turn": state["turn"]}
    if wild:
        board["wilds"] += 1
    if taken is not None:
        state["taken"] = taken
        state["wild_out"] = action.get("colour") if wild else None
    _part_done(state, player)


def _do_shade(state: State, action: Action) -> None:
    player = _player_index(state, action)
    sq = _check_shade(state, player, action)
    state["boards"][player]["grids"][sq[0]][sq[1]][sq[2]] = {"shaded": True, "turn": state["turn"]}
    if player == int(state["active"]):
        state["taken"] = list(SECRET_IDS)  # a stuck active player keeps the secret pair; the others get the open four
        state["wild_out"] = None
    _part_done(state, player)


def _part_done(state: State, player: int) -> None:
    state["done"].append(player)
    if player == int(state["active"]):
        state["phase"] = "others"
        if state["secret"] is None and state["settings"]["secret_dice"] == "virtual":
            state["secret"] = virtual_secret(int(state["seed"]), int(state["turn"]), state["layout"])
    if len(state["done"]) == len(state["players"]):
        _end_turn(state)


def _end_turn(state: State) -> None:
    """Everyone has written: the game ends if someone has filled enough grids, else the next player rolls."""
    enders = [p for p in range(len(state["players"])) if filled_grids(state, p) >= state["settings"]["end_grids"]]
    if enders:
        state["enders"] = enders
        state["phase"] = "final"
        return
    state["turn"] += 1
    state["active"] = (int(state["active"]) + 1) % len(state["players"])
    state.update(phase="roll", open=None, secret=None, looked=False, taken=None, wild_out=None, done=[])


def _do_cross(state: State, action: Action) -> None:
    player = _player_index(state, action)
    line, why = _line_reason(state, player, action.get("squares"))
    require(why is None, _("{name} cannot cross out that line: {why}").format(name=_name(state, player), why=why))
    state["boards"][player]["crossed"].append(line)


def _do_finish(state: State, action: Action) -> None:
    grids = int(state["settings"]["end_grids"])
    require(
        state["phase"] == "final",
        ngettext(
            "the game ends only when a player has filled {n} grid and everyone has finished the turn",
            "the game ends only when a player has filled {n} grids and everyone has finished the turn",
            grids,
        ).format(n=grids),
    )
    state["phase"] = "over"


_HANDLERS = {
    "roll": _do_roll,
    "secret": _do_secret,
    "place": _do_place,
    "shade": _do_shade,
    "cross": _do_cross,
    "finish": _do_finish,
}

ENGINE = LowdownEngine()
