"""Calibration data: versioned per-camera profiles (tray area, empty-tray reference, colour and picture dice) and
the store that keeps them in a folder the caller names. Standard library only: it never imports vision, the UI
or the app's wiring. The tools that make profiles (wizard, verify, ``companion calibrate``) live in
``companion.calibrate``; tray finding and the classifiers that use a profile live in ``companion.vision``."""

from calibration.profile import SCHEMA_VERSION, Profile, ProfileError
from calibration.store import ActiveProfile, ProfileStore

__all__ = ["SCHEMA_VERSION", "ActiveProfile", "Profile", "ProfileError", "ProfileStore"]
