"""The installed package is the app (#23 item 4): a wheel built from the checkout holds no tests and no development
tools, and every ``companion`` command works from it with neither ``tests/`` nor ``tools/`` nor the checkout in
reach (a folder of its own as the working directory; the wheel's copy first on the path)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.slow


class Installed:
    """The wheel unpacked with ``pip install --target`` and a place to run its ``companion`` command from."""

    def __init__(self, wheel: Path, site: Path, work: Path) -> None:
        self.wheel, self.site, self.work = wheel, site, work
        self.env = {
            **os.environ,
            "PYTHONPATH": str(site),
            "COMPANION_HOME": str(work / "home"),
            "COMPANION_LANGUAGE": "en",
            "KIVY_HOME": str(work / "kivy"),
            "KIVY_NO_ARGS": "1",
            "KIVY_NO_FILELOG": "1",
            "SDL_VIDEODRIVER": "offscreen",
        }
        self.env.pop("DISPLAY", None)

    def run(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.site / "bin" / "companion"), *args],
            cwd=self.work,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def python(self, code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", code], cwd=self.work, env=self.env, capture_output=True, text=True, timeout=120
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Installed]:
    base = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(base / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (base / "dist").glob("table_companion-*.whl")
    site = base / "site"
    unpacked = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert unpacked.returncode == 0, unpacked.stderr[-3000:]
    work = base / "work"
    work.mkdir()
    yield Installed(wheel, site, work)
    shutil.rmtree(base, ignore_errors=True)


def test_the_wheel_holds_the_app_and_no_development_code(installed: Installed) -> None:
    with zipfile.ZipFile(installed.wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
    assert {"companion", "hardware", "calibration"} <= tops
    assert not tops & {"tests", "tools"}, tops
    where = installed.python(
        "import importlib.util as u, companion; print(companion.__file__); "
        "print(u.find_spec('tests'), u.find_spec('tools'))"
    )
    assert where.returncode == 0, where.stderr
    module, specs = where.stdout.splitlines()
    assert Path(module).is_relative_to(installed.site)  # the wheel's copy, not the checkout's
    assert specs == "None None"  # neither the tests nor the tools are in reach


def test_games_export_and_replay(installed: Installed) -> None:
    assert installed.run("--help").returncode == 0
    empty = installed.run("games")
    assert empty.returncode == 0 and "no games yet" in empty.stderr
    made = installed.python(
        "from companion import paths; from companion.games.base import Player, Setup; "
        "from companion.journal import GameSession, Journal; "
        "j = Journal(paths.journal_file()); "
        "s = GameSession.start(j, Setup('ratuki', (Player('Ana', '#e53935', 1), Player('Bo', '#1e88e5', 2)))); "
        "s.do({'type': 'start', 'tick': 1.0}); j.close()"
    )
    assert made.returncode == 0, made.stderr
    listed = installed.run("games")
    assert listed.returncode == 0 and "ratuki" in listed.stdout and "Ana, Bo" in listed.stdout
    exported = installed.run("export", "1", "game.jsonl")
    assert exported.returncode == 0, exported.stderr
    replayed = installed.run("replay", "game.jsonl")
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["game"] == "ratuki"
    shutil.copy(ROOT / "tests" / "games" / "logs" / "lowdown-2p-spanish.jsonl", installed.work / "lowdown.jsonl")
    lowdown = installed.run("replay", "lowdown.jsonl")
    assert lowdown.returncode == 0 and json.loads(lowdown.stdout)["over"] is True, lowdown.stderr


def test_dice_read_and_eval_on_the_shipped_photos(installed: Installed) -> None:
    samples = installed.site / "companion" / "vision" / "samples"
    photo = next(samples.rglob("*.jpg"))
    read = installed.run("dice", "read", str(photo), "--json")
    assert read.returncode == 0, read.stderr
    assert json.loads(read.stdout)["dice"]
    scored = installed.run("dice", "eval", str(samples / "felt-trays"), "--json")
    assert scored.returncode == 0, scored.stderr
    assert json.loads(scored.stdout)["images"] > 0


def test_calibrate_and_bench(installed: Installed) -> None:
    listed = installed.run("calibrate", "--list")
    assert listed.returncode == 0 and "No calibration profiles" in listed.stdout
    sheet = installed.run("calibrate", "--markers", "markers.png")
    assert sheet.returncode == 0 and (installed.work / "markers.png").stat().st_size > 1000
    bench = installed.run("bench", "--only", "calibration")
    assert bench.returncode == 0, bench.stderr
    assert "source checkout" in json.loads(bench.stdout)["calibration"]["skipped"]  # said, not a crash


def test_the_app_draws_its_first_screen(installed: Installed) -> None:
    shot = installed.run("--sim", "--screenshot", "shot.png", timeout=120)
    assert shot.returncode == 0, shot.stderr[-3000:]
    assert (installed.work / "shot.png").stat().st_size > 10_000
