"""Rat-a-Tat Roll at the table: the ring with the statue, the landing space's choices as big buttons, tokens,
the five face-up cards, card-back rows, touch entry of dice and cards, re-rolls, and the dice assistant."""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import BooleanProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_color_from_hex

from companion.formatting import percent
from companion.games import ratatat
from companion.games.base import Action, IllegalAction
from companion.games.ratatat import wording
from companion.i18n import _, and_list, ngettext
from companion.ui.contrast import legible_rgba
from companion.ui.fit import shorten, text_width
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.widgets import readable_text
from companion.vision.roll import PICTURE, PIPS, Roll
from hardware.buttons import ButtonEvent
from hardware.simtray import TrayRoll

STEP_S = 0.12  # statue animation: seconds per space
# The picture die's faces on their buttons, as the Korean rulebook names them (고양이, 쥐, 교환).
FACE_NAMES = {"cat": lambda: _("Cat (lowest)"), "rat": lambda: _("Rat (highest)"), "swap": lambda: _("Swap")}


class RingBoard(Widget):
    """The board ring drawn on the canvas: region colours, an icon per space, the statue (animated space by
    space), the five face-up cards inside the ring and, before a roll, the assistant's landing chances."""

    shown = NumericProperty(0)  # the space the statue is drawn on (runs behind the state while animating)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.state: dict[str, Any] | None = None
        self.odds: dict[int, float] = {}
        self.target = 0
        self._anim: Any = None
        self.labels: list[Label] = []
        self._redraw_soon = Clock.create_trigger(self.redraw)
        self.bind(pos=self._redraw_soon, size=self._redraw_soon, shown=self.redraw)

    # -- state -------------------------------------------------------------------------------------------
    def show(self, state: dict[str, Any], odds: dict[int, float], *, steps: int = 0) -> None:
        """Draw ``state``; ``steps`` > 0 walks the statue forward that many spaces to its new position."""
        self.state = state
        self.odds = odds
        ring = len(state["spaces"]) if "spaces" in state else len(state["board"]["spaces"])
        self.target = state["statue"]
        if self._anim is not None:
            self._anim.cancel()
            self._anim = None
        if steps > 0:
            self.shown = (self.target - steps) % ring
            self._anim = Clock.schedule_interval(self._step, STEP_S)
        else:
            self.shown = self.target
        self.redraw()

    @property
    def animating(self) -> bool:
        return self._anim is not None

    def _step(self, _dt: float) -> bool:
        assert self.state is not None
        ring = len(self.state["board"]["spaces"])
        self.shown = (int(self.shown) + 1) % ring
        if self.shown == self.target:
            self._anim = None
            return False
        return True

    # -- geometry ----------------------------------------------------------------------------------------
    def geometry(self) -> tuple[float, float, float, float]:
        """Centre x, centre y, ring radius, space size."""
        ring = len(self.state["board"]["spaces"]) if self.state else 35
        cx, cy = self.x + self.width / 2, self.y + self.height / 2  # not self.center: it can lag a size change
        outer = min(self.width, self.height) / 2 - dp(4)
        size = min(dp(34), 2 * math.pi * outer / ring * 0.86, outer / 4)
        return cx, cy, outer - size / 2, size

    def space_centre(self, index: int) -> tuple[float, float]:
        """Where space ``index`` is drawn: clockwise from the top."""
        assert self.state is not None
        ring = len(self.state["board"]["spaces"])
        cx, cy, radius, _size = self.geometry()
        angle = math.pi / 2 - 2 * math.pi * index / ring
        return cx + radius * math.cos(angle), cy + radius * math.sin(angle)

    def region_anchor(self, region: int, inset: float) -> tuple[float, float]:
        """A point inside the ring opposite the middle of ``region``."""
        assert self.state is not None
        spaces = self.state["board"]["spaces"]
        ids = [i for i, s in enumerate(spaces) if s.get("region") == region]
        ring = len(spaces)
        mid = ids[len(ids) // 2] if ids else 0
        cx, cy, radius, _size = self.geometry()
        angle = math.pi / 2 - 2 * math.pi * mid / ring
        return cx + (radius - inset) * math.cos(angle), cy + (radius - inset) * math.sin(angle)

    # -- drawing -----------------------------------------------------------------------------------------
    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        for label in self.labels:
            self.remove_widget(label)
        self.labels = []
        if self.state is None:
            return
        state = self.state
        board = state["board"]
        *_centre, size = self.geometry()
        with self.canvas:
            for index, space in enumerate(board["spaces"]):
                x, y = self.space_centre(index)
                if space["kind"] == "picture":
                    Color(0.05, 0.05, 0.06, 1)
                    RoundedRectangle(pos=(x - size / 2, y - size / 2), size=(size, size), radius=[dp(4)])
                    Color(1, 1, 1, 1)
                    Line(rounded_rectangle=(x - size / 2, y - size / 2, size, size, dp(4)), width=1.2)
                    self._picture_icon(x, y, size)
                else:
                    Color(*get_color_from_hex(board["regions"][space["region"]]["colour"]))
                    RoundedRectangle(pos=(x - size / 2, y - size / 2), size=(size, size), radius=[dp(4)])
                    self._icon(space["kind"], x, y, size)
                chance = self.odds.get(index, 0.0)
                if chance > 0:
                    Color(1, 1, 1, 0.25 + 0.75 * min(1.0, chance / 0.2))
                    Line(circle=(x, y, size * 0.62), width=dp(1.5) + dp(3) * min(1.0, chance / 0.2))
            # statue: a gold disc with a dark rim on the shown space
            x, y = self.space_centre(int(self.shown))
            Color(0, 0, 0, 0.6)
            Ellipse(pos=(x - size * 0.42, y - size * 0.46), size=(size * 0.84, size * 0.84))
            Color(1.0, 0.82, 0.2, 1)
            Ellipse(pos=(x - size * 0.36, y - size * 0.36), size=(size * 0.72, size * 0.72))
            Color(0.35, 0.25, 0.0, 1)
            Line(circle=(x, y, size * 0.36), width=1.5)
            # face-up cards inside the ring
            card_w, card_h = dp(44), dp(58)
            for region, card in enumerate(state["face_up"]):
                ax, ay = self.region_anchor(region, size / 2 + card_h * 0.72)
                Color(*get_color_from_hex(board["regions"][region]["colour"]))
                RoundedRectangle(
                    pos=(ax - card_w / 2 - dp(3), ay - card_h / 2 - dp(3)),
                    size=(card_w + dp(6), card_h + dp(6)),
                    radius=[dp(6)],
                )
                Color(*((0.97, 0.96, 0.92, 1) if card is not None else (0.25, 0.25, 0.3, 1)))
                RoundedRectangle(pos=(ax - card_w / 2, ay - card_h / 2), size=(card_w, card_h), radius=[dp(5)])
                if card is not None and card["balloon"]:
                    self._balloon(ax + card_w / 2 - dp(9), ay + card_h / 2 - dp(12), dp(14))
        for region, card in enumerate(state["face_up"]):
            ax, ay = self.region_anchor(region, size / 2 + dp(58) * 0.72)
            text = "?" if card is None else str(card["value"])
            self._label(text, ax, ay - dp(3), dp(28), (0.1, 0.1, 0.12, 1) if card else (0.8, 0.8, 0.85, 1), True)
        cx, cy = self.x + self.width / 2, self.y + self.height / 2
        # TRANSLATORS: the re-roll tokens left in the middle of the board (the bank)
        self._label(_("bank {n}").format(n=state["bank"]), cx, cy + dp(10), dp(17), (1, 1, 1, 1), True)
        # TRANSLATORS: the face-down draw pile (카드 더미) in the middle of the board
        self._label(_("pile {n}").format(n=state["pile"]), cx, cy - dp(13), dp(16), (0.75, 0.75, 0.8, 1), False)

    def _label(self, text: str, x: float, y: float, font: float, colour: Any, bold: bool) -> None:
        label = Label(text=text, font_size=font, color=colour, bold=bold, size=(dp(90), dp(30)))
        label.texture_update()  # the box as tall as the font's line (a 28 px number is 37 px high), centred alike
        label.height = max(dp(30), label.texture_size[1])
        label.center = (x, y)
        self.labels.append(label)
        self.add_widget(label)

    def _icon(self, kind: str, x: float, y: float, size: float) -> None:
        s = size * 0.55
        if kind == "card":
            Color(1, 1, 1, 1)
            Rectangle(pos=(x - s * 0.32, y - s / 2), size=(s * 0.64, s))
            Color(0.2, 0.2, 0.25, 1)
            Line(rectangle=(x - s * 0.32, y - s / 2, s * 0.64, s), width=1)
        elif kind == "balloon":
            self._balloon(x, y, s)
        elif kind == "leopard":
            Color(0.98, 0.72, 0.25, 1)
            Ellipse(pos=(x - s / 2, y - s * 0.4), size=(s, s * 0.8))
            Color(0.25, 0.15, 0.05, 1)
            for dx, dy in ((-0.2, 0.1), (0.15, 0.15), (0.0, -0.15), (0.25, -0.1), (-0.25, -0.15)):
                Ellipse(pos=(x + dx * s - s * 0.07, y + dy * s - s * 0.07), size=(s * 0.14, s * 0.14))

    def _balloon(self, x: float, y: float, s: float) -> None:
        Color(0.9, 0.15, 0.2, 1)
        Ellipse(pos=(x - s * 0.38, y - s * 0.2), size=(s * 0.76, s * 0.76))
        Color(1, 1, 1, 1)
        Line(points=[x, y - s * 0.2, x, y - s * 0.5], width=1)
        Color(0.55, 0.35, 0.15, 1)
        Rectangle(pos=(x - s * 0.15, y - s * 0.62), size=(s * 0.3, s * 0.16))

    def _picture_icon(self, x: float, y: float, size: float) -> None:
        s = size * 0.5
        Color(1, 1, 1, 1)
        Line(rounded_rectangle=(x - s / 2, y - s / 2, s, s, s * 0.2), width=1.2)
        for dx, dy in ((-0.2, 0.2), (0.2, -0.2), (0, 0)):
            Ellipse(pos=(x + dx * s - s * 0.08, y + dy * s - s * 0.08), size=(s * 0.16, s * 0.16))


class Swatch(Widget):
    """A small block of a region's colour (the chances table's column heads)."""

    def __init__(self, colour: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.colour = colour
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        side = min(self.width, self.height) * 0.7
        with self.canvas:
            Color(*self.colour)
            RoundedRectangle(
                pos=(self.center_x - side / 2, self.center_y - side / 2), size=(side, side), radius=[dp(3)]
            )


class PlayerTile(BoxLayout):
    """One player: name in their colour, card backs (count only, never values) and re-roll tokens."""

    text = StringProperty("")

    def __init__(self, name: str, colour: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.name = name
        self.colour = colour
        self.cards = 0
        self.active = False
        self.tokens = self.fresh = 0
        self.bind(pos=self.redraw, size=self.redraw, width=self._fit_text)

    def update(self, cards: int, tokens: int, fresh: int, active: bool) -> None:
        self.cards, self.active = cards, active
        # dimmed tiles sit on the dark background: white text; the active tile is solid: contrast with it
        self.ids.name.color = readable_text(self.colour) if active else (1, 1, 1, 1)
        self.tokens, self.fresh = tokens - fresh, fresh
        self._fit_text()
        self.redraw()

    def _fit_text(self, *_args: Any) -> None:
        """The name and the tokens on one line: a long name is cut to make room, never the tokens; with tokens
        earned this turn and no room for their words, just their number ("tokens 2 +1")."""
        # TRANSLATORS: a player's re-roll tokens, label style ("tokens 2"); then those earned this turn
        have = _("tokens {n}").format(n=self.tokens)
        label = self.ids.name
        room = self.width - self.padding[0] - self.padding[2] - dp(2)
        if self.fresh:
            full = _("{tokens} +{n} next turn").format(tokens=have, n=self.fresh)
            name = shorten(self.name, room, label.font_size, bold=True, around=lambda n: f"{n}  {full}")
            # TRANSLATORS: the short form of "tokens 2 +1 next turn" where a tile has no room for it
            have = full if len(name) >= min(6, len(self.name)) else _("{tokens} +{n}").format(tokens=have, n=self.fresh)
        name = shorten(self.name, room, label.font_size, bold=True, around=lambda n: f"{n}  {have}")
        self.text = f"[b]{escape_markup(name)}[/b]  {escape_markup(have)}"

    def redraw(self, *_args: Any) -> None:
        self.canvas.before.clear()
        with self.canvas.before:
            Color(*get_color_from_hex(self.colour)[:3], 1 if self.active else 0.35)
            RoundedRectangle(pos=self.pos, size=self.size, radius=[dp(6)])
            if self.active:
                Color(1, 1, 1, 1)
                Line(rounded_rectangle=(*self.pos, *self.size, dp(6)), width=dp(2))
            # card backs along the bottom edge: how many, in taking order; never their values
            for i in range(self.cards):
                x = self.x + dp(6) + i * dp(15)
                Color(0.12, 0.2, 0.45, 1)
                RoundedRectangle(pos=(x, self.y + dp(4)), size=(dp(12), dp(17)), radius=[dp(2)])
                Color(1, 1, 1, 0.8)
                Line(rounded_rectangle=(x, self.y + dp(4), dp(12), dp(17), dp(2)), width=1)


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
        self._build_controls()

    def undo(self) -> None:
        """As :meth:`GameScreen.undo`; undoing a revealed hand puts its values back to correct them."""
        actions = self.session.actions if self.session is not None else []
        last = dict(actions[-1]) if actions else None
        super().undo()
        if last is not None and last.get("type") == "hand" and self.state["phase"] == ratatat.FINAL_REVEAL:
            waiting = next((p for p in self.state["players"] if p not in self.state["hands"]), None)
            if waiting == last.get("player") and isinstance(last.get("values"), list):
                self.hand_values = [int(v) for v in last["values"]]
                self._build_controls()

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

    # -- the assistant -------------------------------------------------------------------------------------
    def _odds(self) -> dict[int, float]:
        state = self.state
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

    # -- controls per phase ----------------------------------------------------------------------------------
    def _button(self, text: str, callback: Any, *, kind: str = "BigButton", **kwargs: Any) -> Button:
        button: Button = getattr(Factory, kind)(text=text, **kwargs)
        button.bind(on_release=lambda *_a: callback())
        return button

    def _row(self, buttons: list[Button], height: float = dp(52)) -> BoxLayout:
        row = BoxLayout(size_hint_y=None, height=height, spacing=dp(4))
        for button in buttons:
            button.size_hint_y = None
            button.height = height
            row.add_widget(button)
        return row

    def _grid(self, buttons: list[Button], height: float = dp(52)) -> BoxLayout | GridLayout:
        """Up to three buttons in one row; more (players' names) two to a row, so a name has room to be read."""
        if len(buttons) <= 3:
            return self._row(buttons, height)
        rows = math.ceil(len(buttons) / 2)
        grid = GridLayout(cols=2, spacing=dp(4), size_hint_y=None, height=height * rows + dp(4) * (rows - 1))
        for button in buttons:
            button.size_hint_y = None
            button.height = height
            grid.add_widget(button)
        return grid

    def _name_button(self, name: str, after: str, callback: Any, **kwargs: Any) -> Button:
        """A button saying ``name`` + ``after`` ("Bob 2", "Bob: total 13") in at most two lines: the name (with
        what is glued to it, like the colon) is shortened with an ellipsis to fit a line of its own, so it is
        never broken mid-word over three lines; the rest of ``after`` is short and wraps onto the second line."""
        glued, space, rest = after.partition(" ")
        button = self._button(name + after, callback, **kwargs)

        def fit(*_args: Any) -> None:
            room = button.width - dp(8) - dp(2)  # BigButton's text_size, and a little slack for rounding
            if room > 0:
                first = shorten(name, room, button.font_size, bold=button.bold, around=lambda n: n + glued)
                button.text = first + glued + space + rest

        button.bind(width=fit, font_size=fit)
        fit()
        return button

    def _build_controls(self) -> None:
        box = self.ids.controls
        box.clear_widgets()
        state = self.state
        phase = state["phase"]
        me = self.state["players"][state["current"]]
        self.info_room = phase != ratatat.OVER
        if phase != ratatat.ROLL:
            self.info = ""
        getattr(self, f"_controls_{phase}")(box, me)

    def _region_name(self, region: int) -> str:
        return wording.region_name(self.state, region)

    def _controls_deal(self, box: BoxLayout, me: str) -> None:
        self._card_entry(box, _("Deal: enter the face-up card of the {region} region"))

    def _controls_reveal(self, box: BoxLayout, me: str) -> None:
        self._card_entry(box, _("Refill: enter the new face-up card of the {region} region"))

    def _card_entry(self, box: BoxLayout, template: str) -> None:
        region = self.state["to_reveal"][0]
        self.prompt = template.format(region=self._region_name(region))
        if self.state["reshuffles"] and len(self.state["to_reveal"]) == 5 and self.state["phase"] == ratatat.REVEAL:
            self.info = _("Too many balloons: the five cards were shuffled into the pile. Deal five new ones.")
        balloon = self._button(
            _("Balloon: YES") if self.balloon else _("Balloon: no"),
            self._toggle_balloon,
            kind="AccentButton" if self.balloon else "BigButton",
        )
        box.add_widget(self._row([balloon]))
        values = [int(v) for v in self.state["deck"]]
        box.add_widget(self._value_grid(values, lambda v, r=region: self._reveal(r, v)))

    def _value_grid(self, values: list[int], callback: Any) -> GridLayout:
        """Card-value buttons, five to a row; the grid is exactly as tall as its rows, so nothing overlaps."""
        rows = math.ceil(len(values) / 5)
        grid = GridLayout(cols=5, spacing=dp(4), size_hint_y=None, height=dp(52) * rows + dp(4) * (rows - 1))
        for value in values:
            grid.add_widget(self._button(str(value), lambda v=value: callback(v), font_size=dp(26), height=dp(52)))
        return grid

    def _toggle_balloon(self) -> None:
        self.balloon = not self.balloon
        self._build_controls()

    def _reveal(self, region: int, value: int) -> None:
        balloon, self.balloon = self.balloon, False
        if not self.act({"type": "reveal", "region": region, "value": value, "balloon": balloon}):
            self.balloon = balloon

    def _controls_roll(self, box: BoxLayout, me: str) -> None:
        self.prompt = _("{name}: how many dice? Roll them, or tap the faces").format(name=me)
        help_ = ratatat.assistant(self.state)
        choices = []
        for n in (1, 2, 3):
            chance = help_["options"][n]["lowest"]
            label = ngettext("{n} die: {chance}", "{n} dice: {chance}", n).format(n=n, chance=percent(chance))
            if n == help_["best"]:
                # TRANSLATORS: the dice count with the best chance of the lowest card ("2 dice: 40%  best")
                label = _("{choice}  best").format(choice=label)
            kind = "AccentButton" if n == self.dice_count else "BigButton"
            choices.append(self._button(label, lambda n=n: self._choose_count(n), kind=kind))
        box.add_widget(self._row(choices))
        if self.dice_count:
            self.info = _("Dice: {faces}. Tap each die's face, in any order").format(faces=self._entered())
            self._face_keypad(box)
            ready = all(f is not None for f in self.faces)
            go = self._button(_("Use these dice"), self._submit_roll, kind="AccentButton", disabled=not ready)
            back = self._button(_("Back"), lambda: self._choose_count(0))  # to the chances and the camera
            box.add_widget(self._row([go, self._delete_face_button(), back]))
        else:
            box.add_widget(self._odds_table(help_))
            if self.app is not None and self.app.manager.has_screen("dice"):
                camera = self._button(_("Read the dice with the camera"), self.open_dice)
                box.add_widget(self._row([camera]))

    def _odds_table(self, help_: dict[str, Any]) -> GridLayout:
        """The assistant panel: for 1, 2 and 3 dice, the chance of each region, a picture space, the lowest card."""
        regions = self.state["board"]["regions"]
        # 16 px type (it was 15, drawn ~12 px in the old font); rows just taller than a line, so the roll phase
        # fits under the fixed prompt and info lines with a notice shown
        grid = GridLayout(cols=len(regions) + 3, size_hint_y=None, height=dp(22) * 4 + dp(2) * 3, spacing=dp(2))

        def cell(text: str, colour: Any = (0.85, 0.85, 0.9, 1), bold: bool = False) -> Label:
            return Label(text=text, font_size=dp(16), color=colour, bold=bold)

        # TRANSLATORS: column heads of the chances table: the number of dice, the picture-die spaces, the lowest card
        heads = (_("dice"), _("picture"), _("low {value}").format(value=help_["lowest"]))
        # every column at least as wide as its widest text (a head, or "100%")
        widest = text_width("100%", dp(16), bold=True) + dp(4)
        worded = dict(zip((0, len(regions) + 1, len(regions) + 2), heads, strict=True))
        grid.cols_minimum = {
            col: max(widest, text_width(worded[col], dp(16), bold=True) + dp(6)) if col in worded else widest
            for col in range(len(regions) + 3)
        }
        grid.add_widget(cell(heads[0], bold=True))
        for region in regions:  # each region by its colour, a swatch: no name to shorten in any language
            grid.add_widget(Swatch(colour=get_color_from_hex(region["colour"])))
        grid.add_widget(cell(heads[1], bold=True))
        grid.add_widget(cell(heads[2], (1, 0.85, 0.3, 1), True))
        for n in (1, 2, 3):
            option = help_["options"][n]
            grid.add_widget(cell(str(n), bold=True))
            for chance in option["regions"]:
                grid.add_widget(cell(percent(chance) if chance else "-"))
            grid.add_widget(cell(percent(option["picture"]) if option["picture"] else "-"))
            grid.add_widget(cell(percent(option["lowest"]), (1, 0.85, 0.3, 1), n == help_["best"]))
        return grid

    def _choose_count(self, n: int) -> None:
        """Enter ``n`` dice by touch (0: back to the assistant's table)."""
        self.dice_count = n
        self.faces = [None] * n
        self.refresh()

    def _face_keypad(self, box: BoxLayout) -> None:
        """One row of faces 1-6: each tap is the next die's face (the info line shows them). One row for any
        number of dice, so the keypad stays where it is as faces are entered."""
        full = all(f is not None for f in self.faces)
        buttons = [
            self._button(str(face), lambda f=face: self._add_face(f), font_size=dp(24), disabled=full)
            for face in range(1, 7)
        ]
        box.add_widget(self._row(buttons, dp(52)))

    def _delete_face_button(self) -> Button:
        return self._button(_("Delete last"), self._delete_face, disabled=all(f is None for f in self.faces))

    def _entered(self) -> str:
        """The faces entered so far, a ? for each die still to tap ("3 + 5 + ?")."""
        return " + ".join(str(f) if f is not None else "?" for f in self.faces)

    def _add_face(self, face: int) -> None:
        if None in self.faces:
            self.faces[self.faces.index(None)] = face
        self._build_controls()

    def _delete_face(self) -> None:
        entered = [i for i, f in enumerate(self.faces) if f is not None]
        if entered:
            self.faces[entered[-1]] = None
        self._build_controls()

    def _submit_roll(self) -> None:
        faces = [int(f) for f in self.faces if f is not None]
        if self.state["phase"] == ratatat.ROLL:
            if self.act({"type": "roll", "dice": faces}):
                self.dice_count, self.faces = 0, []
        else:
            self._do_reroll(faces)

    def _controls_rolled(self, box: BoxLayout, me: str) -> None:
        state = self.state
        ring = len(state["board"]["spaces"])
        target = (state["statue"] + sum(state["dice"])) % ring
        space = state["board"]["spaces"][target]
        where = self._space_text(space)
        self.prompt = _("{name} rolled {total}: the statue would land on {space}").format(
            name=me, total=sum(state["dice"]), space=where
        )
        self.ids.board.odds = {target: 1.0}
        self.ids.board.redraw()
        dice = []
        again = escape_markup(_("(re-roll)"))  # under a picked die's face, in a smaller type (fits every language)
        for i, face in enumerate(state["dice"]):
            picked = i in self.reroll_pick
            dice.append(
                self._button(
                    f"[size={int(dp(26))}]{face}[/size]\n{again}" if picked else str(face),
                    lambda i=i: self._pick_die(i),
                    kind="DangerButton" if picked else "BigButton",
                    font_size=dp(16) if picked else dp(26),
                    height=dp(64),
                    markup=True,
                )
            )
        box.add_widget(self._row(dice, dp(64)))
        usable = self.engine.usable_tokens(state)
        if self.reroll_pick:
            count = len(self.reroll_pick)
            self.info = ngettext(
                "Re-roll {n} die: roll it, or tap its new face: {faces}",
                "Re-roll {n} dice: roll them, or tap their new faces: {faces}",
                count,
            ).format(n=count, faces=self._entered())
            self._face_keypad(box)
            ready = all(f is not None for f in self.faces)
            go = self._button(_("Spend a token: re-roll"), self._submit_roll, kind="AccentButton", disabled=not ready)
            box.add_widget(self._row([go, self._delete_face_button(), self._button(_("Cancel"), self._cancel_reroll)]))
        else:
            self.info = ngettext(
                "Tap dice to re-roll them ({n} token to spend)",
                "Tap dice to re-roll them ({n} tokens to spend)",
                usable,
            ).format(n=usable)
            box.add_widget(self._row([self._button(_("Move the statue"), self._move, kind="AccentButton")], dp(60)))

    def _space_text(self, space: dict[str, Any]) -> str:
        """The space the statue lands on, by its icon as the Korean rulebook names it, and its region."""
        kind = space["kind"]
        if kind == "picture":
            return _("a picture-die space")
        region = self._region_name(space["region"])
        if kind == "balloon":
            return _("a balloon space ({region})").format(region=region)
        if kind == "leopard":
            return _("a leopard space ({region})").format(region=region)
        return _("a card space ({region})").format(region=region)

    def _pick_die(self, index: int) -> None:
        if index in self.reroll_pick:
            self.reroll_pick.remove(index)
        else:
            if not self.reroll_pick and self.engine.usable_tokens(self.state) <= 0:
                self.show_message(self.engine.why_not(self.state, "reroll"), error=True)
                return
            self.reroll_pick.append(index)
        self.reroll_pick.sort()
        self.faces = [None] * len(self.reroll_pick)
        self._build_controls()

    def _cancel_reroll(self) -> None:
        self.reroll_pick, self.faces = [], []
        self._build_controls()

    def _do_reroll(self, values: list[int]) -> None:
        if self.act({"type": "reroll", "indices": list(self.reroll_pick), "values": values}):
            self.reroll_pick, self.faces = [], []
            self.refresh()

    def _move(self) -> None:
        self.act({"type": "move"})

    def _controls_space(self, box: BoxLayout, me: str) -> None:
        state = self.state
        space = state["board"]["spaces"][state["landing"]]
        region = space["region"]
        card = state["face_up"][region]
        self.prompt = _("{name} landed on {space}").format(name=me, space=self._space_text(space))
        legal = self.engine.legal(state)
        buttons: list[Button] = []
        if "take_region" in legal:
            take = _("Take the {region} {value}").format(region=self._region_name(region), value=card["value"])
            if card["balloon"]:
                take = _("{take} (balloon: +1 token)").format(take=take)
            if space["kind"] == "balloon":
                take = _("{take} + 1 token").format(take=take)
            elif space["kind"] == "leopard":
                take = _("{take}, then look").format(take=take)
            buttons.append(
                self._button(
                    take,
                    lambda: self.act({"type": "take_region"}),
                    kind="AccentButton",
                    height=dp(60),
                )
            )
        box.add_widget(self._row(buttons, dp(60)) if buttons else Widget(size_hint_y=None, height=0))
        if "take_pile" in legal:
            self.info = _("Or take the top card of the pile: look at it, then say whether it shows a balloon")
            box.add_widget(
                self._row(
                    [
                        self._button(_("Top of pile"), lambda: self.act({"type": "take_pile", "balloon": False})),
                        self._button(
                            _("Top of pile, balloon"), lambda: self.act({"type": "take_pile", "balloon": True})
                        ),
                    ],
                    dp(60),
                )
            )
        if "end_turn" in legal:
            box.add_widget(
                self._row([self._button(_("Nothing to take: end turn"), lambda: self.act({"type": "end_turn"}))])
            )

    def _picture_buttons(self, box: BoxLayout, reroll: bool) -> None:
        """The picture die's faces to tap and, where the camera is calibrated for the picture die, the camera
        (as the number dice are read: the dice screen hands the reading to :meth:`on_roll`)."""
        faces = sorted(set(self.state["picture_faces"]))
        kind = "reroll" if reroll else "picture"
        buttons = [
            self._button(FACE_NAMES[f](), lambda f=f: self._picture(f, kind), font_size=dp(20), height=dp(60))
            for f in faces
        ]
        box.add_widget(self._row(buttons, dp(60)))
        app = self.app
        if app is not None and app.manager.has_screen("dice") and app.camera_reads("picture"):
            camera = self._button(_("Read the picture die with the camera"), self.open_dice)
            box.add_widget(self._row([camera]))

    def _picture(self, face: str, kind: str) -> None:
        action = {"type": "picture", "face": face} if kind == "picture" else {"type": "reroll", "picture": face}
        if self.act(action):
            self.reroll_armed = False
            self.refresh()

    def _controls_picture(self, box: BoxLayout, me: str) -> None:
        self.prompt = _("{name} landed on a picture-die space: roll the picture die").format(name=me)
        self._picture_buttons(box, reroll=False)

    def _controls_endgame(self, box: BoxLayout, me: str) -> None:
        n = self.state["threshold"]
        if self.state["final_round"]:
            prompt = ngettext(
                "{name} has {n} card (final round): pass, or roll the picture die",
                "{name} has {n} cards (final round): pass, or roll the picture die",
                n,
            )
        else:
            prompt = ngettext(
                "{name} has {n} card: pass, or roll the picture die",
                "{name} has {n} cards: pass, or roll the picture die",
                n,
            )
        self.prompt = prompt.format(name=me, n=n)
        self.info = _("Cat or rat: take that card, then give one of your old cards back, unseen, to the pile's bottom")
        self._picture_buttons(box, reroll=False)
        box.add_widget(self._row([self._button(_("Pass"), lambda: self.act({"type": "pass"}), kind="DangerButton")]))

    def _controls_picture_rolled(self, box: BoxLayout, me: str) -> None:
        state = self.state
        face = state["picture"]
        usable = self.engine.usable_tokens(state)
        if self.reroll_armed:
            self.prompt = _("{name} re-rolls the picture die: what does it show now?").format(name=me)
            self._picture_buttons(box, reroll=True)
            box.add_widget(self._row([self._button(_("Cancel"), self._disarm)]))
            return
        if face == "swap":
            self._swap_controls(box, me)
        else:
            choices = self.engine.picture_choices(state)
            tie = len(choices) > 1
            if face == "cat":
                prompt = (
                    _("{name}: the cat takes the lowest face-up card (pick one of the equal cards)")
                    if tie
                    else _("{name}: the cat takes the lowest face-up card")
                )
            else:
                prompt = (
                    _("{name}: the rat takes the highest face-up card (pick one of the equal cards)")
                    if tie
                    else _("{name}: the rat takes the highest face-up card")
                )
            self.prompt = prompt.format(name=me)
            buttons = [
                self._button(
                    _("Take {region} {value}").format(region=self._region_name(r), value=state["face_up"][r]["value"]),
                    lambda r=r: self.act({"type": "take_region", "region": r}),
                    kind="AccentButton",
                    height=dp(60),
                )
                for r in choices
            ]
            if not choices:
                buttons = [self._button(_("No card to take: end turn"), lambda: self.act({"type": "end_turn"}))]
            box.add_widget(self._row(buttons, dp(60)))
        if usable > 0:
            again = ngettext(
                "Re-roll the picture die (token, {n} left)", "Re-roll the picture die (token, {n} left)", usable
            ).format(n=usable)
            box.add_widget(self._row([self._button(again, self._arm)]))

    def _arm(self) -> None:
        self.reroll_armed = True
        self._build_controls()

    def _disarm(self) -> None:
        self.reroll_armed = False
        self._build_controls()

    def _swap_controls(self, box: BoxLayout, me: str) -> None:
        state = self.state
        mine = len(state["rows"][state["current"]])
        if self.swap_mine is None:
            self.prompt = _("{name}: swap? Pick one of your cards (face down, nobody looks)").format(name=me)
            box.add_widget(
                self._row(
                    [
                        self._button(_("My card {n}").format(n=i + 1), lambda i=i: self._swap_pick(i))
                        for i in range(mine)
                    ]
                )
            )
        elif self.swap_other is None:
            self.prompt = _("{name}: swap your card {card} with whose card?").format(name=me, card=self.swap_mine + 1)
            others = [p for p in state["players"] if p != me]
            box.add_widget(self._grid([self._name_button(p, "", lambda p=p: self._swap_with(p)) for p in others]))
        else:
            other = self.swap_other
            theirs = len(state["rows"][state["players"].index(other)])
            self.prompt = _("{name}: swap your card {card} with which of {other}'s cards?").format(
                name=me, card=self.swap_mine + 1, other=other
            )
            box.add_widget(
                self._row(
                    [
                        self._name_button(other, f" {j + 1}", lambda j=j: self._swap_do(j), kind="AccentButton")
                        for j in range(theirs)
                    ]
                )
            )
        bottom = [self._button(_("No swap"), self._no_swap, kind="DangerButton")]
        if self.swap_mine is not None:  # a wrong pick is undone here: nothing is journaled until the swap
            bottom.insert(0, self._button(_("Back"), self._swap_back))
        box.add_widget(self._row(bottom))

    def _swap_back(self) -> None:
        """One step back in the swap choice (their player, then my card)."""
        if self.swap_other is not None:
            self.swap_other = None
        else:
            self.swap_mine = None
        self._build_controls()

    def _swap_pick(self, index: int) -> None:
        self.swap_mine = index
        self._build_controls()

    def _swap_with(self, other: str) -> None:
        self.swap_other = other
        self._build_controls()

    def _swap_do(self, theirs: int) -> None:
        action = {"type": "swap", "mine": self.swap_mine, "other": self.swap_other, "theirs": theirs}
        self.swap_mine, self.swap_other = None, None
        self.act(action)

    def _no_swap(self) -> None:
        self.swap_mine, self.swap_other = None, None
        self.act({"type": "no_swap"})

    def _controls_give_back(self, box: BoxLayout, me: str) -> None:
        old = len(self.state["rows"][self.state["current"]]) - 1
        self.prompt = _("{name}: give one of your old cards back, without looking, to the bottom of the pile").format(
            name=me
        )
        box.add_widget(
            self._row(
                [
                    self._button(_("Card {n}").format(n=i + 1), lambda i=i: self.act({"type": "give_back", "card": i}))
                    for i in range(old)
                ],
                dp(60),
            )
        )

    def _controls_look(self, box: BoxLayout, me: str) -> None:
        state = self.state
        if self.look_other is None:
            self.prompt = _("{name}: look at all your own cards, or at one card of another player").format(name=me)
            buttons = [
                self._button(_("My cards"), lambda: self._look({"type": "look", "at": "own"}), kind="AccentButton")
            ]
            buttons += [self._name_button(p, "", lambda p=p: self._look_at(p)) for p in state["players"] if p != me]
            box.add_widget(self._grid(buttons, dp(60) if len(buttons) <= 3 else dp(52)))
            box.add_widget(self._row([self._button(_("Skip"), lambda: self._look({"type": "look", "at": "none"}))]))
        else:
            other = self.look_other
            count = len(state["rows"][state["players"].index(other)])
            self.prompt = _("{name}: which of {other}'s cards do you look at?").format(name=me, other=other)
            box.add_widget(
                self._row(
                    [
                        self._name_button(
                            other, f" {j + 1}", lambda j=j: self._look({"type": "look", "at": other, "card": j})
                        )
                        for j in range(count)
                    ],
                    dp(60),
                )
            )
            box.add_widget(self._row([self._button(_("Back"), lambda: self._look_at(None))]))

    def _look_at(self, other: str | None) -> None:
        self.look_other = other
        self._build_controls()

    def _look(self, action: dict[str, Any]) -> None:
        self.look_other = None
        self.act(action)

    def _controls_final_reveal(self, box: BoxLayout, me: str) -> None:
        state = self.state
        name = next(p for p in state["players"] if p not in state["hands"])
        size = len(state["rows"][state["players"].index(name)])
        entered = " ".join(str(v) for v in self.hand_values) or "-"
        self.prompt = ngettext(
            "Reveal: {name} turns over {n} card, left to right. Entered: {entered}",
            "Reveal: {name} turns over {n} cards, left to right. Entered: {entered}",
            size,
        ).format(name=name, n=size, entered=entered)
        done = {p: sum(v) for p, v in state["hands"].items()}
        self.info = "  ".join(f"{p}: {t}" for p, t in done.items())
        values = [int(v) for v in state["deck"]]
        box.add_widget(self._value_grid(values, self._hand_value))
        ready = len(self.hand_values) == size
        box.add_widget(
            self._row(
                [
                    self._button(_("Clear"), self._hand_clear),
                    self._button(_("Delete last"), self._hand_delete, disabled=not self.hand_values),
                    self._name_button(
                        name,
                        # TRANSLATORS: after a player's name on a button ("Ana: total 13"); keep the colon and space
                        _(": total {n}").format(n=sum(self.hand_values)),
                        lambda: self._hand_done(name),
                        kind="AccentButton",
                        disabled=not ready,
                    ),
                ]
            )
        )

    def _hand_value(self, value: int) -> None:
        state = self.state
        name = next(p for p in state["players"] if p not in state["hands"])
        if len(self.hand_values) < len(state["rows"][state["players"].index(name)]):
            self.hand_values.append(value)
        self._build_controls()

    def _hand_delete(self) -> None:
        """Take back the last value entered (a mistyped card)."""
        self.hand_values = self.hand_values[:-1]
        self._build_controls()

    def _hand_clear(self) -> None:
        self.hand_values = []
        self._build_controls()

    def _hand_done(self, name: str) -> None:
        if self.act({"type": "hand", "player": name, "values": list(self.hand_values)}):
            self.hand_values = []

    def _controls_over(self, box: BoxLayout, me: str) -> None:
        scores = self.engine.scores(self.state)
        winners = scores["winners"]
        self.prompt = ngettext("{names} wins with {score}!", "{names} win with {score}!", len(winners)).format(
            names=and_list(winners), score=scores[winners[0]]
        )
        ranked = sorted(self.state["players"], key=lambda p: scores[p])
        # the hint only where there is room: five rows and Home must fit under a notice banner as well
        self.info = _("Lowest total wins: everyone's cards added up") if len(ranked) <= 3 else ""
        colours = {p.name: p.colour for p in self.players}
        box.add_widget(self._score_table(ranked, {p: int(scores[p]) for p in ranked}, winners, colours))
        home = self._button(_("Home"), self.go_home)
        box.add_widget(self._row([home, self._button(_("Rematch"), self.rematch, kind="AccentButton")], dp(52)))

    def _score_table(
        self, ranked: list[str], totals: dict[str, int], winners: list[str], colours: dict[str, str]
    ) -> BoxLayout:
        """One row a player, lowest total first: WIN, the name (shortened with an ellipsis when long), the cards
        added up (16 px, whole) and the total at the right edge, always whole. Sized for five players of the
        longest names with five cards each in the panel beside the board."""
        row_h = dp(44) if len(ranked) <= 3 else dp(38)
        table = BoxLayout(
            orientation="vertical",
            size_hint_y=None,
            height=row_h * len(ranked) + dp(2) * (len(ranked) - 1),
            spacing=dp(2),
        )
        # the column as wide as the word ("GUANYA", "승리"), at least as before
        win_w = max(dp(46), text_width(_("WIN"), dp(18), bold=True) + dp(6))
        for name in ranked:
            won = name in winners
            row = BoxLayout(size_hint_y=None, height=row_h, spacing=dp(6))
            row.add_widget(
                self._cell(_("WIN") if won else "", dp(18), (1, 0.85, 0.3, 1), bold=True, width=win_w, halign="center")
            )
            colour = legible_rgba(colours.get(name, "#ffffff"))  # the player's colour, readable on the dark
            # one line: the name takes the room the cards and the total leave (text at least 16 px: the cards
            # were 14 px under the name and shrank to 10 px when long)
            row.add_widget(self._cell(name, dp(20) if len(ranked) <= 3 else dp(18), colour, bold=won))
            values = " + ".join(str(v) for v in self.state["hands"][name])
            cards = self._cell(values, dp(16), (0.75, 0.75, 0.8, 1), halign="right", shorten=False)
            cards.size_hint_x, cards.width = None, text_width(values, dp(16)) + dp(4)
            row.add_widget(cards)
            row.add_widget(
                self._cell(
                    str(totals[name]), dp(28), (1, 1, 1, 1), bold=True, width=dp(60), halign="right", shorten=False
                )
            )
            table.add_widget(row)
        return table

    @staticmethod
    def _cell(
        text: str,
        font: float,
        colour: Any,
        *,
        bold: bool = False,
        width: float | None = None,
        halign: str = "left",
        valign: str = "middle",
        shorten: bool = True,
    ) -> Label:
        """A table label kept inside its box: one line shortened with an ellipsis (a total, sized to fit, is never
        cut: ``shorten`` False)."""
        label = Label(text=text, font_size=font, color=colour, bold=bold, halign=halign, valign=valign)
        if width is not None:
            label.size_hint_x, label.width = None, width
        label.shorten, label.shorten_from = shorten, "right"
        label.bind(size=lambda w, size: setattr(w, "text_size", size))
        return label

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
                self._do_reroll(values)
        elif phase in (ratatat.PICTURE, ratatat.ENDGAME, ratatat.PICTURE_ROLLED):
            if phase == ratatat.ENDGAME and pips and not picture:
                self.show_message(self.engine.why_not(state, "roll"), error=True)
            elif len(picture) != 1:
                self.show_message(_("Roll the picture die alone (one picture face)"), error=True)
            elif phase == ratatat.PICTURE_ROLLED:
                if not self.reroll_armed:
                    self.show_message(_("Tap 'Re-roll the picture die' first: it costs a token"), error=True)
                else:
                    self._picture(picture[0].lower(), "reroll")
            else:
                self._picture(picture[0].lower(), "picture")
        else:
            self.show_message(_("No dice needed now"), error=True)

    def on_button(self, event: ButtonEvent) -> None:
        """The current player's button moves the statue once the dice are accepted."""
        if self.session is None or event.kind != "press":
            return
        state = self.state
        seat = self.players[state["current"]].seat
        if event.seat == seat and state["phase"] == ratatat.ROLLED and not self.reroll_pick:
            self._move()


load_kv("ratatat")
