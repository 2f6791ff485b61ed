"""The Kivy App: wires config, journal, hardware and screens together, and nothing more.

Screens live in ``companion/ui/screens/`` (one module and one .kv each). Hardware reaches the UI only through
the :class:`~companion.ui.hub.Hub`, drained on the Kivy clock. The root layout (the screen manager above the
banner) is in ``companion.ui.manager``; what the banner says, and the handler that shows an uncaught error there,
in ``companion.ui.banner``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.base import ExceptionManager
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.screenmanager import NoTransition

from companion import i18n
from companion.config import Config
from companion.games import GAMES
from companion.games import engine as find_engine
from companion.games.base import Setup
from companion.history import History, HistoryError
from companion.i18n import Lazy, Text, _, lazy_n
from companion.journal import GameDamaged, GameSession, Journal, JournalError, ReplayError
from companion.memory import tidy_memory
from companion.notices import Notice, Severity, Topic
from companion.runtime import Hardware
from companion.ui.banner import BANNER_FONT, BANNER_SLACK, KeepRunning, banner_text, fit_text
from companion.ui.camera_feed import CameraFeed
from companion.ui.hub import Hub
from companion.ui.manager import ROOT_KV, Screens, instantiate
from companion.ui.screens import load_kv
from companion.ui.watchdog import notify
from hardware.buttons import ButtonEvent, FakeButtons
from hardware.camera import CameraReconnecting
from hardware.simtray import TrayRoll, tray_of

log = logging.getLogger(__name__)

__all__ = ["CompanionApp", "KeepRunning", "Screens", "fit_text"]  # the last three moved; still importable here

KEY_SEATS = {ord(str(n)): n for n in range(1, 6)}
ROLL_KEYS = {ord("r"), ord(" ")}  # roll the simulated tray again
CAMERA_PROBE_S = 5.0  # how often the camera is checked while no screen reads it
SETTLE_S = 3.0  # at most this long the app waits when it stops for the table's look still being learned


class CompanionApp(App):
    """Owns the journal, the hardware, the hub and the screen manager; screens do the rest."""

    title = "Table Companion"
    banner = StringProperty("")
    simulation = BooleanProperty(False)
    language = StringProperty(i18n.DEFAULT_LANGUAGE)  # the current language code; kv may bind to it

    def __init__(
        self,
        *,
        config: Config,
        journal: Journal,
        hardware: Hardware,
        now: Callable[[], float] = time.monotonic,
        preferences: Any = None,
        ask_language: bool = False,
        history_path: Path | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        from companion.preferences import Preferences

        self.preferences = preferences if preferences is not None else Preferences(None)
        # Nothing chosen yet (first start): the language picker comes before the home screen.
        self.ask_language = ask_language
        self.language = i18n.current()
        self.settings = config
        self.journal = journal
        self.hardware = hardware
        self.buttons = hardware.buttons
        self.camera = hardware.camera
        self.simulation = hardware.simulation
        self.now = now
        self.hub = Hub()
        self.session: GameSession | None = None
        # Players and plays, in a file beside the journal (named by the launcher: on a read-only card the journal
        # is a copy in memory, and the history file on the card is still read).
        self.history = History.open(journal, history_path)
        self.history.store.on_trouble = lambda why: self.notice(Topic.HISTORY, why, Severity.ERROR)
        # Keys 1-5 and on-screen seat buttons always work; with real GPIO they are a second board.
        if isinstance(self.buttons, FakeButtons):
            self.sim_buttons = self.buttons
        else:
            self.sim_buttons = FakeButtons(self.buttons.seats, clock=self.buttons.clock)
        self.sim_buttons.source = "touch"
        self.feed = CameraFeed(self.camera, self.hub.put) if self.camera is not None else None
        self.sim_tray = tray_of(self.camera)  # the simulated camera, which rolls when asked; None for a real one
        # What the players are told about hardware and config problems, by topic; newest shown first. A Lazy
        # notice is worded again in the new language after a switch.
        self.notices: dict[str, Notice] = dict(hardware.notices)
        self._errors = KeepRunning(self)
        if config.problems:
            # the count first: a long one is cut
            worded = (
                Lazy("Config: {problem}", problem=config.problems[0])
                if len(config.problems) == 1
                else lazy_n(
                    "Config (+{n} more): {problem}",
                    "Config (+{n} more): {problem}",
                    len(config.problems) - 1,
                    problem=config.problems[0],
                )
            )
            self.notices[Topic.CONFIG] = Notice(Topic.CONFIG, Severity.WARNING, worded)
        if self.history.problem is not None:  # a damaged or locked history file: the games are not affected
            self.notices[Topic.HISTORY] = Notice(Topic.HISTORY, Severity.ERROR, self.history.problem)
        self._watchdog: Any = None

    # -- wiring ------------------------------------------------------------------------------------------

    def build(self) -> Any:
        load_kv()
        root = Builder.load_string(ROOT_KV)
        self.manager: Screens = root.ids.manager
        self.manager.transition = NoTransition()

        self._add_screens()
        if self.ask_language and self.manager.has_screen("language"):
            self.manager.current = "language"
        # Home is the quiet moment between games: what the last screens freed goes back to the system (#21 item 16).
        self._tidy = Clock.create_trigger(lambda _dt: tidy_memory(), 0)
        self.manager.bind(current=lambda _m, name: self._tidy() if name == "home" else None)
        self.hub.set_wake(Clock.create_trigger(self.hub.drain, 0))
        self.hub.on("button", self._deliver_button)
        self.hub.on("camera", self._camera_status)
        self.hub.on("frame", self._deliver_frame)
        self.hub.on("notice", lambda item: self.show_notice(*item))
        for board in {id(self.buttons): self.buttons, id(self.sim_buttons): self.sim_buttons}.values():
            board.add_listener(lambda event: self.hub.put("button", event))
        Clock.schedule_interval(lambda _dt: self.buttons.poll(), 0.1)
        Clock.schedule_interval(
            lambda _dt: self.sim_buttons.poll() if self.sim_buttons is not self.buttons else None, 0.1
        )
        Window.bind(on_key_down=self._key_down, on_key_up=self._key_up)
        # A camera lost (or back) mid-game is noticed even while no screen shows frames. The simulated tray cannot
        # be unplugged: it is not probed, so it stays unopened (no OpenCV) until a screen shows it.
        Clock.schedule_interval(lambda _dt: self._probe_camera(), CAMERA_PROBE_S)
        self._update_banner()
        self._watchdog = Clock.schedule_interval(lambda _dt: notify("WATCHDOG=1"), 5)
        ExceptionManager.add_handler(self._errors)
        return root

    def _probe_camera(self) -> None:
        if self.feed is not None and self.sim_tray is None:
            self.feed.probe()

    def on_start(self) -> None:
        notify("READY=1")

    def on_stop(self) -> None:
        ExceptionManager.remove_handler(self._errors)
        if self.feed is not None:
            self.feed.stop()
        self.buttons.close()
        self.history.store.close()
        keeper = getattr(self, "_memory_keeper", None)
        if keeper is not None:  # the last used roll's look, still being learned, is saved with the memory
            keeper.settle(SETTLE_S)

    # -- hardware events ---------------------------------------------------------------------------------

    def _key_down(self, _window: Any, key: int, *_args: Any) -> bool:
        if key in ROLL_KEYS and self.sim_tray is not None and not self._typing():
            return self.roll_tray()
        seat = KEY_SEATS.get(key)
        if seat is None or self.sim_buttons.is_down(seat):
            return False
        self.sim_buttons.source = "key"
        self.sim_buttons.press(seat)
        return True

    def _key_up(self, _window: Any, key: int, *_args: Any) -> bool:
        seat = KEY_SEATS.get(key)
        if seat is None:
            return False
        self.sim_buttons.release(seat)
        return True

    def _typing(self) -> bool:
        """A text field has the keyboard (a profile name being typed): its letters are not commands."""
        from kivy.uix.textinput import TextInput

        screen = self.manager.current_screen if self.root is not None else None
        return screen is not None and any(isinstance(w, TextInput) and w.focus for w in screen.walk(restrict=True))

    def roll_tray(self) -> bool:
        """Roll the simulated tray again (the R key and the on-screen Roll); False with a real camera."""
        if self.sim_tray is None:
            return False
        self.sim_tray.roll()
        return True

    def expect_dice(self, spec: TrayRoll | None) -> None:
        """What the screen in front expects on the tray: the simulated tray shows a roll that fits it (a real
        camera shows what the table rolled)."""
        if self.sim_tray is not None and spec is not None:
            self.sim_tray.want(spec)

    def touch_seat(self, seat: int, down: bool) -> None:
        """On-screen seat buttons (simulation) press and release through here."""
        self.sim_buttons.source = "touch"
        if down:
            self.sim_buttons.press(seat)
        else:
            self.sim_buttons.release(seat)

    def _deliver_button(self, event: ButtonEvent) -> None:
        handler = getattr(self.manager.current_screen, "on_button", None)
        if handler is not None:
            handler(event)

    def _deliver_frame(self, item: Any) -> None:
        handler = getattr(self.manager.current_screen, "on_frame", None)
        if handler is not None:
            handler(*item)
        if self.feed is not None:
            self.feed.consumed()

    def _camera_status(self, problem: Exception | None) -> None:
        """The camera feed's news: ``None`` when frames flow, else what stopped them."""
        shown: Text | None = None
        if isinstance(problem, CameraReconnecting):
            from companion.runtime import camera_news

            shown = camera_news(problem)  # the reconnecting source's sentence, in the table's language
        elif problem is not None:
            # A bare reason from a plain source.
            shown = Lazy("Camera lost: {reason}. Touch entry still works; reconnecting…", reason=str(problem))
        self.notice(Topic.CAMERA, shown)
        handler = getattr(self.manager.current_screen, "on_camera", None)
        if handler is not None:
            handler(i18n.text(shown) or None)

    def notice(self, topic: str, message: Text | None, severity: Severity = Severity.WARNING) -> None:
        """Show (or with ``None`` clear) the banner message for one topic."""
        self.show_notice(topic, Notice(topic, severity, message) if message else None)

    def show_notice(self, topic: str, notice: Notice | None) -> None:
        """Show a notice on the banner, replacing its topic's (``None``: clear the topic); logged at its
        severity."""
        old = self.notices.pop(topic, None)
        if notice is not None:
            self.notices[topic] = notice
            if old is None or str(old) != str(notice):
                log.log(notice.severity, "notice (%s): %s", topic, notice)
        self._update_banner()

    def _update_banner(self, *_args: Any) -> None:
        from kivy.metrics import dp

        from companion.ui.fonts import readable

        newest = [readable(notice.text) for notice in reversed(list(self.notices.values()))]
        self.banner = banner_text(newest, Window.width - dp(BANNER_SLACK), dp(BANNER_FONT))

    def dismiss_notices(self) -> None:
        """Hide the banner until something new happens."""
        self.notices = {}
        self._update_banner()

    def show_notices(self) -> Any:
        """Tapping the banner: every notice in full (each config problem on its own line), then Hide or Keep.
        The banner itself shows two notices, shortened; this is where nothing is cut."""
        from companion.ui.fonts import readable
        from companion.ui.widgets import notices_view

        lines = [readable(n.text) for topic, n in reversed(list(self.notices.items())) if topic != Topic.CONFIG]
        if Topic.CONFIG in self.notices:
            lines += [str(Lazy("Config: {problem}", problem=problem)) for problem in self.settings.problems]
        return notices_view(lines, self.dismiss_notices)

    # -- games -------------------------------------------------------------------------------------------

    def start_game(self, setup: Setup, persons: dict[int, str] | None = None) -> GameSession:
        """Record a new game and open its screen. ``persons`` (seat -> player uid) says who chose which seat at
        setup, so the play is theirs in history and they are offered first next time."""
        self.session = GameSession.start(self.journal, setup)
        try:
            self.history.started(setup, self.session.game_id, persons or {})
        except (HistoryError, JournalError) as err:  # history is a convenience: never stops a game
            self.notice(Topic.HISTORY, _("Players could not be remembered: {error}").format(error=err))
        self.open_game_screen()
        return self.session

    def resume(self, game_id: int) -> GameSession | None:
        """Reopen an unfinished game exactly where its journal stops. A game that no longer replays (a changed
        rule or file in an update, a damaged journal) is not opened: the banner says why and Saved games opens,
        where it can be exported or no longer offered; nothing in the journal changes."""
        try:
            session = GameSession(self.journal, game_id)
        except GameDamaged as err:
            self.notice(
                Topic.RESUME,
                Lazy(
                    "Game {id} is damaged ({reason}) and cannot be reopened. It stays in the journal file; the "
                    "other games are fine.",
                    id=game_id,
                    reason=err.reason,
                ),
                Severity.ERROR,
            )
            self.go("games")
            return None
        except (ReplayError, JournalError) as err:
            why = str(err).removeprefix(f"game {game_id}: ")
            self.notice(
                Topic.RESUME,
                Lazy("Game {id} cannot be reopened ({why}). Export it, or stop offering it here.", id=game_id, why=why),
            )
            self.go("games")
            return None
        self.notice(Topic.RESUME, None)
        self.session = session
        Clock.schedule_once(lambda _dt: _prepare_undo(session), 0)  # after this frame, not on the first Undo
        self.open_game_screen()
        return self.session

    def open_game_screen(self) -> None:
        assert self.session is not None
        name = self.session.setup.game
        if not self.manager.has_screen(name):
            screen = GAMES[name].screen
            if screen is None:
                raise ValueError(f"game {name!r} has no screen to be played on")
            self.manager.add_widget(instantiate(screen, name=name))
        screen = self.manager.get_screen(name)
        screen.attach(self.session)
        self.manager.current = name

    def go(self, name: str) -> None:
        """Switch to a screen by name (home, setup, games, buttons, camera, dice, calibrate, or a game)."""
        self.manager.current = name

    def vision_profile(self, resolution: tuple[int, int]) -> Any:
        """The dice reader's settings from the active calibration profile of this camera at this resolution,
        or None (uncalibrated: pip dice still read; colour and picture dice by touch). Never raises."""
        from companion import paths
        from companion.vision.dice_kinds import active_vision_profile

        camera = self.camera.id if self.camera is not None else "camera"
        found = active_vision_profile(resolution, camera, base_dir=paths.calibration_dir())
        # A broken or mismatched profile is said on screen (this runs in the camera thread: via the hub).
        why = Notice(Topic.CALIBRATION, Severity.WARNING, Lazy("Calibration: {why}", why=found.message))
        self.hub.put("notice", (Topic.CALIBRATION, why if found.broken else None))
        return found.profile

    # -- the table's dice, remembered (the dice screen's checked rolls; companion.vision.dice_memory) ----------

    def dice_memory_key(self, resolution: tuple[int, int]) -> str:
        """Which memory the frames of this camera at ``resolution`` read with: ``<camera>@<W>x<H>``."""
        from calibration.profile import camera_key

        return camera_key(self.camera.id if self.camera is not None else "camera", resolution)

    def memory_keeper(self) -> Any:
        """The memories of the tables' dice (made on first use: it loads numpy, as the dice reader does)."""
        keeper = getattr(self, "_memory_keeper", None)
        if keeper is None:
            from companion import paths
            from companion.vision.dice_memory import MemoryKeeper, MemoryStore

            keeper = self._memory_keeper = MemoryKeeper(MemoryStore(paths.calibration_dir() / "dice-memory"))
        return keeper

    def dice_memory(self, resolution: tuple[int, int]) -> Any:
        """The remembered dice the camera's frames at ``resolution`` are read with (an empty memory at first).
        Runs in the camera thread: a memory that could not be used is said via the hub. Never raises."""
        from companion.vision.dice_memory import STALE, DiceMemory

        key = self.dice_memory_key(resolution)
        try:
            keeper = self.memory_keeper()
            memory = keeper.get(key)
        except Exception as err:  # the reader goes on without one; the log has the details
            log.warning("dice memory for %s not loaded: %s", key, err)
            return DiceMemory()
        problem = keeper.take_problem(key)
        if problem is not None:
            words = (
                Lazy("The dice reader has changed: it learns your dice again from the rolls you check")
                if problem == STALE
                else Lazy("What the dice reader had learned of your dice could not be read: it learns them again")
            )
            self.hub.put("notice", (Topic.DICE_MEMORY, Notice(Topic.DICE_MEMORY, Severity.WARNING, words)))
        return memory

    def dice_tuned(self, resolution: tuple[int, int]) -> bool:
        """Whether the camera's frames at ``resolution`` are read with the face classifiers tuned to this table's
        look (``table_look.TableLook.ready``: enough used dice, a table unlike the training photos, and checked
        rolls that bear it out). Never raises."""
        from companion.vision.pipeline import DEFAULT_PROFILE

        try:
            look = self.dice_memory(resolution).look
            if not look.layers:  # nothing learned (the look off, as shipped): no calibration profile to read
                return False
            settings = (self.vision_profile(resolution) or DEFAULT_PROFILE).learned  # uncalibrated: the shipped
            return bool(look.ready(settings))
        except Exception as err:  # the screen then says nothing of it; the log has the details
            log.warning("whether the dice reader is tuned to the table is not known: %s", err)
            return False

    def learn_dice(self, frame: Any, boxes: list[tuple[int, int, int, int]], values: list[int]) -> int:
        """Remember a checked roll's dice (boxes in the frame's pixels; value 0: not a die), read as the camera's
        calibration reads this frame. Returns how many dice the memory now holds. A memory that cannot be saved
        (a full or read-only card) is kept until the app stops, and a notice says so; nothing else is lost."""
        from companion.vision.dice_memory import DiceMemoryError

        resolution = (int(frame.shape[1]), int(frame.shape[0]))
        key = self.dice_memory_key(resolution)
        keeper = self.memory_keeper()
        try:
            memory = keeper.learn(key, frame, boxes, values, self.vision_profile(resolution))
        except DiceMemoryError as err:
            self.notice(
                Topic.DICE_MEMORY, Lazy("What the dice reader learned could not be saved ({why})", why=str(err))
            )
            return int(keeper.get(key).dice)
        except Exception as err:  # a damaged network file: the reading goes on, only the learning is lost
            log.error("the roll's dice were not learned: %s", err)
            return int(keeper.get(key).dice)
        self.notice(Topic.DICE_MEMORY, None)
        return int(memory.dice)

    def forget_dice(self, resolution: tuple[int, int]) -> bool:
        """Forget the dice learned for this camera at ``resolution``; False (and a notice) when its file could
        not be removed."""
        from companion.vision.dice_memory import DiceMemoryError

        try:
            self.memory_keeper().forget(self.dice_memory_key(resolution))
        except DiceMemoryError as err:
            self.notice(
                Topic.DICE_MEMORY, Lazy("What the dice reader learned could not be removed ({why})", why=str(err))
            )
            return False
        return True

    def camera_reads(self, kind: str) -> bool:
        """Whether the camera can read dice of ``kind`` ("colour" or "picture"): only where it is calibrated for
        them (the active profile of this camera at the size of its frames; number dice read without one).
        False without a camera. Never raises, and loads no part of the dice reader (a Rat-a-Tat screen asks this
        for its picture-die spaces: the reader's OpenCV and numpy cost ~70 MB, #21 item 16)."""
        from calibration.store import ProfileStore
        from companion import paths

        if self.camera is None or self.feed is None:
            return False
        latest = getattr(self.feed, "latest", None)
        if latest is not None and getattr(latest[0], "shape", None) is not None:
            resolution = (int(latest[0].shape[1]), int(latest[0].shape[0]))
        else:
            resolution = (int(self.settings["camera"]["width"]), int(self.settings["camera"]["height"]))
        try:
            return kind in ProfileStore(paths.calibration_dir()).readable_kinds(self.camera.id, resolution)
        except Exception:  # a calibration that cannot be read is no calibration here (the dice screen says why)
            log.exception("calibration could not be checked")
            return False

    def open_dice(self, return_to: str, back_to: str | None = None) -> None:
        """Open the dice screen; "use this roll" returns to ``return_to``, Back to ``back_to`` (default: the same)."""
        if not self.manager.has_screen("dice"):
            return
        self.manager.get_screen("dice").open_for(return_to, back_to)
        self.go("dice")

    def game_in_progress(self) -> str | None:
        """The screen name of the loaded game if it is not over (the one a roll from the dice tool goes to)."""
        session = self.session
        if session is None or session.engine.is_over(session.state):
            return None
        name = session.setup.game
        return name if self.manager.has_screen(name) else None

    def game_title(self, name: str) -> str:
        from companion.ui.words import game_title

        return game_title(find_engine(name))

    # -- language ----------------------------------------------------------------------------------------

    def _add_screens(self) -> None:
        from companion.ui.screens import SCREENS

        self.manager.makers = dict(SCREENS)
        self.manager.get_screen("home")  # the first screen made is the one shown; the others when asked for

    def choose_language(self, code: str) -> None:
        """Switch the whole app to ``code`` now and remember it. The screen on show words itself again in place;
        every other screen is made afresh in the new language when it is next shown (a game screen takes its
        game back from the session, exactly as on resume), so nothing said in the old language is left."""
        problem = i18n.set_language(code)
        self.language = i18n.current()
        self.ask_language = False
        if not self.preferences.set("language", self.language):
            problem = problem or self.preferences.problem
        self.notice(Topic.LANGUAGE, Lazy("Language: {problem}", problem=problem) if problem else None)
        current = self.manager.current
        for screen in list(self.manager.screens):
            if screen.name != current:
                self.manager.remove_widget(screen)
        self._add_screens()
        reword = getattr(self.manager.current_screen, "reword", None)
        if reword is not None:
            reword()
        self._update_banner()


def _prepare_undo(session: GameSession) -> None:
    """A resumed game's states for the next undos, worked out between frames; a problem is said by Undo."""
    with contextlib.suppress(ReplayError, JournalError):
        session.prepare_undo()
