"""Rat-a-Tat Roll engine: data files, the dice assistant, immutability, example game logs replayed to the end."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from companion.games.base import BadSetup, IllegalAction, Player, Setup
from companion.games.ratatat import (
    ENGINE,
    assistant,
    load_board,
    load_deck,
    load_picture_die,
    reshuffle_due,
    sum_distribution,
    threshold_for,
    wording,
)
from companion.journal.replay import load_lines, replay, replay_file

LOGS = sorted((Path(__file__).parent / "logs").glob("ratatat-*.jsonl"))
NAMES = ("Ana", "Bob", "Cid")


def start(names: tuple[str, ...] = NAMES, **settings: Any) -> dict[str, Any]:
    return ENGINE.setup(Setup("ratatat", tuple(Player(n, seat=i + 1) for i, n in enumerate(names)), settings))


def dealt(values: tuple[int, ...] = (5, 6, 7, 8, 3), **settings: Any) -> dict[str, Any]:
    state = start(**settings)
    for region, value in enumerate(values):
        state = ENGINE.apply(state, {"type": "reveal", "region": region, "value": value, "balloon": False})
    return state


# --- data ---------------------------------------------------------------------------------------------------
def test_default_board_shape() -> None:
    board = load_board()
    spaces = board["spaces"]
    assert len(board["regions"]) == 5
    assert [i for i, s in enumerate(spaces) if s["kind"] == "picture"] == [0, 7, 14, 21, 28]
    assert {s["kind"] for s in spaces} == {"picture", "card", "balloon", "leopard"}
    for region in range(5):
        icons = [s["kind"] for s in spaces if s.get("region") == region]
        assert sorted(icons) == ["balloon", "card", "card", "card", "card", "leopard"]


def test_default_deck_and_die() -> None:
    deck = load_deck()
    assert sum(e["count"] for e in deck["cards"]) == 45
    assert {e["value"]: e["count"] for e in deck["cards"]}[9] == 9
    assert sorted(load_picture_die()["faces"]) == ["cat", "cat", "rat", "rat", "swap", "swap"]


def _board_with(spaces: list[dict[str, Any]]) -> dict[str, Any]:
    board = load_board()
    board["spaces"] = spaces
    return board


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: [*s[:-1], {"kind": "picture"}], "5 picture-die spaces"),
        (lambda s: [{"kind": "rocket", "region": 0}, *s[1:]], "kind 'rocket'"),
        (lambda s: [*s[:1], {"kind": "card", "region": 2}, *s[2:]], "one run of spaces"),
        (lambda s: [{"kind": "picture"}, *s[:7], *s[8:]], "may not touch"),
        (lambda s: [*s[:3], {"kind": "card", "region": 7}, *s[4:]], "region 0-4"),
    ],
)
def test_bad_boards_are_refused(change: Any, message: str) -> None:
    spaces = load_board()["spaces"]
    with pytest.raises(BadSetup, match=message):
        load_board(_board_with(change(copy.deepcopy(spaces))))


def test_alternative_data_via_settings(tmp_path: Path) -> None:
    small = {
        "schema": 1,
        "regions": load_board()["regions"],
        "spaces": [s for r in range(5) for s in ({"kind": "picture"}, {"kind": "leopard", "region": r})],
    }
    (tmp_path / "tiny.json").write_text(json.dumps(small))
    (tmp_path / "deck.json").write_text(json.dumps({"schema": 1, "cards": [{"value": 1, "count": 20}]}))
    (tmp_path / "die.json").write_text(json.dumps({"schema": 1, "faces": ["cat"]}))
    (tmp_path / "odd.json").write_text(json.dumps({"schema": 1, "cards": [{"value": 1, "count": 20}], "x": 1}))
    state = start(board=str(tmp_path / "tiny.json"), deck=str(tmp_path / "deck.json"), start=1)
    assert len(state["board"]["spaces"]) == 10
    assert state["statue"] == 2
    assert state["deck"] == {"1": 20}
    assert state["pile"] == 17
    with pytest.raises(BadSetup, match="cannot read the board file"):
        start(board=str(tmp_path / "missing.json"))
    with pytest.raises(BadSetup, match="six faces"):
        start(picture_die=str(tmp_path / "die.json"))
    with pytest.raises(BadSetup, match="unknown keys"):
        start(deck=str(tmp_path / "odd.json"))
    with pytest.raises(BadSetup, match="must be str"):
        start(deck={"schema": 1})


def test_packaged_alternatives_are_offered_and_load() -> None:
    boards = ENGINE.settings["board"].values
    assert boards[0] == "ratatat_board.json" and "ratatat_board_compact.json" in boards
    assert ENGINE.settings["board"].choice_label("ratatat_board_compact.json") == "compact ring (25 spaces)"
    for key in ("board", "deck", "picture_die"):
        assert ENGINE.default_settings()[key] == ENGINE.settings[key].values[0]
    state = start(board="ratatat_board_compact.json", start=4)
    assert len(state["board"]["spaces"]) == 25 and state["statue"] == 20
    three = assistant(dealt())["options"][3]
    assert len(three["spaces"]) == 16 and abs(sum(three["spaces"].values()) - 1) < 1e-9  # sums 3..18, one space each


def test_bad_setups() -> None:
    with pytest.raises(BadSetup, match="2–5 players"):
        start(("Solo",))
    with pytest.raises(BadSetup, match="edition"):
        start(edition="fr")
    with pytest.raises(BadSetup, match="first_player"):
        start(first_player=3)
    with pytest.raises(BadSetup, match="unknown setting"):
        start(threshold=3)


def test_thresholds_and_trigger() -> None:
    assert [threshold_for(n) for n in (2, 3, 4, 5)] == [5, 4, 4, 4]
    three = [{"value": 1, "balloon": b} for b in (True, True, True, False, False)]
    four = [{"value": 1, "balloon": b} for b in (True, True, True, True, False)]
    assert reshuffle_due(three, "ko") and not reshuffle_due(three, "en")
    assert reshuffle_due(four, "ko") and reshuffle_due(four, "en")


# --- the dice assistant -------------------------------------------------------------------------------------------
def test_sum_distribution_is_exact() -> None:
    two = sum_distribution(2)
    assert two[7] == Fraction(1, 6) and two[2] == Fraction(1, 36)
    three = sum_distribution(3)
    assert sum(three.values()) == 1
    assert three[10] == Fraction(27, 216) and three[3] == Fraction(1, 216)


def test_assistant_prefers_three_dice_for_a_far_region() -> None:
    state = dealt((5, 1, 7, 8, 3))  # lowest card in region 1: spaces 8-13, statue on 0
    help_ = assistant(state)
    one, two, three = (help_["options"][n] for n in (1, 2, 3))
    assert one["regions"] == [1.0, 0.0, 0.0, 0.0, 0.0] and one["lowest"] == 0.0
    # 2 dice: sums 8-12 reach region 1 (15/36); sum 7 is the picture space (6/36), a cat there (1/3) also wins
    assert two["lowest"] == pytest.approx(15 / 36 + 6 / 36 / 3)
    # 3 dice: sums 8-13 reach region 1 (146/216); sums 7 and 14 are picture spaces (15/216 each)
    assert three["lowest"] == pytest.approx(146 / 216 + 30 / 216 / 3)
    assert help_["best"] == 3 and help_["lowest"] == 1
    assert sum(three["spaces"].values()) == pytest.approx(1.0)
    assert three["picture"] == pytest.approx(30 / 216)


def test_assistant_wraps_round_the_ring() -> None:
    state = dealt((2, 6, 7, 8, 3))
    state["statue"] = 33  # 1 die: 34 (region 4), then 0 (picture), 1-4 (region 0)
    help_ = assistant(state)
    assert help_["options"][1]["regions"][0] == pytest.approx(4 / 6)
    assert help_["options"][1]["picture"] == pytest.approx(1 / 6)
    assert help_["options"][1]["lowest"] == pytest.approx(4 / 6 + 1 / 6 / 3)
    # 2 dice: sums 3-8 land on 1-6 (region 0, 25/36); sums 2 and 9 hit picture spaces 0 and 7 (5/36)
    assert help_["options"][2]["lowest"] == pytest.approx(25 / 36 + 5 / 36 / 3)
    assert help_["best"] == 2


# --- engine behaviour -----------------------------------------------------------------------------------------
def test_apply_does_not_mutate_and_refusals_name_the_reason() -> None:
    state = dealt()
    frozen = copy.deepcopy(state)
    ENGINE.apply(state, {"type": "roll", "dice": [3, 4]})
    assert state == frozen
    with pytest.raises(IllegalAction, match="unknown action 'dance'"):
        ENGINE.apply(state, {"type": "dance"})
    with pytest.raises(IllegalAction, match="roll at least one die"):
        ENGINE.apply(state, {"type": "roll", "dice": []})
    with pytest.raises(IllegalAction, match="must be an object"):
        ENGINE.apply(state, ["roll"])  # type: ignore[arg-type]


def test_no_secret_values_in_rows() -> None:
    state = dealt()
    state = ENGINE.apply(state, {"type": "roll", "dice": [1]})
    state = ENGINE.apply(state, {"type": "move"})
    state = ENGINE.apply(state, {"type": "take_region"})
    for row in state["rows"]:
        for card in row:
            assert set(card) == {"id", "from"}
    json.dumps(state)  # plain JSON


def test_legal_lists_follow_the_phase() -> None:
    state = dealt()
    assert ENGINE.legal(state) == ["roll"]
    state = ENGINE.apply(state, {"type": "roll", "dice": [1]})
    assert ENGINE.legal(state) == ["move", "reroll"]
    state = ENGINE.apply(state, {"type": "move"})
    assert ENGINE.legal(state) == ["take_region", "take_pile"]


def test_describe_every_action_type() -> None:
    samples = [
        {"type": "roll", "dice": [3, 4]},
        {"type": "reroll", "indices": [0], "values": [6]},
        {"type": "reroll", "picture": "cat"},
        {"type": "move"},
        {"type": "take_region"},
        {"type": "take_region", "region": 2},
        {"type": "take_pile", "balloon": True},
        {"type": "picture", "face": "rat"},
        {"type": "swap", "mine": 0, "other": "Bob", "theirs": 1},
        {"type": "no_swap"},
        {"type": "give_back", "card": 1},
        {"type": "reveal", "region": 0, "value": 4, "balloon": True},
        {"type": "look", "at": "own"},
        {"type": "look", "at": "Bob", "card": 0},
        {"type": "pass"},
        {"type": "end_turn"},
        {"type": "hand", "player": "Ana", "values": [1, 2]},
    ]
    lines = [ENGINE.describe(a) for a in samples]
    assert lines[0] == "roll 3 + 4"
    assert lines[8] == "swap own card 1 with Bob's card 2"
    assert lines[11] == "region 1 shows 4 with a balloon"
    assert lines[1] == "re-roll: die 1 now shows 6"  # said as a player would, not a Python list
    assert lines[16] == "Ana reveals 1, 2"
    assert all(lines) and len(set(lines)) == len(lines)


def test_empty_region_when_the_pile_runs_out(tmp_path: Path) -> None:
    tiny = {"schema": 1, "cards": [{"value": v, "count": 1} for v in range(9)]}  # 9 cards: 3 dealt, 5 up, 1 left
    (tmp_path / "tiny.json").write_text(json.dumps(tiny))
    state = start(deck=str(tmp_path / "tiny.json"))
    for region, value in enumerate((0, 1, 2, 3, 4)):
        state = ENGINE.apply(state, {"type": "reveal", "region": region, "value": value, "balloon": False})
    state = ENGINE.apply(state, {"type": "roll", "dice": [1]})
    state = ENGINE.apply(state, {"type": "move"})
    state = ENGINE.apply(state, {"type": "take_pile", "balloon": False})
    assert state["pile"] == 0
    state = ENGINE.apply(state, {"type": "roll", "dice": [1]})  # Bob, space 2: balloon, region 0
    state = ENGINE.apply(state, {"type": "move"})
    state = ENGINE.apply(state, {"type": "take_region"})
    assert state["face_up"][0] is None and state["phase"] == "roll"
    assert {"event": "pile_empty"} in state["events"]
    assert "the draw pile is empty: the region stays empty" in wording.events_text(state)
    state = ENGINE.apply(state, {"type": "roll", "dice": [1]})  # Cid, space 3: card space, empty region, no pile
    state = ENGINE.apply(state, {"type": "move"})
    assert ENGINE.legal(state) == ["end_turn"]
    state = ENGINE.apply(state, {"type": "end_turn"})
    assert state["current"] == 0


# --- example games ----------------------------------------------------------------------------------------------
def test_there_are_example_logs() -> None:
    assert len(LOGS) >= 3


@pytest.mark.parametrize("path", LOGS, ids=[p.stem for p in LOGS])
def test_example_game_replays_to_expected_result(path: Path) -> None:
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    result = replay_file(str(path))
    assert result["game"] == "ratatat" and result["over"] is True
    assert result["actions"] == expected["actions"]
    assert result["scores"] == expected["scores"]
    state = result["state"]
    assert [len(r) for r in state["rows"]] == expected["row_sizes"]
    for key in ("bank", "tokens", "statue", "reshuffles", "pile"):
        assert state[key] == expected[key], key
    # the totals are the sums of the revealed hands; tokens are conserved
    assert all(result["scores"][name] == sum(values) for name, values in state["hands"].items())
    assert state["bank"] + sum(state["tokens"]) == 15
    # every prefix of the log is a legal game that is not yet over
    setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines())
    assert not ENGINE.is_over(replay(setup, actions[:-1]))


def test_replay_is_fast(benchmark: Any) -> None:
    setup, actions = load_lines(LOGS[0].read_text(encoding="utf-8").splitlines())
    state = benchmark(replay, setup, actions)
    assert ENGINE.is_over(state)


def test_companion_replay_command_prints_scores(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import main

    path = LOGS[0]
    assert main(["replay", str(path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = json.loads(path.with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert printed["over"] is True and printed["scores"] == expected["scores"]


def test_journal_resume_and_undo(tmp_path: Path) -> None:
    from companion.journal import GameSession, Journal

    journal = Journal(tmp_path / "journal.sqlite3")
    setup = Setup("ratatat", tuple(Player(n, seat=i + 1) for i, n in enumerate(NAMES)), {"edition": "en"})
    session = GameSession.start(journal, setup)
    for region, value in enumerate((5, 6, 7, 8, 3)):
        session.do({"type": "reveal", "region": region, "value": value, "balloon": region == 0})
    session.do({"type": "roll", "dice": [2]})
    session.do({"type": "move"})
    session.do({"type": "take_region"})
    assert session.state["tokens"][0] == 4
    with pytest.raises(IllegalAction):
        session.do({"type": "roll", "dice": [1]})  # refused: nothing is written
    journal.close()
    resumed = GameSession(Journal(tmp_path / "journal.sqlite3"), session.game_id)  # as after a crash
    assert resumed.state == session.state
    resumed.undo()
    assert resumed.state["phase"] == "space" and resumed.state["tokens"][0] == 2


def test_assistant_is_fast(benchmark: Any) -> None:
    state = dealt((5, 1, 7, 8, 3))
    help_ = benchmark(assistant, state)
    assert help_["best"] == 3


def test_the_message_line_says_each_thing_once() -> None:
    """#21.9: the log line and what came of it, without saying the same thing twice."""
    state = {"players": ["Ana", "Bob"], "seats": [1, 2]}
    swap = {"type": "swap", "mine": 0, "other": "Bob", "theirs": 1}
    swapped = {**state, "events": [{"event": "swapped", "mine": 0, "seat": 2, "theirs": 1}]}
    assert wording.outcome(swap, swapped) == "swap own card 1 with Bob's card 2"
    reroll = {"type": "reroll", "indices": [2], "values": [6]}
    assert wording.outcome(reroll, {**state, "events": [{"event": "dice_rerolled", "count": 1, "of": 3}]}) == (
        "re-roll: die 3 now shows 6"
    )
    earned = {**state, "events": [{"event": "tokens_earned", "count": 1, "why": "balloon_card"}]}
    assert wording.outcome({"type": "take_region"}, earned) == "take the region's card: +1 re-roll token (balloon card)"
    two = {**state, "events": [{"event": "tokens_earned", "count": 2, "why": "balloon_space"}]}
    assert wording.events_text(two) == ["+2 re-roll tokens (balloon space)"]


def test_not_now_says_what_to_tap() -> None:
    state = dealt()
    state = ENGINE.apply(state, {"type": "roll", "dice": [1]})
    with pytest.raises(IllegalAction, match="not now: Ana taps Move the statue, or taps dice to re-roll"):
        ENGINE.apply(state, {"type": "pass"})
