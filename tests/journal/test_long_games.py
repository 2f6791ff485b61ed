"""Long games stay fast without ever being wrong (issue #22, item 6): resume starts from the latest snapshot and
replays only the moves after it, undo and redo replay nothing (or a few moves from a checkpoint), and a snapshot
that does not match the rules or the very moves it was made from is never used. Speed itself is measured by
``companion bench --only long``; these tests count replayed moves and compare every state with a full replay."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from companion.games.base import Player, Setup
from companion.journal import GameSession, Journal
from companion.journal import session as session_mod
from companion.journal.replay import replay

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))
EVERY = session_mod.SNAPSHOT_EVERY


def call(i: int, seat: int | None = None) -> dict[str, object]:
    return {"type": "call", "presses": [{"seat": seat or 1 + i % 2, "tick": 1.0 + i}]}


def long_game(path: Path, calls: int) -> tuple[Journal, GameSession]:
    journal = Journal(path)
    session = GameSession.start(journal, Setup("ratuki", PLAYERS, seed=1))
    session.do({"type": "start", "tick": 0.0})
    for i in range(calls):
        session.do(call(i))
        if i % 37 == 0:
            session.do({"type": "note.dice_correction", "die": 1, "read": 2, "face": 3})
    return journal, session


def test_resume_replays_only_the_moves_after_the_latest_snapshot(tmp_path: Path) -> None:
    journal, played = long_game(tmp_path / "j.sqlite3", 500)
    moves = len(played.actions)
    assert moves > 10 * EVERY
    resumed = GameSession(journal, played.game_id)
    assert resumed.replayed < EVERY  # not from the start
    assert resumed.state == played.state == replay(resumed.setup, resumed.actions)
    journal.close()


def test_undo_back_to_the_start_and_redo_to_the_end_match_a_full_replay(tmp_path: Path) -> None:
    journal, played = long_game(tmp_path / "j.sqlite3", 160)
    session = GameSession(journal, played.game_id)  # resumed: nothing of the played session's memory
    moves = len(session.actions)
    replayed_before = session.replayed
    for step in range(moves):
        assert session.undo() is not None
        if step % 9 == 0 or step == moves - 1:
            assert session.state == replay(session.setup, journal.actions(session.game_id))
    assert session.undo() is None and session.actions == []
    assert session.replayed - replayed_before < 3 * moves  # never a full replay per undo
    for step in range(moves):
        assert session.redo() is not None
        if step % 11 == 0:
            assert session.state == replay(session.setup, session.actions)
    assert session.state == played.state
    journal.close()


def test_a_snapshot_of_moves_undone_and_replaced_is_never_used(tmp_path: Path) -> None:
    journal, session = long_game(tmp_path / "j.sqlite3", 2 * EVERY + 20)
    for _ in range(EVERY):  # back past the latest snapshot
        session.undo()
    for i in range(30):  # other moves: Bo takes every stack now
        session.do(call(5000 + i, seat=2))
    expected = replay(session.setup, journal.actions(session.game_id))
    assert session.state == expected
    assert GameSession(journal, session.game_id).state == expected
    journal.close()


def test_a_snapshot_from_other_rules_is_not_used(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    journal, played = long_game(tmp_path / "j.sqlite3", 3 * EVERY)
    monkeypatch.setattr(session_mod, "rules_version", lambda: "an update changed the rules")
    resumed = GameSession(journal, played.game_id)
    assert resumed.replayed == len(played.actions)  # replayed from the start: a game that no longer replays is found
    assert resumed.state == played.state
    again = GameSession(journal, played.game_id)  # that replay left a snapshot for the new rules
    assert again.replayed < EVERY
    journal.close()


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE snapshots SET state = x'00ff00'",
        "UPDATE snapshots SET state = zeroblob(10)",
        "UPDATE snapshots SET digest = 'other'",
        # an older app undid and replaced moves without knowing about snapshots
        "UPDATE actions SET action = json_set(action, '$.presses[0].seat', 2) WHERE seq = 40",
    ],
)
def test_a_damaged_or_stale_snapshot_is_ignored(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "j.sqlite3"
    journal, played = long_game(path, 3 * EVERY)
    game = played.game_id
    journal.close()
    db = sqlite3.connect(str(path))
    db.execute(damage)
    db.commit()
    db.close()
    journal = Journal(path)
    resumed = GameSession(journal, game)
    assert resumed.state == replay(resumed.setup, journal.actions(game))
    journal.close()


def test_a_full_card_costs_a_snapshot_never_a_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.journal import JournalFull

    journal, session = long_game(tmp_path / "j.sqlite3", 10)

    def full(*_args: object, **_kwargs: object) -> None:
        raise JournalFull("j.sqlite3: the card is full; nothing was recorded")

    monkeypatch.setattr(journal, "save_snapshot", full)
    for i in range(2 * EVERY):
        session.do(call(100 + i))
    assert len(journal.actions(session.game_id)) == len(session.actions)


def test_after_prepare_undo_the_next_undos_replay_nothing(tmp_path: Path) -> None:
    journal, played = long_game(tmp_path / "j.sqlite3", 4 * EVERY)
    while len(played.actions) % EVERY:  # end right at a snapshot: the hardest place to resume for undo
        played.do(call(9000 + len(played.actions)))
    session = GameSession(journal, played.game_id)
    assert session.replayed == 0
    session.prepare_undo()
    prepared = session.replayed
    for _ in range(EVERY - 1):
        session.undo()
    assert session.replayed == prepared  # every one of these undos was a lookup
    assert session.state == replay(session.setup, journal.actions(session.game_id))
    journal.close()
