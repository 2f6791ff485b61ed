"""GameSession: the engine decides, the journal commits, then the state changes; resume and undo."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.games.base import BadSetup, IllegalAction, Player, Setup
from companion.journal import GameSession, Journal

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def test_do_commits_before_the_state_changes_and_illegal_actions_cost_nothing(toy_game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 8}))
    session.do({"type": "add", "n": 5})
    with pytest.raises(IllegalAction, match="not 0"):
        session.do({"type": "add", "n": 0})
    assert journal.actions(session.game_id) == [{"type": "add", "n": 5}]
    assert session.state["total"] == 5
    session.do({"type": "add", "n": 3})
    assert session.over and journal.game(session.game_id).finished
    assert session.describe_last() == "add 3"
    assert session.scores() == {"Ana": 5, "Bo": 3, "winners": ["Bo"]}
    journal.close()


def test_resume_after_reopen_is_exactly_where_it_stopped(toy_game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 50}))
    for n in (1, 2, 3):
        session.do({"type": "add", "n": n})
    journal.close()
    journal = Journal(tmp_path / "j.sqlite")
    (record,) = journal.games(unfinished_only=True)
    resumed = GameSession(journal, record.id)
    assert resumed.state == session.state and resumed.actions == session.actions
    journal.close()


def test_undo_and_redo_replay_the_state(toy_game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 50}))
    for n in (4, 5, 6):
        session.do({"type": "add", "n": n})
    assert session.undo() == {"type": "add", "n": 6}
    assert session.undo() == {"type": "add", "n": 5}
    assert session.state["total"] == 4 and session.state["turn"] == 1
    assert session.redo() == {"type": "add", "n": 5}
    assert session.state["total"] == 9
    session.undo(), session.undo(), session.undo()
    assert session.undo() is None and session.state["total"] == 0
    journal.close()


def test_a_setup_the_engine_refuses_writes_nothing(toy_game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    with pytest.raises(BadSetup):
        GameSession.start(journal, Setup("toy", PLAYERS, {"target": 0}))
    assert journal.games() == []
    journal.close()


def test_redoing_the_winning_move_finishes_the_game_again(toy_game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite")
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 8}))
    session.do({"type": "add", "n": 5})
    session.do({"type": "add", "n": 3})
    assert journal.game(session.game_id).finished
    session.undo()
    assert not journal.game(session.game_id).finished  # offered for resume again
    session.redo()
    assert session.over and journal.game(session.game_id).finished  # no "Continue" for an ended game
    journal.close()
