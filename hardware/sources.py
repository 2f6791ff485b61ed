"""Frame sources: the Pi camera (picamera2), a USB webcam or stream (OpenCV) and replayed images or video.

All of them follow :class:`hardware.camera.FrameSource` (each read gives a :class:`~hardware.camera.Frame`: the
image and the time it was taken, by the source's ``clock``); :func:`open_camera` turns a config string into one,
wrapped in :class:`ReconnectingSource` so that a camera that disappears raises :class:`CameraUnavailable`
(the app shows a banner and keeps working with touch input) and is reopened by itself on later reads.
picamera2 and OpenCV are imported only inside ``open()``, so nothing here needs them until used.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn

from hardware.camera import CameraReconnecting, CameraUnavailable, Frame, FrameSource, Image

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
# The dice photos shipped for simulation (a licensed subset of the project's photo set).
SIM_DIR = Path(__file__).resolve().parent.parent / "companion" / "vision" / "samples"
DEFAULT_BACKOFF_S = (0.5, 1.0, 2.0, 5.0)
CAMERA_SPECS = "pi, webcam, webcam:N, webcam:URL, replay:PATH or sim"


class PiCameraSource:
    """The Raspberry Pi camera through picamera2 (from Raspberry Pi OS apt, imported on ``open``).

    Frames are BGR arrays (``RGB888`` in libcamera's naming). Every read waits for a frame started after the
    call (``capture_request(flush=True)``), so a reading never shows the tray from before the dice landed.
    After ``settle_frames`` frames the automatic exposure and white balance are locked at their settled values,
    so the colours the dice reader was calibrated for stay put; ``lens_position`` (dioptres, Camera Module 3)
    fixes the focus instead of letting it hunt. ``camera_factory`` replaces ``picamera2.Picamera2`` in tests.
    """

    id = "pi"

    def __init__(
        self,
        size: tuple[int, int] = (640, 480),
        *,
        settle_frames: int = 15,
        lens_position: float | None = None,
        camera_factory: Callable[[], Any] | None = None,
        name: str = "pi camera",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = (int(size[0]), int(size[1]))
        self.settle_frames = settle_frames
        self.lens_position = lens_position
        self.name = name
        self.clock = clock
        self._factory = camera_factory
        self._cam: Any = None
        self._frames = 0
        self.locked_controls: dict[str, Any] | None = None

    def open(self) -> None:
        """Start the camera at ``size``; :class:`CameraUnavailable` says why it cannot."""
        self.close()
        factory = self._factory
        if factory is None:
            try:
                from picamera2 import Picamera2  # type: ignore[import-not-found, unused-ignore]
            except ImportError as err:
                raise CameraUnavailable(
                    "the Pi camera library is missing (sudo apt install python3-picamera2, and a venv made "
                    "with --system-site-packages)"
                ) from err
            factory = Picamera2
        try:
            cam = factory()
        except Exception as err:  # IndexError / RuntimeError when no camera is connected
            raise CameraUnavailable(f"no Pi camera found ({type(err).__name__}: {err})") from err
        try:
            config = cam.create_preview_configuration(main={"size": self.size, "format": "RGB888"})
            cam.configure(config)
            cam.start()
            if self.lens_position is not None and "LensPosition" in (getattr(cam, "camera_controls", None) or {}):
                cam.set_controls({"AfMode": 0, "LensPosition": float(self.lens_position)})  # 0 = manual focus
        except Exception as err:
            with contextlib.suppress(Exception):
                cam.close()
            raise CameraUnavailable(f"the Pi camera did not start ({type(err).__name__}: {err})") from err
        self._cam, self._frames, self.locked_controls = cam, 0, None

    def read(self) -> Frame:
        """A frame taken after this call began (BGR, ``size``), stamped when the camera hands it over."""
        cam = self._cam
        if cam is None:
            raise CameraUnavailable(f"{self.name} is not open")
        try:
            request = cam.capture_request(flush=True)
        except TypeError:  # picamera2 older than 0.3.19 has no flush: drop the queued (stale) frame instead
            cam.capture_request().release()
            request = cam.capture_request()
        taken = self.clock()
        try:
            image = request.make_array("main")
            metadata = request.get_metadata() if self.locked_controls is None else None
        finally:
            request.release()
        self._frames += 1
        if metadata is not None and self._frames >= self.settle_frames:
            self._lock_exposure(metadata)
        return Frame(image, taken)

    def _lock_exposure(self, metadata: dict[str, Any]) -> None:
        controls: dict[str, Any] = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in metadata:
                controls[key] = metadata[key]
        self._cam.set_controls(controls)
        self.locked_controls = controls

    def close(self) -> None:
        """Stop and release the camera (safe to call twice)."""
        cam, self._cam = self._cam, None
        if cam is not None:
            with contextlib.suppress(Exception):
                cam.stop()
            with contextlib.suppress(Exception):
                cam.close()


class OpenCVSource:
    """A USB webcam (device index) or a network stream / video URL through ``cv2.VideoCapture``.

    With ``fresh`` each read first drops the frame the driver may have queued, so the result was taken after
    the call. ``capture_factory`` replaces ``cv2.VideoCapture`` in tests.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        size: tuple[int, int] | None = None,
        fresh: bool = True,
        capture_factory: Callable[[int | str], Any] | None = None,
        name: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.device = device
        self.clock = clock
        self.id = f"webcam:{device}"
        self.size = size
        self.fresh = fresh
        self.name = name or (f"webcam {device}" if isinstance(device, int) else f"stream {device}")
        self._factory = capture_factory
        self._cap: Any = None

    def open(self) -> None:
        """Open the device; :class:`CameraUnavailable` when it is missing or busy."""
        self.close()
        factory: Callable[..., Any] | None = self._factory
        if factory is None:
            import cv2

            factory = cv2.VideoCapture
        cap = factory(self.device)
        if not cap.isOpened():
            cap.release()
            raise CameraUnavailable(f"{self.name} could not be opened (unplugged, or used by another program?)")
        import cv2

        cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)
        if self.size is not None:
            cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
            cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def read(self) -> Frame:
        """The next frame from the device (BGR)."""
        cap = self._cap
        if cap is None:
            raise CameraUnavailable(f"{self.name} is not open")
        if self.fresh:
            cap.grab()
        ok, image = cap.read()
        taken = self.clock()
        if not ok or image is None:
            raise CameraUnavailable(f"{self.name} stopped sending frames")
        return Frame(image, taken)

    def close(self) -> None:
        """Release the device (safe to call twice)."""
        cap, self._cap = self._cap, None
        if cap is not None:
            with contextlib.suppress(Exception):
                cap.release()


class ReplaySource:
    """Replays a folder of images (sorted by path, subfolders included), one image, a video, or ``frames``.

    Without ``fps`` each read returns the next frame, taken at the time of the read; with ``fps`` the frame shown
    follows the clock, like a live camera, and is stamped with its own place in the replay (``clock`` is
    injectable for tests). With ``loop`` it starts again at the end, otherwise the
    end raises :class:`CameraUnavailable`. ``size`` (w, h) resizes every frame. Reads return copies, so drawing
    on a frame never changes the replay.
    """

    id = "replay"

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        frames: Sequence[Image] | None = None,
        fps: float | None = None,
        loop: bool = True,
        size: tuple[int, int] | None = None,
        clock: Callable[[], float] = time.monotonic,
        name: str | None = None,
    ) -> None:
        if (path is None) == (frames is None):
            raise ValueError("ReplaySource needs a path or a list of frames (not both)")
        if fps is not None and fps <= 0:
            raise ValueError(f"fps must be positive, not {fps}")
        self.path = Path(path) if path is not None else None
        self.frames: list[Image] | None = list(frames) if frames is not None else None
        self.fps = fps
        self.loop = loop
        self.size = size
        self.clock = clock
        self.name = name or (f"replay of {self.path}" if self.path is not None else "replay")
        self._files: list[Path] = []
        self._cache: dict[int, Image] = {}
        self._video: Any = None
        self._video_pos = -1
        self._video_frame: Image = None
        self._video_length: int | None = None
        self._opened = False
        self._next = 0
        self._start = 0.0

    def open(self) -> None:
        """Find the images (or open the video); :class:`CameraUnavailable` when there is nothing to show."""
        self.close()
        if self.frames is not None:
            if not self.frames:
                raise CameraUnavailable(f"{self.name}: no frames")
        elif self.path is None or not self.path.exists():
            raise CameraUnavailable(f"{self.name}: {self.path} does not exist")
        elif self.path.is_dir():
            folder = self.path
            self._files = sorted(
                (p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES),
                key=lambda p: p.relative_to(folder).as_posix(),
            )
            if not self._files:
                raise CameraUnavailable(f"{self.name}: no images ({', '.join(IMAGE_SUFFIXES)}) in {self.path}")
        elif self.path.suffix.lower() in IMAGE_SUFFIXES:
            self._files = [self.path]
        else:
            self._open_video()
        self._opened, self._next, self._start = True, 0, self.clock()

    def _open_video(self) -> None:
        import cv2

        video = cv2.VideoCapture(str(self.path))
        if not video.isOpened():
            video.release()
            raise CameraUnavailable(f"{self.name}: cannot read {self.path} as a video")
        self._video, self._video_pos, self._video_frame = video, -1, None

    def read(self) -> Frame:
        """The frame for this read (next one, or the one the clock points at with ``fps``)."""
        if not self._opened:
            raise CameraUnavailable(f"{self.name} is not open")
        now = self.clock()
        if self.fps is not None:
            index = int((now - self._start) * self.fps)
            taken = self._start + index / self.fps
        else:
            index, self._next, taken = self._next, self._next + 1, now
        image = self._video_at(index) if self._video is not None else self._still_at(index)
        return Frame(self._fit(image).copy(), taken)

    def _still_at(self, index: int) -> Image:
        count = len(self.frames) if self.frames is not None else len(self._files)
        if index >= count and not self.loop:
            raise CameraUnavailable(f"{self.name}: end of replay")
        index %= count
        if self.frames is not None:
            return self.frames[index]
        if index not in self._cache:
            from hardware.imagefile import ImageRefused, read_image

            try:
                image = read_image(self._files[index])  # a huge picture is refused by its header, not decoded
            except ImageRefused as err:
                raise CameraUnavailable(f"{self.name}: {err}") from err
            for note in image.notes:
                log.warning("%s: %s: %s", self.name, self._files[index], note)
            self._cache[index] = self._fit(image.pixels)
        return self._cache[index]

    def _video_at(self, index: int) -> Image:
        if self._video_length is not None:
            if index >= self._video_length and not self.loop:
                raise CameraUnavailable(f"{self.name}: end of video")
            index %= self._video_length
        if index < self._video_pos:
            self._video.release()
            self._open_video()
        while self._video_pos < index:
            ok, frame = self._video.read()
            if not ok or frame is None:
                if self._video_pos < 0:
                    raise CameraUnavailable(f"{self.name}: the video has no frames")
                self._video_length = self._video_pos + 1
                if not self.loop:
                    raise CameraUnavailable(f"{self.name}: end of video")
                index %= self._video_length
                if index < self._video_pos:
                    self._video.release()
                    self._open_video()
                continue
            self._video_pos, self._video_frame = self._video_pos + 1, frame
        return self._video_frame

    def _fit(self, frame: Image) -> Image:
        if self.size is None or (frame.shape[1], frame.shape[0]) == tuple(self.size):
            return frame
        import cv2

        return cv2.resize(frame, tuple(self.size), interpolation=cv2.INTER_AREA)

    def close(self) -> None:
        """Forget the open video (images stay cached)."""
        self._opened = False
        video, self._video = self._video, None
        if video is not None:
            video.release()


class ReconnectingSource:
    """Wraps a source so that losing the camera is a message, not a crash, and it comes back by itself.

    A failed open or read (any exception, or no frame) raises :class:`CameraReconnecting` (a
    :class:`CameraUnavailable`) with a whole sentence for the banner; later reads try to reopen after
    ``backoff_s`` delays (growing, by the injected ``clock``) and return frames again as soon as the camera is
    back. ``message`` holds the current problem (``None`` when frames flow).
    """

    def __init__(
        self,
        source: FrameSource,
        *,
        clock: Callable[[], float] = time.monotonic,
        backoff_s: Sequence[float] = DEFAULT_BACKOFF_S,
    ) -> None:
        self.source = source
        self.id = source.id
        self.name = source.name
        self.clock = clock
        self.backoff_s = tuple(backoff_s) or (1.0,)
        self.connected = False
        self.message: str | None = None
        self._news: dict[str, Any] = {}  # what the last CameraReconnecting said, as its fields
        self.problem: CameraReconnecting | None = None  # the last one raised (None while frames flow)
        self.failures = 0
        self._retry_at: float | None = None

    def open(self) -> None:
        """Open now; on failure raise :class:`CameraReconnecting` (reads keep retrying afterwards)."""
        self._connect()

    def read(self) -> Frame:
        """A frame; :class:`CameraReconnecting` while the camera is gone (reopened when it is due)."""
        if not self.connected:
            if self._retry_at is not None and self.clock() < self._retry_at:
                raise CameraReconnecting(self.message or f"{self.name}: not available", **self._news)
            self._connect()
        try:
            frame = self.source.read()
        except Exception as err:
            self._lost(str(err) or type(err).__name__, err)
        if frame is None or frame.image is None:
            self._lost("no frame", None)
        self.failures = 0
        return frame

    def _connect(self) -> None:
        try:
            self.source.open()
        except Exception as err:
            with contextlib.suppress(Exception):
                self.source.close()
            self.failures += 1
            delay = self.backoff_s[min(self.failures, len(self.backoff_s)) - 1]
            self._retry_at = self.clock() + delay
            reason = str(err) if isinstance(err, CameraUnavailable) else f"{type(err).__name__}: {err}"
            self.message = f"Camera not available: {reason}. Trying again; touch input works meanwhile."
            self._news = {"lost": False, "camera": self.name, "reason": reason}
            self.problem = CameraReconnecting(self.message, **self._news)
            raise self.problem from err
        self.connected, self.message, self._retry_at, self.problem = True, None, None, None

    def _lost(self, reason: str, err: BaseException | None) -> NoReturn:
        with contextlib.suppress(Exception):
            self.source.close()
        self.connected = False
        self.failures += 1
        self._retry_at = self.clock() + self.backoff_s[0]
        self.message = f"Camera lost ({self.name}): {reason}. Reconnecting; touch input works meanwhile."
        self._news = {"lost": True, "camera": self.name, "reason": reason}
        self.problem = CameraReconnecting(self.message, **self._news)
        raise self.problem from err

    def close(self) -> None:
        """Close the camera; a later read opens it again."""
        self.connected, self._retry_at = False, None
        self.source.close()


def parse_camera_spec(spec: str) -> tuple[str, int | str | None]:
    """Split a config camera string into (kind, argument); :class:`ValueError` names the accepted forms."""
    text = spec.strip()
    kind, sep, arg = text.partition(":")
    kind = kind.strip().lower()
    arg = arg.strip()
    if kind in ("pi", "sim") and not sep:
        return kind, None
    if kind == "webcam":
        if not sep:
            return kind, 0
        if arg.isdigit():
            return kind, int(arg)
        if arg:
            return kind, arg
    if kind == "replay" and arg:
        return kind, arg
    raise ValueError(f"camera source {spec!r} is not understood (use {CAMERA_SPECS})")


def camera_id(spec: str) -> str:
    """The camera part of a calibration profile's key for a config camera string: "pi", "webcam:N",
    "webcam:URL", "replay" or "sim" (the ``id`` of the source :func:`open_camera` makes from it, so the
    ``companion calibrate`` command and the app file profiles alike). :class:`ValueError` for a spec that is not
    understood."""
    kind, arg = parse_camera_spec(spec)
    return f"webcam:{arg}" if kind == "webcam" else kind


def open_camera(
    spec: str,
    *,
    size: tuple[int, int] = (640, 480),
    lens_position: float | None = None,
    settle_frames: int = 15,
    sim_dir: str | Path | None = None,
    connect: bool = True,
    clock: Callable[[], float] = time.monotonic,
) -> tuple[ReconnectingSource, str | None]:
    """The camera named by ``spec`` ("pi", "webcam[:N|:URL]", "replay:PATH", "sim"), ready to read.

    Returns the source and, when it could not be opened now, the reason for the banner (reads keep retrying).
    ``size`` applies to the Pi camera, webcams and the simulated tray; replays keep their images' size. Raises
    ``ValueError`` only for a spec that is not understood.
    """
    kind, arg = parse_camera_spec(spec)
    source: FrameSource
    if kind == "pi":
        source = PiCameraSource(size, settle_frames=settle_frames, lens_position=lens_position, clock=clock)
    elif kind == "webcam":
        assert arg is not None
        source = OpenCVSource(arg, size=size, clock=clock)
    elif kind == "replay":
        source = ReplaySource(Path(str(arg)).expanduser(), clock=clock)
    else:
        from hardware.simtray import SimulatedTray

        # One fixed camera over a tray: the dice lie still until someone rolls again (see hardware.simtray).
        folder = Path(sim_dir) if sim_dir is not None else SIM_DIR / "angled-webcam"
        source = SimulatedTray(size, samples=folder, clock=clock)
    camera = ReconnectingSource(source, clock=clock)
    message = None
    if connect:
        try:
            camera.open()
        except CameraUnavailable as err:
            message = str(err)
    return camera, message
