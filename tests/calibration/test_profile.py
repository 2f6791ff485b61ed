"""Profile files: round trip, strict loading with clear messages, several named profiles, fallback to none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from calibration.profile import (
    SCHEMA_VERSION,
    ColourCalibration,
    EmptyTray,
    PictureCalibration,
    Profile,
    ProfileError,
    TrayArea,
    VerifyResult,
)
from calibration.store import ProfileStore

RES = (640, 480)


def full_profile(name: str = "Kitchen table") -> Profile:
    return Profile(
        name=name,
        camera="webcam:0",
        resolution=RES,
        tray=TrayArea([(10.0, 12.0), (630.0, 10.0), (628.0, 470.0), (12.0, 468.0)], "taps"),
        empty_tray=EmptyTray("kitchen-table.empty.png", (40.0, 90.0, 30.0), "2026-01-01T00:00:00+00:00"),
        die_size_px=42.0,
        colour=ColourCalibration({"red": [[1.0, -0.5, 0.2]], "blue": [[-0.7, 0.9, -0.1]]}, 0.12),
        picture=PictureCalibration({"cat": ["aGVsbG8="], "rat": ["d29ybGQ="]}, colours=[[0.1, 0.2, 0.9]]),
        verify={"colour": VerifyResult(20, 19, [("orange", "red", 1)])},
    )


def write(tmp_path: Path, data: object, name: str = "p.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return path


def test_round_trip_keeps_every_field(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    original = full_profile()
    store.save(original)
    loaded = store.load("Kitchen table", "webcam:0", RES)
    assert loaded.to_json() == original.to_json()
    assert loaded.calibrated_kinds() == ["colour", "picture"]
    assert loaded.verify["colour"].accuracy == pytest.approx(0.95)


@pytest.mark.parametrize(
    ("mutate", "expected"),
    [
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d["colour"].update(textures=1), "unknown key 'colour.textures'"),
        (lambda d: d["tray"].update(corner=[]), "unknown key 'tray.corner'"),
        (lambda d: d["verify"].update(pips={}), "unknown key 'verify.pips'"),
        (lambda d: d.update(schema=0), "older than this app's"),
        (lambda d: d.update(schema=SCHEMA_VERSION + 1), "newer than this app's"),
        (lambda d: d.pop("schema"), "no 'schema' version"),
        (lambda d: d.update(resolution="640x480"), "'resolution' must be a list"),
        (lambda d: d.update(resolution=[640]), "'resolution' must be [width, height]"),
        (lambda d: d.update(name=5), "'name' must be a string"),
        (lambda d: d.pop("camera"), "missing key 'camera'"),
        (lambda d: d["tray"].update(corners=[[0, 0], [1, 0], [1, 1]]), "needs 4 points"),
        (lambda d: d["tray"].update(source="magic"), "'tray.source'"),
        (lambda d: d["colour"]["faces"].update(red=[[1.0, "x", 0.0]]), "'colour.faces.red[0]' must be a list of 3"),
        (lambda d: d["picture"]["faces"].update(cat=[7]), "'picture.faces.cat[0]' must be a string"),
        (lambda d: d["picture"].update(colours=[[1.0, 2.0]]), "'picture.colours[0]' must be a list of 3"),
        (lambda d: d["empty_tray"].update(image="../../etc/passwd"), "file name beside the profile"),
        (lambda d: d.update(die_size_px=True), "'die_size_px' must be a number"),
        (lambda d: d.update(colour=[1, 2]), "'colour' must be a JSON object"),
    ],
)
def test_bad_files_name_file_and_key(tmp_path: Path, mutate, expected: str) -> None:  # type: ignore[no-untyped-def]
    data = full_profile().to_json()
    mutate(data)
    path = write(tmp_path, data)
    with pytest.raises(ProfileError) as err:
        ProfileStore(tmp_path).load_file(path)
    assert expected in str(err.value)
    assert str(path) in str(err.value)


def test_bad_json_names_line(tmp_path: Path) -> None:
    path = write(tmp_path, '{"schema": 1,\n "name": }')
    with pytest.raises(ProfileError, match=r"not valid JSON \(line 2"):
        ProfileStore(tmp_path).load_file(path)


def test_defaults_in_code_for_optional_parts(tmp_path: Path) -> None:
    path = write(tmp_path, {"schema": SCHEMA_VERSION, "name": "bare", "camera": "pi", "resolution": [640, 480]})
    profile = ProfileStore(tmp_path).load_file(path)
    assert profile.tray is None and profile.colour is None and profile.picture is None
    assert profile.calibrated_kinds() == []


def test_several_named_profiles_one_active(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(full_profile("Kitchen table"))
    store.save(full_profile("Club"))
    assert store.active("webcam:0", RES).profile.name == "Club"  # type: ignore[union-attr]
    store.use("kitchen table", "webcam:0", RES)
    assert store.active("webcam:0", RES).profile.name == "Kitchen table"  # type: ignore[union-attr]
    entries = {e.name: e for e in store.entries()}
    assert entries["Kitchen table"].active and not entries["Club"].active
    # another resolution is another calibration
    assert store.active("webcam:0", (1280, 720)).profile is None
    with pytest.raises(ProfileError, match="no such profile"):
        store.use("Garage", "webcam:0", RES)


def test_broken_active_profile_falls_back_with_message(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    path = store.save(full_profile())
    data = json.loads(path.read_text())
    data["schema"] = 0
    path.write_text(json.dumps(data))
    result = store.active("webcam:0", RES)
    assert result.profile is None
    assert "older than this app's" in result.message and "using no calibration" in result.message
    listed = store.entries()
    assert listed[0].problem is not None and "older" in listed[0].problem


def test_nothing_calibrated(tmp_path: Path) -> None:
    result = ProfileStore(tmp_path / "nothing").active("pi", RES)
    assert result.profile is None and "not calibrated" in result.message
    assert ProfileStore(tmp_path / "nothing").entries() == []


def test_broken_active_json_does_not_crash(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    store.save(full_profile())
    (tmp_path / "active.json").write_text("{nope")
    assert store.active("webcam:0", RES).profile is None
    store.use("Kitchen table", "webcam:0", RES)  # repairs the choice file
    assert store.active("webcam:0", RES).profile is not None


def test_delete_removes_assets_and_choice(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    profile = full_profile()
    store.save(profile)
    asset = store.write_asset(profile, store.asset_name(profile, "empty.png"), b"png")
    store.delete(profile.name, profile.camera, profile.resolution)
    assert not asset.exists()
    assert store.active("webcam:0", RES).profile is None


def test_the_kinds_a_camera_reads_come_from_its_usable_active_profile(tmp_path: Path) -> None:
    """``ProfileStore.readable_kinds`` (what a screen offers the camera for, without loading the reader): the active
    profile's calibrated kinds, none where the profile cannot be used: no profile, or its empty-tray picture
    missing, not a PNG or of another size (the reader refuses those)."""
    import struct
    import zlib

    def png(width: int, height: int) -> bytes:
        ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
        chunk = b"IHDR" + ihdr
        return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + chunk + struct.pack(">I", zlib.crc32(chunk))

    store = ProfileStore(tmp_path)
    assert store.readable_kinds("webcam:0", RES) == []  # nothing calibrated
    profile = full_profile()
    store.save(profile)
    picture = store.folder("webcam:0", RES) / "kitchen-table.empty.png"
    assert store.readable_kinds("webcam:0", RES) == []  # its empty-tray picture is missing
    picture.write_bytes(png(*RES))
    assert store.readable_kinds("webcam:0", RES) == ["colour", "picture"]
    assert store.readable_kinds("webcam:0", (1280, 720)) == []  # another resolution: not calibrated
    picture.write_bytes(png(320, 240))
    assert store.readable_kinds("webcam:0", RES) == []  # a picture of another size
    picture.write_bytes(b"not a picture at all")
    assert store.readable_kinds("webcam:0", RES) == []
    picture.write_bytes(png(*RES))
    profile.picture = PictureCalibration({"cat": ["aGVsbG8="]})  # one face learned: not enough to read it
    store.save(profile)
    assert store.readable_kinds("webcam:0", RES) == ["colour"]
    profile.empty_tray = None  # no empty-tray picture: nothing to check
    store.save(profile)
    assert store.readable_kinds("webcam:0", RES) == ["colour"]
