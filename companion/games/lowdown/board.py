"""Lowdown's board as data: the layout file (colours, number faces, wild boxes, grids of colour squares), read
and checked, and the geometry of its lines of three."""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from companion.games.base import BadSetup
from companion.games.lowdown.shape import Grid, Layout, Line

DEFAULT_LAYOUT_PATH = Path(__file__).resolve().parent.parent / "data" / "lowdown_board.json"
LINE_LENGTH = 3
SHADED_POINTS = 6  # a shaded square counts this much


def read_layout_file(path: str | Path) -> dict[str, Any]:
    """A board layout file as written (checked with :func:`validate_layout`); what a setup stores inline."""
    where = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as err:
        raise BadSetup(f"cannot read the Lowdown board file {where}: {err.strerror or err}") from err
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise BadSetup(f"{where}: not valid JSON ({err.msg} at line {err.lineno}, column {err.colno})") from err
    validate_layout(data, source=where)
    return dict(data)


def load_layout(path: str | Path) -> Layout:
    """Read and validate a board layout file; :class:`BadSetup` says what is wrong and where."""
    return validate_layout(read_layout_file(path), source=str(path))


_DEFAULT_LAYOUT: Layout | None = None


def default_layout() -> Layout:
    """The documented default board (three 3x3 grids), validated once and copied on every call."""
    global _DEFAULT_LAYOUT
    if _DEFAULT_LAYOUT is None:
        _DEFAULT_LAYOUT = load_layout(DEFAULT_LAYOUT_PATH)
    return copy.deepcopy(_DEFAULT_LAYOUT)


def validate_layout(data: Any, *, source: str = "layout") -> Layout:
    """Check a layout object and return it normalised (squares as lists of colour names).

    A layout has ``colours`` (name -> display colour ``#rrggbb``; also the colour dice faces), ``numbers`` (the
    number dice faces), ``wilds`` (wild boxes per board) and ``grids``: each with a ``name``, its ``colours``
    and ``rows`` of squares written ``"red"`` or ``"red/orange"``. Every grid needs at least 3 squares in a line.
    """

    def bad(msg: str) -> BadSetup:
        return BadSetup(f"{source}: {msg}")

    if not isinstance(data, dict):
        raise bad("a board layout must be a JSON object")
    known = {"schema", "name", "note", "colours", "numbers", "wilds", "grids"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise bad(f"unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
    if data.get("schema", 1) != 1:
        raise bad(f"schema {data.get('schema')!r} is not supported (this version reads schema 1)")
    colours = data.get("colours")
    if not isinstance(colours, dict) or not colours:
        raise bad('\'colours\' must map each colour name to a display colour, e.g. {"red": "#d64541"}')
    for name, hexa in colours.items():
        if not name or "/" in name:
            raise bad(f"colour name {name!r} must be non-empty and without '/'")
        if not (isinstance(hexa, str) and len(hexa) == 7 and hexa.startswith("#")):
            raise bad(f'colour {name!r} needs a display colour like "#d64541", not {hexa!r}')
        try:
            int(hexa[1:], 16)
        except ValueError:
            raise bad(f'colour {name!r} needs a display colour like "#d64541", not {hexa!r}') from None
    numbers = data.get("numbers", [1, 2, 3, 4, 5, 6])
    if (
        not isinstance(numbers, list)
        or not numbers
        or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers)
    ):
        raise bad("'numbers' must be a list of the number dice faces (whole numbers ≥ 0)")
    wilds = data.get("wilds", 4)
    if not isinstance(wilds, int) or isinstance(wilds, bool) or wilds < 0:
        raise bad(f"'wilds' must be a whole number ≥ 0, not {wilds!r}")
    grids = data.get("grids")
    if not isinstance(grids, list) or not grids:
        raise bad("'grids' must be a non-empty list")
    out_grids: list[Grid] = []
    for gi, grid in enumerate(grids):
        if not isinstance(grid, dict):
            raise bad(f"grid {gi + 1} must be an object with 'name', 'colours' and 'rows'")
        gname = str(grid.get("name") or f"Grid {gi + 1}")
        label = f"grid {gi + 1} ({gname})"
        gcols = grid.get("colours")
        if not isinstance(gcols, list) or not gcols or not all(isinstance(c, str) for c in gcols):
            raise bad(f"{label}: 'colours' must list the grid's colours")
        for c in gcols:
            if c not in colours:
                raise bad(f"{label}: colour {c!r} is not in the layout's colours ({', '.join(colours)})")
        rows = grid.get("rows")
        if not isinstance(rows, list) or not rows or not all(isinstance(r, list) and r for r in rows):
            raise bad(f"{label}: 'rows' must be a list of rows of squares")
        width = len(rows[0])
        if any(len(r) != width for r in rows):
            raise bad(f"{label}: every row must have the same number of squares")
        if max(len(rows), width) < LINE_LENGTH:
            raise bad(f"{label}: a grid needs at least {LINE_LENGTH} squares in a row or column")
        out_rows: list[list[list[str]]] = []
        for ri, row in enumerate(rows):
            out_row: list[list[str]] = []
            for ci, sq in enumerate(row):
                where = f"{label}, row {ri + 1}, column {ci + 1}"
                if not isinstance(sq, str) or not sq:
                    raise bad(f'{where}: a square is written as a colour name such as "red" or "red/orange"')
                parts = sq.split("/")
                for part in parts:
                    if part not in gcols:
                        raise bad(f"{where}: {part!r} is not one of this grid's colours ({', '.join(gcols)})")
                if len(set(parts)) != len(parts):
                    raise bad(f"{where}: colour repeated in {sq!r}")
                out_row.append(parts)
            out_rows.append(out_row)
        out_grids.append({"name": gname, "colours": list(gcols), "rows": out_rows})
    used = {c for grid in out_grids for c in grid["colours"]}
    unused = [c for c in colours if c not in used]
    if unused:
        raise bad(f"colour(s) {', '.join(unused)} are on the colour dice but in no grid: they could never be written")
    # Colours in the order the grids name them, not the file's key order: the journal stores a setup with its
    # keys sorted, and the virtual secret die draws from this order, so a recorded board must not change it.
    order = list(dict.fromkeys(c for grid in out_grids for c in grid["colours"]))
    return {
        "name": str(data.get("name", "custom")),
        "note": str(data.get("note", "")),
        "colours": {c: colours[c] for c in order},
        "numbers": list(numbers),
        "wilds": wilds,
        "grids": out_grids,
    }


def grid_lines(layout: Mapping[str, Any], grid: int) -> list[Line]:
    """Every straight line of 3 consecutive squares in one grid: rows, columns, then both diagonals."""
    rows = layout["grids"][grid]["rows"]
    height, width = len(rows), len(rows[0])
    lines: list[Line] = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(height):
            for c in range(width):
                end_r, end_c = r + dr * (LINE_LENGTH - 1), c + dc * (LINE_LENGTH - 1)
                if 0 <= end_r < height and 0 <= end_c < width:
                    lines.append([[grid, r + dr * k, c + dc * k] for k in range(LINE_LENGTH)])
    return lines


def all_lines(layout: Mapping[str, Any]) -> list[Line]:
    """Every line of three on the board, grid by grid."""
    return [line for g in range(len(layout["grids"])) for line in grid_lines(layout, g)]


def _orient(ax: int, ay: int, bx: int, by: int, cx: int, cy: int) -> int:
    v = (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)
    return (v > 0) - (v < 0)


def lines_conflict(a: Line, b: Line) -> bool:
    """True when two crossed lines would cross each other, which the rules forbid.

    "Cross" means: they share a square, or the segments joining their square centres intersect (two diagonals
    that pass between each other's squares). In a 3x3 grid every diagonal shares a square with every other line,
    which is the manual's warning that a diagonal blocks the other lines of its grid. Parallel neighbours and
    lines in different grids never conflict.
    """
    if a[0][0] != b[0][0]:
        return False
    if {tuple(s) for s in a} & {tuple(s) for s in b}:
        return True
    (_, ar1, ac1), (_, ar2, ac2) = a[0], a[-1]
    (_, br1, bc1), (_, br2, bc2) = b[0], b[-1]
    o1 = _orient(ar1, ac1, ar2, ac2, br1, bc1)
    o2 = _orient(ar1, ac1, ar2, ac2, br2, bc2)
    o3 = _orient(br1, bc1, br2, bc2, ar1, ac1)
    o4 = _orient(br1, bc1, br2, bc2, ar2, ac2)
    return o1 * o2 < 0 and o3 * o4 < 0
