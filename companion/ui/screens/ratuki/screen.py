"""Ratuki screen: referee verdicts from the player buttons, round clock with stall prompt, score entry, sheet.

Presses go to the live referee (:class:`~companion.games.ratuki.live.LiveReferee`: the tie window, its grace,
the lockout and the start lockout, on the Kivy clock here); when the tie window timer fires the verdict is shown
and a sound plays at once, with no disk write on that path. When the lockout ends, the whole contest (presses,
late presses, the verdict claim) is journaled as one ``call`` action, which the engine re-judges from the ticks,
so undo takes back one verdict and replay reproduces it exactly.

The screen picks the pane of the phase on show, one panel each with its own kv (``ready``, ``play``, ``score``,
``over``), and keeps what they show as its properties; the verdict banner's texts and textures are in
``verdict``, the score sheet and score entry in ``sheet``.
"""

from __future__ import annotations

import time
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.utils import get_color_from_hex

from companion.games.base import Action
from companion.games.ratuki import (
    SEPARATE,
    clock_seconds,
    player_for_seat,
    result_line,
)
from companion.games.ratuki.live import LiveReferee, Timer, call_action
from companion.games.ratuki.referee import TIE, Contest, Verdict
from companion.games.ratuki.stall import StallWatch
from companion.i18n import _
from companion.ui.fit import largest_size, text_width
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.screens.ratuki.over import RatukiOverPanel
from companion.ui.screens.ratuki.play import RatukiPlayPanel
from companion.ui.screens.ratuki.ready import RatukiReadyPanel
from companion.ui.screens.ratuki.score import RatukiScorePanel
from companion.ui.screens.ratuki.sheet import RatukiScoreRow
from companion.ui.screens.ratuki.verdict import (
    IDLE_COLOUR,
    SEPARATE_COLOUR,
    TIE_COLOUR,
    TONES,
    VerdictText,
    clock_text,
    verdict_parts,
    verdict_texts,
)
from companion.ui.sounds import Chime
from companion.ui.widgets import choose_player, readable_text
from hardware.buttons import ButtonEvent

# The pane (panel) of each phase, by its name in the screen's pane manager.
PANES = {"ready": "ready", "playing": "play", "scoring": "score", "over": "over"}


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
        self.ready_panel = RatukiReadyPanel(screen=self)
        self.play_panel = RatukiPlayPanel(screen=self)
        self.score_panel = RatukiScorePanel(screen=self)
        self.over_panel = RatukiOverPanel(screen=self)
        for panel in (self.ready_panel, self.play_panel, self.score_panel, self.over_panel):
            self.ids.panes.add_widget(panel)  # the first added, "ready", shows until a game is attached
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

    @property
    def score_rows(self) -> dict[int, RatukiScoreRow]:
        """The score entry's rows by seat (the score panel's)."""
        return self.score_panel.rows

    def on_session(self) -> None:
        settings = self.settings
        self.referee.reset(settings["tie_window_ms"], settings["lockout_ms"])
        self.live = None
        self.chime.enabled = bool(settings["sound"])
        if self.chime.enabled:
            self.chime.load()
        self.ids.seats.set_players(self.players)
        self._fit_seat_buttons()
        self.play_panel.build(self.players)
        self.score_panel.build()
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

    def prewarm(self) -> None:
        """Render every verdict headline into the texture cache, one per frame so the UI stays responsive. A new
        game's headlines replace the last game's (the cache kept up to 256 textures of earlier players' names)."""
        if self._prewarm_ev is not None:
            self._prewarm_ev.cancel()
        VerdictText._cache.clear()
        pending = verdict_texts(self.players)

        def one(_dt: float) -> bool:
            if not pending:
                self._prewarm_ev = None
                return False
            self.play_panel.prerender(*pending.pop(0))
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
        self.ids.panes.current = PANES[phase]
        self.round_number = state["round"]
        self.round_text = _("Round {n}").format(n=state["round"])
        self.start_text = _("Start round {n}").format(n=state["round"])
        self.paused = phase == "playing" and state["clock"]["since"] is None
        for panel in (self.play_panel, self.score_panel, self.ready_panel, self.over_panel):
            panel.fill()
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
        names = [self.name_of(s) for s in verdict.seats]
        runner = self.name_of(verdict.runner_up) if verdict.runner_up is not None else None
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
        runner = self.name_of(verdict["runner_up"]) if verdict["runner_up"] is not None else None
        names = [self.name_of(s) for s in verdict["seats"]]
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
            action.update(seat=seat, name=self.name_of(seat))
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
        self.act({"type": "score", "seat": seat, "name": self.name_of(seat), **counts})

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

    def name_of(self, seat: int) -> str:
        """The name of the player in ``seat`` (the panels word their rows with it)."""
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


load_kv("ratuki/screen")
