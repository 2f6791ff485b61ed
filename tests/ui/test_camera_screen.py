"""Camera screen: live frames from a replay source, and the banner when the camera goes away and comes back."""

from __future__ import annotations

import time
from pathlib import Path

import cv2
import numpy as np
import pytest
from ui_support import UI, FakeCamera

from hardware.camera import Frame


def flaky_camera() -> FakeCamera:
    """A camera showing a green square, which the test can unplug and plug back in."""
    frame = np.zeros((480, 640, 3), np.uint8)
    cv2.rectangle(frame, (100, 100), (300, 300), (0, 200, 0), -1)
    return FakeCamera(frame)


def test_live_frames_are_shown(ui: UI) -> None:
    camera = flaky_camera()
    ui.use_camera(camera)
    screen = ui.go("camera")
    assert ui.wait_until(lambda: screen.frames >= 2)
    assert "640×480" in screen.info_text
    shot = ui.screenshot("camera")
    image = cv2.imread(str(shot))
    # the green square of the frame is on screen
    assert (image[:, :, 1] > 150).sum() > 2000


def test_camera_loss_shows_banner_and_recovers(ui: UI) -> None:
    camera = flaky_camera()
    ui.use_camera(camera)
    screen = ui.go("camera")
    assert ui.wait_until(lambda: screen.frames >= 1)
    camera.present = False
    assert ui.wait_until(lambda: "Camera lost" in ui.app.banner)
    ui.screenshot("camera-lost")
    assert "unplugged" in ui.app.banner
    camera.present = True
    seen = screen.frames
    assert ui.wait_until(lambda: "Camera lost" not in ui.app.banner and screen.frames > seen)


def test_no_camera_says_so(ui: UI, tmp_path: Path) -> None:
    ui.use_camera(flaky_camera())
    screen = ui.go("camera")
    assert ui.wait_until(lambda: screen.frames >= 1)
    ui.go("home")
    ui.app.feed = None
    screen = ui.go("camera")
    assert "No camera" in screen.info_text
    assert screen.ids.view.texture is None  # no stale picture from the earlier visit
    image = cv2.imread(str(ui.screenshot("camera-none")))
    green = (image[:, :, 1] > 150) & (image[:, :, 2] < 100) & (image[:, :, 0] < 100)
    assert green.sum() < 50  # the old green square is gone
    assert "No camera" in ui.texts()


class Unpluggable:
    """A raw frame source (like a USB webcam) that fails to open and read while unplugged."""

    id = "webcam:1"
    name = "usb test camera"

    def __init__(self) -> None:
        self.present = True
        self.opens = 0
        self.frame = np.full((480, 640, 3), 40, np.uint8)

    def open(self) -> None:
        if not self.present:
            raise OSError("no such device")
        self.opens += 1

    def read(self) -> Frame:
        if not self.present:
            raise OSError("device disconnected")
        return Frame(self.frame, time.monotonic())

    def close(self) -> None:
        pass


def test_camera_lost_mid_game_touch_works_and_it_reconnects(ui: UI) -> None:
    """The real ReconnectingSource: unplugged during a game → banner; touch entry reaches the game; plugged
    back in → it reopens by itself and the banner goes."""
    from companion.games.base import Player, Setup
    from companion.vision.roll import Roll
    from hardware.sources import ReconnectingSource

    raw = Unpluggable()
    camera = ReconnectingSource(raw, backoff_s=(0.05,))
    camera.open()
    ui.use_camera(camera)
    game = "ratatat"
    ui.app.start_game(Setup(game, (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=3))
    game_screen = ui.screen()
    received: list[Roll] = []
    game_screen.on_roll = received.append  # type: ignore[method-assign]
    ui.app.open_dice(game)
    ui.advance(2)
    dice = ui.screen()
    assert ui.wait_until(lambda: dice.frame_size == (640, 480))

    raw.present = False
    assert ui.wait_until(lambda: "Camera lost" in ui.app.banner)
    assert ui.app.banner.count("Camera") == 1, ui.app.banner  # said once, not wrapped twice
    assert "usb test camera" in ui.app.banner and "touch" in ui.app.banner
    ui.screenshot("camera-lost-mid-game")
    banner = next(w for w in ui.app.root.children if getattr(w, "text", None) == ui.app.banner)
    assert banner.texture_size[0] <= banner.width  # wrapped inside the window, not cut off at the edge

    assert "add dice by touch" in dice.status_text and dice.status_is_error  # not a stale "Rolling…"

    # touch keeps working while the camera is gone: add a die by hand...
    ui.tap(ui.find("Add die"))
    ui.tap(ui.find("5", root=dice.ids.picker))
    assert dice.roll is not None and dice.roll.faces("pips") == [5]

    # ...the camera comes back by itself (reopened), frames flow, and what was typed is not wiped
    opens = raw.opens
    last_frame = ui.app.feed.latest
    raw.present = True
    assert ui.wait_until(lambda: "Camera" not in ui.app.banner and raw.opens > opens)
    assert ui.wait_until(lambda: ui.app.feed.latest is not last_frame)  # new frames read...
    ui.advance(10, seconds=0.3)  # ...and shown (the live reader sees a tray without dice)
    assert dice.roll is not None and dice.roll.faces("pips") == [5]
    ui.tap(ui.find("Use in"))
    assert ui.screen() is game_screen
    assert received and received[-1].faces("pips") == [5]


def test_startup_camera_notice_clears_once_frames_flow(ui: UI) -> None:
    """A camera that was missing at start-up and is plugged in later: the first frames clear the banner."""
    ui.app.notice("camera", "Camera not available: no Pi camera found. Trying again; touch input works meanwhile.")
    assert "Camera not available" in ui.app.banner
    ui.use_camera(flaky_camera())
    screen = ui.go("camera")
    assert ui.wait_until(lambda: screen.frames >= 1 and "Camera" not in ui.app.banner)


def test_camera_checked_while_no_screen_reads_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a game screen (no camera view open) an unplugged camera still gets its banner, and it clears by
    itself when the camera is back: the app probes the camera on the clock."""
    import companion.ui.app as app_module
    from companion.games.base import Player, Setup
    from hardware.sources import ReconnectingSource

    monkeypatch.setattr(app_module, "CAMERA_PROBE_S", 0.1)
    ui = UI(tmp_path)
    try:
        raw = Unpluggable()
        camera = ReconnectingSource(raw, backoff_s=(0.05,))
        ui.use_camera(camera)
        ui.app.start_game(Setup("ratatat", (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2)), seed=3))
        game = ui.screen()
        raw.present = False
        assert ui.wait_until(lambda: "Camera" in ui.app.banner)
        assert ui.screen() is game  # nothing opened a camera screen
        assert ui.app.feed.latest is None  # probes read, they post no frames
        raw.present = True
        assert ui.wait_until(lambda: ui.app.banner == "")
    finally:
        ui.close()


def test_the_simulated_tray_is_not_probed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A simulated tray cannot be unplugged: the app's camera probe leaves it unopened (no OpenCV, no sample
    photos in memory on the home screen) until a screen shows it."""
    import companion.ui.app as app_module
    from hardware.sources import open_camera

    monkeypatch.setattr(app_module, "CAMERA_PROBE_S", 0.05)
    ui = UI(tmp_path)
    try:
        camera, message = open_camera("sim", connect=False)
        assert message is None
        ui.use_camera(camera)
        ui.advance(25, seconds=0.5)
        assert not camera.connected
        screen = ui.go("camera")
        assert ui.wait_until(lambda: screen.frames >= 1)
        assert camera.connected
    finally:
        ui.close()
