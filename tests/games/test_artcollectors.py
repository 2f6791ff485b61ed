"""Art Collectors engine: the contract (registry, settings, JSON state, describe, options), the data file, speed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.games import engine
from companion.games.artcollectors import DATA_PATH, ENGINE, ArtCollectors, load_catalogue, token_name, wording, working
from companion.games.base import BadSetup, IllegalAction, Player, Setup
from companion.journal.replay import load_lines

LOG = Path(__file__).parent / "logs" / "artcollectors-tracked-5p.jsonl"


def start(*names: str, **settings: object) -> dict[str, object]:
    players = tuple(Player(n, seat=i + 1) for i, n in enumerate(names))
    return ENGINE.setup(Setup("artcollectors", players, dict(settings)))


def test_registered_and_described() -> None:
    assert engine("artcollectors") is ENGINE
    assert (ENGINE.min_players, ENGINE.max_players) == (2, 5)
    assert ENGINE.title == "Art Collectors"


def test_data_file_matches_the_rulebook() -> None:
    cat = load_catalogue()
    assert [p.number for p in cat.paintings] == list(range(1, 12))
    assert [p.token_count for p in cat.paintings] == list(range(1, 12))  # painting n has n tokens
    assert sum(p.token_count for p in cat.paintings) == 66
    assert [p.value for p in cat.paintings] == list(range(1, 12))
    assert {p.number: p.points_per_token for p in cat.paintings if p.points_per_token != 1} == {8: 2}
    assert cat.removed == {3: (10,), 4: (10,)}
    assert cat.ladies == (4, 6, 9) and cat.ladies_take == 4
    two = cat.painting(2)
    assert two is not None and {k.ability for k in two.tokens} == {"banker", "cheater"}


def test_bad_data_file_is_a_clear_setup_error(tmp_path: Path) -> None:
    raw = json.loads(DATA_PATH.read_text(encoding="utf-8"))
    raw["paintings"][6]["tokens"][0]["ability"] = "teleport"
    bad = tmp_path / "artcollectors.json"
    bad.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(BadSetup, match="teleport"):
        load_catalogue(bad)
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(BadSetup, match="cannot read"):
        ArtCollectors(load_catalogue(bad))


def test_settings_defaults_and_types() -> None:
    assert ENGINE.default_settings() == {
        "tracker": False,
        "full_game": True,
        "angel_guards_banker": True,
        "black_cat_painting": 0,
        "steal_hints": False,
        "first_player": 0,
        "catalogue": None,
    }
    with pytest.raises(BadSetup, match="must be bool"):
        start("Ana", "Bo", tracker="yes")


def test_state_is_plain_json_and_apply_is_pure() -> None:
    state = start("Ana", "Bo", "Cy", tracker=True)
    assert json.loads(json.dumps(state)) == state
    before = json.dumps(state, sort_keys=True)
    ENGINE.apply(state, {"type": "draw", "token": "7"})
    assert json.dumps(state, sort_keys=True) == before


def test_unknown_and_malformed_actions() -> None:
    state = start("Ana", "Bo")
    with pytest.raises(IllegalAction, match="unknown action 'shuffle'"):
        ENGINE.apply(state, {"type": "shuffle"})
    with pytest.raises(IllegalAction, match="must be an object"):
        ENGINE.apply(state, {"kind": "draw"})
    with pytest.raises(IllegalAction, match="'counts' must map"):
        ENGINE.apply(state, {"type": "set_counts", "player": 0, "counts": [1, 2]})


def test_describe_every_action_type() -> None:
    examples = {
        "draw": {"type": "draw", "token": "7", "black_cat": True},
        "steal": {"type": "steal", "from": 1},
        "exchange": {"type": "exchange", "with": 2},
        "take": {"type": "take", "from": 0},
        "robin": {"type": "robin", "target": 1, "deal": [{"to": 0, "count": 3}]},
        "stop": {"type": "stop"},
        "set_count": {"type": "set_count", "player": 0, "painting": 7, "count": 3},
        "set_counts": {"type": "set_counts", "player": 0, "counts": {"7": 3}},
        "set_black_cat": {"type": "set_black_cat", "player": None},
        "finish": {"type": "finish"},
        "end_tracking": {"type": "end_tracking"},
    }
    assert sorted(examples) == sorted(ENGINE.move_types())
    lines = {kind: ENGINE.describe(action) for kind, action in examples.items()}
    assert lines["draw"] == "Draw 7 (black cat)"
    assert lines["set_black_cat"] == "Nobody holds the black cat"
    assert all(line and line != kind for kind, line in lines.items())


def test_options_follow_the_turn() -> None:
    state = start("Ana", "Bo", "Cy", tracker=True)
    opts = ENGINE.options(state)
    assert opts["stop"] is False and len(opts["draw"]) == 11  # 1, 2B, 2C, 3..9, 11
    for action in ({"type": "draw", "token": "7"}, {"type": "stop"}, {"type": "draw", "token": "7"}):
        state = ENGINE.apply(state, action)
    opts = ENGINE.options(state)
    assert opts["steal"] == [0] and opts["stop"] is True and opts["exchange"] == []
    assert ENGINE.options(start("Ana", "Bo")) == {
        "draw": [],
        "steal": [],
        "exchange": [],
        "take": [],
        "robin": [],
        "stop": False,
    }


def test_working_before_the_end_uses_the_piles() -> None:
    state = start("Ana", "Bo", tracker=True)
    for action in ({"type": "draw", "token": "8"}, {"type": "draw", "token": "5"}, {"type": "stop"}):
        state = ENGINE.apply(state, action)
    assert ENGINE.scores(state) == {"Ana": 3 + 8 + 5, "Bo": 0}
    rows = {row["painting"]: row for row in working(state)["paintings"]}
    assert rows[8]["winner"] == 0 and rows[8]["counts"] == [1, 0]
    assert token_name(state, "2B*") == "2B (the banker) with the black cat"


def test_replaying_a_full_tracked_game_is_fast(benchmark: object) -> None:
    setup, actions = load_lines(LOG.read_text(encoding="utf-8").splitlines())

    def run() -> dict[str, object]:
        state = ENGINE.setup(setup)
        for action in actions:
            state = ENGINE.apply(state, action)
        return state

    state = benchmark(run)  # type: ignore[operator]
    assert ENGINE.is_over(state)


def test_an_empty_bag_allows_only_stopping() -> None:
    setup, actions = load_lines(LOG.read_text(encoding="utf-8").splitlines())
    state = ENGINE.setup(setup)
    for action in actions[:-1]:
        state = ENGINE.apply(state, action)
    assert actions[-1]["type"] == "stop" and sum(state["bag"].values()) == 0
    assert not ENGINE.is_over(state)
    with pytest.raises(IllegalAction, match="the bag is empty"):
        ENGINE.apply(state, {"type": "draw", "token": "7"})
    assert ENGINE.options(state)["draw"] == [] and ENGINE.options(state)["stop"] is True
    over = ENGINE.apply(state, actions[-1])
    assert ENGINE.is_over(over) and over["events"][-1] == {"event": "bag_empty"}
    assert wording.events_line(over).endswith("the bag is empty: game over")
    with pytest.raises(IllegalAction, match="the game is over"):
        ENGINE.apply(over, {"type": "stop"})


# -- #23 item 2: the screen's questions, answered by the engine ----------------------------------------------


def test_uncounted_lists_only_the_paintings_short_of_their_tokens() -> None:
    from companion.games.artcollectors import uncounted

    state = start("Ana", "Bo")
    assert list(uncounted(state)) == list(state["paintings"])  # nothing counted yet: every painting, in order
    state = ENGINE.apply(state, {"type": "set_counts", "player": 0, "counts": {"1": 1, "2": 1}})
    state = ENGINE.apply(state, {"type": "set_counts", "player": 1, "counts": {"2": 1}})
    missing = uncounted(state)
    assert "1" not in missing and "2" not in missing
    assert missing["3"] == 3
    json.dumps(missing)  # plain data


def test_uncounted_text_names_four_paintings_and_how_many_more() -> None:
    assert wording.uncounted_text({"8": 3}) == "Not counted yet: 3 of painting 8. Tap Score again to score anyway"
    text = wording.uncounted_text({str(k): 1 for k in range(1, 7)})
    assert "1 of painting 4 and 2 more." in text
    assert "painting 5" not in text


def test_steal_run_is_zero_where_no_steal_is_legal() -> None:
    from companion.games.artcollectors import steal_run

    state = start("Ana", "Bo", "Cy", tracker=True)
    for action in (
        {"type": "draw", "token": "6"},
        {"type": "draw", "token": "2C"},  # the cheater: one duplicate does not bust
        {"type": "draw", "token": "7"},
        {"type": "draw", "token": "7"},
        {"type": "stop", "order": ["6", "2C", "7", "7"]},
    ):
        state = ENGINE.apply(state, action)
    assert [steal_run(state, seat) for seat in range(3)] == [0, 0, 0]  # Bo has not drawn yet
    state = ENGINE.apply(state, {"type": "draw", "token": "7"})
    assert [steal_run(state, seat) for seat in range(3)] == [2, 0, 0]
    taken = ENGINE.apply(state, {"type": "steal", "from": 0, "count": steal_run(state, 0)})
    assert taken["piles"][0] == ["6", "2C"]
