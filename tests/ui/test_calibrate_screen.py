"""The calibration wizard by touch, fed synthetic camera frames: every step, taps on the picture, verify with a
correction, save, and choosing another profile; plus the no-camera case. Screenshots at 800×480."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from ui_support import UI, FakeCamera

from calibration.store import ProfileStore
from companion.calibrate.bench import synthetic_renderer

R: Any = synthetic_renderer()


def setup(ui: UI, tmp_path: Path, table: Any) -> tuple[Any, FakeCamera]:
    camera = FakeCamera(R.render(table, [], R.Light(5000), noise=2.0).image, "webcam 0", "webcam:0")
    ui.use_camera(camera)
    screen = ui.screen("calibrate")
    screen.store = ProfileStore(tmp_path / "profiles")
    ui.go("calibrate")
    assert ui.wait_until(lambda: screen.frames >= 2 and screen.wizard is not None)
    return screen, camera


def show(ui: UI, screen: Any, camera: FakeCamera, frame: np.ndarray) -> None:
    camera.frame = frame
    assert ui.wait_until(lambda: screen.frame is frame)


def test_full_walkthrough_by_touch(ui: UI, tmp_path: Path) -> None:
    table = R.make_table(31, tray="green felt", perspective=0.03)
    rng = np.random.default_rng(6)
    screen, camera = setup(ui, tmp_path, table)
    assert screen.step == "camera" and "Sharpness" in screen.meter_text and screen.sharp_ok
    ui.screenshot("calibrate-1-camera")

    ui.tap_text("Next")
    assert screen.step == "tray"
    ui.tap_text("Find markers")
    assert "Tray found" in screen.status and screen.wizard.profile.tray is not None
    ui.screenshot("calibrate-2-tray")

    ui.tap_text("Next")
    assert screen.step == "empty"
    ui.tap_text("Next")  # refused until the empty tray is captured
    assert screen.step == "empty"
    ui.tap_text("Capture")
    ui.tap_text("Next")
    assert screen.step == "colour"

    screen.wizard.colour.per_face = 1
    screen.wizard.picture.per_face = 2
    screen.refresh()
    for i, face in enumerate(screen.wizard.colour.faces):
        dice = R.place_dice(rng, table, [("colour", face)] * 3, size=42)
        show(ui, screen, camera, R.render(table, dice, R.Light(5000), noise=2.0, seed=i).image)
        ui.tap_text(f"Capture {face}")
        assert "captured 3 dice" in screen.status or "Every colour face" in screen.status, screen.status
        if i == 2:
            dice = R.place_dice(rng, table, [("colour", "blue")] * 3, size=42)
            show(ui, screen, camera, R.render(table, dice, R.Light(5000), noise=2.0, seed=77).image)
            assert ui.wait_until(lambda: len(screen.live_boxes) == 3)  # the dice a capture would take, outlined
            ui.screenshot("calibrate-3-colour")
    assert screen.wizard.profile.colour is not None
    ui.tap_text("Next")
    assert screen.step == "picture"
    while (face := screen.wizard.picture.current) is not None:
        dice = R.place_dice(rng, table, [("picture", face)], size=42)
        show(ui, screen, camera, R.render(table, dice, R.Light(5000), noise=2.0, seed=screen.frames).image)
        ui.tap_text(f"Capture {face}")
    assert screen.wizard.profile.picture is not None
    ui.screenshot("calibrate-4-picture")

    ui.tap_text("Next")
    assert screen.step == "verify"
    dice = R.place_dice(rng, table, [("colour", "blue"), ("colour", "yellow"), ("picture", "rat")], size=42)
    show(ui, screen, camera, R.render(table, dice, R.Light(3600, brightness=0.9), noise=2.0, seed=50).image)
    ui.tap_text("Read")
    assert len(screen.reads) == 3 and sorted(str(f) for _, _, f in screen.reads) == ["blue", "rat", "yellow"]
    ui.screenshot("calibrate-5-verify")
    # the player says die 1 is something else: the tally counts a confusion
    ui.tap_text("1: ")
    first = screen.reads[0][2]
    other = "green" if first != "green" and screen.reads[0][1] == "colour" else "cat"
    ui.tap_text(other)
    ui.tap_text("Confirm")
    tally = screen.wizard.verifications
    assert sum(t.rolls for t in tally.values()) == 3
    assert sum(t.correct for t in tally.values()) == 2
    assert "read as" in screen.status

    ui.tap_text("Next")
    assert screen.step == "save"
    ui.tap_text("kitchen table")  # a preset: no keyboard needed
    assert screen.ids.name_input.text == "kitchen table"
    screen.ids.name_input.text = "Kitchen table"
    ui.tap_text("Save")
    assert "now the active profile" in screen.status, screen.status
    store = screen.store
    active = store.active("webcam:0", (640, 480)).profile
    assert active is not None and active.name == "Kitchen table"
    assert active.calibrated_kinds() == ["colour", "picture"] and sum(v.rolls for v in active.verify.values()) == 3
    ui.screenshot("calibrate-6-save")


def test_tray_by_four_taps_and_choosing_a_profile(ui: UI, tmp_path: Path) -> None:
    table = R.make_table(32, tray="brown wood", markers=False)
    screen, _camera = setup(ui, tmp_path, table)
    ui.tap_text("Next")
    ui.tap_text("Find markers")
    assert "0 of 4" in screen.status and screen.status_error
    ui.tap_text("Tap corners")
    assert screen.tapping
    from kivy.tests.common import UnitTestTouch

    corners = [(60.0, 50.0), (580.0, 40.0), (590.0, 440.0), (50.0, 430.0)]
    for fx, fy in corners:
        preview = screen.ids.preview
        x, y = preview.to_window(*preview.local_point(fx, fy))
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        ui.advance(1)
        touch.touch_up()
        ui.advance(2)
    ui.screenshot("calibrate-taps")
    assert "from your taps" in screen.status
    got = screen.wizard.profile.tray.corners
    assert np.allclose(got, corners, atol=3), got
    # save two profiles, then make the first one active again from the list
    for name in ("Club", "Garage"):
        screen.wizard.go("save")
        screen.refresh()
        screen.ids.name_input.text = name
        ui.tap_text("Save")
    ui.advance(2)
    assert screen.store.active("webcam:0", (640, 480)).profile.name == "Garage"
    ui.tap_text("Use Club")
    assert screen.store.active("webcam:0", (640, 480)).profile.name == "Club"
    assert "Club (active)" in ui.texts()


def test_no_camera(ui: UI, tmp_path: Path) -> None:
    ui.app.feed = None
    screen = ui.screen("calibrate")
    screen.store = ProfileStore(tmp_path)
    ui.go("calibrate")
    assert "No camera" in screen.status and screen.status_error
    assert not screen.primary_enabled
    ui.screenshot("calibrate-no-camera")
    ui.tap_text("Home")
    assert ui.screen().name == "home"


def test_camera_lost_mid_wizard_keeps_going(ui: UI, tmp_path: Path) -> None:
    table = R.make_table(33, tray="grey board")
    screen, camera = setup(ui, tmp_path, table)
    camera.present = False
    assert ui.wait_until(lambda: "Camera lost" in ui.app.banner)
    ui.tap_text("Next")
    assert screen.step == "tray"
    camera.present = True
    seen = screen.frames
    assert ui.wait_until(lambda: screen.frames > seen + 1)
    ui.tap_text("Find markers")
    assert screen.wizard.profile.tray is not None


def test_resume_verify_and_recapture_a_confused_face(ui: UI, tmp_path: Path) -> None:
    from companion.calibrate.bench import calibrate_synthetic

    table = R.make_table(34, tray="black felt", perspective=0.03)
    learned = calibrate_synthetic(table, np.random.default_rng(2), per_face=1)
    learned.profile.camera = "webcam:0"
    store = ProfileStore(tmp_path / "profiles")
    learned.save(store, "Club")

    camera = FakeCamera(R.render(table, [], R.Light(5000), noise=2.0).image, "webcam 0", "webcam:0")
    ui.use_camera(camera)
    screen = ui.screen("calibrate")
    screen.store = store
    ui.go("calibrate")
    assert ui.wait_until(lambda: screen.wizard is not None)
    assert screen.wizard.profile.name == "Club" and screen.ids.name_input.text == "Club"
    # everything learned is there: the colour step offers Next or a full recapture
    screen.wizard.go("colour")
    screen.enter_step()
    assert "Every colour face is captured" in screen.instruction and ui.find("Capture all again")

    screen.wizard.go("verify")
    screen.enter_step()
    rng = np.random.default_rng(9)
    dice = R.place_dice(rng, table, [("colour", "green")], size=42)
    show(ui, screen, camera, R.render(table, dice, R.Light(4800), noise=2.0, seed=3).image)
    ui.tap_text("Read")
    assert [f for _, _, f in screen.reads] == ["green"]
    ui.tap_text("1: green")
    ui.tap_text("yellow")  # the player insists it is yellow: a confusion to fix
    ui.tap_text("Confirm")
    assert "yellow read as green" in screen.status
    ui.screenshot("calibrate-verify-confused")
    ui.tap_text("Recapture yellow")
    assert screen.step == "colour" and screen.wizard.colour.current == "yellow"
    for seed in range(screen.wizard.colour.per_face):
        dice = R.place_dice(rng, table, [("colour", "yellow")] * 3, size=42)
        show(ui, screen, camera, R.render(table, dice, R.Light(5000), noise=2.0, seed=seed).image)
        ui.tap_text("Capture yellow")
    assert screen.wizard.colour.current is None and "Every colour face captured" in screen.status
    assert screen.wizard.profile.colour is not None and len(screen.wizard.profile.colour.faces["yellow"]) == 9


def saved_club(tmp_path: Path, seed: int = 34) -> tuple[Any, ProfileStore]:
    """A table and a store holding the calibrated, active profile 'Club' of webcam:0 at 640x480."""
    from companion.calibrate.bench import calibrate_synthetic

    table = R.make_table(seed, tray="black felt", perspective=0.03)
    learned = calibrate_synthetic(table, np.random.default_rng(2), per_face=1)
    learned.profile.camera = "webcam:0"
    store = ProfileStore(tmp_path / "profiles")
    learned.save(store, "Club")
    return table, store


def open_with(ui: UI, store: ProfileStore, table: Any) -> tuple[Any, FakeCamera]:
    camera = FakeCamera(R.render(table, [], R.Light(5000), noise=2.0).image, "webcam 0", "webcam:0")
    ui.use_camera(camera)
    screen = ui.screen("calibrate")
    screen.store = store
    ui.go("calibrate")
    assert ui.wait_until(lambda: screen.frames >= 2 and screen.wizard is not None)
    return screen, camera


def test_no_capture_or_read_from_a_lost_camera(ui: UI, tmp_path: Path) -> None:
    table = R.make_table(33, tray="green felt")
    screen, camera = setup(ui, tmp_path, table)
    ui.tap_text("Next")
    ui.tap_text("Find markers")
    ui.tap_text("Next")
    camera.present = False
    assert ui.wait_until(lambda: "Camera lost" in ui.app.banner)
    ui.tap_text("Capture")  # the empty tray from the last picture before the camera went: refused
    assert screen.wizard.empty_image is None and "camera is lost" in screen.status and screen.status_error
    camera.present = True
    seen = screen.frames
    assert ui.wait_until(lambda: screen.frames > seen)
    ui.tap_text("Capture")
    assert screen.wizard.empty_image is not None
    ui.tap_text("Next")
    dice = R.place_dice(np.random.default_rng(3), table, [("colour", "red")] * 3, size=42)
    show(ui, screen, camera, R.render(table, dice, R.Light(5000), noise=2.0, seed=1).image)
    ui.tap_text("Capture red")
    assert screen.wizard.colour.done == {"red": 1}
    camera.present = False
    assert ui.wait_until(lambda: "Camera lost" in ui.app.banner)
    ui.tap_text("Capture red")
    ui.tap_text("Capture red")
    assert screen.wizard.colour.done == {"red": 1}, "learned twice more from the last picture"
    assert "camera is lost" in screen.status
    ui.screenshot("calibrate-camera-lost-capture")
    # a frame already used by a capture is not used again, even with the camera there
    camera.present = True
    assert ui.wait_until(lambda: not screen.camera_lost)
    screen.used_at = screen.frames
    ui.tap(ui.find("Capture red"), hold_frames=0)
    assert screen.wizard.colour.done == {"red": 1} and "No new picture" in screen.status
    # verify's Read refuses a lost camera too
    screen.wizard.go("verify")
    screen.enter_step()
    from calibration.profile import ColourCalibration

    faces = {"red": [[0.1, 0.2, 0.3]], "blue": [[0.3, 0.2, 0.1]]}
    screen.wizard.profile.colour = ColourCalibration(faces, 0.0, "")  # something calibrated: Read is offered
    screen.refresh()
    camera.present = False
    assert ui.wait_until(lambda: screen.camera_lost)
    ui.tap_text("Read")
    assert screen.reads == [] and "camera is lost" in screen.status


def test_broken_template_and_unreadable_active_list_are_shown_not_crashes(ui: UI, tmp_path: Path) -> None:
    import json

    table, store = saved_club(tmp_path)
    path = store.path("Club", "webcam:0", (640, 480))
    data = json.loads(path.read_text())
    data["picture"]["faces"]["cat"] = ["AAAA"]  # a picture template that cannot be decoded
    path.write_text(json.dumps(data))
    screen, camera = open_with(ui, store, table)
    assert "CAT is broken" in screen.problem  # resuming dropped the broken picture part and says so on the red line
    screen.wizard.go("verify")
    screen.enter_step()
    dice = R.place_dice(np.random.default_rng(9), table, [("colour", "green")], size=42)
    show(ui, screen, camera, R.render(table, dice, R.Light(4800), noise=2.0, seed=3).image)
    ui.tap_text("Read")  # raised ValueError out of the button: the app died
    assert screen.status_error or screen.reads, screen.status

    def broken(_frame: Any) -> Any:
        raise ValueError("picture template 'cat' is not a valid image")

    screen.wizard.verify_read = broken  # whatever the library raises is shown, never a crash
    screen.enter_step()
    seen = screen.frames
    assert ui.wait_until(lambda: screen.frames > seen)
    ui.tap_text("Read")
    assert screen.status_error and "template 'cat'" in screen.status and screen.reads == []
    ui.screenshot("calibrate-error-shown")

    (store.base_dir / "active.json").write_text("{broken")
    real_entries = store.entries

    def unreadable() -> Any:
        from calibration.profile import ProfileError

        raise ProfileError(f"{store.base_dir / 'active.json'}: unreadable (Expecting property name)")

    store.entries = unreadable  # type: ignore[method-assign]
    screen.wizard.go("save")
    screen.enter_step()  # listing the profiles raised ProfileError out of the Next button
    assert screen.step == "save" and "active.json" in screen.problem
    store.entries = real_entries  # type: ignore[method-assign]
    screen.ids.name_input.text = "Club"
    ui.tap_text("Save")
    assert "now the active profile" in screen.status, screen.status
    assert store.active("webcam:0", (640, 480)).profile is not None


def test_saving_under_an_existing_name_asks_first(ui: UI, tmp_path: Path) -> None:
    table, store = saved_club(tmp_path)
    path = store.path("Club", "webcam:0", (640, 480))
    (store.base_dir / "active.json").unlink()  # Club is saved but not active: the wizard starts from scratch
    before = path.read_text()
    screen, _camera = open_with(ui, store, table)
    assert screen.wizard.profile.name == ""
    screen.wizard.go("save")
    screen.enter_step()
    screen.ids.name_input.text = "club"
    ui.tap_text("Save")
    assert "A profile called 'club' exists: replace it?" in screen.status
    assert path.read_text() == before
    ui.screenshot("calibrate-replace-question")
    ui.tap_text("Keep it")
    assert path.read_text() == before and "Not saved" in screen.status
    ui.tap_text("Save")
    ui.tap_text("Replace 'club'")
    assert "now the active profile" in screen.status and path.read_text() != before
    # saving again under the name it now has asks nothing
    ui.tap_text("Save")
    assert "now the active profile" in screen.status


def test_broken_active_profile_stays_on_screen(ui: UI, tmp_path: Path) -> None:
    table, store = saved_club(tmp_path)
    path = store.path("Club", "webcam:0", (640, 480))
    path.write_text(path.read_text()[:3000])
    screen, _camera = open_with(ui, store, table)
    seen = screen.frames
    assert ui.wait_until(lambda: screen.frames > seen + 4)
    assert screen.step == "camera" and "Focus and exposure" in screen.status
    assert "not valid JSON" in screen.problem and screen.problem in ui.texts()
    ui.screenshot("calibrate-broken-active")


def test_verify_reads_number_dice_and_the_choices_fit(ui: UI, tmp_path: Path) -> None:
    table, store = saved_club(tmp_path)
    screen, camera = open_with(ui, store, table)
    screen.wizard.go("verify")
    screen.enter_step()
    rng = np.random.default_rng(6)
    dice = R.place_dice(rng, table, [("colour", "blue"), ("picture", "rat"), ("pips", 4)], size=42)
    show(ui, screen, camera, R.render(table, dice, R.Light(4800), noise=2.0, seed=50).image)
    ui.tap_text("Read")
    faces = [face for _, _, face in screen.reads]
    assert "number 4" in faces and None not in faces, faces
    ui.screenshot("calibrate-verify-number-die")
    # the corrections of a die: every face, number die and not a die, clear of the text and the title bar
    ui.tap_text(f"{faces.index('blue') + 1}: blue")
    picks = [w for w in screen.ids.chips.children if w.text == "not a die" or w.text in screen.wizard.colour.faces]
    assert len(picks) == len(screen.wizard.colour.faces) + 1
    chips = screen.ids.chips
    top = chips.to_window(chips.x, chips.top)[1]
    instruction = next(w for w in screen.walk() if getattr(w, "text", "") == screen.instruction)
    status = next(w for w in screen.walk() if getattr(w, "text", None) == screen.status and w is not instruction)
    assert top <= instruction.to_window(instruction.x, instruction.y)[1] + 1
    assert chips.to_window(chips.x, chips.y)[1] >= status.to_window(status.x, status.top)[1] - 1
    assert top <= ui.window.height - 52 - 4
    assert all(w.height >= 48 and w.width >= 48 for w in chips.children)
    ui.screenshot("calibrate-verify-choose")
    ui.tap_text("not a die")
    ui.tap_text("Confirm")  # the number die does not block it, nor count
    assert screen.reads == [] and "read as" not in screen.status
    tally = screen.wizard.verifications
    assert sum(t.rolls for t in tally.values()) == 1


def test_camera_status_is_cleared_after_coming_back(ui: UI, tmp_path: Path) -> None:
    table = R.make_table(33, tray="green felt")
    screen, _camera = setup(ui, tmp_path, table)
    ui.tap_text("Next")
    ui.tap_text("Home")
    ui.go("calibrate")
    seen = screen.frames
    assert ui.wait_until(lambda: screen.frames > seen + 1)
    assert "Waiting for the camera" not in ui.texts()


def test_a_new_frame_size_offers_to_start_again(ui: UI, tmp_path: Path) -> None:
    import cv2

    table = R.make_table(33, tray="green felt")
    screen, camera = setup(ui, tmp_path, table)
    ui.tap_text("Next")
    show(ui, screen, camera, cv2.resize(camera.frame, (1280, 720)))
    assert ui.wait_until(lambda: screen.primary_text == "Start again at 1280x720")
    assert "1280x720" in screen.instruction and not screen.next_enabled
    ui.screenshot("calibrate-new-size")
    ui.tap_text("Start again at 1280x720")
    assert screen.wizard.profile.resolution == (1280, 720) and screen.step == "camera"
    ui.tap_text("Next")
    ui.tap_text("Find markers")
    assert screen.wizard.profile.tray is not None, screen.status
