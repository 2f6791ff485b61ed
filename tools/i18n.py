"""The translation catalogues: extract the app's strings, update the .po files, check them, compile them.

    python -m tools.i18n update     # re-extract from the source, merge into every .po (new strings empty)
    python -m tools.i18n check      # what is untranslated, stale, fuzzy or has wrong placeholders (exit 1 if any)
    python -m tools.i18n compile    # .po -> .mo (the build does this too: tools/build_backend.py)

Strings are found in ``companion/``, ``hardware/`` and ``calibration/`` (.py and .kv) wherever they are passed to
``_``, ``ngettext``, ``pgettext``, ``npgettext``, ``N_``, ``Lazy``, ``lazy_n`` or ``lazy_p``. The English catalogue
is filled from the source text (a string reworded in English only is edited there). Line numbers are left out
of the catalogues so that moving code does not change them.
"""

from __future__ import annotations

import copy
import datetime
import io
import string
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_python
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
LOCALE_DIR = ROOT / "companion" / "locale"
DOMAIN = "companion"
LANGUAGES = ("en", "ko", "es", "ca")
SOURCE_DIRS = ("companion", "hardware", "calibration")
KEYWORDS: dict[str, object] = {
    "_": None,
    "N_": None,
    "Lazy": None,
    "ngettext": (1, 2),
    "lazy_n": (1, 2),
    "pgettext": ((1, "c"), 2),
    "lazy_p": ((1, "c"), 2),
    "npgettext": ((1, "c"), 2, 3),
}
PROJECT = "Table Companion"
GETTEXT_PLURALS = {"es": (2, "(n != 1)"), "ca": (2, "(n != 1)")}
FIXED_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def source_files(root: Path = ROOT) -> Iterator[Path]:
    for folder in SOURCE_DIRS:
        for path in sorted((root / folder).rglob("*")):
            if path.suffix in (".py", ".kv") and "__pycache__" not in path.parts and "locale" not in path.parts:
                yield path


def extract(root: Path = ROOT) -> Catalog:
    """Every marked string in the source, with the files it is in."""
    catalog = Catalog(project=PROJECT, domain=DOMAIN, charset="utf-8")
    for path in source_files(root):
        relative = path.relative_to(root).as_posix()
        data = path.read_bytes()
        for lineno, _funcname, messages, comments in extract_python(
            io.BytesIO(data), KEYWORDS, ["TRANSLATORS:"], {"encoding": "utf-8"}
        ):
            context, msgid = _split(messages, _funcname)
            if msgid is None or (isinstance(msgid, str) and not msgid) or (isinstance(msgid, tuple) and not msgid[0]):
                continue
            catalog.add(msgid, locations=[(relative, lineno)], auto_comments=comments, context=context)
    return catalog


def _split(messages: object, funcname: str) -> tuple[str | None, str | tuple[str, str] | None]:
    spec = KEYWORDS.get(funcname)
    values = messages if isinstance(messages, tuple) else (messages,)
    if spec is None:
        return None, values[0] if isinstance(values[0], str) else None
    assert isinstance(spec, tuple)
    context = None
    texts: list[str] = []
    for index, item in enumerate(spec):
        value = values[index] if index < len(values) else None
        if not isinstance(value, str):
            return None, None  # not a literal: nothing to extract (a variable passed through)
        if isinstance(item, tuple):
            context = value
        else:
            texts.append(value)
    if len(texts) == 1:
        return context, texts[0]
    return context, (texts[0], texts[1])


def po_file(language: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read(language: str, locale_dir: Path = LOCALE_DIR) -> Catalog:
    path = po_file(language, locale_dir)
    if not path.exists():
        catalog = Catalog(locale=language, project=PROJECT, domain=DOMAIN, charset="utf-8")
        _header(catalog, language)
        return catalog
    with open(path, "rb") as handle:
        catalog = read_po(handle, locale=language, domain=DOMAIN)
    if language in GETTEXT_PLURALS:
        catalog._num_plurals, catalog._plural_expr = GETTEXT_PLURALS[language]
    return catalog


def _write(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    write_po(buffer, catalog, width=120, include_lineno=False, ignore_obsolete=True, sort_by_file=False)
    data = buffer.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)


def update(root: Path = ROOT) -> dict[str, int]:
    """Write the template and merge it into every language's .po (stale strings dropped); returns the number of
    untranslated strings per language."""
    template = extract(root)
    template.creation_date = FIXED_DATE
    _write(template, LOCALE_DIR / f"{DOMAIN}.pot")
    left: dict[str, int] = {}
    for language in LANGUAGES:
        catalog = read(language)
        # A copy each: Babel's update shares the template's new messages with the catalogue it updates.
        catalog.update(copy.deepcopy(template), no_fuzzy_matching=True, update_header_comment=False)
        _header(catalog, language)
        catalog.obsolete.clear()
        if language == "en":
            for message in catalog:
                if message.id and not _translated(message):
                    message.string = message.id if isinstance(message.id, str) else tuple(message.id)
                    message.flags.discard("fuzzy")
        _write(catalog, po_file(language))
        left[language] = sum(1 for m in catalog if m.id and not _translated(m))
    return left


def _header(catalog: Catalog, language: str) -> None:
    # Fixed dates: a catalogue changes only when its strings do (no churn, no merge conflicts).
    catalog.creation_date = FIXED_DATE
    catalog.revision_date = FIXED_DATE
    catalog.project = PROJECT
    catalog.version = "0.1"
    catalog.copyright_holder = "the Table Companion authors"
    catalog.msgid_bugs_address = ""
    catalog.last_translator = "Table Companion <>"
    catalog.language_team = f"{language}"
    catalog.fuzzy = False
    if language in GETTEXT_PLURALS:
        # CLDR gives Spanish and Catalan a third form for millions ("de millones"); gettext's usual two are what
        # every count on our screens needs, and what translators of these languages expect.
        catalog._num_plurals, catalog._plural_expr = GETTEXT_PLURALS[language]
        for message in catalog:
            if message.id and isinstance(message.string, tuple | list) and len(message.string) > 2:
                message.string = tuple(message.string[:2])
    catalog.header_comment = (
        f"# {language} catalogue of Table Companion: python -m tools.i18n update, then translate the empty msgstr.\n"
        "# Game terms follow each edition's rulebook (../shared/rules/original/)."
    )


def _translated(message: Message) -> bool:
    if "fuzzy" in message.flags:
        return False
    if isinstance(message.string, tuple | list):
        return all(message.string)
    return bool(message.string)


def fields(text: str) -> set[str]:
    """The named placeholders of a ``str.format`` template (``{name:이/가}`` counts as ``name``)."""
    names: set[str] = set()
    try:
        for _literal, field, _spec, _conversion in string.Formatter().parse(text):
            if field is not None:
                names.add(field.split(".")[0].split("[")[0])
    except ValueError:
        names.add("<broken braces>")
    return names


def markup_tags(text: str) -> list[str]:
    """Kivy markup tags (``[b]``, ``[/color]``...) in order of kind, for comparing a translation with its source."""
    import re

    return sorted(re.findall(r"\[/?(?:b|i|u|s|sub|sup|color|size|font|ref|anchor)(?:=[^\]]*)?\]", text))


@dataclass
class Problem:
    language: str
    msgid: str
    what: str

    def __str__(self) -> str:
        return f"{self.language}: {self.what}: {self.msgid!r}"


def check(root: Path = ROOT, locale_dir: Path = LOCALE_DIR) -> list[Problem]:
    """Everything that keeps the catalogues from matching the source: strings missing from a catalogue or left
    untranslated or fuzzy, stale strings the source no longer has, placeholders or markup that differ, plural
    forms missing."""
    template = extract(root)
    wanted = {(m.context, _key(m.id)) for m in template if m.id}
    problems: list[Problem] = []
    for language in LANGUAGES:
        catalog = read(language, locale_dir)
        have = {(m.context, _key(m.id)): m for m in catalog if m.id}
        nplurals = catalog.num_plurals
        for key in sorted(wanted - set(have), key=str):
            problems.append(Problem(language, key[1], "missing from the catalogue (run python -m tools.i18n update)"))
        for key in sorted(set(have) - wanted, key=str):
            problems.append(Problem(language, key[1], "stale: no longer in the source"))
        for key, message in have.items():
            if key not in wanted:
                continue
            if not _translated(message):
                problems.append(Problem(language, key[1], "untranslated" if "fuzzy" not in message.flags else "fuzzy"))
                continue
            problems.extend(_placeholder_problems(language, message, nplurals))
    return problems


def _key(msgid: str | tuple[str, ...] | list[str]) -> str:
    return msgid if isinstance(msgid, str) else msgid[0]


def _placeholder_problems(language: str, message: Message, nplurals: int) -> list[Problem]:
    out: list[Problem] = []
    if isinstance(message.id, str):
        source, forms = [message.id], [message.string] if isinstance(message.string, str) else list(message.string)
        want = fields(message.id)
        for form in forms:
            if fields(form) != want:
                out.append(Problem(language, message.id, f"placeholders {sorted(fields(form))} != {sorted(want)}"))
            if markup_tags(form) != markup_tags(message.id):
                out.append(Problem(language, message.id, "markup tags differ"))
        del source
        return out
    singular, plural = message.id[0], message.id[1]
    forms = list(message.string) if isinstance(message.string, tuple | list) else [message.string]
    if len(forms) != nplurals:
        out.append(Problem(language, singular, f"{len(forms)} plural forms, the language has {nplurals}"))
    want = fields(plural) | fields(singular)
    need = (fields(plural) & fields(singular)) | (fields(singular) - {"n", "count"})  # a count may be left unsaid
    for form in forms:
        got = fields(form)
        if not got <= want or not need <= got:
            out.append(Problem(language, singular, f"placeholders {sorted(got)} != {sorted(want)}"))
        if markup_tags(form) != markup_tags(plural):
            out.append(Problem(language, singular, "markup tags differ"))
    return out


def compile_catalogues(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Every ``.po`` under ``locale_dir`` written as its ``.mo`` (as the build does)."""
    sys.path.insert(0, str(ROOT / "tools" / "build"))
    try:
        from companion_build import compile_catalogues as build_compile
    finally:
        sys.path.pop(0)
    return list(build_compile(locale_dir))


def fill(language: str, translations: dict[str, str | list[str]]) -> list[str]:
    """Put ``translations`` into ``language``'s catalogue: keys are the msgid (``"context\\x04msgid"`` with a
    context), values the msgstr (a list for plural forms). Returns the keys the catalogue does not have."""
    catalog = read(language)
    unknown = []
    for key, value in translations.items():
        context, _, msgid = key.rpartition("\x04")
        message = next((m for m in catalog if m.id and _key(m.id) == msgid and m.context == (context or None)), None)
        if message is None:
            unknown.append(key)
            continue
        message.string = tuple(value) if isinstance(value, list) else value
        message.flags.discard("fuzzy")
    _header(catalog, language)
    _write(catalog, po_file(language))
    return unknown


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "check"
    if command == "update":
        for language, count in update().items():
            print(f"{language}: {count} untranslated")
        return 0
    if command == "fill":  # python -m tools.i18n fill LANG FILE.json: {"msgid": "msgstr", ...}
        import json

        unknown = fill(args[1], json.loads(Path(args[2]).read_text(encoding="utf-8")))
        for key in unknown:
            print(f"not in the {args[1]} catalogue: {key!r}")
        return 1 if unknown else 0
    if command == "compile":
        for path in compile_catalogues():
            print(path.relative_to(ROOT))
        return 0
    if command == "check":
        problems = check()
        for problem in problems:
            print(problem)
        print(f"{len(problems)} problems")
        return 1 if problems else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
