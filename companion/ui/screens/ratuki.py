"""Ratuki screen: referee verdicts from the player buttons, round clock with stall prompt, score entry, sheet.

Presses go to the live referee (:class:`~companion.games.ratuki.live.LiveReferee`: the tie window, its grace,
the lockout and the start lockout, on the Kivy clock here); when the tie window timer fires the verdict is shown
and a sound plays at once, with no disk write on that path. When the lockout ends, the whole contest (presses,
late presses, the verdict claim) is journaled as one ``call`` action, which the engine re-judges from the ticks,
so undo takes back one verdict and replay reproduces it exactly.
"""

from __future__ import annotations

import time
from itertools import combinations
from typing import Any, ClassVar

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.utils import get_color_from_hex

from companion.games.base import Action
from companion.games.ratuki import (
    SEPARATE,
    clock_seconds,
    player_for_seat,
    result_line,
    score_sheet,
)
from companion.games.ratuki.live import LiveReferee, Timer, call_action
from companion.games.ratuki.referee import TAKE, TIE, Contest, Verdict
from companion.games.ratuki.stall import StallWatch
from companion.games.ratuki.wording import shout
from companion.i18n import _, ngettext
from companion.ui.contrast import legible_rgba
from companion.ui.fit import largest_size, text_width
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.sounds import Chime
from companion.ui.widgets import choose_player, readable_text
from hardware.buttons import ButtonEvent

load_kv("ratuki")

IDLE_COLOUR = (0.16, 0.16, 0.20, 1)
TIE_COLOUR = (1.0, 0.70, 0.0, 1)
SEPARATE_COLOUR = (0.20, 0.30, 0.42, 1)
TONES = {
    "take": [(784.0, 0.07), (1175.0, 0.12)],
    "tie": [(392.0, 0.09), (0.0, 0.04), (392.0, 0.09)],
}


def verdict_parts(kind: str, names: list[str], margin_ms: float | None, runner_up: str | None) -> tuple[str, str]:
    """Headline and detail shown for a verdict (together they read like ``ratuki.verdict_line``)."""
    if kind == TIE:
        return _("TIE: {names}").format(names=", ".join(names)), _("cards back to your discard piles")
    if kind == SEPARATE:
        return _("Different stacks: {names}").format(names=", ".join(names)), _("each takes their own stack")
    detail = (
        _("{ms} ms ahead of {name}").format(ms=f"{margin_ms:.0f}", name=runner_up)
        if margin_ms is not None and runner_up
        else ""
    )
    return _("{name} takes the stack").format(name=shout(names[0])), detail


def clock_text(seconds: float) -> str:
    """``m:ss`` for the round clock (``h:mm:ss`` past an hour)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class VerdictText(Image):
    """Big one-line text drawn from a texture cache, scaled down to fit.

    Rendering a 46 px line costs tens of milliseconds on a small CPU; every verdict headline is rendered ahead
    (see :meth:`RatukiScreen.prewarm`), so showing a verdict only swaps a texture in the same frame."""

    text = StringProperty("")
    font_size = NumericProperty(dp(46))
    bold = BooleanProperty(True)
    color = ListProperty([1, 1, 1, 1])
    # Long lines (five tied names) wrap at this width, then scale down only if still too big.
    wrap_width = NumericProperty(dp(520))
    _cache: ClassVar[dict[tuple[str, float, bool, tuple[float, ...], float], Any]] = {}

    def __init__(self, **kwargs: Any) -> None:
        # -1: run just before this frame is drawn, once, after text and colour have both changed.
        self._update = Clock.create_trigger(self.update, -1)
        super().__init__(**kwargs)
        self.bind(
            text=self._update, color=self._update, font_size=self._update, bold=self._update, wrap_width=self._update
        )

    def update(self, *_args: Any) -> None:
        """Swap in the texture for the current text and colour (rendered now if not cached)."""
        if not self.text:
            # No line to show (an uncontested take has no margin): nothing drawn. An Image without a texture
            # draws a plain rectangle in its colour: it was a white bar under the headline.
            self.texture = None
            self.opacity = 0
            return
        self.opacity = 1
        self.texture = self.render(self.text, self.font_size, self.bold, self.color, self.wrap_width)

    @classmethod
    def render(cls, text: str, font_size: float, bold: bool, color: Any, wrap_width: float = dp(520)) -> Any:
        """The texture for ``text`` (cached): centred lines no wider than ``wrap_width``."""
        key = (text, float(font_size), bool(bold), tuple(float(c) for c in color), float(wrap_width))
        texture = cls._cache.get(key)
        if texture is None:
            label = CoreLabel(
                text=text,
                font_size=font_size,
                bold=bold,
                color=list(color),
                text_size=(wrap_width, None),
                halign="center",
            )
            label.refresh()
            texture = label.texture
            if len(cls._cache) > 256:
                cls._cache.clear()
            cls._cache[key] = texture
        return texture


def _fit_name(cell: Any, width: float) -> None:
    """A name cell of the score sheet: 18 px, or 16 px when the whole name only fits that way."""
    cell.font_size = largest_size(lambda size: text_width(cell.text, size, bold=True) <= width, dp(18), dp(16))


class RatukiSheet(BoxLayout):
    """The score sheet (rows of ``score_sheet``): the names row and the totals row stay in view, the rounds
    between them scroll, showing the latest round. Layout in ratuki.kv."""

    ROUND_COLUMN = dp(64)  # narrow "Round" column: the names get the width (5 × 14 characters fit)
    hidden_rounds = NumericProperty(0)  # rounds scrolled out of view (0: every round shows)
    cue_text = StringProperty("")

    def on_kv_post(self, *_args: Any) -> None:
        scroll = self.ids.scroll
        self._snap_soon = Clock.create_trigger(self._snap, 0.2)
        scroll.bind(scroll_y=self._cue, height=self._cue)
        scroll.bind(scroll_y=self._snap_soon)
        self.ids.rounds.bind(height=self._cue)

    def _snap(self, *_args: Any) -> None:
        """Once a swipe has come to rest, whole rows: no round is left cut in half at the edge."""
        scroll, rounds = self.ids.scroll, self.ids.rounds
        rows = (rounds.height - scroll.height) / dp(32)
        if rows < 0.5:
            return
        target = round(scroll.scroll_y * rows) / rows
        if abs(target - scroll.scroll_y) > 1e-3:
            scroll.scroll_y = min(1.0, max(0.0, target))

    def _cue(self, *_args: Any) -> None:
        """Say which way the rounds out of view are (earlier above the latest, later below the first)."""
        scroll, rounds = self.ids.scroll, self.ids.rounds
        row = dp(32)
        hidden = max(0, round((rounds.height - scroll.height) / row))
        self.hidden_rounds = hidden
        if not hidden:
            self.cue_text = ""
            return
        above = round(hidden * (1 - min(1.0, max(0.0, scroll.scroll_y))))  # rows scrolled off the top
        below = hidden - above
        if above and below:
            self.cue_text = _("more rounds above and below: swipe")
        elif above:
            self.cue_text = ngettext(
                "{n} earlier round above: swipe down", "{n} earlier rounds above: swipe down", above
            ).format(n=above)
        else:
            self.cue_text = ngettext(
                "{n} later round below: swipe up", "{n} later rounds below: swipe up", below
            ).format(n=below)

    def fill(self, rows: list[list[str]], colours: list[str]) -> None:
        """Show ``rows`` (header, rounds..., totals); ``colours`` are the players' colours, column by column."""
        grids = (self.ids.head, self.ids.rounds, self.ids.total)
        for grid in grids:
            grid.clear_widgets()
            grid.cols = len(rows[0])
        for r, cells in enumerate(rows):
            grid = grids[0] if r == 0 else grids[2] if r == len(rows) - 1 else grids[1]
            for c, text in enumerate(cells):
                cell = Factory.RatukiCell(text=text)
                if c == 0:
                    cell.size_hint_x, cell.width = None, self.ROUND_COLUMN
                if r == 0 and c > 0:
                    cell.color = legible_rgba(colours[c - 1])  # the player's colour, readable on the dark
                    cell.bold = True
                    cell.bind(width=_fit_name)  # a 14-letter bold name: 16 px rather than shortened
                if r == len(rows) - 1:
                    cell.bold = True
                    cell.font_size = dp(24)
                    cell.height = dp(40)
                grid.add_widget(cell)
        self.ids.scroll.scroll_y = 0  # the latest round in view


class RatukiCounter(BoxLayout):
    """A count of cards: − / the value / + (never below 0 or above ``maximum``); tapping the value opens a number
    pad, so a 35-card pile is typed (3, 5, OK) rather than stepped."""

    value = NumericProperty(0)
    locked = BooleanProperty(False)
    maximum = NumericProperty(999)
    title = StringProperty("")  # what the pad asks for ("Ana: score pile")

    def step(self, delta: int) -> None:
        self.value = max(0, min(int(self.maximum), int(self.value) + delta))

    def type_value(self) -> Any:
        """Open the number pad for this count (returns the open pad: tests press its keys)."""
        from companion.ui.numberpad import NumberPad

        if self.locked:
            return None
        pad = NumberPad(self.title, int(self.value), self._typed, maximum=int(self.maximum))
        pad.open()
        return pad

    def _typed(self, value: int) -> None:
        self.value = max(0, min(int(self.maximum), value))


class RatukiScoreRow(BoxLayout):
    """One player's end-of-round counts: score pile, cards left (draw + discard), hand if it counts."""

    name = StringProperty("")
    colour = ListProperty([1, 1, 1, 1])
    text_colour = ListProperty([0, 0, 0, 1])
    saved = BooleanProperty(False)
    went_out = BooleanProperty(False)  # this player called out: no cards left, the counter stays at 0
    show_hand = BooleanProperty(False)
    hand = NumericProperty(0)
    points_text = StringProperty("")

    def __init__(self, screen: RatukiScreen, seat: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.screen = screen
        self.seat = seat

    def counts(self) -> dict[str, int]:
        out = {"score_pile": int(self.ids.pile.value), "left": int(self.ids.left.value)}
        if self.show_hand:
            out["hand"] = int(self.hand)
        return out

    def changed(self) -> None:
        counts = self.counts()
        points = counts["score_pile"] - counts["left"] - counts.get("hand", 0)
        self.points_text = f"{points:+d}"

    def cycle_hand(self) -> None:
        self.hand = (int(self.hand) + 1) % 4
        self.changed()

    def save(self) -> None:
        self.screen.save_score(self.seat, self.counts())


class RatukiScreen(GameScreen):
    """Referee, clock and score sheet for one Ratuki game (see module docstring)."""

    round_text = StringProperty("")
    round_number = NumericProperty(1)
    start_text = StringProperty("")
    verdict_headline = StringProperty("")
    verdict_detail = StringProperty("")
    verdict_colour = ListProperty(IDLE_COLOUR)
    verdict_text_colour = ListProperty([1, 1, 1, 1])
    clock_text = StringProperty("00:00")
    paused = BooleanProperty(False)
    tie_shown = BooleanProperty(False)  # the banner shows a tie: offer "Different stacks"
    stall_text = StringProperty("")
    result_text = StringProperty("")
    result_colour = ListProperty(IDLE_COLOUR)
    result_text_colour = ListProperty([1, 1, 1, 1])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.referee = LiveReferee(
            50,
            500,
            schedule=self._schedule,
            clock=lambda: float(self.app.buttons.clock()),
            deliver=self._deliver_presses,
            on_verdict=lambda verdict, sound: self._show_verdict(verdict, sound=sound),
            on_contest=self._journal,
        )
        self.chime = Chime(TONES)
        self.live: Verdict | None = None  # verdict shown but not yet journaled (its lockout is running)
        self._out_view: Any = None  # the open "who went out?" question
        self.shown_at: float | None = None  # self.now() when the last verdict reached the screen
        self.shown_at_wall = 0.0
        self.score_rows: dict[int, RatukiScoreRow] = {}
        self._ticker: Any = None
        self._prewarm_ev: Any = None
        self.stall = StallWatch(0)

    # -- life cycle ----------------------------------------------------------------------------------------

    @property
    def state(self) -> dict[str, Any]:
        assert self.session is not None
        return self.session.state

    @property
    def settings(self) -> dict[str, Any]:
        return dict(self.state["settings"])

    def on_session(self) -> None:
        settings = self.settings
        self.referee.reset(settings["tie_window_ms"], settings["lockout_ms"])
        self.live = None
        self.chime.enabled = bool(settings["sound"])
        if self.chime.enabled:
            self.chime.load()
        self.ids.seats.set_players(self.players)
        self._fit_seat_buttons()
        self._build_stats()
        self._build_score_rows()
        self.prewarm()
        self.stall = StallWatch(settings["stall_s"])
        self.stall.restart(self.now())
        self.stall_text = ""
        clock = self.state["clock"]
        if self.state["phase"] == "playing" and clock["since"] is not None and clock["since"] > self.now():
            # Resumed after a restart of the monotonic clock: keep the time counted so far, continue from now.
            now = self.now()
            self.act({"type": "pause", "tick": now}, quiet=True)
            self.act({"type": "resume", "tick": now}, quiet=True)

    def verdict_texts(self) -> list[tuple[str, str, Any]]:
        """Every headline a verdict can show (each player taking, every tie), with its colours."""
        out: list[tuple[str, str, Any]] = []
        players = list(self.players)
        for player in players:
            out.append((verdict_parts(TAKE, [player.name], None, None)[0], "", readable_text(player.colour)))
        for size in range(2, len(players) + 1):
            for group in combinations(players, size):
                headline, detail = verdict_parts(TIE, [p.name for p in group], None, None)
                out.append((headline, detail, (0, 0, 0, 1)))
        return out

    def prewarm(self) -> None:
        """Render every verdict headline into the texture cache, one per frame so the UI stays responsive. A new
        game's headlines replace the last game's (the cache kept up to 256 textures of earlier players' names)."""
        if self._prewarm_ev is not None:
            self._prewarm_ev.cancel()
        VerdictText._cache.clear()
        pending = self.verdict_texts()

        def one(_dt: float) -> bool:
            if not pending:
                self._prewarm_ev = None
                return False
            headline, detail, colour = pending.pop(0)
            head, tail = self.ids.verdict_headline, self.ids.verdict_detail
            VerdictText.render(headline, head.font_size, True, colour, head.wrap_width)
            if detail:
                VerdictText.render(detail, tail.font_size, False, colour, tail.wrap_width)
            return True

        self._prewarm_ev = Clock.schedule_interval(one, 0)

    def on_enter(self, *_args: Any) -> None:
        if self._ticker is None:
            self._ticker = Clock.schedule_interval(self._tick, 0.25)
        self._tick()

    def on_leave(self, *_args: Any) -> None:
        self.flush()
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.state
        phase = state["phase"]
        self.ids.panes.current = {"ready": "ready", "playing": "play", "scoring": "score", "over": "over"}[phase]
        self.round_number = state["round"]
        self.round_text = _("Round {n}").format(n=state["round"])
        self.start_text = _("Start round {n}").format(n=state["round"])
        self.paused = phase == "playing" and state["clock"]["since"] is None
        self._update_stats()
        self._update_score_rows()
        self._fill_sheet(self.ids.sheet_ready)
        self._fill_sheet(self.ids.sheet_over)
        if self.live is None:
            self._show_last_call()
        self.result_text = result_line(state)
        if state["result"] is not None:
            winners = state["result"]["winners"]
            colour = self._colour_of_name(winners[0]) if len(winners) == 1 else None
            self.result_colour = get_color_from_hex(colour) if colour else TIE_COLOUR
            self.result_text_colour = readable_text(colour) if colour else (0, 0, 0, 1)
        self._tick()

    # -- buttons and the referee ---------------------------------------------------------------------------

    def on_button(self, event: ButtonEvent) -> None:
        if self.session is None:
            return
        phase = self.state["phase"]
        if event.kind == "release":
            self.referee.release(event.seat, event.tick)
            return
        if event.kind != "press":
            return
        if phase == "ready":
            self.start_round()
            self.referee.start_press(event.seat, event.tick)  # not a call; its release frees the seat
            return
        if phase != "playing":
            return
        if self._out_view is not None:  # asked who went out: the player who did presses their button
            self._out_view.choose(event.seat)
            return
        if self.paused:
            self.show_message(_("The clock is paused: tap Resume to call stacks"), error=True)
            return
        self.referee.press(event.seat, event.tick)

    @staticmethod
    def _schedule(callback: Any, delay_s: float) -> Timer:
        """The live referee's timers, on the Kivy clock."""
        return Clock.schedule_once(lambda _dt: callback(), delay_s)

    def _deliver_presses(self) -> None:
        """Before a window is judged: the boards are polled (a glitch's release hidden in a bounce window is
        reported now) and the hub drained, so presses already queued reach the referee (the hub drains on the
        next frame, which may come after the window timer in the same one)."""
        for board in {id(b): b for b in (self.app.buttons, self.app.sim_buttons)}.values():
            board.poll()
        self.app.hub.drain()

    def flush(self) -> None:
        """Journal a contest still in its window or lockout now (before stopping, undoing or leaving)."""
        self.referee.flush()

    def _journal(self, contest: Contest) -> None:
        self.live = None
        action: Action = call_action(self.state, contest, self.settings["tie_window_ms"])
        self.act(action, quiet=True)
        self.stall.restart(self.now())

    # -- showing verdicts -----------------------------------------------------------------------------------

    def _show_verdict(self, verdict: Verdict, *, sound: bool = True) -> None:
        self.live = verdict
        names = [self._name(s) for s in verdict.seats]
        runner = self._name(verdict.runner_up) if verdict.runner_up is not None else None
        self._paint(verdict.kind, verdict.seats, names, verdict.margin_ms, runner)
        self.shown_at = self.now()
        self.shown_at_wall = time.monotonic()  # same clock as simulated button ticks: for latency figures
        self.stall.restart(self.shown_at)
        self.stall_text = ""
        if sound:
            self.chime.play("tie" if verdict.kind == TIE else "take")

    def _paint(self, kind: str, seats: Any, names: list[str], margin: float | None, runner: str | None) -> None:
        self.verdict_headline, self.verdict_detail = verdict_parts(kind, names, margin, runner)
        self.tie_shown = kind == TIE
        if kind == TIE:
            self.verdict_colour, self.verdict_text_colour = TIE_COLOUR, (0, 0, 0, 1)
        elif kind == SEPARATE:
            self.verdict_colour, self.verdict_text_colour = SEPARATE_COLOUR, (1, 1, 1, 1)
        else:
            colour = self._colour(seats[0])
            self.verdict_colour, self.verdict_text_colour = get_color_from_hex(colour), readable_text(colour)

    def _show_last_call(self) -> None:
        calls = self.state["calls"]
        if not calls:
            self.tie_shown = False
            self.verdict_headline = _("Ratuki!")
            self.verdict_detail = _("first button on a stack takes it")
            self.verdict_colour, self.verdict_text_colour = IDLE_COLOUR, (1, 1, 1, 1)
            return
        verdict = calls[-1]["verdict"]
        runner = self._name(verdict["runner_up"]) if verdict["runner_up"] is not None else None
        names = [self._name(s) for s in verdict["seats"]]
        self._paint(verdict["kind"], verdict["seats"], names, verdict["margin_ms"], runner)

    # -- round flow -------------------------------------------------------------------------------------------

    def start_round(self) -> None:
        # A new round starts clean: its quiet stretch is counted from its start, never from the last round.
        self.stall.restart(self.now())
        self.stall_text = ""
        if self.act({"type": "start", "tick": self.now()}):
            self.referee.new_round()  # on_button says so when a player button started the round
            self.live = None
            self.refresh()

    def toggle_pause(self) -> None:
        if self.paused:
            if self.act({"type": "resume", "tick": self.now()}):
                self.stall.restart(self.now())
        else:
            self.flush()
            self.act({"type": "pause", "tick": self.now()})

    def stop_round(self, reason: str, seat: int | None = None) -> None:
        self.flush()
        self.stall_text = ""
        action: Action = {"type": "stop", "tick": self.now(), "reason": reason}
        if seat is not None:
            action.update(seat=seat, name=self._name(seat))
        self.act(action)

    def ask_who_went_out(self) -> Any:
        """*Out!*: ask who went out (their draw and discard piles are empty), so their score row is set to no
        cards left. A player may also press their own button while asked. Returns the open view (tests)."""
        if self.session is None or self.state["phase"] != "playing":
            return None
        self.flush()
        # The round clock stops while the table answers (the players stopped at the "out!"): journaled, so the
        # time spent on the question never counts, even if the app stops meanwhile. Back starts it again.
        paused_here = not self.paused and self.act({"type": "pause", "tick": self.now()}, quiet=True)

        def closed(view: Any) -> None:
            if self._out_view is view:  # only the question still open clears it
                self._out_view = None
                if paused_here:
                    # After the answer (it comes just after the view closes): a stopped round stays stopped.
                    Clock.schedule_once(lambda _dt: self._resume_after_question(), 0)

        self._out_view = choose_player(
            _("Who went out? (draw and discard piles empty) — tap them, or they press their button"),
            self.players,
            lambda seat: self.stop_round("out", seat),
            other_text=_("End round, not sure who"),
            on_other=lambda: self.stop_round("out"),
        )
        self._out_view.bind(on_dismiss=closed)
        return self._out_view

    def _resume_after_question(self) -> None:
        """*Back* on "who went out?" (a mis-tap): the clock paused for the question runs again."""
        if self.session is None or self.state["phase"] != "playing" or not self.paused or self._out_view is not None:
            return
        if self.act({"type": "resume", "tick": self.now()}, quiet=True):
            self.stall.restart(self.now())

    def separate_stacks(self) -> None:
        """The tie on the banner was on different central stacks (the rules' tie is only on one stack, and a
        button cannot say which): journal the call now if it is still in its lockout, then correct it."""
        self.flush()
        calls = self.state["calls"]
        if calls and calls[-1]["verdict"]["kind"] == TIE:
            self.act({"type": "separate"})
        else:
            self.show_message(_("Only a tie can be split into different stacks"), error=True)

    def dismiss_stall(self) -> None:
        self.stall.restart(self.now())
        self.stall_text = ""

    def undo(self) -> None:
        self.flush()  # a verdict on screen but not yet journaled is what Undo should take back
        self.live = None
        actions = self.session.actions if self.session is not None else []
        last = dict(actions[-1]) if actions else None
        super().undo()
        self.stall.restart(self.now())  # an undone end of round plays on: its quiet stretch starts again
        if last is not None and last.get("type") == "score" and self.state["phase"] == "scoring":
            # Undoing a Save is how a count is corrected: put the saved counts back in the counters to adjust.
            row = self.score_rows.get(int(last.get("seat") or 0))
            if row is not None and not row.saved:
                row.ids.pile.value = int(last.get("score_pile", 0))
                row.ids.left.value = int(last.get("left", 0))
                row.hand = int(last.get("hand", 0))
                row.changed()

    def save_score(self, seat: int, counts: dict[str, int]) -> None:
        self.act({"type": "score", "seat": seat, "name": self._name(seat), **counts})

    def _tick(self, *_args: Any) -> None:
        if self.session is None:
            return
        state = self.state
        if state["phase"] != "playing":
            self.stall_text = ""
            return
        self.clock_text = clock_text(clock_seconds(state, self.now()))
        quiet = self.stall.asking(self.now(), running=not self.paused and self.referee.phase == "idle")
        self.stall_text = (
            "" if quiet is None else _("Nobody has called for {seconds} s — round over?").format(seconds=quiet)
        )

    # -- widgets ---------------------------------------------------------------------------------------------

    def _name(self, seat: int) -> str:
        player = player_for_seat(self.state, seat)
        return str(player["name"]) if player else _("seat {n}").format(n=seat)

    def _colour(self, seat: int) -> str:
        player = player_for_seat(self.state, seat)
        return str(player["colour"]) if player else "#ffffff"

    def _colour_of_name(self, name: str) -> str | None:
        for player in self.state["players"]:
            if player["name"] == name:
                return str(player["colour"])
        return None

    def _build_stats(self) -> None:
        grid = self.ids.stats
        grid.clear_widgets()
        self._stat_labels: dict[str, tuple[Any, Any]] = {}
        self._round_cell = Factory.RatukiCell(text=self.round_text, halign="left", bold=True, height=dp(28))
        grid.add_widget(self._round_cell)
        for text in (_("stacks"), _("ties")):
            grid.add_widget(Factory.RatukiCell(text=text, font_size=dp(16), color=(0.75, 0.75, 0.8, 1), height=dp(28)))
        for player in self.players:
            name = Factory.RatukiCell(
                text=player.name, halign="left", shorten_from="right", color=legible_rgba(player.colour)
            )
            name.bold = True
            stacks, ties = Factory.RatukiCell(), Factory.RatukiCell()
            for widget in (name, stacks, ties):
                widget.height = dp(28)
                grid.add_widget(widget)
            self._stat_labels[player.name] = (stacks, ties)

    def _update_stats(self) -> None:
        from companion.games.ratuki import round_stats

        self._round_cell.text = self.round_text
        for name, stats in round_stats(self.state).items():
            labels = self._stat_labels.get(name)
            if labels:
                labels[0].text = str(stats["stacks"])
                labels[1].text = str(stats["ties"])

    def _build_score_rows(self) -> None:
        grid = self.ids.score_rows
        grid.clear_widgets()
        self.score_rows = {}
        deck = self.settings["deck_size"]
        for player in self.players:
            row = RatukiScoreRow(self, player.seat, name=player.name)
            row.colour = get_color_from_hex(player.colour)
            row.text_colour = readable_text(player.colour)
            row.show_hand = bool(self.settings["count_hand"])
            row.ids.pile.maximum = deck * len(self.players)
            row.ids.left.maximum = deck
            row.changed()
            grid.add_widget(row)
            self.score_rows[player.seat] = row

    def _update_score_rows(self) -> None:
        entries = self.state["entries"]
        stopped = self.state.get("stopped") or {}
        out_seat = stopped.get("seat") if stopped.get("reason") == "out" else None
        for seat, row in self.score_rows.items():
            row.went_out = seat == out_seat and self.state["phase"] == "scoring"
            row.ids.left.maximum = 0 if row.went_out else self.settings["deck_size"]
            entry = entries.get(self._name(seat))
            was_saved = row.saved
            row.saved = entry is not None
            if entry is not None:
                row.ids.pile.value = entry["score_pile"]
                row.ids.left.value = entry["left"]
                row.hand = entry["hand"]
            elif was_saved or self.state["phase"] != "scoring":
                row.ids.pile.value = row.ids.left.value = 0
                row.hand = 0
            row.changed()

    def _fill_sheet(self, sheet: RatukiSheet) -> None:
        sheet.fill(score_sheet(self.state), [p.colour for p in self.players])

    def _fit_seat_buttons(self) -> None:
        """One line per on-screen seat button: a little smaller type for a long name, and a name still too
        long cut with an ellipsis (it was drawn over the next button)."""
        buttons = list(self.ids.seats.children)

        def fit(*_args: Any) -> None:
            size = largest_size(  # the same size on every button
                lambda size: all(text_width(b.text, size, font_name=b.font_name) <= b.width - dp(6) for b in buttons),
                dp(18),
                dp(16),
                step=2,
            )
            for button in buttons:
                button.font_size = size
                button.text_size = (max(0.0, button.width - dp(6)), button.height)

        refit = Clock.create_trigger(fit, -1)  # once per layout, not once per button resized
        for button in buttons:
            button.shorten = True
            button.shorten_from = "right"
            button.halign, button.valign = "center", "middle"
            button.max_lines = 1
            button.bind(size=refit)
        fit()
