"""Lowdown's panels, one per part of the turn: the board with its crossings on the left, and on the right what the
viewed player does now (choose dice, pass the screen, count the scores...) with the prompt and help above it.
Each panel draws from the state and forwards taps to the screen; layout is in ``panels.kv``."""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.utils import get_color_from_hex

from companion.games import lowdown
from companion.games.lowdown.wording import colour_list, colour_name
from companion.i18n import _, and_list, ngettext
from companion.ui.screens import load_kv
from companion.ui.screens.lowdown.board import LowdownBoard
from companion.ui.screens.lowdown.entry import NUMBER_DIE, DieTile

WILD_OFF = (0.22, 0.24, 0.32, 1)


def line_name(state: dict[str, Any], line: list[list[int]]) -> str:
    """'row 1', 'column 3' or 'diagonal' of a grid, for buttons and messages."""
    (_g1, r1, c1), (_g2, r2, c2) = line[0], line[-1]
    if r1 == r2:
        return _("row {n}").format(n=r1 + 1)
    if c1 == c2:
        return _("column {n}").format(n=c1 + 1)
    return _("diagonal")


class BoardPanel(BoxLayout):
    """The viewed player's board, their wild colours and crossed lines, and a button per line they may cross."""

    screen = ObjectProperty(None)
    crossed_text = StringProperty("")

    def show(self, board: LowdownBoard, lines: list[list[list[int]]]) -> None:
        screen = self.screen
        state, viewing = screen.state, screen.viewing
        if board.parent is not None:
            board.parent.remove_widget(board)
        self.add_widget(board, index=len(self.children))
        wilds = self.ids.wilds
        used = int(state["boards"][viewing]["wilds"])
        for k in range(int(state["layout"]["wilds"])):
            wilds.add_widget(Factory.WildBox(text="X" if k < used else ""), index=1)
        self.crossed_text = _("Crossed lines: {n}").format(n=len(state["boards"][viewing]["crossed"]))
        row = self.ids.crossings
        if not lines:
            self.remove_widget(row)
            return
        for line in lines[:3]:
            values = [state["boards"][viewing]["grids"][g][r][c]["n"] for g, r, c in line]
            grid_name = colour_name(state["layout"]["grids"][line[0][0]]["name"])
            button = Factory.CrossButton(
                text=_("Cross {grid} {line}: {values}").format(
                    grid=grid_name, line=line_name(state, line), values=" ".join(map(str, values))
                )
            )
            button.bind(on_release=lambda _b, ln=line: screen.cross(ln))
            row.add_widget(button)


class Controls(BoxLayout):
    """The right column's panel for one part of the turn: ``show()`` fills it and words ``prompt`` and ``info``."""

    screen = ObjectProperty(None)
    prompt = StringProperty("")
    info = StringProperty("")

    def show(self) -> None:
        """Override: fill the panel from the screen's state."""

    def name_of(self, player: int) -> str:
        return str(self.screen.name_of(player))


class ChooseControls(Controls):
    """Choosing dice: the open dice (or those left), the secret pair or the button to look at it, the wild colour."""

    def show(self) -> None:
        screen = self.screen
        state = screen.state
        p = screen.viewing
        me = self.name_of(p)
        active = p == state["active"]
        if active:
            roller = self.name_of(lowdown.secret_roller(state))
            self.prompt = _("{name}: take a number and a colour, then tap a lit square").format(name=me)
            if state["looked"]:
                self.prompt = _("{name}: use the secret pair, then tap a lit square").format(name=me)
            self.info = _("Turn {n}. The secret pair was rolled by {name}.").format(n=state["turn"], name=roller)
        else:
            took = lowdown.taken_text(state)
            self.prompt = _("{name}: take a number and a colour from the dice left").format(name=me)
            self.info = took
        plain = lowdown.legal_placements(state, p, wild=False)
        more = ""
        if screen.wild:
            if active:
                more = _("Wild colour: pick a number and the colour die to take out of play, then any free square.")
            else:
                more = _("Wild colour: pick a number, then any free square.")
        elif lowdown.stuck(state, p):
            if lowdown.wilds_left(state, p) > 0:
                more = _("No open die colour fits: look at the secret pair, or use a wild colour.")
            else:
                more = _("No open die colour fits: look at the secret pair.")
        elif not plain:
            more = _("No die colour fits: use a wild colour.")
        if more and active:
            self.info = more  # in place of whose secret pair it is: the column has room for one of them
        elif more:
            self.info = f"{self.info}\n{more}"
        self._dice_rows()

    def _tile(self, kind: str, face: Any, *, enabled: bool, picked: bool) -> DieTile:
        screen = self.screen
        layout = screen.state["layout"]
        tile = DieTile()
        tile.kind, tile.face = kind, face
        if kind == "colour":
            tile.background_color = get_color_from_hex(layout["colours"][face])
            tile.bind(on_release=lambda _b: screen.pick_colour(face))
        else:
            tile.background_color = NUMBER_DIE
            tile.color = tile.disabled_color = (0.1, 0.1, 0.1, 1)
            tile.text = str(face)
            tile.bind(on_release=lambda _b: screen.pick_number(face))
        if not enabled:
            tile.background_color = [v * 0.35 for v in tile.background_color[:3]] + [1]
            tile.disabled = True
        tile.picked = picked
        return tile

    def _dice_rows(self) -> None:
        screen = self.screen
        state = screen.state
        known = lowdown.dice(state)
        p = screen.viewing
        numbers, colours = screen.options()
        active = p == state["active"]
        if active:
            shown = ["c0", "c1", "n0", "n1"]
        else:
            taken = set(state["taken"] or [])
            shown = [i for i in ("c0", "c1", "sc", "n0", "n1", "sn") if i not in taken]
        looked_away = active and bool(state["looked"])  # after looking only the secret pair may be used
        for die in shown:
            kind, face = known[die]
            usable = not looked_away and face in (numbers if kind == "number" else colours)
            picked = not looked_away and face == (screen.number if kind == "number" else screen.colour)
            self.ids.open_dice.add_widget(self._tile(kind, face, enabled=usable, picked=picked))
        row = self.ids.secret
        if not active:
            self.remove_widget(row)
        elif state["looked"]:
            for die in ("sc", "sn"):
                kind, face = known[die]
                usable = face in (numbers if kind == "number" else colours)
                picked = face == (screen.number if kind == "number" else screen.colour)
                row.add_widget(self._tile(kind, face, enabled=usable, picked=picked))
            row.add_widget(Factory.SecretNote())
        else:
            look = Factory.LookButton()
            look.bind(on_release=lambda _b: screen.look())
            row.add_widget(look)
        left = lowdown.wilds_left(state, p)
        wild = self.ids.wild
        wild.text = (
            _("Wild colour: ON ({n} left)").format(n=left)
            if screen.wild
            else _("Wild colour: off ({n} left)").format(n=left)
        )
        wild.disabled = left <= 0
        if not screen.wild:
            wild.background_color = WILD_OFF


class ShadeControls(Controls):
    """Nothing fits and no wild colour is left: a free square on the board is tapped to shade it."""

    def show(self) -> None:
        screen = self.screen
        self.prompt = _("{name}: nothing fits and no wild colour is left").format(name=self.name_of(screen.viewing))
        self.info = f"{self._usable_dice_text()}\n" + _("Tap a free square to shade it: it counts +6.")

    def _usable_dice_text(self) -> str:
        """The colours the viewed player could use this turn (why nothing fits), e.g. 'Dice: blue, purple.'"""
        state = self.screen.state
        if self.screen.viewing == state["active"]:
            secret = state["secret"] or {}
            return _("The secret pair: {colour} {number}.").format(
                colour=colour_name(secret.get("colour")), number=secret.get("number")
            )
        left = lowdown.pool(state)
        return _("Dice left: {colours}, {numbers}.").format(
            colours=colour_list(left["colours"]), numbers=", ".join(map(str, left["numbers"]))
        )


class PassControls(Controls):
    """Pass the screen to the player who writes next (or rolls the next turn)."""

    button_text = StringProperty("")
    next_player = NumericProperty(0)

    def show(self) -> None:
        state = self.screen.state
        who = lowdown.to_play(state)
        assert who is not None
        self.next_player = who
        nxt = self.name_of(who)
        if state["phase"] == "roll":
            self.button_text = _("Next turn: {name} rolls").format(name=nxt)
            self.prompt = _("Pass the screen to {name}").format(name=nxt)
            roller = self.name_of(lowdown.secret_roller(state))
            self.info = _("{name} rolls 2 colour + 2 number dice; {roller} rolls the secret pair.").format(
                name=nxt, roller=roller
            )
        else:
            self.button_text = _("Pass to {name}").format(name=nxt)
            self.prompt = _("Pass the screen to {name}").format(name=nxt)
            self.info = " ".join(
                t for t in (lowdown.taken_text(state), _("You may still cross out lines here first.")) if t
            )


class RollControls(Controls):
    """The open roll is entered on the left (or read by the camera)."""

    def show(self) -> None:
        state = self.screen.state
        me = self.name_of(self.screen.viewing)
        self.prompt = _("Turn {n}: {name} rolls").format(n=state["turn"], name=me)
        if self.screen.virtual():
            self.info = _(
                "Roll 2 colour + 2 number dice under the camera, or tap them on the left; the app keeps a secret "
                "pair hidden."
            )
        else:
            self.info = _(
                "Roll 2 colour + 2 number dice under the camera, or tap them on the left; {name} rolls the secret "
                "pair, hidden."
            ).format(name=self.name_of(lowdown.secret_roller(state)))


class SecretControls(Controls):
    """A physical secret pair is entered on the left: the active player looking at it, or its reveal."""

    def show(self) -> None:
        state = self.screen.state
        roller = self.name_of(lowdown.secret_roller(state))
        if state["phase"] == "active":
            self.prompt = _("{name} looks at the secret pair").format(name=self.name_of(self.screen.viewing))
            self.info = _("{name} shows the hidden dice: enter them. After looking they must be used.").format(
                name=roller
            )
        else:
            self.remove_widget(self.ids.cancel)
            self.prompt = _("Reveal the secret pair")
            self.info = _("{name} shows the hidden dice: the others choose from the four dice left.").format(
                name=roller
            )


class FinalControls(Controls):
    """The game has ended: last crossings, then the count."""

    def show(self) -> None:
        state = self.screen.state
        enders = and_list([self.name_of(p) for p in state["enders"]])
        count = int(state["settings"]["end_grids"])
        self.prompt = ngettext(
            "Game over: {names} filled {n} grid", "Game over: {names} filled {n} grids", count
        ).format(names=enders, n=count)
        self.info = _("Cross out any last lines (tap a name below to see each board), then count.")


class OverControls(Controls):
    """The scores, lowest first, with Home and Rematch."""

    def show(self) -> None:
        session = self.screen.session
        scores = session.scores() if session else {}
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
            self.add_widget(Factory.ScoreLine(text=f"{name}   {points}", bold=name in winners), index=1)


CONTROLS: dict[str, type[Controls]] = {
    "choose": ChooseControls,
    "shade": ShadeControls,
    "pass": PassControls,
    "roll": RollControls,
    "secret": SecretControls,
    "final": FinalControls,
    "over": OverControls,
}


load_kv("lowdown/panels")
