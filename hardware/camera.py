"""Frame sources: one interface over the Pi camera, a USB webcam and replayed images or video.

``read()`` returns the newest :class:`Frame` (a BGR ``numpy`` image, OpenCV convention, and when it was taken) or
raises :class:`CameraUnavailable`; callers show a banner and try again later (sources reconnect on the next read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

Image = Any  # numpy.ndarray (H, W, 3) uint8, BGR; typed loosely so this module imports without numpy


@dataclass(frozen=True)
class Frame:
    """One picture from a camera and when it was taken: ``taken`` is in seconds on the source's clock
    (``time.monotonic`` unless a test injects one), stamped as the frame comes from the camera, before any
    processing (a replay at a frame rate stamps each frame with its place in the replay). Compare ``taken``
    only with other frames' times, never with wall time."""

    image: Image
    taken: float


class CameraUnavailable(RuntimeError):
    """The camera is missing, unplugged or not returning frames; the message says why (a bare reason from a
    plain source: whoever shows it says what it means for the players)."""


class CameraReconnecting(CameraUnavailable):
    """Raised by :class:`hardware.sources.ReconnectingSource`: the camera is gone and is being reopened by itself;
    the message is a whole sentence for the players (what happened, that it comes back, that touch works).
    ``lost`` (it was working) or not (it never opened), ``camera`` and ``reason`` let the app say the same in the
    table's language."""

    def __init__(self, message: str, *, lost: bool = False, camera: str = "", reason: str = "") -> None:
        super().__init__(message)
        self.lost = lost
        self.camera = camera
        self.reason = reason


class FrameSource(Protocol):
    """What the dice screen and the calibration wizard need from a camera. ``id`` names the camera for
    calibration profiles ("pi", "webcam:0", "webcam:URL", "replay", "sim": :func:`hardware.sources.camera_id`
    of the config spec it was opened from); ``name`` is for people and may say anything."""

    id: str
    name: str

    def open(self) -> None:
        """Start the camera (raises CameraUnavailable)."""
        ...

    def read(self) -> Frame:
        """The newest frame (taken after this call started where the backend allows it) and its capture time."""
        ...

    def close(self) -> None: ...
