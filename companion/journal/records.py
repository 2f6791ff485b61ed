"""What reading the journal gives back: a game's row (``GameRecord``), its live moves parsed on first use
(``Moves``), and a stored snapshot decompressed on first use (``Snapshot``)."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Iterable, MutableSequence
from dataclasses import dataclass
from typing import Any, overload

from companion.games.base import Setup
from companion.i18n import _


@dataclass(frozen=True)
class GameRecord:
    """One game's row: id, game name, setup, timestamps, whether it ended, and how many live actions it has.

    ``problem`` says why a damaged row's setup cannot be read (its ``setup`` then has no players); such a game
    is listed, named, never resumed, and stays in the file as it is."""

    id: int
    game: str
    setup: Setup
    created: float
    updated: float
    finished: bool
    actions: int
    problem: str | None = None


class Unread:
    """A stored move not parsed yet."""

    __slots__ = ("seq", "text")

    def __init__(self, seq: Any, text: Any) -> None:
        self.seq = seq
        self.text = text


class Moves(MutableSequence[dict[str, Any]]):
    """A game's live moves, each parsed from its row the first time it is used: a game resumed from a snapshot
    near its end reads only the moves after it (thousands of earlier ones stay text until asked for)."""

    def __init__(self, items: list[Any], parse: Callable[[Unread], dict[str, Any]]) -> None:
        self._items = items
        self._parse = parse

    def _read(self, index: int) -> dict[str, Any]:
        item = self._items[index]
        if isinstance(item, Unread):
            item = self._items[index] = self._parse(item)
        return item  # type: ignore[no-any-return]

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...
    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, slice):
            return [self._read(i) for i in range(*index.indices(len(self._items)))]
        return self._read(index)

    @overload
    def __setitem__(self, index: int, value: dict[str, Any]) -> None: ...
    @overload
    def __setitem__(self, index: slice, value: Iterable[dict[str, Any]]) -> None: ...
    def __setitem__(self, index: Any, value: Any) -> None:
        self._items[index] = value

    def __delitem__(self, index: int | slice) -> None:
        del self._items[index]

    def __len__(self) -> int:
        return len(self._items)

    def insert(self, index: int, value: dict[str, Any]) -> None:
        self._items.insert(index, value)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Moves | list | tuple):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Moves({len(self)} moves)"


class Snapshot:
    """A stored state after a game's first ``count`` moves, read (and decompressed) only when asked for."""

    def __init__(self, count: int, blob: Any) -> None:
        self.count = count
        self._blob = blob

    def state(self) -> dict[str, Any] | None:
        """The state, or None when the stored bytes do not read (a damaged snapshot: replay instead)."""
        try:
            state = json.loads(zlib.decompress(self._blob))
        except (zlib.error, TypeError, ValueError, RecursionError):
            return None
        return state if isinstance(state, dict) else None


def record_from_row(row: tuple[Any, ...]) -> GameRecord:
    """A game's row; a setup that cannot be read gives a record with ``problem`` set (and no players)."""
    game = str(row[1])
    problem = None
    try:
        setup = read_setup(row[2])
    except ValueError as err:
        setup, problem = Setup(game, ()), str(err)
    return GameRecord(
        id=int(row[0]),
        game=game,
        setup=setup,
        created=number_or_zero(row[3]),
        updated=number_or_zero(row[4]),
        finished=bool(row[5]),
        actions=int(row[6]),
        problem=problem,
    )


def read_setup(text: Any) -> Setup:
    """A stored setup, or ValueError saying for the players why it cannot be read."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise ValueError(_("its setup is not valid JSON")) from None
    if not isinstance(data, dict):
        raise ValueError(_("its setup is not an object"))
    players = data.get("players")
    if not isinstance(players, list) or not players:
        raise ValueError(_("its setup has no players"))
    try:
        return Setup.from_json(data)
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise ValueError(_("its setup cannot be read ({err})").format(err=err)) from None


def number_or_zero(value: Any) -> float:
    """A stored time as a number (0 where it does not read)."""
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0
