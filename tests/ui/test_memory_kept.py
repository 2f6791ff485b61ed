"""What the app keeps in memory (#21 item 16), checked by what is kept, never by timing or by memory figures (those
are measured by ``companion bench --only memory``, README): every text is drawn at a size of the type scale, so the
UI font is opened at a few sizes (each size of Noto Sans CJK Kivy opens stays loaded, about 2.5 MB); the font's
compact copy is made without reading the font into memory; lists made on each visit are not kept after it."""

from __future__ import annotations

from pathlib import Path

import pytest
from ui_support import UI

from companion.journal.replay import load_lines
from companion.ui import fonts

pytestmark = pytest.mark.ui

LOGS = sorted((Path(__file__).resolve().parents[1] / "games" / "logs").glob("*.jsonl"))


def test_sizes_go_on_the_type_scale() -> None:
    assert fonts.on_scale(16) == 16 and fonts.on_scale(17) == 16 and fonts.on_scale(19) == 18
    assert fonts.on_scale(26) == 24 and fonts.on_scale(46) == 46 and fonts.on_scale(12) == 16
    assert fonts.on_scale(60) == 60  # the biggest on the scale and above are drawn as asked
    assert all(fonts.on_scale(s) == s for s in fonts.TYPE_SCALE)


@pytest.mark.slow
def test_every_game_draws_its_text_in_a_few_sizes(ui: UI) -> None:
    """All the example games played through their screens, every tool screen opened: the UI font is opened only at
    sizes of the scale, regular and bold (it was opened at 33 sizes and weights in the same session)."""
    from kivy.core.text import Label as CoreLabel

    label = CoreLabel(text="Ana 한국어", font_size=19)
    label.refresh()
    plain = CoreLabel(text="Ana 한국어", font_size=18)
    plain.refresh()
    assert label.texture.size == plain.texture.size  # asked for 19 px, drawn at 18 px: the same face
    for name in ("games", "history", "buttons", "camera", "settings", "home"):
        ui.go(name)
    for path in LOGS:
        setup, actions = load_lines(path.read_text(encoding="utf-8").splitlines())
        assert ui.app.resume(ui.app.journal.new_game(setup)) is not None
        ui.advance(2)
        screen = ui.screen()
        for number, action in enumerate(actions):
            screen.act(action, quiet=number % 4 != 0)
            if number % 7 == 0:
                ui.advance(1)
        ui.advance(2)
    faces = fonts.faces_opened()
    assert {size for size, _bold in faces} <= set(fonts.TYPE_SCALE), sorted(faces)
    assert len(faces) <= 2 * len(fonts.TYPE_SCALE)


def test_the_compact_font_copy_is_the_font_with_its_line_metrics_changed(tmp_path: Path) -> None:
    """Made by copying the file and writing the few bytes of the line metrics in place (it was made in memory: the
    20 MB font stayed in the app's memory after its first start); byte for byte what an in-memory patch gives."""
    import struct

    chosen = fonts.choose()
    if chosen.regular is None or not chosen.family.startswith(fonts.COMPACT_FAMILIES):
        pytest.skip("no Noto Sans CJK here")
    copy = Path(fonts.compact_copy(chosen.regular, tmp_path))
    assert copy != Path(chosen.regular) and copy.stat().st_size == Path(chosen.regular).stat().st_size
    data = bytearray(Path(chosen.regular).read_bytes())
    faces = [0]
    if data[:4] == b"ttcf":
        count = struct.unpack_from(">I", data, 8)[0]
        faces = list(struct.unpack_from(f">{count}I", data, 12))
    for face in faces:
        tables = {}
        for index in range(struct.unpack_from(">H", data, face + 4)[0]):
            tag, _c, offset, _l = struct.unpack_from(">4sIII", data, face + 12 + 16 * index)
            tables[tag] = offset
        units = struct.unpack_from(">H", data, tables[b"head"] + 18)[0]
        up, down = round(fonts.COMPACT_ASCENT * units), -round(fonts.COMPACT_DESCENT * units)
        struct.pack_into(">hhh", data, tables[b"hhea"] + 4, up, down, 0)
        struct.pack_into(">hhh", data, tables[b"OS/2"] + 68, up, down, 0)
    assert copy.read_bytes() == bytes(data)


def test_lists_made_on_each_visit_are_not_kept_after_it(ui: UI) -> None:
    setup, _actions = load_lines(LOGS[0].read_text(encoding="utf-8").splitlines())
    ui.app.resume(ui.app.journal.new_game(setup))
    ui.advance(2)
    for name in ("games", "history"):
        screen = ui.go(name)
        assert screen.ids.list.children  # shown while it is visited
        ui.go("home")
        assert not screen.ids.list.children  # and dropped (widgets, textures) when it is left


def test_screens_are_made_when_first_asked_for(ui: UI) -> None:
    """On the home screen only home is made (building all 16 screens at start held their widgets and textures);
    every screen is still there to be asked for, and a screen once made is the same one next time."""
    ui.go("home")
    manager = ui.app.manager
    assert manager.screen_names == ["home"]
    assert manager.has_screen("calibrate") and manager.has_screen("history") and not manager.has_screen("nope")
    history = ui.go("history")
    assert history.name == "history" and manager.screen_names == ["home", "history"]
    ui.go("home")
    assert ui.go("history") is history
    ui.tap(ui.find("Stats"))  # a screen reached from another by touch
    assert manager.current == "stats" and "stats" in manager.screen_names


def test_the_fonts_charset_is_kept_as_ranges() -> None:
    """The UI font's code points are kept as ranges (a set of Noto Sans CJK's 65,000 points held 3.4 MB), and read
    as a set: membership, size, iteration, equality."""
    charset = fonts.parse_charset("20-7e a0-17f 7f ac00-d7a3 zz 2192 2190-2193")
    assert isinstance(charset, fonts.Charset) and len(charset._starts) == 4  # touching and overlapping merged
    assert ord("A") in charset and 0x7F in charset and ord("가") in charset and 0x2193 in charset
    assert 0x1F not in charset and 0x80 not in charset and 0x180 not in charset and "A" not in charset
    points = {*range(0x20, 0x80), *range(0xA0, 0x180), *range(0xAC00, 0xD7A4), *range(0x2190, 0x2194)}
    assert len(charset) == len(points) and charset == frozenset(points) and set(charset) == points
    choice = fonts.FontChoice("x.ttf", "x.ttf", "X", fonts.parse_charset("20-7e"))
    assert choice.covers("Ana") and choice.missing("Ana 가") == {"가"}


def test_memory_is_tidied_when_home_is_shown(ui: UI, monkeypatch: pytest.MonkeyPatch) -> None:
    """Home is the quiet moment between games: each time it is shown (not on other screens) Python's garbage is
    collected and the freed heap pages are handed back (``companion.memory.tidy_memory``)."""
    import companion.ui.app as app_module

    calls: list[str] = []
    monkeypatch.setattr(app_module, "tidy_memory", lambda: calls.append(ui.app.manager.current) or True)
    for name in ("games", "history"):
        ui.go(name)
    assert calls == []
    ui.go("home")
    assert calls == ["home"]
    ui.go("history")
    ui.go("home")
    assert calls == ["home", "home"]


@pytest.mark.slow
def test_a_game_played_by_touch_loads_no_part_of_the_dice_reader(tmp_path: Path) -> None:
    """A Rat-a-Tat game played through its screen (its picture-die spaces ask whether the camera can read the
    picture die) loads neither OpenCV nor numpy: the reader's ~70 MB come only with the dice screen. In a fresh
    process, as the app starts (the memory bench's driver)."""
    import json
    import os
    import subprocess
    import sys

    log = next(p for p in LOGS if p.name.startswith("ratatat-"))
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from companion.ui.memory_bench import _Driver\n"
        f"driver = _Driver(Path({str(tmp_path)!r}))\n"
        f"driver.game(Path({str(log)!r}))\n"
        "print(json.dumps(sorted(m for m in ('cv2', 'numpy', 'onnxruntime') if m in sys.modules)))\n"
    )
    env = dict(os.environ, COMPANION_HOME=str(tmp_path), KIVY_HOME=str(tmp_path / "kivy"), SDL_VIDEODRIVER="offscreen")
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout.splitlines()[-1]) == []
