"""The contract every rules engine follows: the :class:`Engine` base class, its :class:`Setting` table, and the
value types and field parsers the engines share.

An engine works on plain JSON data: ``setup`` makes the first state from the players and settings, ``apply``
takes a state and one action (a dict with a ``"type"`` key) and returns the next state, or raises
:class:`IllegalAction` with a reason a player understands. Engines import only the standard library (and
``companion.i18n``, gettext); randomness and time arrive inside actions or settings (a seed, a tick), never read
inside an engine.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypedDict, TypeGuard, TypeVar, cast

from companion.i18n import _

JSON = Any
State = dict[str, Any]
Action = dict[str, Any]
S = TypeVar("S", bound=Mapping[str, Any])
"""An engine's state type: :data:`State` (a plain JSON dict), or a ``TypedDict`` describing the same JSON (Ratuki's
``RatukiState``) so ``mypy --strict`` checks its keys."""


class IllegalAction(ValueError):
    """An action the rules do not allow; ``str(err)`` is shown to the players as is."""


class BadSetup(ValueError):
    """Players or settings that cannot start a game (wrong player count, unknown setting, bad data file)."""


@dataclass(frozen=True)
class Player:
    """A seat at the table: name, display colour (``#rrggbb``) and the button/seat number (1-based)."""

    name: str
    colour: str = "#ffffff"
    seat: int = 1

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "seat": self.seat}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Player:
        return cls(name=str(data["name"]), colour=str(data.get("colour", "#ffffff")), seat=int(data.get("seat", 1)))


@dataclass(frozen=True)
class Setup:
    """Everything needed to start a game; with the action log it determines every later state."""

    game: str
    players: tuple[Player, ...]
    settings: dict[str, Any] = field(default_factory=dict)
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": [p.to_json() for p in self.players],
            "settings": dict(self.settings),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Setup:
        return cls(
            game=str(data["game"]),
            players=tuple(Player.from_json(p) for p in data["players"]),
            settings=dict(data.get("settings", {})),
            seed=int(data.get("seed", 0)),
        )


@dataclass(frozen=True)
class Choice:
    """One value a setting may take, with the words the setup screen shows for it (English, marked with
    ``N_``; the screen translates it with ``_()`` when it draws)."""

    value: Any
    label: str


@dataclass(frozen=True)
class Setting:
    """One game option as the setup screen offers it: its default, what it is called at the table, and the
    values it may take (``choices``, in the order offered; else a boolean toggle or a number in ``range``).

    ``player``: the value is a player's place in seat order (0 = the first row of the setup screen), shown as
    that player's name. ``files``: the value is ``None`` (the packaged default) or a ``.json`` file from that
    folder of the data folder. ``shown=False``: recorded with the game (e.g. the board data read at its start)
    but not offered. Labels and ``help`` are English marked with ``N_``; the screen shows them through ``_()``.
    """

    default: Any
    label: str = ""
    choices: tuple[Choice, ...] = ()
    range: tuple[float, float] | None = None
    help: str = ""
    player: bool = False
    files: str = ""
    shown: bool = True

    def choice_label(self, value: Any) -> str | None:
        """The (English) words for ``value`` among the choices; ``None`` when it is not one of them."""
        for choice in self.choices:
            if choice.value == value and type(choice.value) is type(value):
                return choice.label
        return None

    @property
    def values(self) -> list[Any]:
        return [choice.value for choice in self.choices]


def choices(*pairs: tuple[Any, str]) -> tuple[Choice, ...]:
    """``choices((value, label), ...)``: a setting's choices in the order offered."""
    return tuple(Choice(value, label) for value, label in pairs)


class PlayerData(TypedDict):
    """A player as a game's state keeps them (``Player.to_json``), for the games whose state describes them."""

    name: str
    colour: str
    seat: int


Move = Callable[[State, Action], None]  # a move of a game whose state is a plain dict (tests' toy engine)


class Engine(ABC, Generic[S]):
    """The one contract every game follows (like python-chess's ``Board``): the journal, the replay command and
    the UI ask every engine the same questions the same way.

    - ``settings``: the game's options, one :class:`Setting` each (the setup screen reads only this table);
    - ``setup(setup) -> state``: the state before the first action (:class:`BadSetup` says why not);
    - ``apply(state, action) -> state``: a template, the same for every game: the action's ``type`` is looked up
      in the explicit :meth:`moves` table, a finished game refuses every action, and the move works on a deep
      copy, so ``state`` is never changed (:class:`IllegalAction` with a sentence for the players);
    - ``legal_actions(state, seat)``: what the player at ``seat`` (the button number, 1-based) may do now;
    - ``describe(action, state)``: the line the log and the undo prompt show (``state``: the game after it);
    - ``is_over``, ``scores``; ``prepare_setup`` makes the recorded setup self-contained (default: unchanged).

    Engines import only the standard library (and ``companion.i18n``, which is gettext); randomness and time
    arrive in the setup seed and inside actions. ``Engine[State]`` works on plain dicts; an engine whose state is
    described by a ``TypedDict`` names it instead (``Engine[RatukiState]``): the same JSON, checked by mypy.
    """

    name: str = ""  # short id used in files and the journal, e.g. "ratuki"
    title: str = ""  # shown on screen, e.g. "Ratuki"
    min_players: int = 2
    max_players: int = 5
    settings: dict[str, Setting] = {}  # noqa: RUF012  (each engine gives its own table)

    # Keys of the state whose value is an append-only list, a log that grows with the game (Ratuki's calls): a
    # move copies them as new lists sharing their elements, so it costs the same at the 5,000th call as at the
    # first. A move never changes an element already logged; it puts a changed copy in its place.
    logs: tuple[str, ...] = ()

    _move_table: dict[str, Callable[[S, Action], None]] | None = None

    # -- the settings table ------------------------------------------------------------------------------

    def default_settings(self) -> dict[str, Any]:
        """Every setting with its default; ``setup`` rejects keys not listed here."""
        return {key: copy.deepcopy(setting.default) for key, setting in self.settings.items()}

    def prepare_setup(self, setup: Setup) -> Setup:
        """The setup to record when a game starts (e.g. a board file read now and stored inline, so replay never
        depends on that file). Default: the setup as given. May raise :class:`BadSetup`."""
        return setup

    @abstractmethod
    def setup(self, setup: Setup) -> S:
        """The state before the first action. Raises :class:`BadSetup`."""

    # -- moves -------------------------------------------------------------------------------------------

    @abstractmethod
    def moves(self) -> dict[str, Callable[[S, Action], None]]:
        """The explicit moves table: action type -> the function that performs it on a copy of the state."""

    def move_types(self) -> list[str]:
        """Every action type this game understands, in the table's order."""
        return list(self._moves())

    def _moves(self) -> dict[str, Callable[[S, Action], None]]:
        if self._move_table is None:
            self._move_table = self.moves()
        return self._move_table

    def apply(self, state: S, action: Action) -> S:
        """The state after ``action``; never mutates ``state``. Raises :class:`IllegalAction`."""
        kind = action_type(action)
        move = self._moves().get(kind)
        if move is None:
            raise IllegalAction(self.unknown_move(kind))
        if self.is_over(state):
            raise IllegalAction(self.over_message())
        self.check_move(state, kind, action)
        new = self.copy_state(state)
        self.begin_move(new)
        move(new, action)
        return new

    def copy_state(self, state: S) -> S:
        """The copy a move works on: every part deep-copied except the :attr:`logs`, which are new lists of the
        same (never changed) elements."""
        return cast(S, {key: list(value) if key in self.logs else copy.deepcopy(value) for key, value in state.items()})

    def unknown_move(self, kind: str) -> str:
        """The refusal of an action type the game does not have."""
        return _("unknown action {kind!r} in {game} (known: {known})").format(
            kind=kind, game=self.title, known=", ".join(self.move_types())
        )

    def over_message(self) -> str:
        """The refusal of any action once the game is over."""
        return _("the game is over")

    def check_move(self, state: S, kind: str, action: Action) -> None:
        """Before a move is copied and performed: refuse it when the phase does not allow it (default: no
        check here; the move itself checks)."""

    def begin_move(self, state: S) -> None:
        """On the copy, before the move runs (e.g. clear the last action's events). Default: nothing."""

    # -- questions -----------------------------------------------------------------------------------------

    @abstractmethod
    def legal_actions(self, state: S, seat: int | None = None) -> list[Action]:
        """What can be done now: the actions the player at ``seat`` may take (``None``: everyone, and the table
        itself, e.g. entering dice or a card). Each is a complete action where the engine knows every field,
        else the type with the fields it knows, the rest (dice faces, card values) read at the table."""

    def to_play(self, state: S) -> list[int]:
        """The seats of the players who may act now (in playing order)."""
        return [seat for seat in seats(state) if self.legal_actions(state, seat)]

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """True once the game has ended and scores are final."""

    @abstractmethod
    def scores(self, state: S) -> dict[str, Any]:
        """Scores so far (or final), keyed by player name, plus ``"winners"`` when the game is over."""

    @abstractmethod
    def describe(self, action: Action, state: S | None = None) -> str:
        """One line for the log and the undo prompt, e.g. "Ana takes the stack (+12 ms)"; ``state`` (the game
        after the action, when known) lets it name players instead of numbering them."""


def seats(state: Mapping[str, Any]) -> list[int]:
    """The players' seats (button numbers) in playing order: the state's ``seats`` list when it keeps one, else
    the ``seat`` of each player object in ``players`` (a player kept by name only sits at its place + 1)."""
    if "seats" in state:
        return [int(s) for s in state["seats"]]
    out: list[int] = []
    for index, player in enumerate(state.get("players", [])):
        seat = player.get("seat") if isinstance(player, dict) else None
        out.append(int(seat) if is_whole(seat) else index + 1)
    return out


def seat_index(state: Mapping[str, Any], seat: int | None) -> int | None:
    """The index (playing order) of the player at ``seat``; ``None`` for no seat or an empty one."""
    if seat is None:
        return None
    order = seats(state)
    return order.index(seat) if seat in order else None


# -- shared field parsers ----------------------------------------------------------------------------------


def is_whole(value: object) -> TypeGuard[int]:
    """True for an ``int`` that is not a ``bool`` (JSON ``true`` must never count as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def whole(value: object, reason: str, lo: int | None = None, hi: int | None = None) -> int:
    """``value`` as a whole number in ``lo..hi`` (either bound optional); else :class:`IllegalAction(reason)`."""
    if not is_whole(value) or (lo is not None and value < lo) or (hi is not None and value > hi):
        raise IllegalAction(reason)
    return int(value)


def flag(value: object, reason: str) -> bool:
    """``value`` as a boolean (JSON ``true``/``false`` only); else :class:`IllegalAction(reason)`."""
    if not isinstance(value, bool):
        raise IllegalAction(reason)
    return value


def check_settings(defaults: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """Merge ``given`` over ``defaults``; unknown keys or values of the wrong type raise :class:`BadSetup`."""
    merged = copy.deepcopy(defaults)
    for key, value in given.items():
        if key not in defaults:
            raise BadSetup(
                _("unknown setting {key!r} (known: {known})").format(key=key, known=", ".join(sorted(defaults)))
            )
        want = type(defaults[key])
        ok = isinstance(value, want) or (want is float and isinstance(value, int) and not isinstance(value, bool))
        if defaults[key] is not None and (not ok or (want is int and isinstance(value, bool))):
            raise BadSetup(
                _("setting {key!r} must be {kind}, got {value!r}").format(key=key, kind=want.__name__, value=value)
            )
        merged[key] = value
    return merged


def check_players(setup: Setup, lo: int, hi: int) -> None:
    """Raise :class:`BadSetup` unless the player count is in ``lo..hi`` and names and seats are unique."""
    n = len(setup.players)
    if not lo <= n <= hi:
        raise BadSetup(_("{game} needs {low}–{high} players, not {n}").format(game=setup.game, low=lo, high=hi, n=n))
    names = [p.name for p in setup.players]
    if len(set(names)) != n or any(not name.strip() for name in names):
        raise BadSetup(_("every player needs a different, non-empty name"))
    seats = [p.seat for p in setup.players]
    if len(set(seats)) != n:
        raise BadSetup(_("two players cannot share a button/seat"))


def error_words(err: BaseException) -> str:
    """An unexpected error said in words a player can act on, never Python's own text (``KeyError('paintings')``):
    what is missing or of the wrong kind, or the error's own sentence when it has one."""
    if isinstance(err, KeyError):
        key = err.args[0] if err.args else "?"
        return _("the entry {key!r} is missing").format(key=key) if isinstance(key, str) else _("an entry is missing")
    if isinstance(err, IndexError):
        return _("a list is shorter than expected")
    if isinstance(err, TypeError | AttributeError):
        return _("a value of the wrong kind")
    if isinstance(err, OSError):
        return err.strerror or _("the file cannot be read")
    if isinstance(err, IllegalAction | BadSetup | ValueError) and str(err) and not str(err).startswith("<"):
        return str(err)
    return _("an unexpected problem")


def require(condition: bool, reason: str) -> None:
    """Raise :class:`IllegalAction` with ``reason`` unless ``condition`` holds."""
    if not condition:
        raise IllegalAction(reason)


def action_type(action: Action) -> str:
    """The action's ``type``; a malformed action raises :class:`IllegalAction`."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(_("an action must be an object with a 'type', not {action!r}").format(action=action))
    return str(action["type"])
