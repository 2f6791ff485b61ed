"""Real cards for fault tests: a small tmpfs mounted on a test's folder, filled up or remounted read-only.

Mounting needs root (the development and CI machines run tests as root); elsewhere the tests that use these
are skipped, never faked.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest


@contextlib.contextmanager
def mounted(folder: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of ``size`` on ``folder`` (created), unmounted afterwards; skips the test where that is impossible."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a small card needs root")
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(folder)], capture_output=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.decode(errors='replace').strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


def read_only(folder: Path, *, on: bool = True) -> None:
    """Remount the card at ``folder`` read-only (or, with ``on=False``, writable again)."""
    subprocess.run(["mount", "-o", f"remount,{'ro' if on else 'rw'}", str(folder)], check=True)


def fill(folder: Path) -> Path:
    """Write a file until the card is full; returns it (delete it to free the space)."""
    filler = folder / "filler.bin"
    with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as out:
        while True:
            out.write(b"\0" * 4096)
    return filler
