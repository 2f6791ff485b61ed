"""A Lowdown board drawn for touch: each square a button (its colours, the number or shading in it, an outline
when it can be written or is picked), crossed lines drawn through their squares and crossable ones highlighted."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.graphics import Color, Line, Rectangle, Triangle
from kivy.metrics import dp
from kivy.properties import ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.utils import get_color_from_hex

from companion.games.lowdown.wording import colour_name
from companion.ui.screens import load_kv
from companion.ui.widgets import readable_text

SQUARE = 56  # dp: 9 squares across fit the 548 dp board column with room for the gaps between grids
LIT = (1, 1, 1, 1)
PICKED = (0.2, 0.9, 1, 1)
HIGHLIGHT = (1, 0.85, 0.1, 0.75)
SHADED = (0.28, 0.28, 0.32, 1)
DIM = 0.3


def _dimmed(rgba: list[float], factor: float) -> list[float]:
    return [rgba[0] * factor, rgba[1] * factor, rgba[2] * factor, 1.0]


class SquareButton(Button):
    """One square of a grid: its colour (two colours split on the diagonal), the number or shading in it, and
    an outline when it can be written (lit) or is picked for a crossing."""

    fills = ListProperty([])
    mode = StringProperty("normal")  # normal, dim, lit, picked, shaded
    # Line pieces through this square as (x1, y1, x2, y2) fractions of its size: lines that can be crossed
    # (under the number) and lines already crossed (over it, like a pen stroke).
    crossable = ListProperty([])
    crossed = ListProperty([])

    def __init__(self, square: tuple[int, int, int], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.square = square
        self.bind(
            pos=self.redraw, size=self.redraw, fills=self.redraw, mode=self.redraw, crossable=self.redraw,
            crossed=self.redraw,
        )  # fmt: skip

    def _pieces(self, pieces: list[Any], width: float) -> None:
        x, y = self.pos
        w, h = self.size
        for x1, y1, x2, y2 in pieces:
            Line(points=[x + x1 * w, y + y1 * h, x + x2 * w, y + y2 * h], width=width, cap="none")

    def redraw(self, *_args: Any) -> None:
        x, y = self.pos
        w, h = self.size
        self.canvas.before.clear()
        with self.canvas.before:
            if self.mode == "shaded":
                Color(*SHADED)
                Rectangle(pos=self.pos, size=self.size)
                Color(0.45, 0.45, 0.5, 1)
                for k in range(1, 4):
                    Line(points=[x, y + h * k / 4, x + w * k / 4, y], width=1)
                    Line(points=[x + w * k / 4, y + h, x + w, y + h * k / 4], width=1)
            else:
                factor = DIM if self.mode == "dim" else 1.0
                fills = [_dimmed(f, factor) for f in self.fills] or [[0.3, 0.3, 0.3, 1]]
                Color(*fills[0])
                if len(fills) == 1:
                    Rectangle(pos=self.pos, size=self.size)
                else:
                    Triangle(points=[x, y, x, y + h, x + w, y + h])
                    Color(*fills[1])
                    Triangle(points=[x, y, x + w, y, x + w, y + h])
            if self.crossable:
                Color(*HIGHLIGHT)
                self._pieces(self.crossable, dp(7))
            if self.mode == "lit":
                Color(*LIT)
                Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=dp(2.5))
            elif self.mode == "picked":
                Color(*PICKED)
                Line(rectangle=(x + 2, y + 2, w - 4, h - 4), width=dp(3))
            else:
                Color(0, 0, 0, 0.5)
                Line(rectangle=(x, y, w, h), width=1)
        self.canvas.after.clear()
        if self.crossed:
            with self.canvas.after:
                Color(0.05, 0.05, 0.08, 0.9)
                self._pieces(self.crossed, dp(2))


class LowdownBoard(BoxLayout):
    """One player's board: the grids of square buttons side by side, crossed lines drawn through their squares
    and the lines that may be crossed now highlighted."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("spacing", dp(12))
        kwargs.setdefault("size_hint_y", None)
        super().__init__(**kwargs)
        self.squares: dict[tuple[int, int, int], SquareButton] = {}
        self.crossed: list[list[list[int]]] = []
        self.highlight: list[list[list[int]]] = []

    def build(self, layout: dict[str, Any], on_tap: Any) -> None:
        """Make the square buttons for ``layout``; ``on_tap(square)`` is called with ``(grid, row, col)``."""
        self.clear_widgets()
        self.squares = {}
        size = dp(SQUARE)
        tallest = 0
        for g, grid in enumerate(layout["grids"]):
            rows = grid["rows"]
            column = BoxLayout(orientation="vertical", size_hint=(None, None), spacing=dp(2))
            column.add_widget(Factory.LowdownGridTitle(text=colour_name(grid["name"])))
            cells = GridLayout(cols=len(rows[0]), spacing=dp(2), size_hint=(None, None))
            cells.width = len(rows[0]) * size + (len(rows[0]) - 1) * dp(2)
            cells.height = len(rows) * size + (len(rows) - 1) * dp(2)
            for r, row in enumerate(rows):
                for c, colours in enumerate(row):
                    button = SquareButton(
                        (g, r, c),
                        size_hint=(None, None),
                        size=(size, size),
                        fills=[list(get_color_from_hex(layout["colours"][name])) for name in colours],
                    )
                    button.bind(on_release=lambda b: on_tap(b.square))
                    self.squares[(g, r, c)] = button
                    cells.add_widget(button)
            column.add_widget(cells)
            column.width = cells.width
            column.height = cells.height + dp(22)
            tallest = max(tallest, column.height)
            self.add_widget(column)
        self.height = tallest
        self.size_hint_x = None
        self.width = sum(ch.width for ch in self.children) + self.spacing * (len(self.children) - 1)

    def show(
        self,
        state: dict[str, Any],
        player: int,
        *,
        lit: set[tuple[int, int, int]],
        picked: set[tuple[int, int, int]],
        dim_free: bool,
        highlight: list[list[list[int]]],
    ) -> None:
        """Show ``player``'s board: numbers, shading, lit and picked squares, crossed and crossable lines."""
        board = state["boards"][player]
        for sq, button in self.squares.items():
            cell = board["grids"][sq[0]][sq[1]][sq[2]]
            if cell is None:
                button.text = ""
                button.mode = "lit" if sq in lit else ("dim" if dim_free else "normal")
            elif cell.get("shaded"):
                button.text = "+6"
                button.color = (0.9, 0.9, 0.9, 1)
                button.mode = "shaded"
            else:
                button.text = str(cell["n"])
                button.color = readable_text(_hex(button.fills[0]))
                button.mode = "picked" if sq in picked else "normal"
        self.crossed = board["crossed"]
        self.highlight = highlight
        crossable: dict[tuple[int, int, int], list[Any]] = {sq: [] for sq in self.squares}
        crossed: dict[tuple[int, int, int], list[Any]] = {sq: [] for sq in self.squares}
        for lines, target in ((highlight, crossable), (board["crossed"], crossed)):
            for line in lines:
                for sq, piece in line_pieces(line):
                    target[sq].append(piece)
        for sq, button in self.squares.items():
            button.crossable = crossable[sq]
            button.crossed = crossed[sq]


def line_pieces(line: list[list[int]]) -> list[tuple[tuple[int, int, int], tuple[float, float, float, float]]]:
    """The piece of a straight line inside each of its squares, as fractions of the square (y grows upward,
    rows grow downward): from the first square's centre to the last one's, corner to corner on diagonals."""
    dr = (line[-1][1] - line[0][1]) / (len(line) - 1)
    dc = (line[-1][2] - line[0][2]) / (len(line) - 1)
    vx, vy = dc * 0.5, -dr * 0.5
    out = []
    for k, (g, r, c) in enumerate(line):
        x1, y1 = (0.5 - vx, 0.5 - vy) if k > 0 else (0.5, 0.5)
        x2, y2 = (0.5 + vx, 0.5 + vy) if k < len(line) - 1 else (0.5, 0.5)
        out.append(((g, r, c), (x1, y1, x2, y2)))
    return out


def _hex(rgba: list[float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])


load_kv("lowdown/board")
