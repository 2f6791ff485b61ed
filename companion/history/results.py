"""A play's result, derived from its journal: who sat where, scores, winners, edition, options, when and how long.

Nothing here is stored by hand: :func:`derive` replays a journaled game through its engine (through the
journal's public API only), so an undo before the end changes the result and an exported game replayed
elsewhere gives the same one. A game that replays but is not over is *abandoned* when nobody will resume it
(stopped offering) and *in progress* otherwise; a game that no longer replays is *damaged*.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.games import engine as find_engine
from companion.games.base import Action, BadSetup, IllegalAction, Setup, State, error_words
from companion.history.adapters import Tracker, adapter, describe, options
from companion.journal.replay import describe_note, is_note

FINISHED = "finished"
ABANDONED = "abandoned"
IN_PROGRESS = "in_progress"
DAMAGED = "damaged"
STATUSES = (FINISHED, ABANDONED, IN_PROGRESS, DAMAGED)


def play_uid(setup: Setup, created: float) -> str:
    """A play's identity on every install: its game, seed, seats and names and its start time (the journal's
    row id is local to one journal file). The same play exported and imported elsewhere keeps it."""
    seats = "|".join(f"{p.seat}:{p.name}" for p in sorted(setup.players, key=lambda p: p.seat))
    text = f"{setup.game}|{setup.seed}|{created:.6f}|{seats}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class SeatResult:
    """One player of one play: the seat, the name and colour as played, the score, win, rank and game stats."""

    seat: int
    name: str
    colour: str
    score: float | None
    winner: bool
    rank: int
    stats: dict[str, float] = field(default_factory=dict)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SeatResult:
        score = data.get("score")
        return cls(
            seat=int(data["seat"]),
            name=str(data["name"]),
            colour=str(data.get("colour") or "#ffffff"),
            score=float(score) if isinstance(score, int | float) and not isinstance(score, bool) else None,
            winner=bool(data.get("winner")),
            rank=int(data.get("rank") or 0),
            stats={str(k): float(v) for k, v in dict(data.get("stats") or {}).items()},
        )


@dataclass(frozen=True)
class Play:
    """One game as history shows it. ``journal_id`` is the journal row (None for a play imported from CSV
    whose game was not brought along); ``series`` is chart data; times are wall-clock seconds."""

    uid: str
    game: str
    status: str
    started: float
    ended: float
    players: tuple[SeatResult, ...]
    lowest_wins: bool = False
    edition: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    actions: int = 0
    journal_id: int | None = None
    series: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None

    @property
    def duration_s(self) -> float:
        return max(0.0, self.ended - self.started)

    @property
    def winners(self) -> list[SeatResult]:
        return [p for p in self.players if p.winner]

    def seat(self, seat: int) -> SeatResult | None:
        return next((p for p in self.players if p.seat == seat), None)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["players"] = [asdict(p) for p in self.players]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Play:
        journal_id = data.get("journal_id")
        return cls(
            uid=str(data["uid"]),
            game=str(data["game"]),
            status=str(data.get("status") or FINISHED),
            started=float(data["started"]),
            ended=float(data.get("ended") or data["started"]),
            players=tuple(SeatResult.from_json(p) for p in data.get("players") or []),
            lowest_wins=bool(data.get("lowest_wins")),
            edition=data.get("edition") if isinstance(data.get("edition"), str) else None,
            options=dict(data.get("options") or {}),
            actions=int(data.get("actions") or 0),
            journal_id=int(journal_id) if isinstance(journal_id, int) else None,
            series=dict(data.get("series") or {}),
            problem=data.get("problem") if isinstance(data.get("problem"), str) else None,
        )


def ranks(scores: dict[int, float | None], winners: Sequence[int], lowest_wins: bool) -> dict[int, int]:
    """Standard competition ranks (1, 2, 2, 4): winners first, then by score the game's way round."""
    out: dict[int, int] = {}
    for seat, score in scores.items():
        if seat in winners:
            out[seat] = 1
            continue
        if score is None:
            out[seat] = len(scores)
            continue
        better = sum(
            1
            for other, value in scores.items()
            if other != seat
            and (other in winners or (value is not None and (value < score if lowest_wins else value > score)))
        )
        out[seat] = better + 1
    return out


def derive(
    setup: Setup,
    actions: Sequence[Action],
    *,
    created: float,
    times: Sequence[float] = (),
    journal_id: int | None = None,
    stopped: bool = False,
) -> Play:
    """Replay a game and read its result. ``times`` are when the actions were committed (the last one ends the
    play); ``stopped`` says nobody will resume it (an unfinished game is then *abandoned*). Never raises for a
    game that does not replay: the play is *damaged*, with the reason in ``problem``."""
    uid = play_uid(setup, created)
    ended = max([created, *times]) if times else created
    rules = adapter(setup.game)
    base = {
        "uid": uid,
        "game": setup.game,
        "started": created,
        "ended": ended,
        "lowest_wins": rules.lowest_wins,
        "edition": rules.edition(setup),
        "options": options(setup),
        "actions": len(actions),
        "journal_id": journal_id,
    }
    plain = tuple(
        SeatResult(p.seat, p.name, p.colour, None, False, 0) for p in sorted(setup.players, key=lambda p: p.seat)
    )
    try:
        engine = find_engine(setup.game)
        state = engine.setup(setup)
        tracker: Tracker = rules.tracker(setup)
        for number, action in enumerate(actions, start=1):
            if is_note(action):
                continue
            try:
                after = engine.apply(state, action)
            except IllegalAction as err:
                raise _Broken(f"action {number} ({action.get('type')}) no longer replays: {err}") from err
            tracker.step(state, action, after)
            state = after
        over = engine.is_over(state)
        scores, winners = rules.scores(engine, setup, state)
        stats = tracker.stats(state)
        series = tracker.series(state) if over else {}
    except (_Broken, BadSetup) as err:
        return Play(status=DAMAGED, players=plain, problem=str(err), **base)  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError, IndexError) as err:  # an engine tripping on an old or odd log
        return Play(status=DAMAGED, players=plain, problem=f"cannot be read ({error_words(err)})", **base)  # type: ignore[arg-type]
    status = FINISHED if over else ABANDONED if stopped else IN_PROGRESS
    order = ranks(scores, winners, rules.lowest_wins) if over else {s: 0 for s in scores}
    players = tuple(
        SeatResult(
            seat=p.seat,
            name=p.name,
            colour=p.colour,
            score=scores.get(p.seat),
            winner=p.seat in winners,
            rank=order.get(p.seat, 0),
            stats=stats.get(p.seat, {}),
        )
        for p in sorted(setup.players, key=lambda p: p.seat)
    )
    return Play(status=status, players=players, series=series, **base)  # type: ignore[arg-type]


class _Broken(Exception):
    pass


@dataclass(frozen=True)
class Moment:
    """One line of a play's timeline: the action's number, when it was committed (None if unknown), its words."""

    number: int
    at: float | None
    text: str


def timeline(setup: Setup, actions: Sequence[Action], times: Sequence[float] = ()) -> list[Moment]:
    """The journal's actions worded by the game's engine, in order (a line that no longer replays says so and
    the rest are worded without a state)."""
    engine = find_engine(setup.game)
    state: State | None
    try:
        state = engine.setup(setup)
    except BadSetup:
        state = None
    out: list[Moment] = []
    for number, action in enumerate(actions, start=1):
        at = times[number - 1] if number - 1 < len(times) else None
        if is_note(action):
            out.append(Moment(number, at, describe_note(action)))
            continue
        after: State | None = None
        if state is not None:
            try:
                after = engine.apply(state, action)
            except IllegalAction:
                after = None
        try:  # worded with the state after the action, as the game screen words its last move
            text = describe(engine, action, after if after is not None else state)
        except Exception:  # wording must never stop the timeline from showing
            text = str(action.get("type"))
        out.append(Moment(number, at, text))
        state = after
    return out
