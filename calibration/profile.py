"""Calibration profiles: typed, versioned JSON files with defaults in code and strict loading.

A profile belongs to one camera at one resolution and has a player-chosen name ("kitchen table", "club").
It holds the tray area, the empty-tray reference frame (a PNG beside the JSON), the learned colour references and
picture-die templates, and the last verify results. Every part is optional: a profile with only a tray area is
valid, and no profile at all means "not calibrated" (the reader reports colour and picture dice as unknown).

Loading is strict: unknown keys, wrong types and schema versions other than :data:`SCHEMA_VERSION` raise
:class:`ProfileError` naming the file and key, so a hand-edited or stale file is explained, never half-used.
This module uses the standard library only, so the app, the CLI and tests can read profiles without OpenCV.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
"""Bump when the file layout changes; older files are then refused with a "recalibrate" message."""

DEFAULT_COLOUR_FACES: tuple[str, ...] = ("red", "orange", "purple", "blue", "green", "yellow")
"""Lowdown's colour-die faces (one colour per face); a profile may list others."""

DEFAULT_PICTURE_FACES: tuple[str, ...] = ("cat", "rat", "swap")
"""Rat-a-Tat Roll's picture-die icons; how many faces carry each icon is game data, not calibration."""

KINDS: tuple[str, ...] = ("colour", "picture")
"""The die kinds that need calibration (pip dice are read without it)."""


class ProfileError(ValueError):
    """A profile file that cannot be used; the message names the file, the key and what is wrong."""


def now_iso() -> str:
    """UTC timestamp in ISO 8601, seconds precision: when a profile part was made."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


def camera_key(camera: str, resolution: tuple[int, int]) -> str:
    """The key profiles are grouped by: one camera at one resolution, e.g. ``"pi@640x480"``."""
    return f"{camera}@{int(resolution[0])}x{int(resolution[1])}"


@dataclass
class TrayArea:
    """The tray's four corners in frame pixels, clockwise from top-left, and how they were found."""

    corners: list[tuple[float, float]]
    source: str = "aruco"  # "aruco" or "taps"


@dataclass
class EmptyTray:
    """The empty-tray reference: an image file beside the profile plus its median colour (BGR, 0-255)."""

    image: str
    median_bgr: tuple[float, float, float]
    taken: str = ""


@dataclass
class ColourCalibration:
    """Colour-die references: per face, the feature vectors of each capture (see ``companion.vision.colour``).

    ``texture`` keeps the largest face texture seen while learning, so a patterned face (a pip die of the same
    colour) is told apart from a plain colour face.
    """

    faces: dict[str, list[list[float]]] = field(default_factory=dict)
    texture: float = 0.0
    updated: str = ""


@dataclass
class PictureCalibration:
    """Picture-die templates: per face, normalised grey face patches as base64 PNG (``companion.vision.picture``),
    and the die's own colour features (as for colour dice), so a colour die is never taken for the picture die."""

    faces: dict[str, list[str]] = field(default_factory=dict)
    updated: str = ""
    colours: list[list[float]] = field(default_factory=list)


@dataclass
class VerifyResult:
    """Outcome of a verify run for one die kind: accuracy and the faces it confused (true, read, count)."""

    rolls: int
    correct: int
    confusions: list[tuple[str, str, int]] = field(default_factory=list)
    when: str = ""

    @property
    def accuracy(self) -> float:
        """Share of dice read right (0 when nothing was checked)."""
        return self.correct / self.rolls if self.rolls else 0.0


@dataclass
class Profile:
    """One calibration of one camera at one resolution, under a player-chosen name."""

    name: str
    camera: str
    resolution: tuple[int, int]
    created: str = field(default_factory=now_iso)
    updated: str = field(default_factory=now_iso)
    tray: TrayArea | None = None
    empty_tray: EmptyTray | None = None
    die_size_px: float | None = None
    colour: ColourCalibration | None = None
    picture: PictureCalibration | None = None
    verify: dict[str, VerifyResult] = field(default_factory=dict)

    @property
    def key(self) -> str:
        """The camera/resolution key this profile is filed under."""
        return camera_key(self.camera, self.resolution)

    def calibrated_kinds(self) -> list[str]:
        """The die kinds this profile can read (those with at least two learned faces)."""
        kinds = []
        if self.colour is not None and len(self.colour.faces) >= 2:
            kinds.append("colour")
        if self.picture is not None and len(self.picture.faces) >= 2:
            kinds.append("picture")
        return kinds

    def to_json(self) -> dict[str, Any]:
        """The file content (a plain dict; ``schema`` first)."""
        return {
            "schema": SCHEMA_VERSION,
            "name": self.name,
            "camera": self.camera,
            "resolution": list(self.resolution),
            "created": self.created,
            "updated": self.updated,
            "tray": None
            if self.tray is None
            else {"corners": [list(c) for c in self.tray.corners], "source": self.tray.source},
            "empty_tray": None
            if self.empty_tray is None
            else {
                "image": self.empty_tray.image,
                "median_bgr": list(self.empty_tray.median_bgr),
                "taken": self.empty_tray.taken,
            },
            "die_size_px": self.die_size_px,
            "colour": None
            if self.colour is None
            else {"faces": self.colour.faces, "texture": self.colour.texture, "updated": self.colour.updated},
            "picture": None
            if self.picture is None
            else {"faces": self.picture.faces, "colours": self.picture.colours, "updated": self.picture.updated},
            "verify": {
                kind: {
                    "rolls": v.rolls,
                    "correct": v.correct,
                    "confusions": [list(c) for c in v.confusions],
                    "when": v.when,
                }
                for kind, v in self.verify.items()
            },
        }

    @classmethod
    def from_json(cls, data: Any, source: str = "<profile>") -> Profile:
        """Build a profile from parsed JSON, refusing unknown keys, wrong types and other schema versions."""
        obj = _Obj(data, source, "")
        schema = obj.take("schema", int, required=False)
        if schema is None:
            raise ProfileError(f"{source}: no 'schema' version; this file was not written by Table Companion")
        if schema < SCHEMA_VERSION:
            raise ProfileError(
                f"{source}: schema version {schema} is older than this app's {SCHEMA_VERSION}; please calibrate again"
            )
        if schema > SCHEMA_VERSION:
            raise ProfileError(
                f"{source}: schema version {schema} is newer than this app's {SCHEMA_VERSION}; update the app"
            )
        resolution = obj.take("resolution", list)
        if len(resolution) != 2 or not all(_is_int(v) and v > 0 for v in resolution):
            raise ProfileError(f"{source}: 'resolution' must be [width, height] in pixels, got {resolution!r}")
        profile = cls(
            name=obj.take("name", str),
            camera=obj.take("camera", str),
            resolution=(int(resolution[0]), int(resolution[1])),
            created=obj.take("created", str, required=False) or "",
            updated=obj.take("updated", str, required=False) or "",
        )
        if not profile.name.strip():
            raise ProfileError(f"{source}: 'name' is empty")
        tray = obj.take_obj("tray")
        if tray is not None:
            corners = tray.take("corners", list)
            if len(corners) != 4:
                raise ProfileError(f"{source}: 'tray.corners' needs 4 points, got {len(corners)}")
            points = [_point(c, source, f"tray.corners[{i}]") for i, c in enumerate(corners)]
            source_kind = tray.take("source", str, required=False) or "aruco"
            if source_kind not in ("aruco", "taps"):
                raise ProfileError(f'{source}: \'tray.source\' must be "aruco" or "taps", got {source_kind!r}')
            tray.done()
            profile.tray = TrayArea(points, source_kind)
        empty = obj.take_obj("empty_tray")
        if empty is not None:
            image = empty.take("image", str)
            if Path(image).name != image:
                raise ProfileError(f"{source}: 'empty_tray.image' must be a file name beside the profile: {image!r}")
            bgr = _floats(empty.take("median_bgr", list), 3, source, "empty_tray.median_bgr")
            taken = empty.take("taken", str, required=False) or ""
            profile.empty_tray = EmptyTray(image, (bgr[0], bgr[1], bgr[2]), taken)
            empty.done()
        size = obj.take("die_size_px", (int, float), required=False)
        if size is not None and size <= 0:
            raise ProfileError(f"{source}: 'die_size_px' must be positive, got {size!r}")
        profile.die_size_px = None if size is None else float(size)
        colour = obj.take_obj("colour")
        if colour is not None:
            faces_obj = colour.take_obj("faces")
            faces: dict[str, list[list[float]]] = {}
            if faces_obj is not None:
                for name in list(faces_obj.data):
                    samples = faces_obj.take(name, list)
                    faces[name] = [_floats(s, 3, source, f"colour.faces.{name}[{i}]") for i, s in enumerate(samples)]
                faces_obj.done()
            texture = colour.take("texture", (int, float), required=False) or 0.0
            profile.colour = ColourCalibration(faces, float(texture), colour.take("updated", str, required=False) or "")
            colour.done()
        picture = obj.take_obj("picture")
        if picture is not None:
            faces_obj = picture.take_obj("faces")
            templates: dict[str, list[str]] = {}
            if faces_obj is not None:
                for name in list(faces_obj.data):
                    items = faces_obj.take(name, list)
                    for i, item in enumerate(items):
                        if not isinstance(item, str):
                            raise ProfileError(f"{source}: 'picture.faces.{name}[{i}]' must be a string (base64 PNG)")
                    templates[name] = list(items)
                faces_obj.done()
            colours = [
                _floats(c, 3, source, f"picture.colours[{i}]")
                for i, c in enumerate(picture.take("colours", list, required=False) or [])
            ]
            profile.picture = PictureCalibration(templates, picture.take("updated", str, required=False) or "", colours)
            picture.done()
        verify = obj.take_obj("verify")
        if verify is not None:
            for kind in list(verify.data):
                if kind not in KINDS:
                    raise ProfileError(f"{source}: unknown key 'verify.{kind}' (expected one of {', '.join(KINDS)})")
                v = verify.take_obj(kind)
                if v is None:
                    continue
                confusions = []
                for i, c in enumerate(v.take("confusions", list, required=False) or []):
                    if not (
                        isinstance(c, list)
                        and len(c) == 3
                        and isinstance(c[0], str)
                        and isinstance(c[1], str)
                        and _is_int(c[2])
                    ):
                        raise ProfileError(f"{source}: 'verify.{kind}.confusions[{i}]' must be [true, read, count]")
                    confusions.append((c[0], c[1], int(c[2])))
                profile.verify[kind] = VerifyResult(
                    v.take("rolls", int), v.take("correct", int), confusions, v.take("when", str, required=False) or ""
                )
                v.done()
            verify.done()
        obj.done()
        return profile


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _floats(value: Any, n: int, source: str, key: str) -> list[float]:
    if (
        not isinstance(value, list)
        or len(value) != n
        or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
    ):
        raise ProfileError(f"{source}: '{key}' must be a list of {n} numbers, got {value!r}")
    return [float(v) for v in value]


def _point(value: Any, source: str, key: str) -> tuple[float, float]:
    x, y = _floats(value, 2, source, key)
    return (x, y)


_TYPE_NAMES = {str: "a string", int: "an integer", list: "a list", dict: "an object"}


class _Obj:
    """A JSON object being consumed key by key; leftover keys are reported as unknown."""

    def __init__(self, data: Any, source: str, prefix: str) -> None:
        if not isinstance(data, dict):
            where = f"'{prefix.rstrip('.')}'" if prefix else "the top level"
            raise ProfileError(f"{source}: {where} must be a JSON object, got {type(data).__name__}")
        self.data: dict[str, Any] = dict(data)
        self.source = source
        self.prefix = prefix

    def take(self, key: str, kind: type | tuple[type, ...], required: bool = True) -> Any:
        """Remove and return a key's value, checking its type (None when optional and absent)."""
        if key not in self.data or self.data[key] is None:
            self.data.pop(key, None)
            if required:
                raise ProfileError(f"{self.source}: missing key '{self.prefix}{key}'")
            return None
        value = self.data.pop(key)
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if isinstance(value, bool) or not isinstance(value, kinds):
            expected = "a number" if float in kinds else " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
            raise ProfileError(f"{self.source}: '{self.prefix}{key}' must be {expected}, got {value!r}")
        return value

    def take_obj(self, key: str) -> _Obj | None:
        """Remove a nested object (None when absent or null)."""
        value = self.data.pop(key, None)
        return None if value is None else _Obj(value, self.source, f"{self.prefix}{key}.")

    def done(self) -> None:
        """Every key was consumed: anything left is an unknown key."""
        if self.data:
            key = sorted(self.data)[0]
            raise ProfileError(f"{self.source}: unknown key '{self.prefix}{key}'")
