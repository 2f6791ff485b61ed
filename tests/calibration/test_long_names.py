"""Calibration profile names and camera ids of any length (issue #22, item 12): a name over the cap is refused
with a sentence, never ``OSError: File name too long``; the real command says so in one line and exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest
from procs import companion, no_traceback
from test_profile import full_profile

from calibration.profile import ProfileError
from calibration.store import MAX_PROFILE_NAME, ProfileStore

LONG = "table " * 2000


@pytest.mark.parametrize("what", ["use", "delete", "load", "exists", "save"])
def test_a_10000_character_name_is_refused_with_a_sentence(tmp_path: Path, what: str) -> None:
    store = ProfileStore(tmp_path)
    with pytest.raises(ProfileError, match=f"at most {MAX_PROFILE_NAME} characters"):
        if what == "save":
            store.save(full_profile(LONG))
        else:
            getattr(store, what)(LONG, "webcam:0", (640, 480))


def test_a_long_name_in_any_script_within_the_cap_is_saved_and_used(tmp_path: Path) -> None:
    store = ProfileStore(tmp_path)
    name = ("부엌 식탁 " * 20)[:MAX_PROFILE_NAME]  # 3 bytes a letter in UTF-8: the file name still fits
    store.save(full_profile(name))
    assert store.use(name, "webcam:0", (640, 480)).name == name


def test_a_camera_id_over_the_cap_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ProfileError, match="camera"):
        ProfileStore(tmp_path).use("kitchen", "webcam:" + "9" * 10_000, (640, 480))


@pytest.mark.parametrize("option", ["--use", "--delete"])
def test_the_command_refuses_a_10000_character_name_in_one_line(tmp_path: Path, option: str) -> None:
    proc = companion("calibrate", option, "x" * 10_000, "--camera", "webcam:0", "--size", "640x480", home=tmp_path)
    no_traceback(proc)
    assert proc.returncode == 2 and len(proc.stderr.strip().splitlines()) == 1
    assert f"at most {MAX_PROFILE_NAME} characters" in proc.stderr and len(proc.stderr) < 400
