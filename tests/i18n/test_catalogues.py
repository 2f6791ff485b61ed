"""The catalogues match the source: every marked string is translated in every language, none is stale, and
each translation has the placeholders and markup of its source (a missing ``{name}`` would lose a player's name;
an extra one would raise KeyError on screen)."""

from __future__ import annotations

import gettext
import shutil
from pathlib import Path

import pytest

from tools import i18n as tool

LANGUAGES = ("en", "ko", "es", "ca")


def test_catalogues_match_the_source() -> None:
    problems = tool.check()
    assert not problems, "\n".join(str(p) for p in problems[:80]) + f"\n({len(problems)} problems)"


def test_every_language_has_a_catalogue_with_its_plural_rule() -> None:
    rules = {"en": 2, "ko": 1, "es": 2, "ca": 2}
    for language, nplurals in rules.items():
        assert tool.read(language).num_plurals == nplurals, language


def _copy(tmp_path: Path) -> Path:
    target = tmp_path / "locale"
    shutil.copytree(tool.LOCALE_DIR, target, ignore=shutil.ignore_patterns("*.mo"))
    return target


def _edit(locale_dir: Path, language: str, old: str, new: str) -> None:
    path = tool.po_file(language, locale_dir)
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_the_check_finds_an_untranslated_string(tmp_path: Path) -> None:
    locale = _copy(tmp_path)
    _edit(locale, "ca", 'msgstr "Nova partida"', 'msgstr ""')
    assert any(
        p.language == "ca" and p.msgid == "New game" and p.what == "untranslated" for p in tool.check(locale_dir=locale)
    )


def test_the_check_finds_a_stale_string(tmp_path: Path) -> None:
    locale = _copy(tmp_path)
    path = tool.po_file("es", locale)
    path.write_text(
        path.read_text(encoding="utf-8") + '\nmsgid "A string the code no longer has"\nmsgstr "Vieja"\n', "utf-8"
    )
    problems = tool.check(locale_dir=locale)
    assert any(p.msgid == "A string the code no longer has" and p.what.startswith("stale") for p in problems)


def test_the_check_finds_a_missing_string(tmp_path: Path) -> None:
    locale = _copy(tmp_path)
    _edit(locale, "ko", 'msgid "New game"\nmsgstr "새 게임"', 'msgid "Old game"\nmsgstr "새 게임"')
    problems = tool.check(locale_dir=locale)
    assert any(p.language == "ko" and p.msgid == "New game" and p.what.startswith("missing") for p in problems)


@pytest.mark.parametrize(
    ("language", "old", "new"),
    [
        ("es", 'msgstr "Cámara: {problem}"', 'msgstr "Cámara: {problema}"'),  # a renamed placeholder
        ("ko", 'msgstr "카메라: {problem}"', 'msgstr "카메라"'),  # a dropped one
        ("ca", 'msgstr[1] "{n} jugades"', 'msgstr[1] "{n} jugades de {who}"'),  # one the code never passes
    ],
)
def test_the_check_finds_mismatched_placeholders(tmp_path: Path, language: str, old: str, new: str) -> None:
    locale = _copy(tmp_path)
    _edit(locale, language, old, new)
    assert any(p.language == language and "placeholders" in p.what for p in tool.check(locale_dir=locale))


def test_fields_reads_korean_particles_as_the_placeholder() -> None:
    assert tool.fields("{name:이/가} {n}개를 {who}에게") == {"name", "n", "who"}
    assert tool.fields("{broken") == {"<broken braces>"}


def test_compiled_catalogues_give_the_translations(tmp_path: Path) -> None:
    """What the build writes (.mo) reads back through the standard library's gettext."""
    locale = _copy(tmp_path)
    written = tool.compile_catalogues(locale)
    assert len(written) == len(LANGUAGES)
    ko = gettext.translation("companion", locale, ["ko"])
    assert ko.gettext("New game") == "새 게임"
    assert ko.pgettext("game title", "Rat-a-Tat Roll") == "랫어탯롤"
    ca = gettext.translation("companion", locale, ["ca"])
    assert ca.ngettext("{n} move", "{n} moves", 1) == "{n} jugada"
    assert ca.ngettext("{n} move", "{n} moves", 3) == "{n} jugades"


def test_the_installed_package_has_compiled_catalogues() -> None:
    """The build compiled them (``pip install -e .`` / a wheel run tools/build/companion_build.py)."""
    from companion import i18n

    for language in LANGUAGES:
        assert i18n.catalogue_file(language).exists(), f"{language}: no .mo; reinstall with pip install -e ."


@pytest.mark.slow
def test_a_wheel_built_from_the_checkout_carries_compiled_catalogues(tmp_path: Path) -> None:
    """A fresh clone has no .mo files (they are built, not kept in git): the build writes them into the wheel."""
    import subprocess
    import sys
    import zipfile

    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(tool.ROOT)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    (wheel,) = tmp_path.glob("table_companion-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for language in LANGUAGES:
            assert f"companion/locale/{language}/LC_MESSAGES/companion.mo" in names, language
        data = archive.read("companion/locale/ko/LC_MESSAGES/companion.mo")
    import io

    assert gettext.GNUTranslations(io.BytesIO(data)).gettext("New game") == "새 게임"
