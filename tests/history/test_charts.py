"""The charts drawn from real plays, as pictures: the right size, each player's line in their colour, names in
any script drawn with real glyphs."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest
from logplay import logs, play_log

from companion.history import History, charts
from companion.history.stats import results_over_time
from companion.journal import Journal

SIZE = (780, 360)


def pixels(fig: object) -> np.ndarray:
    picture = charts.render(fig)
    assert (picture.width, picture.height) == SIZE
    return np.frombuffer(picture.rgba, dtype=np.uint8).reshape(picture.height, picture.width, 4)[:, :, :3]


def count_colour(image: np.ndarray, colour: str, tolerance: int = 12) -> int:
    rgb = np.array([int(colour[i : i + 2], 16) for i in (1, 3, 5)])
    return int((np.abs(image.astype(int) - rgb).max(axis=2) <= tolerance).sum())


def who_of(play: object) -> dict[int, charts.Who]:
    return {s.seat: charts.Who(s.name, s.colour) for s in play.players}  # type: ignore[attr-defined]


def test_ratuki_progression_draws_every_player_in_their_colour(journal: Journal, history: History) -> None:
    play_log(journal, next(p for p in logs("ratuki") if "5p" in p.name))
    history.refresh()
    [play] = history.plays()
    image = pixels(charts.ratuki_progression(play.series["rounds"], who_of(play), play.series["target"], size=SIZE))
    assert count_colour(image, charts.BACKGROUND, 2) > image.shape[0] * image.shape[1] // 2
    for seat in play.players:
        assert count_colour(image, charts.readable(seat.colour, ratio=3.0)) > 300, seat.name
    assert count_colour(image, charts.GOLD) > 200  # the target line


def test_lowdown_breakdown_and_results_over_time(journal: Journal, history: History) -> None:
    for path in logs("lowdown"):
        play_log(journal, path)
    history.refresh()
    play = history.plays()[0]
    fig = charts.lowdown_breakdown(
        play.series["breakdown"], play.series["grids"], who_of(play), [w.seat for w in play.winners], size=SIZE
    )
    image = pixels(fig)
    assert count_colour(image, "#5c6bc0", 20) > 500  # the first grid's part of the bars
    person = history.person_named(play.players[0].name)
    assert person is not None
    points = [
        (p.started, s, w)
        for p, s, w in results_over_time(history.plays(), history.store.all_links(), person.uid, "lowdown")
    ]
    assert points
    fig = charts.results_over_time(
        points, charts.Who(person.name, person.colour), lowest_wins=True, title="x", size=SIZE
    )
    image = pixels(fig)
    assert count_colour(image, charts.readable(person.colour, ratio=3.0)) > 100
    [ax] = fig.axes
    assert all(float(t).is_integer() for t in ax.get_yticks())  # whole points on the axis, no 23.5
    assert ax.get_ylim()[0] > ax.get_ylim()[1]  # lowest wins: the axis runs downwards, better is up
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert len(points) > 1 and all("\n" in label for label in labels)  # one evening: each play's time under its day
    assert len(set(labels)) == len(labels)


def test_readable_lightens_dark_colours_only() -> None:
    assert charts.readable("#ffffff") == "#ffffff"
    indigo = charts.readable("#283593")
    assert indigo != "#283593"
    assert all(int(indigo[i : i + 2], 16) >= int("#283593"[i : i + 2], 16) for i in (1, 3, 5))


def test_hangul_names_are_drawn_with_real_glyphs(tmp_path: Path) -> None:
    mpl = charts._matplotlib()
    families = mpl.rcParams["font.family"]
    if len(families) < 2:
        pytest.skip("no CJK font installed (fonts-noto-cjk or fonts-nanum)")
    who = {1: charts.Who("민지", "#e53935"), 2: charts.Who("Inés", "#1e88e5")}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pixels(charts.ratuki_progression([{"1": 30, "2": 20}], who, 100, size=SIZE))
    assert not [w for w in caught if "missing from" in str(w.message)]
