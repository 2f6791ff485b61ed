"""Where profiles live: several named profiles per camera and resolution, one of them active.

Layout under ``base_dir`` (the app passes ``<data dir>/calibration``, see ``companion.paths.calibration_dir``)::

    profiles/<camera>@<W>x<H>/<name>.json        the profile (see calibration.profile)
    profiles/<camera>@<W>x<H>/<name>.empty.png   its empty-tray reference frame
    active.json                                  {"schema": 1, "active": {"<camera>@<W>x<H>": "<name>"}}

The folder is always passed in (this package knows nothing of the app's paths), so tests work in temporary
folders. Writes are atomic (temp file + rename), so a
pulled plug never leaves half a profile. :meth:`ProfileStore.active` never raises: a broken or stale profile gives
a message and no profile, and the app carries on uncalibrated.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration.profile import SCHEMA_VERSION, Profile, ProfileError, camera_key, now_iso

MAX_PROFILE_NAME = 40  # characters of a profile name (its file name, up to 4 bytes a letter, stays far under 255)
MAX_CAMERA_ID = 100  # characters of a camera id in a folder name


def check_name(name: str) -> str:
    """``name`` when it can be a profile name; :class:`ProfileError` with a sentence otherwise (a name of
    thousands of letters made ``OSError: File name too long``)."""
    if len(name.strip()) > MAX_PROFILE_NAME:
        raise ProfileError(
            f"a profile name is at most {MAX_PROFILE_NAME} characters, not {len(name.strip())} ('{name.strip()[:20]}…')"
        )
    return name


def slug(text: str) -> str:
    """A file-name-safe form of a profile name or camera id ("Kitchen table" -> "kitchen-table", "Saló" -> "saló").

    Letters and digits of any script are kept; a name with none ("???", "") gets ``profile-`` and a short hash of
    the name, so different names never share a file (see :meth:`ProfileStore.path` for names that still collide).
    """
    lowered = text.strip().lower()
    cleaned = "-".join(re.findall(r"[^\W_]+", lowered))
    return cleaned or f"profile-{name_hash(text)}"


def legacy_slug(text: str) -> str:
    """The file stem older versions used (ASCII letters and digits only, "profile" when none): still loaded."""
    cleaned = re.sub(r"[^a-z0-9]+", "-", text.strip().lower()).strip("-")
    return cleaned or "profile"


def name_hash(text: str) -> str:
    """Six hex digits identifying a profile name (case and surrounding spaces ignored)."""
    return hashlib.sha1(same_name_key(text).encode("utf-8")).hexdigest()[:6]


def same_name_key(text: str) -> str:
    """The form two profile names are compared in: "Club" and " club " are one profile."""
    return " ".join(text.split()).casefold()


def _png_problem(path: Path) -> str | None:
    """Why an empty-tray PNG cannot be used (missing, unreadable, not a PNG, cut short), or None."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return f"{path}: the empty-tray picture is missing; capture the empty tray again"
    except OSError as exc:
        return f"{path}: cannot read the empty-tray picture ({exc.strerror}); capture the empty tray again"
    if not data.startswith(b"\x89PNG\r\n\x1a\n") or not data.rstrip(b"\0").endswith(b"IEND\xaeB`\x82"):
        return f"{path}: the empty-tray picture is damaged (not a whole PNG); capture the empty tray again"
    return None


@dataclass(frozen=True)
class Entry:
    """One profile file as listed: its name, camera, resolution, whether it is active, and any problem with it."""

    name: str
    camera: str
    resolution: tuple[int, int]
    path: Path
    active: bool
    problem: str | None = None


class ProfileExists(ProfileError):
    """Saving would replace another saved profile of that name (ask the player first, then save with
    ``replace=True``)."""


@dataclass(frozen=True)
class ActiveProfile:
    """The profile to use for a camera (or None) and a one-line message saying why, for screens and logs.
    ``broken``: a profile was chosen but cannot be used (the players should be told); not being calibrated at
    all is not broken."""

    profile: Profile | None
    message: str
    path: Path | None = None
    broken: bool = False


class ProfileStore:
    """Reads and writes the profiles under one base folder (given by the caller)."""

    def __init__(self, base_dir: Path | str) -> None:
        self.base_dir = Path(base_dir)

    # -- paths -------------------------------------------------------------------------------------------------
    def folder(self, camera: str, resolution: tuple[int, int]) -> Path:
        """The folder holding every profile of one camera at one resolution."""
        if len(legacy_slug(camera)) > MAX_CAMERA_ID:
            raise ProfileError(f"a camera id is at most {MAX_CAMERA_ID} characters ('{camera[:20]}…')")
        return self.base_dir / "profiles" / f"{legacy_slug(camera)}@{int(resolution[0])}x{int(resolution[1])}"

    def path(self, name: str, camera: str, resolution: tuple[int, int]) -> Path:
        """The JSON file of the named profile: the existing file holding that name (also one written by an older
        version), else a free file name (``<slug>.json``, or ``<slug>-<hash>.json`` when another name took it).
        A name over :data:`MAX_PROFILE_NAME` characters is a :class:`ProfileError`."""
        check_name(name)
        folder = self.folder(camera, resolution)
        first = folder / f"{slug(name)}.json"
        hashed = folder / f"{slug(name)}-{name_hash(name)}.json"
        legacy = folder / f"{legacy_slug(name)}.json"
        for candidate in (first, hashed, legacy):
            if _stored_name(candidate) == same_name_key(name):
                return candidate
        if not first.exists() or _stored_name(first) is None:
            return first
        return hashed

    def asset_path(self, profile: Profile, filename: str) -> Path:
        """A file stored beside a profile (its empty-tray image)."""
        return self.folder(profile.camera, profile.resolution) / filename

    def asset_name(self, profile: Profile, suffix: str) -> str:
        """The file name for a profile's asset, e.g. ``kitchen-table.empty.png`` (same stem as its JSON file)."""
        return f"{self.path(profile.name, profile.camera, profile.resolution).stem}.{suffix}"

    # -- reading -----------------------------------------------------------------------------------------------
    def load_file(self, path: Path) -> Profile:
        """Load one profile file, raising :class:`ProfileError` with the file and the problem."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise ProfileError(f"{path}: no such profile file") from None
        except OSError as exc:
            raise ProfileError(f"{path}: cannot read ({exc.strerror})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ProfileError(f"{path}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
        return Profile.from_json(data, str(path))

    def load(self, name: str, camera: str, resolution: tuple[int, int]) -> Profile:
        """Load a named profile of a camera; :class:`ProfileError` if it is missing or unusable."""
        return self.load_file(self.path(name, camera, resolution))

    def exists(self, name: str, camera: str, resolution: tuple[int, int]) -> bool:
        """Whether a profile of that name is saved for the camera (broken or not): ask before replacing it."""
        return self.path(name, camera, resolution).is_file()

    def entries(self) -> list[Entry]:
        """Every profile file under the base folder, broken ones included (with their problem); never raises for
        a broken ``active.json``: it is listed as an entry of its own (name "active.json", with its problem)."""
        found: list[Entry] = []
        try:
            active = self._active_map()
        except ProfileError as exc:
            active = {}
            path = self.base_dir / "active.json"
            found.append(Entry(path.name, "", (0, 0), path, False, f"{exc}; no profile is active"))
        root = self.base_dir / "profiles"
        if not root.is_dir():
            return found
        for path in sorted(root.glob("*/*.json")):
            group = path.parent.name
            camera, _, res = group.rpartition("@")
            try:
                width, height = (int(v) for v in res.split("x"))
            except ValueError:
                width, height = 0, 0
            try:
                profile = self.load_file(path)
            except ProfileError as exc:
                found.append(Entry(path.stem, camera, (width, height), path, False, str(exc)))
                continue
            is_active = same_name_key(active.get(profile.key, "") or "\0") == same_name_key(profile.name)
            problem = None
            if profile.empty_tray is not None:
                problem = _png_problem(path.parent / profile.empty_tray.image)
            found.append(Entry(profile.name, profile.camera, profile.resolution, path, is_active, problem))
        return found

    def active(self, camera: str, resolution: tuple[int, int]) -> ActiveProfile:
        """The active profile for a camera, or None with the reason; never raises."""
        key = camera_key(camera, resolution)
        try:
            name = self._active_map().get(key)
        except ProfileError as exc:
            return ActiveProfile(None, f"{exc}; using no calibration", broken=True)
        if name is None:
            return ActiveProfile(None, f"not calibrated for {key}")
        path = self.path(name, camera, resolution)
        try:
            profile = self.load_file(path)
        except ProfileError as exc:
            return ActiveProfile(None, f"{exc}; using no calibration", path, broken=True)
        if profile.key != key:
            why = f"{path}: made for {profile.key}, not {key}; using no calibration"
            return ActiveProfile(None, why, path, broken=True)
        return ActiveProfile(profile, f"calibration profile '{profile.name}' for {key}", path)

    def readable_kinds(self, camera: str, resolution: tuple[int, int]) -> list[str]:
        """The die kinds the active profile of a camera at a resolution lets the reader read
        (``Profile.calibrated_kinds``); none where it has no usable profile: none active, a broken one, or one whose
        empty-tray picture is missing or of another size (the reader refuses those). Reads only the profile and the
        picture's PNG header, so a screen can ask without loading the reader (OpenCV and numpy, ~70 MB; a damaged
        picture with a sound header is found when the reader loads it, and said there). Never raises."""
        try:
            profile = self.active(camera, resolution).profile
            if profile is None:
                return []
            if profile.empty_tray is not None:
                size = png_size(self.folder(camera, resolution) / profile.empty_tray.image)
                if size != (int(profile.resolution[0]), int(profile.resolution[1])):
                    return []
        except (ProfileError, OSError, ValueError):
            return []
        return profile.calibrated_kinds()

    # -- writing -----------------------------------------------------------------------------------------------
    def save(self, profile: Profile, make_active: bool = True, replace: bool = True) -> Path:
        """Write a profile (atomically) and, by default, make it the active one for its camera. With
        ``replace=False`` an existing profile of that name is not overwritten: :class:`ProfileExists` is raised."""
        path = self.path(profile.name, profile.camera, profile.resolution)
        if not replace and path.is_file():
            raise ProfileExists(f"a profile called '{profile.name}' is already saved for {profile.key}: replace it?")
        profile.updated = now_iso()
        atomic_write(path, (json.dumps(profile.to_json(), indent=1) + "\n").encode("utf-8"))
        if make_active:
            self.use(profile.name, profile.camera, profile.resolution)
        return path

    def write_asset(self, profile: Profile, filename: str, data: bytes) -> Path:
        """Store a file (e.g. the empty-tray PNG) beside a profile."""
        path = self.asset_path(profile, filename)
        atomic_write(path, data)
        return path

    def use(self, name: str, camera: str, resolution: tuple[int, int]) -> Profile:
        """Make a named profile the active one for its camera; refuses a missing or broken profile."""
        profile = self.load(name, camera, resolution)
        try:
            active = self._active_map()
        except ProfileError:
            active = {}  # a broken active.json is replaced, it only holds choices
        active[profile.key] = profile.name
        payload = {"schema": SCHEMA_VERSION, "active": dict(sorted(active.items()))}
        atomic_write(self.base_dir / "active.json", (json.dumps(payload, indent=1) + "\n").encode("utf-8"))
        return profile

    def delete(self, name: str, camera: str, resolution: tuple[int, int]) -> None:
        """Remove a profile and its assets; it stops being active."""
        path = self.path(name, camera, resolution)
        for item in path.parent.glob(f"{glob_escape(path.stem)}.*"):
            item.unlink()
        try:
            active = self._active_map()
        except ProfileError:
            return
        key = camera_key(camera, resolution)
        if same_name_key(active.get(key, "") or "\0") == same_name_key(name):
            del active[key]
            payload = {"schema": SCHEMA_VERSION, "active": active}
            atomic_write(self.base_dir / "active.json", (json.dumps(payload, indent=1) + "\n").encode("utf-8"))

    def _active_map(self) -> dict[str, str]:
        path = self.base_dir / "active.json"
        if not path.is_file():
            return {}
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise ProfileError(f"{path}: unreadable ({exc})") from None
        if not isinstance(data, dict) or set(data) - {"schema", "active"}:
            extra = sorted(set(data) - {"schema", "active"}) if isinstance(data, dict) else []
            raise ProfileError(f"{path}: unknown key '{extra[0]}'" if extra else f"{path}: must be a JSON object")
        if data.get("schema") != SCHEMA_VERSION:
            raise ProfileError(f"{path}: schema version {data.get('schema')!r}, expected {SCHEMA_VERSION}")
        active = data.get("active", {})
        if not isinstance(active, dict) or not all(isinstance(v, str) for v in active.values()):
            raise ProfileError(f"{path}: 'active' must map camera keys to profile names")
        return dict(active)


def glob_escape(text: str) -> str:
    """A file stem made safe for :meth:`Path.glob` (slugs have no wildcards, old files might)."""
    return re.sub(r"([*?\[])", r"[\1]", text)


def _stored_name(path: Path) -> str | None:
    """The profile name written in a JSON file (compared as :func:`same_name_key`), or None when the file is
    missing or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    name = data.get("name") if isinstance(data, dict) else None
    return same_name_key(name) if isinstance(name, str) else None


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path: Path) -> tuple[int, int] | None:
    """A PNG's width and height from its header, or None (no such file, or not a PNG)."""
    try:
        with path.open("rb") as fh:
            head = fh.read(24)
    except OSError:
        return None
    if len(head) < 24 or head[:8] != PNG_SIGNATURE or head[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", head[16:24])
    return int(width), int(height)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (a hidden temporary file beside it, synced, then renamed
    over it; its folder made first). Raises ``OSError`` (a full or read-only card) and leaves no temporary file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
