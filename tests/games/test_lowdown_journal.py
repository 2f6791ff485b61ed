"""Lowdown through the journal: a board file is stored inline at setup (replay never re-reads it), and undo/redo
messages name the players (``describe(action, state)``), while engines with the old ``describe(action)`` still work."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

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


def test_undo_and_redo_messages_name_the_player(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = GameSession.start(journal, Setup("lowdown", PLAYERS, {}, 1))
    session.do(ROLL)
    session.do(ANA_RED_3)
    assert session.describe_last() == "Ana writes 3 (red) in Red/orange row 1, column 1"
    undone = session.undo()
    assert undone is not None and session.describe(undone).startswith("Ana writes 3 (red)")
    redone = session.redo()
    assert redone is not None and "Player 1" not in session.describe(redone)
    journal.close()


def test_crossing_and_secret_descriptions_with_the_state() -> None:
    state = lowdown.ENGINE.setup(Setup("lowdown", PLAYERS, {"secret_dice": "virtual"}, 1))
    for cell in range(3):
        state["boards"][1]["grids"][0][0][cell] = {"n": 3, "wild": False, "turn": 1}
    cross = {"type": "cross", "player": 1, "squares": [[0, 0, 0], [0, 0, 1], [0, 0, 2]]}
    assert lowdown.ENGINE.describe(cross, state) == "Bo crosses out 3 3 3 (Red/orange row 1)"
    assert lowdown.ENGINE.describe(cross) == "Player 2 crosses out a line"
    state["secret"] = {"colour": "green", "number": 6}
    assert lowdown.ENGINE.describe({"type": "secret"}, state) == "Secret pair: green 6"


def test_the_default_board_is_recorded_so_an_update_to_it_changes_no_saved_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = Setup("lowdown", PLAYERS, {}, 1)
    assert lowdown.ENGINE.prepare_setup(plain).settings["layout"] == lowdown.read_layout_file(
        lowdown.DEFAULT_LAYOUT_PATH
    )
    journal = Journal(tmp_path / "j.sqlite3")
    session = GameSession.start(journal, plain)
    session.do(ROLL)
    session.do(ANA_RED_3)
    changed = {**lowdown.default_layout(), "wilds": 1, "name": "a later edition"}
    monkeypatch.setattr(lowdown.board, "_DEFAULT_LAYOUT", changed)  # an update changed the packaged board
    again = GameSession(journal, session.game_id)
    assert again.state == session.state and lowdown.wilds_left(again.state, 0) == 4
    journal.close()


def test_the_colour_order_does_not_depend_on_the_order_of_the_file_keys() -> None:
    """The journal stores setups with sorted keys: a recorded board's colours must come out in the same order
    (the virtual secret die draws from it), else a resumed game rolls other secret dice than the live one did."""
    raw = lowdown.read_layout_file(lowdown.DEFAULT_LAYOUT_PATH)
    shuffled = {**raw, "colours": dict(sorted(raw["colours"].items()))}
    assert list(lowdown.validate_layout(shuffled)["colours"]) == list(lowdown.default_layout()["colours"])
    assert list(lowdown.default_layout()["colours"]) == ["red", "orange", "purple", "blue", "green", "yellow"]
