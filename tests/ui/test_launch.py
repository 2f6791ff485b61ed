"""Kivy's input set-up: one reader per touchscreen (no double taps on the Pi)."""

from __future__ import annotations

import os

import pytest

from companion.ui.launch import prepare_environment


def test_only_the_mouse_provider_reads_touches(monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.config import Config

    monkeypatch.delenv("COMPANION_TOUCH", raising=False)
    Config.set("input", "%(name)s", "probesysfs")  # Kivy's default: the probe reads /dev/input too
    prepare_environment(headless=True)
    assert Config.options("input") == ["mouse"]
    monkeypatch.setenv("COMPANION_TOUCH", "probesysfs")
    Config.set("input", "%(name)s", "probesysfs")
    prepare_environment(headless=True)
    assert "%(name)s" in Config.options("input")
    Config.remove_option("input", "%(name)s")


def test_a_second_app_on_the_same_journal_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    from companion.ui.launch import single_instance

    journal = Path(str(tmp_path)) / "data" / "journal.sqlite3"
    first = single_instance(journal)
    assert first is not None
    assert single_instance(journal) is None  # another app holds it
    first.close()
    again = single_instance(journal)
    assert again is not None
    again.close()


def test_no_display_says_how_to_run_and_exits_non_zero(tmp_path: object) -> None:
    """#21 item 15: `companion` with no desktop and no Pi screen used to sit offscreen showing nothing until it was
    killed. It says there is no display and how to run (desktop, kiosk service, --screenshot), and exits 3."""
    import subprocess
    import sys

    env = dict(os.environ, COMPANION_HOME=str(tmp_path))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):  # conftest sets offscreen for the tests
        env.pop(name, None)
    # It ends by itself (it used to run until killed): the timeout would raise.
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--sim"], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 3, (proc.returncode, proc.stderr[-2000:])
    said = proc.stderr
    assert "no display" in said and "desktop session" in said, said
    assert "systemd/install.sh" in said and "--screenshot" in said, said
    assert 'File "' not in said, said  # a sentence, not a traceback


def test_prepare_environment_refuses_to_run_offscreen_unasked(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.ui import launch

    for name in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(launch, "is_pi", lambda: False)
    with pytest.raises(launch.NoDisplay, match="no display"):
        launch.prepare_environment(headless=False)
    assert "SDL_VIDEODRIVER" not in os.environ
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")  # asked for: the tests, a CI shot
    launch.prepare_environment(headless=False)


def test_the_app_starts_without_multisampling_or_pillow(tmp_path: object) -> None:
    """#21 item 16: the home screen's memory. Started as ``companion`` starts it (``prepare_environment``, in a fresh
    process with none of the tests' Kivy settings), Kivy draws with no multisample buffers and reads images with
    SDL2 alone: Pillow is never imported. A setting given in the environment still wins."""
    import json
    import subprocess
    import sys
    from pathlib import Path

    from companion.ui.launch import KIVY_ENV

    script = (
        "import json, sys\n"
        "from companion.ui.launch import prepare_environment\n"
        "prepare_environment(headless=True)\n"
        "from kivy.config import Config\n"
        "from kivy.core.image import ImageLoader\n"
        "print(json.dumps({'samples': Config.getint('graphics', 'multisamples'), 'pil': 'PIL' in sys.modules,"
        " 'loaders': sorted(getattr(x, '__name__', type(x).__name__) for x in ImageLoader.loaders)}))\n"
    )
    home = Path(str(tmp_path))
    env = {k: v for k, v in os.environ.items() if k not in KIVY_ENV and not k.startswith("KCFG_")}
    env.update(COMPANION_HOME=str(home / "home"), KIVY_HOME=str(home / "kivy"), SDL_VIDEODRIVER="offscreen")
    run = [sys.executable, "-c", script]
    seen = json.loads(subprocess.run(run, env=env, capture_output=True, text=True, timeout=120).stdout.splitlines()[-1])
    assert seen["samples"] == 0 and not seen["pil"]
    assert seen["loaders"] and all("PIL" not in name for name in seen["loaders"])
    env["KCFG_GRAPHICS_MULTISAMPLES"] = "2"
    seen = json.loads(subprocess.run(run, env=env, capture_output=True, text=True, timeout=120).stdout.splitlines()[-1])
    assert seen["samples"] == 2
