"""The calibration walk-through on synthetic renders, saving, recalibrating one kind, verify, and the dice reader
reading colour and picture dice through the pipeline's per-die stage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from calibration.store import ProfileStore
from companion.calibrate.bench import calibrate_synthetic, synthetic_renderer
from companion.calibrate.verify import Verification
from companion.calibrate.wizard import STEPS, Wizard, WizardError
from companion.vision.dice_kinds import active_vision_profile
from companion.vision.pipeline import read_dice, to_roll
from companion.vision.tray import find_tray_markers, marker_sheet, measure_exposure, order_quad

R: Any = synthetic_renderer()


@pytest.fixture(scope="module")
def table() -> Any:
    return R.make_table(4, tray="green felt", perspective=0.04)


@pytest.fixture(scope="module")
def wizard(table: Any) -> Wizard:
    return calibrate_synthetic(table, np.random.default_rng(2))


def test_steps_and_requirements(table: Any) -> None:
    wiz = Wizard("synthetic", table.size)
    assert wiz.step == "camera" and wiz.progress == 0
    empty = R.render(table, [], R.Light(5000)).image
    assert wiz.check_camera(empty).sharp_ok
    wiz.next()
    assert "4 markers" in wiz.find_markers(empty)
    wiz.next()
    with pytest.raises(WizardError, match="empty-tray picture first"):
        wiz.next()
    with pytest.raises(WizardError, match="empty-tray picture first"):
        wiz.capture_face("colour", empty)
    wiz.capture_empty(empty)
    assert wiz.next() == "colour"
    assert 0 < wiz.progress < 1
    result = wiz.capture_face("colour", empty)
    assert not result.ok and "No die found" in result.message
    with pytest.raises(WizardError, match="Capture every colour face first"):
        wiz.fit("colour")
    with pytest.raises(WizardError, match="640x480"):
        wiz.check_camera(np.zeros((240, 320, 3), np.uint8))
    for _ in STEPS:
        wiz.next()
    assert wiz.step == "save"


def test_picture_capture_wants_one_die(table: Any) -> None:
    wiz = Wizard("synthetic", table.size)
    wiz.find_markers(R.render(table, [], R.Light(5000)).image)
    wiz.capture_empty(R.render(table, [], R.Light(5000)).image)
    dice = R.place_dice(np.random.default_rng(1), table, [("picture", "cat"), ("picture", "cat")])
    result = wiz.capture_face("picture", R.render(table, dice, R.Light(5000)).image)
    assert not result.ok and "only the picture die" in result.message and len(result.boxes) == 2


def test_markers_missing_and_taps(table: Any) -> None:
    bare = R.make_table(4, tray="green felt", markers=False)
    wiz = Wizard("synthetic", table.size)
    message = wiz.find_markers(R.render(bare, [], R.Light(5000)).image)
    assert "0 of 4" in message and wiz.profile.tray is None
    assert "taps" in wiz.set_tray_taps([(600, 20), (30, 20), (40, 460), (620, 450)])
    assert wiz.profile.tray is not None and wiz.profile.tray.corners[0] == (30.0, 20.0)
    with pytest.raises(WizardError, match="do not make a tray"):
        wiz.set_tray_taps([(0, 0), (10, 0), (20, 0), (30, 0)])
    with pytest.raises(WizardError, match="needs 4 corners"):
        wiz.set_tray_taps([(0, 0), (10, 0), (20, 10)])
    with pytest.raises(WizardError, match="outside the picture"):
        wiz.set_tray_taps([(0, 0), (900, 0), (900, 400), (0, 400)])


def test_tray_tools() -> None:
    assert order_quad([(10, 90), (90, 90), (90, 10), (10, 10)]) == [(10, 10), (90, 10), (90, 90), (10, 90)]
    sheet = marker_sheet(800)
    quad, seen = find_tray_markers(np.dstack([sheet] * 3))
    assert seen == [0, 1, 2, 3] and quad is not None and quad[0][0] < quad[1][0]
    flat = np.full((480, 640, 3), 128, np.uint8)
    exposure = measure_exposure(flat)
    assert not exposure.sharp_ok and "Blurry" in exposure.advice
    assert "dark" in measure_exposure(np.full((480, 640, 3), 20, np.uint8)).advice


def test_save_use_and_read_through_pipeline(tmp_path: Path, table: Any, wizard: Wizard) -> None:
    store = ProfileStore(tmp_path)
    wizard.save(store, "Kitchen table")
    active = store.active("synthetic", (640, 480))
    assert active.profile is not None and active.profile.calibrated_kinds() == ["colour", "picture"]
    assert (tmp_path / "profiles" / "synthetic@640x480" / "kitchen-table.empty.png").is_file()
    found = active_vision_profile((640, 480), base_dir=tmp_path)
    vp = found.profile
    assert vp is not None and vp.classifiers and not found.broken, found.message
    rng = np.random.default_rng(9)
    dice = R.place_dice(rng, table, [("colour", "orange"), ("colour", "purple"), ("picture", "swap"), ("pips", 5)])
    shot = R.render(table, dice, R.Light(3200, brightness=0.85), blur=0.8, noise=3.0, seed=4)
    roll = to_roll(read_dice(shot.image, vp))
    got = sorted((d.kind, str(d.face)) for d in roll.dice if d.kind in ("colour", "picture"))
    assert got == [("colour", "orange"), ("colour", "purple"), ("picture", "swap")]
    assert all(d.kind in ("pips", "unknown") for d in roll.dice if d.kind not in ("colour", "picture"))
    # without calibration nothing is named: colour/picture dice come out unknown or not at all
    plain = to_roll(read_dice(shot.image))
    assert not [d for d in plain.dice if d.kind in ("colour", "picture")]
    other_size = active_vision_profile((1280, 720), base_dir=tmp_path)
    assert other_size.profile is None and not other_size.broken  # not calibrated at that size: nothing to tell


def test_recalibrating_one_kind_keeps_the_rest(tmp_path: Path, table: Any, wizard: Wizard) -> None:
    store = ProfileStore(tmp_path)
    saved = wizard.save(store, "Club")
    pictures_before = dict(saved.picture.faces)  # type: ignore[union-attr]
    colours_before = dict(saved.colour.faces)  # type: ignore[union-attr]
    again = Wizard.resume(store, "Club", "synthetic", (640, 480), captures_per_face=1)
    assert again.empty_image is not None and again.profile.tray is not None
    assert again.colour.current is None  # starts from what was learned
    again.restart_kind("colour")
    rng = np.random.default_rng(4)
    task = again.task("colour")
    while (face := task.current) is not None:
        dice = R.place_dice(rng, table, [("colour", face)] * 2)
        assert again.capture_face("colour", R.render(table, dice, R.Light(4000), noise=2.0).image).ok
    again.fit("colour")
    again.save(store, "Club")
    reloaded = store.load("Club", "synthetic", (640, 480))
    assert reloaded.picture is not None and reloaded.picture.faces == pictures_before
    assert reloaded.colour is not None and reloaded.colour.faces != colours_before
    assert all(len(v) == 2 for v in reloaded.colour.faces.values())


def test_verify_reads_and_tallies(table: Any, wizard: Wizard) -> None:
    rng = np.random.default_rng(12)
    tally = wizard.verification_for("colour")
    for i in range(4):
        faces = [("colour", str(c)) for c in rng.choice(list(R.COLOUR_REFLECTANCE), 3, replace=False)]
        dice = R.place_dice(rng, table, faces)
        shot = R.render(table, dice, R.random_light(rng, 0.6), noise=3.0, seed=i)
        reads = wizard.verify_read(shot.image)
        assert len(reads) == 3
        for truth in shot.dice:
            cx = (truth.box[0] + truth.box[2]) / 2
            (read,) = [face for box, kind, face in reads if box[0] <= cx <= box[2] and kind in ("colour", "unknown")][
                :1
            ]
            tally.record(read, str(truth.face))  # the player confirms the true face
    assert tally.rolls == 12 and tally.accuracy >= 11 / 12
    wizard.finish_verify()
    assert wizard.profile.verify["colour"].rolls == 12


def test_verification_summary_names_confusions() -> None:
    tally = Verification("colour")
    for read, truth in [("red", "red"), ("red", "orange"), ("red", "orange"), (None, "yellow"), ("blue", "blue")]:
        tally.record(read, truth)
    assert tally.accuracy == pytest.approx(0.4)
    assert tally.confusions() == [("orange", "red", 2), ("yellow", "unknown", 1)]
    assert tally.summary().startswith("2 of 5 right (40%). Confused: orange read as red ×2, yellow read as unknown")
    tally.undo()
    assert tally.rolls == 4
    with pytest.raises(ValueError):
        tally.record("red", "")
    assert Verification("picture").summary() == "No dice checked yet"


def test_dice_read_reports_kinds_with_calibration(
    tmp_path: Path, table: Any, wizard: Wizard, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    import cv2

    from companion import paths
    from companion.vision.cli import main as dice_main

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    wizard.save(ProfileStore(paths.calibration_dir()), "Kitchen table")  # the app's data folder
    dice = R.place_dice(np.random.default_rng(21), table, [("colour", "red"), ("picture", "cat"), ("pips", 4)])
    shot = R.render(table, dice, R.Light(4200, brightness=1.1), blur=0.7, noise=3.0, seed=8)
    image = tmp_path / "roll.png"
    cv2.imwrite(str(image), shot.image)

    assert dice_main(["read", str(image), "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert all(d["kind"] == "pips" for d in plain["dice"])  # without --calibration: the pip reader alone

    assert dice_main(["read", str(image), "--json", "--calibration", "active"]) == 0
    captured = capsys.readouterr()
    assert "calibration profile 'Kitchen table'" in captured.err
    read = json.loads(captured.out)
    named = sorted((d["kind"], d["value"]) for d in read["dice"] if d["kind"] in ("colour", "picture"))
    assert named == [("colour", "red"), ("picture", "cat")]
    assert all(d["kind"] in ("pips", "unknown") for d in read["dice"] if d["kind"] not in ("colour", "picture"))

    assert dice_main(["read", str(image), "--json", "--calibration", "Garage"]) == 0
    assert "no profile 'Garage'" in capsys.readouterr().err


def test_captures_of_the_wrong_face_are_refused(table: Any) -> None:
    rng = np.random.default_rng(30)
    light = R.Light(5000)
    wiz = Wizard("synthetic", table.size, captures_per_face=1)
    empty = R.render(table, [], light, noise=2.0).image
    wiz.find_markers(empty)
    wiz.capture_empty(empty)

    def shot(faces: list[tuple[str, str]]) -> Any:
        return R.render(table, R.place_dice(rng, table, faces), light, noise=2.0).image

    assert wiz.capture_face("colour", shot([("colour", "red")] * 3)).ok  # red
    mixed = wiz.capture_face("colour", shot([("colour", "orange"), ("colour", "blue")]))
    assert not mixed.ok and "do not all show the same colour" in mixed.message
    again = wiz.capture_face("colour", shot([("colour", "red")] * 2))  # orange wanted, red shown
    assert not again.ok and "looks like RED" in again.message and "ORANGE" in again.message
    assert wiz.capture_face("colour", shot([("colour", "orange")] * 2)).ok
    assert wiz.colour.done == {"red": 1, "orange": 1}

    assert wiz.capture_face("picture", shot([("picture", "cat")])).ok
    wrong = wiz.capture_face("picture", shot([("picture", "cat")]))  # rat wanted, cat shown
    assert not wrong.ok and "looks like CAT" in wrong.message
    assert wiz.capture_face("picture", shot([("picture", "rat")])).ok


def test_recapture_one_confused_face(tmp_path: Path, table: Any, wizard: Wizard) -> None:
    store = ProfileStore(tmp_path)
    saved = wizard.save(store, "Den")
    again = Wizard.resume(store, "Den", "synthetic", (640, 480))
    again.redo_face("colour", "orange")
    assert again.colour.current == "orange"
    rng = np.random.default_rng(40)
    while again.colour.current is not None:
        dice = R.place_dice(rng, table, [("colour", "orange")] * 3)
        assert again.capture_face("colour", R.render(table, dice, R.Light(4600), noise=2.0).image).ok
    again.fit("colour")
    assert again.profile.colour is not None and saved.colour is not None
    assert again.profile.colour.faces["red"] == saved.colour.faces["red"]
    assert again.profile.colour.faces["orange"] != saved.colour.faces["orange"]
    again.fit("picture")  # untouched kinds refit to the same templates
    assert again.profile.picture is not None and saved.picture is not None
    assert again.profile.picture.faces == saved.picture.faces


def test_find_dice_ignores_a_finger_and_shadows(table: Any) -> None:
    import cv2

    from companion.vision.tray import find_dice

    light = R.Light(5000)
    empty = R.render(table, [], light, noise=2.0, seed=1).image
    dice = [R.DieSpec("colour", "blue", (300.0, 250.0), 42.0, 15.0), R.DieSpec("pips", 5, (450.0, 300.0), 42.0, 40.0)]
    frame = R.render(table, dice, light, noise=2.0, seed=2).image
    finger = np.array([[100, 479], [130, 479], [215, 300], [200, 290]], np.int32)  # a finger from the front edge
    cv2.fillConvexPoly(frame, finger, (120, 150, 210))
    quad = table.tray_corners
    for size in (None, 45.0):
        blobs = find_dice(frame, empty, quad, size)
        centres = sorted(((b.box[0] + b.box[2]) // 2, (b.box[1] + b.box[3]) // 2) for b in blobs)
        assert len(centres) == 2, (size, centres)
        assert abs(centres[0][0] - 300) < 8 and abs(centres[1][0] - 450) < 8
