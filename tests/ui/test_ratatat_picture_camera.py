"""Rat-a-Tat's picture-die spaces read the picture die with the camera where it is calibrated, as the number dice
are (#21 item 7): the picture space offers "Read the picture die with the camera", the dice screen shows (in
simulation) a roll of the picture die, reads it with the calibration and hands it to the game, which resolves the
face. Without a picture-die calibration only the faces to tap are offered. Screenshots
tests/screenshots/ratatat-picture-camera-*.png."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from test_ratatat import buttons, start
from ui_support import UI, layout_problems

from companion.games.base import Player
from hardware.simtray import PICTURE, SimulatedTray, TrayRoll

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#42a5f5", 2))


def calibrate_picture_die(store_dir: Path, size: tuple[int, int] = (640, 480)) -> None:
    """Calibrate the simulated camera's tray and picture die, as the wizard does on screen (markers, empty tray,
    three captures of each face), and make the profile active."""
    from calibration.store import ProfileStore
    from companion.calibrate.wizard import Wizard

    tray = SimulatedTray(size, seed=5, motion_s=0.0)
    tray.open()
    tray.want(TrayRoll.empty())
    wizard = Wizard("sim", size)
    frame = tray.read().image
    assert wizard.profile.tray is None
    wizard.find_markers(frame)
    assert wizard.profile.tray is not None
    wizard.capture_empty(frame)
    task = wizard.task("picture")
    while task.current is not None:
        face = task.current
        tray.want(TrayRoll(pictures=1, picture_face=face))
        tray.roll()
        captured = wizard.capture_face("picture", tray.read().image)
        assert captured.ok or "again" in captured.message, captured.message
    wizard.fit("picture")
    wizard.save(ProfileStore(store_dir), "sim table")


def to_picture_space(ui: UI, screen: Any) -> None:
    """Deal by the screen's own moves and roll onto the first picture-die space (clockwise from the start)."""
    for region, value in enumerate([5, 6, 1, 8, 3]):
        assert screen.act({"type": "reveal", "region": region, "value": value, "balloon": False})
    st = screen.state
    spaces = st["board"]["spaces"]
    options = [[a] for a in range(1, 7)] + [[a, b] for a in range(1, 7) for b in range(1, 7)]
    dice = next(d for d in options if spaces[(st["statue"] + sum(d)) % len(spaces)]["kind"] == "picture")
    assert screen.act({"type": "roll", "dice": dice}) and screen.act({"type": "move"})
    ui.advance(3)
    assert screen.state["phase"] == "picture"


def has_camera_button(ui: UI) -> bool:
    return any(b.text == "Read the picture die with the camera" for b in buttons(ui))


def test_without_a_picture_calibration_the_faces_are_tapped(ui: UI, tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))  # no calibration at all
    screen = start(ui, PLAYERS)
    to_picture_space(ui, screen)
    assert not has_camera_button(ui)
    assert {b.text for b in buttons(ui)} >= {"Cat (lowest)", "Rat (highest)", "Swap"}


@pytest.mark.parametrize("shown", [False, True], ids=["plain", "banner"])
def test_the_picture_die_is_read_with_the_camera(ui: UI, tmp_path: Path, monkeypatch: Any, shown: bool) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("COMPANION_HOME", str(home))
    calibrate_picture_die(home / "data" / "calibration")
    ui.app.dismiss_notices()
    if shown:
        ui.app.notice("buttons", "No GPIO buttons found: keys 1–5 and the on-screen buttons stand in for the players")
    tray = ui.app.sim_tray
    assert tray is not None and ui.app.camera.id == "sim"
    tray.rng = random.Random(11)
    tray.motion_s = 0.4
    ui.app.settings["dice"]["settle_ms"] = 200
    ui.use_camera(ui.app.camera, interval_s=0.03)
    screen = start(ui, PLAYERS)
    to_picture_space(ui, screen)
    assert has_camera_button(ui)
    ui.screenshot("ratatat-picture-camera-offered" + ("-banner" if shown else ""))
    assert not layout_problems(screen.ids.controls), layout_problems(screen.ids.controls)
    controls, strip = screen.ids.controls, screen.ids.players
    assert controls.to_window(controls.x, controls.y)[1] >= strip.to_window(strip.x, strip.top)[1] - 1
    ui.tap(next(b for b in buttons(ui) if b.text == "Read the picture die with the camera"))
    dice = ui.screen()
    assert dice.name == "dice"
    assert ui.wait_until(lambda: [k for k, _ in tray.dice] == [PICTURE] and not tray.moving, timeout_s=10)
    face = tray.dice[0][1]
    assert ui.wait_until(lambda: dice.roll is not None and not dice.moving, timeout_s=40), dice.status_text
    read = [(d.kind, str(d.face)) for d in dice.roll.dice]
    assert read == [(PICTURE, face)], (read, face)
    ui.screenshot("ratatat-picture-camera-read" + ("-banner" if shown else ""))
    ui.tap(ui.find("Use in"))
    assert ui.screen() is screen
    assert screen.state["phase"] in ("picture_rolled", "roll") and screen.session.actions[-1] == {
        "type": "picture",
        "face": face,
    }
