"""Rat-a-Tat Roll's data: the board ring, the deck and the picture die, read from (and checked against) the
packaged files in ``companion/games/data`` or a player's own file, or given inline."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from companion.games.base import BadSetup, Choice
from companion.i18n import N_

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
ICONS = ("card", "balloon", "leopard")
PICTURE_FACES = ("cat", "rat", "swap")
REGIONS = 5


def _read_json(name: str, what: str) -> dict[str, Any]:
    packaged = DATA_DIR / name
    path = packaged if Path(name).name == name and packaged.exists() else Path(name)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise BadSetup(f"cannot read the {what} file {name!r}: {err.strerror}") from err
    except json.JSONDecodeError as err:
        raise BadSetup(f"the {what} file {name!r} is not valid JSON ({err.msg}, line {err.lineno})") from err
    if not isinstance(data, dict):
        raise BadSetup(f"the {what} file {name!r} must hold a JSON object")
    return data


def _load(value: Any, default_file: str, what: str) -> dict[str, Any]:
    """Data: ``None`` is the packaged default, a string a file (a path or a packaged name), a dict is inline."""
    if value is None:
        return _read_json(default_file, what)
    if isinstance(value, str):
        return _read_json(value, what)
    if isinstance(value, dict):
        return copy.deepcopy(value)
    raise BadSetup(f"setting {what!r} must be a file name or an object, not {value!r}")


def _check_schema(data: dict[str, Any], what: str, known: set[str]) -> None:
    if data.get("schema") != 1:
        raise BadSetup(f'the {what} data needs "schema": 1, got {data.get("schema")!r}')
    unknown = set(data) - known - {"schema", "name", "note"}
    if unknown:
        raise BadSetup(f"the {what} data has unknown keys: {', '.join(sorted(unknown))}")


# What the setup screen calls each packaged data file (a file not named here is shown by the "name" it holds).
_FILE_LABELS = {
    "ratatat_board.json": N_("standard ring (35 spaces)"),
    "ratatat_board_compact.json": N_("compact ring (25 spaces)"),
    "ratatat_deck.json": N_("standard deck (45 cards)"),
    "ratatat_picture_die.json": N_("standard die (2 cats, 2 rats, 2 swaps)"),
}


def packaged(prefix: str) -> tuple[Choice, ...]:
    """The packaged data files for one kind (the default first), offered as choices on the setup screen."""
    names = sorted(p.name for p in DATA_DIR.glob(f"{prefix}*.json"))
    default = f"{prefix}.json"
    ordered = [default, *(n for n in names if n != default)] if default in names else names
    return tuple(Choice(name, _FILE_LABELS.get(name) or _file_title(name)) for name in ordered)


def _file_title(name: str) -> str:
    try:
        title = json.loads((DATA_DIR / name).read_text(encoding="utf-8")).get("name")
    except (OSError, ValueError, AttributeError):
        title = None
    return str(title) if isinstance(title, str) and title else Path(name).stem.replace("_", " ")


def load_board(value: Any = None) -> dict[str, Any]:
    """Load and check a board: 5 regions with colours, and a ring of spaces with 5 picture-die spaces
    separating the regions, each region one unbroken run of card/balloon/leopard spaces."""
    board = _load(value, "ratatat_board.json", "board")
    _check_schema(board, "board", {"regions", "spaces"})
    regions = board.get("regions")
    if not isinstance(regions, list) or len(regions) != REGIONS:
        raise BadSetup("the board needs exactly 5 regions")
    for i, region in enumerate(regions):
        if not isinstance(region, dict) or not isinstance(region.get("name"), str):
            raise BadSetup(f"board region {i} needs a name")
        colour = region.get("colour")
        if not (isinstance(colour, str) and len(colour) == 7 and colour.startswith("#")):
            raise BadSetup(f'board region {i} needs a colour like "#d9534f", not {colour!r}')
    spaces = board.get("spaces")
    if not isinstance(spaces, list) or not spaces:
        raise BadSetup("the board needs a list of spaces")
    runs: list[int] = []  # region of each run of region spaces, in ring order
    for i, space in enumerate(spaces):
        if not isinstance(space, dict):
            raise BadSetup(f"board space {i} must be an object")
        kind = space.get("kind")
        if kind == "picture":
            if set(space) != {"kind"}:
                raise BadSetup(f"board space {i}: a picture-die space belongs to no region")
            continue
        if kind not in ICONS:
            raise BadSetup(f"board space {i} has kind {kind!r}; use picture, card, balloon or leopard")
        region = space.get("region")
        if not isinstance(region, int) or isinstance(region, bool) or not 0 <= region < REGIONS:
            raise BadSetup(f"board space {i} needs a region 0-4")
        previous = spaces[i - 1] if i else spaces[-1]
        if previous.get("kind") == "picture" or previous.get("region") != region:
            runs.append(region)
    pictures = [i for i, s in enumerate(spaces) if s.get("kind") == "picture"]
    if len(pictures) != REGIONS:
        raise BadSetup(f"the board needs exactly 5 picture-die spaces, found {len(pictures)}")
    if sorted(runs) != list(range(REGIONS)) or len(runs) != REGIONS:
        raise BadSetup("each region must be one run of spaces between two picture-die spaces")
    for i in pictures:
        if spaces[(i + 1) % len(spaces)].get("kind") == "picture":
            raise BadSetup("two picture-die spaces may not touch: a region lies between every two")
    return board


def load_deck(value: Any = None) -> dict[str, Any]:
    """Load and check a deck: card values with counts (the default is 45 cards, four each of 0-8, nine 9s)."""
    deck = _load(value, "ratatat_deck.json", "deck")
    _check_schema(deck, "deck", {"cards"})
    cards = deck.get("cards")
    if not isinstance(cards, list) or not cards:
        raise BadSetup("the deck needs a list of cards")
    seen: set[int] = set()
    for entry in cards:
        value_, count = (entry.get("value"), entry.get("count")) if isinstance(entry, dict) else (None, None)
        if not isinstance(value_, int) or isinstance(value_, bool) or value_ in seen:
            raise BadSetup(f"deck entry {entry!r} needs a whole-number value listed once")
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise BadSetup(f"deck entry {entry!r} needs a count of 1 or more")
        seen.add(value_)
    return deck


def load_picture_die(value: Any = None) -> dict[str, Any]:
    """Load and check the picture die: six faces, each cat, rat or swap."""
    die = _load(value, "ratatat_picture_die.json", "picture die")
    _check_schema(die, "picture die", {"faces"})
    faces = die.get("faces")
    if not isinstance(faces, list) or len(faces) != 6 or any(f not in PICTURE_FACES for f in faces):
        raise BadSetup("the picture die needs six faces, each 'cat', 'rat' or 'swap'")
    return die


DATA_KEYS = ("board", "deck", "picture_die")
LOADERS = {"board": load_board, "deck": load_deck, "picture_die": load_picture_die}


def inline_data(value: Any) -> dict[str, Any]:
    """The ``data`` setting checked: ``None`` (read the files) or an object holding some of ``board``, ``deck``
    and ``picture_die`` as data (the copy a journaled game keeps of what its files held at its start)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise BadSetup(f"setting 'data' must be an object with the board, deck and picture die, not {value!r}")
    unknown = set(value) - set(DATA_KEYS)
    if unknown:
        raise BadSetup(f"setting 'data' has unknown keys: {', '.join(sorted(map(str, unknown)))}")
    for key, item in value.items():
        if not isinstance(item, dict):
            raise BadSetup(f"setting 'data' must hold the {key.replace('_', ' ')} as an object, not {item!r}")
    return value
