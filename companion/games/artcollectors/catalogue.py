"""Art Collectors' data: the paintings, their tokens and values, the paintings set aside per player count and the
three ladies, read from ``companion/games/data/artcollectors.json`` (or the copy a game keeps), and token codes."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.games.base import BadSetup, IllegalAction, error_words

DATA_PATH = Path(__file__).resolve().parent.parent / "data" / "artcollectors.json"

ROBIN, BANKER, CHEATER, ANGEL, LADY, WILD = "robin", "banker", "cheater", "angel", "lady", "wild"
ABILITIES = {"", ROBIN, BANKER, CHEATER, ANGEL, LADY, WILD}
BLACK_CAT_MARK = "*"
_CODE = re.compile(r"^(\d+)([A-Z]*)$")


@dataclass(frozen=True)
class TokenKind:
    """One kind of token of a painting (painting 2 has two: the banker and the cheater)."""

    code: str
    name: str
    ability: str
    count: int


@dataclass(frozen=True)
class Painting:
    """A painting: its number, its value in points when won, and its tokens."""

    number: int
    value: int
    character: str
    points_per_token: int
    tokens: tuple[TokenKind, ...]

    @property
    def token_count(self) -> int:
        return sum(kind.count for kind in self.tokens)


@dataclass(frozen=True)
class Catalogue:
    """Everything the rules count, read from the data file."""

    paintings: tuple[Painting, ...]
    removed: dict[int, tuple[int, ...]]
    ladies: tuple[int, ...]
    ladies_take: int
    black_cat_painting: int
    min_players: int
    max_players: int
    title: str

    def painting(self, number: int) -> Painting | None:
        return next((p for p in self.paintings if p.number == number), None)


def load_catalogue(path: Path = DATA_PATH) -> Catalogue:
    """Read and check the data file; a malformed file raises :class:`BadSetup` naming the problem."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise BadSetup(f"cannot read {path.name}: {error_words(err)}") from err
    return parse_catalogue(raw, source=path.name)


def parse_catalogue(raw: Any, *, source: str = "the catalogue") -> Catalogue:
    """Check catalogue data (the data file's object, or the copy a game's setup keeps); :class:`BadSetup` names
    the problem."""
    try:
        paintings = []
        codes: set[str] = set()
        for entry in raw["paintings"]:
            kinds = []
            for tok in entry["tokens"]:
                kind = TokenKind(
                    str(tok["code"]), str(tok["name"]), str(tok.get("ability", "")), int(tok.get("count", 1))
                )
                match = _CODE.match(kind.code)
                if match is None or int(match.group(1)) != int(entry["number"]) or kind.code in codes:
                    raise BadSetup(f"{source}: bad or repeated token code {kind.code!r}")
                if kind.ability not in ABILITIES or kind.count < 1:
                    raise BadSetup(f"{source}: token {kind.code!r} has ability {kind.ability!r}, count {kind.count}")
                codes.add(kind.code)
                kinds.append(kind)
            paintings.append(
                Painting(
                    int(entry["number"]),
                    int(entry["value"]),
                    str(entry["character"]),
                    int(entry.get("points_per_token", 1)),
                    tuple(kinds),
                )
            )
        ladies = raw["three_ladies"]
        return Catalogue(
            paintings=tuple(paintings),
            removed={int(k): tuple(int(n) for n in v) for k, v in raw.get("removed_paintings", {}).items()},
            ladies=tuple(int(n) for n in ladies["paintings"]),
            ladies_take=int(ladies["take"]),
            black_cat_painting=int(raw.get("black_cat", {}).get("painting", 0)),
            min_players=int(raw["players"]["min"]),
            max_players=int(raw["players"]["max"]),
            title=str(raw.get("title", "Art Collectors")),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        if isinstance(err, BadSetup):
            raise
        raise BadSetup(f"cannot read {source}: {error_words(err)}") from err


def catalogue_json(catalogue: Catalogue) -> dict[str, Any]:
    """The catalogue as data in the data file's format (what :func:`parse_catalogue` reads back unchanged)."""
    return {
        "schema": 1,
        "title": catalogue.title,
        "players": {"min": catalogue.min_players, "max": catalogue.max_players},
        "removed_paintings": {str(k): list(v) for k, v in catalogue.removed.items()},
        "paintings": [
            {
                "number": p.number,
                "value": p.value,
                "character": p.character,
                "points_per_token": p.points_per_token,
                "tokens": [{"code": k.code, "name": k.name, "ability": k.ability, "count": k.count} for k in p.tokens],
            }
            for p in catalogue.paintings
        ],
        "three_ladies": {"paintings": list(catalogue.ladies), "take": catalogue.ladies_take},
        "black_cat": {"painting": catalogue.black_cat_painting},
    }


def painting_of(code: str) -> int:
    """The painting number of a token code such as ``"7"``, ``"2B"`` or ``"5*"``."""
    match = _CODE.match(code.rstrip(BLACK_CAT_MARK))
    if match is None:
        raise IllegalAction(f"{code!r} is not a token")
    return int(match.group(1))


def plain(code: str) -> str:
    """The token code without the black-cat mark."""
    return code.rstrip(BLACK_CAT_MARK)
