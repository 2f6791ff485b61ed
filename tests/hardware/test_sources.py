"""Frame sources: replay of frames, images and video, the webcam and Pi camera adapters (with fakes),
reconnection after a camera disappears, and the config string parser."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from hardware.camera import CameraUnavailable, Frame
from hardware.sources import (
    SIM_DIR,
    OpenCVSource,
    PiCameraSource,
    ReconnectingSource,
    ReplaySource,
    open_camera,
    parse_camera_spec,
)


def solid(value: int, size: tuple[int, int] = (32, 24)) -> np.ndarray:
    """A frame of one grey level, so tests can tell frames apart by their first pixel."""
    return np.full((size[1], size[0], 3), value, np.uint8)


def level(frame: Frame) -> int:
    return int(frame.image[0, 0, 0])


def write_images(folder: Path, values: list[int], size: tuple[int, int] = (32, 24)) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, value in enumerate(values):
        assert cv2.imwrite(str(folder / f"{i:02d}.png"), solid(value, size))


# -- ReplaySource --------------------------------------------------------------------------------------------


def test_replay_of_frames_in_order_and_looping() -> None:
    source = ReplaySource(frames=[solid(10), solid(20), solid(30)])
    source.open()
    assert [level(source.read()) for _ in range(7)] == [10, 20, 30, 10, 20, 30, 10]


def test_replay_without_loop_ends_with_camera_unavailable() -> None:
    source = ReplaySource(frames=[solid(1), solid(2)], loop=False)
    source.open()
    source.read(), source.read()
    with pytest.raises(CameraUnavailable, match="end of replay"):
        source.read()


def test_replay_paced_by_fps_follows_the_injected_clock(make_clock: Any) -> None:
    clock = make_clock(100.0)
    source = ReplaySource(frames=[solid(10), solid(20), solid(30)], fps=2.0, clock=clock)
    source.open()
    seen, taken = [], []
    for _ in range(8):
        frame = source.read()
        seen.append(level(frame))
        taken.append(frame.taken)
        clock.advance(0.25)
    assert seen == [10, 10, 20, 20, 30, 30, 10, 10]
    # each frame is stamped with its place in the replay (2 fps: every 0.5 s), not with the moment it is read
    assert taken == [100.0, 100.0, 100.5, 100.5, 101.0, 101.0, 101.5, 101.5]


def test_frames_carry_the_time_they_were_taken(make_clock: Any) -> None:
    """Stamped by the source as the frame comes from the camera: a reader that processes it later still knows
    when it was taken (the live reader settles on those times)."""
    clock = make_clock(7.0)
    replay = ReplaySource(frames=[solid(1), solid(2)], clock=clock)
    replay.open()
    first = replay.read()
    clock.advance(0.4)
    second = replay.read()
    assert (first.taken, second.taken) == (7.0, 7.4)
    camera = ReconnectingSource(replay, clock=clock)
    clock.advance(1.0)
    assert camera.read().taken == 8.4  # passed through as taken
    capture = FakeCapture(frames=[solid(5)])
    webcam = OpenCVSource(0, capture_factory=lambda device: capture, clock=clock)
    webcam.open()
    assert webcam.read().taken == 8.4
    cam = FakePicamera2()
    pi = PiCameraSource(camera_factory=lambda: cam, clock=clock)
    pi.open()
    clock.advance(0.1)
    assert pi.read().taken == pytest.approx(8.5)


def test_replay_frames_are_copies() -> None:
    source = ReplaySource(frames=[solid(10)])
    source.open()
    source.read().image[:] = 255  # an overlay drawn on the frame
    assert level(source.read()) == 10


def test_replay_of_an_image_folder_sorted_and_resized(tmp_path: Path) -> None:
    write_images(tmp_path / "shots", [50, 60, 70])
    write_images(tmp_path / "shots" / "zz-more", [80])
    (tmp_path / "shots" / "LICENSE.txt").write_text("not an image")
    source = ReplaySource(tmp_path / "shots", size=(16, 12))
    source.open()
    frames = [source.read() for _ in range(5)]
    assert [level(f) for f in frames] == [50, 60, 70, 80, 50]
    assert frames[0].image.shape == (12, 16, 3)


def test_replay_of_one_image_file(tmp_path: Path) -> None:
    write_images(tmp_path, [90])
    source = ReplaySource(tmp_path / "00.png")
    source.open()
    assert level(source.read()) == level(source.read()) == 90


@pytest.mark.parametrize("make", ["missing", "empty", "garbage"])
def test_replay_of_nothing_usable_says_why(tmp_path: Path, make: str) -> None:
    target = tmp_path / "photos"
    if make != "missing":
        target.mkdir()
    if make == "garbage":
        (target / "broken.jpg").write_bytes(b"this is not a jpeg")
    source = ReplaySource(target)
    with pytest.raises(CameraUnavailable) as caught:
        source.open()
        source.read()
    assert str(target) in str(caught.value)
    assert {"missing": "does not exist", "empty": "no images", "garbage": "cannot read image"}[make] in str(
        caught.value
    )


def write_video(path: Path, values: list[int]) -> Path:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (32, 24))
    assert writer.isOpened()
    for value in values:
        writer.write(solid(value))
    writer.release()
    return path


def test_replay_of_a_video_loops(tmp_path: Path) -> None:
    video = write_video(tmp_path / "roll.avi", [40, 120, 200])
    source = ReplaySource(video)
    source.open()
    seen = [level(source.read()) for _ in range(7)]
    # JPEG compression moves grey levels a little: compare within a tolerance.
    assert seen == pytest.approx([40, 120, 200, 40, 120, 200, 40], abs=4)


def test_replay_of_a_video_paced_and_without_loop(tmp_path: Path, make_clock: Any) -> None:
    video = write_video(tmp_path / "roll.avi", [40, 120, 200])
    clock = make_clock(0.0)
    source = ReplaySource(video, fps=10.0, loop=False, clock=clock)
    source.open()
    assert level(source.read()) == pytest.approx(40, abs=4)
    clock.advance(0.21)
    assert level(source.read()) == pytest.approx(200, abs=4)
    clock.advance(0.1)
    with pytest.raises(CameraUnavailable, match="end of video"):
        source.read()


def test_replay_needs_exactly_one_of_path_or_frames() -> None:
    with pytest.raises(ValueError):
        ReplaySource()
    with pytest.raises(ValueError):
        ReplaySource("x", frames=[solid(1)])


# -- OpenCVSource --------------------------------------------------------------------------------------------


class FakeCapture:
    """Stands in for cv2.VideoCapture: a list of (ok, frame) results, then nothing."""

    def __init__(self, opened: bool = True, frames: list[np.ndarray] | None = None) -> None:
        self.opened = opened
        self.frames = list(frames or [])
        self.props: dict[int, float] = {}
        self.grabs = 0
        self.released = False

    def isOpened(self) -> bool:
        return self.opened

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def grab(self) -> bool:
        self.grabs += 1
        return bool(self.frames)

    def read(self) -> tuple[bool, np.ndarray | None]:
        return (True, self.frames.pop(0)) if self.frames else (False, None)

    def release(self) -> None:
        self.released = True


def test_webcam_opens_sets_size_and_reads_fresh_frames() -> None:
    capture = FakeCapture(frames=[solid(5), solid(6)])
    source = OpenCVSource(0, size=(640, 480), capture_factory=lambda device: capture)
    source.open()
    assert level(source.read()) == 5
    assert capture.grabs == 1  # the queued frame was dropped first
    assert capture.props[cv2.CAP_PROP_FRAME_WIDTH] == 640 and capture.props[cv2.CAP_PROP_FRAME_HEIGHT] == 480
    assert capture.props[cv2.CAP_PROP_BUFFERSIZE] == 1
    level(source.read())
    with pytest.raises(CameraUnavailable, match="webcam 0 stopped sending frames"):
        source.read()
    source.close()
    assert capture.released


def test_webcam_that_cannot_open_is_unavailable() -> None:
    capture = FakeCapture(opened=False)
    source = OpenCVSource(3, capture_factory=lambda device: capture)
    with pytest.raises(CameraUnavailable, match="webcam 3 could not be opened"):
        source.open()
    assert capture.released
    with pytest.raises(CameraUnavailable, match="not open"):
        source.read()


def test_webcam_source_reads_a_real_stream_through_opencv(tmp_path: Path) -> None:
    video = write_video(tmp_path / "stream.avi", [30, 90])
    source = OpenCVSource(str(video), fresh=False)
    source.open()
    assert level(source.read()) == pytest.approx(30, abs=4)
    source.close()


# -- PiCameraSource (picamera2 replaced by a recording fake) --------------------------------------------------


class FakeRequest:
    def __init__(self, cam: FakePicamera2) -> None:
        self.cam = cam
        self.released = False

    def make_array(self, stream: str) -> np.ndarray:
        assert stream == "main"
        return solid(len(self.cam.requests), self.cam.size)

    def get_metadata(self) -> dict[str, Any]:
        return {"ExposureTime": 8000, "AnalogueGain": 1.5, "ColourGains": (1.9, 1.6), "Lux": 300.0}

    def release(self) -> None:
        self.released = True


class FakePicamera2:
    """Records what PiCameraSource asks of picamera2."""

    def __init__(self, *, old: bool = False, fail_start: bool = False) -> None:
        self.old, self.fail_start = old, fail_start
        self.calls: list[Any] = []
        self.requests: list[FakeRequest] = []
        self.camera_controls = {"LensPosition": (0.0, 15.0, 1.0), "AeEnable": (False, True, True)}
        self.size = (0, 0)

    def create_preview_configuration(self, main: dict[str, Any]) -> dict[str, Any]:
        self.size = main["size"]
        self.calls.append(("config", main))
        return {"main": main}

    def configure(self, config: dict[str, Any]) -> None:
        self.calls.append("configure")

    def start(self) -> None:
        if self.fail_start:
            raise RuntimeError("Failed to start camera: Cannot allocate memory")
        self.calls.append("start")

    def set_controls(self, controls: dict[str, Any]) -> None:
        self.calls.append(("controls", controls))

    def capture_request(self, **kwargs: Any) -> FakeRequest:
        if self.old and kwargs:
            raise TypeError("capture_request() got an unexpected keyword argument 'flush'")
        self.calls.append(("capture", kwargs))
        self.requests.append(FakeRequest(self))
        return self.requests[-1]

    def stop(self) -> None:
        self.calls.append("stop")

    def close(self) -> None:
        self.calls.append("close")


def test_pi_camera_configures_reads_fresh_frames_and_locks_exposure_once_settled() -> None:
    cam = FakePicamera2()
    source = PiCameraSource((640, 480), settle_frames=3, lens_position=2.5, camera_factory=lambda: cam)
    source.open()
    assert cam.calls[:3] == [("config", {"size": (640, 480), "format": "RGB888"}), "configure", "start"]
    assert cam.calls[3] == ("controls", {"AfMode": 0, "LensPosition": 2.5})
    frames = [source.read() for _ in range(5)]
    assert frames[0].image.shape == (480, 640, 3)
    assert all(call[1] == {"flush": True} for call in cam.calls if call[0] == "capture")
    assert all(r.released for r in cam.requests)
    locks = [c for c in cam.calls if c[0] == "controls" and "AeEnable" in c[1]]
    assert locks == [
        (
            "controls",
            {
                "AeEnable": False,
                "AwbEnable": False,
                "ExposureTime": 8000,
                "AnalogueGain": 1.5,
                "ColourGains": (1.9, 1.6),
            },
        )
    ]
    # The lock came after the third frame, not before.
    assert [c if isinstance(c, str) else c[0] for c in cam.calls[4:9]] == [
        "capture",
        "capture",
        "capture",
        "controls",
        "capture",
    ]
    source.close()
    assert cam.calls[-2:] == ["stop", "close"]


def test_pi_camera_without_flush_support_drops_the_stale_frame() -> None:
    cam = FakePicamera2(old=True)
    source = PiCameraSource(camera_factory=lambda: cam)
    source.open()
    source.read()
    assert len(cam.requests) == 2 and all(r.released for r in cam.requests)


def test_pi_camera_failures_become_camera_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_camera() -> Any:
        raise IndexError("list index out of range")

    with pytest.raises(CameraUnavailable, match="no Pi camera found"):
        PiCameraSource(camera_factory=no_camera).open()
    broken = FakePicamera2(fail_start=True)
    with pytest.raises(CameraUnavailable, match="Cannot allocate memory"):
        PiCameraSource(camera_factory=lambda: broken).open()
    assert broken.calls[-1] == "close"
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a PC: the import fails
    with pytest.raises(CameraUnavailable, match="python3-picamera2"):
        PiCameraSource().open()


# -- ReconnectingSource ---------------------------------------------------------------------------------------


class FlakySource:
    """Works, then the camera is unplugged (reads and opens fail), then it is plugged back in."""

    id = "webcam:7"
    name = "flaky cam"

    def __init__(self) -> None:
        self.plugged = True
        self.is_open = False
        self.opens = 0
        self.count = 0

    def open(self) -> None:
        self.opens += 1
        if not self.plugged:
            raise CameraUnavailable("flaky cam is unplugged")
        self.is_open = True

    def read(self) -> Any:
        if not (self.plugged and self.is_open):
            raise OSError("device disconnected")
        self.count += 1
        return Frame(solid(self.count), float(self.count))

    def close(self) -> None:
        self.is_open = False


def test_reconnecting_source_reports_loss_and_reconnects_with_backoff(make_clock: Any) -> None:
    clock = make_clock(0.0)
    inner = FlakySource()
    camera = ReconnectingSource(inner, clock=clock, backoff_s=(1.0, 2.0, 4.0))
    camera.open()
    assert level(camera.read()) == 1 and camera.message is None
    inner.plugged = False
    with pytest.raises(CameraUnavailable, match=r"Camera lost \(flaky cam\): device disconnected"):
        camera.read()
    assert not camera.connected and not inner.is_open
    opens = inner.opens
    with pytest.raises(CameraUnavailable, match="Reconnecting"):
        camera.read()  # too early: no reopen attempt
    assert inner.opens == opens
    clock.advance(1.0)
    with pytest.raises(CameraUnavailable, match="unplugged"):
        camera.read()  # due: tries, fails, backs off further
    assert inner.opens == opens + 1
    clock.advance(1.0)
    with pytest.raises(CameraUnavailable):
        camera.read()
    assert inner.opens == opens + 1  # still backing off (4 s after two failures)
    inner.plugged = True
    clock.advance(3.0)
    assert level(camera.read()) == 2
    assert camera.connected and camera.message is None and camera.failures == 0


def test_reconnecting_source_treats_no_frame_as_lost(make_clock: Any) -> None:
    class Blank(FlakySource):
        def read(self) -> Any:
            return None

    camera = ReconnectingSource(Blank(), clock=make_clock(0.0))
    with pytest.raises(CameraUnavailable, match="no frame"):
        camera.read()  # opens on first read
    assert camera.message is not None and "touch input" in camera.message


# -- open_camera ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "parsed"),
    [
        ("pi", ("pi", None)),
        ("sim", ("sim", None)),
        ("webcam", ("webcam", 0)),
        ("webcam:2", ("webcam", 2)),
        ("webcam:http://10.0.0.5:8080/video", ("webcam", "http://10.0.0.5:8080/video")),
        (" replay:/tmp/x.mp4 ", ("replay", "/tmp/x.mp4")),
    ],
)
def test_camera_specs(spec: str, parsed: tuple[str, Any]) -> None:
    assert parse_camera_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["", "usb", "replay:", "pi:3", "webcam:"])
def test_bad_camera_spec_names_the_forms(spec: str) -> None:
    with pytest.raises(ValueError, match="use pi, webcam"):
        open_camera(spec)


def test_open_camera_replay_folder(tmp_path: Path) -> None:
    write_images(tmp_path / "replay", [11, 22])
    camera, message = open_camera(f"replay:{tmp_path / 'replay'}")
    assert message is None and isinstance(camera, ReconnectingSource)
    assert [level(camera.read()) for _ in range(3)] == [11, 22, 11]


def test_open_camera_that_is_missing_gives_a_banner_message_not_a_crash(tmp_path: Path) -> None:
    camera, message = open_camera(f"replay:{tmp_path / 'nothing-here'}")
    assert message is not None and "Camera not available" in message and "does not exist" in message
    with pytest.raises(CameraUnavailable):
        camera.read()
    camera, message = open_camera("webcam:7", connect=False)
    assert message is None and not camera.connected


def test_simulation_replays_the_shipped_dice_photos() -> None:
    assert any(SIM_DIR.rglob("*.jpg")), f"the sample dice photos are missing from {SIM_DIR}"
    camera, message = open_camera("sim")
    assert message is None
    frame = camera.read().image
    assert frame.ndim == 3 and frame.shape[2] == 3 and frame.dtype == np.uint8


@pytest.mark.pi
@pytest.mark.skipif(os.environ.get("COMPANION_PI_TESTS") != "1", reason="set COMPANION_PI_TESTS=1 on a Raspberry Pi")
def test_real_pi_camera_gives_fresh_frames_and_locks_exposure() -> None:
    """Needs a Pi with a camera module and python3-picamera2 (venv with --system-site-packages)."""
    source = PiCameraSource((640, 480), settle_frames=5)
    source.open()
    try:
        frames = [source.read().image for _ in range(6)]
        assert frames[-1].shape == (480, 640, 3) and frames[-1].dtype == np.uint8
        assert source.locked_controls is not None and source.locked_controls["AeEnable"] is False
        assert frames[-1].std() > 0  # a real picture, not a blank buffer
    finally:
        source.close()
