"""Save's helpers, plain functions: whether a name would replace another saved profile (names compared as the
player means them), and the keyword that lets the wizard's save replace one."""

from __future__ import annotations

import inspect
from typing import Any

from calibration.store import ProfileStore, slug
from companion.calibrate.wizard import Wizard


def would_replace(wizard: Wizard, store: ProfileStore, name: str) -> bool:
    """Whether saving under ``name`` replaces another saved profile (not the one being edited)."""
    ask = getattr(wizard, "would_replace", None)
    if callable(ask):
        return bool(ask(store, name))
    profile = wizard.profile
    editing = bool(profile.name) and slug(profile.name) == slug(name)
    return not editing and profile_exists(store, name, profile.camera, profile.resolution)


def profile_exists(store: ProfileStore, name: str, camera: str, resolution: tuple[int, int]) -> bool:
    """Whether a saved profile of this camera and size would be replaced by saving under ``name``."""
    exists = getattr(store, "exists", None)
    if callable(exists):
        try:
            return bool(exists(name, camera, resolution))
        except TypeError:
            pass  # another signature: fall back to the list of names
    return any(
        slug(entry.name) == slug(name) and (entry.camera, tuple(entry.resolution)) == (camera, tuple(resolution))
        for entry in store.entries()
    )


def replace_kwargs(wizard: Wizard, replace: bool) -> dict[str, Any]:
    """The keyword the wizard's ``save`` takes to replace a profile of the same name, set to ``replace``."""
    params = inspect.signature(wizard.save).parameters
    return {key: replace for key in ("replace", "overwrite") if key in params}


def name_key(name: str) -> str:
    """Profile names compared as the player means them: "Club" and " club " are one."""
    return " ".join(name.split()).casefold()
