"""The verdict sounds: WAVs made at runtime, and silence (never a crash) without an audio device."""

from __future__ import annotations

import wave
from pathlib import Path
from typing import Any

from companion.ui.screens.ratuki import TONES
from companion.ui.sounds import RATE, Chime, tone_wav


def test_tone_wav_writes_the_notes_as_16_bit_mono(tmp_path: Path) -> None:
    path = tone_wav(tmp_path / "t.wav", TONES["tie"])
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, RATE)
        assert wav.getnframes() == sum(int(RATE * seconds) for _, seconds in TONES["tie"])
        frames = wav.readframes(wav.getnframes())
    assert max(frames) > 0 and frames[:2] == b"\x00\x00"  # faded in from silence


class FakeSound:
    def __init__(self) -> None:
        self.played = 0

    def stop(self) -> None:
        pass

    def play(self) -> None:
        self.played += 1


def test_chime_plays_loaded_sounds_and_stays_silent_without_audio(tmp_path: Path, monkeypatch: Any) -> None:
    from kivy.core.audio import SoundLoader

    sound = FakeSound()
    monkeypatch.setattr(SoundLoader, "load", staticmethod(lambda _path: sound))
    chime = Chime(TONES, folder=tmp_path)
    chime.load()
    assert chime.play("take") and sound.played == 1
    assert (tmp_path / "take.wav").exists() and (tmp_path / "tie.wav").exists()
    assert not chime.play("unknown")
    chime.enabled = False
    assert not chime.play("take") and sound.played == 1

    monkeypatch.setattr(SoundLoader, "load", staticmethod(lambda _path: None))  # no audio provider
    silent = Chime(TONES, folder=tmp_path)
    assert not silent.play("tie")

    def broken(_path: str) -> Any:
        raise OSError("no audio device")

    monkeypatch.setattr(SoundLoader, "load", staticmethod(broken))
    assert not Chime(TONES, folder=tmp_path).play("take")


def test_sounds_are_made_in_the_users_cache_folder_and_nothing_is_left_in_the_temp_folder(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """The tones go to ``<cache>/sounds`` (mode 0700), written again at each start: a run that is killed leaves
    nothing in the shared temp folder (a folder per run was left there before)."""
    import os
    import stat
    import tempfile

    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    for _run in range(2):
        chime = Chime(TONES)
        chime.load()
        folder = chime.folder
        assert folder == tmp_path / "home" / "cache" / "sounds"
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700 and folder.stat().st_uid == os.getuid()
        assert sorted(p.name for p in folder.iterdir()) == sorted(f"{name}.wav" for name in TONES)  # no .part left
        chime.close()
        assert folder.is_dir()  # kept for the next start, which writes the same files
    assert not list(shared.iterdir())


def test_sounds_fall_back_to_a_private_temp_folder_never_through_a_planted_link(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """Where the cache folder cannot be made, the tones go to a folder made private for this run; another user's
    link at the old shared path (<tmp>/companion-sounds/take.wav) is never written through (#22 item 11)."""
    import os
    import stat
    import tempfile

    home = tmp_path / "home"
    home.mkdir()
    (home / "cache").write_text("a file where the cache folder should be")
    monkeypatch.setenv("COMPANION_HOME", str(home))
    shared = tmp_path / "shared-tmp"
    planted = shared / "companion-sounds"
    planted.mkdir(parents=True)
    victim = tmp_path / "victim.txt"
    victim.write_text("someone else's file")
    for name in TONES:
        (planted / f"{name}.wav").symlink_to(victim)
    monkeypatch.setattr(tempfile, "tempdir", str(shared))
    chime = Chime(TONES)
    chime.load()
    assert victim.read_text() == "someone else's file"
    folder = chime.folder
    assert folder.parent == shared and folder != planted
    mode = folder.stat()
    assert stat.S_IMODE(mode.st_mode) == 0o700 and mode.st_uid == os.getuid()
    assert all((folder / f"{name}.wav").is_file() for name in TONES)
    chime.close()
    assert not folder.exists()  # nothing left behind in the shared temp folder
