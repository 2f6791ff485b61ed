"""The UI font is found through fontconfig and covers every language; without one, a clear notice and a
fallback. Dates and numbers follow the language (Babel/CLDR). Preferences survive damage."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import formatting, i18n
from companion.preferences import Preferences
from companion.ui import fonts


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_this_machine_has_a_font_for_every_language() -> None:
    """The README and systemd/install.sh install fonts-noto-cjk; fontconfig must find it."""
    choice = fonts.choose(environ={})
    assert choice.problem is None, f"{choice.problem} (fc-match found {choice.family}: {choice.regular})"
    assert choice.covers("민수 Àngel Núria ¡Ratuki! ¿sí? l·l ’ — … →")
    assert choice.bold and Path(choice.bold).is_file()


class FakeFontconfig:
    """fc-match answering from a table: pattern -> (file, family, charset)."""

    def __init__(self, table: dict[str, tuple[str, str, str]]) -> None:
        self.table = table
        self.asked: list[str] = []

    def __call__(self, argv: list[str], **_kw: Any) -> subprocess.CompletedProcess[str]:
        pattern = argv[-1]
        self.asked.append(pattern)
        for key, (path, family, charset) in self.table.items():
            if pattern.split(":")[0] == key:
                return subprocess.CompletedProcess(argv, 0, f"{path}\n{family}\n{charset}", "")
        return subprocess.CompletedProcess(argv, 1, "", "")


LATIN = "20-7e a0-17f 2013-2014 2018-201e 2026 2192 20ac d7"


def test_no_hangul_font_gives_a_notice_and_a_latin_fallback(tmp_path: Path) -> None:
    latin = tmp_path / "DejaVuSans.ttf"
    latin.write_bytes(b"font")
    fake = FakeFontconfig(
        {"DejaVu Sans": (str(latin), "DejaVu Sans", LATIN), "sans-serif": (str(latin), "DejaVu Sans", LATIN)}
    )
    choice = fonts.choose(run=fake, environ={})
    assert choice.regular == str(latin)
    assert choice.problem is not None and "fonts-noto-cjk" in choice.problem
    assert choice.covers("Àngel ò") and not choice.covers("민수")
    notice = fonts.notice(choice)
    assert notice is not None and "sudo apt install fonts-noto-cjk" in str(notice)


def test_a_font_that_claims_korean_but_lacks_catalan_letters_is_not_taken(tmp_path: Path) -> None:
    """NanumGothic has Hangul but no ò: Catalan would show boxes, so it is passed over."""
    nanum = tmp_path / "NanumGothic.ttf"
    nanum.write_bytes(b"font")
    noto = tmp_path / "NotoSansCJK-Regular.ttc"
    noto.write_bytes(b"font")
    hangul = "20-7e a0-f1 f3-17f 3131-318e ac00-d7a3 2013-2014 2018-201e 2026 2192 20ac d7"
    fake = FakeFontconfig(
        {
            "Noto Sans CJK KR": (str(nanum), "NanumGothic", hangul),  # fontconfig's nearest: not Noto
            "sans-serif": (str(noto), "Noto Sans CJK KR", hangul + " f2"),
        }
    )
    choice = fonts.choose(run=fake, environ={})
    assert choice.regular == str(noto) and choice.problem is None


def test_no_fontconfig_at_all_keeps_kivys_font_and_says_so() -> None:
    def missing(*_args: Any, **_kw: Any) -> Any:
        raise FileNotFoundError("fc-match")

    choice = fonts.choose(run=missing, environ={})
    assert choice.regular is None and choice.problem is not None


def test_the_font_notice_stays_readable_when_the_font_lacks_the_language() -> None:
    """In Korean with no Hangul font the notice would itself be boxes: it is shown in English then."""
    saved = fonts._active
    fonts._active = fonts.FontChoice("x.ttf", "x.ttf", "DejaVu Sans", fonts.parse_charset(LATIN), "no hangul")
    try:
        i18n.set_language("ko")
        notice = fonts.notice(fonts._active)
        assert "sudo apt install" in fonts.readable(notice)
        assert fonts.readable(notice).startswith("No font with Korean letters")
    finally:
        fonts._active = saved


def test_charset_parsing() -> None:
    assert fonts.parse_charset("20-22 ac00 zz") == frozenset({0x20, 0x21, 0x22, 0xAC00})


MOMENT = dt.datetime(2026, 12, 3, 14, 5)


@pytest.mark.parametrize(
    ("language", "number", "day", "ago"),
    [
        ("en", "1,234.5", "3 Dec 2026", "3 hours ago"),
        ("ko", "1,234.5", "2026. 12. 3.", "3시간 전"),
        ("es", "1.234,5", "3 dic 2026", "hace 3 horas"),
        ("ca", "1.234,5", "3 de des. 2026", "fa 3 hores"),
    ],
)
def test_dates_and_numbers_per_language(language: str, number: str, day: str, ago: str) -> None:
    i18n.set_language(language)
    assert formatting.number(1234.5) == number
    assert formatting.date(MOMENT) == day
    assert formatting.timedelta(3 * 3600 + 20) == ago
    assert formatting.duration(125) == "2:05"


def test_times_and_percentages_per_language() -> None:
    i18n.set_language("ko")
    assert formatting.time(MOMENT) == "오후 2:05"
    i18n.set_language("es")
    assert formatting.percent(0.5) == "50\xa0%"
    i18n.set_language("en")
    assert formatting.percent(0.875, decimals=1) == "87.5%"


def test_preferences_round_trip_and_damage(tmp_path: Path) -> None:
    path = tmp_path / "preferences.json"
    prefs = Preferences.load(path)
    assert prefs.get("language") is None and prefs.problem is None
    assert prefs.set("language", "ca")
    assert json.loads(path.read_text(encoding="utf-8")) == {"language": "ca"}
    assert Preferences.load(path).get("language") == "ca"
    path.write_text("{not json", encoding="utf-8")
    damaged = Preferences.load(path)
    assert damaged.get("language") is None and damaged.problem and "cannot be read" in damaged.problem
    path.write_text("[1, 2]", encoding="utf-8")
    assert Preferences.load(path).problem is not None
    path.write_bytes(b"x" * 100_000)
    assert "too big" in (Preferences.load(path).problem or "")


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_preferences_on_a_read_only_card_are_kept_for_the_run(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        prefs = Preferences.load(folder / "preferences.json")
        assert not prefs.set("language", "ko")
        assert prefs.get("language") == "ko" and prefs.problem and "cannot be written" in prefs.problem
    finally:
        folder.chmod(0o700)


def test_preferences_in_a_folder_that_is_a_file(tmp_path: Path) -> None:
    """The same path the read-only case takes, reachable as root too: the write fails, the choice is kept."""
    blocker = tmp_path / "data"
    blocker.write_text("not a folder", encoding="utf-8")
    prefs = Preferences.load(blocker / "preferences.json")
    assert prefs.problem is not None or prefs.get("language") is None
    assert not prefs.set("language", "ko")
    assert prefs.get("language") == "ko" and "cannot be written" in (prefs.problem or "")
    assert not list(tmp_path.glob(".preferences-*"))
