"""Hardware set-up: the camera is chosen by the hardware present, whatever happened to the buttons."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import config as config_mod
from companion import runtime


def test_a_pi_whose_gpio_failed_still_uses_its_camera(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = config_mod.load(tmp_path / "missing.toml")
    chosen: list[str] = []

    def fake_open_camera(spec: str, size: tuple[int, int]) -> tuple[object, str]:
        chosen.append(spec)
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
