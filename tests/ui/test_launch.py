"""Kivy's input set-up: one reader per touchscreen (no double taps on the Pi)."""

from __future__ import annotations

import pytest

from companion.ui.launch import prepare_environment


def test_only_the_mouse_provider_reads_touches(monkeypatch: pytest.MonkeyPatch) -> None:
    from kivy.config import Config

    monkeypatch.delenv("COMPANION_TOUCH", raising=False)
    Config.set("input", "%(name)s", "probesysfs")  # Kivy's default: the probe reads /dev/input too
    prepare_environment(headless=True)
    assert Config.options("input") == ["mouse"]
    monkeypatch.setenv("COMPANION_TOUCH", "probesysfs")
    Config.set("input", "%(name)s", "probesysfs")
    prepare_environment(headless=True)
    assert "%(name)s" in Config.options("input")
    Config.remove_option("input", "%(name)s")


def test_a_second_app_on_the_same_journal_is_refused(tmp_path: object) -> None:
    from pathlib import Path

    from companion.ui.launch import single_instance

    journal = Path(str(tmp_path)) / "data" / "journal.sqlite3"
    first = single_instance(journal)
    assert first is not None
    assert single_instance(journal) is None  # another app holds it
    first.close()
    again = single_instance(journal)
    assert again is not None
    again.close()
