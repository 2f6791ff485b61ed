"""Camera screen: live frames from a replay source, and the banner when the camera goes away and comes back."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from ui_support import UI

from hardware.camera import CameraUnavailable


class FlakyCamera:
    """A camera that can be unplugged and plugged back in by the test."""

    name = "test camera"

    def __init__(self) -> None:
        self.present = True
        self.frame = np.zeros((480, 640, 3), np.uint8)
        cv2.rectangle(self.frame, (100, 100), (300, 300), (0, 200, 0), -1)

    def open(self) -> None:
        pass

    def read(self) -> np.ndarray:
        if not self.present:
            raise CameraUnavailable("test camera unplugged")
        return self.frame

    def close(self) -> None:
        pass


def _with_camera(ui: UI, camera: FlakyCamera) -> None:
    from companion.ui.camera_feed import CameraFeed

    ui.app.camera = camera
    ui.app.feed = CameraFeed(camera, ui.app.hub.put, interval_s=0.02, retry_s=0.05)


def test_live_frames_are_shown(ui: UI) -> None:
    camera = FlakyCamera()
    _with_camera(ui, camera)
    screen = ui.go("camera")
    assert ui.wait_until(lambda: screen.frames >= 2)
    assert "640×480" in screen.info_text
    shot = ui.screenshot("camera")
    image = cv2.imread(str(shot))
    # the green square of the frame is on screen
    assert (image[:, :, 1] > 150).sum() > 2000


def test_camera_loss_shows_banner_and_recovers(ui: UI) -> None:
    camera = FlakyCamera()
    _with_camera(ui, camera)
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
    ui.app.feed = None
    screen = ui.go("camera")
    assert "No camera" in screen.info_text
