"""The UI font: one that draws Hangul, accented Latin and the punctuation of all four languages, found at start
through fontconfig (``fc-match``), with a clear notice and a fallback when the system has none.

Kivy draws every label with one font file (no per-glyph fallback), so that one file must cover every script a
player name or a message may use: Noto Sans CJK (Debian's ``fonts-noto-cjk``, installed by the README commands
and ``systemd/install.sh``) covers Latin with every accent we need, Greek, Cyrillic, Hangul, kana and Han.
Once a small copy of it is made (:mod:`companion.ui.font_subset`, in the background), labels are drawn with that
copy, and a label with a character only the full font has (a name in Han characters) with the full font.
``COMPANION_FONT=/path/regular.ttf[:/path/bold.ttf]`` names another font instead (used as it is, never subset).
"""

from __future__ import annotations

import bisect
import logging
import os
import subprocess
from collections.abc import Callable, Iterable, Iterator, Set
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.i18n import Lazy, Text

log = logging.getLogger(__name__)

PACKAGE = "fonts-noto-cjk"
# What the four languages and their rulebooks' words need: Hangul, Spanish and Catalan letters, ¡ ¿ · ’ and the
# dashes, ellipsis, arrows and signs the app's messages use.
REQUIRED = "가각힣ㄱ한국어AZaz09ÀÁÈÉÍÏÒÓÚÜÑÇàáèéíïòóúüñç¡¿·’“”«»–—…→×€"
# Asked of fontconfig in this order; the first whose file covers REQUIRED wins.
PATTERNS = ("Noto Sans CJK KR", "Noto Sans KR", "Source Han Sans KR", "sans-serif:lang=ko")
# When nothing covers Hangul: a font that at least has every Latin letter of Spanish and Catalan.
LATIN_PATTERNS = ("DejaVu Sans", "Noto Sans", "sans-serif")
LATIN_REQUIRED = "AZaz09ÀÁÈÉÍÏÒÓÚÜÑÇàáèéíïòóúüñç¡¿·’–—…"

Runner = Callable[..., Any]


@dataclass
class FontChoice:
    """The font files the app draws with, what they cover, and what to tell the players when it is not enough."""

    regular: str | None  # None: Kivy's bundled Roboto (no Hangul, no ò)
    bold: str | None
    family: str
    charset: Set[int] = field(default_factory=frozenset)  # what can be drawn: the full font's code points
    problem: str | None = None
    # When regular and bold are a subset of the font (companion.ui.font_subset): the full font's files, drawn for a
    # text with a character outside ``subset_charset``. None: regular and bold are the full font.
    full_regular: str | None = None
    full_bold: str | None = None
    subset_charset: Set[int] = field(default_factory=frozenset)

    def covers(self, text: str) -> bool:
        """True when every visible character of ``text`` is in the font (whitespace and controls aside)."""
        return not self.missing(text)

    def missing(self, text: str) -> set[str]:
        """The characters of ``text`` nothing can draw (the full font's, when a subset is drawn first)."""
        if not self.charset:
            return set()  # unknown (no fontconfig): assume it draws
        return {ch for ch in text if ch.isprintable() and not ch.isspace() and ord(ch) not in self.charset}


class Charset(Set[int]):
    """The code points a font draws, kept as its ranges (Noto Sans CJK's 65,000 points as a frozenset held
    3.4 MB for the whole run; as ranges a few kB). A read-only set: ``in``, ``len``, iteration, equality."""

    def __init__(self, ranges: Iterable[tuple[int, int]] = ()) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(ranges):  # inclusive ends; overlapping and touching ranges become one
            if merged and start <= merged[-1][1] + 1:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]
        self._size = sum(end - start + 1 for start, end in merged)

    def __contains__(self, point: object) -> bool:
        if not isinstance(point, int):
            return False
        at = bisect.bisect_right(self._starts, point) - 1
        return at >= 0 and point <= self._ends[at]

    def __iter__(self) -> Iterator[int]:
        for start, end in zip(self._starts, self._ends, strict=True):
            yield from range(start, end + 1)

    def __len__(self) -> int:
        return self._size

    def __hash__(self) -> int:
        return self._hash()


def parse_charset(text: str) -> Charset:
    """fontconfig's ``%{charset}`` (``20-7e a0-17f 2192``) as a set of code points."""
    ranges: list[tuple[int, int]] = []
    for part in text.split():
        low, _, high = part.partition("-")
        try:
            start = int(low, 16)
            end = int(high, 16) if high else start
        except ValueError:
            continue
        if end >= start:
            ranges.append((start, end))
    return Charset(ranges)


def fc_match(pattern: str, *, run: Runner = subprocess.run) -> tuple[str, str, Set[int]] | None:
    """(file, family, charset) of fontconfig's best match for ``pattern``, or None (no fontconfig, no fonts)."""
    try:
        result = run(
            ["fc-match", "-f", "%{file}\\n%{family}\\n%{charset}", pattern],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as err:
        log.warning("fc-match %r failed: %s", pattern, err)
        return None
    if result.returncode != 0 or not result.stdout.strip():
        return None
    lines = [*result.stdout.split("\n"), "", ""]
    path, family, charset = lines[0].strip(), lines[1].split(",")[0].strip(), lines[2]
    if not path or not Path(path).is_file():
        return None
    return path, family, parse_charset(charset)


def choose(*, run: Runner = subprocess.run, environ: dict[str, str] | None = None) -> FontChoice:
    """The best font on this system for the app, and the notice to show when it lacks Hangul or accents."""
    env = os.environ if environ is None else environ
    named = env.get("COMPANION_FONT", "")
    if named:
        regular, _, bold = named.partition(":")
        if Path(regular).is_file():
            charset = _charset_of(regular, run=run)
            return FontChoice(regular, bold if bold and Path(bold).is_file() else regular, Path(regular).stem, charset)
        log.warning("COMPANION_FONT=%s: no such file; looking for %s", named, PACKAGE)
    for pattern in PATTERNS:
        found = fc_match(pattern, run=run)
        if found is None:
            continue
        path, family, charset = found
        if all(ord(ch) in charset for ch in REQUIRED):
            return FontChoice(path, _bold(pattern, path, run=run), family, charset)
    problem = (
        f"No font with Korean letters was found: Korean text and Hangul names show as boxes. "
        f"Install one with: sudo apt install {PACKAGE}"
    )
    for pattern in LATIN_PATTERNS:
        found = fc_match(pattern, run=run)
        if found is not None and all(ord(ch) in found[2] for ch in LATIN_REQUIRED):
            path, family, charset = found
            return FontChoice(path, _bold(pattern, path, run=run), family, charset, problem)
    return FontChoice(None, None, "Roboto", frozenset(), problem)


def _bold(pattern: str, regular: str, *, run: Runner) -> str:
    base = pattern.split(":")[0]
    found = fc_match(f"{base}:weight=bold", run=run)
    return found[0] if found is not None and found[0] != regular else regular


def _charset_of(path: str, *, run: Runner) -> Set[int]:
    try:
        result = run(["fc-query", "-f", "%{charset}\\n", path], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    first = result.stdout.split("\n")[0] if result.returncode == 0 else ""
    return parse_charset(first)


# Noto Sans CJK reserves 1.45 em of height a line (room for vertical CJK layout); its Latin accents and Hangul
# reach 1.01 em above the baseline and 0.26 em below (measured at 100 px, bold included). Lines of 1.29 em keep
# every glyph whole and text close to the height the screens were laid out for (Roboto: 1.17 em).
COMPACT_ASCENT = 1.03
COMPACT_DESCENT = 0.27
COMPACT_FAMILIES = ("Noto Sans CJK", "Source Han Sans", "Noto Sans KR")


def compact_copy(path: str, folder: Path, *, ascent: float = COMPACT_ASCENT, descent: float = COMPACT_DESCENT) -> str:
    """A copy of the font file ``path`` in ``folder`` whose line metrics (hhea, OS/2 typo) are ``ascent`` and
    ``descent`` em, made once and reused while the original is unchanged; ``path`` itself when it cannot be made.
    Only those few bytes change: every glyph is the original's. The file is copied as it is and those bytes are
    written in place: the 20 MB font is never held in memory (a copy made in memory stayed in the app's RSS)."""
    import hashlib
    import shutil
    import struct

    source = Path(path)
    try:
        stat = source.stat()
        key = hashlib.sha1(f"{source.resolve()}:{stat.st_size}:{stat.st_mtime_ns}:{ascent}:{descent}".encode())
        target = folder / f"{source.stem}-compact-{key.hexdigest()[:10]}{source.suffix}"
        if target.exists() and target.stat().st_size == stat.st_size:
            return str(target)
        writes: dict[int, bytes] = {}  # offset -> the bytes written there
        with source.open("rb") as font:

            def read(offset: int, size: int) -> bytes:
                font.seek(offset)
                data = font.read(size)
                if len(data) != size:
                    raise struct.error(f"the file ends at {offset + len(data)}")
                return data

            faces = [0]
            if read(0, 4) == b"ttcf":
                count = struct.unpack(">I", read(8, 4))[0]
                faces = list(struct.unpack(f">{count}I", read(12, 4 * count)))
            for face in faces:
                tables = {}
                for index in range(struct.unpack(">H", read(face + 4, 2))[0]):
                    tag, _checksum, offset, _length = struct.unpack(">4sIII", read(face + 12 + 16 * index, 16))
                    tables[tag] = offset
                if b"head" not in tables or b"hhea" not in tables:
                    return path
                units = struct.unpack(">H", read(tables[b"head"] + 18, 2))[0]
                up, down = round(ascent * units), -round(descent * units)
                writes[tables[b"hhea"] + 4] = struct.pack(">hhh", up, down, 0)
                if b"OS/2" in tables:
                    writes[tables[b"OS/2"] + 68] = struct.pack(">hhh", up, down, 0)
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{source.stem}-compact-*{source.suffix}"):
            old.unlink(missing_ok=True)
        partial = target.with_name(target.name + ".part")
        shutil.copyfile(source, partial)
        with partial.open("r+b") as copy:
            for offset, data in writes.items():
                copy.seek(offset)
                copy.write(data)
        partial.replace(target)
        return str(target)
    except (OSError, struct.error) as err:
        log.warning("font %s: no compact copy (%s); using it as it is", path, err)
        return path


def compact(choice: FontChoice, folder: Path | None = None) -> FontChoice:
    """``choice`` with Noto Sans CJK's tall lines made compact (see :func:`compact_copy`); other fonts as they are."""
    if choice.regular is None or not choice.family.startswith(COMPACT_FAMILIES):
        return choice
    if folder is None:
        from companion.paths import data_dir

        folder = data_dir() / "fonts"
    regular = compact_copy(choice.regular, folder)
    bold = compact_copy(choice.bold, folder) if choice.bold and choice.bold != choice.regular else regular
    return FontChoice(regular, bold, choice.family, choice.charset, choice.problem)


def subset_files(choice: FontChoice, folder: Path) -> list[tuple[str, Path]]:
    """(font file, subset file) for the regular and the bold of ``choice`` (one pair when they are one file; none
    for a font that is not compacted, see :data:`COMPACT_FAMILIES`, or one that cannot be read)."""
    from companion.ui import font_subset

    if choice.regular is None or not choice.family.startswith(COMPACT_FAMILIES):
        return []
    sources = [choice.regular] + ([choice.bold] if choice.bold and choice.bold != choice.regular else [])
    try:
        return [
            (
                source,
                font_subset.target(
                    source, folder, family=choice.family, ascent=COMPACT_ASCENT, descent=COMPACT_DESCENT
                ),
            )
            for source in sources
        ]
    except OSError as err:
        log.warning("font %s: no subset (%s)", choice.regular, err)
        return []


def with_subset(choice: FontChoice, folder: Path | None = None, *, make: bool = False) -> FontChoice:
    """:func:`compact` ``choice``, drawn first with its subset when that is made (the compact copy is then drawn
    only for texts the subset lacks). Without the subset: the compact copy, and with ``make`` the subset is started
    in the background for the next start (the app's start asks for it, the tests do not). Never raises."""
    if folder is None:
        from companion.paths import data_dir

        folder = data_dir() / "fonts"
    full = compact(choice, folder)
    jobs = subset_files(choice, folder)
    if not jobs:
        return full
    from companion.ui import font_subset

    try:
        for _source, subset in jobs:
            font_subset.remove_stale(folder, subset, partial=False)
        if all(subset.is_file() for _source, subset in jobs):
            charsets = [_charset_of(str(subset), run=subprocess.run) for _source, subset in jobs]
            needed = [ord(ch) for ch in REQUIRED if ord(ch) in choice.charset]
            if all(charset and all(point in charset for point in needed) for charset in charsets):
                return FontChoice(
                    str(jobs[0][1]),
                    str(jobs[-1][1]),
                    choice.family,
                    choice.charset,
                    choice.problem,
                    full_regular=full.regular,
                    full_bold=full.bold,
                    subset_charset=charsets[0],
                )
            log.warning("font subset %s is unreadable or incomplete; it is made again", jobs[0][1])
            for _source, subset in jobs:
                subset.unlink(missing_ok=True)
    except OSError as err:
        log.warning("font subset in %s not used (%s)", folder, err)
    if make:
        font_subset.start(jobs, family=choice.family, ascent=COMPACT_ASCENT, descent=COMPACT_DESCENT)
    return full


def make_subset(choice: FontChoice, folder: Path) -> bool:
    """Make the subsets of ``choice`` in ``folder`` now, waiting for them (the memory bench: its figures are those
    of a start that finds them). True when they are there."""
    from companion.ui import font_subset

    jobs = subset_files(choice, folder)
    if not jobs:
        return False
    if all(subset.is_file() for _source, subset in jobs):
        return True
    return font_subset.start(jobs, family=choice.family, ascent=COMPACT_ASCENT, descent=COMPACT_DESCENT, wait=True)


_active: FontChoice | None = None

# Every text is drawn at one of these sizes (px): a size asked for is drawn at the largest of them not above it,
# and at 16 px at least (no text is smaller). Kivy opens the UI font once for each size and weight it draws and keeps
# it open (up to 64): a FreeType face of Noto Sans CJK holds about 2.5 MB, and the screens asked for 33 sizes and
# weights (over 80 MB) where these make at most 18 (#21 item 16).
TYPE_SCALE = (16, 18, 20, 24, 28, 34, 40, 46, 54)
_faces: set[tuple[float, bool]] = set()  # (size, bold) of every face opened since the scale was installed
_full_faces: set[tuple[float, bool]] = set()  # those of the full font, when a subset is drawn first


class _Fallback:
    """Which labels are drawn with the full font when the UI font is a subset: those whose text has a character
    the subset lacks and the full font has (decided once per text; a few hundred texts remembered)."""

    def __init__(self, choice: FontChoice) -> None:
        pairs = [(choice.regular, choice.full_regular), (choice.bold, choice.full_bold or choice.full_regular)]
        self.to_full = {subset: full for subset, full in pairs if subset and full}
        self.to_subset = {full: subset for subset, full in self.to_full.items()}
        self.subset = choice.subset_charset
        self.full = choice.charset
        self._seen: dict[str, bool] = {}

    def needs_full(self, text: str) -> bool:
        if text.isascii():
            return False
        seen = self._seen.get(text)
        if seen is None:
            if len(self._seen) > 512:
                self._seen.clear()
            seen = self._seen[text] = any(
                point >= 0x20 and point not in self.subset and (not self.full or point in self.full)
                for point in map(ord, set(text))
            )
        return seen

    def font_for(self, name: object, text: str) -> str | None:
        """The font file a label drawn with ``name`` is drawn with instead for ``text`` (None: ``name``)."""
        if not isinstance(name, str):
            return None
        if name in self.to_full:
            return self.to_full[name] if self.needs_full(text) else None
        if name in self.to_subset:
            return None if self.needs_full(text) else self.to_subset[name]
        return None


_fallback: _Fallback | None = None


def on_scale(size: float) -> float:
    """The size text asked for at ``size`` px is drawn at (see :data:`TYPE_SCALE`)."""
    if size >= TYPE_SCALE[-1]:
        return float(round(size))
    return float(max([s for s in TYPE_SCALE if s <= size + 0.01], default=TYPE_SCALE[0]))


def use_type_scale() -> None:
    """Draw every text at a size of :data:`TYPE_SCALE`. Kivy's SDL2 text provider asks the label for its font id
    (``_get_font_id``) and then opens the font at ``options['font_size']``: the size is put on the scale there, so the
    text laid out, measured and drawn is the same size, and the face is shared. Widgets keep the size they asked
    for (layout and tests read it); what they get drawn is never larger."""
    try:
        from kivy.core.text.text_sdl2 import LabelSDL2
    except ImportError:  # another text provider: nothing to share
        return
    if getattr(LabelSDL2, "_on_type_scale", False):
        return
    original = LabelSDL2._get_font_id

    def font_id(label: Any) -> Any:
        options = label.options
        full = False
        if _fallback is not None:  # a subset drawn first: the full font for a text it cannot draw
            instead = _fallback.font_for(options.get("font_name_r"), label.text)
            if instead is not None:
                options["font_name_r"] = instead
            full = options.get("font_name_r") in _fallback.to_subset
        size = options.get("font_size")
        if isinstance(size, int | float) and not isinstance(size, bool):
            options["font_size"] = on_scale(size)
            (_full_faces if full else _faces).add((options["font_size"], bool(options.get("bold"))))
        return original(label)

    LabelSDL2._get_font_id = font_id
    LabelSDL2._on_type_scale = True


def faces_opened(*, full: bool = False) -> set[tuple[float, bool]]:
    """(size, bold) of the faces drawn with since :func:`use_type_scale` (a copy); with ``full``, those of the full
    font drawn for texts the subset lacks (see :func:`with_subset`)."""
    return set(_full_faces if full else _faces)


def setup(choice: FontChoice | None = None, *, make_subset: bool = False) -> FontChoice:
    """Make the chosen font Kivy's default (every Label, bold too). Call before the first widget is drawn. With
    ``make_subset``, a subset not made yet is started in the background (see :func:`with_subset`)."""
    global _active, _fallback
    from kivy.core.text import DEFAULT_FONT, LabelBase

    choice = choice or with_subset(choose(), make=make_subset)
    use_type_scale()
    _fallback = _Fallback(choice) if choice.full_regular else None
    if choice.regular is not None:
        LabelBase.register(DEFAULT_FONT, choice.regular, fn_bold=choice.bold or choice.regular)
        log.info("UI font: %s (%s; %s for other text)", choice.family, choice.regular, choice.full_regular or "-")
    else:
        log.warning("UI font: Kivy's Roboto (%s)", choice.problem)
    _active = choice
    return choice


def active() -> FontChoice:
    """The font in use (before :func:`setup`: Kivy's own, coverage unknown)."""
    return _active or FontChoice(None, None, "Roboto")


def missing_glyphs(texts: Iterable[str]) -> set[str]:
    """Characters of ``texts`` the active font cannot draw (by its charset)."""
    font = active()
    out: set[str] = set()
    for text in texts:
        out |= font.missing(text)
    return out


def notice(choice: FontChoice) -> Text | None:
    """What the banner says about the font (``None`` when it draws everything)."""
    if not choice.problem:
        return None
    return Lazy(
        "No font with Korean letters was found: Korean text and Hangul names show as boxes. "
        "Install one with: sudo apt install {package}",
        package=PACKAGE,
    )


def readable(text: Text | None) -> str:
    """``text`` as it reads now, or in English when the font cannot draw it in the current language (the
    notice that Hangul is missing, in Korean, would be boxes)."""
    if text is None:
        return ""
    shown = str(text)
    if isinstance(text, Lazy) and not active().covers(shown):
        from companion import i18n

        with i18n.using("en"):
            return str(text)
    return shown
