"""companion.i18n: language choice, switching, plurals, Korean particles, lazy messages, stdlib only."""

from __future__ import annotations

import ast
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion import i18n
from companion.i18n import Lazy, _, lazy_n, ngettext, pgettext


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


def test_switching_changes_what_underscore_returns() -> None:
    i18n.set_language("ko")
    assert _("New game") == "새 게임"
    i18n.set_language("es")
    assert _("New game") == "Nueva partida"
    i18n.set_language("ca")
    assert _("New game") == "Nova partida"
    assert pgettext("game title", "Art Collectors") == "Col·leccionistes d'art"
    i18n.set_language("en")
    assert _("New game") == "New game"


def test_plural_forms_follow_each_language() -> None:
    for language, one, many in (("en", "1 move", "3 moves"), ("es", "1 jugada", "3 jugadas"), ("ko", "1수", "3수")):
        i18n.set_language(language)
        assert ngettext("{n} move", "{n} moves", 1).format(n=1) == one
        assert ngettext("{n} move", "{n} moves", 3).format(n=3) == many


def test_an_unknown_language_falls_back_to_english_and_says_so() -> None:
    problem = i18n.set_language("xx")
    assert problem is not None and "xx" in problem
    assert i18n.current() == "en"
    assert _("New game") == "New game"


def test_a_stale_mo_is_compiled_again_from_its_po(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A catalogue edited in a checkout is used at once, without a rebuild."""
    import shutil

    target = tmp_path / "locale"
    shutil.copytree(i18n.LOCALE_DIR, target)
    po = target / "ca" / "LC_MESSAGES" / "companion.po"
    po.write_text(po.read_text(encoding="utf-8").replace('msgstr "Nova partida"', 'msgstr "Partida nova"'), "utf-8")
    os.utime(po, (time.time() + 10, time.time() + 10))
    monkeypatch.setattr(i18n, "LOCALE_DIR", target)
    assert i18n.set_language("ca") is None
    assert _("New game") == "Partida nova"


def test_a_missing_catalogue_means_english_and_a_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    problem = i18n.set_language("ko")
    assert problem is not None and "not installed" in problem
    assert _("New game") == "New game"


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({"LANG": "ca_ES.UTF-8"}, "ca"),
        ({"LANG": "es_AR.UTF-8"}, "es"),
        ({"LANG": "ko_KR.UTF-8"}, "ko"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANGUAGE": "gl:es", "LANG": "gl_ES.UTF-8"}, "es"),
        ({"LC_ALL": "ko_KR.UTF-8", "LANG": "es_ES.UTF-8"}, "ko"),
        ({"LC_MESSAGES": "ca_ES@valencia", "LANG": "C.UTF-8"}, "ca"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_system_locale_picks_the_default(env: dict[str, str], language: str) -> None:
    assert i18n.system_language(env) == language


@pytest.mark.parametrize(
    ("name", "particle", "expected"),
    [
        ("민수", "이/가", "민수가"),
        ("지민", "이/가", "지민이"),
        ("서울", "으로/로", "서울로"),
        ("부산", "으로/로", "부산으로"),
        ("Ana", "을/를", "Ana를"),
        ("Tom", "을/를", "Tom을"),
        ("Dee", "은/는", "Dee는"),
        ("3", "이/가", "3이"),
        ("2", "이/가", "2가"),
    ],
)
def test_korean_particles_follow_the_name(name: str, particle: str, expected: str) -> None:
    template = i18n.Translated("{name:" + particle + "}")
    assert template.format(name=name) == expected


def test_a_number_takes_its_particle_too() -> None:
    assert i18n.Translated("{n:을/를} 골랐습니다").format(n=6) == "6을 골랐습니다"
    assert i18n.Translated("{n:3d}").format(n=6) == "  6"


def test_lazy_messages_are_worded_when_shown() -> None:
    notice = Lazy("Camera: {problem}", problem="unplugged")
    plural = lazy_n("{n} move", "{n} moves", 4)
    assert str(notice) == "Camera: unplugged"
    i18n.set_language("ca")
    assert str(notice) == "Càmera: unplugged"
    assert str(plural) == "4 jugades"
    i18n.set_language("ko")
    assert str(notice) == "카메라: unplugged"


def test_listeners_hear_each_switch() -> None:
    heard: list[str] = []
    stop = i18n.on_change(heard.append)
    i18n.set_language("es")
    i18n.set_language("ko")
    stop()
    i18n.set_language("ca")
    assert heard == ["es", "ko"]


def test_using_words_one_block_in_another_language() -> None:
    i18n.set_language("es")
    with i18n.using("ko"):
        assert _("Back") == "뒤로"
    assert _("Back") == "Atrás"
    assert i18n.current() == "es"


def test_i18n_imports_only_the_standard_library() -> None:
    """Engines use it, and engines are standard library only (Babel only inside the in-memory compile)."""
    tree = ast.parse(Path(i18n.__file__).read_text(encoding="utf-8"))
    top_level = [n for n in tree.body if isinstance(n, ast.Import | ast.ImportFrom)]
    for node in top_level:
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
        for name in names:
            assert name.split(".")[0] in sys.stdlib_module_names or name == "__future__", name
