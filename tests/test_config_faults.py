"""A hostile or broken config file never stops or freezes the app (issue #22, item 8): the file's size, the
number of problems shown and the length of any value are capped; each problem still names file, key and reason."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config


def test_a_table_nested_5000_deep_is_one_problem_and_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    loaded = config.load(path)
    assert loaded.values == config.defaults()
    assert len(loaded.problems) == 1 and "nested" in loaded.problems[0] and str(path) in loaded.problems[0]


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    with open(path, "w") as out:
        out.write("[display]\n")
        for n in range(300_000):  # about 30 MB of unknown keys
            out.write(f"unknown_key_number_{n:07d} = {n}\n")
    assert path.stat().st_size > 8 * 1024 * 1024
    loaded = config.load(path)
    assert loaded.values == config.defaults()
    assert len(loaded.problems) == 1 and "MB" in loaded.problems[0] and "at most" in loaded.problems[0]


def test_many_problems_are_shown_as_the_first_few_and_a_count(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("[display]\nwidth = 1024\n" + "".join(f"k{n} = {n}\n" for n in range(2000)))
    loaded = config.load(path)
    assert loaded.get("display", "width") == 1024  # the good key still counts
    assert len(loaded.problems) == config.MAX_PROBLEMS + 1
    assert loaded.problems[-1].endswith(f"and {2000 - config.MAX_PROBLEMS} more problems in the same file")


@pytest.mark.parametrize(
    "text",
    [
        '[players]\nnames = ["' + "N" * 30_000 + '", "Bo", "Cai", "Dee", "Eli"]\n',
        '[camera]\nsource = "' + "webcam:" + "9" * 30_000 + '"\n',
        '[display]\nwidth = "' + "w" * 30_000 + '"\n',
        "[" + "s" * 30_000 + "]\n",
        "[display]\n" + "k" * 30_000 + " = 1\n",
    ],
)
def test_a_30000_character_value_is_refused_and_shown_short(tmp_path: Path, text: str) -> None:
    path = tmp_path / "c.toml"
    path.write_text(text)
    loaded = config.load(path)
    assert loaded.values == config.defaults()
    assert loaded.problems and all(len(p) < len(str(path)) + 400 for p in loaded.problems)


@pytest.mark.ui  # draws the app's first screen offscreen (a subprocess)
def test_the_app_starts_with_a_config_nested_5000_deep(tmp_path: Path) -> None:
    path = tmp_path / "c.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    out = tmp_path / "shot.png"
    env = dict(os.environ, COMPANION_HOME=str(tmp_path), KIVY_HOME=str(tmp_path / "kivy"))
    env.pop("DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-m", "companion", "--sim", "--config", str(path), "--screenshot", str(out)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0 and out.exists(), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr and "nested" in proc.stderr


@pytest.mark.ui
def test_the_notices_dialog_of_a_hostile_config_stays_small(tmp_path: Path) -> None:
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView
    from ui_support import UI

    text = '[players]\nnames = ["' + "N" * 30_000 + '", "Bo", "Cai", "Dee", "Eli"]\n[display]\n'
    text += "".join(f"unknown_{n} = {n}\n" for n in range(1000))  # under the 64 KB cap
    harness = UI(tmp_path, config_text=text)
    try:
        app = harness.app
        assert "more" in app.banner and len(app.banner) <= 400
        banner = next(w for w in app.root.children if getattr(w, "text", None) == app.banner)
        harness.tap(banner)
        modal = next(w for w in harness.window.children if isinstance(w, ModalView))
        label = next(w for w in modal.walk() if isinstance(w, Label) and "players.names" in w.text)
        assert len(label.text) < 20_000 and "more problems in the same file" in label.text
        assert label.texture_size[1] < 16384  # one texture the GPU can hold
        harness.screenshot("notices-hostile-config")
    finally:
        harness.close()
