"""One game in progress: the engine, its current state and the journal that makes it durable."""

from __future__ import annotations

import contextlib
from typing import Any

from companion.games import engine as find_engine
from companion.games.base import Action, Engine, IllegalAction, Setup, State
from companion.journal.replay import ReplayError, describe_note, is_note, replay
from companion.journal.store import GameRecord, Journal, JournalError


class GameSession:
    """Checks an action with the engine, commits it to the journal, and only then updates the state.

    Screens call :meth:`do`; an :class:`~companion.games.base.IllegalAction` leaves both the journal and the
    state untouched, so a wrong tap costs nothing.
    """

    def __init__(self, journal: Journal, game_id: int) -> None:
        self.journal = journal
        self.game_id = game_id
        record = journal.readable_game(game_id)  # GameDamaged when its setup cannot be read
        self.setup: Setup = record.setup
        self.engine: Engine = find_engine(record.game)
        self.actions: list[Action] = journal.actions(game_id)
        self.state: State = replay(self.setup, self.actions, source=f"game {game_id}")
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
        self.actions.append(action)
        self.state = new_state
        return new_state

    def undo(self) -> Action | None:
        """Take back the last action; returns it (for "Undone: ...") or ``None``."""
        undone = self.journal.undo(self.game_id)
        if undone is not None:
            try:
                self._reload()
            except ReplayError:
                self.journal.redo(self.game_id)  # the earlier moves no longer replay: keep the game as it was
                raise
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
        self.actions.append(redone)
        self.state = new_state
        return redone

    def _reload(self) -> None:
        """State from the journal's live actions (after undo/redo changed which ones are live)."""
        self.actions = self.journal.actions(self.game_id)
        self.state = replay(self.setup, self.actions, source=f"game {self.game_id}")

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
