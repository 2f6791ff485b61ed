"""Calibration: versioned per-camera profiles (tray area, empty-tray reference, colour and picture dice) and the
tools that capture and fit them (wizard steps, verify, the ``companion calibrate`` command)."""

from calibration.profile import SCHEMA_VERSION, Profile, ProfileError
from calibration.store import ActiveProfile, ProfileStore

__all__ = ["SCHEMA_VERSION", "ActiveProfile", "Profile", "ProfileError", "ProfileStore"]
