"""The memory benchmark's account of where the memory is (``companion bench --only memory``, #21 item 16)."""

from __future__ import annotations

import sys

import pytest

from companion.ui.memory_bench import rss_by_mapping, rss_mb


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_the_biggest_mappings_are_named_and_add_up_to_no_more_than_the_rss() -> None:
    ballast = bytearray(64 * 1024 * 1024)  # 64 MB of anonymous memory, touched
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    where = rss_by_mapping(most=5)
    assert 0 < len(where) <= 5
    assert list(where.values()) == sorted(where.values(), reverse=True)
    assert sum(where.values()) <= rss_mb() + 1
    # the ballast is anonymous memory (a big bytearray is its own mapping, or in the heap)
    assert where.get("[anon]", 0) + where.get("[heap]", 0) >= 60
    del ballast


def test_no_smaps_gives_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_open = builtins.open

    def refusing(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path) == "/proc/self/smaps":
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing)
    assert rss_by_mapping() == {}


def test_a_full_card_is_prefilled_with_finished_games_as_the_app_records_them(tmp_path) -> None:
    """``companion bench --only memory_full_card`` starts on a card holding more games than the lists show."""
    from pathlib import Path

    from companion.journal.store import Journal
    from companion.ui import memory_bench

    logs = sorted((Path(memory_bench.__file__).resolve().parents[2] / "tests" / "games" / "logs").glob("*.jsonl"))
    games = [log for log in logs if log.stem.split("-")[0] in ("ratatat", "lowdown", "ratuki", "artcollectors")]
    memory_bench._prefill(tmp_path / "journal.sqlite3", games, 5)
    journal = Journal(tmp_path / "journal.sqlite3")
    try:
        records = journal.games()
        assert len(records) == 5 and all(r.finished for r in records)
        assert len({r.game for r in records}) >= 2
    finally:
        journal.close()
    assert memory_bench.FULL_CARD > 60  # more than History (60) and Saved games (30) list at once


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_the_floor_child_says_what_the_one_label_app_and_a_shape_cost(tmp_path) -> None:
    """The ``--floor`` child (a Kivy app of one label started as the app starts: ``test_launch`` checks the settings)
    reports its RSS, where it is, and what the renderer keeps per shape drawn (``renderer_mb_per_100_shapes``)."""
    import json
    import os
    import subprocess

    env = dict(os.environ, KIVY_HOME=str(tmp_path / "kivy"), SDL_VIDEODRIVER="offscreen")
    run = [sys.executable, "-m", "companion.ui.memory_bench", "--floor"]
    done = subprocess.run(run, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    floor = json.loads(done.stdout.strip().splitlines()[-1])
    assert floor["kivy_floor"] > 0 and floor["kivy_floor_by_mapping"]
    assert floor["renderer_mb_per_100_shapes"] > 0  # any renderer keeps something for what it draws
