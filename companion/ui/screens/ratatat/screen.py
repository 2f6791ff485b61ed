"""Rat-a-Tat Roll at the table: the ring with the statue, the player strip (board.py), and the phase's panel of
big buttons (panels.py, turn.py, picture.py, end.py). The screen keeps the choice half made by touch (dice
counted, faces tapped, dice picked for a re-roll, a swap's first card) and forwards every finished one to the
engine through the journal; the rules answer what is legal and what happened."""

from __future__ import annotations

from typing import Any

from kivy.properties import BooleanProperty, StringProperty

from companion.formatting import percent
from companion.games import ratatat
from companion.games.base import Action, IllegalAction
from companion.games.ratatat import wording
from companion.i18n import _, ngettext
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.screens.ratatat.board import PlayerTile
from companion.ui.screens.ratatat.end import FinalRevealPanel, OverPanel
from companion.ui.screens.ratatat.panels import RatatatPanel
from companion.ui.screens.ratatat.picture import (
    EndgamePanel,
    GiveBackPanel,
    LookCardPanel,
    LookPanel,
    PicturePanel,
    PictureRerollPanel,
    PictureRolledPanel,
    SwapPanel,
)
from companion.ui.screens.ratatat.turn import DealPanel, RerollPanel, RevealPanel, RolledPanel, RollPanel, SpacePanel
from companion.vision.roll import PICTURE, PIPS, Roll
from hardware.buttons import ButtonEvent
from hardware.simtray import TrayRoll

# The panel of each phase (a phase with steps picks among several: see panel_for).
PANELS: dict[str, type[RatatatPanel]] = {
    ratatat.DEAL: DealPanel,
    ratatat.REVEAL: RevealPanel,
    ratatat.ROLL: RollPanel,
    ratatat.ROLLED: RolledPanel,
    ratatat.SPACE: SpacePanel,
    ratatat.PICTURE: PicturePanel,
    ratatat.ENDGAME: EndgamePanel,
    ratatat.PICTURE_ROLLED: PictureRolledPanel,
    ratatat.GIVE_BACK: GiveBackPanel,
    ratatat.LOOK: LookPanel,
    ratatat.FINAL_REVEAL: FinalRevealPanel,
    ratatat.OVER: OverPanel,
}


def panel_for(screen: RatatatScreen) -> type[RatatatPanel]:
    """The panel for the state on show and the choice half made on ``screen`` (dice picked, a token armed...)."""
    state = screen.state
    phase = state["phase"]
    if phase == ratatat.ROLLED and screen.reroll_pick:
        return RerollPanel
    if phase == ratatat.PICTURE_ROLLED and screen.reroll_armed:
        return PictureRerollPanel
    if phase == ratatat.PICTURE_ROLLED and state["picture"] == "swap":
        return SwapPanel
    if phase == ratatat.LOOK and screen.look_other is not None:
        return LookCardPanel
    return PANELS[phase]


class RatatatScreen(GameScreen):
    """Plays Rat-a-Tat Roll: every choice is a big button; dice come from the camera or the 1-6 buttons."""

    prompt = StringProperty("")
    info = StringProperty("")
    info_room = BooleanProperty(True)  # the info line's two lines are kept (all but the end table)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.engine = ratatat.ENGINE
        self.tiles: list[PlayerTile] = []
        self._reset_entry()
        self._animated_for = -1
        self._entry_for = -1  # the number of recorded actions the half-made choices below were made at

    def _reset_entry(self) -> None:
        """Touch-entry scratch (not game state): chosen dice count, faces, dice picked for a re-roll, etc."""
        self.dice_count = 0
        self.faces: list[int | None] = []
        self.reroll_pick: list[int] = []
        self.reroll_armed = False
        self.balloon = False
        self.swap_mine: int | None = None
        self.swap_other: str | None = None
        self.look_other: str | None = None
        self.hand_values: list[int] = []

    @property
    def state(self) -> dict[str, Any]:
        assert self.session is not None
        return self.session.state

    # -- life cycle --------------------------------------------------------------------------------------
    def on_session(self) -> None:
        self.tiles = []
        strip = self.ids.players
        strip.clear_widgets()
        for player in self.players:
            tile = PlayerTile(player.name, player.colour)
            self.tiles.append(tile)
            strip.add_widget(tile)
        self._reset_entry()
        self._animated_for = len(self.session.actions) if self.session else -1
        self._entry_for = len(self.session.actions) if self.session else -1

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.state
        playing = state["phase"] not in (ratatat.FINAL_REVEAL, ratatat.OVER)
        for i, tile in enumerate(self.tiles):
            active = playing and i == state["current"]
            tile.update(len(state["rows"][i]), state["tokens"][i], state["fresh"][i], active)
        actions = self.session.actions
        steps = 0
        if actions and actions[-1]["type"] == "move" and self._animated_for != len(actions):
            steps = sum(state["dice"])
            self._animated_for = len(actions)
        if self.reroll_pick and state["phase"] != ratatat.ROLLED:
            self.reroll_pick = []
        if self._entry_for != len(actions):  # an action, Undo or Redo: choices half made before it are void
            self._entry_for = len(actions)
            self.balloon = False
            self.swap_mine, self.swap_other, self.look_other = None, None, None
            self.hand_values = []
        odds = self._odds()
        self.ids.board.show(state, odds, steps=steps)
        self.build_panel()

    def undo(self) -> None:
        """As :meth:`GameScreen.undo`; undoing a revealed hand puts its values back to correct them."""
        actions = self.session.actions if self.session is not None else []
        last = dict(actions[-1]) if actions else None
        super().undo()
        if last is not None and last.get("type") == "hand" and self.state["phase"] == ratatat.FINAL_REVEAL:
            waiting = next((p for p in self.state["players"] if p not in self.state["hands"]), None)
            if waiting == last.get("player") and isinstance(last.get("values"), list):
                self.hand_values = [int(v) for v in last["values"]]
                self.build_panel()

    def act(self, action: dict[str, Any], *, quiet: bool = False) -> bool:
        """As :meth:`GameScreen.act`, and the rules' side effects (tokens earned, an empty bank, a reshuffle)
        are added to the message line."""
        done = super().act(action, quiet=quiet)
        if done and not quiet and self.session is not None and self.state["events"]:
            self.show_message(wording.outcome(action, self.state, named=True))
        return done

    def describe(self, action: Action) -> str:
        """As the log says it, with regions said as on the board ("the Blue region", not "region 4")."""
        if self.session is None or str(action.get("type", "")).startswith("note."):
            return super().describe(action)
        return wording.describe(action, self.state, named=True)

    # -- what is drawn ---------------------------------------------------------------------------------------
    def _odds(self) -> dict[int, float]:
        """The board's rings: before a roll, where the dice would land (and the assistant's line); after it,
        the space the statue would land on."""
        state = self.state
        if state["phase"] == ratatat.ROLLED:
            return {(state["statue"] + sum(state["dice"])) % len(state["board"]["spaces"]): 1.0}
        if state["phase"] != ratatat.ROLL:
            return {}
        help_ = ratatat.assistant(state)
        count = self.dice_count or help_["best"]
        option = help_["options"][count]
        lowest = help_["lowest"]
        best = help_["best"]
        best_text = ngettext(
            "Lowest card {value}: best chance with {n} die ({chance}).",
            "Lowest card {value}: best chance with {n} dice ({chance}).",
            best,
        ).format(value=lowest, n=best, chance=percent(help_["options"][best]["lowest"]))
        rings = ngettext("Rings: where {n} die lands.", "Rings: where {n} dice land.", count).format(n=count)
        self.info = _("{best} {rings}").format(best=best_text, rings=rings)
        return {int(k): v for k, v in option["spaces"].items()}

    def build_panel(self) -> None:
        """Put up the panel of the phase on show (it sets the prompt and the info line)."""
        box = self.ids.controls
        box.clear_widgets()
        state = self.state
        phase = state["phase"]
        self.info_room = phase != ratatat.OVER
        if phase != ratatat.ROLL:
            self.info = ""
        panel = panel_for(self)(screen=self)
        panel.fill(state["players"][state["current"]])
        box.add_widget(panel)

    def region_name(self, region: int) -> str:
        return wording.region_name(self.state, region)

    def space_text(self, space: dict[str, Any]) -> str:
        """The space the statue lands on, by its icon as the Korean rulebook names it, and its region."""
        kind = space["kind"]
        if kind == "picture":
            return _("a picture-die space")
        region = self.region_name(space["region"])
        if kind == "balloon":
            return _("a balloon space ({region})").format(region=region)
        if kind == "leopard":
            return _("a leopard space ({region})").format(region=region)
        return _("a card space ({region})").format(region=region)

    def entered(self) -> str:
        """The faces entered so far, a ? for each die still to tap ("3 + 5 + ?")."""
        return " + ".join(str(f) if f is not None else "?" for f in self.faces)

    def revealing(self) -> str:
        """The player whose hand the final reveal waits for."""
        state = self.state
        return str(next(p for p in state["players"] if p not in state["hands"]))

    # -- forwarded from the panels: a choice half made, or an action for the engine ------------------------------
    def toggle_balloon(self) -> None:
        self.balloon = not self.balloon
        self.build_panel()

    def reveal(self, region: int, value: int) -> None:
        balloon, self.balloon = self.balloon, False
        if not self.act({"type": "reveal", "region": region, "value": value, "balloon": balloon}):
            self.balloon = balloon

    def choose_count(self, n: int) -> None:
        """Enter ``n`` dice by touch (0: back to the assistant's table)."""
        self.dice_count = n
        self.faces = [None] * n
        self.refresh()

    def add_face(self, face: int) -> None:
        if None in self.faces:
            self.faces[self.faces.index(None)] = face
        self.build_panel()

    def delete_face(self) -> None:
        entered = [i for i, f in enumerate(self.faces) if f is not None]
        if entered:
            self.faces[entered[-1]] = None
        self.build_panel()

    def submit_roll(self) -> None:
        faces = [int(f) for f in self.faces if f is not None]
        if self.state["phase"] == ratatat.ROLL:
            if self.act({"type": "roll", "dice": faces}):
                self.dice_count, self.faces = 0, []
        else:
            self.do_reroll(faces)

    def pick_die(self, index: int) -> None:
        if index in self.reroll_pick:
            self.reroll_pick.remove(index)
        else:
            if not self.reroll_pick and self.engine.usable_tokens(self.state) <= 0:
                self.show_message(self.engine.why_not(self.state, "reroll"), error=True)
                return
            self.reroll_pick.append(index)
        self.reroll_pick.sort()
        self.faces = [None] * len(self.reroll_pick)
        self.build_panel()

    def cancel_reroll(self) -> None:
        self.reroll_pick, self.faces = [], []
        self.build_panel()

    def do_reroll(self, values: list[int]) -> None:
        if self.act({"type": "reroll", "indices": list(self.reroll_pick), "values": values}):
            self.reroll_pick, self.faces = [], []
            self.refresh()

    def move(self) -> None:
        self.act({"type": "move"})

    def picture(self, face: str, kind: str) -> None:
        action = {"type": "picture", "face": face} if kind == "picture" else {"type": "reroll", "picture": face}
        if self.act(action):
            self.reroll_armed = False
            self.refresh()

    def arm(self) -> None:
        """Spend a token on the picture die: its new face is asked for next."""
        self.reroll_armed = True
        self.build_panel()

    def disarm(self) -> None:
        self.reroll_armed = False
        self.build_panel()

    def swap_pick(self, index: int) -> None:
        self.swap_mine = index
        self.build_panel()

    def swap_with(self, other: str) -> None:
        self.swap_other = other
        self.build_panel()

    def swap_back(self) -> None:
        """One step back in the swap choice (their player, then my card)."""
        if self.swap_other is not None:
            self.swap_other = None
        else:
            self.swap_mine = None
        self.build_panel()

    def swap_do(self, theirs: int) -> None:
        action = {"type": "swap", "mine": self.swap_mine, "other": self.swap_other, "theirs": theirs}
        self.swap_mine, self.swap_other = None, None
        self.act(action)

    def no_swap(self) -> None:
        self.swap_mine, self.swap_other = None, None
        self.act({"type": "no_swap"})

    def look_at(self, other: str | None) -> None:
        self.look_other = other
        self.build_panel()

    def look(self, action: dict[str, Any]) -> None:
        self.look_other = None
        self.act(action)

    def hand_value(self, value: int) -> None:
        state = self.state
        if len(self.hand_values) < len(state["rows"][state["players"].index(self.revealing())]):
            self.hand_values.append(value)
        self.build_panel()

    def hand_delete(self) -> None:
        """Take back the last value entered (a mistyped card)."""
        self.hand_values = self.hand_values[:-1]
        self.build_panel()

    def hand_clear(self) -> None:
        self.hand_values = []
        self.build_panel()

    def hand_done(self, name: str) -> None:
        if self.act({"type": "hand", "player": name, "values": list(self.hand_values)}):
            self.hand_values = []

    # -- hardware ----------------------------------------------------------------------------------------
    def tray_roll(self) -> TrayRoll | None:
        """1-3 number dice to move (as many as chosen), the picked dice of a re-roll, or the picture die."""
        if self.session is None:
            return None
        phase = self.state["phase"]
        if phase == ratatat.ROLL:
            return TrayRoll(pips=(self.dice_count, self.dice_count) if self.dice_count else (1, 3))
        if phase == ratatat.ROLLED and self.reroll_pick:
            return TrayRoll(pips=(len(self.reroll_pick), len(self.reroll_pick)))
        if phase in (ratatat.PICTURE, ratatat.ENDGAME, ratatat.PICTURE_ROLLED):
            return TrayRoll(pictures=1)
        return None

    def on_roll(self, roll: Roll) -> None:
        """A dice reading: number dice roll or re-roll, or the picture die, whichever the table is waiting for."""
        if self.session is None:
            return
        state = self.state
        phase = state["phase"]
        pips = [int(f) for f in roll.faces(PIPS)]
        picture = [str(f) for f in roll.faces(PICTURE)]
        if phase == ratatat.ROLL:
            if self.act({"type": "roll", "dice": pips}):
                self.dice_count, self.faces = 0, []
        elif phase == ratatat.ROLLED:
            # The picked dice alone, or every die with the kept ones unchanged: the engine says which faces
            # are new, or why the reading does not fit the pick.
            try:
                values = ratatat.reroll_values(state, list(self.reroll_pick), pips)
            except IllegalAction as err:
                self.show_message(str(err), error=True)
            else:
                self.do_reroll(values)
        elif phase in (ratatat.PICTURE, ratatat.ENDGAME, ratatat.PICTURE_ROLLED):
            if phase == ratatat.ENDGAME and pips and not picture:
                self.show_message(self.engine.why_not(state, "roll"), error=True)
            elif len(picture) != 1:
                self.show_message(_("Roll the picture die alone (one picture face)"), error=True)
            elif phase == ratatat.PICTURE_ROLLED:
                if not self.reroll_armed:
                    self.show_message(_("Tap 'Re-roll the picture die' first: it costs a token"), error=True)
                else:
                    self.picture(picture[0].lower(), "reroll")
            else:
                self.picture(picture[0].lower(), "picture")
        else:
            self.show_message(_("No dice needed now"), error=True)

    def on_button(self, event: ButtonEvent) -> None:
        """The current player's button moves the statue once the dice are accepted."""
        if self.session is None or event.kind != "press":
            return
        state = self.state
        seat = self.players[state["current"]].seat
        if event.seat == seat and state["phase"] == ratatat.ROLLED and not self.reroll_pick:
            self.move()


load_kv("ratatat/screen")
