"""Rat-a-Tat Roll through the journal: the board, deck and picture die a game starts with are stored inline in its
recorded setup, so resume, undo, redo and ``companion replay`` give the same game after an app update changes the
packaged data files; games recorded before (no inline copy) still read the files."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from companion.games import ratatat
from companion.games.base import BadSetup, Player, Setup
from companion.journal import GameSession, Journal
from companion.journal.replay import ReplayError, dump_lines, load_lines, replay

PLAYERS = (Player("Ana", seat=1), Player("Bob", seat=2), Player("Cid", seat=3))
ACTIONS: list[dict[str, Any]] = [
    *({"type": "reveal", "region": r, "value": v, "balloon": r == 0} for r, v in enumerate((9, 6, 7, 8, 3))),
    {"type": "roll", "dice": [2]},
    {"type": "move"},
    {"type": "take_region"},
    {"type": "reveal", "region": 0, "value": 9, "balloon": False},
    {"type": "roll", "dice": [6, 6]},
]


@pytest.fixture
def updated_data(tmp_path: Path) -> Path:
    """The packaged data folder as an app update might change it: a copy with its board regions renamed and
    recoloured, every space kind rotated, the deck without 9s and the picture die all cats (a test points
    ``ratatat.DATA_DIR`` at it once its game has started)."""
    folder = tmp_path / "data"
    shutil.copytree(ratatat.DATA_DIR, folder)
    board = json.loads((folder / "ratatat_board.json").read_text(encoding="utf-8"))
    for region in board["regions"]:
        region.update(name=f"New {region['name']}", colour="#123456")
    rotate = {"card": "balloon", "balloon": "leopard", "leopard": "card"}
    for space in board["spaces"]:
        if space["kind"] in rotate:
            space["kind"] = rotate[space["kind"]]
    (folder / "ratatat_board.json").write_text(json.dumps(board), encoding="utf-8")
    deck = {"schema": 1, "cards": [{"value": v, "count": 5} for v in range(9)]}
    (folder / "ratatat_deck.json").write_text(json.dumps(deck), encoding="utf-8")
    die = {"schema": 1, "faces": ["cat"] * 6}
    (folder / "ratatat_picture_die.json").write_text(json.dumps(die), encoding="utf-8")
    return folder


def play(journal: Journal, settings: dict[str, Any]) -> GameSession:
    session = GameSession.start(journal, Setup("ratatat", PLAYERS, settings, 7))
    for action in ACTIONS:
        session.do(action)
    return session


def test_a_game_replays_the_same_after_the_packaged_files_change(
    tmp_path: Path, updated_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    session = play(journal, {"edition": "en"})
    before = session.state
    recorded = journal.game(session.game_id).setup
    assert recorded.settings["board"] == "ratatat_board.json"  # where it came from stays on record
    assert recorded.settings["data"]["board"] == ratatat.load_board()
    assert recorded.settings["data"]["deck"] == ratatat.load_deck()
    assert recorded.settings["data"]["picture_die"] == ratatat.load_picture_die()
    exported = dump_lines(recorded, session.actions)
    journal.close()

    monkeypatch.setattr(ratatat.board, "DATA_DIR", updated_data)  # the app is updated
    assert ratatat.load_board()["regions"][0]["name"].startswith("New ")  # new games would get the new board

    journal = Journal(tmp_path / "j.sqlite3")
    resumed = GameSession(journal, session.game_id)  # resume
    assert resumed.state == before
    assert resumed.undo() == ACTIONS[-1]
    assert resumed.redo() == ACTIONS[-1]
    assert resumed.state == before
    setup, actions = load_lines(exported, source="export")  # companion replay FILE
    assert replay(setup, actions) == before
    journal.close()


def test_without_the_inline_copy_an_update_would_change_the_game(
    updated_data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the inline copy prevents: an old-style setup replayed after the update reads the new files."""
    old_style = Setup("ratatat", PLAYERS, {"edition": "en"}, 7)
    assert replay(old_style, ACTIONS)["face_up"][0] == {"value": 9, "balloon": False}
    monkeypatch.setattr(ratatat.board, "DATA_DIR", updated_data)
    with pytest.raises(ReplayError, match="no card in this deck shows 9"):
        replay(old_style, ACTIONS)


def test_a_game_recorded_before_the_inline_copy_still_opens(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    old_style = Setup("ratatat", PLAYERS, {"edition": "en", "board": "ratatat_board_compact.json"}, 7)
    game_id = journal.new_game(old_style)  # as written by a version without prepare_setup
    for action in ACTIONS:
        journal.append(game_id, action)
    session = GameSession(journal, game_id)
    assert session.state == replay(old_style, ACTIONS)
    assert len(session.state["board"]["spaces"]) == 25  # the compact board, read from its file
    session.do({"type": "move"})
    assert session.undo() == {"type": "move"}
    journal.close()


def test_chosen_and_own_files_are_stored_inline(tmp_path: Path) -> None:
    die = tmp_path / "die.json"
    die.write_text(json.dumps({"schema": 1, "faces": ["cat", "cat", "cat", "rat", "rat", "swap"]}), encoding="utf-8")
    setup = Setup("ratatat", PLAYERS, {"board": "ratatat_board_compact.json", "picture_die": str(die)}, 1)
    prepared = ratatat.ENGINE.prepare_setup(setup)
    data = prepared.settings["data"]
    assert len(data["board"]["spaces"]) == 25 and data["picture_die"]["faces"].count("cat") == 3
    assert prepared.settings["picture_die"] == str(die) and prepared.players == PLAYERS and prepared.seed == 1
    assert json.loads(json.dumps(prepared.to_json())) == prepared.to_json()
    die.unlink()  # the player's own file is gone: the game does not need it
    state = ratatat.ENGINE.setup(prepared)
    assert state["picture_faces"].count("cat") == 3 and len(state["board"]["spaces"]) == 25
    assert ratatat.ENGINE.prepare_setup(prepared).settings == prepared.settings  # preparing twice changes nothing


def test_an_unusable_file_or_inline_copy_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    with pytest.raises(BadSetup, match="cannot read the board file"):
        GameSession.start(journal, Setup("ratatat", PLAYERS, {"board": str(tmp_path / "gone.json")}, 1))
    assert journal.games() == []
    journal.close()
    board = ratatat.load_board()
    for data, message in (
        ("board.json", "setting 'data' must be an object"),
        ({"board": board, "dice": {}}, "unknown keys: dice"),
        ({"board": "ratatat_board.json"}, "the board as an object"),
        ({"deck": {"schema": 1, "cards": []}}, "the deck needs a list of cards"),
    ):
        with pytest.raises(BadSetup, match=message):
            ratatat.ENGINE.setup(Setup("ratatat", PLAYERS, {"data": data}, 1))


def test_the_setup_screen_offers_the_same_settings() -> None:
    """The inline copy is no choice on the new-game screen: the settings table keeps it but does not show it."""
    defaults = ratatat.ENGINE.default_settings()
    assert defaults["data"] is None and not ratatat.ENGINE.settings["data"].shown
    assert not any(setting.files for setting in ratatat.ENGINE.settings.values())
    for key in ("board", "deck", "picture_die"):
        assert defaults[key] == ratatat.ENGINE.settings[key].values[0]
