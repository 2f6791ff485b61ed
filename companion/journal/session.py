"""One game in progress: the engine, its current state and the journal that makes it durable."""

from __future__ import annotations

import contextlib
import copy
import functools
import hashlib
from collections import deque
from collections.abc import MutableSequence
from pathlib import Path
from typing import Any

from companion.games import engine as find_engine
from companion.games.base import Action, Engine, IllegalAction, Setup, State
from companion.journal.replay import ReplayError, apply_logged, describe_note, first_state, is_note
from companion.journal.store import GameRecord, Journal, JournalError

SNAPSHOT_EVERY = 50  # a snapshot of the state every this many moves: resume replays fewer than this
KEEP_PAST = 64  # states kept in memory for undo without any replay


class GameSession:
    """Checks an action with the engine, commits it to the journal, and only then updates the state.

    Screens call :meth:`do`; an :class:`~companion.games.base.IllegalAction` leaves both the journal and the
    state untouched, so a wrong tap costs nothing.

    Long games stay fast: the states before the last :data:`KEEP_PAST` moves are kept (undo is a lookup, redo
    one move), a checkpoint every :data:`SNAPSHOT_EVERY` moves is kept in memory and in the journal, and a game is
    resumed from its latest snapshot (checked against the rules and the very moves it was made from), replaying
    only the moves after it.
    """

    def __init__(self, journal: Journal, game_id: int) -> None:
        self.journal = journal
        self.game_id = game_id
        record = journal.readable_game(game_id)  # GameDamaged when its setup cannot be read
        self.setup: Setup = record.setup
        self.engine: Engine = find_engine(record.game)
        self.rules = rules_version()
        self.actions: MutableSequence[Action]
        self.actions, snapshots = journal.resume_point(game_id, self.rules)
        self.replayed = 0  # moves applied to reach the current state since the session opened (tests count it)
        self._checkpoints: dict[int, State] = {}
        self._stored = {snap.count: snap for snap in snapshots}  # read only when wanted (resume, a deep undo)
        self._past: deque[tuple[int, State]] = deque(maxlen=KEEP_PAST)  # (moves, state before the next)
        start, state = self._nearest(len(self.actions))
        self.state: State = self._forward(state, start, len(self.actions))
        latest = max(self._checkpoints, default=0)
        if latest > start:  # replayed past the last snapshot (the first resume after an update): keep one
            self._snapshot(latest, self._checkpoints[latest])
        if self.over and not record.finished:
            # An older app was stopped between a game's last move and the mark that it ended: put it right.
            with contextlib.suppress(JournalError):  # a read-only or full card: the state says it is over anyway
                journal.set_finished(game_id, True)

    @classmethod
    def start(cls, journal: Journal, setup: Setup) -> GameSession:
        """Validate the setup with the engine, then record a new game: the setup the engine prepares (made
        self-contained, e.g. a board file read now and stored inline, so replay never depends on that file)."""
        engine = find_engine(setup.game)
        setup = engine.prepare_setup(setup)  # may raise BadSetup, before anything is written
        engine.setup(setup)  # raises BadSetup before anything is written
        return cls(journal, journal.new_game(setup))

    @property
    def _source(self) -> str:
        return f"game {self.game_id}"

    @property
    def over(self) -> bool:
        return self.engine.is_over(self.state)

    def preview(self, action: Action) -> State:
        """The state ``action`` would lead to, without recording it (raises IllegalAction)."""
        return self.engine.apply(self.state, action)

    def do(self, action: Action) -> State:
        """Apply, commit, then expose the new state. Returns it."""
        new_state = self.state if is_note(action) else self.engine.apply(self.state, action)
        over = self.engine.is_over(new_state)
        self.journal.append(self.game_id, action, finished=True if over else None)  # one commit: never apart
        for count in [c for c in self._checkpoints if c > len(self.actions)]:
            del self._checkpoints[count]  # of moves undone and now replaced
        for count in [c for c in self._stored if c > len(self.actions)]:
            del self._stored[count]
        self._advance(action, new_state)
        if len(self.actions) % SNAPSHOT_EVERY == 0:
            self._snapshot(len(self.actions), new_state)
        return new_state

    def undo(self) -> Action | None:
        """Take back the last action; returns it (for "Undone: ...") or ``None``."""
        if not self.actions:
            return None
        # Worked out before the journal changes: a game whose earlier moves no longer replay stays as it was.
        state = self._state_at(len(self.actions) - 1)
        undone = self.journal.undo(self.game_id)
        if undone is None:
            return None
        self.actions.pop()
        self.state = state
        return undone

    def redo(self) -> Action | None:
        """Bring back the earliest undone action; returns it or ``None``."""
        action = self.journal.next_redo(self.game_id)
        if action is None:
            return None
        try:
            new_state = self.state if is_note(action) else self.engine.apply(self.state, action)
        except IllegalAction as err:  # the undone move no longer applies (rules changed in an update)
            raise ReplayError(f"game {self.game_id}: redo of {action.get('type')} refused: {err}") from err
        # Redoing the last move ends the game again: marked in the same commit (no "Continue" for an ended game).
        over = self.engine.is_over(new_state)
        redone = self.journal.redo(self.game_id, finished=True if over else None)
        if redone is None:
            return None
        self._advance(redone, new_state)
        return redone

    def prepare_undo(self) -> None:
        """Work out now (the app calls this on the frame after a resume, not on a tap) the states the next
        undos need when the game was resumed right at a snapshot: the older snapshot is read and the moves
        from it replayed once, so the first undos are lookups."""
        if self.actions and not self._past:
            self._past.append((len(self.actions) - 1, self._state_at(len(self.actions) - 1)))

    # -- states ------------------------------------------------------------------------------------------

    def _advance(self, action: Action, new_state: State) -> None:
        """Record that ``action`` led from the current state to ``new_state``."""
        self._past.append((len(self.actions), self.state))
        self.actions.append(action)
        self.state = new_state
        if len(self.actions) % SNAPSHOT_EVERY == 0:
            self._checkpoints[len(self.actions)] = new_state

    def _forward(self, state: State, start: int, stop: int) -> State:
        """The state after moves ``start+1 .. stop``, from ``state`` (the state after ``start`` moves), keeping
        checkpoints and the states undo will want on the way."""
        for count in range(start, stop):
            if stop - count <= KEEP_PAST:
                self._past.append((count, state))
            state = apply_logged(self.engine, state, self.actions[count], count + 1, source=self._source)
            self.replayed += 1
            if (count + 1) % SNAPSHOT_EVERY == 0:
                self._checkpoints[count + 1] = state
        return state

    def _state_at(self, count: int) -> State:
        """The state after the first ``count`` live moves: kept, or from the nearest checkpoint before it."""
        while self._past and self._past[-1][0] > count:
            self._past.pop()
        if self._past and self._past[-1][0] == count:
            return self._past.pop()[1]
        self._past.clear()
        start, state = self._nearest(count)
        return self._forward(state, start, count)  # keeping the states the next undos will want

    def _nearest(self, count: int) -> tuple[int, State]:
        """The latest known state at or before ``count`` moves: a checkpoint, a stored snapshot, or the start."""
        for start in sorted({*self._checkpoints, *self._stored}, reverse=True):
            if start > count:
                continue
            if start in self._checkpoints:
                return start, self._checkpoints[start]
            state = self._stored.pop(start).state()
            if state is not None:  # a snapshot that does not read is skipped: the moves are what counts
                self._checkpoints[start] = state
                return start, state
        return 0, first_state(self.setup, source=self._source)

    def _snapshot(self, count: int, state: State) -> None:
        """Keep a snapshot in the journal (derived data: a full card or a lock only costs a slower resume)."""
        with contextlib.suppress(JournalError):
            self.journal.save_snapshot(self.game_id, count, state, self.rules)

    @property
    def can_redo(self) -> bool:
        return self.journal.has_redo(self.game_id)

    def describe(self, action: Action) -> str:
        """The engine's one-line description (with the current state: names, not numbers), or the note's."""
        if is_note(action):
            return describe_note(action)
        return self.engine.describe(action, self.state)

    def describe_last(self) -> str:
        return self.describe(self.actions[-1]) if self.actions else ""

    def scores(self) -> dict[str, Any]:
        return self.engine.scores(self.state)


def rematch_setup(setup: Setup, seed: int) -> Setup:
    """The next game at the same table: the same game, the players in the same seats and colours, the same
    options, and a new seed (a new shuffle)."""
    return Setup(game=setup.game, players=tuple(setup.players), settings=copy.deepcopy(setup.settings), seed=seed)


def latest_unfinished(journal: Journal, records: list[GameRecord]) -> GameRecord | None:
    """The first of ``records`` (newest first) whose game is really unfinished. A game whose journal ends in a
    finished state though its flag says otherwise (an older app stopped between the two writes) is not offered
    and its flag is put right; a game that cannot be reopened is offered (resuming it says why)."""
    for record in records:
        try:
            session = GameSession(journal, record.id)
        except (ReplayError, JournalError):
            return record
        if not session.over:
            return record
    return None


@functools.cache
def rules_version() -> str:
    """A digest of every file the rules come from (the engines, their data, the replay of notes): a snapshot
    made under other rules (an update) is never used, so a game that no longer replays is still found."""
    import companion.games as games_package

    digest = hashlib.sha256()
    root = Path(games_package.__file__).parent
    files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".json") and "__pycache__" not in p.parts)
    for path in [*files, Path(__file__).with_name("replay.py")]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
