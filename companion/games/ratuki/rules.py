"""Ratuki: referee for "who called the stack first", round clock and the score sheet to the target.

Ratuki is played in real time; the companion does not track cards. It judges calls (player buttons pressed
when taking a central stack: first press takes it, presses within the tie window are a stack TIE), times the
rounds, and keeps the multi-round score sheet (score pile − cards left in draw + discard, optionally − hand).

Actions (all documented with examples in ``docs/ratuki.md``):

- ``{"type": "start", "tick": t}`` starts the next round's clock (``tick``: the screen's monotonic seconds).
- ``{"type": "pause", "tick": t}`` / ``{"type": "resume", "tick": t}`` stop and restart the round clock.
- ``{"type": "call", "presses": [{"seat": 2, "tick": 812.031}], "late": [...], "verdict": {...}}`` one
  contest; ticks are button edge ticks. The verdict is derived here from the presses and the settings; an
  optional ``verdict`` claim (kind, seats, names) must match it.
- ``{"type": "separate"}`` the last call's tie was on different central stacks (the rules' tie is only on the
  same stack, but one button cannot say which): each tied player took their own stack.
- ``{"type": "stop", "tick": t, "reason": "out", "seat": 3}`` ends play; score entry follows.
- ``{"type": "score", "seat": 2, "score_pile": 31, "left": 6, "hand": 3}`` one player's counts for the round;
  the round closes when every player has been scored.

Here: the engine and its moves; the settings are :mod:`.settings`', reading a call :mod:`.calls`'.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any, cast

from companion.games.base import (
    Action,
    BadSetup,
    Engine,
    Setup,
    check_players,
    check_settings,
    is_whole,
    require,
)
from companion.games.ratuki import wording
from companion.games.ratuki.calls import (
    check_claim,
    claim_for,
    clock_seconds,
    describe_verdict,
    outside_reason,
    parse_presses,
    player_for_seat,
    round_stats,
    seat_mismatch,
    seat_name,
    tick_arg,
)
from companion.games.ratuki.referee import SEPARATE, TIE, judge, micros, split
from companion.games.ratuki.settings import DEFAULTS, HAND_SIZE, RESULTS, SETTINGS, STOP_REASONS, TARGET_MIN
from companion.games.ratuki.state import (
    Call,
    Entry,
    Phase,
    PlayerData,
    PressData,
    RatukiState,
    RoundRecord,
    Settings,
    VerdictData,
)
from companion.i18n import _

__all__ = [
    "ENGINE",
    "HAND_SIZE",
    "RESULTS",
    "SETTINGS",
    "STOP_REASONS",
    "TARGET_MIN",
    "RatukiEngine",
    "claim_for",
    "clock_seconds",
    "describe_verdict",
    "player_for_seat",
    "round_stats",
]


def _int(value: object) -> bool:
    return is_whole(value)


Move = Callable[[RatukiState, Action], None]


class RatukiEngine(Engine[RatukiState]):
    """The Ratuki rules engine (see module docstring); state is plain JSON, described by
    :class:`~companion.games.ratuki.state.RatukiState`."""

    name = "ratuki"
    title = "Ratuki"
    min_players = 2
    max_players = 5
    settings = SETTINGS
    logs = ("calls", "rounds")  # one round may hold thousands of calls: a move never copies them

    # -- setup ---------------------------------------------------------------------------------------------

    def setup(self, setup: Setup) -> RatukiState:
        """A game before round 1 starts. Raises :class:`BadSetup` for bad players or settings."""
        check_players(setup, self.min_players, self.max_players)
        settings = cast(Settings, check_settings(DEFAULTS, setup.settings))
        if not 0 <= settings["tie_window_ms"] <= 500:
            raise BadSetup(_("tie_window_ms must be between 0 and 500 ms"))
        if not 0 <= settings["lockout_ms"] <= 5000:
            raise BadSetup(_("lockout_ms must be between 0 and 5000 ms"))
        if not 0 <= settings["stall_s"] <= 3600:
            raise BadSetup(_("stall_s must be between 0 (off) and 3600 seconds"))
        if not 1 <= settings["target"] <= 10000:
            raise BadSetup(_("target must be between 1 and 10000 points"))
        if settings["equal_at_target"] not in RESULTS:
            raise BadSetup(_("equal_at_target must be one of {values}").format(values=", ".join(RESULTS)))
        if not 10 <= settings["deck_size"] <= 100:
            raise BadSetup(_("deck_size must be between 10 and 100 cards"))
        players: list[PlayerData] = [{"name": p.name, "colour": p.colour, "seat": p.seat} for p in setup.players]
        return {
            "players": players,
            "settings": settings,
            "round": 1,
            "phase": Phase.READY,
            "clock": {"elapsed": 0.0, "since": None},
            "calls": [],
            "entries": {},
            "rounds": [],
            "totals": {p["name"]: 0 for p in players},
            "result": None,
        }

    # -- actions ---------------------------------------------------------------------------------------------

    def prepare_setup(self, setup: Setup) -> Setup:
        """A new game plays to 100 points or more: the rules allow only 100 "o un número más alto" (a target
        below it is refused here, when a game starts, so games recorded with one still replay)."""
        target = setup.settings.get("target", TARGET_MIN)
        if is_whole(target) and target < TARGET_MIN:
            raise BadSetup(
                _("Ratuki is played to {least} points or more (the rules: 100 or higher), not {target}").format(
                    least=TARGET_MIN, target=target
                )
            )
        return setup

    def moves(self) -> dict[str, Move]:
        return {
            "start": self._start,
            "pause": self._pause,
            "resume": self._resume,
            "call": self._call,
            "separate": self._separate,
            "stop": self._stop,
            "score": self._score,
        }

    def over_message(self) -> str:
        return _("the game is over: start a new game to play again")

    def legal_actions(self, state: RatukiState, seat: int | None = None) -> list[Action]:
        """Ready: start the round. Playing: any seat may call (and say it went out), the table pauses or
        resumes the clock, splits the last tie, stops the round. Scoring: each seat not yet scored."""
        phase = state["phase"]
        seats_ = [p["seat"] for p in state["players"]]
        if seat is not None and seat not in seats_:
            return []
        mine = seats_ if seat is None else [seat]
        if phase == Phase.READY:
            return [{"type": "start"}] if seat is None else []
        if phase == Phase.PLAYING:
            running = state["clock"]["since"] is not None
            out: list[Action] = [{"type": "call", "seat": s} for s in mine] if running else []
            out += [{"type": "stop", "reason": "out", "seat": s} for s in mine]
            if seat is None:
                out.append({"type": "pause" if running else "resume"})
                if state["calls"] and state["calls"][-1]["verdict"]["kind"] == TIE:
                    out.append({"type": "separate"})
                out.append({"type": "stop"})
            return out
        if phase == Phase.SCORING:
            names = {p["seat"]: p["name"] for p in state["players"]}
            return [{"type": "score", "seat": s} for s in mine if names[s] not in state["entries"]]
        return []

    def _start(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.READY, _phase_reason(state, _("start a round")))
        tick = tick_arg(action, "tick")
        state["phase"] = Phase.PLAYING
        state["clock"] = {"elapsed": 0.0, "since": tick}
        state["calls"] = []
        state["entries"] = {}

    def _pause(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.PLAYING, _phase_reason(state, _("pause the clock")))
        since = state["clock"]["since"]
        require(since is not None, _("the clock is already paused"))
        assert since is not None
        tick = tick_arg(action, "tick")
        clock = state["clock"]
        clock["elapsed"] = clock["elapsed"] + max(0.0, tick - since)
        clock["since"] = None

    def _resume(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.PLAYING, _phase_reason(state, _("resume the clock")))
        require(state["clock"]["since"] is None, _("the clock is already running"))
        state["clock"]["since"] = tick_arg(action, "tick")

    def _call(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.PLAYING, _phase_reason(state, _("call a stack")))
        require(state["clock"]["since"] is not None, _("the round is paused: resume it before calling"))
        settings = state["settings"]
        window = settings["tie_window_ms"]
        presses = parse_presses(state, action.get("presses"), "presses")
        require(bool(presses), _("a call needs at least one press"))
        late = parse_presses(state, action.get("late", []), "late")
        inside, outside = split(presses, window)
        require(len(inside) == len(presses) and not outside, outside_reason(state, presses, window))
        seats = {p.seat for p in inside}
        first = inside[0]
        end = first.tick + (window + settings["lockout_ms"]) / 1000
        for press in late:
            require(
                press.seat not in seats,
                _("{name} is both a contender and late").format(name=seat_name(state, press.seat)),
            )
            require(
                micros(press.tick - first.tick) > window * 1000 and micros(end - press.tick) >= 0,
                _("{name}'s late press is not after the tie window and within the lockout").format(
                    name=seat_name(state, press.seat)
                ),
            )
        if state["calls"]:
            last = state["calls"][-1]
            last_end = last["first"] + (window + settings["lockout_ms"]) / 1000
            require(
                not (micros(first.tick - last["first"]) >= 0 and micros(last_end - first.tick) >= 0),
                _("this press came during the lockout after the last call, so it cannot open a new one"),
            )
        verdict = judge(inside, window, late)
        claim = action.get("verdict")
        if claim is not None:
            check_claim(state, claim, verdict)
        call: Call = {
            "first": first.tick,
            "presses": [cast(PressData, p.to_json()) for p in inside],
            "late": [cast(PressData, p.to_json()) for p in late],
            "verdict": cast(VerdictData, verdict.to_json()),
        }
        state["calls"].append(call)

    def _separate(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.PLAYING, _phase_reason(state, _("correct a tie")))
        require(bool(state["calls"]), _("no call to correct yet in this round"))
        require(
            state["calls"][-1]["verdict"]["kind"] == TIE,
            _("only a tie can be split into separate stacks: the last call was not a tie"),
        )
        call = copy.deepcopy(state["calls"][-1])  # logged calls are shared with earlier states: change a copy
        call["verdict"]["kind"] = SEPARATE
        state["calls"][-1] = call

    def _stop(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.PLAYING, _phase_reason(state, _("stop the round")))
        tick = tick_arg(action, "tick")
        reason = action.get("reason", "other")
        require(
            reason in STOP_REASONS,
            _("stop reason must be one of {reasons}, not {reason!r}").format(
                reasons=", ".join(STOP_REASONS), reason=reason
            ),
        )
        seat = action.get("seat")
        if seat is not None:
            name = seat_name(state, seat)
            if "name" in action:
                require(action["name"] == name, seat_mismatch(seat, name, action["name"]))
        clock = state["clock"]
        since = clock["since"]
        if since is not None:
            clock["elapsed"] = clock["elapsed"] + max(0.0, tick - since)
            clock["since"] = None
        state["phase"] = Phase.SCORING
        state["stopped"] = {"reason": reason, "seat": seat}

    def _score(self, state: RatukiState, action: Action) -> None:
        require(state["phase"] == Phase.SCORING, _phase_reason(state, _("enter scores")))
        settings = state["settings"]
        name = seat_name(state, action.get("seat"))
        if "name" in action:
            require(action["name"] == name, seat_mismatch(action["seat"], name, action["name"]))
        require(
            name not in state["entries"],
            _("{name}'s score for round {n} is already entered (undo it to change it)").format(
                name=name, n=state["round"]
            ),
        )
        counts: dict[str, int] = {}
        for key in ("score_pile", "left"):
            value = action.get(key)
            if key == "score_pile":
                whole_words = _("{name}'s score pile must be a whole number")
                negative_words = _("{name}'s score pile cannot be negative ({value})")
            else:
                whole_words = _("{name}'s cards left in draw and discard must be a whole number")
                negative_words = _("{name}'s cards left in draw and discard cannot be negative ({value})")
            require(_int(value), whole_words.format(name=name))
            assert isinstance(value, int)
            require(value >= 0, negative_words.format(name=name, value=value))
            counts[key] = value
        stopped = state.get("stopped")
        if stopped is not None and stopped["reason"] == "out" and stopped["seat"] == action.get("seat"):
            require(
                counts["left"] == 0,
                _("{name} called out: their draw and discard piles are empty, so cards left must be 0").format(
                    name=name
                ),
            )
        hand = action.get("hand", 0)
        require(_int(hand) and hand >= 0, _("{name}'s hand must be a whole number, 0 or more").format(name=name))
        if settings["count_hand"]:
            require(
                "hand" in action, _("enter the cards in {name}'s hand too: they count in this game").format(name=name)
            )
        else:
            require(hand == 0, _("cards in hand do not count in this game (setting): leave the hand at 0"))
        require(hand <= HAND_SIZE, _("{name} cannot hold more than {n} cards").format(name=name, n=HAND_SIZE))
        deck = settings["deck_size"]
        require(
            counts["left"] + hand <= deck,
            _("{name} cannot have {n} own cards left: a deck has {deck}").format(
                name=name, n=counts["left"] + hand, deck=deck
            ),
        )
        total_cards = deck * len(state["players"])
        used = sum(e["score_pile"] + e["left"] + e["hand"] for e in state["entries"].values())
        used += counts["score_pile"] + counts["left"] + hand
        require(
            used <= total_cards,
            _("these counts add up to {used} cards, more than the {total} in {decks} decks").format(
                used=used, total=total_cards, decks=len(state["players"])
            ),
        )
        points = counts["score_pile"] - counts["left"] - (hand if settings["count_hand"] else 0)
        entry: Entry = {"score_pile": counts["score_pile"], "left": counts["left"], "hand": hand, "points": points}
        state["entries"][name] = entry
        if len(state["entries"]) == len(state["players"]):
            _close_round(state)

    # -- queries -----------------------------------------------------------------------------------------------

    def is_over(self, state: RatukiState) -> bool:
        """True once someone (or several, in a draw) won at the target."""
        return bool(state["phase"] == Phase.OVER)

    def scores(self, state: RatukiState) -> dict[str, Any]:
        """Running totals by name, plus ``"winners"`` once the game is over (two or more winners: a draw)."""
        out: dict[str, Any] = dict(state["totals"])
        if state["result"] is not None:
            out["winners"] = list(state["result"]["winners"])
        return out

    def describe(self, action: Action, state: RatukiState | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)


def _close_round(state: RatukiState) -> None:
    stats = round_stats(state)
    record: RoundRecord = {
        "round": state["round"],
        "duration_s": round(state["clock"]["elapsed"], 3),
        "stopped": state.get("stopped"),
        "entries": state["entries"],
        "stacks": {name: s["stacks"] for name, s in stats.items()},
        "ties": {name: s["ties"] for name, s in stats.items()},
        "calls": len(state["calls"]),
    }
    state["rounds"].append(record)
    for name, entry in state["entries"].items():
        state["totals"][name] += entry["points"]
    state["entries"] = {}
    state["calls"] = []
    state.pop("stopped", None)
    state["clock"] = {"elapsed": 0.0, "since": None}
    best = max(state["totals"].values())
    leaders = [p["name"] for p in state["players"] if state["totals"][p["name"]] == best]
    if best >= state["settings"]["target"] and (len(leaders) == 1 or state["settings"]["equal_at_target"] == "draw"):
        state["phase"] = Phase.OVER
        state["result"] = {"kind": "win" if len(leaders) == 1 else "draw", "winners": leaders}
    else:
        state["phase"] = Phase.READY
        state["round"] += 1


def _phase_reason(state: RatukiState, what: str) -> str:
    """Why ``what`` (already in words: "start a round") cannot be done in this part of the round."""
    phase = state["phase"]
    if phase == Phase.READY:
        return _("cannot {what} now: round {n} has not started yet").format(what=what, n=state["round"])
    if phase == Phase.PLAYING:
        return _("cannot {what} now: round {n} is still being played").format(what=what, n=state["round"])
    return _("cannot {what} now: round {n} is being scored").format(what=what, n=state["round"])


ENGINE = RatukiEngine()
