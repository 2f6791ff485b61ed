"""Export and import: CSV of plays (one row per player per play) and players, JSON lines per game; an empty
install importing it has the same history; importing twice adds nothing."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest
from logplay import Clock, logs, play_log

from companion.history import ABANDONED, FINISHED, History, HistoryStore
from companion.history.exchange import PLAY_COLUMNS, ExchangeError, export, import_from
from companion.history.stats import player_stats
from companion.journal import Journal, load_lines


def install(folder: Path) -> History:
    folder.mkdir(parents=True, exist_ok=True)
    journal = Journal(folder / "journal.sqlite3", now=Clock(1_750_000_000.0))
    return History(journal, HistoryStore(folder / "history.sqlite3"))


def filled(tmp_path: Path) -> History:
    history = install(tmp_path / "a")
    for game in ("ratuki", "ratatat", "lowdown", "artcollectors"):
        play_log(history.journal, logs(game)[0])
    stopped = play_log(history.journal, logs("lowdown")[1], upto=9)
    history.journal.abandon(stopped.game_id)
    history.refresh()
    ana = history.person_named("Ana")
    assert ana is not None
    history.store.update_person(ana.uid, name="민지", initial="민")  # renamed, in another script
    return history


def comparable(history: History) -> dict[str, object]:
    persons = {p.uid: (p.name, p.colour, p.avatar) for p in history.store.persons()}
    plays = {p.uid: {**p.to_json(), "journal_id": None} for p in history.plays(statuses=(FINISHED, ABANDONED))}
    links = history.store.all_links()
    stats = {
        game: {
            u: (s.plays, s.wins, s.best, s.extras) for u, s in player_stats(history.plays(), links, game=game).items()
        }
        for game in ("ratuki", "ratatat", "lowdown", "artcollectors")
    }
    return {"persons": persons, "plays": plays, "links": links, "stats": stats}


def test_export_writes_one_row_per_player_per_play_and_each_game(tmp_path: Path) -> None:
    history = filled(tmp_path)
    report = export(history, tmp_path / "out")
    plays = history.plays(statuses=(FINISHED, ABANDONED))
    assert (report.plays, report.games) == (len(plays), len(plays)) == (5, 5)
    with (tmp_path / "out" / "plays.csv").open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == PLAY_COLUMNS
    assert len(rows) == sum(len(p.players) for p in plays)
    assert {r["person_name"] for r in rows} >= {"민지"}
    for play in plays:
        with (tmp_path / "out" / "games" / f"{play.uid}.jsonl").open(encoding="utf-8") as fh:
            setup, actions = load_lines(fh)
        assert setup.game == play.game and len(actions) == play.actions


def test_an_empty_install_importing_the_export_has_the_same_history(tmp_path: Path) -> None:
    history = filled(tmp_path)
    export(history, tmp_path / "out")
    fresh = install(tmp_path / "b")
    report = import_from(fresh, tmp_path / "out")
    assert (report.plays, report.games, report.skipped, report.problems) == (5, 5, 0, ())
    assert comparable(fresh) == comparable(history)
    # The plays came with their journals: the timeline and the charts are back too.
    for play in fresh.plays():
        assert fresh.timeline(play)
    ratuki = fresh.plays(game="ratuki")[0]
    assert ratuki.series["rounds"]
    # ...and each move keeps when it was played (the timeline's times are the game's, not the import's).
    for play in history.plays(statuses=(FINISHED, ABANDONED)):
        theirs, mine = history.timeline(play), fresh.timeline(fresh.play(play.uid))  # type: ignore[arg-type]
        assert theirs and mine and [(m.at, m.text) for m in mine] == [(m.at, m.text) for m in theirs]
    again = import_from(fresh, tmp_path / "out")  # twice: nothing more
    assert (again.plays, again.games, again.players, again.skipped) == (0, 0, 0, 5)
    assert comparable(fresh) == comparable(history)
    assert len(fresh.journal.games()) == 5


def test_the_csv_alone_restores_the_results(tmp_path: Path) -> None:
    history = filled(tmp_path)
    export(history, tmp_path / "out")
    shutil.rmtree(tmp_path / "out" / "games")
    (tmp_path / "out" / "players.csv").unlink()
    fresh = install(tmp_path / "b")
    report = import_from(fresh, tmp_path / "out" / "plays.csv")
    assert (report.plays, report.games) == (5, 0)
    mine, theirs = comparable(fresh), comparable(history)
    assert mine["stats"] == theirs["stats"] and mine["links"] == theirs["links"]
    for uid, play in mine["plays"].items():  # type: ignore[attr-defined]
        original = theirs["plays"][uid]  # type: ignore[index]
        assert {k: v for k, v in play.items() if k != "series"} == {k: v for k, v in original.items() if k != "series"}
    assert all(fresh.timeline(p) is None for p in fresh.plays())
    assert import_from(fresh, tmp_path / "out").plays == 0


def test_importing_into_the_install_it_came_from_adds_nothing(tmp_path: Path) -> None:
    history = filled(tmp_path)
    before = comparable(history)
    export(history, tmp_path / "out")
    report = import_from(history, tmp_path / "out")
    assert (report.plays, report.games, report.players) == (0, 0, 0)
    assert comparable(history) == before


def test_files_that_are_not_an_export_are_refused_with_the_reason(tmp_path: Path) -> None:
    history = install(tmp_path / "a")
    with pytest.raises(ExchangeError, match=r"no plays\.csv"):
        import_from(history, tmp_path)
    bad = tmp_path / "plays.csv"
    bad.write_text("name,score\nAna,3\n", encoding="utf-8")
    with pytest.raises(ExchangeError, match="missing columns"):
        import_from(history, bad)
    bad.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ExchangeError, match="not UTF-8"):
        import_from(history, bad)
    export(filled(tmp_path), tmp_path / "out")
    text = (tmp_path / "out" / "plays.csv").read_text(encoding="utf-8-sig").splitlines()
    text[1] = text[1].replace(",finished,", ",finished,notatime,", 1).replace(text[1].split(",")[3] + ",", "", 1)
    (tmp_path / "out" / "plays.csv").write_text("\n".join(text) + "\n", encoding="utf-8")
    report = import_from(install(tmp_path / "c"), tmp_path / "out")
    assert report.plays == 4 and any("line 2" in p for p in report.problems)


def test_an_export_edited_by_hand_brings_in_only_what_the_app_itself_writes(tmp_path: Path) -> None:
    """plays.csv and players.csv opened in a spreadsheet or an editor may come back with anything: a line the app
    would never write is refused naming the file and line (the rest comes in), so no name of 10,000 characters,
    colour 'red', start in the year 5000 or NaN score reaches the screens."""
    import datetime as dt
    import math
    import re

    export(filled(tmp_path), tmp_path / "out")
    path = tmp_path / "out" / "plays.csv"
    with path.open(encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    plays = list(dict.fromkeys(r["play"] for r in rows))
    assert len(plays) == 5

    def spoil(play: str, **changes: str) -> None:
        row = next(r for r in rows if r["play"] == play)
        row.update(changes)

    spoil(plays[0], name="A" * 10_000)
    spoil(plays[1], colour="red")
    spoil(plays[2], started="1e20")
    spoil(plays[3], score="nan", stats='{"tokens_used": Infinity}')
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=PLAY_COLUMNS)
        writer.writeheader()
        writer.writerows(rows)
        writer.writerow({**rows[-1], "play": "../../../etc/passwd", "seat": "9"})
        writer.writerow({**rows[-1], "play": "0123456789abcdef", "options": "[" * 5000 + "]" * 5000})
    people = tmp_path / "out" / "players.csv"
    lines = people.read_text(encoding="utf-8-sig").splitlines()
    lines += ["zz1,Zed,blue,,", "zz2," + "Ω" * 300 + ",#123456,,", "zz3,Ok Name,#123456,ABC,"]
    people.write_text("\n".join(lines) + "\n", encoding="utf-8")
    fresh = install(tmp_path / "b")
    report = import_from(fresh, tmp_path / "out")
    assert report.plays == 1  # only the play nobody touched
    assert len(report.problems) == 9
    assert all(re.match(r"(plays|players)\.csv, line \d+: ", p) for p in report.problems), report.problems
    assert not any("recursion" in p or "Expecting" in p for p in report.problems)  # no Python words
    everyone = fresh.store.persons()
    assert {p.name for p in everyone}.isdisjoint({"Zed", "Ok Name"}) and all(len(p.name) <= 14 for p in everyone)
    for play in fresh.plays(statuses=(FINISHED, ABANDONED)):
        dt.datetime.fromtimestamp(play.started)
        for seat in play.players:
            assert re.fullmatch(r"#[0-9a-f]{6}", seat.colour) and len(seat.name) <= 14
            assert seat.score is None or math.isfinite(seat.score)
