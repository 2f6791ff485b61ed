"""Hardware set-up: the camera is chosen by the hardware present, whatever happened to the buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import config as config_mod
from companion import runtime


def test_a_pi_whose_gpio_failed_still_uses_its_camera(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = config_mod.load(tmp_path / "missing.toml")
    chosen: list[str] = []

    def fake_open_camera(spec: str, size: tuple[int, int], connect: bool = True) -> tuple[object, str]:
        chosen.append(spec)
        assert connect  # a real camera is opened at start-up, so a missing one is said at once
        return object(), ""

    monkeypatch.setattr("hardware.sources.open_camera", fake_open_camera)
    monkeypatch.setattr(runtime, "is_pi", lambda: True)
    real = Path.exists
    monkeypatch.setattr(runtime.Path, "exists", lambda self: str(self) == "/proc/device-tree/model" or real(self))
    hardware = runtime.build(cfg)  # no GPIO here: the buttons fall back to keys
    assert hardware.simulation and chosen == ["pi"]
    assert "camera" not in hardware.notices


def test_no_camera_at_all_says_the_sample_photos_are_shown(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = config_mod.load(tmp_path / "missing.toml")
    real = Path.exists
    hidden = {"/dev/video0", "/proc/device-tree/model"}
    monkeypatch.setattr(runtime.Path, "exists", lambda self: str(self) not in hidden and real(self))
    for simulate in (False, True):
        hardware = runtime.build(cfg, simulate=simulate)
        if simulate:
            assert "camera" not in hardware.notices  # asked for: nothing to say
        else:
            assert "sample photos" in str(hardware.notices["camera"])
        hardware.camera.close()


def test_the_simulated_tray_opens_when_first_read(tmp_path: Path) -> None:
    """The simulated camera is not opened at start-up (cutting its sample dice loads OpenCV and the photos, memory
    the home screen does not need, #21 item 16); its first read opens it and gives the tray."""
    from hardware.simtray import tray_of

    hardware = runtime.build(config_mod.load(tmp_path / "missing.toml"), simulate=True)
    camera = hardware.camera
    assert camera is not None and camera.id == "sim"
    tray = tray_of(camera)
    assert tray is not None and not camera.connected and tray.dice == []
    tray.want(tray.spec)  # a game asks for its roll before anything was read: done when opened
    frame = camera.read()
    assert camera.connected and frame.image.shape[:2] == (480, 640)
    assert 1 <= len(tray.dice) <= 3
