"""Lowdown at the table: each player's board to tap, the open roll and the secret pair entered by camera or
touch, legal squares lit, lines that can be crossed highlighted, and the pass-the-screen round of choices."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.graphics import Color, Line, Rectangle, Triangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_color_from_hex

from companion.games import lowdown
from companion.games.lowdown.wording import colour_list, colour_name
from companion.i18n import _, and_list, ngettext
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.widgets import readable_text
from companion.vision.roll import COLOUR, PIPS, Roll
from hardware.buttons import ButtonEvent
from hardware.simtray import TrayRoll

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


class DieTile(Button):
    """A die on the right panel: a colour die shows its colour, a number die its number; tap to pick it."""

    picked = BooleanProperty(False)
    kind = StringProperty("")  # "colour" or "number"
    face = ObjectProperty(None)


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
            column.add_widget(
                Label(
                    text=colour_name(grid["name"]),
                    font_size=dp(16),
                    size_hint_y=None,
                    height=dp(20),  # the line of 16 px type, within the 22 dp kept above each grid
                    color=(0.85, 0.85, 0.9, 1),
                )
            )
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


def _short(name: str, most: int) -> str:
    """``name`` cut to ``most`` characters with an ellipsis, so a long name cannot push text out of its box."""
    return name if len(name) <= most else name[: most - 1] + "…"


def _hex(rgba: list[float]) -> str:
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgba[:3])


def line_name(state: dict[str, Any], line: list[list[int]]) -> str:
    """'row 1', 'column 3' or 'diagonal' of a grid, for buttons and messages."""
    (_g1, r1, c1), (_g2, r2, c2) = line[0], line[-1]
    if r1 == r2:
        return _("row {n}").format(n=r1 + 1)
    if c1 == c2:
        return _("column {n}").format(n=c1 + 1)
    return _("diagonal")


class LowdownScreen(GameScreen):
    """The Lowdown game screen (see ``docs/lowdown.md`` for the flow and the actions it records)."""

    prompt = StringProperty("")
    info = StringProperty("")
    board_title = StringProperty("")
    viewing = NumericProperty(0)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.board: LowdownBoard | None = None
        self._board_message = ""  # the "Ana's board" line shown after a switch of board (replaced by the next)
        self._reset_choice()
        self.entry: dict[str, list[Any]] = {"colours": [], "numbers": []}
        self.looking = False

    # -- state ---------------------------------------------------------------------------------------------

    @property
    def state(self) -> dict[str, Any]:
        assert self.session is not None
        return self.session.state

    def _reset_choice(self) -> None:
        self.number: int | None = None
        self.colour: str | None = None
        self.wild = False
        self.picked: list[tuple[int, int, int]] = []
        self.line_ready = False  # the picked squares are a whole legal line waiting for a confirming tap

    def _do(self, action: dict[str, Any]) -> bool:
        """Perform ``action`` through the journal; the message names the player and grid (the engine's
        ``describe`` with the state: the same words Undo and Redo use)."""
        return self.act(action)

    def name_of(self, player: int) -> str:
        return str(self.state["players"][player]["name"])

    def mode(self) -> str:
        """What the viewed player does now (the engine's :func:`~companion.games.lowdown.part_of_turn`): over,
        final, pass, roll, secret, shade or choose."""
        return lowdown.part_of_turn(self.state, self.viewing, looking=self.looking).value

    # -- life cycle ----------------------------------------------------------------------------------------

    def on_session(self) -> None:
        state = self.state
        self.board = LowdownBoard()
        self.board.build(state["layout"], self.tap_square)
        self._reset_choice()
        self.entry = {"colours": [], "numbers": []}
        self.looking = False
        who = lowdown.to_play(state)
        self.viewing = who if who is not None else 0
        strip = self.ids.players
        strip.clear_widgets()
        for index in range(len(state["players"])):
            button = Factory.BigButton(font_size=dp(17), height=dp(50), markup=True)
            button.bind(on_release=lambda _b, i=index: self.view(i))
            strip.add_widget(button)

    def refresh(self) -> None:
        if self.session is None or self.board is None:
            return
        state = self.state
        if state["secret"] is not None or state["phase"] != "active":
            self.looking = False
        mode = self.mode()
        if mode != "choose":
            self.number = self.colour = None
            self.wild = False
        else:
            self._autopick()
        self._refresh_strip()
        score = lowdown.board_score(state, self.viewing)
        left = lowdown.wilds_left(state, self.viewing)
        self.board_title = _(
            "[b]{name}[/b]   score {score}   wild colours left {left}   grids filled {filled}/{end}"
        ).format(
            name=escape_markup(_short(self.name_of(self.viewing), 18)),
            score=score,
            left=left,
            filled=lowdown.filled_grids(state, self.viewing),
            end=state["settings"]["end_grids"],
        )
        content = self.ids.content
        content.clear_widgets()
        if mode in ("roll", "secret"):
            content.add_widget(self._entry_panel(mode))
        else:
            content.add_widget(self._board_panel(mode))
        getattr(self, f"_controls_{mode}")(self.ids.controls)

    def _refresh_strip(self) -> None:
        state = self.state
        who = lowdown.to_play(state)
        for index, button in enumerate(reversed(self.ids.players.children)):
            player = state["players"][index]
            colour = get_color_from_hex(player["colour"])
            pending = state["phase"] == "others" and index != state["active"] and index not in state["done"]
            mark = "  [b]>[/b]" if index == who or pending else ""
            button.text = f"{escape_markup(_short(str(player['name']), 24))}  {lowdown.board_score(state, index)}{mark}"
            button.background_color = colour if index == self.viewing else [v * 0.45 for v in colour[:3]] + [1]
            button.color = readable_text(player["colour"]) if index == self.viewing else (1, 1, 1, 1)

    # -- board ---------------------------------------------------------------------------------------------

    def _lit(self, mode: str) -> set[tuple[int, int, int]]:
        state = self.state
        p = self.viewing
        if mode == "shade":
            return {(g, r, c) for g, r, c in lowdown.free_squares(state, p)}
        if mode != "choose" or self.number is None:
            return set()
        active = p == state["active"]
        if self.colour is None and not (self.wild and not active):
            return set()
        found = lowdown.legal_placements(
            state, p, number=self.number, colour=self.colour if (active or not self.wild) else None, wild=self.wild
        )
        return {(a["square"][0], a["square"][1], a["square"][2]) for a in found}

    def _board_panel(self, mode: str) -> Widget:
        assert self.board is not None
        state = self.state
        if self.board.parent is not None:
            self.board.parent.remove_widget(self.board)
        lines = lowdown.legal_crossings(state, self.viewing)
        lit = self._lit(mode)
        self.board.show(
            state,
            self.viewing,
            lit=lit,
            picked=set(self.picked),
            dim_free=bool(lit),  # dim the rest only once there is something to tap (number and colour chosen)
            highlight=lines,
        )
        panel = BoxLayout(orientation="vertical", spacing=dp(4))
        panel.add_widget(self.board)
        wilds = int(state["layout"]["wilds"])
        used = int(state["boards"][self.viewing]["wilds"])
        row = BoxLayout(size_hint_y=None, height=dp(30), spacing=dp(6), padding=(dp(4), dp(2)))
        wild = Label(text=_("Wild colours"), font_size=dp(16), size_hint_x=None)
        wild.texture_update()
        wild.width = max(dp(96), wild.texture_size[0] + dp(8))
        row.add_widget(wild)
        for k in range(wilds):
            row.add_widget(Factory.WildBox(text="X" if k < used else ""))
        crossed = len(state["boards"][self.viewing]["crossed"])
        row.add_widget(Label(text=_("Crossed lines: {n}").format(n=crossed), font_size=dp(16), halign="right"))
        panel.add_widget(row)
        if lines:
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
            for line in lines[:3]:
                values = [state["boards"][self.viewing]["grids"][g][r][c]["n"] for g, r, c in line]
                grid_name = colour_name(state["layout"]["grids"][line[0][0]]["name"])
                button = Factory.AccentButton(
                    text=_("Cross {grid} {line}: {values}").format(
                        grid=grid_name, line=line_name(state, line), values=" ".join(map(str, values))
                    ),
                    font_size=dp(16),
                    height=dp(52),
                )
                button.bind(on_release=lambda _b, ln=line: self.cross(ln))
                row.add_widget(button)
            panel.add_widget(row)
        panel.add_widget(Widget())
        return panel

    def tap_square(self, square: tuple[int, int, int]) -> None:
        """A square was tapped: write or shade there, or pick it for a crossing when it holds a number."""
        if self.session is None:
            return
        state = self.state
        g, r, c = square
        cell = state["boards"][self.viewing]["grids"][g][r][c]
        if cell is not None:
            self._tap_number(square, cell)
            return
        mode = self.mode()
        who = lowdown.to_play(state)
        if mode == "shade":
            self._do({"type": "shade", "player": self.viewing, "square": list(square)})
            return
        if mode != "choose":
            if who is None:
                self.show_message(_("The game has ended: nobody writes any more"), error=True)
            elif state["phase"] == "others" and (self.viewing in state["done"] or self.viewing == state["active"]):
                me = self.name_of(self.viewing)
                self.show_message(
                    _("{name} has already written this turn; next: {next}").format(name=me, next=self.name_of(who)),
                    error=True,
                )
            elif who != self.viewing:
                self.show_message(_("It is {name}'s turn to write").format(name=self.name_of(who)), error=True)
            return
        if self.number is None:
            stuck = (
                self.viewing == state["active"]
                and not state["looked"]
                and not lowdown.legal_placements(state, self.viewing, wild=False)
            )
            self.show_message(
                _("No open die fits: tap 'Look at the secret pair' first") if stuck else _("Pick a number die first"),
                error=True,
            )
            return
        active = self.viewing == state["active"]
        if self.colour is None and not (self.wild and not active):
            text = _("Pick the colour die to take out of play") if self.wild else _("Pick a colour die first")
            self.show_message(text, error=True)
            return
        action: dict[str, Any] = {
            "type": "place",
            "player": self.viewing,
            "number": self.number,
            "square": list(square),
        }
        if self.colour is not None and (active or not self.wild):
            action["colour"] = self.colour
        if self.wild:
            action["wild"] = True
        if self._do(action):
            self._reset_choice()
            self.refresh()

    def _tap_number(self, square: tuple[int, int, int], cell: dict[str, Any]) -> None:
        """Crossing by touch. Tapping a square on exactly one highlighted line picks that whole line and a second
        tap on it crosses it out; otherwise squares are picked one by one and the third pick tries the line."""
        state = self.state
        board = state["boards"][self.viewing]
        if cell.get("shaded"):
            self.show_message(_("A shaded square holds no number and cannot be crossed out"), error=True)
            return
        if any(list(square) in line for line in board["crossed"]):
            self.show_message(_("That square is already crossed out"), error=True)
            return
        if self.line_ready:
            if square in self.picked:
                self.cross([list(s) for s in self.picked])
                return
            self.picked, self.line_ready = [], False
        lines = [ln for ln in lowdown.legal_crossings(state, self.viewing) if list(square) in ln]
        if not self.picked and len(lines) == 1:
            self.picked = [(s[0], s[1], s[2]) for s in lines[0]]
            self.line_ready = True
            values = " ".join(str(board["grids"][g][r][c]["n"]) for g, r, c in self.picked)
            self.show_message(_("Tap the line again to cross out {values}").format(values=values))
            self.refresh()
            return
        if square in self.picked:
            self.picked.remove(square)
        else:
            self.picked.append(square)
        if len(self.picked) == 3:
            if not self.cross([list(s) for s in self.picked]):
                self.refresh()
            return
        self.show_message(_("Crossing: {n} of 3 squares picked").format(n=len(self.picked)))
        self.refresh()

    def cross(self, squares: list[list[int]]) -> bool:
        """Cross out a line on the viewed board (the engine refuses an illegal one with the reason)."""
        self.picked, self.line_ready = [], False
        return self._do({"type": "cross", "player": self.viewing, "squares": squares})

    # -- choosing dice -------------------------------------------------------------------------------------

    def _options(self) -> tuple[list[int], list[str]]:
        """The numbers the viewed player can use now, and the colours that go with the picked number (from the
        legal placements, with or without a wild colour as toggled)."""
        found = lowdown.legal_placements(self.state, self.viewing, wild=self.wild)
        numbers = sorted({int(a["number"]) for a in found})
        with_number = [a for a in found if self.number is None or a["number"] == self.number]
        colours = sorted({str(a["colour"]) for a in with_number if "colour" in a})
        return numbers, colours

    def _autopick(self) -> None:
        numbers, _colours = self._options()
        if self.number not in numbers:
            self.number = numbers[0] if len(numbers) == 1 else None
        _numbers, colours = self._options()
        if self.colour not in colours:
            self.colour = colours[0] if len(colours) == 1 else None

    def pick_number(self, value: int) -> None:
        self.number = None if self.number == value else value
        self.refresh()

    def pick_colour(self, value: str) -> None:
        self.colour = None if self.colour == value else value
        self.refresh()

    def toggle_wild(self) -> None:
        self.wild = not self.wild
        if self.wild and self.viewing != self.state["active"]:
            self.colour = None
        self.refresh()

    def _tile(self, kind: str, face: Any, *, enabled: bool, picked: bool) -> DieTile:
        layout = self.state["layout"]
        tile = DieTile()
        tile.kind, tile.face = kind, face
        if kind == "colour":
            tile.background_color = get_color_from_hex(layout["colours"][face])
            tile.bind(on_release=lambda _b: self.pick_colour(face))
        else:
            tile.background_color = (0.93, 0.93, 0.9, 1)
            tile.color = tile.disabled_color = (0.1, 0.1, 0.1, 1)
            tile.text = str(face)
            tile.bind(on_release=lambda _b: self.pick_number(face))
        if not enabled:
            tile.background_color = [v * 0.35 for v in tile.background_color[:3]] + [1]
            tile.disabled = True
        tile.picked = picked
        return tile

    def _dice_rows(self, box: BoxLayout) -> None:
        state = self.state
        known = lowdown.dice(state)
        p = self.viewing
        numbers, colours = self._options()
        active = p == state["active"]
        if active:
            shown = ["c0", "c1", "n0", "n1"]
        else:
            taken = set(state["taken"] or [])
            shown = [i for i in ("c0", "c1", "sc", "n0", "n1", "sn") if i not in taken]
        row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
        looked_away = active and bool(state["looked"])  # after looking only the secret pair may be used
        for die in shown:
            kind, face = known[die]
            usable = not looked_away and face in (numbers if kind == "number" else colours)
            picked = not looked_away and face == (self.number if kind == "number" else self.colour)
            row.add_widget(self._tile(kind, face, enabled=usable, picked=picked))
        box.add_widget(row)
        if active:
            row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(4))
            if state["looked"]:
                for die in ("sc", "sn"):
                    kind, face = known[die]
                    usable = face in (numbers if kind == "number" else colours)
                    picked = face == (self.number if kind == "number" else self.colour)
                    row.add_widget(self._tile(kind, face, enabled=usable, picked=picked))
                row.add_widget(Label(text=_("secret pair\n(must use)"), font_size=dp(16), halign="center"))
            else:
                look = Factory.BigButton(text=_("Look at the secret pair"), font_size=dp(16), height=dp(52))
                look.bind(on_release=lambda _b: self.look())
                row.add_widget(look)
            box.add_widget(row)
        left = lowdown.wilds_left(state, p)
        wild = Factory.AccentButton(
            text=(
                _("Wild colour: ON ({n} left)").format(n=left)
                if self.wild
                else _("Wild colour: off ({n} left)").format(n=left)
            ),
            font_size=dp(16),
            height=dp(52),
            disabled=left <= 0,
        )
        if not self.wild:
            wild.background_color = (0.22, 0.24, 0.32, 1)
        wild.bind(on_release=lambda _b: self.toggle_wild())
        box.add_widget(wild)

    def look(self) -> None:
        """The active player looks at the secret pair (after that it must be used)."""
        if self.state["settings"]["secret_dice"] == "virtual":
            self._do({"type": "secret"})
            return
        self.looking = True
        self.entry = {"colours": [], "numbers": []}
        self.refresh()

    # -- controls per mode ---------------------------------------------------------------------------------

    def _controls_choose(self, box: BoxLayout) -> None:
        box.clear_widgets()
        state = self.state
        p = self.viewing
        me = self.name_of(p)
        if p == state["active"]:
            roller = self.name_of(lowdown.secret_roller(state))
            self.prompt = _("{name}: take a number and a colour, then tap a lit square").format(name=me)
            if state["looked"]:
                self.prompt = _("{name}: use the secret pair, then tap a lit square").format(name=me)
            self.info = _("Turn {n}. The secret pair was rolled by {name}.").format(n=state["turn"], name=roller)
        else:
            took = self._took_text()
            self.prompt = _("{name}: take a number and a colour from the dice left").format(name=me)
            self.info = took
        plain = lowdown.legal_placements(state, p, wild=False)
        more = ""
        if self.wild:
            if p == state["active"]:
                more = _("Wild colour: pick a number and the colour die to take out of play, then any free square.")
            else:
                more = _("Wild colour: pick a number, then any free square.")
        elif not plain and p == state["active"] and not state["looked"]:
            if lowdown.wilds_left(state, p) > 0:
                more = _("No open die colour fits: look at the secret pair, or use a wild colour.")
            else:
                more = _("No open die colour fits: look at the secret pair.")
        elif not plain:
            more = _("No die colour fits: use a wild colour.")
        if more and p == state["active"]:
            self.info = more  # in place of whose secret pair it is: the column has room for one of them
        elif more:
            self.info = f"{self.info}\n{more}"
        self._dice_rows(box)

    def _took_text(self) -> str:
        state = self.state
        known = lowdown.dice(state)
        taken = state["taken"] or []
        faces = [colour_name(known[i][1]) for i in taken if i in known]
        active = self.name_of(int(state["active"]))
        grids = state["boards"][int(state["active"])]["grids"]
        if any(c.get("shaded") and c.get("turn") == state["turn"] for g in grids for row in g for c in row if c):
            return _("{name} could not use the secret pair, shaded a square (+6) and keeps the pair.").format(
                name=active
            )
        if state["wild_out"]:
            return _("{name} used a wild colour and took the {colour} die out of play.").format(
                name=active, colour=colour_name(state["wild_out"])
            )
        return _("{name} took {dice}.").format(name=active, dice=" + ".join(faces)) if faces else ""

    def _controls_shade(self, box: BoxLayout) -> None:
        box.clear_widgets()
        me = self.name_of(self.viewing)
        self.prompt = _("{name}: nothing fits and no wild colour is left").format(name=me)
        self.info = f"{self._usable_dice_text()}\n" + _("Tap a free square to shade it: it counts +6.")

    def _usable_dice_text(self) -> str:
        """The colours the viewed player could use this turn (why nothing fits), e.g. 'Dice: blue, purple.'"""
        state = self.state
        if self.viewing == state["active"]:
            secret = state["secret"] or {}
            return _("The secret pair: {colour} {number}.").format(
                colour=colour_name(secret.get("colour")), number=secret.get("number")
            )
        left = lowdown.pool(state)
        return _("Dice left: {colours}, {numbers}.").format(
            colours=colour_list(left["colours"]), numbers=", ".join(map(str, left["numbers"]))
        )

    def _controls_pass(self, box: BoxLayout) -> None:
        box.clear_widgets()
        state = self.state
        who = lowdown.to_play(state)
        assert who is not None
        nxt = self.name_of(who)
        if state["phase"] == "roll":
            text = _("Next turn: {name} rolls").format(name=nxt)
            self.prompt = _("Pass the screen to {name}").format(name=nxt)
            roller = self.name_of(lowdown.secret_roller(state))
            self.info = _("{name} rolls 2 colour + 2 number dice; {roller} rolls the secret pair.").format(
                name=nxt, roller=roller
            )
        else:
            text = _("Pass to {name}").format(name=nxt)
            self.prompt = _("Pass the screen to {name}").format(name=nxt)
            self.info = " ".join(t for t in (self._took_text(), _("You may still cross out lines here first.")) if t)
        button = Factory.AccentButton(text=text, font_size=dp(20), height=dp(64))
        button.bind(on_release=lambda _b: self.view(who))
        box.add_widget(button)

    def _controls_roll(self, box: BoxLayout) -> None:
        box.clear_widgets()
        state = self.state
        me = self.name_of(self.viewing)
        roller = self.name_of(lowdown.secret_roller(state))
        self.prompt = _("Turn {n}: {name} rolls").format(n=state["turn"], name=me)
        if self._virtual():
            self.info = _(
                "Roll 2 colour + 2 number dice under the camera, or tap them on the left; the app keeps a secret "
                "pair hidden."
            )
        else:
            self.info = _(
                "Roll 2 colour + 2 number dice under the camera, or tap them on the left; {name} rolls the secret "
                "pair, hidden."
            ).format(name=roller)

    def _controls_secret(self, box: BoxLayout) -> None:
        box.clear_widgets()
        state = self.state
        roller = self.name_of(lowdown.secret_roller(state))
        if state["phase"] == "active":
            self.prompt = _("{name} looks at the secret pair").format(name=self.name_of(self.viewing))
            self.info = _("{name} shows the hidden dice: enter them. After looking they must be used.").format(
                name=roller
            )
            cancel = Factory.BigButton(text=_("Don't look"), font_size=dp(18))
            cancel.bind(on_release=lambda _b: self.cancel_look())
            box.add_widget(cancel)
        else:
            self.prompt = _("Reveal the secret pair")
            self.info = _("{name} shows the hidden dice: the others choose from the four dice left.").format(
                name=roller
            )

    def cancel_look(self) -> None:
        self.looking = False
        self.refresh()

    def _controls_final(self, box: BoxLayout) -> None:
        box.clear_widgets()
        state = self.state
        enders = and_list([self.name_of(p) for p in state["enders"]])
        count = int(state["settings"]["end_grids"])
        self.prompt = ngettext(
            "Game over: {names} filled {n} grid", "Game over: {names} filled {n} grids", count
        ).format(names=enders, n=count)
        self.info = _("Cross out any last lines (tap a name below to see each board), then count.")
        button = Factory.AccentButton(text=_("Count the scores"), font_size=dp(20), height=dp(64))
        button.bind(on_release=lambda _b: self._do({"type": "finish"}))
        box.add_widget(button)

    def _controls_over(self, box: BoxLayout) -> None:
        box.clear_widgets()
        scores = self.session.scores() if self.session else {}
        winners = scores.get("winners", [])
        best = scores[winners[0]] if winners else 0
        self.prompt = ngettext("{names} wins with {score}", "{names} win with {score}", len(winners)).format(
            names=and_list(winners), score=best
        )
        # the hint only where there is room: four names, Home and Rematch must fit under a two-line winner line
        # (Korean, Catalan) with a notice shown
        players = len([k for k in scores if k != "winners"])
        self.info = _("Lowest score wins. Tap a name below to see each board.") if players <= 3 else ""
        for name, points in sorted(((k, v) for k, v in scores.items() if k != "winners"), key=lambda kv: kv[1]):
            box.add_widget(
                Label(
                    text=f"{name}   {points}",
                    font_size=dp(24),
                    bold=name in winners,
                    size_hint_y=None,
                    height=dp(36),
                    text_size=(None, None),
                )
            )
        row = BoxLayout(size_hint_y=None, height=dp(52), spacing=dp(8))
        # Rematch: the same players in the same seats and colours, the same options
        ends = ((_("Home"), self.go_home, "BigButton"), (_("Rematch"), self.rematch, "AccentButton"))
        for text, action, kind in ends:
            button = getattr(Factory, kind)(text=text, height=dp(52))
            button.bind(on_release=lambda _b, act=action: act())
            row.add_widget(button)
        box.add_widget(row)

    # -- dice entry (open roll and physical secret pair) ---------------------------------------------------

    def _virtual(self) -> bool:
        return bool(self.state["settings"]["secret_dice"] == "virtual")

    def _need(self, mode: str) -> int:
        return 2 if mode == "roll" else 1

    def _entry_panel(self, mode: str) -> Widget:
        state = self.state
        layout = state["layout"]
        need = self._need(mode)
        panel = BoxLayout(orientation="vertical", spacing=dp(6))
        # TRANSLATORS: one line above the dice tiles, 540 px at 16 px: about 70 Latin letters or 40 Hangul at most
        roll_hint = _("Tap 2 colour + 2 number dice. Tap a chosen die to remove it.")
        # TRANSLATORS: one line above the dice tiles, 540 px at 16 px: about 70 Latin letters or 40 Hangul at most
        pair_hint = _("Tap the secret pair: 1 colour + 1 number. Tap a chosen die to remove it.")
        hint = roll_hint if mode == "roll" else pair_hint
        panel.add_widget(
            Label(
                text=hint,
                # 16 px, never smaller (#21 item 10): the translations are worded to fit its one line
                font_size=dp(16),
                size_hint_y=None,
                height=dp(26),
                text_size=(dp(540), dp(26)),
                halign="left",
                valign="middle",
            )
        )
        slots = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(6))
        for i in range(need):
            face = self.entry["colours"][i] if i < len(self.entry["colours"]) else None
            tile = DieTile(size=(dp(56), dp(56)))
            tile.background_color = get_color_from_hex(layout["colours"][face]) if face else (0.2, 0.2, 0.24, 1)
            tile.text = "" if face else "?"
            tile.bind(on_release=lambda _b, i=i: self.clear_entry("colours", i))
            slots.add_widget(tile)
        for i in range(need):
            face = self.entry["numbers"][i] if i < len(self.entry["numbers"]) else None
            tile = DieTile(size=(dp(56), dp(56)))
            tile.background_color = (0.93, 0.93, 0.9, 1) if face else (0.2, 0.2, 0.24, 1)
            tile.color = (0.1, 0.1, 0.1, 1) if face else (1, 1, 1, 1)
            tile.text = str(face) if face else "?"
            tile.bind(on_release=lambda _b, i=i: self.clear_entry("numbers", i))
            slots.add_widget(tile)
        slots.add_widget(Widget())
        ready = len(self.entry["colours"]) == need and len(self.entry["numbers"]) == need
        use = Factory.AccentButton(text=_("Use these dice"), font_size=dp(18), height=dp(56), disabled=not ready)
        use.size_hint_x = None
        use.width = dp(190)
        use.bind(on_release=lambda _b: self.use_entry())
        slots.add_widget(use)
        panel.add_widget(slots)
        # One row of colours and one of numbers: the panel fits above the player strip with the notice banner shown.
        colours = GridLayout(cols=len(layout["colours"]), spacing=dp(6), size_hint_y=None, height=dp(56))
        for name, hexa in layout["colours"].items():
            button = Factory.BigButton(text=colour_name(name), font_size=dp(18), height=dp(56))
            button.background_color = get_color_from_hex(hexa)
            button.color = readable_text(hexa)
            button.disabled = len(self.entry["colours"]) >= need
            button.bind(on_release=lambda _b, n=name: self.add_entry("colours", n))
            colours.add_widget(button)
        panel.add_widget(colours)
        numbers = GridLayout(cols=len(layout["numbers"]), spacing=dp(6), size_hint_y=None, height=dp(56))
        for value in layout["numbers"]:
            button = Factory.BigButton(text=str(value), font_size=dp(24), height=dp(56))
            button.disabled = len(self.entry["numbers"]) >= need
            button.bind(on_release=lambda _b, v=value: self.add_entry("numbers", v))
            numbers.add_widget(button)
        panel.add_widget(numbers)
        if self.app is not None and self.app.manager.has_screen("dice"):
            camera = Factory.BigButton(text=_("Read the dice with the camera"), font_size=dp(17), height=dp(52))
            camera.bind(on_release=lambda _b: self.app.open_dice(self.name))
            panel.add_widget(camera)
        panel.add_widget(Widget())
        return panel

    def add_entry(self, kind: str, face: Any) -> None:
        need = self._need(self.mode())
        if len(self.entry[kind]) < need:
            self.entry[kind].append(face)
        self.refresh()

    def clear_entry(self, kind: str, index: int) -> None:
        if index < len(self.entry[kind]):
            del self.entry[kind][index]
        self.refresh()

    def use_entry(self) -> None:
        """Record the entered dice as the open roll or the secret pair."""
        mode = self.mode()
        colours, numbers = self.entry["colours"], self.entry["numbers"]
        if mode == "roll":
            action: dict[str, Any] = {"type": "roll", "colours": list(colours), "numbers": list(numbers)}
        elif mode == "secret":
            action = {"type": "secret", "colour": colours[0], "number": numbers[0]}
        else:
            return
        if self._do(action):
            self.entry = {"colours": [], "numbers": []}
            self.looking = False
            self.refresh()

    # -- switching boards, hardware ------------------------------------------------------------------------

    def view(self, player: int) -> None:
        """Show ``player``'s board (the pass-the-screen step, or a look at someone else's board)."""
        self.viewing = player
        if self.message_is_error or self.header_text == self._board_message:  # never name another player's board
            self._board_message = _("{name}'s board").format(name=self.name_of(player))
            self.show_message(self._board_message)
        self._reset_choice()
        self.entry = {"colours": [], "numbers": []}
        self.refresh()

    def on_button(self, event: ButtonEvent) -> None:
        """A player's own button brings up their board."""
        if self.session is None or event.kind != "press":
            return
        for index, player in enumerate(self.state["players"]):
            if int(player["seat"]) == event.seat:
                self.view(index)
                return

    def tray_roll(self) -> TrayRoll | None:
        """The open roll is 2 colour + 2 number dice, the secret pair 1 + 1."""
        if self.session is None:
            return None
        mode = self.mode()
        if mode not in ("roll", "secret"):
            return None
        need = self._need(mode)
        return TrayRoll(pips=(need, need), colours=need)

    def on_roll(self, roll: Roll) -> None:
        """A camera reading: the open roll (2 + 2) or the secret pair (1 + 1). Colour dice the camera cannot read
        (no calibration profile) are asked for by touch, keeping the numbers it read."""
        if self.session is None:
            return
        mode = self.mode()
        if mode not in ("roll", "secret"):
            self.show_message(_("No dice are expected right now"), error=True)
            return
        need = self._need(mode)
        colours = [str(f) for f in roll.faces(COLOUR)]
        numbers = [int(f) for f in roll.faces(PIPS)]
        if len(numbers) != need or len(colours) not in (0, need):
            self.show_message(
                _("Expected {need} colour and {need} number dice; read {colours} colour and {numbers} number").format(
                    need=need, colours=len(colours), numbers=len(numbers)
                ),
                error=True,
            )
            return
        self.entry = {"colours": colours, "numbers": numbers}
        if colours:
            self.use_entry()
        else:
            self.show_message(
                _("Numbers read: {numbers}. Tap the colour dice.").format(numbers=and_list([str(n) for n in numbers]))
            )
            self.refresh()


load_kv("lowdown")
