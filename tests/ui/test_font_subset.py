"""The UI font's subset (``companion.ui.font_subset``, #21 item 16): what it draws, its line metrics, when it is
made, reused and remade, what a failure leaves, and the labels drawn with the full font instead.

The subset of Noto Sans CJK (about 20 s on this machine) is made once for the module, by the same command the app
starts in the background; the tests of making, reusing and failing use DejaVu Sans (under a second)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from ui_support import UI

from companion.ui import font_subset, fonts

pytestmark = pytest.mark.ui

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


@dataclass
class Made:
    choice: fonts.FontChoice  # the system's font, as fonts.choose() finds it
    folder: Path  # its subsets, made there
    jobs: list[tuple[str, Path]]  # (font file, subset file): regular, bold


@pytest.fixture(scope="module")
def noto(tmp_path_factory: pytest.TempPathFactory) -> Made:
    choice = fonts.choose(environ={})
    if choice.regular is None or not choice.family.startswith(fonts.COMPACT_FAMILIES):
        pytest.skip("no Noto Sans CJK here")
    folder = tmp_path_factory.mktemp("subset") / "fonts"
    assert fonts.make_subset(choice, folder)
    jobs = fonts.subset_files(choice, folder)
    assert len(jobs) == 2 and all(subset.is_file() for _source, subset in jobs)
    return Made(choice, folder, jobs)


@pytest.fixture
def kept_font() -> Iterator[None]:
    """Kivy's default font and the module's state as they were before the test (it registers a subset)."""
    from kivy.core.text import DEFAULT_FONT, LabelBase

    saved = (fonts._active, fonts._fallback, LabelBase._fonts.get(DEFAULT_FONT))
    yield
    fonts._active, fonts._fallback = saved[0], saved[1]
    if saved[2] is not None:
        LabelBase._fonts[DEFAULT_FONT] = saved[2]


def cmap(path: Path) -> set[int]:
    from fontTools.ttLib import TTFont

    with TTFont(path) as font:
        return set(font.getBestCmap())


def dejavu(tmp_path: Path) -> fonts.FontChoice:
    """A copy of DejaVu Sans standing in for Noto Sans CJK (a family the app compacts and subsets)."""
    if not DEJAVU.is_file():
        pytest.skip("no DejaVu Sans here")
    source = tmp_path / "src" / "DejaVuSans.ttf"
    source.parent.mkdir()
    shutil.copyfile(DEJAVU, source)
    charset = fonts._charset_of(str(source), run=subprocess.run)
    return fonts.FontChoice(str(source), str(source), "Noto Sans CJK KR", charset)


# -- what the subset of Noto Sans CJK draws, and how ------------------------------------------------------------


@pytest.mark.slow
def test_the_subset_draws_every_character_of_the_catalogues(noto: Made) -> None:
    """Every character of every translation catalogue, of REQUIRED, and of the scripts a player's name is likely in
    (Greek, Cyrillic, kana, Hangul, accented Latin) is in both subsets, as the app reads them (fontconfig) and as
    the files say (cmap)."""
    texts = [po.read_text(encoding="utf-8") for po in font_subset.catalogues()]
    assert len(texts) >= 4
    wanted = {ord(ch) for text in texts for ch in text if ch.isprintable() and not ch.isspace()}
    wanted |= {ord(ch) for ch in fonts.REQUIRED + "Ωωж Ёあアー ㈜ ＡĞőș ‰ ✓ ★ ≥ −"}
    wanted &= set(noto.choice.charset)  # what the full font has
    assert {ord(ch) for ch in "가힣ò·’—"} <= wanted
    for _source, subset in noto.jobs:
        assert not wanted - cmap(subset), sorted(hex(p) for p in wanted - cmap(subset))[:20]
        read = fonts._charset_of(str(subset), run=subprocess.run)
        assert not {p for p in wanted if p not in read}
    assert ord("山") not in cmap(noto.jobs[0][1])  # Han: the full font's (14,000 glyphs kept of 65,000)
    assert os.path.getsize(noto.jobs[0][1]) < os.path.getsize(noto.choice.regular or "") / 5


@pytest.mark.slow
def test_the_subset_has_the_compact_line_metrics(noto: Made) -> None:
    """The same line metrics as the compact copy, so that a text is laid out alike in either; made from the Korean
    face of the collection."""
    from fontTools.ttLib import TTFont

    for _source, subset in noto.jobs:
        with TTFont(subset) as font:
            units = font["head"].unitsPerEm
            up, down = round(fonts.COMPACT_ASCENT * units), -round(fonts.COMPACT_DESCENT * units)
            hhea, os2 = font["hhea"], font["OS/2"]
            assert (hhea.ascent, hhea.descent, hhea.lineGap) == (up, down, 0)
            assert (os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap) == (up, down, 0)
            assert font["name"].getDebugName(1).startswith(noto.choice.family)


def _texture(label: Any) -> tuple[tuple[int, int], bytes]:
    label.refresh()
    return tuple(label.texture.size), bytes(label.texture.pixels)


@pytest.mark.slow
def test_the_app_draws_with_the_subset_and_han_with_the_full_font(
    noto: Made, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_font: None
) -> None:
    """With the subset made, the app draws Latin and Hangul with it and opens the full font only for a text with
    a character the subset lacks (山田): drawn exactly as the full font draws it, not as boxes. What can be drawn is
    still answered by the full font (no warning about 山)."""
    from kivy.core.text import Label as CoreLabel

    home = tmp_path / "home"
    (home / "data" / "fonts").mkdir(parents=True)
    for _source, subset in noto.jobs:
        (home / "data" / "fonts" / subset.name).symlink_to(subset)
    monkeypatch.setenv("COMPANION_HOME", str(home))
    monkeypatch.setattr(fonts, "_full_faces", set())
    harness = UI(tmp_path)
    try:
        font = fonts.active()
        assert font.regular == str(home / "data" / "fonts" / noto.jobs[0][1].name)
        assert font.bold == str(home / "data" / "fonts" / noto.jobs[1][1].name)
        assert font.full_regular and "-compact-" in font.full_regular and font.full_bold != font.full_regular
        assert fonts.missing_glyphs(["山田", "Ana 한국어"]) == set() and font.covers("山田")
        assert fonts.missing_glyphs(["\U0001f600"]) == {"\U0001f600"}
        harness.go("games")
        harness.go("home")
        assert fonts.faces_opened(full=True) == set()  # the screens' own text: all from the subset

        latin = CoreLabel(text="Ana Ñúñez 한국어 – ✓", font_size=24)
        latin.refresh()
        assert latin.options["font_name_r"] == font.regular
        han = CoreLabel(text="山田", font_size=24)
        direct = CoreLabel(text="山田", font_size=24, font_name=font.full_regular)
        alias = tmp_path / "subset-itself.otf"  # the subset under another name: drawn as it is, without fallback
        alias.symlink_to(font.regular or "")
        boxes = CoreLabel(text="山田", font_size=24, font_name=str(alias))
        drawn = _texture(han)
        assert han.options["font_name_r"] == font.full_regular
        assert drawn == _texture(direct) and drawn != _texture(boxes)
        assert fonts.faces_opened(full=True) == {(24.0, False)}
        bold = CoreLabel(text="Ana 山", font_size=20, bold=True)
        assert _texture(bold) == _texture(CoreLabel(text="Ana 山", font_size=20, bold=True, font_name=font.full_bold))
        assert bold.options["font_name_r"] == font.full_bold
        bold.text = "Ana"  # the same label, with text the subset draws again
        bold.refresh()
        assert bold.options["font_name_r"] == font.bold
    finally:
        harness.close()


# -- making, reusing, remaking, failing (DejaVu Sans standing in) ------------------------------------------------


def test_the_subset_is_reused_while_the_font_is_unchanged_and_remade_when_it_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    choice = dejavu(tmp_path)
    folder = tmp_path / "fonts"
    before = fonts.with_subset(choice, folder)
    assert before.full_regular is None and before.regular and "-compact-" in before.regular  # not made yet
    assert fonts.make_subset(choice, folder)
    [(_source, first)] = fonts.subset_files(choice, folder)
    made = first.stat().st_mtime_ns
    drawn = fonts.with_subset(choice, folder)
    assert drawn.regular == drawn.bold == str(first) and drawn.full_regular == before.regular
    assert ord("A") in drawn.subset_charset and drawn.charset == choice.charset

    def refused(*args: object, **kwargs: object) -> bool:
        raise AssertionError("made again")

    monkeypatch.setattr(font_subset, "start", refused)
    assert fonts.make_subset(choice, folder) and fonts.with_subset(choice, folder, make=True).regular == str(first)
    assert first.stat().st_mtime_ns == made
    monkeypatch.undo()

    stat = os.stat(choice.regular or "")
    os.utime(choice.regular or "", ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # the font file updated
    [(_source, second)] = fonts.subset_files(choice, folder)
    assert second != first
    assert fonts.with_subset(choice, folder).full_regular is None  # the old one is not drawn...
    assert not first.exists()  # ...and is removed
    assert fonts.make_subset(choice, folder) and second.is_file()
    assert sorted(p.name for p in folder.glob("DejaVuSans-subset-*")) == [second.name]


def test_a_subset_that_cannot_be_made_leaves_the_compact_copy(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A broken font file, a folder that cannot be written, an unfinished file left by a killed maker, a subset
    file cut short: the app draws with the compact copy (or the font itself), nothing raises, and the maker says
    why in one line (no traceback)."""
    broken = tmp_path / "Broken.ttf"
    broken.write_bytes(b"\x00\x01\x00\x00" + b"\x07" * 500)
    choice = fonts.FontChoice(str(broken), str(broken), "Noto Sans CJK KR", fonts.parse_charset("20-7e"))
    folder = tmp_path / "fonts"
    assert not fonts.make_subset(choice, folder)
    assert fonts.with_subset(choice, folder).full_regular is None
    assert not list(folder.glob("*-subset-*"))
    said = capfd.readouterr().err
    assert "Broken.ttf: no subset made" in said and "Traceback" not in said, said

    good = dejavu(tmp_path)
    (tmp_path / "card").write_text("a file where the folder would be")
    unwritable = tmp_path / "card" / "fonts"
    assert not fonts.make_subset(good, unwritable)
    assert fonts.with_subset(good, unwritable).regular == good.regular
    said = capfd.readouterr().err
    assert "no subset made" in said and "Traceback" not in said, said

    [(_source, subset)] = fonts.subset_files(good, folder)
    subset.with_name(subset.name + ".part").write_bytes(b"half a font")  # the maker killed while writing
    assert fonts.with_subset(good, folder).full_regular is None
    subset.write_bytes(b"OTTO")  # a file cut short (power lost before it was written out)
    assert fonts.with_subset(good, folder).full_regular is None and not subset.exists()
    assert fonts.make_subset(good, folder) and fonts.with_subset(good, folder).full_regular is not None
    assert not list(folder.glob("*.part"))


def test_the_maker_without_fonttools_says_so_and_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "fontTools", None)  # import fontTools raises ImportError
    target = tmp_path / "fonts" / "x-subset-1.ttf"
    assert font_subset.main(["--ascent", "1", "--descent", "0.3", str(DEJAVU), str(target)]) == 1
    assert "no font subset made: fontTools is missing" in caplog.text and not target.exists()


def test_the_background_maker_is_started_only_by_the_app(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, kept_font: None
) -> None:
    """Not in tests (nor for ``--screenshot``): only ``companion`` itself asks, when the subset is not made."""
    from companion.ui import launch

    started: list[list[tuple[str, Path]]] = []
    monkeypatch.setattr(font_subset, "start", lambda jobs, **kw: started.append(list(jobs)) or True)
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    harness = UI(tmp_path)
    harness.close()
    assert started == []
    fonts.setup(make_subset=True)  # as companion starts
    jobs = fonts.subset_files(fonts.choose(environ={}), tmp_path / "home" / "data" / "fonts")
    assert started == ([jobs] if jobs else [])  # Noto Sans CJK: regular and bold; another font: nothing to make

    asked: list[bool] = []

    class App:
        def run(self) -> None:
            pass

    def make_app(**kw: Any) -> App:
        asked.append(kw.get("make_font_subset", False))
        return App()

    monkeypatch.setattr(launch, "prepare_environment", lambda **kw: None)
    monkeypatch.setattr(launch, "single_instance", lambda path: object())
    monkeypatch.setattr(launch, "make_app", make_app)
    monkeypatch.setattr("companion.ui.shots.save_when_drawn", lambda app, path: None)
    launch.run(simulate=True)
    launch.run(simulate=True, screenshot=str(tmp_path / "shot.png"))
    assert asked == [True, False]
