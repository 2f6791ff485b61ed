"""Players as persons kept across games: names in any script, recent first, rename and merge keep the history;
statistics per game and player."""

from __future__ import annotations

import itertools
import unicodedata
from pathlib import Path

import pytest
from logplay import logs, play_log

from companion.games.base import Player, Setup
from companion.history import History, HistoryError, HistoryStore
from companion.history.stats import player_stats, ranked, results_over_time
from companion.journal import GameSession, Journal


def ratuki_setup(names: list[str], seed: int) -> Setup:
    """A Ratuki game to 100 points (the rules' lowest target) for ``names`` at seats 1, 2, ..."""
    players = tuple(
        Player(n, ["#e53935", "#1e88e5", "#fdd835", "#fb8c00", "#43a047"][i], i + 1) for i, n in enumerate(names)
    )
    return Setup("ratuki", players, {"target": 100}, seed=seed)


def play_rounds(session: GameSession, points: list[int]) -> None:
    """Rounds until ``points[i]`` is seat i+1's total: at most 30 points a seat a round (a score pile that fits
    in the decks, nobody with cards left), shared evenly so that only the last round reaches the target."""
    assert 100 <= max(points) <= 120, "one seat ends at 100-120 points: the last round, and only it, reaches 100"
    rounds = -(-max(points) // 30)
    for r in range(rounds):
        session.do({"type": "start", "tick": 100.0 * r + 1})
        session.do({"type": "stop", "tick": 100.0 * r + 60, "reason": "other"})
        for seat, total in enumerate(points, start=1):
            share = total // rounds + (1 if r >= rounds - total % rounds else 0)  # the odd points in the last rounds
            session.do({"type": "score", "seat": seat, "score_pile": share, "left": 0})
    assert session.engine.is_over(session.state), "the game ends at the target"


def ratuki_game(journal: Journal, names: list[str], points: list[int]) -> GameSession:
    """A finished Ratuki game to 100 points: ``points[i]`` is seat i+1's final total."""
    session = GameSession.start(journal, ratuki_setup(names, seed=len(journal.games())))
    play_rounds(session, points)
    return session


def test_names_in_any_script_are_one_person_however_typed(history: History) -> None:
    store = history.store
    hangul = store.add_person("민지", "#e53935")
    decomposed = unicodedata.normalize("NFD", "민지")
    assert decomposed != "민지" and store.find(decomposed) == hangul
    ines = store.add_person("Inés", "#1e88e5")
    assert store.find("  INÉS ") == ines
    assert store.find(unicodedata.normalize("NFD", "inés")) == ines
    with pytest.raises(HistoryError, match="already a player"):
        store.add_person("ines".replace("e", "é"), "#000000")
    assert hangul.avatar == "민" and ines.avatar == "I"
    assert store.update_person(ines.uid, initial="ÍN").avatar == "ÍN"


def test_everyone_who_played_is_a_person_and_the_latest_come_first(journal: Journal, history: History) -> None:
    ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    ratuki_game(journal, ["Cai", "민지"], [4, 111])
    history.refresh()
    names = [p.name for p in history.recent()]
    assert set(names[:2]) == {"Cai", "민지"} and set(names[2:]) == {"Ana", "Bo"}
    assert history.person_named("민지") is not None


def test_a_game_started_with_chosen_players_is_theirs_whatever_its_names(journal: Journal, history: History) -> None:
    ana = history.store.add_person("Ana", "#e53935")
    setup = Setup("ratuki", (Player("Annie", "#43a047", 1), Player("Bo", "#1e88e5", 2)), {"target": 100}, seed=5)
    session = GameSession.start(journal, setup)
    history.started(setup, session.game_id, {1: ana.uid})
    play_rounds(session, [112, 2])
    history.refresh()
    [play] = history.plays()
    who = history.who(play)
    assert who[1].uid == ana.uid and who[2].name == "Bo"
    assert history.store.person(ana.uid).colour == "#43a047"  # type: ignore[union-attr]  # the colour played in
    assert history.recent()[0].uid in {ana.uid, who[2].uid}


def test_rename_keeps_the_history_and_the_old_name_still_leads_to_them(journal: Journal, history: History) -> None:
    ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    history.refresh()
    ana = history.person_named("Ana")
    assert ana is not None
    renamed = history.store.update_person(ana.uid, name="Ana María")
    assert renamed.uid == ana.uid and renamed.name == "Ana María"
    ratuki_game(journal, ["Ana", "Bo"], [2, 113])  # typed with the old name: still her
    history.refresh()
    stats = player_stats(history.plays(), history.store.all_links(), game="ratuki")
    assert (stats[ana.uid].plays, stats[ana.uid].wins) == (2, 1)
    assert [p.name for p in history.store.persons()].count("Ana") == 0
    bo = history.person_named("Bo")
    assert bo is not None
    with pytest.raises(HistoryError, match="merge"):
        history.store.update_person(bo.uid, name="ana maría")


def test_merge_two_players_without_losing_either_history(journal: Journal, history: History) -> None:
    ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    ratuki_game(journal, ["Anna", "Cai"], [111, 3])
    ratuki_game(journal, ["Anna", "Bo"], [1, 111])
    history.refresh()
    ana, anna = history.person_named("Ana"), history.person_named("Anna")
    assert ana is not None and anna is not None
    merged = history.store.merge(anna.uid, ana.uid)
    assert merged.uid == ana.uid and history.store.person(anna.uid) is None
    assert history.person_named("Anna") == merged  # the merged-away name leads to them from now on
    stats = player_stats(history.plays(), history.store.all_links(), game="ratuki")
    assert (stats[ana.uid].plays, stats[ana.uid].wins) == (3, 2)
    assert len(history.plays(person=ana.uid)) == 3
    bo = history.person_named("Bo")
    assert bo is not None
    with pytest.raises(HistoryError, match="same game"):
        history.store.merge(bo.uid, ana.uid)


def test_stats_read_lowest_wins_games_the_right_way(journal: Journal, history: History) -> None:
    for path in logs("ratatat"):  # lowest total wins
        play_log(journal, path)
    history.refresh()
    plays = history.plays(game="ratatat")
    links = history.store.all_links()
    stats = player_stats(plays, links, game="ratatat")
    for person, line in stats.items():
        mine = [p.seat(s) for p in plays for s, who in links[p.uid].items() if who == person]
        scores = [m.score for m in mine if m is not None and m.score is not None]
        assert line.plays == len(mine) and line.best == min(scores)
        assert line.average == pytest.approx(sum(scores) / len(scores))
        assert line.wins == sum(1 for m in mine if m is not None and m.winner)
        assert line.win_rate == pytest.approx(line.wins / line.plays)
        assert line.extras["tokens_used"] == sum(m.stats["tokens_used"] for m in mine if m is not None)
    board = ranked(stats)
    assert [s.wins for s in board] == sorted((s.wins for s in board), reverse=True)
    # Equal on wins, win rate and plays: the lower average (the better one here) first.
    pairs = list(itertools.pairwise(board))
    for a, b in pairs:
        if (a.wins, a.win_rate, a.plays) == (b.wins, b.win_rate, b.plays):
            assert a.average is not None and b.average is not None and a.average <= b.average
    assert any((a.wins, a.plays) == (b.wins, b.plays) and a.average != b.average for a, b in pairs)


def test_stats_highest_wins_and_over_all_games(journal: Journal, history: History) -> None:
    ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    ratuki_game(journal, ["Ana", "Bo"], [115, 2])
    for path in logs("lowdown"):
        play_log(journal, path)
    history.refresh()
    links = history.store.all_links()
    ana = history.person_named("Ana")
    assert ana is not None
    ratuki = player_stats(history.plays(), links, game="ratuki")[ana.uid]
    assert (ratuki.best, ratuki.average, ratuki.wins) == (115, 113.5, 2)
    overall = player_stats(history.plays(), links)[ana.uid]
    assert overall.plays == 2 + sum(1 for p in history.plays(game="lowdown") if "Ana" in {s.name for s in p.players})
    assert overall.best is None  # scores of different games are not compared
    lowdown = player_stats(history.plays(), links, game="lowdown")
    assert all("lines_crossed" in s.extras for s in lowdown.values())
    over_time = results_over_time(history.plays(), links, ana.uid, "ratuki")
    assert [score for _p, score, _won in over_time] == [112, 115]


def test_filters_by_game_and_player(journal: Journal, history: History) -> None:
    ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    ratuki_game(journal, ["Cai", "Bo"], [112, 3])
    play_log(journal, logs("lowdown")[0])
    history.refresh()
    cai = history.person_named("Cai")
    assert cai is not None
    assert len(history.plays()) == 3
    assert [p.game for p in history.plays(game="ratuki")] == ["ratuki", "ratuki"]
    assert [p.players[0].name for p in history.plays(person=cai.uid)] == ["Cai"]
    started = [p.started for p in history.plays()]
    assert started == sorted(started, reverse=True)


def test_delete_a_play_keeps_its_journal_game_unless_asked(journal: Journal, history: History) -> None:
    a = ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    b = ratuki_game(journal, ["Ana", "Bo"], [2, 113])
    history.refresh()
    newest, oldest = history.plays()
    history.delete(newest)
    history.refresh()
    assert [p.uid for p in history.plays()] == [oldest.uid]
    assert journal.game(b.game_id).actions == len(b.actions)  # the saved game is still there
    history.delete(oldest, journal_too=True)
    assert history.plays() == []
    assert [g.id for g in journal.games()] == [b.game_id]
    assert a.game_id not in {g.id for g in journal.games()}


def test_the_history_file_survives_a_new_journal(tmp_path: Path) -> None:
    """A journal moved aside as unusable: the plays derived from it stay in history (the ids are not reused)."""
    from logplay import Clock

    journal = Journal(tmp_path / "journal.sqlite3", now=Clock())
    store = HistoryStore(tmp_path / "history.sqlite3")
    history = History(journal, store)
    ratuki_game(journal, ["Ana", "Bo"], [112, 3])
    history.refresh()
    journal.close()
    (tmp_path / "journal.sqlite3").rename(tmp_path / "old.sqlite3")
    fresh = Journal(tmp_path / "journal.sqlite3", now=Clock(1_750_000_000.0))
    history = History(fresh, store)
    ratuki_game(fresh, ["Cai", "Dee"], [112, 3])  # journal id 1 again, another game
    history.refresh()
    plays = history.plays()
    assert [p.players[0].name for p in plays] == ["Cai", "Ana"]
    assert history.timeline(plays[1]) is None and history.timeline(plays[0])
    fresh.close()
    store.close()
