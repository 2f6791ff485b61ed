"""The build backend: setuptools, with the translation catalogues (.po) compiled to .mo first.

``pip install .`` and ``pip install -e .`` both come through here (pyproject.toml ``[build-system]``), so a fresh
clone gets working translations with no extra step. Kept apart from ``tools/i18n.py`` (which extracts strings)
so a build needs nothing but setuptools and Babel.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook setuptools offers, some wrapped below)

LOCALE_DIR = Path(__file__).resolve().parent.parent.parent / "companion" / "locale"


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Write each ``<lang>/LC_MESSAGES/*.po`` as its ``.mo`` (fuzzy entries left out); unchanged files stay."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(locale_dir.glob("*/LC_MESSAGES/*.po")):
        with open(po, "rb") as handle:
            catalog = read_po(handle)
        buffer = io.BytesIO()
        write_mo(buffer, catalog, use_fuzzy=False)
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != buffer.getvalue():
            mo.write_bytes(buffer.getvalue())
        written.append(mo)
    return written


def build_wheel(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    compile_catalogues()
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(wheel_directory: str, config_settings: Any = None, metadata_directory: Any = None) -> str:
    compile_catalogues()
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))


def build_sdist(sdist_directory: str, config_settings: Any = None) -> str:
    compile_catalogues()
    return str(_setuptools.build_sdist(sdist_directory, config_settings))
