"""Lowdown at the table: each player's board to tap, the open roll and the secret pair entered by camera or
touch, legal squares lit, lines that can be crossed highlighted, and the pass-the-screen round of choices.

The screen keeps what the viewed player has picked so far and forwards taps to the engine through the journal;
the panels draw (``board`` the board, ``entry`` the dice entry, ``panels`` one panel per part of the turn)."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.utils import escape_markup, get_color_from_hex

from companion.games import lowdown
from companion.i18n import _, and_list
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.screens.lowdown.board import LowdownBoard
from companion.ui.screens.lowdown.entry import EntryPanel
from companion.ui.screens.lowdown.panels import CONTROLS, BoardPanel
from companion.ui.widgets import readable_text
from companion.vision.roll import COLOUR, PIPS, Roll
from hardware.buttons import ButtonEvent
from hardware.simtray import TrayRoll


def _short(name: str, most: int) -> str:
    """``name`` cut to ``most`` characters with an ellipsis, so a long name cannot push text out of its box."""
    return name if len(name) <= most else name[: most - 1] + "…"


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
        panel: EntryPanel | BoardPanel
        if mode in ("roll", "secret"):
            panel = EntryPanel(screen=self)
            camera = self.app is not None and self.app.manager.has_screen("dice")
            panel.show(mode, self.entry, state["layout"], camera=camera)
        else:
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
            panel = BoardPanel(screen=self)
            panel.show(self.board, lines)
        content.add_widget(panel)
        controls = self.ids.controls
        controls.clear_widgets()
        part = CONTROLS[mode](screen=self)
        part.show()
        controls.add_widget(part)
        self.prompt, self.info = part.prompt, part.info

    def _refresh_strip(self) -> None:
        state = self.state
        marked = lowdown.still_to_play(state)
        for index, button in enumerate(reversed(self.ids.players.children)):
            player = state["players"][index]
            colour = get_color_from_hex(player["colour"])
            mark = "  [b]>[/b]" if index in marked else ""
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
        why = lowdown.write_refusal(
            state, self.viewing, number=self.number, colour=self.colour, wild=self.wild, looking=self.looking
        )
        if why is not None:
            self.show_message(why, error=True)
            return
        if self.mode() == "shade":
            self._do({"type": "shade", "player": self.viewing, "square": list(square)})
            return
        active = self.viewing == state["active"]
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
        why = lowdown.cross_refusal(state, self.viewing, square)
        if why is not None:
            self.show_message(why, error=True)
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

    def options(self) -> tuple[list[int], list[str]]:
        """The numbers the viewed player can use now, and the colours that go with the picked number (from the
        legal placements, with or without a wild colour as toggled)."""
        found = lowdown.legal_placements(self.state, self.viewing, wild=self.wild)
        numbers = sorted({int(a["number"]) for a in found})
        with_number = [a for a in found if self.number is None or a["number"] == self.number]
        colours = sorted({str(a["colour"]) for a in with_number if "colour" in a})
        return numbers, colours

    def _autopick(self) -> None:
        numbers, _colours = self.options()
        if self.number not in numbers:
            self.number = numbers[0] if len(numbers) == 1 else None
        _numbers, colours = self.options()
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

    def look(self) -> None:
        """The active player looks at the secret pair (after that it must be used)."""
        if self.state["settings"]["secret_dice"] == "virtual":
            self._do({"type": "secret"})
            return
        self.looking = True
        self.entry = {"colours": [], "numbers": []}
        self.refresh()

    def cancel_look(self) -> None:
        """The active player does not look at the secret pair after all."""
        self.looking = False
        self.refresh()

    def finish(self) -> None:
        """Count the scores (after the last crossings)."""
        self._do({"type": "finish"})

    def open_camera(self) -> None:
        """Read the dice being entered with the camera (the dice screen comes back here)."""
        self.app.open_dice(self.name)

    # -- dice entry (open roll and physical secret pair) ---------------------------------------------------

    def virtual(self) -> bool:
        return bool(self.state["settings"]["secret_dice"] == "virtual")

    def _need(self, mode: str) -> int:
        return 2 if mode == "roll" else 1

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


load_kv("lowdown/screen")
