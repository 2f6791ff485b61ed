"""Config: defaults, a good file, and every kind of broken file reported with file, key and reason."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import config


def test_missing_file_gives_defaults(tmp_path: Path) -> None:
    loaded = config.load(tmp_path / "none.toml")
    assert loaded.problems == []
    assert loaded.get("buttons", "pins") == [17, 27, 22, 23, 24]


def test_good_values_are_used(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text('[buttons]\npins = [5, 6, 13, 19, 26]\nbounce_ms = 20\n[camera]\nsource = "webcam:1"\n')
    loaded = config.load(path)
    assert loaded.problems == []
    assert loaded["buttons"]["pins"] == [5, 6, 13, 19, 26]
    assert loaded["camera"]["source"] == "webcam:1"


def test_broken_toml_is_reported_and_defaults_used(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[buttons\npins = ")
    loaded = config.load(path)
    assert len(loaded.problems) == 1
    assert str(path) in loaded.problems[0] and "cannot read" in loaded.problems[0]
    assert loaded.values == config.defaults()


def test_each_bad_key_named_with_reason_and_others_kept(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text(
        "[buttons]\npins = [5, 5, 13, 19, 26]\nbounce_ms = 999\ncolour = 1\n"
        '[display]\nwidth = "wide"\nsounds = false\n[nonsense]\nx = 1\n'
        '[players]\ncolours = ["#fff", "#000000", "#111111", "#222222", "#333333"]\n'
    )
    loaded = config.load(path)
    text = "\n".join(loaded.problems)
    assert "buttons.pins" in text and "share a pin" in text
    assert "buttons.bounce_ms" in text and "between 0 and 200" in text
    assert "unknown key buttons.colour" in text
    assert "display.width" in text and "integer" in text
    assert "unknown section [nonsense]" in text
    assert "players.colours" in text
    assert all(p.startswith(str(path)) for p in loaded.problems)
    assert loaded["display"]["sounds"] is False  # the good key in the same section still applies
    assert loaded["buttons"]["pins"] == [17, 27, 22, 23, 24]


def test_reference_lists_every_key() -> None:
    table = config.reference_markdown()
    for section, keys in config.DEFAULTS.items():
        for key in keys:
            assert f"`{section}.{key}`" in table


def test_readme_reference_is_current() -> None:
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index("<!-- config-reference:start -->")
    end = readme.index("<!-- config-reference:end -->")
    assert readme[start:end].strip().endswith(config.reference_markdown())


def test_a_file_named_on_the_command_line_must_exist(tmp_path: Path) -> None:
    assert config.load(tmp_path / "typo.tolm").problems == []  # the default location may well have no file
    (problem,) = config.load(tmp_path / "typo.tolm", required=True).problems
    assert "typo.tolm: no such file" in problem


def test_a_byte_order_mark_is_fine(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_bytes("\ufeff[display]\nfullscreen = true\n".encode())
    loaded = config.load(path)
    assert loaded.problems == [] and loaded["display"]["fullscreen"] is True


def test_a_folder_the_app_may_not_look_into_is_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def denied(self: Path) -> bool:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "exists", denied)
    (problem,) = config.load(tmp_path / "config.toml").problems
    assert "Permission denied" in problem and "using built-in defaults" in problem


def test_names_longer_than_the_screens_fit_are_reported(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('[players]\nnames = ["Ana", "Bo", "Bartholomew-Christophe", "Dee", "Eli"]\n', encoding="utf-8")
    loaded = config.load(path)
    (problem,) = loaded.problems
    assert "at most 14 characters" in problem and "Bartholomew-Christophe" in problem
    assert loaded["players"]["names"] == config.defaults()["players"]["names"]
