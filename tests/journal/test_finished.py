"""A finished game is never left "unfinished" (issue #22, item 3): the move that ends a game and the mark that
it ended are one transaction, and a journal an older app left half-marked is put right when it is opened."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from companion.games.base import Player, Setup
from companion.journal import GameSession, Journal
from companion.journal import session as session_mod

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))
TOY = Path(__file__).with_name("toy_engine.py")

# Plays the toy game to its end and SIGKILLs itself the moment the journal has committed the winning move
# (before anything else the session does after that commit).
CHILD = textwrap.dedent(
    f"""
    import importlib.util, os, signal, sys
    spec = importlib.util.spec_from_file_location("toy_engine", {str(TOY)!r})
    module = importlib.util.module_from_spec(spec); sys.modules["toy_engine"] = module; spec.loader.exec_module(module)
    import companion.games as games
    games.register("toy", games.GameEntry("toy_engine:ENGINE"))
    from companion.games.base import Player, Setup
    from companion.journal import GameSession, Journal
    from companion.journal import store

    journal = Journal(sys.argv[1])
    session = GameSession.start(journal, Setup("toy", (Player("Ana", seat=1), Player("Bo", seat=2)), {{"target": 8}}))
    session.do({{"type": "add", "n": 5}})
    committed = store.Journal.append
    def append_then_die(self, *args, **kwargs):
        result = committed(self, *args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
        return result
    store.Journal.append = append_then_die
    session.do({{"type": "add", "n": 3}})  # the winning move
    print("not killed", flush=True)
    """
)


def test_a_kill_right_after_the_winning_move_leaves_the_game_finished(toy_game: str, tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    proc = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -9, proc.stderr[-2000:]
    journal = Journal(path)
    (record,) = journal.games()
    assert record.actions == 2 and record.finished  # the move and its "finished" were one commit
    assert journal.games(unfinished_only=True) == []
    journal.close()


def test_redo_of_the_winning_move_marks_the_game_finished_in_the_same_commit(toy_game: str, tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 8}))
    session.do({"type": "add", "n": 5})
    session.do({"type": "add", "n": 3})
    session.undo()
    calls: list[str] = []
    original = journal.set_finished
    journal.set_finished = lambda *a, **k: calls.append("set_finished") or original(*a, **k)  # type: ignore[method-assign]
    session.redo()
    assert journal.game(session.game_id).finished and calls == []  # no second transaction to be killed between
    journal.close()


def _half_marked(path: Path) -> int:
    """A journal as the old app left it when killed between the two writes: the game is over, flag unset."""
    journal = Journal(path)
    session = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 8}))
    session.do({"type": "add", "n": 5})
    session.do({"type": "add", "n": 3})
    journal._db.execute("UPDATE games SET finished = 0")
    journal.close()
    return session.game_id


def test_an_over_game_left_unfinished_is_not_offered_and_its_flag_is_put_right(toy_game: str, tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    over = _half_marked(path)
    journal = Journal(path)
    playing = GameSession.start(journal, Setup("toy", PLAYERS, {"target": 50}))
    playing.do({"type": "add", "n": 2})
    journal._db.execute("UPDATE games SET updated = updated - 100 WHERE id = ?", (playing.game_id,))
    records = journal.games(unfinished_only=True)
    assert [r.id for r in records] == [over, playing.game_id]  # the over game looks newest and unfinished
    latest = session_mod.latest_unfinished(journal, records)
    assert latest is not None and latest.id == playing.game_id
    assert journal.game(over).finished  # derived from the state: put right in the file
    journal.close()


def test_opening_an_over_game_marks_it_finished(toy_game: str, tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    over = _half_marked(path)
    journal = Journal(path)
    assert GameSession(journal, over).over
    assert journal.game(over).finished
    journal.close()
