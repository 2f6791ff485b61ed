"""Complete Art Collectors games as exported JSON lines, replayed to their final state and scores.

Tracked games (``artcollectors-tracked-*.jsonl``) carry a sidecar with the final piles and scores; the test also
re-scores the final piles with a small independent counter and checks that no token was lost or invented. The
final-count games' scores were worked out by hand (see the comments).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.games.artcollectors import ENGINE
from companion.journal.replay import load_lines, replay, replay_file

LOGS = Path(__file__).parent / "logs"
TRACKED = sorted(LOGS.glob("artcollectors-tracked-*.jsonl"))

# Hand-worked: 4 players, black cat Di. Ties on 2, 3, 5, 9 and 11 all go to Di (2+3+5+9+11 = 30 + 9 token points);
# Ana wins 1, 4, 7 (12 + 17 tokens + 2 for her twins); Bo wins 6 and 8 (14 + 19 + 3); Cy wins nothing (13 + 1).
COUNTED: dict[str, dict[str, Any]] = {
    "artcollectors-count-4p.jsonl": {
        "scores": {"Ana": 31, "Bo": 36, "Cy": 14, "Di": 39, "winners": ["Di"]},
        "winners": {"1": 0, "2": 3, "3": 3, "4": 0, "5": 3, "6": 1, "7": 0, "8": 1, "9": 3, "11": 3},
    },
    # 2 players keep painting 10; Ana holds the black cat and takes every tie (2, 4, 6, 8, 10).
    "artcollectors-count-2p.jsonl": {
        "scores": {"Ana": 86, "Bo": 54, "winners": ["Ana"]},
        "winners": {"1": 0, "2": 0, "3": 0, "4": 0, "5": 0, "6": 0, "7": 1, "8": 0, "9": 0, "10": 0, "11": 1},
    },
}


def independent_scores(state: dict[str, Any]) -> dict[str, int]:
    """Majorities, black-cat ties, twins double: counted straight from the piles, not with the engine's tally."""
    names = state["players"]
    per = [Counter(int(code.rstrip("*").rstrip("BC")) for code in pile) for pile in state["piles"]]
    cat = next((i for i, pile in enumerate(state["piles"]) if any(c.endswith("*") for c in pile)), None)
    totals = [sum(n * (2 if p == 8 else 1) for p, n in c.items()) for c in per]
    for key in state["order"]:
        painting = int(key)
        counts = [c[painting] for c in per]
        best = max(counts)
        if best == 0:
            continue
        leaders = [i for i, n in enumerate(counts) if n == best]
        winner = leaders[0] if len(leaders) == 1 else cat
        if winner is not None:
            totals[winner] += painting
    return dict(zip(names, totals, strict=True))


def test_logs_exist() -> None:
    assert len(TRACKED) >= 3
    assert all((LOGS / name).exists() for name in COUNTED)


@pytest.mark.parametrize("path", TRACKED, ids=[p.stem for p in TRACKED])
def test_tracked_game_replays(path: Path) -> None:
    setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines(), source=path.name)
    state = replay(setup, actions, source=path.name)
    expected = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
    assert ENGINE.is_over(state)
    assert state["piles"] == expected["piles"]
    assert ENGINE.scores(state) == expected["scores"]
    winners = {str(row["painting"]): row["winner"] for row in state["result"]["paintings"]}
    assert winners == expected["painting_winners"]
    # Nothing lost, nothing invented: every token in play ends on a pile, exactly one black cat.
    assert sum(state["bag"].values()) == 0
    in_play = sum(int(state["paintings"][k]["tokens"]) for k in state["order"])
    assert sum(len(p) for p in state["piles"]) == in_play
    assert sum(code.endswith("*") for pile in state["piles"] for code in pile) == 1
    scores = ENGINE.scores(state)
    assert {name: scores[name] for name in state["players"]} == independent_scores(state)


@pytest.mark.parametrize("name", sorted(COUNTED))
def test_counted_game_replays(name: str) -> None:
    result = replay_file(str(LOGS / name))
    assert result["game"] == "artcollectors"
    assert result["over"] is True
    assert result["scores"] == COUNTED[name]["scores"]
    rows = result["state"]["result"]["paintings"]
    assert {str(row["painting"]): row["winner"] for row in rows} == COUNTED[name]["winners"]
    assert all(row["total"] == row["tokens"] for row in rows), "every token of the game was counted"


def test_replay_command_prints_scores(capsys: pytest.CaptureFixture[str]) -> None:
    from companion.cli import build_parser

    args = build_parser().parse_args(["replay", str(LOGS / "artcollectors-count-4p.jsonl")])
    assert args.func(args) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["scores"]["winners"] == ["Di"]


def test_journaled_game_with_undo_exports_and_replays(tmp_path: Path) -> None:
    from companion.games.base import Player, Setup
    from companion.journal import GameSession, Journal
    from companion.journal.export import export_game

    journal = Journal(tmp_path / "journal.sqlite3")
    players = (Player("Ana", seat=1), Player("Bo", seat=2), Player("Cy", seat=3))
    session = GameSession.start(journal, Setup("artcollectors", players, {"tracker": True}))
    for action in (
        {"type": "draw", "token": "7"},
        {"type": "draw", "token": "5"},
        {"type": "stop", "order": ["5", "7"]},
        {"type": "draw", "token": "7"},
        {"type": "steal", "from": 0},
        {"type": "draw", "token": "4"},
    ):
        session.do(action)
    assert session.undo() == {"type": "draw", "token": "4"}
    session.do({"type": "stop"})
    resumed = GameSession(journal, session.game_id)
    assert resumed.state == session.state
    assert resumed.state["piles"] == [["5"], ["7", "7"], []]
    path = export_game(journal, session.game_id, tmp_path / "out" / "artcollectors-export.jsonl")
    result = replay_file(str(path))
    assert result["state"] == session.state and result["over"] is False
    assert result["scores"] == {"Ana": 1 + 5, "Bo": 2 + 7, "Cy": 0}
    journal.close()
