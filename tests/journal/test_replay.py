"""The export format: dump/load round trip, malformed lines named by number, replay through an engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games.base import Player, Setup
from companion.journal.replay import ReplayError, dump_lines, load_lines, replay, replay_file

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def toy_setup(**settings: int) -> Setup:
    return Setup(game="toy", players=PLAYERS, settings=dict(settings), seed=3)


def test_dump_then_load_round_trips() -> None:
    actions = [{"type": "add", "n": 4}, {"type": "add", "n": 6, "note": "ünï"}]
    lines = dump_lines(toy_setup(target=9), actions)
    assert json.loads(lines[0]) == {"kind": "setup", **toy_setup(target=9).to_json()}
    assert [json.loads(line)["seq"] for line in lines[1:]] == [1, 2]
    assert load_lines(lines) == (toy_setup(target=9), actions)


def test_blank_lines_are_skipped_but_line_numbers_stay_true() -> None:
    lines = dump_lines(toy_setup(), [{"type": "add", "n": 1}])
    text = ["", lines[0], "   ", lines[1], "", "{oops"]
    with pytest.raises(ReplayError, match=r"game\.jsonl, line 6: not valid JSON"):
        load_lines(text, source="game.jsonl")
    assert load_lines(text[:5]) == (toy_setup(), [{"type": "add", "n": 1}])


SETUP = "SETUP"


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([SETUP, '{"kind": "action", "seq": 1, "action": {"type": "add", "n": 1}'], "line 2: not valid JSON"),
        (['"just a string"'], "line 1: expected a JSON object, got str"),
        ([SETUP, SETUP], "line 2: a second setup line"),
        (['{"kind": "setup", "players": []}'], "line 1: bad setup (no game named)"),
        (['{"kind": "setup", "game": "toy", "players": [{"colour": "#fff"}]}'], "player 1's name must be 1 to 14"),
        (['{"kind": "setup", "game": "toy", "players": [], "seed": "x"}'], "bad setup (the seed must be"),
        ([SETUP, '{"kind": "action", "seq": 1, "action": {"n": 1}}'], "line 2: 'action' must be an object"),
        ([SETUP, '{"kind": "action", "seq": 1, "action": [1]}'], "line 2: 'action' must be an object"),
        (
            [
                SETUP,
                '{"kind": "action", "seq": 1, "action": {"type": "add"}}',
                '{"kind": "action", "seq": 1, "action": {"type": "add"}}',
            ],
            "line 3: sequence number 1, expected 2",
        ),
        ([SETUP, '{"kind": "score"}'], "line 2: unknown line kind 'score'"),
        (['{"kind": "action", "seq": 1, "action": {"type": "add"}}'], "line 1: an action before the setup line"),
        (["", "  "], "no setup line"),
    ],
)
def test_malformed_lines_name_the_line_and_the_problem(lines: list[str], message: str) -> None:
    setup_line = dump_lines(toy_setup(), [])[0]
    with pytest.raises(ReplayError) as caught:
        load_lines([setup_line if line == SETUP else line for line in lines], source="bad.jsonl")
    assert str(caught.value).startswith("bad.jsonl")
    assert message in str(caught.value)


def test_replay_applies_every_action_through_the_engine(toy_game: str) -> None:
    state = replay(toy_setup(target=10), [{"type": "add", "n": 6}, {"type": "add", "n": 2}])
    assert (state["total"], state["added"], state["winner"]) == (8, {"Ana": 6, "Bo": 2}, None)


def test_replay_skips_note_actions(toy_game: str) -> None:
    actions = [{"type": "add", "n": 3}, {"type": "note.dice_correction", "die": 1, "read": 2, "face": 3}]
    assert replay(toy_setup(), actions)["total"] == 3


def test_replay_names_the_refused_action_and_the_reason(toy_game: str) -> None:
    actions = [{"type": "add", "n": 1}, {"type": "add", "n": 1}, {"type": "add", "n": 7}]
    with pytest.raises(ReplayError, match=r"game 4: action 3 \(add\) refused: you can add 1 to 6, not 7"):
        replay(toy_setup(), actions, source="game 4")


def test_replay_of_a_setup_the_engine_refuses(toy_game: str) -> None:
    with pytest.raises(ReplayError, match="cannot start the game: unknown setting 'speed'"):
        replay(Setup(game="toy", players=PLAYERS, settings={"speed": 2}), [])
    with pytest.raises(ReplayError, match="cannot start the game: toy needs 2–5 players, not 1"):
        replay(Setup(game="toy", players=PLAYERS[:1]), [])


def test_replay_of_an_unknown_game() -> None:
    with pytest.raises(ReplayError, match="unknown game 'toy'"):
        replay(toy_setup(), [])


def test_replay_file_reports_result_and_scores(toy_game: str, tmp_path: Path) -> None:
    path = tmp_path / "toy.jsonl"
    actions = [{"type": "add", "n": n} for n in (6, 5, 6)]
    path.write_text("\n".join(dump_lines(toy_setup(target=17), actions)) + "\n", encoding="utf-8")
    result = replay_file(str(path))
    assert result["game"] == "toy" and result["actions"] == 3 and result["over"] is True
    assert result["scores"] == {"Ana": 12, "Bo": 5, "winners": ["Ana"]}
    assert result["state"]["total"] == 17


def test_the_toy_registration_is_gone_after_the_fixture() -> None:
    import companion.games as games

    assert "toy" not in games.GAMES
