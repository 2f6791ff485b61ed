"""Rat-a-Tat Roll's table drawn: the ring with the statue and the face-up cards (:class:`RingBoard`), a region's
colour swatch, and each player's tile with card backs and re-roll tokens. Layout of the tile in board.kv."""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.metrics import dp
from kivy.properties import NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_color_from_hex

from companion.i18n import _
from companion.ui.fit import shorten
from companion.ui.screens import load_kv
from companion.ui.widgets import readable_text

STEP_S = 0.12  # statue animation: seconds per space


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


load_kv("ratatat/board")
