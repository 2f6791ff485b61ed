"""Results derived from real journals of the scripted example games of all four games (tests/games/logs)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from logplay import logs, play_log

from companion.history import ABANDONED, DAMAGED, FINISHED, IN_PROGRESS, History
from companion.history.results import derive, play_uid, ranks, timeline
from companion.journal import Journal, load_lines
from companion.journal.export import export_game

ALL_LOGS = [p for game in ("ratuki", "ratatat", "lowdown", "artcollectors") for p in logs(game)]


def expected_scores(path: Path) -> dict[str, Any] | None:
    sidecar = path.with_suffix("").with_suffix(".expected.json")
    if not sidecar.exists():
        return None
    data = json.loads(sidecar.read_text(encoding="utf-8"))
    if "scores" in data:
        return dict(data["scores"])
    return {**data["totals"], "winners": data["winners"]}  # Ratuki's sidecar


def test_every_game_has_example_logs() -> None:
    assert {p.name.split("-")[0] for p in ALL_LOGS} == {"ratuki", "ratatat", "lowdown", "artcollectors"}


@pytest.mark.parametrize("path", ALL_LOGS, ids=[p.stem for p in ALL_LOGS])
def test_a_finished_journal_game_is_a_play_with_the_engines_result(
    path: Path, journal: Journal, history: History
) -> None:
    session = play_log(journal, path)
    assert session.over
    history.refresh()
    [play] = history.plays()
    record = journal.game(session.game_id)
    assert (play.status, play.game, play.journal_id, play.actions) == (FINISHED, record.game, record.id, record.actions)
    assert play.started == record.created
    assert play.ended == journal.action_times(record.id)[-1] > play.started
    assert [(p.seat, p.name, p.colour) for p in play.players] == [
        (p.seat, p.name, p.colour) for p in sorted(record.setup.players, key=lambda p: p.seat)
    ]
    scores = session.scores()
    assert {p.name: p.score for p in play.players} == {k: v for k, v in scores.items() if k != "winners"}
    assert sorted(p.name for p in play.winners) == sorted(scores["winners"])
    assert all(p.rank == 1 for p in play.winners) and all(p.rank > 1 for p in play.players if not p.winner)
    sidecar = expected_scores(path)
    if sidecar is not None:  # the scripted game's own bookkeeping agrees
        assert {p.name: p.score for p in play.players} == {k: v for k, v in sidecar.items() if k != "winners"}
        assert sorted(p.name for p in play.winners) == sorted(sidecar["winners"])
    # Everyone who played is a person now, linked to their seat.
    who = history.who(play)
    assert {seat: person.name for seat, person in who.items()} == {p.seat: p.name for p in play.players}


@pytest.mark.parametrize("path", ALL_LOGS, ids=[p.stem for p in ALL_LOGS])
def test_an_exported_game_replayed_gives_the_same_result(path: Path, journal: Journal, history: History) -> None:
    session = play_log(journal, path)
    history.refresh()
    [play] = history.plays()
    out = export_game(journal, session.game_id, journal.path.with_name("game.jsonl"))
    with out.open(encoding="utf-8") as fh:
        setup, actions = load_lines(fh)
    again = derive(setup, actions, created=play.started, times=journal.action_times(session.game_id))
    assert again.to_json() == {**play.to_json(), "journal_id": None}


def test_undo_before_the_end_changes_the_result_and_redo_restores_it(journal: Journal, history: History) -> None:
    path = logs("lowdown")[0]
    session = play_log(journal, path)
    history.refresh()
    [before] = history.plays()
    session.undo()  # the last "finish": the game is not over any more
    history.refresh()
    assert history.plays() == []
    [open_play] = history.plays(statuses=[IN_PROGRESS])
    assert open_play.uid == before.uid and open_play.winners == []
    session.redo()
    history.refresh()
    [after] = history.plays()
    assert after.players == before.players


def test_undo_of_the_last_score_changes_who_won(journal: Journal, history: History) -> None:
    """Ratuki: the last score entry taken back and entered again differently: the play follows the journal."""
    path = next(p for p in logs("ratuki") if "target-100" in p.name)
    session = play_log(journal, path)
    history.refresh()
    [first] = history.plays()
    assert [p.name for p in first.winners] == ["Bo"]
    last = dict(session.actions[-1])
    assert last["type"] == "score"
    session.undo()
    # The last entry re-entered with a smaller score pile: that seat's total drops by as much.
    drop = min(10, last["score_pile"])
    assert drop > 0
    session.do({**last, "score_pile": last["score_pile"] - drop})
    history.refresh()
    plays = history.plays() or history.plays(statuses=[IN_PROGRESS])  # below the target: the game goes on
    [again] = plays
    assert again.uid == first.uid
    changed = {p.seat: p.score for p in again.players}
    before = {p.seat: p.score for p in first.players}
    assert changed[last["seat"]] == before[last["seat"]] - drop  # type: ignore[operator]
    assert {p.name: p.score for p in again.players} == {k: v for k, v in session.scores().items() if k != "winners"}
    assert sorted(p.name for p in again.winners) == sorted(session.scores().get("winners", []))


def test_abandoned_and_damaged_games_are_kept_apart(journal: Journal, history: History) -> None:
    stopped = play_log(journal, logs("ratatat")[0], upto=12)
    journal.abandon(stopped.game_id)
    open_game = play_log(journal, logs("lowdown")[0], upto=5)
    broken = play_log(journal, logs("ratuki")[0], upto=3)
    journal.append(broken.game_id, {"type": "score", "seat": 9})  # a row no engine accepts (a damaged journal)
    report = history.refresh()
    assert history.plays() == []
    assert [p.journal_id for p in history.plays(statuses=[ABANDONED])] == [stopped.game_id]
    assert [p.journal_id for p in history.plays(statuses=[IN_PROGRESS])] == [open_game.game_id]
    [damaged] = history.plays(statuses=[DAMAGED])
    assert damaged.journal_id == broken.game_id and "action 4" in str(damaged.problem)
    assert any("action 4" in line for line in report.problems)


def test_refresh_replays_only_games_that_changed(journal: Journal, history: History) -> None:
    a = play_log(journal, logs("ratatat")[0])
    play_log(journal, logs("lowdown")[0])
    assert history.refresh().derived == 2
    assert history.refresh().derived == 0
    a.undo()
    assert history.refresh().derived == 1


def test_ranks_read_lowest_wins_games_the_right_way() -> None:
    assert ranks({1: 10, 2: 30, 3: 20}, [1], lowest_wins=True) == {1: 1, 2: 3, 3: 2}
    assert ranks({1: 10, 2: 30, 3: 20}, [2], lowest_wins=False) == {1: 3, 2: 1, 3: 2}
    assert ranks({1: 10, 2: 10, 3: 20}, [1, 2], lowest_wins=True) == {1: 1, 2: 1, 3: 3}


def test_ratuki_margins_ties_and_rounds_match_the_calls_in_the_log(journal: Journal, history: History) -> None:
    for path in logs("ratuki"):
        play_log(journal, path)
    history.refresh()
    for play in history.plays():
        record = history.game_record(play)
        assert record is not None
        actions = journal.actions(record.id)
        margins: dict[str, list[float]] = {}
        ties: dict[str, int] = {}
        tie_calls = 0
        calls = [a for a in actions if a["type"] == "call"]
        claimed = all(a.get("verdict") for a in calls)  # the hand-made log has bare presses
        for action in actions:
            claim = action.get("verdict") if action["type"] == "call" else None
            if not claim:
                continue
            if claim["kind"] == "take" and "margin_ms" in claim:
                margins.setdefault(claim["names"][0], []).append(claim["margin_ms"])
            if claim["kind"] == "tie":
                tie_calls += 1
                for name in claim["names"]:
                    ties[name] = ties.get(name, 0) + 1
        for seat in play.players:
            if seat.name in margins:
                want = sum(margins[seat.name]) / len(margins[seat.name])
                assert seat.stats["margin_ms"] == pytest.approx(want, abs=0.05)
            if claimed:
                assert seat.stats["ties"] == ties.get(seat.name, 0)
        path = next(p for p in logs("ratuki") if expected_scores(p) and _same_setup(p, record))
        sidecar = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
        if "calls" in sidecar:
            assert not claimed or tie_calls == sidecar["calls"]["tie"]
            assert sum(p.stats["ties"] for p in play.players) >= 2 * sidecar["calls"]["tie"]  # two or more a tie
            assert sum(p.stats["stacks"] for p in play.players) == sidecar["calls"]["take"]
        # Chart data: the points of every round, which add up to the final totals.
        rounds = play.series["rounds"]
        assert rounds == [{str(k): v for k, v in _by_seat(play, r).items()} for r in sidecar.get("rounds", rounds)]
        for seat in play.players:
            assert sum(r[str(seat.seat)] for r in rounds) == seat.score


def _by_seat(play: Any, by_name: dict[str, int]) -> dict[int, int]:
    seats = {p.name: p.seat for p in play.players}
    return {seats[name]: value for name, value in by_name.items()} if set(by_name) <= set(seats) else by_name


def _same_setup(path: Path, record: Any) -> bool:
    with path.open(encoding="utf-8") as fh:
        setup, _ = load_lines(fh)
    return bool(setup == record.setup)


def test_ratatat_tokens_used_are_the_rerolls_of_each_player(journal: Journal, history: History) -> None:
    for path in logs("ratatat"):
        play_log(journal, path)
    history.refresh()
    plays = history.plays()
    assert len(plays) == len(logs("ratatat"))
    for play in plays:
        record = history.game_record(play)
        assert record is not None
        rerolls = sum(1 for a in journal.actions(record.id) if a["type"] == "reroll")
        used = [p.stats["tokens_used"] for p in play.players]
        assert sum(used) == rerolls > 0
        assert all(u >= 0 for u in used)


def test_ratatat_tokens_go_to_the_player_whose_turn_it_is(journal: Journal, history: History) -> None:
    """A game ends early: the re-rolls so far, by the engine's turn order at each re-roll."""
    from companion.games import engine as find_engine

    path = logs("ratatat")[1]
    with path.open(encoding="utf-8") as fh:
        setup, actions = load_lines(fh)
    game = find_engine("ratatat")
    state = game.setup(setup)
    by_name: dict[str, int] = {p.name: 0 for p in setup.players}
    for action in actions:
        if action["type"] == "reroll":
            by_name[state["players"][state["current"]]] += 1
        state = game.apply(state, action)
    play_log(journal, path)
    history.refresh()
    [play] = history.plays()
    assert {p.name: p.stats["tokens_used"] for p in play.players} == by_name


def test_lowdown_lines_crossed_and_breakdown_add_up_to_the_score(journal: Journal, history: History) -> None:
    for path in logs("lowdown"):
        play_log(journal, path)
    history.refresh()
    for play in history.plays():
        record = history.game_record(play)
        assert record is not None
        path = next(p for p in logs("lowdown") if _same_setup(p, record))
        sidecar = json.loads(path.with_suffix("").with_suffix(".expected.json").read_text(encoding="utf-8"))
        for seat in play.players:
            board = sidecar["boards"][seat.name]
            assert seat.stats["lines_crossed"] == len(board["crossed"])
            parts = play.series["breakdown"][str(seat.seat)]
            assert sum(parts["kept"]) + parts["shaded"] * play.series["shaded_points"] == seat.score
            assert parts["lines"] == len(board["crossed"])
        assert len(play.series["grids"]) == 3


def test_the_timeline_words_every_action_with_its_time(journal: Journal, history: History) -> None:
    session = play_log(journal, logs("lowdown")[0])
    session.do({"type": "note.dice_correction", "die": 2, "read": 5, "face": 6})
    history.refresh()
    [play] = history.plays()
    moments = history.timeline(play)
    assert moments is not None and len(moments) == len(session.actions)
    times = journal.action_times(session.game_id)
    assert [m.at for m in moments] == times
    assert [m.number for m in moments] == list(range(1, len(times) + 1))
    assert moments[0].text.startswith("Roll:")
    assert any("writes" in m.text and m.text.startswith(("Ana", "Bo")) for m in moments)
    assert moments[-1].text == "Die 2 corrected: 5 → 6"
    # The same words without a journal file: from the setup and the actions alone.
    again = timeline(journal.game(session.game_id).setup, session.actions)
    assert [m.text for m in again] == [m.text for m in moments]


def test_the_play_id_is_the_same_on_every_install(journal: Journal) -> None:
    session = play_log(journal, logs("ratuki")[0], upto=1)
    record = journal.game(session.game_id)
    assert play_uid(record.setup, record.created) == play_uid(record.setup, float(f"{record.created:.6f}"))
    other = journal.new_game(record.setup)
    assert play_uid(record.setup, journal.game(other).created) != play_uid(record.setup, record.created)


def test_a_move_that_cannot_be_read_makes_a_damaged_play(journal: Journal, history: History) -> None:
    import sqlite3

    session = play_log(journal, logs("ratatat")[0], upto=5)
    good = play_log(journal, logs("lowdown")[0])
    db = sqlite3.connect(journal.path)
    db.execute("UPDATE actions SET action = '{not json' WHERE game_id = ? AND seq = 3", (session.game_id,))
    db.commit()
    db.close()
    report = history.refresh()
    [damaged] = history.plays(statuses=[DAMAGED])
    assert damaged.journal_id == session.game_id and [p.name for p in damaged.players]
    assert [p.journal_id for p in history.plays()] == [good.game_id]
    assert report.problems


def test_edition_and_options_are_the_ones_the_game_was_played_with() -> None:
    """A game recorded without an option (a script's, an older app's) played it at the engine's default: the
    play says so, edition included, as it does for a game the setup screen recorded with every option."""
    from companion.games import engine

    editions = set()
    for path in ALL_LOGS:
        with path.open(encoding="utf-8") as fh:
            setup, actions = load_lines(fh)
        play = derive(setup, actions, created=1_700_000_000.0)
        played = {**engine(play.game).default_settings(), **setup.settings}
        assert play.options == {k: v for k, v in played.items() if v is None or isinstance(v, str | int | float)}
        assert play.edition is not None
        editions.add((play.game, play.edition))
        if play.game == "ratatat" and not setup.settings:
            assert (play.edition, play.options["edition"]) == ("ko", "ko")  # the engine's default edition
    assert {("ratatat", "ko"), ("ratatat", "en"), ("lowdown", "es"), ("lowdown", "en")} <= editions
    assert {("ratuki", "es"), ("ratuki", "hasbro"), ("artcollectors", "full"), ("artcollectors", "basic")} <= editions
