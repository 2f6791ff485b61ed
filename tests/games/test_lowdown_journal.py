"""Lowdown through the journal: a board file is stored inline at setup (replay never re-reads it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from companion.games import lowdown
from companion.games.base import Player, Setup
from companion.journal import GameSession
from companion.journal.replay import dump_lines, load_lines, replay
from companion.journal.store import Journal

PLAYERS = (Player("Ana", seat=1), Player("Bo", seat=2))
ROLL = {"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]}
ANA_RED_3 = {"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 0]}


def custom_layout() -> dict[str, Any]:
    """The default board with a different name and 2 wild boxes (so a replay from it is recognisable)."""
    data = json.loads(lowdown.DEFAULT_LAYOUT_PATH.read_text(encoding="utf-8"))
    data.update(name="club board", wilds=2)
    return dict(data)


def test_a_board_file_is_stored_inline_and_the_game_survives_its_deletion(tmp_path: Path) -> None:
    board = tmp_path / "board.json"
    board.write_text(json.dumps(custom_layout()), encoding="utf-8")
    journal = Journal(tmp_path / "j.sqlite3")
    session = GameSession.start(journal, Setup("lowdown", PLAYERS, {"layout": str(board)}, 4))
    session.do(ROLL)
    session.do(ANA_RED_3)
    recorded = journal.game(session.game_id).setup.settings["layout"]
    assert isinstance(recorded, dict) and recorded["name"] == "club board"
    exported = dump_lines(journal.game(session.game_id).setup, session.actions)
    # The file changes, then disappears: the journal and the export still replay the game on the club board.
    board.write_text(json.dumps({**custom_layout(), "wilds": 4, "name": "changed"}), encoding="utf-8")
    board.unlink()
    again = GameSession(journal, session.game_id)
    assert again.state["layout"]["name"] == "club board" and lowdown.wilds_left(again.state, 0) == 2
    assert again.state["boards"][0]["grids"][0][0][0]["n"] == 3
    setup, actions = load_lines(exported, source="export")
    assert replay(setup, actions)["layout"]["name"] == "club board"
    journal.close()


def test_prepare_setup_leaves_other_layouts_alone_and_refuses_a_missing_file(tmp_path: Path) -> None:
    plain = Setup("lowdown", PLAYERS, {}, 1)
    assert lowdown.ENGINE.prepare_setup(plain) is plain
    inline = Setup("lowdown", PLAYERS, {"layout": custom_layout()}, 1)
    assert lowdown.ENGINE.prepare_setup(inline) is inline
    journal = Journal(tmp_path / "j.sqlite3")
    try:
        GameSession.start(journal, Setup("lowdown", PLAYERS, {"layout": str(tmp_path / "gone.json")}, 1))
    except ValueError as err:
        assert "cannot read the Lowdown board file" in str(err)
    else:
        raise AssertionError("a missing board file must be refused")
    assert journal.games() == []  # nothing written
    journal.close()
