"""Fixes from the calibration audit: markers stuck in the wrong corners, dice left on the empty tray, a damaged
empty-tray picture, tiny trays, broken picture templates, a broken active.json, non-ASCII and colliding profile
names, replacing a saved profile only when asked, and a failed marker search that keeps the old tray."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from calibration.profile import Profile, ProfileError, TrayArea
from calibration.store import ProfileExists, ProfileStore, slug
from companion.calibrate.bench import calibrate_synthetic, synthetic_renderer
from companion.calibrate.cli import cmd_calibrate, register
from companion.calibrate.wizard import BrokenProfile, DiceOnEmptyTray, TrayTooSmall, Wizard, WizardError
from companion.vision.dice_kinds import active_vision_profile, calibration_for_images
from companion.vision.tray import ARUCO_DICT, find_tray_markers, quad_area
from hardware.sources import ReplaySource

R: Any = synthetic_renderer()
CAMERA, SIZE = "webcam:0", (640, 480)


@pytest.fixture(scope="module")
def table() -> Any:
    return R.make_table(31, tray="green felt")


@pytest.fixture(scope="module")
def calibrated(table: Any) -> Wizard:
    return calibrate_synthetic(table, np.random.default_rng(3), per_face=1)


def saved(tmp_path: Path, wizard: Wizard, name: str = "Club") -> ProfileStore:
    store = ProfileStore(tmp_path)
    wizard.profile.camera = CAMERA
    wizard.save(store, name)
    return store


def marker_canvas(layout: dict[int, tuple[int, int]], m: int = 44) -> np.ndarray:
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    img = np.full((480, 640, 3), (40, 110, 40), np.uint8)
    for marker_id, (x, y) in layout.items():
        img[y - 8 : y + m + 8, x - 8 : x + m + 8] = 230
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, m)
        img[y : y + m, x : x + m] = cv2.cvtColor(marker, cv2.COLOR_GRAY2BGR)
    return img


def run_cli(argv: list[str], answers: list[str] | None = None, frames: list[Any] | None = None) -> tuple[int, str]:
    p = argparse.ArgumentParser(prog="companion")
    register(p.add_subparsers(dest="command"))
    args = p.parse_args(["calibrate", *argv])
    replies = iter(answers or [])
    out = io.StringIO()
    source = None
    if frames is not None:
        source = ReplaySource(frames=frames, loop=False, name="replay")
        source.open()
    code = cmd_calibrate(args, ask=lambda prompt: next(replies), out=out, source=source)
    return code, out.getvalue()


# 1. markers in each other's corners
def test_swapped_markers_still_give_a_convex_tray() -> None:
    tl, tr, br, bl = (20, 20), (576, 20), (576, 416), (20, 416)
    for layout in ({0: tl, 2: tr, 1: br, 3: bl}, {2: tl, 3: tr, 0: br, 1: bl}):
        frame = marker_canvas(layout)
        wiz = Wizard(CAMERA, SIZE)
        assert wiz.find_markers(frame) == "Tray found from the 4 markers" and not wiz.markers_failed
        assert wiz.profile.tray is not None
        quad = wiz.profile.tray.corners
        assert cv2.isContourConvex(np.array(quad, np.float32).reshape(-1, 1, 2))
        assert quad_area(quad) > 200_000
        assert quad[0] == pytest.approx((42, 42), abs=1)


def test_markers_in_no_tray_shape_are_refused() -> None:
    frame = marker_canvas({0: (20, 20), 1: (300, 20), 2: (576, 20), 3: (300, 416)})  # 0, 1, 2 in a line
    quad, seen = find_tray_markers(frame)
    assert quad is None and seen == [0, 1, 2, 3]
    wiz = Wizard(CAMERA, SIZE)
    assert "do not make a tray shape" in wiz.find_markers(frame)
    assert wiz.markers_failed and wiz.profile.tray is None


# 2. dice left on the empty tray
def test_empty_tray_with_a_die_is_refused(table: Any) -> None:
    wiz = Wizard("synthetic", table.size)
    clean = R.render(table, [], R.Light(4500), noise=2.0, seed=5).image
    wiz.find_markers(clean)
    for dice in ([R.DieSpec("colour", "red", (320, 240), 42, 15)], [R.DieSpec("pips", 4, (200, 200), 42, 0)]):
        dirty = R.render(table, dice, R.Light(4500), noise=2.0, seed=5).image
        with pytest.raises(DiceOnEmptyTray, match="take the dice out of the tray first"):
            wiz.capture_empty(dirty)
        assert wiz.empty_image is None
    assert wiz.capture_empty(clean) == "Empty tray captured"


# 3. damaged or missing empty-tray picture
@pytest.mark.parametrize("damage", ["truncated", "missing"])
def test_damaged_empty_tray_picture_is_reported(tmp_path: Path, calibrated: Wizard, damage: str) -> None:
    store = saved(tmp_path, calibrated)
    png = store.folder(CAMERA, SIZE) / "club.empty.png"
    if damage == "truncated":
        png.write_bytes(png.read_bytes()[:500])
    else:
        png.unlink()
    found = active_vision_profile(SIZE, CAMERA, base_dir=tmp_path)
    assert found.profile is None and found.broken and "club.empty.png" in found.message
    assert "using no calibration" in found.message
    named = calibration_for_images(SIZE, "Club", CAMERA, base_dir=tmp_path)
    assert named.profile is None
    [entry] = store.entries()
    assert entry.problem and "club.empty.png" in entry.problem
    code, out = run_cli(["--list", "--base-dir", str(tmp_path)])
    assert code == 0 and "BROKEN" in out and "club.empty.png" in out


# 4. tiny trays
def test_tiny_tray_is_refused() -> None:
    wiz = Wizard(CAMERA, SIZE)
    with pytest.raises(TrayTooSmall, match="too small"):
        wiz.set_tray_taps([(100, 100), (104, 100), (104, 104), (100, 104)])
    assert wiz.profile.tray is None
    assert wiz.set_tray_taps([(30, 30), (610, 30), (610, 450), (30, 450)]) == "Tray area set from your taps"
    close = marker_canvas({0: (200, 150), 1: (260, 150), 2: (260, 210), 3: (200, 210)})
    wiz = Wizard(CAMERA, SIZE)
    assert "too close together" in wiz.find_markers(close) and wiz.markers_failed and wiz.profile.tray is None


# 5. broken picture templates in the saved profile
def test_broken_picture_template_does_not_crash_the_wizard(tmp_path: Path, calibrated: Wizard, table: Any) -> None:
    store = saved(tmp_path, calibrated)
    path = store.path("Club", CAMERA, SIZE)
    data = json.loads(path.read_text())
    data["picture"]["faces"]["cat"] = ["AAAA"]
    path.write_text(json.dumps(data))
    wiz = Wizard.resume(store, "Club", CAMERA, SIZE)
    assert wiz.profile.picture is None and wiz.picture.current == "cat"
    assert any("club.json" in n and "CAT" in n for n in wiz.notices)
    frame = R.render(table, [R.DieSpec("colour", "red", (320, 240), 42, 15)], R.Light(4500), noise=2.0).image
    assert [kind for _, kind, _ in wiz.verify_read(frame)] == ["colour"]
    # a profile that breaks the reader some other way gives the wizard's typed error, naming the file
    broken = Wizard.resume(store, "Club", CAMERA, SIZE)
    broken.profile.picture = type(calibrated.profile.picture)({"cat": ["AAAA"], "rat": ["AAAA"]})  # type: ignore[misc]
    with pytest.raises(BrokenProfile, match=r"club\.json"):
        broken.verify_read(frame)
    assert issubclass(BrokenProfile, WizardError)


# 6. unreadable active.json
def test_broken_active_json_is_reported_not_raised(tmp_path: Path, calibrated: Wizard) -> None:
    store = saved(tmp_path, calibrated)
    (tmp_path / "active.json").write_text("{broken")
    entries = store.entries()
    assert [e.name for e in entries if e.problem is None] == ["Club"]
    assert any(e.path.name == "active.json" and e.problem for e in entries)
    code, out = run_cli(["--list", "--base-dir", str(tmp_path)])
    assert code == 0 and "active.json" in out and "BROKEN" in out and "Club" in out
    found = active_vision_profile(SIZE, None, base_dir=tmp_path)
    assert found.profile is None and found.broken and "active.json" in found.message
    assert "using no calibration" in found.message
    store.use("Club", CAMERA, SIZE)  # choosing a profile again repairs it
    assert all(e.problem is None for e in store.entries())


# 7. names without ASCII letters, and names that make the same slug
def test_distinct_names_get_distinct_files(tmp_path: Path) -> None:
    assert slug("Saló") == "saló" and slug("부엌") == "부엌" and slug("Kitchen table") == "kitchen-table"
    assert slug("???") != slug("") and slug("???").startswith("profile-")
    store = ProfileStore(tmp_path)
    names = ["부엌", "클럽", "???", "!!", "Kitchen table", "kitchen-table", "Saló", "Sal"]
    for i, name in enumerate(names):
        profile = Profile(name, CAMERA, SIZE)
        profile.tray = TrayArea([(0, 0), (100 + i, 0), (100 + i, 100), (0, 100)], "taps")
        store.save(profile)
    files = {store.path(n, CAMERA, SIZE) for n in names}
    assert len(files) == len(names)
    for i, name in enumerate(names):
        loaded = store.load(name, CAMERA, SIZE)
        assert loaded.name == name and loaded.tray is not None and loaded.tray.corners[1][0] == 100 + i
    assert sorted(e.name for e in store.entries()) == sorted(names)
    assert store.active(CAMERA, SIZE).profile.name == "Sal"  # type: ignore[union-attr]
    store.delete("kitchen-table", CAMERA, SIZE)
    assert store.exists("Kitchen table", CAMERA, SIZE) and not store.exists("kitchen-table", CAMERA, SIZE)


def test_profiles_saved_under_the_old_file_names_still_load(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    folder = store.folder(CAMERA, SIZE)
    folder.mkdir(parents=True)
    old = Profile("부엌", CAMERA, SIZE)
    (folder / "profile.json").write_text(json.dumps(old.to_json()))  # what "부엌" used to be saved as
    (tmp_path / "active.json").write_text(json.dumps({"schema": 1, "active": {"webcam:0@640x480": "부엌"}}))
    assert store.load("부엌", CAMERA, SIZE).name == "부엌"
    assert store.active(CAMERA, SIZE).profile is not None
    assert [e.active for e in store.entries()] == [True]
    store.save(Profile("클럽", CAMERA, SIZE), make_active=False)  # used to overwrite profile.json
    assert store.load("부엌", CAMERA, SIZE).name == "부엌" and store.load("클럽", CAMERA, SIZE).name == "클럽"


# 8. replacing a saved profile only when asked
def test_saving_over_another_profile_asks(tmp_path: Path, calibrated: Wizard, table: Any) -> None:
    store = saved(tmp_path, calibrated, "Club")
    fresh = Wizard(CAMERA, SIZE)
    fresh.set_tray_taps([(30, 30), (610, 30), (610, 450), (30, 450)])
    assert fresh.would_replace(store, " club ") and not fresh.would_replace(store, "Garage")
    with pytest.raises(ProfileExists, match="already saved"):
        fresh.save(store, "Club", replace=False)
    assert issubclass(ProfileExists, ProfileError)
    with pytest.raises(ProfileExists):
        store.save(Profile("Club", CAMERA, SIZE), replace=False)
    assert store.load("Club", CAMERA, SIZE).colour is not None  # untouched
    resumed = Wizard.resume(store, "Club", CAMERA, SIZE)
    assert not resumed.would_replace(store, "Club")  # recalibrating it: no question
    resumed.save(store, "Club", replace=False)
    # the terminal walk-through asks; "n" means pick another name
    empty = R.render(table, [], R.Light(4500), noise=2.0, seed=1).image
    answers = ["", "", "", "s", "s", "Club", "n", "Garage"]
    code, out = run_cli(["--camera", "webcam:0", "--base-dir", str(tmp_path)], answers, [empty] * 4)
    assert code == 0 and "Saved 'Garage'" in out, out
    assert store.load("Club", CAMERA, SIZE).colour is not None


# 9. a failed marker search on a resumed profile keeps the old tray, and says so
def test_failed_marker_search_says_the_old_tray_is_kept(tmp_path: Path, calibrated: Wizard) -> None:
    store = saved(tmp_path, calibrated)
    wiz = Wizard.resume(store, "Club", CAMERA, SIZE)
    before = wiz.profile.tray
    frame = marker_canvas({0: (20, 20), 1: (576, 20), 3: (20, 416)})
    message = wiz.find_markers(frame)
    assert "missing 2" in message and "tray area set before is kept" in message
    assert wiz.markers_failed and wiz.profile.tray == before
    wiz.find_markers(marker_canvas({0: (20, 20), 1: (576, 20), 2: (576, 416), 3: (20, 416)}))
    assert not wiz.markers_failed
