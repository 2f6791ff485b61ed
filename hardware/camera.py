"""Frame sources: one interface over the Pi camera, a USB webcam and replayed images or video.

Frames are BGR ``numpy`` arrays (OpenCV convention). ``read()`` returns the newest frame or raises
:class:`CameraUnavailable`; callers show a banner and try again later (sources reconnect on the next read).
"""

from __future__ import annotations

from typing import Any, Protocol

Frame = Any  # numpy.ndarray (H, W, 3) uint8, BGR; typed loosely so this module imports without numpy


class CameraUnavailable(RuntimeError):
    """The camera is missing, unplugged or not returning frames; the message says why (a bare reason from a
    plain source: whoever shows it says what it means for the players)."""


class CameraReconnecting(CameraUnavailable):
    """Raised by :class:`hardware.sources.ReconnectingSource`: the camera is gone and is being reopened by itself;
    the message is a whole sentence for the players (what happened, that it comes back, that touch works)."""


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
        """The newest frame, taken after this call started where the backend allows it."""
        ...

    def close(self) -> None: ...
