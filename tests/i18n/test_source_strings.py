"""No words reach the screen without the catalogue: the screens' text properties, messages, prompts and kv
``text:`` lines are gettext calls (or hold no words), and no gettext call hides inside an f-string, where
Babel's extractor does not look (its string would never reach the catalogue, so never be translated)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
UI = ROOT / "companion" / "ui"
SOURCES = [p for folder in ("companion", "hardware", "calibration") for p in sorted((ROOT / folder).rglob("*.py"))]
GETTEXT = {"_", "N_", "ngettext", "pgettext", "npgettext", "Lazy", "lazy_n", "lazy_p"}
# Words that are the same in every language: the app's name, each language's own name.
SAME_EVERYWHERE = {"Table Companion", "English", "한국어", "Español", "Català"}
WORDS = re.compile(r"[^\W\d_]{2,}")
# Where a screen puts words in front of a player.
SHOWN_ATTRIBUTES = {"text", "prompt", "info", "title", "hint_text", "header_text", "verdict_headline"}
SHOWN_CALLS = {"show_message": 0, "notice": 1, "choose_player": 0}  # the argument a player reads
MEASURING = {"CoreLabel", "get_extents"}  # text drawn only to measure a font, never shown


def _literal_words(node: ast.AST) -> str | None:
    """The words of a string literal or f-string (its literal parts), or None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        text = node.value
    elif isinstance(node, ast.JoinedStr):
        text = "".join(v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        text = re.sub(r"\[/?[a-z]+(=[^\]]*)?\]", "", text)  # markup tags are not words
    else:
        return None
    if text.strip() in SAME_EVERYWHERE or not WORDS.search(text):
        return None
    return text


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _untranslated(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: list[str] = []
    where = path.relative_to(ROOT)
    for node in ast.walk(tree):
        values: list[ast.AST] = []
        if isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Attribute) and t.attr in SHOWN_ATTRIBUTES for t in node.targets):
                values.append(node.value)
        elif isinstance(node, ast.Call):
            if _name(node.func) not in MEASURING:
                values += [k.value for k in node.keywords if k.arg in SHOWN_ATTRIBUTES]
            shown = SHOWN_CALLS.get(_name(node.func))
            if shown is not None and len(node.args) > shown:
                values.append(node.args[shown])
        for value in values:
            for part in [value.body, value.orelse] if isinstance(value, ast.IfExp) else [value]:
                words = _literal_words(part)
                if words is not None:
                    found.append(f"{where}:{part.lineno}: {words[:60]!r}")
    return found


def test_screens_show_no_literal_words() -> None:
    found = [line for path in sorted(UI.rglob("*.py")) for line in _untranslated(path)]
    assert not found, "words shown without gettext:\n" + "\n".join(found)


def test_kv_text_lines_are_translated() -> None:
    found = []
    for path in sorted(UI.rglob("*.kv")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = re.match(r"\s*(text|hint_text|title):\s*(\"[^\"]*\"|'[^']*')\s*$", line)
            if match and _literal_words(ast.Constant(ast.literal_eval(match.group(2)))) is not None:
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "kv text without _():\n" + "\n".join(found)


def test_no_gettext_call_inside_an_f_string() -> None:
    found = []
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.JoinedStr):
                continue
            for inner in ast.walk(node):
                called = isinstance(inner, ast.Call) and _name(inner.func) in GETTEXT and inner.args
                if called and isinstance(inner.args[0], ast.Constant):
                    found.append(f"{path.relative_to(ROOT)}:{inner.lineno}")
    assert not found, "gettext inside an f-string (never extracted):\n" + "\n".join(found)


def test_the_checks_find_what_they_look_for(tmp_path: Path) -> None:
    """The checks above catch each kind of escape (so a pass means something)."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "self.prompt = f'{me}: roll the dice'\n"
        "button = Button(text='Start game')\n"
        "self.show_message('Nothing to undo', error=True)\n"
        "label.text = _('fine') if x else 'Not fine'\n"
        "self.info = ''\n"
        "self.title = 'Table Companion'\n",
        encoding="utf-8",
    )
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = _untranslated(sample)
    finally:
        ROOT = saved
    assert sorted(line.split(":")[1] for line in found) == ["1", "2", "3", "4"]
