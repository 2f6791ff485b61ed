"""Start the Kivy app: environment and window settings first (before Kivy is imported), then the app."""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path
from typing import Any

from companion.runtime import is_pi

NO_DISPLAY_EXIT = 3  # `companion` found no screen to draw on (distinct from 1: another app is running)
# Kivy settings of every start, read when Kivy is imported (#21 item 16, the home screen's memory; the tests set the
# same): no multisample anti-aliasing (the screens draw flat rectangles and text: their screenshots are the same
# pixels without it, and its buffers held ~9 MB here; on a Pi, GPU memory and fill rate), and SDL2's image reader
# only (it reads the PNGs and JPEGs the app shows; Kivy would otherwise import Pillow and its other readers: 2-4 MB).
# Each can still be set otherwise in the environment.
KIVY_ENV = {"KCFG_GRAPHICS_MULTISAMPLES": "0", "KIVY_IMAGE": "sdl2,tex"}


def prepare_environment(*, headless: bool, fullscreen: bool = False, size: tuple[int, int] = (800, 480)) -> None:
    """Kivy reads these at import time: no argv parsing, quiet logs, offscreen rendering when headless."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_METRICS_DENSITY", "1")
    for name, value in KIVY_ENV.items():
        os.environ.setdefault(name, value)
    if "KIVY_HOME" not in os.environ:
        from companion.paths import data_dir

        kivy_home = data_dir() / "kivy"
        try:
            kivy_home.mkdir(parents=True, exist_ok=True)
        except OSError as err:  # a data folder the app cannot write: Kivy's settings go to a temporary one
            import tempfile

            kivy_home = Path(tempfile.mkdtemp(prefix="companion-kivy-"))
            print(f"companion: cannot write {data_dir()} ({err}); games will not be saved", file=sys.stderr)
        os.environ["KIVY_HOME"] = str(kivy_home)
    if headless:
        os.environ["SDL_VIDEODRIVER"] = "offscreen"
    elif not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY") or os.environ.get("SDL_VIDEODRIVER")):
        # No desktop: on a Pi console use KMS/DRM. Elsewhere there is nothing to show on: the app used to run
        # offscreen, showing nobody anything, until it was killed (#21 item 15).
        if not (Path("/dev/dri/card0").exists() and is_pi()):
            raise NoDisplay(no_display_help())
        os.environ["SDL_VIDEODRIVER"] = "kmsdrm"
    from kivy.config import Config as KivyConfig
    from kivy.logger import Logger

    Logger.addFilter(_quiet_cutbuffer)
    KivyConfig.set("graphics", "width", str(size[0]))
    KivyConfig.set("graphics", "height", str(size[1]))
    KivyConfig.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    KivyConfig.set("kivy", "exit_on_escape", "0")
    KivyConfig.set("input", "mouse", "mouse,disable_multitouch")
    if os.environ.get("COMPANION_TOUCH") != "probesysfs" and KivyConfig.has_option("input", "%(name)s"):
        # One reader per touchscreen: SDL turns a touch into mouse events (Kivy drops SDL's finger events on
        # Linux), so Kivy's own probe of /dev/input would read the same screen again and count every tap twice
        # (an Undo undoing two actions). COMPANION_TOUCH=probesysfs brings the probe back for a screen SDL
        # does not read.
        KivyConfig.remove_option("input", "%(name)s")


class NoDisplay(RuntimeError):
    """There is no screen to draw on: no desktop session and no Pi display (the message says how to run)."""


def no_display_help() -> str:
    """What to do when ``companion`` finds no display (said on stderr; the app does not start)."""
    from companion.i18n import _

    return _(
        "no display: there is no desktop session (DISPLAY or WAYLAND_DISPLAY is not set) and no Raspberry Pi "
        "screen to draw on, so the app would show nothing. Run it in a desktop session (a terminal on the "
        "desktop, or ssh -X); on the Pi, install the kiosk service (sudo systemd/install.sh), which fills the "
        "screen without a desktop; or render the first screen to a picture: companion --sim --screenshot home.png"
    )


def single_instance(journal: Path) -> Any:
    """An exclusive lock beside the journal, held while the app runs (the open file; None when another app
    holds it). Two apps on one journal would each check moves against a state the other has moved on from."""
    import fcntl

    try:
        journal.parent.mkdir(parents=True, exist_ok=True)
        handle = open(journal.with_name(journal.name + ".lock"), "a+")  # noqa: SIM115 - held for the app's life
    except OSError:
        return object()  # no lock file possible (a read-only card): the journal's own problem is said on screen
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        return None
    return handle


def _quiet_cutbuffer(record: logging.LogRecord) -> bool:
    """Drop Kivy's X11 cut-buffer complaint (xclip/xsel missing): ~40 lines of tracebacks on every start of a
    kiosk that has no X and no use for a cut buffer. Everything else is logged as usual."""
    return not str(record.msg).startswith("Cutbuffer: Unable to find")


def make_app(
    *,
    simulate: bool,
    config_path: Path | None = None,
    journal_path: Path | None = None,
    make_font_subset: bool = False,
) -> Any:
    """Build (but do not run) the app from the config file; used by ``run`` and by the UI tests. With
    ``make_font_subset`` (``run`` only) the UI font's subset, when not made yet, is made in the background."""
    from companion import config as config_mod
    from companion import paths, runtime
    from companion.journal.store import open_for_app
    from companion.memory import limit_arenas
    from companion.notices import Notice, Severity, Topic
    from companion.ui.app import CompanionApp

    limit_arenas()  # before the camera's and the reader's threads are made (companion/memory.py)
    cfg = config_mod.load(config_path if config_path is not None else paths.config_file())
    prefs, language, ask = choose_language()
    journal_path = journal_path if journal_path is not None else paths.journal_file()
    journal, problem = open_for_app(journal_path)
    hardware = runtime.build(cfg, simulate=simulate)
    if problem:
        print(f"companion: {problem}", file=sys.stderr)
        hardware.notices[Topic.JOURNAL] = Notice(Topic.JOURNAL, Severity.ERROR, problem)
    from companion.ui import fonts

    font_notice = fonts.notice(setup_font(make_subset=make_font_subset))
    if font_notice is not None:
        hardware.notices[Topic.FONT] = Notice(Topic.FONT, Severity.WARNING, font_notice)
    for topic, why in ((Topic.LANGUAGE, language), (Topic.PREFERENCES, prefs.problem)):
        if why:
            hardware.notices[topic] = Notice(topic, Severity.WARNING, why)
    from companion.history import history_file

    return CompanionApp(
        config=cfg,
        journal=journal,
        hardware=hardware,
        preferences=prefs,
        ask_language=ask,
        history_path=history_file(journal_path),
    )


def choose_language() -> tuple[Any, str | None, bool]:
    """Install the language the app starts in: the one chosen on screen before (remembered in the preferences
    file), else ``COMPANION_LANGUAGE``, else the system locale's. Returns the preferences, the problem with the
    catalogue (if any) and whether to ask at this start (nothing chosen yet and no ``COMPANION_LANGUAGE``)."""
    from companion import i18n
    from companion.preferences import Preferences, preferences_file

    prefs = Preferences.load(preferences_file())
    saved = prefs.get("language")
    forced = os.environ.get("COMPANION_LANGUAGE", "")
    if isinstance(saved, str) and saved in i18n.LANGUAGES:
        code, ask = saved, False
    elif forced in i18n.LANGUAGES:
        code, ask = forced, False
    else:
        code, ask = i18n.system_language(), True
    problem = i18n.set_language(code)
    return prefs, problem, ask


def setup_font(*, make_subset: bool = False) -> Any:
    """Register the UI font (see :mod:`companion.ui.fonts`) and say on stderr when it lacks Hangul."""
    from companion.ui import fonts

    choice = fonts.setup(make_subset=make_subset)
    if choice.problem:
        print(f"companion: {choice.problem}", file=sys.stderr)
    return choice


def run(*, simulate: bool = False, screenshot: str | None = None, config_path: Path | None = None) -> int:
    """Run the app until it is closed; with ``screenshot``, render the first screen to that PNG and exit."""
    from companion import config as config_mod
    from companion import paths

    cfg = config_mod.load(
        config_path if config_path is not None else paths.config_file(), required=config_path is not None
    )
    display = cfg["display"]
    try:
        prepare_environment(
            headless=screenshot is not None and not os.environ.get("DISPLAY"),
            fullscreen=bool(display["fullscreen"]) and screenshot is None,
            size=(display["width"], display["height"]),
        )
    except NoDisplay as err:
        print(f"companion: {err}", file=sys.stderr)
        return NO_DISPLAY_EXIT
    for problem in cfg.problems:
        print(f"companion: config: {problem}", file=sys.stderr)
    lock = single_instance(paths.journal_file())
    if lock is None:
        print(
            f"companion: another Table Companion is already running with {paths.journal_file()}; "
            "close it first (two at once would each record moves the other does not see)",
            file=sys.stderr,
        )
        return 1
    # the font's subset is made for the app's next start; a screenshot is a start of one frame, which leaves it
    app = make_app(simulate=simulate, config_path=config_path, make_font_subset=screenshot is None)
    if screenshot:
        from companion.ui.shots import save_when_drawn

        save_when_drawn(app, Path(screenshot))
    app.run()
    return 0 if not screenshot or Path(screenshot).exists() else 1
