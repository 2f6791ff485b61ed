"""Lowdown engine: layout loading and validation, settings, line geometry, and legality helpers."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from companion.games import engine as find_engine
from companion.games import lowdown
from companion.games.base import BadSetup, IllegalAction, Player, Setup

ENGINE = lowdown.ENGINE
PLAYERS = (Player("Ana", seat=1), Player("Bo", seat=2), Player("Cy", seat=3))


def new_game(settings: dict[str, Any] | None = None, players: int = 2, seed: int = 1) -> dict[str, Any]:
    return ENGINE.setup(Setup("lowdown", PLAYERS[:players], settings or {}, seed))


# ----------------------------------------------------------------------------------------- layout


def test_registered_and_named() -> None:
    assert find_engine("lowdown") is ENGINE
    assert (ENGINE.name, ENGINE.min_players, ENGINE.max_players) == ("lowdown", 2, 4)


def test_default_layout_is_three_3x3_grids_with_both_square_kinds() -> None:
    layout = lowdown.default_layout()
    assert [g["colours"] for g in layout["grids"]] == [["red", "orange"], ["purple", "blue"], ["green", "yellow"]]
    assert list(layout["colours"]) == ["red", "orange", "purple", "blue", "green", "yellow"]
    assert layout["numbers"] == [1, 2, 3, 4, 5, 6]
    assert layout["wilds"] == 4
    for grid in layout["grids"]:
        squares = [sq for row in grid["rows"] for sq in row]
        assert len(grid["rows"]) == 3 and all(len(r) == 3 for r in grid["rows"])
        assert sum(len(sq) == 1 for sq in squares) == 6
        assert sum(len(sq) == 2 for sq in squares) == 3


def test_eight_lines_per_3x3_grid() -> None:
    layout = lowdown.default_layout()
    lines = lowdown.grid_lines(layout, 0)
    assert len(lines) == 8
    assert [[0, 0, 0], [0, 1, 1], [0, 2, 2]] in lines
    assert [[0, 0, 2], [0, 1, 1], [0, 2, 0]] in lines
    assert len(lowdown.all_lines(layout)) == 24


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "board.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def layout_with(**changes: Any) -> dict[str, Any]:
    base = json.loads(lowdown.DEFAULT_LAYOUT_PATH.read_text(encoding="utf-8"))
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        (layout_with(extra=1), "unknown key(s) extra"),
        (layout_with(schema=2), "schema 2 is not supported"),
        (layout_with(colours={"red": "red"}), 'needs a display colour like "#d64541"'),
        (layout_with(numbers=[]), "'numbers' must be a list"),
        (layout_with(wilds=-1), "'wilds' must be a whole number"),
        (layout_with(grids=[]), "'grids' must be a non-empty list"),
        (
            layout_with(grids=[{"name": "G", "colours": ["red", "pink"], "rows": [["red"] * 3] * 3}]),
            "grid 1 (G): colour 'pink' is not in the layout's colours",
        ),
        (
            layout_with(grids=[{"name": "G", "colours": ["red"], "rows": [["red"] * 3, ["red"] * 2, ["red"] * 3]}]),
            "every row must have the same number of squares",
        ),
        (
            layout_with(grids=[{"name": "G", "colours": ["red"], "rows": [["red"] * 2] * 2}]),
            "at least 3 squares in a row or column",
        ),
        (
            layout_with(grids=[{"name": "G", "colours": ["red", "orange"], "rows": [["red", "red/blue", "red"]] * 3}]),
            "grid 1 (G), row 1, column 2: 'blue' is not one of this grid's colours (red, orange)",
        ),
        (
            layout_with(
                grids=[{"name": "G", "colours": ["red", "orange"], "rows": [["red", "red/red", "orange"]] * 3}]
            ),
            "row 1, column 2: colour repeated in 'red/red'",
        ),
        (
            layout_with(grids=[{"name": "G", "colours": ["red"], "rows": [["red", 5, "red"]] * 3}]),
            "row 1, column 2: a square is written as a colour name",
        ),
        (
            layout_with(
                colours={"red": "#ff0000", "pink": "#ff88aa"}, grids=[{"colours": ["red"], "rows": [["red"] * 3]}]
            ),
            "colour(s) pink are on the colour dice but in no grid",
        ),
    ],
)
def test_bad_layout_files_are_refused_with_the_reason(tmp_path: Path, data: Any, message: str) -> None:
    path = write(tmp_path, data)
    with pytest.raises(BadSetup) as err:
        lowdown.load_layout(path)
    assert message in str(err.value)
    assert str(path) in str(err.value)


def test_missing_layout_file(tmp_path: Path) -> None:
    with pytest.raises(BadSetup, match="cannot read the Lowdown board file"):
        new_game({"layout": str(tmp_path / "nope.json")})


def test_layout_from_file_and_inline(tmp_path: Path) -> None:
    custom = layout_with(name="mine", wilds=2)
    state = new_game({"layout": str(write(tmp_path, custom))})
    assert state["layout"]["name"] == "mine" and state["layout"]["wilds"] == 2
    inline = new_game({"layout": custom})
    assert inline["layout"] == state["layout"]
    with pytest.raises(BadSetup, match="layout setting: unknown key"):
        new_game({"layout": {**custom, "bogus": 1}})


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"edition": "fr"}, "edition must be one of es, en"),
        ({"secret_roller": "up"}, "secret_roller must be"),
        ({"secret_dice": "magic"}, "secret_dice must be"),
        ({"end_grids": 4}, "end_grids must be between 1 and 3"),
        ({"layout": 5}, "the layout setting must be"),
        ({"colour": "x"}, "unknown setting 'colour'"),
    ],
)
def test_bad_settings(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(BadSetup) as err:
        new_game(settings)
    assert message in str(err.value)


def test_player_count() -> None:
    with pytest.raises(BadSetup):
        ENGINE.setup(Setup("lowdown", PLAYERS[:1]))
    five = tuple(Player(f"P{i}", seat=i + 1) for i in range(5))
    with pytest.raises(BadSetup):
        ENGINE.setup(Setup("lowdown", five))


# ----------------------------------------------------------------------------------------- geometry


def test_lines_conflict_geometry() -> None:
    row0 = [[0, 0, 0], [0, 0, 1], [0, 0, 2]]
    row1 = [[0, 1, 0], [0, 1, 1], [0, 1, 2]]
    col0 = [[0, 0, 0], [0, 1, 0], [0, 2, 0]]
    diag = [[0, 0, 0], [0, 1, 1], [0, 2, 2]]
    anti = [[0, 0, 2], [0, 1, 1], [0, 2, 0]]
    assert not lowdown.lines_conflict(row0, row1)
    assert lowdown.lines_conflict(row0, col0)
    assert lowdown.lines_conflict(diag, anti)
    other_grid = [[1, 0, 0], [1, 1, 1], [1, 2, 2]]
    assert not lowdown.lines_conflict(diag, other_grid)
    # Crossing between squares (wider grid): no shared square, but the segments intersect.
    a = [[0, 0, 1], [0, 1, 2], [0, 2, 3]]
    b = [[0, 0, 2], [0, 1, 1], [0, 2, 0]]
    assert lowdown.lines_conflict(a, b)
    # Two parallel diagonals side by side do not cross.
    c = [[0, 0, 0], [0, 1, 1], [0, 2, 2]]
    assert not lowdown.lines_conflict(a, c)


def test_every_diagonal_blocks_every_other_line_of_a_3x3_grid() -> None:
    lines = lowdown.grid_lines(lowdown.default_layout(), 0)
    for diag in lines[6:]:
        assert all(lowdown.lines_conflict(diag, other) for other in lines if other != diag)


# ----------------------------------------------------------------------------------------- flow and helpers


def test_apply_does_not_mutate_and_state_is_json() -> None:
    state = new_game()
    snapshot = copy.deepcopy(state)
    nxt = ENGINE.apply(state, {"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]})
    assert state == snapshot
    assert json.loads(json.dumps(nxt)) == nxt


def test_malformed_actions() -> None:
    state = ENGINE.apply(new_game(), {"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]})
    for action, message in [
        ({"nope": 1}, "must be an object with a 'type'"),
        ({"type": "place", "player": 0, "number": 3, "colour": "red", "square": "a1"}, "[grid, row, column]"),
        ({"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 5, 0]}, "has no square there"),
        ({"type": "place", "player": 0, "number": 3, "colour": "red", "square": [0, 0, 0], "wild": "y"}, "'wild'"),
        ({"type": "place", "player": 0, "number": 3, "square": [0, 0, 0]}, "names a colour die"),
        ({"type": "place", "player": True, "number": 3, "colour": "red", "square": [0, 0, 0]}, "'player' must"),
        ({"type": "cross", "player": 0, "squares": [[0, 0, 0]]}, "exactly three squares"),
        ({"type": "place", "player": 0, "number": True, "colour": "red", "square": [0, 0, 0]}, "'number' must be"),
        ({"type": "place", "player": 0, "number": 3, "colour": ["red"], "square": [0, 0, 0]}, "'colour' must be"),
        ({"type": "secret", "colour": "red", "number": 9}, "secret number die must be one of"),
        ({"type": "secret", "colour": "pink", "number": 1}, "secret colour die must be one of"),
    ]:
        with pytest.raises(IllegalAction) as err:
            ENGINE.apply(state, action)
        assert message in str(err.value), action


def test_legal_placements_narrowing_and_all_accepted() -> None:
    state = ENGINE.apply(new_game(), {"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]})
    red3 = lowdown.legal_placements(state, 0, number=3, colour="red", wild=False)
    # red squares of the default board: (0,0,0) (0,0,1) (0,1,1) (0,1,2) (0,2,0) (0,2,1)
    assert sorted(a["square"] for a in red3) == [[0, 0, 0], [0, 0, 1], [0, 1, 1], [0, 1, 2], [0, 2, 0], [0, 2, 1]]
    wild = lowdown.legal_placements(state, 0, number=5, colour="blue", wild=True)
    assert len(wild) == 27
    assert lowdown.legal_placements(state, 1) == []  # Bo waits for Ana
    every = lowdown.legal_placements(state, 0)
    assert len(every) == 2 * 2 * (6 + 27)  # 2 numbers x 2 colours x (squares of that colour + wild anywhere)
    for action in every:
        ENGINE.apply(state, action)  # none refused


def test_legal_crossings_empty_when_over() -> None:
    state = new_game()
    state["phase"] = "over"
    assert lowdown.legal_crossings(state, 0) == []


def test_scores_and_describe() -> None:
    state = new_game()
    assert ENGINE.scores(state) == {"Ana": 0, "Bo": 0}
    assert ENGINE.describe({"type": "place", "player": 1, "number": 4, "colour": "red", "square": [0, 1, 2]}) == (
        "Player 2 writes 4 (red) in grid 1, row 2, column 3"
    )
    assert "wild colour" in ENGINE.describe(
        {"type": "place", "player": 0, "number": 4, "colour": "red", "wild": True, "square": [0, 1, 2]}
    )
    assert "+6" in ENGINE.describe({"type": "shade", "player": 0, "square": [2, 2, 2]})
    assert ENGINE.describe({"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]}) == "Roll: red blue / 3 5"


def test_virtual_secret_is_deterministic_and_varies_by_turn() -> None:
    layout = lowdown.default_layout()
    first = [lowdown.virtual_secret(11, t, layout) for t in range(1, 30)]
    again = [lowdown.virtual_secret(11, t, layout) for t in range(1, 30)]
    assert first == again
    assert len({(s["colour"], s["number"]) for s in first}) > 5
    assert first != [lowdown.virtual_secret(12, t, layout) for t in range(1, 30)]


def random_game(seed: int, players: int, settings: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """Play a whole game with random legal choices; returns the final state and the number of actions."""
    rng = random.Random(seed)
    state = new_game(settings, players, seed)
    layout = state["layout"]
    count = 0
    while not ENGINE.is_over(state):
        phase = state["phase"]
        if phase == "roll":
            action: dict[str, Any] = {
                "type": "roll",
                "colours": [rng.choice(list(layout["colours"])) for _ in range(2)],
                "numbers": [rng.choice(layout["numbers"]) for _ in range(2)],
            }
        elif phase == "final":
            action = {"type": "finish"}
        else:
            pending = [p for p in range(players) if p not in state["done"]]
            who = state["active"] if phase == "active" else pending[0]
            for line in lowdown.legal_crossings(state, who)[:1]:
                state = ENGINE.apply(state, {"type": "cross", "player": who, "squares": line})
                count += 1
            if state["secret"] is None and (phase == "others" or rng.random() < 0.2):
                action = {"type": "secret"}
                if settings.get("secret_dice") != "virtual":
                    action.update(colour=rng.choice(list(layout["colours"])), number=rng.choice(layout["numbers"]))
            elif lowdown.must_shade(state, who):
                action = {"type": "shade", "player": who, "square": rng.choice(lowdown.free_squares(state, who))}
            else:
                options = lowdown.legal_placements(state, who)
                plain = [a for a in options if not a.get("wild")]
                if not plain and who == state["active"] and not state["looked"]:
                    action = {"type": "secret"}
                    if settings.get("secret_dice") != "virtual":
                        action.update(colour=rng.choice(list(layout["colours"])), number=rng.choice(layout["numbers"]))
                else:
                    action = rng.choice(plain or options)
        state = ENGINE.apply(state, action)
        count += 1
        assert count < 2000
    return state, count


@pytest.mark.parametrize(
    ("seed", "players", "settings"),
    [(1, 2, {}), (2, 3, {"edition": "en"}), (3, 4, {"secret_dice": "virtual"}), (4, 2, {"end_grids": 1})],
)
def test_random_games_end_with_consistent_scores(seed: int, players: int, settings: dict[str, Any]) -> None:
    state, _ = random_game(seed, players, settings)
    assert state["enders"], "the game ended without anybody filling enough grids"
    for p in state["enders"]:
        assert lowdown.filled_grids(state, p) >= state["settings"]["end_grids"]
    scores = ENGINE.scores(state)
    for p, player in enumerate(state["players"]):
        board = state["boards"][p]
        crossed = {tuple(s) for line in board["crossed"] for s in line}
        expected = 0
        for g, grid in enumerate(board["grids"]):
            for r, row in enumerate(grid):
                for c, cell in enumerate(row):
                    if cell and cell.get("shaded"):
                        expected += 6
                    elif cell and (g, r, c) not in crossed:
                        expected += cell["n"]
        assert scores[player["name"]] == expected
        assert board["wilds"] <= 4
        for i, a in enumerate(board["crossed"]):
            assert all(not lowdown.lines_conflict(a, b) for b in board["crossed"][i + 1 :])
    assert scores["winners"] == [
        n for n in scores if n != "winners" and scores[n] == min(v for k, v in scores.items() if k != "winners")
    ]


def test_random_game_speed(benchmark: Any) -> None:
    """Benchmark: one full random 4-player game (legal-move generation on every step)."""
    state, count = benchmark(random_game, 5, 4, {"secret_dice": "virtual"})
    assert ENGINE.is_over(state) and count > 40


# -- #23 item 2: what the screen tells a player, answered by the engine --------------------------------------


def _name(state: dict[str, Any], player: int) -> str:
    return str(state["players"][player]["name"])


def test_write_refusal_follows_the_turn_and_the_picks() -> None:
    state = new_game(players=3)
    assert lowdown.write_refusal(state, 0) == "Enter the dice first"
    assert lowdown.write_refusal(state, 2) == f"It is {_name(state, 0)}'s turn to write"
    state = ENGINE.apply(state, {"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]})
    assert lowdown.write_refusal(state, 0) == "Pick a number die first"
    assert lowdown.write_refusal(state, 0, number=3) == "Pick a colour die first"
    assert lowdown.write_refusal(state, 0, number=3, colour="red") is None
    assert lowdown.write_refusal(state, 0, number=3, colour="red", looking=True) == "Enter the dice first"


def test_stuck_only_for_the_active_player_before_looking() -> None:
    state = new_game()
    full = [[{"n": 1, "wild": False, "turn": 0}] * 3 for _ in range(3)]
    state["boards"][0]["grids"][0] = full
    state = ENGINE.apply(state, {"type": "roll", "colours": ["red", "orange"], "numbers": [3, 5]})
    assert lowdown.stuck(state, 0) and not lowdown.stuck(state, 1)
    assert lowdown.write_refusal(state, 0) == "No open die fits: tap 'Look at the secret pair' first"
    state = ENGINE.apply(state, {"type": "secret", "colour": "purple", "number": 2})
    assert not lowdown.stuck(state, 0)  # looked: the pair is what is used now


def test_still_to_play_taken_text_and_shading_this_turn() -> None:
    state = new_game(players=3)
    assert lowdown.still_to_play(state) == [0]
    assert lowdown.taken_text(state) == ""
    state = ENGINE.apply(state, {"type": "roll", "colours": ["red", "blue"], "numbers": [3, 5]})
    state = ENGINE.apply(state, {"type": "place", "player": 0, "number": 3, "square": [0, 0, 0], "colour": "red"})
    assert lowdown.still_to_play(state) == [1, 2]
    assert lowdown.taken_text(state) == f"{_name(state, 0)} took red + 3."
    assert not lowdown.shaded_this_turn(state, 0)
    state["boards"][1]["grids"][2][0][0] = {"shaded": True, "turn": state["turn"]}
    assert lowdown.shaded_this_turn(state, 1)
    json.dumps([lowdown.still_to_play(state), lowdown.taken_text(state)])


def test_cross_refusal_for_shaded_and_crossed_squares() -> None:
    state = new_game()
    grids = state["boards"][0]["grids"]
    grids[0][0] = [{"n": 3, "wild": False, "turn": 0}] * 3
    grids[0][1][0] = {"shaded": True, "turn": 0}
    assert lowdown.cross_refusal(state, 0, [0, 0, 1]) is None
    assert "shaded" in str(lowdown.cross_refusal(state, 0, (0, 1, 0)))
    state = ENGINE.apply(state, {"type": "cross", "player": 0, "squares": [[0, 0, 0], [0, 0, 1], [0, 0, 2]]})
    assert lowdown.cross_refusal(state, 0, [0, 0, 1]) == "That square is already crossed out"
