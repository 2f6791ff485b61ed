"""Short signal sounds made at runtime (no audio files shipped), played through Kivy when audio works.

``tone_wav`` writes a 16-bit mono WAV from (frequency, seconds) notes with the standard library; ``Chime``
loads it lazily with Kivy's ``SoundLoader`` and stays silent, never failing, when there is no audio device.
"""

from __future__ import annotations

import atexit
import logging
import math
import os
import shutil
import struct
import tempfile
import wave
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from companion.paths import cache_dir

log = logging.getLogger(__name__)

RATE = 22050


def tone_wav(path: Path, notes: Sequence[tuple[float, float]], *, volume: float = 0.6) -> Path:
    """Write ``notes`` (frequency Hz, duration s; frequency 0 = silence) as a WAV with 5 ms fades."""
    frames = bytearray()
    fade = int(RATE * 0.005)
    for freq, seconds in notes:
        count = int(RATE * seconds)
        for i in range(count):
            ramp = min(1.0, i / fade, (count - 1 - i) / fade) if fade else 1.0
            value = math.sin(2 * math.pi * freq * i / RATE) * volume * ramp if freq else 0.0
            frames += struct.pack("<h", int(value * 32767))
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.part")
    try:
        with wave.open(str(part), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(bytes(frames))
        part.replace(path)  # a sound another start of the app is loading is never seen half written
    finally:
        part.unlink(missing_ok=True)
    return path


class Chime:
    """A named set of tones; ``play(name)`` returns True when a sound was started."""

    def __init__(self, tones: Mapping[str, Sequence[tuple[float, float]]], *, folder: Path | None = None) -> None:
        self.tones = dict(tones)
        self._folder = folder
        self._made: Path | None = None  # the private folder made for this run (removed by close, or at exit)
        self._sounds: dict[str, Any] = {}
        self.enabled = True

    @property
    def folder(self) -> Path:
        """Where the tones are written: the folder given, else ``sounds`` in the user's own cache folder
        (``paths.cache_dir``, mode 0700; the same files are written again at each start, so nothing piles up
        however the app stops), else, where that cannot be written, one made for this run with ``mkdtemp`` (mode
        0700, a new name, removed by ``close`` or at exit): never a fixed path in the shared temp folder, where
        another user's link would make the app overwrite the file it points to. (A folder per run in the temp
        folder was the default until 2026-12-07: each run the app did not end normally left one behind.)"""
        if self._folder is None:
            own = cache_dir() / "sounds"
            try:
                own.mkdir(mode=0o700, parents=True, exist_ok=True)
                if not os.access(own, os.W_OK):
                    raise PermissionError(f"{own} is not writable")
                self._folder = own
            except OSError as err:
                log.info("sounds go to a temporary folder: %s", err)
                self._made = self._folder = Path(tempfile.mkdtemp(prefix="companion-sounds-"))
                atexit.register(shutil.rmtree, self._made, ignore_errors=True)
        return self._folder

    def close(self) -> None:
        """Forget the sounds and remove the temporary folder made for this run, if one was (the cache folder and
        a folder given by the caller are left)."""
        self._sounds.clear()
        if self._made is not None:
            shutil.rmtree(self._made, ignore_errors=True)
            self._made = self._folder = None

    def load(self) -> None:
        """Make and load every tone now (so the first verdict does not wait for disk and decoder)."""
        for name in self.tones:
            self._get(name)

    def _get(self, name: str) -> Any:
        if name in self._sounds:
            return self._sounds[name]
        sound = None
        try:
            from kivy.core.audio import SoundLoader

            path = tone_wav(self.folder / f"{name}.wav", self.tones[name])
            sound = SoundLoader.load(str(path))
        except Exception as err:  # no audio provider, no device, unwritable temp dir: play silently
            log.warning("sound %s unavailable: %s", name, err)
        self._sounds[name] = sound
        return sound

    def play(self, name: str) -> bool:
        if not self.enabled or name not in self.tones:
            return False
        sound = self._get(name)
        if sound is None:
            return False
        try:
            sound.stop()
            sound.play()
        except Exception as err:
            log.warning("sound %s failed: %s", name, err)
            return False
        return True
