"""``companion bench --only memory``: the app's resident memory (RSS) on the home screen, after the dice screen was
opened once, and over a long scripted session (#21 item 16).

Each figure comes from a fresh child process running the real app offscreen at 800x480 in simulation (the
simulated camera, the dice reader, the four games' screens), with its own data folder; the child reports its
``VmRSS`` from ``/proc/self/status`` at each mark, and on the home screen where it is (``home_by_mapping``: the
biggest mappings, e.g. the software OpenGL renderer's ``libLLVM`` and ``swrast_dri.so`` here).
The session plays the example games of every kind through their screens again and again, opening the dice
screen, Saved games, History and How to play between them: as much as a long evening at the table (each round is
about ten minutes of play), compressed.

Before the child starts, the UI font's subset is made in its data folder, synchronously (:func:`make_font_subset`):
the app makes it in the background at its first start and draws with it from the next, so the figures are those of
every start but the first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HOME_TARGET_MB = 150.0  # the target on the home screen
PREFILL = 0  # finished games in the journal before the session (bench_memory_full_card: FULL_CARD)
FULL_CARD = 70  # more games than Saved games (30) and History (60) list at once


def rss_mb() -> float:
    """This process's resident memory now, in MB (Linux; 0 where /proc is missing)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0


def rss_by_mapping(most: int = 8) -> dict[str, float]:
    """Where this process's resident memory is now, in MB: the ``most`` biggest mappings by file name (a shared
    library, ``[heap]``, ``[anon]`` for anonymous memory), from ``/proc/self/smaps`` (empty where it is missing)."""
    sizes: dict[str, int] = {}
    name = "[anon]"
    try:
        with open("/proc/self/smaps", encoding="utf-8", errors="replace") as smaps:
            for line in smaps:
                head = line.split(maxsplit=6)
                if "-" in head[0] and len(head) >= 5 and not head[0].endswith(":"):
                    name = os.path.basename(head[5].strip()) if len(head) > 5 else "[anon]"
                elif head[0] == "Rss:":
                    sizes[name] = sizes.get(name, 0) + int(head[1])
    except (OSError, ValueError, IndexError):
        return {}
    top = sorted(sizes.items(), key=lambda item: -item[1])[:most]
    return {key: round(kb / 1024, 1) for key, kb in top}


def make_font_subset(home: Path) -> bool:
    """Make the UI font's subset (``companion.ui.font_subset``) in the data folder of ``COMPANION_HOME=home`` now,
    waiting for it (about 11 s a weight on a desktop core). True when it is there."""
    from companion.ui import fonts

    return fonts.make_subset(fonts.choose(), home / "data" / "fonts")


def bench_memory(rounds: int = 12, prefill: int = PREFILL) -> dict[str, Any]:
    """Run the scripted session in a child process and return its figures (MB): ``home`` (started, home shown),
    ``after_dice`` (the dice screen opened, a roll read, back home), ``session`` (RSS after each round of the
    session), ``growth_mb`` (the last round less the second: no growth is the target; ``growth_second_half_mb``
    the last less the middle one, once every screen has been made), and ``kivy_floor`` (a
    Kivy app of one label, alone in its own child: what the renderer and Kivy cost before the app adds anything)
    with ``home_over_floor`` (the app's own share of ``home``). ``prefill`` finished games are put in the journal
    before the app starts (a card a family has used for a while): the Saved games and History lists are then at
    their caps from the first round, so what grows over the rounds is not their rows."""
    with tempfile.TemporaryDirectory(prefix="companion-memory-") as home:
        env = dict(os.environ, COMPANION_HOME=home, COMPANION_LANGUAGE="en", SDL_VIDEODRIVER="offscreen")
        env.update(KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", KIVY_HOME=str(Path(home) / "kivy"))
        subset = make_font_subset(Path(home))
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "companion.ui.memory_bench", str(rounds), str(prefill)],
            env=env,
            capture_output=True,
            text=True,
            timeout=3600,
        )
        if proc.returncode != 0:
            return {"error": proc.stderr.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]}
        figures: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
        if "error" in figures:
            return figures
        figures["wall_s"] = round(time.monotonic() - started, 1)
        figures["font_subset"] = subset
        floor = subprocess.run(
            [sys.executable, "-m", "companion.ui.memory_bench", "--floor"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if floor.returncode == 0 and floor.stdout.strip():
            figures.update(json.loads(floor.stdout.strip().splitlines()[-1]))
            figures["home_over_floor"] = round(figures["home"] - figures["kivy_floor"], 1)
    session = figures["session"]
    figures["growth_mb"] = round(session[-1] - session[1], 1) if len(session) > 2 else None
    # the second half: every screen and game has been made by then, what grows now would grow all evening
    half = len(session) // 2
    figures["growth_second_half_mb"] = round(session[-1] - session[half - 1], 1) if half >= 2 else None
    figures["prefilled_games"] = prefill
    figures["home_target_mb"] = HOME_TARGET_MB
    return figures


def bench_memory_full_card(rounds: int = 12) -> dict[str, Any]:
    """``bench_memory`` on a card that already holds ``FULL_CARD`` finished games: the lists are full from the
    start, so the session's growth is not their rows (the target is none)."""
    return bench_memory(rounds, FULL_CARD)


# -- the child: the app, driven frame by frame -------------------------------------------------------------------


class _Driver:
    def __init__(self, folder: Path) -> None:
        from companion.ui.launch import make_app, prepare_environment

        prepare_environment(headless=True)
        self.app = make_app(simulate=True, config_path=folder / "config.toml", journal_path=folder / "journal.sqlite3")
        from kivy.base import EventLoop
        from kivy.core.window import Window

        Window.size = (800, 480)
        self.app._run_prepare()
        EventLoop.ensure_window()
        self.frames(10)

    def frames(self, count: int, seconds: float = 0.0) -> None:
        from kivy.base import EventLoop

        for _ in range(count):
            if seconds:
                time.sleep(seconds / count)
            EventLoop.idle()

    def dice(self, seconds: float = 4.0) -> None:
        """Open the dice screen over the simulated tray, let a roll settle and be read, then go home."""
        app = self.app
        app.open_dice(app.game_in_progress() or "home", back_to="home")
        self.frames(int(seconds * 20), seconds)
        app.roll_tray()
        self.frames(int(seconds * 20), seconds)
        app.go("home")
        self.frames(5)

    def game(self, log: Path) -> None:
        """One example game played through its screen to the end (as the table would, move by move)."""
        from companion.journal.replay import load_lines

        setup, actions = load_lines(log.read_text(encoding="utf-8").splitlines())
        app = self.app
        app.resume(app.journal.new_game(setup))  # as recorded (some were played under older settings)
        self.frames(2)
        screen = app.manager.current_screen
        for number, action in enumerate(actions):
            screen.act(action, quiet=number % 5 != 0)
            if number % 3 == 0:
                self.frames(1)
        self.frames(3)
        screen.go_home()
        self.frames(3)

    def tools(self) -> None:
        app = self.app
        for name in ("games", "history", "home"):
            app.go(name)
            self.frames(3)
        app.manager.get_screen("howto").show("ratatat", "home")
        app.go("howto")
        self.frames(3)
        app.go("home")
        self.frames(3)


def _floor() -> None:
    """What any Kivy app costs on this machine: one label in a window of the same size, started the same way
    (offscreen, with the app's Kivy settings), so ``home`` can be read against it (most of it is the OpenGL renderer
    and Kivy itself)."""
    import gc

    from companion.ui.launch import prepare_environment

    prepare_environment(headless=True)
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.uix.label import Label

    class Bare(App):
        def build(self) -> Label:
            return Label(text="Table Companion")

    app = Bare()
    Window.size = (800, 480)
    app._run_prepare()
    EventLoop.ensure_window()
    for _ in range(10):
        EventLoop.idle()
    gc.collect()
    figures: dict[str, Any] = {"kivy_floor": rss_mb(), "kivy_floor_by_mapping": rss_by_mapping()}
    figures["renderer_mb_per_100_shapes"] = _drawing_cost(app.root)
    print(json.dumps(figures))


SHAPES = 300  # shapes the drawing probe adds (the Rat-a-Tat ring board draws about 300)


def _drawing_cost(parent: Any) -> float:
    """What the renderer keeps per shape drawn (MB per 100): ``SHAPES`` small rectangles, each with its colour, added to
    the one-label app and drawn. A screen's memory is mostly this: Mesa's llvmpipe, this machine's software renderer,
    holds about 0.04 MB for each shape (each canvas instruction with vertices; Mesa's softpipe about 0.008,
    ``GALLIUM_DRIVER=softpipe``), so a screen of a few hundred shapes costs tens of MB here; a Pi draws with its GPU."""
    import gc

    from kivy.base import EventLoop
    from kivy.graphics import Color, Rectangle
    from kivy.uix.widget import Widget

    before = rss_mb()
    shapes = Widget()
    with shapes.canvas:
        for i in range(SHAPES):
            Color(1, (i % 7) / 7, 0, 1)
            Rectangle(pos=(i, i), size=(20, 20))
    parent.add_widget(shapes)
    for _ in range(10):
        EventLoop.idle()
    gc.collect()
    return round((rss_mb() - before) / SHAPES * 100, 2)


def _prefill(journal_path: Path, logs: list[Path], count: int) -> None:
    """``count`` finished games (the example logs, one game after another in turn) recorded as the app records
    them, without the UI."""
    from itertools import chain, zip_longest

    from companion.journal.replay import load_lines
    from companion.journal.session import GameSession
    from companion.journal.store import Journal

    kinds: dict[str, list[Path]] = {}
    for log in logs:
        kinds.setdefault(log.stem.split("-")[0], []).append(log)
    logs = [log for log in chain(*zip_longest(*kinds.values())) if log is not None]
    journal = Journal(journal_path)
    try:
        for number in range(count):
            setup, actions = load_lines(logs[number % len(logs)].read_text(encoding="utf-8").splitlines())
            session = GameSession(journal, journal.new_game(setup))  # as recorded (as ``_Driver.game``)
            for action in actions:
                session.do(action)
    finally:
        journal.close()


def _child(rounds: int, prefill: int = 0) -> None:
    import gc

    folder = Path(os.environ["COMPANION_HOME"])
    logs = sorted((Path(__file__).resolve().parents[2] / "tests" / "games" / "logs").glob("*.jsonl"))
    if not logs:
        print(json.dumps({"error": "the session plays tests/games/logs: run it in a source checkout"}))
        return
    games = [log for log in logs if log.stem.split("-")[0] in ("ratatat", "lowdown", "ratuki", "artcollectors")]
    if prefill:
        _prefill(folder / "journal.sqlite3", games, prefill)
    driver = _Driver(folder)
    gc.collect()
    figures: dict[str, Any] = {"home": rss_mb(), "home_by_mapping": rss_by_mapping()}
    driver.dice()
    gc.collect()
    driver.frames(20, 1.0)
    figures["after_dice"] = rss_mb()
    figures["session"] = []
    for number in range(rounds):
        for log in games[number % 4 :: 4][:2] or games[:2]:
            driver.game(log)
        driver.dice(2.0)
        driver.tools()
        gc.collect()
        figures["session"].append(rss_mb())
    figures["games_played"] = rounds * 2
    print(json.dumps(figures))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--floor"]:
        _floor()
    else:
        _child(int(sys.argv[1]) if len(sys.argv) > 1 else 12, int(sys.argv[2]) if len(sys.argv) > 2 else 0)
