"""Simulation is one fixed camera over a tray (#21 items 4, 5): a roll that fits the game in progress, held until
someone rolls again (R or the on-screen Roll), no boxes of an earlier picture over a new one, corrections that
stay, and a calibration that can be finished. Screenshots: tests/screenshots/sim-*.png."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from ui_support import UI, FakeCamera, layout_problems

from companion.games.base import Player, Setup
from hardware.simtray import COLOUR, PICTURE, PIPS

pytestmark = pytest.mark.ui

PLAYERS = (Player("Ana", "#e53935", 1), Player("Bo", "#1e88e5", 2))


def fast(ui: UI, seed: int) -> Any:
    """The app's simulated tray, repeatable and quick to settle (the reader's settle and vote run as configured)."""
    tray = ui.app.sim_tray
    assert tray is not None
    ui.app.camera.open()  # as a camera is (the app opens the tray when a screen first shows it)
    tray.rng = random.Random(seed)
    tray.motion_s = 0.4
    tray.roll()  # the roll the tray made when the app opened it was not seeded: this one is, so the test repeats
    ui.app.settings["dice"]["settle_ms"] = 200
    ui.use_camera(ui.app.camera, interval_s=0.03)
    return tray


def boxes_drawn(screen: Any) -> int:
    from kivy.graphics import Line

    return sum(1 for instruction in screen.ids.view.canvas.after.children if isinstance(instruction, Line))


def settled(ui: UI, screen: Any, timeout_s: float = 30) -> bool:
    return ui.wait_until(lambda: screen.roll is not None and not screen.moving, timeout_s=timeout_s)


def test_rat_a_tat_reads_a_roll_of_its_dice_and_it_holds_until_rolled_again(ui: UI) -> None:
    tray = fast(ui, seed=2)
    ui.app.start_game(Setup("ratatat", PLAYERS, seed=3))
    ui.advance(3)
    game = ui.screen()
    for region in range(5):  # deal the five face-up cards by touch
        game.reveal(region, [5, 6, 1, 8, 3][region])
    ui.advance(2)
    assert game.state["phase"] == "roll"
    ui.tap_text("Read the dice with the camera")
    screen = ui.screen()
    assert screen.name == "dice" and screen.simulated and ui.find("Roll", screen)
    assert settled(ui, screen)
    truth = sorted(face for kind, face in tray.dice if kind == PIPS)
    assert 1 <= len(truth) <= 3 and {kind for kind, _ in tray.dice} == {PIPS}  # a Rat-a-Tat roll, not 24 dice
    assert sorted(int(v) for v in screen.roll.faces(PIPS)) == truth
    assert boxes_drawn(screen) == len(truth)
    ui.screenshot("sim-ratatat-settled")
    # Nobody rolls: seconds later the same dice, the same reading (the old camera swapped the photo every 2 s).
    before = screen.roll
    ui.advance(40, seconds=2.0)
    assert screen.roll is before and sorted(face for kind, face in tray.dice if kind == PIPS) == truth
    # R rolls again: the boxes of the old picture go at once, a new roll settles.
    tray.motion_s = 1.0  # time enough for a loaded machine's camera thread to see the dice move
    ui.key("r")
    assert tray.moving and tray.rolls >= 2
    assert ui.wait_until(lambda: screen.moving and boxes_drawn(screen) == 0, timeout_s=5)
    ui.screenshot("sim-ratatat-rolling")
    assert ui.wait_until(lambda: screen.roll is not None and screen.roll is not before and not screen.moving, 30)
    truth = sorted(face for kind, face in tray.dice if kind == PIPS)
    assert sorted(int(v) for v in screen.roll.faces(PIPS)) == truth
    ui.tap(ui.find("Use in"))
    assert ui.screen().name == "ratatat" and sorted(game.state["dice"]) == truth


def test_the_on_screen_roll_and_boxes_never_over_a_new_picture(ui: UI) -> None:
    """While the dice move, no box is drawn, not even those of a roll the player corrected (its values are kept
    and come back if the same dice settle again)."""
    tray = fast(ui, seed=5)
    screen = ui.go("dice")
    assert settled(ui, screen)
    ui.tap(ui.find("Roll", screen))
    assert tray.moving
    frames_with_boxes_while_moving = 0
    for _ in range(30):
        ui.advance(1, seconds=0.03)
        if screen.moving and boxes_drawn(screen):
            frames_with_boxes_while_moving += 1
    assert frames_with_boxes_while_moving == 0
    assert settled(ui, screen)
    assert boxes_drawn(screen) == len(screen.roll.dice)


def test_corrections_stay_while_nobody_rolls(ui: UI) -> None:
    """#21: corrections were thrown away at the next photo ("the corrections were for the la...ne.")."""
    fast(ui, seed=7)
    screen = ui.go("dice")
    assert settled(ui, screen)
    screen.select(0)
    ui.advance(2)  # the face picker laid out
    face = 6 if screen.roll.dice[0].face != 6 else 5
    ui.tap(ui.find(str(face), screen.ids.picker))
    corrected = screen.roll
    assert corrected.dice[0].face == face and screen.by_hand
    ui.advance(30, seconds=3.0)
    assert screen.roll is corrected and "corrections were for" not in screen.status_text
    ui.screenshot("sim-corrected")
    assert not layout_problems(ui.app.root), layout_problems(ui.app.root)


def test_lowdown_gets_two_colour_and_two_number_dice(ui: UI) -> None:
    """No calibration: the numbers are read, the colour dice are asked for by touch (the dice are on the tray)."""
    tray = fast(ui, seed=3)
    ui.app.start_game(Setup("lowdown", PLAYERS, seed=3))
    ui.advance(3)
    game = ui.screen()
    ui.tap_text("Read the dice with the camera")
    screen = ui.screen()
    assert sorted(kind for kind, _ in tray.dice) == [COLOUR, COLOUR, PIPS, PIPS]
    assert settled(ui, screen)
    numbers = sorted(face for kind, face in tray.dice if kind == PIPS)
    assert sorted(int(v) for v in screen.roll.faces(PIPS)) == numbers
    ui.screenshot("sim-lowdown-dice")
    ui.tap(ui.find("Use in"))
    assert ui.screen() is game and "Tap the colour dice" in game.header_text
    assert sorted(game.entry["numbers"]) == numbers


def test_a_real_camera_never_shows_a_roll_button(ui: UI) -> None:
    frame = np.full((480, 640, 3), 90, np.uint8)
    ui.use_camera(FakeCamera(frame, "usb camera"))
    screen = ui.go("dice")
    assert not screen.simulated and screen.ids.roll.opacity == 0 and screen.ids.roll.disabled
    ui.key("r")  # no tray to roll: the key does nothing


@pytest.mark.slow
def test_calibration_can_be_finished_in_simulation(ui: UI) -> None:
    """#21.4: the wizard stopped at step 2 ("this calibration is for 640x640") and Start again failed the same
    way. One frame size: camera, tray (the markers), empty tray, every colour and picture face, verify, save."""
    tray = fast(ui, seed=9)
    tray.motion_s = 0.15
    screen = ui.go("calibrate")
    assert ui.wait_until(lambda: screen.wizard is not None and screen.frames > 2, timeout_s=20)
    assert screen.simulated and screen.mismatch is None

    def primary() -> None:
        """The step's main button, on a picture of the dice lying still (as a player waits for them)."""
        assert ui.wait_until(lambda: not tray.moving, timeout_s=10)
        seen = screen.frames
        assert ui.wait_until(lambda: screen.frames > seen + 1, timeout_s=10)
        screen.primary()
        ui.advance(2)

    screen.go_next()  # camera check
    assert screen.step == "tray"
    primary()
    assert screen.wizard.profile.tray is not None, screen.status
    screen.go_next()
    assert screen.step == "empty" and tray.dice == []  # the simulated hand took the dice out
    primary()
    assert screen.wizard.empty_image is not None, screen.status
    screen.go_next()
    for kind in ("colour", "picture"):
        assert screen.step == kind
        task = screen.wizard.task(kind)
        while task.current is not None:
            face = task.current
            assert all(f == face for k, f in tray.dice), (face, tray.dice)
            primary()
            assert not screen.status_error, screen.status
            if task.current == face:
                ui.tap(ui.find("Roll"))  # roll between captures
        ui.screenshot(f"sim-calibrate-{kind}-done")
        screen.go_next()
    assert screen.step == "verify"
    assert {kind for kind, _ in tray.dice} == {PIPS, COLOUR, PICTURE}
    primary()  # read
    assert screen.reads, screen.status
    ui.screenshot("sim-calibrate-verify")
    read = sorted(str(face) for _box, _kind, face in screen.reads if face is not None)
    truth = sorted(str(face) for kind, face in tray.dice if kind != PIPS)
    assert read == truth, (read, truth)
    screen.primary()  # confirm: counted
    ui.advance(2)
    assert "colour" in screen.status and not screen.status_error, screen.status
    screen.go_next()
    assert screen.step == "save"
    screen.ids.name_input.text = "sim table"
    screen.primary()
    ui.advance(2)
    assert screen.saved_name == "sim table", screen.status
    ui.screenshot("sim-calibrate-saved")


def test_with_a_real_camera_the_old_boxes_go_when_the_picture_changes(ui: UI) -> None:
    """A camera (not the simulation) whose picture changes: the boxes of the last roll are not drawn over the new
    picture while it is judged moving; the new roll brings its own."""
    from hardware.simtray import SimulatedTray, TrayRoll

    source = SimulatedTray(seed=4, motion_s=0.0)
    source.open()
    source.want(TrayRoll(pips=(3, 3)))
    first = source.read().image
    source.want(TrayRoll(pips=(1, 1)))
    second = source.read().image
    ui.app.settings["dice"]["settle_ms"] = 200
    camera = ui.use_camera(FakeCamera(first, "usb camera"), interval_s=0.03)
    screen = ui.go("dice")
    assert settled(ui, screen) and boxes_drawn(screen) == 3
    camera.frame = second  # the dice were picked up and one rolled
    assert ui.wait_until(lambda: screen.moving, timeout_s=10)
    assert boxes_drawn(screen) == 0
    ui.screenshot("sim-real-camera-new-picture")
    assert ui.wait_until(lambda: not screen.moving and screen.roll is not None, timeout_s=30)
    assert boxes_drawn(screen) == len(screen.roll.dice) == 1
