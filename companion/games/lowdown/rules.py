"""Lowdown (Mattel GKD68): colour dice and number dice written into colour grids; lowest total wins.

Rules from the Spanish manual (``shared/rules/original/color-number-dice.es.txt``). A turn: the active player
rolls 2 colour + 2 number dice openly while a neighbour rolls 1 colour + 1 number die in secret; the active
player takes one colour and one number die (from the open dice, or from the secret pair once looked at, which
must then be used) and writes the number in a free square of that colour; every other player then takes a
colour and a number from the four dice the active player did not take. Wild colours, forced shaded squares,
crossed-out lines and the end condition are explained at the functions that check them. Standard library only.

Squares are addressed ``[grid, row, column]``, all 0-based. The board is data (``data/lowdown_board.json``);
another layout can be given as a file path or inline in the ``layout`` setting.

Here: the engine (settings, setup, the moves table, the queries) and the moves; what can be read from the
state is :mod:`.state`'s, what is legal :mod:`.legality`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from companion.games.base import (
    Action,
    BadSetup,
    Engine,
    Setting,
    Setup,
    check_players,
    check_settings,
    choices,
    require,
    seat_index,
    seats,
)
from companion.games.lowdown import wording
from companion.games.lowdown.board import (
    DEFAULT_LAYOUT_PATH,
    default_layout,
    load_layout,
    read_layout_file,
    validate_layout,
)
from companion.games.lowdown.legality import (
    Part,
    board_score,
    check_place,
    check_shade,
    legal_crossings,
    legal_placements,
    line_reason,
    must_shade,
    part_of_turn,
)
from companion.games.lowdown.shape import Board, LowdownState, Phase, PlayerData, Settings, Shaded, Written, turn_start
from companion.games.lowdown.state import (
    EDITIONS,
    LINE_SUM,
    NAME,
    OPEN_COLOUR_IDS,
    OPEN_NUMBER_IDS,
    PHASES,
    ROLLERS,
    SECRET_IDS,
    SECRET_MODES,
    dice,
    filled_grids,
    free_squares,
    player_index,
    player_name,
    pool,
    secret_roller,
    square_colours,
    to_play,
    virtual_secret,
    wilds_left,
)
from companion.games.lowdown.wording import colour_list
from companion.i18n import N_, _, ngettext

__all__ = [
    "EDITIONS",
    "ENGINE",
    "LINE_SUM",
    "NAME",
    "OPEN_COLOUR_IDS",
    "OPEN_NUMBER_IDS",
    "PHASES",
    "ROLLERS",
    "SECRET_IDS",
    "SECRET_MODES",
    "LowdownEngine",
    "Part",
    "board_score",
    "dice",
    "filled_grids",
    "free_squares",
    "legal_crossings",
    "legal_placements",
    "must_shade",
    "part_of_turn",
    "pool",
    "secret_roller",
    "square_colours",
    "to_play",
    "virtual_secret",
    "wilds_left",
]

# --------------------------------------------------------------------------------------------- engine


Move = Callable[[LowdownState, Action], None]


class LowdownEngine(Engine[LowdownState]):
    """Lowdown rules engine (see the module docstring and docs/lowdown.md for the action list); state is plain
    JSON, described by :class:`~companion.games.lowdown.shape.LowdownState`."""

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

    def setup(self, setup: Setup) -> LowdownState:
        """Empty boards for every player; the first player (youngest, per the manual) rolls first."""
        check_players(setup, self.min_players, self.max_players)
        settings = cast(Settings, check_settings(self.default_settings(), setup.settings))
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
        boards: list[Board] = [
            {
                "grids": [[[None for _ in row] for row in grid["rows"]] for grid in layout["grids"]],
                "wilds": 0,
                "crossed": [],
            }
            for _ in setup.players
        ]
        players: list[PlayerData] = [{"name": p.name, "colour": p.colour, "seat": p.seat} for p in setup.players]
        return {
            "game": NAME,
            "players": players,
            "settings": settings,
            "seed": setup.seed,
            "layout": layout,
            "boards": boards,
            "turn": 1,
            "active": 0,
            **turn_start(),
            "enders": [],
        }

    def moves(self) -> dict[str, Move]:
        """roll, secret, place, shade, cross, finish."""
        return dict(_HANDLERS)

    def legal_actions(self, state: LowdownState, seat: int | None = None) -> list[Action]:
        """The roll and the secret pair (the active player's, or the table's), every square each player may
        write in or must shade, every line they may cross out, and the finish once the game has ended."""
        phase = state["phase"]
        if phase == Phase.OVER:
            return []
        index = seat_index(state, seat)
        if seat is not None and index is None:
            return []
        players = range(len(state["players"])) if index is None else [index]
        active = int(state["active"])
        out: list[Action] = []
        if phase == Phase.ROLL and (index is None or index == active):
            out.append({"type": "roll"})
        if phase in (Phase.ACTIVE, Phase.OTHERS) and state["secret"] is None:
            looks = phase == Phase.ACTIVE and (index is None or index == active)
            if looks or (phase == Phase.OTHERS and (index is None or index == to_play(state))):
                out.append({"type": "secret"})
        for p in players:
            out += legal_placements(state, p)
            if must_shade(state, p):
                out += [{"type": "shade", "player": p, "square": sq} for sq in free_squares(state, p)]
            out += [{"type": "cross", "player": p, "squares": line} for line in legal_crossings(state, p)]
        if phase == Phase.FINAL and index is None:
            out.append({"type": "finish"})
        return out

    def to_play(self, state: LowdownState) -> list[int]:
        """The seat whose part of the turn it is (rolling, choosing, or writing after the active player)."""
        who = to_play(state)
        return [] if who is None else [seats(state)[who]]

    def is_over(self, state: Mapping[str, Any]) -> bool:
        """True after ``finish``: every player has finished the last turn and crossed their last lines."""
        return bool(state["phase"] == Phase.OVER)

    def scores(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """Each player's total (numbers not crossed + 6 per shaded square); lowest wins, ties share the win."""
        out: dict[str, Any] = {player_name(state, p): board_score(state, p) for p in range(len(state["players"]))}
        if self.is_over(state):
            best = min(board_score(state, p) for p in range(len(state["players"])))
            out["winners"] = [
                player_name(state, p) for p in range(len(state["players"])) if board_score(state, p) == best
            ]
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

    def describe(self, action: Action, state: Mapping[str, Any] | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)


# --------------------------------------------------------------------------------------------- handlers


def _do_roll(state: LowdownState, action: Action) -> None:
    require(state["phase"] != Phase.FINAL, _("the game has ended: cross out any last lines, then finish"))
    require(state["phase"] == Phase.ROLL, _("the dice for this turn are already rolled"))
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
    assert isinstance(colours, list) and isinstance(numbers, list)  # required above
    state["open"] = {"colours": list(colours), "numbers": list(numbers)}
    state["phase"] = Phase.ACTIVE


def _do_secret(state: LowdownState, action: Action) -> None:
    """Look at (active player, before choosing) or reveal (for the others) the secret pair."""
    phase = state["phase"]
    require(phase in (Phase.ACTIVE, Phase.OTHERS), _("the secret pair is rolled with the open dice: roll first"))
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
        assert isinstance(colour, str) and isinstance(number, int)  # required above
        state["secret"] = {"colour": colour, "number": number}
    if phase == Phase.ACTIVE:
        state["looked"] = True


def _do_place(state: LowdownState, action: Action) -> None:
    player = player_index(state, action)
    sq, taken = check_place(state, player, action)
    wild = bool(action.get("wild", False))
    board = state["boards"][player]
    cell: Written = {"n": action["number"], "wild": wild, "turn": state["turn"]}
    board["grids"][sq[0]][sq[1]][sq[2]] = cell
    if wild:
        board["wilds"] += 1
    if taken is not None:
        state["taken"] = taken
        state["wild_out"] = action.get("colour") if wild else None
    _part_done(state, player)


def _do_shade(state: LowdownState, action: Action) -> None:
    player = player_index(state, action)
    sq = check_shade(state, player, action)
    cell: Shaded = {"shaded": True, "turn": state["turn"]}
    state["boards"][player]["grids"][sq[0]][sq[1]][sq[2]] = cell
    if player == int(state["active"]):
        state["taken"] = list(SECRET_IDS)  # a stuck active player keeps the secret pair; the others get the open four
        state["wild_out"] = None
    _part_done(state, player)


def _part_done(state: LowdownState, player: int) -> None:
    state["done"].append(player)
    if player == int(state["active"]):
        state["phase"] = Phase.OTHERS
        if state["secret"] is None and state["settings"]["secret_dice"] == "virtual":
            state["secret"] = virtual_secret(int(state["seed"]), int(state["turn"]), state["layout"])
    if len(state["done"]) == len(state["players"]):
        _end_turn(state)


def _end_turn(state: LowdownState) -> None:
    """Everyone has written: the game ends if someone has filled enough grids, else the next player rolls."""
    enders = [p for p in range(len(state["players"])) if filled_grids(state, p) >= state["settings"]["end_grids"]]
    if enders:
        state["enders"] = enders
        state["phase"] = Phase.FINAL
        return
    state["turn"] += 1
    state["active"] = (int(state["active"]) + 1) % len(state["players"])
    # mypy takes an update's argument as a whole state (every key), not the part a TurnStart is
    state.update(turn_start())  # type: ignore[typeddict-item]


def _do_cross(state: LowdownState, action: Action) -> None:
    player = player_index(state, action)
    line, why = line_reason(state, player, action.get("squares"))
    require(why is None, _("{name} cannot cross out that line: {why}").format(name=player_name(state, player), why=why))
    state["boards"][player]["crossed"].append(line)


def _do_finish(state: LowdownState, action: Action) -> None:
    grids = int(state["settings"]["end_grids"])
    require(
        state["phase"] == Phase.FINAL,
        ngettext(
            "the game ends only when a player has filled {n} grid and everyone has finished the turn",
            "the game ends only when a player has filled {n} grids and everyone has finished the turn",
            grids,
        ).format(n=grids),
    )
    state["phase"] = Phase.OVER


_HANDLERS: dict[str, Move] = {
    "roll": _do_roll,
    "secret": _do_secret,
    "place": _do_place,
    "shade": _do_shade,
    "cross": _do_cross,
    "finish": _do_finish,
}

ENGINE = LowdownEngine()
