"""``companion calibrate`` on its own argparse parser: the terminal walk-through on replayed synthetic frames,
listing, choosing and deleting profiles, the marker sheet, and clear errors."""

from __future__ import annotations

import argparse
import io
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from calibration.store import ProfileStore
from companion.calibrate.bench import synthetic_renderer
from companion.calibrate.cli import parse_size
from companion.cli import build_parser
from hardware.sources import ReplaySource, camera_id, open_camera

R: Any = synthetic_renderer()


def parser() -> argparse.ArgumentParser:
    return build_parser()  # the app's own command line: ``calibrate`` with the configured camera as its default


def run(
    argv: list[str],
    answers: list[str] | None = None,
    frames: list[Any] | None = None,
    opened: bool = True,
    prompts: list[str] | None = None,
) -> tuple[int, str]:
    args = parser().parse_args(["calibrate", *argv])
    replies = iter(answers or [])
    asked = prompts if prompts is not None else []
    out = io.StringIO()
    source = None
    if frames is not None:
        source = ReplaySource(frames=frames, loop=False, name="replay")
        if opened:
            source.open()
    code = args.func(args, ask=lambda prompt: asked.append(prompt) or next(replies), out=out, source=source)
    return code, out.getvalue()


def session_frames(table: Any, rng: np.random.Generator) -> list[Any]:
    """The frames of one walk-through with 1 capture per face and 1 verify roll, in reading order."""
    light = R.Light(4800)
    empty = R.render(table, [], light, noise=2.0).image
    frames = [empty, empty, empty]  # camera check, tray markers, empty tray
    for kind, faces, count in (("colour", list(R.COLOUR_REFLECTANCE), 3), ("picture", list(R.PICTURE_FACES), 1)):
        for face in faces:
            dice = R.place_dice(rng, table, [(kind, face)] * count, size=42)
            frames.append(R.render(table, dice, light, noise=2.0, seed=len(frames)).image)
    dice = R.place_dice(rng, table, [("colour", "red"), ("colour", "green"), ("picture", "cat")], size=42)
    frames.append(R.render(table, dice, R.Light(3500, brightness=0.9), noise=2.0, seed=99).image)
    return frames


def test_walkthrough_saves_an_active_profile(tmp_path: Path) -> None:
    table = R.make_table(8, tray="black felt", perspective=0.03)
    frames = session_frames(table, np.random.default_rng(3))
    answers = ["", "", *[""] * 9, "", "", "", ""]  # camera ok, empty Enter, 9 captures, verify roll + 3 dice
    code, out = run(
        [
            "--camera",
            "replay:x",
            "--captures",
            "1",
            "--verify",
            "1",
            "--profile",
            "Kitchen table",
            "--base-dir",
            str(tmp_path),
        ],
        answers,
        frames,
    )
    assert code == 0, out
    assert "Tray found from the 4 markers" in out
    assert "Saved 'Kitchen table' for replay@640x480 and made it active (colour, picture)" in out
    assert "colour: 2 of 2 right (100%)" in out and "picture: 1 of 1 right (100%)" in out
    profile = ProfileStore(tmp_path).active("replay", (640, 480)).profile
    assert profile is not None and profile.verify["colour"].rolls == 2

    code, out = run(["--list", "--base-dir", str(tmp_path)])
    assert code == 0 and "* Kitchen table" in out and "replay@640x480" in out


def test_recalibrate_one_kind_from_the_terminal(tmp_path: Path) -> None:
    table = R.make_table(8, tray="black felt", perspective=0.03)
    frames = session_frames(table, np.random.default_rng(3))
    run(
        ["--camera", "replay:x", "--captures", "1", "--verify", "0", "--profile", "Club", "--base-dir", str(tmp_path)],
        ["", "", *[""] * 9],
        frames,
    )
    before = ProfileStore(tmp_path).load("Club", "replay", (640, 480))
    # picture only: keep tray and empty tray, 3 picture captures
    picture_frames = [frames[0], *frames[9:12]]
    code, out = run(
        [
            "--camera",
            "replay:x",
            "--captures",
            "1",
            "--verify",
            "0",
            "--kinds",
            "picture",
            "--profile",
            "Club",
            "--base-dir",
            str(tmp_path),
        ],
        ["", "", "", "", "", ""],
        picture_frames,
    )
    assert code == 0, out
    assert "Recalibrating 'Club': picture (the rest is kept)" in out
    after = ProfileStore(tmp_path).load("Club", "replay", (640, 480))
    assert after.colour == before.colour and after.tray == before.tray and after.picture is not None


def test_skip_and_taps_and_name_prompt(tmp_path: Path) -> None:
    table = R.make_table(8, tray="green felt", markers=False)
    empty = R.render(table, [], R.Light(5000)).image
    answers = ["", "", "30,30 610,30 610,450 30,450", "", "s", "s", "", "Garage"]
    code, out = run(["--camera", "replay:x", "--base-dir", str(tmp_path)], answers, [empty] * 4)
    assert code == 0, out
    assert "Markers found: 0 of 4" in out and "Tray area set from your taps" in out
    assert "colour skipped" in out and "picture skipped" in out
    assert "Saved 'Garage' for replay@640x480 and made it active (tray only)" in out


def test_camera_problems_and_quit(tmp_path: Path) -> None:
    blank = np.zeros((480, 640, 3), np.uint8)
    code, out = run(["--camera", "replay:x", "--base-dir", str(tmp_path)], ["", "q"], [blank], opened=False)
    assert code == 1 and out.count("Camera: replay is not open") == 2 and "nothing was saved" in out


def test_use_delete_markers_and_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = run(["--use", "Nope", "--camera", "pi", "--base-dir", str(tmp_path)])
    assert code == 2 and "no such profile" in capsys.readouterr().err
    code, _ = run(["--delete", "Nope", "--camera", "pi", "--base-dir", str(tmp_path)])
    assert code == 2 and "no profile 'Nope' for pi@640x480" in capsys.readouterr().err
    code, _ = run(["--size", "big", "--base-dir", str(tmp_path)])
    assert code == 2 and "WIDTHxHEIGHT" in capsys.readouterr().err
    code, _ = run(["--kinds", "pips", "--base-dir", str(tmp_path)])
    assert code == 2 and "unknown die kind 'pips'" in capsys.readouterr().err
    code, out = run(["--list", "--base-dir", str(tmp_path)])
    assert code == 0 and "No calibration profiles" in out
    sheet = tmp_path / "markers.png"
    code, out = run(["--markers", str(sheet)])
    assert code == 0 and "0 top-left" in out
    image = cv2.imread(str(sheet))
    assert image is not None and image.shape[0] == image.shape[1]


def test_camera_ids_agree_between_specs_and_sources(tmp_path: Path) -> None:
    """The command files a profile under ``camera_id(spec)``; the app under the ``id`` of the source opened from
    that spec (never a display name parsed back): the two agree for every kind of camera."""
    assert camera_id("pi") == camera_id(" PI ") == "pi"
    assert camera_id("webcam") == camera_id("webcam:0") == "webcam:0"
    assert camera_id("webcam:2") == "webcam:2"
    assert camera_id("webcam:rtsp://cam.local/stream") == "webcam:rtsp://cam.local/stream"
    assert camera_id("replay:/tmp/x") == "replay" and camera_id("sim") == "sim"
    with pytest.raises(ValueError, match="not understood"):
        camera_id("pi camera")  # a display name is not a camera spec
    for spec in ("pi", "webcam:2", "webcam:rtsp://cam.local/stream", f"replay:{tmp_path}", "sim"):
        source, _message = open_camera(spec, connect=False)
        assert source.id == source.source.id == camera_id(spec), spec
    assert parse_size("800x600") == (800, 600)


def test_default_camera_comes_from_the_app_config(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    (home / "config").mkdir(parents=True)
    (home / "config" / "config.toml").write_text('[camera]\nsource = "webcam:2"\nwidth = 800\nheight = 600\n')
    monkeypatch.setenv("COMPANION_HOME", str(home))
    code, _ = run(["--use", "Club", "--base-dir", str(tmp_path)])
    assert code == 2 and "webcam-2@800x600" in capsys.readouterr().err


def test_verify_asks_again_for_unread_or_unknown_answers(tmp_path: Path) -> None:
    table = R.make_table(8, tray="black felt", perspective=0.03)
    frames = session_frames(table, np.random.default_rng(3))
    # the verify frame: a white pip die (read as unknown) instead of calibrated dice
    dice = R.place_dice(np.random.default_rng(5), table, [("pips", 3)], size=42)
    frames[-1] = R.render(table, dice, R.Light(4800), noise=2.0, seed=7).image
    answers = ["", "", *[""] * 9, "", "", "purpel", "-"]  # Enter on unknown, a typo, then "not a calibrated die"
    prompts: list[str] = []
    code, out = run(
        ["--camera", "replay:x", "--captures", "1", "--verify", "1", "--profile", "P", "--base-dir", str(tmp_path)],
        answers,
        frames,
        prompts=prompts,
    )
    assert code == 0, out
    assert ": unknown - Enter if right" in prompts[-3]
    assert prompts[-2].startswith("      say what die 1 shows (red, orange") and prompts[-1] == prompts[-2]
    assert ProfileStore(tmp_path).load("P", "replay", (640, 480)).verify == {}


def test_frames_changing_size_stop_with_a_message(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = np.zeros((480, 640, 3), np.uint8)
    small = np.zeros((240, 320, 3), np.uint8)
    code, _ = run(["--camera", "replay:x", "--base-dir", str(tmp_path)], ["m", ""], [big, small])
    assert code == 2 and "this calibration is for 640x480" in capsys.readouterr().err
