"""A small copy of the UI font: the scripts and signs the app draws, with the compact line metrics (#21 item 16).

Kivy opens the UI font once per size and weight and keeps each face: a face of Noto Sans CJK (65,000 glyphs) holds
about 2.5 MB, one of this subset (Latin, Greek, Cyrillic, kana, Hangul, punctuation and symbols, about 14,000
glyphs) about 0.65 MB. Making it takes fontTools some seconds (about 11 s on a desktop core, more on a Pi), so the
app never waits for it: at start it draws with the compact copy of the full font and, when the subset is not there
yet, starts this module in a separate low-priority process (``python -m companion.ui.font_subset``); the subset is
used from the next start. Text with a character the subset lacks (a player named 山田) is drawn with the full font
(``fonts.use_type_scale``). This module imports fontTools only in :func:`make`, in that process.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path

log = logging.getLogger(__name__)

# Changes when what goes into a subset changes (ranges, options): every subset made before is then remade.
VERSION = 1
# What the subset keeps (inclusive ranges), beside every character of the translation catalogues: generous, so that
# player names and the signs the screens use are drawn from it.
RANGES = (
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x036F),  # Latin-1, Latin Extended-A and -B, IPA, spacing modifiers, combining accents
    (0x0370, 0x04FF),  # Greek, Cyrillic
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x1E00, 0x1EFF),  # Latin Extended Additional
    (0x2000, 0x23FF),  # punctuation, super- and subscripts, currency, letterlike, number forms, arrows, maths
    (0x2460, 0x27BF),  # enclosed numbers, box drawing, shapes, symbols, dingbats
    (0x3000, 0x30FF),  # CJK symbols and punctuation, hiragana, katakana
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0x3200, 0x327F),  # parenthesised and circled Hangul
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7A3),  # Hangul syllables
    (0xD7B0, 0xD7FF),  # Hangul Jamo Extended-B
    (0xFF00, 0xFFEF),  # halfwidth and fullwidth forms
    (0xFFFD, 0xFFFD),  # the replacement character
)
LOCALE = Path(__file__).resolve().parents[1] / "locale"


def catalogues() -> list[Path]:
    """The translation catalogues (.po) installed with the app: every character of them goes into the subset."""
    return sorted(LOCALE.glob("*/LC_MESSAGES/*.po"))


def wanted() -> set[int]:
    """The code points a subset keeps (those the font has): :data:`RANGES` and the catalogues' characters."""
    points = {point for start, end in RANGES for point in range(start, end + 1)}
    for path in catalogues():
        try:
            points.update(ord(ch) for ch in set(path.read_text(encoding="utf-8")) if ord(ch) >= 0x20)
        except (OSError, UnicodeDecodeError) as err:
            log.warning("%s: not read for the font subset (%s)", path, err)
    return points


def target(source: str, folder: Path, *, family: str, ascent: float, descent: float) -> Path:
    """Where the subset of the font file ``source`` lives in ``folder``: named by a key of the file (path, size,
    time), the face, the metrics, :data:`VERSION` and the catalogues, so a change of any of them makes a new one.
    Raises OSError when ``source`` cannot be read."""
    path = Path(source)
    stat = path.stat()
    parts = [str(path.resolve()), str(stat.st_size), str(stat.st_mtime_ns), family, str(ascent), str(descent)]
    parts.append(str(VERSION))
    for po in catalogues():
        try:
            po_stat = po.stat()
        except OSError:
            continue
        parts.append(f"{po.parent.parent.name}/{po_stat.st_size}/{po_stat.st_mtime_ns}")
    key = hashlib.sha1("\n".join(parts).encode()).hexdigest()[:10]
    suffix = ".otf" if path.suffix.lower() in (".ttc", ".otc", ".otf") else path.suffix
    return folder / f"{path.stem}-subset-{key}{suffix}"


def remove_stale(folder: Path, keep: Path, *, partial: bool) -> None:
    """Delete the subsets of ``keep``'s font in ``folder`` other than ``keep`` (and unfinished ones when
    ``partial``: only the process holding the lock may, see :func:`main`)."""
    stem = keep.name.split("-subset-")[0]
    for old in folder.glob(f"{stem}-subset-*"):
        if old != keep and (partial or not old.name.endswith(".part")):
            try:
                old.unlink()
            except OSError as err:
                log.warning("font subset: %s not removed (%s)", old, err)


def make(
    source: str,
    destination: Path,
    *,
    family: str = "",
    ascent: float,
    descent: float,
    points: Iterable[int] | None = None,
) -> None:
    """Write the subset of ``source`` (the face named ``family`` of a collection, else its first) to
    ``destination``: the code points ``points`` (default :func:`wanted`), every layout feature and name kept, its
    line metrics (hhea, OS/2 typo) set to ``ascent`` and ``descent`` em as :func:`fonts.compact_copy` does. Written to
    a ``.part`` file first, then put in place. Raises on any failure (fontTools missing, a broken font, no room)."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=face_number(source, family), lazy=False)
    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.notdef_outline = True
    options.hinting = True
    options.glyph_names = False
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=wanted() if points is None else set(points))
    subsetter.subset(font)
    units = font["head"].unitsPerEm
    up, down = round(ascent * units), -round(descent * units)
    hhea = font["hhea"]
    hhea.ascent, hhea.descent, hhea.lineGap = up, down, 0
    if "OS/2" in font:
        os2 = font["OS/2"]
        os2.sTypoAscender, os2.sTypoDescender, os2.sTypoLineGap = up, down, 0
    destination.parent.mkdir(parents=True, exist_ok=True)
    partial = destination.with_name(destination.name + ".part")
    try:
        with partial.open("wb") as out:
            font.save(out)
            out.flush()
            os.fsync(out.fileno())
        partial.replace(destination)
    finally:
        partial.unlink(missing_ok=True)
        font.close()


def face_number(source: str, family: str) -> int:
    """The index of the face of the collection ``source`` whose family is ``family`` (0: not a collection, or no
    face of that name)."""
    with open(source, "rb") as head:
        if head.read(4) != b"ttcf":
            return 0
    from fontTools.ttLib import TTCollection

    collection = TTCollection(source, lazy=True)
    try:
        for number, face in enumerate(collection.fonts):
            names = face["name"]
            if family in (names.getDebugName(16), names.getDebugName(1)):
                return number
        return 0
    finally:
        collection.close()


def start(jobs: Sequence[tuple[str, Path]], *, family: str, ascent: float, descent: float, wait: bool = False) -> bool:
    """Make the subsets ``jobs`` (font file, destination) in a separate low-priority process. Returns at once
    (True: started) unless ``wait`` (True: made). Never raises: what fails is logged (here or by that process)."""
    command = [sys.executable, "-m", "companion.ui.font_subset", "--family", family]
    command += ["--ascent", str(ascent), "--descent", str(descent)]
    for source, destination in jobs:
        command += [source, str(destination)]
    try:
        process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    except (OSError, subprocess.SubprocessError) as err:
        log.warning("font subset not started (%s); the full font is used", err)
        return False
    if wait:
        return _waited(process)
    threading.Thread(target=_waited, args=(process,), name="font-subset", daemon=True).start()
    log.info("making a smaller copy of the UI font in the background (process %d)", process.pid)
    return True


def _waited(process: subprocess.Popen[bytes]) -> bool:
    code = process.wait()
    if code != 0:
        log.warning("font subset not made (exit %s); the full font is used", code)
    return code == 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m companion.ui.font_subset [--family F] [--ascent A] [--descent D] SOURCE DESTINATION ...``:
    make each subset not already there (run so, at the lowest priority). 0 when all are there; 1 (and a warning, never a
    traceback) when one could not be made; 0 at once when another process is making them."""
    import fcntl

    logging.basicConfig(level=logging.WARNING, format="companion font subset: %(message)s")
    logging.getLogger("fontTools").setLevel(logging.ERROR)  # "FFTM NOT subset; dropped" and the like: as meant
    parser = argparse.ArgumentParser(prog="python -m companion.ui.font_subset")
    parser.add_argument("--family", default="")
    parser.add_argument("--ascent", type=float, required=True)
    parser.add_argument("--descent", type=float, required=True)
    parser.add_argument("files", nargs="+", metavar="SOURCE DESTINATION")
    args = parser.parse_args(argv)
    if len(args.files) % 2:
        parser.error("give a destination for every source")
    failed = False
    pairs = list(zip(args.files[::2], args.files[1::2], strict=True))
    for source, name in pairs:
        destination = Path(name)
        try:
            destination.parent.mkdir(parents=True, exist_ok=True)
            with (destination.parent / ".font-subset.lock").open("a") as lock:
                try:
                    fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                except OSError:
                    return 0  # another process is making them
                if not destination.exists():
                    remove_stale(destination.parent, destination, partial=True)
                    make(source, destination, family=args.family, ascent=args.ascent, descent=args.descent)
                    remove_stale(destination.parent, destination, partial=True)
        except ImportError as err:
            log.warning("no font subset made: fontTools is missing (%s); the full font is used", err)
            return 1
        except Exception as err:  # anything at all: the app goes on with the full font
            log.warning("%s: no subset made (%s: %s); the full font is used", source, type(err).__name__, err)
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    with contextlib.suppress(OSError):
        os.nice(19)  # the lowest priority: the app, the dice reader and the camera come first
    sys.exit(main())
