"""``companion dice read|eval`` through ``register`` on our own argparse parser, and the JSON line format."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import cv2
import pytest
from scenes import scene

from companion.vision import cli
from companion.vision.dataset import SAMPLES


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="companion")
    register_target = parser.add_subparsers(dest="command", required=True)
    cli.register(register_target)
    args = parser.parse_args(argv)
    return int(args.func(args))


@pytest.fixture
def photos(tmp_path: Path) -> Path:
    folder = tmp_path / "shots"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), scene([(5, 200, 200), (2, 400, 300)]).image)
    cv2.imwrite(str(folder / "b.jpg"), scene([(6, 300, 240)], seed=3).image)
    (folder / "notes.txt").write_text("not an image")
    return folder


def test_read_json_lines(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dice", "read", str(photos), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [Path(x["image"]).name for x in lines] == ["a.png", "b.jpg"]
    first = lines[0]
    assert set(first) == {"image", "dice", "ms"}
    assert sorted(d["value"] for d in first["dice"]) == [2, 5]
    for d in first["dice"]:
        assert {"value", "box", "confidence"} <= set(d) <= {"value", "box", "confidence", "kind"}
        x0, y0, x1, y1 = d["box"]
        assert all(isinstance(v, int) for v in d["box"]) and 0 <= x0 < x1 < 640 and 0 <= y0 < y1 < 480
        assert 0.0 <= d["confidence"] <= 1.0
    five = next(d for d in first["dice"] if d["value"] == 5)
    assert abs((five["box"][0] + five["box"][2]) / 2 - 200) < 8  # boxes in the image's own pixels
    assert isinstance(first["ms"], float | int) and first["ms"] > 0
    assert [d["value"] for d in lines[1]["dice"]] == [6]


def test_ms_is_the_time_the_reading_took_in_milliseconds(
    photos: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each image's "ms" is exactly the reader's time: a reading that takes 37.5 ms on the clock says 37.5."""
    from companion.vision import pipeline

    now = [100.0]
    real_read = pipeline.read_dice

    def read(img: object, profile: object = None) -> object:
        found = real_read(img, profile)  # type: ignore[arg-type]
        now[0] += 0.0375
        return found

    monkeypatch.setattr(pipeline, "read_dice", read)
    monkeypatch.setattr("time.perf_counter", lambda: now[0])
    assert run(["dice", "read", str(photos), "--json"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["ms"] for line in lines] == [37.5, 37.5]


def test_read_loads_the_networks_before_it_times_the_first_image(
    photos: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """ "ms" is the reading: the networks are loaded (``warm_up``) once, before the first image is timed, so the
    first image does not report ~50 ms more than the others."""
    from companion.vision import pipeline

    calls: list[str] = []
    real_warm, real_read = pipeline.warm_up, pipeline.read_dice

    def warm(profile: object = None) -> None:
        calls.append("warm")
        real_warm(profile)  # type: ignore[arg-type]

    def read(img: object, profile: object = None) -> object:
        calls.append("read")
        return real_read(img, profile)  # type: ignore[arg-type]

    monkeypatch.setattr(pipeline, "warm_up", warm)
    monkeypatch.setattr(pipeline, "read_dice", read)
    assert run(["dice", "read", str(photos), "--json"]) == 0
    assert calls == ["warm", "read", "read"]


def test_read_plain_text_and_single_file(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dice", "read", str(photos / "b.jpg")]) == 0
    out = capsys.readouterr().out
    assert "b.jpg: 6 (sum 6)" in out


def test_read_reports_bad_files_and_keeps_going(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        run(["dice", "read", str(photos / "missing.jpg"), str(photos / "notes.txt"), str(photos / "a.png"), "--json"])
        == 1
    )
    captured = capsys.readouterr()
    assert "missing.jpg" in captured.err and "notes.txt" in captured.err
    assert len(captured.out.splitlines()) == 1


def test_eval_prints_the_shared_figures(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = SAMPLES / "angled-webcam"
    dst = tmp_path / "set"
    (dst / "images").mkdir(parents=True)
    (dst / "labels").mkdir()
    names = sorted(p.stem for p in (src / "images").iterdir())[:3]
    for n in names:
        shutil.copy(src / "images" / f"{n}.jpg", dst / "images")
        shutil.copy(src / "labels" / f"{n}.txt", dst / "labels")
    assert run(["dice", "eval", str(dst)]) == 0
    out = capsys.readouterr().out
    for key in ("per-die acc.", "wrong values", "misses", "false dice", "images right"):
        assert key in out
    assert run(["dice", "eval", str(dst), "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["images"] == 3
    assert figures["dice"] == sum(len((dst / "labels" / f"{n}.txt").read_text().split("\n")) - 1 for n in names)
    assert figures["right"] + figures["wrong"] + figures["missed"] == figures["dice"]


def test_eval_counts_an_unreadable_image_as_missed_and_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = SAMPLES / "angled-webcam"
    dst = tmp_path / "set"
    (dst / "images").mkdir(parents=True)
    (dst / "labels").mkdir()
    name = sorted(p.stem for p in (src / "images").iterdir())[0]
    shutil.copy(src / "images" / f"{name}.jpg", dst / "images")
    shutil.copy(src / "labels" / f"{name}.txt", dst / "labels")
    (dst / "images" / "broken.jpg").write_bytes(b"not a photo")
    (dst / "labels" / "broken.txt").write_text("0 0.5 0.5 0.1 0.1\n3 0.2 0.2 0.1 0.1\n")
    assert run(["dice", "eval", str(dst), "--json", "--list"]) == 1
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    figures = json.loads(lines[0])
    good = len((dst / "labels" / f"{name}.txt").read_text().split()) // 5
    assert figures["images"] == 2 and figures["dice"] == good + 2 and figures["unreadable"] == 1
    assert figures["missed"] >= 2 and figures["right"] + figures["wrong"] + figures["missed"] == figures["dice"]
    assert figures["perfect_images"] <= 0.5  # the unreadable one is never entirely right
    assert any("broken.jpg: could not be read, 2 labelled dice missed" in line for line in lines)
    assert "broken.jpg" in captured.err and "count as missed" in captured.err


def test_eval_without_images_folder_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["dice", "eval", str(tmp_path)]) == 2
    assert "no images/ folder" in capsys.readouterr().err


def test_eval_of_an_empty_set_or_a_label_that_is_no_face_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    assert run(["dice", "eval", str(tmp_path)]) == 2  # it used to print 100% for no images at all
    assert "no images in" in capsys.readouterr().err
    cv2.imwrite(str(tmp_path / "images" / "a.png"), scene([(5, 200, 200)]).image)
    (tmp_path / "labels" / "a.txt").write_text("6 0.3 0.4 0.05 0.07\n")  # class 6 would be a seven
    assert run(["dice", "eval", str(tmp_path)]) == 2
    assert "class 6 is not a die face" in capsys.readouterr().err


def test_read_goes_into_subfolders(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (photos / "more").mkdir()
    shutil.copy(photos / "b.jpg", photos / "more" / "c.jpg")
    assert run(["dice", "read", str(photos), "--json"]) == 0
    names = [Path(json.loads(line)["image"]).name for line in capsys.readouterr().out.splitlines()]
    assert names == ["a.png", "b.jpg", "c.jpg"]


def test_a_closed_pipe_ends_the_read_quietly(photos: Path) -> None:
    import subprocess
    import sys

    command = f"{sys.executable} -m companion dice read {photos} --json | head -c 1"
    proc = subprocess.run(command, shell=True, capture_output=True, text=True, timeout=120)
    assert "Traceback" not in proc.stderr and "BrokenPipe" not in proc.stderr


def test_main_accepts_read_without_the_dice_word(photos: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["read", str(photos / "b.jpg"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["dice"][0]["value"] == 6


def test_importing_companion_does_not_import_cv2() -> None:
    import subprocess
    import sys

    code = "import sys, companion, companion.vision.cli; print('cv2' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.slow
def test_bench_reports_speed_and_memory() -> None:
    from companion.vision.bench import bench_vision

    paths = sorted(str(p) for p in (SAMPLES / "angled-webcam" / "images").iterdir())[:2]
    figures = bench_vision(paths, repeats=1)
    assert figures["images"] == 2 and figures["read_exit"] == 0
    assert 0 < figures["median_ms"] < 5000 and 0 < figures["median_cpu_ms"] < 5000
    assert 20 < figures["read_peak_mb"] < 2000
    assert set(figures["median_ms_by_set"]) == {"angled-webcam"}
    assert 0 < figures["with_memory_median_ms"] < 5000  # read with a full memory of the table's dice
    assert figures["with_memory_look_dice"] == 0 and not figures["with_memory_look_used"]  # off as shipped
    assert 0 < figures["with_look_median_ms"] < 5000 and figures["with_look_used"]  # the look forced on
    assert figures["big_frame_px"] == [1920, 1440] and figures["big_frame_read_exit"] == 0  # the webcam photo 3x3
    assert 0 < figures["big_frame_ms"] < 20000 and 20 < figures["big_frame_read_peak_mb"] < 2000
