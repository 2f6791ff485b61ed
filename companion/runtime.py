"""Builds the app's hardware from the config: real when present, simulated otherwise, never a crash."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.config import Config
from companion.i18n import Lazy, Text
from companion.notices import Notice, Severity, Topic
from hardware.buttons import ButtonBoard, FakeButtons


@dataclass
class Hardware:
    """The buttons and camera the app runs with, and what to tell the players about them."""

    buttons: ButtonBoard
    camera: Any  # a hardware.camera.FrameSource, or None when no camera could be set up at all
    simulation: bool
    notices: dict[str, Notice] = field(default_factory=dict)  # topic ("buttons", "camera") -> its notice


def resolve_camera(spec: str, *, simulation: bool) -> str:
    """``auto``: the Pi camera on a Pi, a USB webcam where one is plugged in, else the bundled photos."""
    if spec != "auto":
        return spec
    if not simulation and Path("/proc/device-tree/model").exists() and is_pi():
        return "pi"
    if Path("/dev/video0").exists() and not simulation:
        return "webcam:0"
    return "sim"


def is_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def camera_news(problem: Any) -> Text:
    """A reconnecting camera's news (:class:`hardware.camera.CameraReconnecting`) in the table's language, worded
    again after a language switch; the reason itself is the camera's own (a device's words)."""
    reason = getattr(problem, "reason", "")
    if not reason:
        return str(problem)
    if getattr(problem, "lost", False):
        return Lazy(
            "Camera lost ({camera}): {reason}. Reconnecting; touch input works meanwhile.",
            camera=getattr(problem, "camera", ""),
            reason=reason,
        )
    return Lazy("Camera not available: {reason}. Trying again; touch input works meanwhile.", reason=reason)


def buttons_news(message: str) -> Text:
    """The buttons' fallback message (hardware.gpio says it in English) in the table's language; the reason
    inside it, a device's words, as it is."""
    from hardware.gpio import FALLBACK_TAIL, NO_GPIO_MESSAGE

    if message == NO_GPIO_MESSAGE:
        return Lazy("No GPIO found: using keys 1–5 and on-screen buttons")
    tail = f": {FALLBACK_TAIL}"
    head = "GPIO buttons unavailable ("
    if message.startswith(head) and message.endswith(")" + tail):
        return Lazy(
            "GPIO buttons unavailable ({problem}): using keys 1–5 and on-screen buttons",
            problem=message[len(head) : -len(tail) - 1],
        )
    if message.endswith(tail):
        return Lazy("{problem}: using keys 1–5 and on-screen buttons", problem=message[: -len(tail)])
    return message


def build(config: Config, *, simulate: bool = False) -> Hardware:
    """Open buttons and camera as the config says (``simulate`` forces the fakes)."""
    notices: dict[str, Notice] = {}
    b = config["buttons"]
    pins = {seat: pin for seat, pin in enumerate(b["pins"], start=1)}
    timing = {"bounce_s": b["bounce_ms"] / 1000, "long_press_s": b["long_press_ms"] / 1000}
    backend = "fake" if simulate else b["backend"]
    buttons: ButtonBoard
    try:
        from hardware.gpio import open_buttons

        buttons, message = open_buttons(pins, backend=backend, **timing)
        if message:
            notices[Topic.BUTTONS] = Notice(Topic.BUTTONS, Severity.WARNING, buttons_news(message))
    except ImportError:
        buttons = FakeButtons(list(pins), **timing)
    camera = None
    # Decided by the hardware present, not by how the buttons turned out: a Pi whose GPIO failed to open still
    # has its camera (it used to get the sample photos, which a player could then "use" in a game).
    spec = "sim" if simulate else resolve_camera(config["camera"]["source"], simulation=False)
    if spec == "sim" and not simulate and config["camera"]["source"] == "auto":
        notices[Topic.CAMERA] = Notice(
            Topic.CAMERA, Severity.INFO, Lazy("No camera found: the dice screen shows bundled sample photos")
        )
    try:
        from hardware.sources import open_camera

        # The simulated tray opens on its first read (when a screen shows the camera): cutting its sample dice
        # loads OpenCV and the photos, ~37 MB the home screen does not need (#21 item 16). A real camera is
        # opened now, so a missing one is said at start-up.
        camera, message = open_camera(
            spec, size=(config["camera"]["width"], config["camera"]["height"]), connect=spec != "sim"
        )
        if message:
            problem = getattr(camera, "problem", None)
            shown = camera_news(problem) if problem is not None else message
            notices[Topic.CAMERA] = Notice(Topic.CAMERA, Severity.WARNING, shown)
    except ImportError:
        camera = None
    except Exception as err:  # a broken camera setting must not stop the app: report it
        notices[Topic.CAMERA] = Notice(Topic.CAMERA, Severity.ERROR, Lazy("Camera: {problem}", problem=str(err)))
    simulation = simulate or isinstance(buttons, FakeButtons)
    return Hardware(buttons=buttons, camera=camera, simulation=simulation, notices=notices)
