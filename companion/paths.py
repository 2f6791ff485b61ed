"""Where files live: XDG config and data dirs, overridable for tests with ``COMPANION_HOME``."""

from __future__ import annotations

import os
from pathlib import Path


def _xdg(var: str, fallback: str) -> Path:
    value = os.environ.get(var, "")
    return Path(value) if value and Path(value).is_absolute() else Path.home() / fallback


def config_dir() -> Path:
    """``$COMPANION_HOME/config`` or ``$XDG_CONFIG_HOME/table-companion``."""
    home = os.environ.get("COMPANION_HOME")
    return Path(home) / "config" if home else _xdg("XDG_CONFIG_HOME", ".config") / "table-companion"


def data_dir() -> Path:
    """``$COMPANION_HOME/data`` or ``$XDG_DATA_HOME/table-companion``: the journal and calibration profiles."""
    home = os.environ.get("COMPANION_HOME")
    return Path(home) / "data" if home else _xdg("XDG_DATA_HOME", ".local/share") / "table-companion"


def cache_dir() -> Path:
    """``$COMPANION_HOME/cache`` or ``$XDG_CACHE_HOME/table-companion``: files the app can make again (the
    verdict sounds)."""
    home = os.environ.get("COMPANION_HOME")
    return Path(home) / "cache" if home else _xdg("XDG_CACHE_HOME", ".cache") / "table-companion"


def config_file() -> Path:
    return config_dir() / "config.toml"


def journal_file() -> Path:
    return data_dir() / "journal.sqlite3"


def calibration_dir() -> Path:
    """``<data dir>/calibration``: the calibration profiles (``calibration.ProfileStore`` is given this folder)."""
    return data_dir() / "calibration"
