"""What a player would see wrong with the text on screen: text cut off or shortened, text drawn outside its box
or off the window, two texts drawn over each other, characters drawn as missing-glyph boxes ("tofu").

Each visible label (buttons too) is measured against its own box from Kivy's layout of it: the lines Kivy kept
(a line or word dropped to fit, or an ellipsis, is text the player never reads) and the texture's size. Tofu is
found by drawing each character alone in the label's font and comparing it with that font's .notdef glyph
(what it draws for a code point it lacks).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

NOTDEF = "\U0010fffd"  # a private-use code point no UI font has: it draws the font's .notdef box
TOLERANCE = 2  # px a texture may pass its box by (rounding)
OVERLAP = 3  # px two texts may share in both directions before it counts
SPILL = 6  # px a label may reach out of its row (a 56 px button in a 52 px row reaches into the row's padding)

_MARKUP = re.compile(
    r"\[/?(?:b|i|u|s|sub|sup|color|size|font|font_context|font_family|font_features|ref|anchor|text_language)(?:=[^\]]*)?\]"
)


@dataclass
class Problem:
    where: str  # the screen/shot name
    kind: str  # clipped, shortened, broken word, overflow, outside its row, offscreen, overlap, tofu, small text
    text: str
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.where}: {self.kind}: {self.text[:70]!r} {self.detail}"


def plain(label: Any) -> str:
    text = str(label.text)
    if getattr(label, "markup", False):
        text = _MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return text


def _squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _visible(widget: Any, window: Any) -> bool:
    node = widget
    seen: set[int] = set()
    while node is not None and node is not window and id(node) not in seen:
        seen.add(id(node))
        if getattr(node, "opacity", 1) <= 0.01:
            return False
        node = node.parent
    return widget.width > 1 and widget.height > 1


def _window_rect(widget: Any) -> tuple[float, float, float, float]:
    x, y = widget.to_window(widget.x, widget.y)
    return x, y, x + widget.width, y + widget.height


def _clip_rect(widget: Any) -> tuple[float, float, float, float] | None:
    """The part of the window a widget's drawing can show in (inside every ScrollView around it)."""
    from kivy.uix.scrollview import ScrollView

    rect: tuple[float, float, float, float] | None = None
    node = widget.parent
    seen: set[int] = set()
    while node is not None and hasattr(node, "to_window") and id(node) not in seen:
        seen.add(id(node))
        if isinstance(node, ScrollView):
            r = _window_rect(node)
            rect = r if rect is None else _intersect(rect, r)
            if rect is None:
                return (0, 0, 0, 0)
        node = node.parent
    return rect


def _intersect(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float] | None:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x1 > x0 and y1 > y0 else None


def ink_rect(label: Any) -> tuple[float, float, float, float] | None:
    """Where the label's text is drawn, in window coordinates (the lines Kivy laid out, placed as halign and
    valign put them in the texture, the texture centred on the widget as Label's canvas draws it)."""
    core = label._label
    lines = getattr(core, "_cached_lines", None) or []
    lines = [line for line in lines if line.w > 0]
    if not lines:
        return None
    tw, th = label.texture_size
    width = max(line.w for line in lines)
    height = sum(line.h for line in lines)
    halign, valign = label.halign, label.valign
    pad_x, pad_y = (label.padding[0], label.padding[1]) if len(label.padding) >= 2 else (0, 0)
    if halign in ("left", "justify", "auto"):
        x = pad_x
    elif halign == "right":
        x = tw - width - pad_x
    else:
        x = (tw - width) / 2
    if valign == "top":
        top = pad_y
    elif valign == "bottom":
        top = th - height - pad_y
    else:
        top = (th - height) / 2
    cx, cy = label.to_window(label.center_x, label.center_y)
    left = cx - tw / 2 + x
    bottom = cy + th / 2 - top - height
    return left, bottom, left + width, bottom + height


class TofuFinder:
    """Draws characters alone and compares them with the font's .notdef glyph (cached per font and weight)."""

    def __init__(self) -> None:
        self.cache: dict[tuple[str, bool, str], bool] = {}
        self.notdef: dict[tuple[str, bool], tuple[Any, bytes]] = {}

    def _render(self, font: str, bold: bool, text: str) -> tuple[Any, bytes]:
        from kivy.core.text import Label as CoreLabel

        core = CoreLabel(text=text, font_name=font, bold=bold, font_size=22)
        core.refresh()
        texture = core.texture
        return tuple(texture.size), bytes(texture.pixels)

    def missing(self, label: Any, text: str) -> set[str]:
        font, bold = str(label.font_name), bool(label.bold)
        if (font, bold) not in self.notdef:
            self.notdef[(font, bold)] = self._render(font, bold, NOTDEF)
        out = set()
        for ch in set(text):
            if ch.isspace() or not ch.isprintable():
                continue
            key = (font, bold, ch)
            if key not in self.cache:
                self.cache[key] = self._render(font, bold, ch) == self.notdef[(font, bold)]
            if self.cache[key]:
                out.add(ch)
        return out


TOFU = TofuFinder()


def labels(root: Any, window: Any) -> list[Any]:
    from kivy.uix.label import Label

    return [w for w in root.walk(restrict=True) if isinstance(w, Label) and plain(w).strip() and _visible(w, window)]


def check(
    root: Any, window: Any, where: str, *, allow_shortened: set[str] | None = None, min_font: float | None = None
) -> list[Problem]:
    """Every problem with the text under ``root`` as it is drawn now. ``allow_shortened`` names texts that may be
    cut with an ellipsis by design (a player's long name where only its start fits). With ``min_font``, text
    asked for in a smaller size (a label's font size, or a ``[size=N]`` in its markup) is a problem too: a
    screen that shrinks a long translation below it is not readable at the table (#21 item 10), even where the
    type scale draws it at its smallest size (it is then too wide for the room it was shrunk for)."""
    allowed = allow_shortened or set()
    problems: list[Problem] = []
    drawn: list[tuple[Any, tuple[float, float, float, float]]] = []
    win = (0.0, 0.0, float(window.width), float(window.height))
    for label in labels(root, window):
        label.texture_update()
        text = plain(label)
        core = label._label
        lines = getattr(core, "_cached_lines", None) or []
        shown = "".join(word.text for line in lines for word in line.words)
        clip = _clip_rect(label)
        box = _window_rect(label)
        in_view = box if clip is None else _intersect(box, clip)
        if in_view is None:
            continue  # scrolled out of sight
        full, kept = _squash(text), _squash(shown)
        if kept != full:
            if label.shorten and ("..." in shown or "…" in shown):
                # a name cut where only its start fits: every other word still shown
                if not _only_names_cut(text, shown, allowed):
                    problems.append(Problem(where, "shortened", text, f"shows {shown!r}"))
            else:
                problems.append(Problem(where, "clipped", text, f"shows {shown!r}"))
        broken = _broken_words(text, lines)
        if broken:
            problems.append(Problem(where, "broken word", text, f"split as {broken!r}"))
        spill = _outside_layout(label)
        if spill:
            problems.append(Problem(where, "outside its row", text, spill))
        tw, th = label.texture_size
        if tw > label.width + TOLERANCE or th > label.height + TOLERANCE:
            problems.append(
                Problem(
                    where, "overflow", text, f"text {tw:.0f}x{th:.0f} in a box {label.width:.0f}x{label.height:.0f}"
                )
            )
        ink = ink_rect(label)
        if ink is not None:
            seen = ink if clip is None else _intersect(ink, clip)
            if seen is not None:
                inside = _intersect(seen, win)
                if inside is None or (
                    inside != seen
                    and (seen[2] - seen[0]) - (inside[2] - inside[0]) + (seen[3] - seen[1]) - (inside[3] - inside[1])
                    > TOLERANCE
                ):
                    problems.append(Problem(where, "offscreen", text, f"ink {tuple(round(v) for v in seen)}"))
                drawn.append((label, seen))
        if min_font is not None:
            sizes = [float(label.font_size)]
            if getattr(label, "markup", False):
                sizes += [float(n) for n in re.findall(r"\[size=(\d+(?:\.\d+)?)", str(label.text))]
            if min(sizes) < min_font - 0.01:
                problems.append(Problem(where, "small text", text, f"{min(sizes):.1f} px, under {min_font:g} px"))
        lost = TOFU.missing(label, text)
        if lost:
            problems.append(
                Problem(where, "tofu", text, "draws boxes for " + " ".join(f"U+{ord(c):04X}" for c in sorted(lost)))
            )
    for i, (a, ra) in enumerate(drawn):
        for b, rb in drawn[i + 1 :]:
            if _related(a, b):
                continue
            both = _intersect(ra, rb)
            if both is not None and both[2] - both[0] > OVERLAP and both[3] - both[1] > OVERLAP:
                problems.append(Problem(where, "overlap", plain(a), f"with {plain(b)[:50]!r}"))
    return problems


def _only_names_cut(text: str, shown: str, names: set[str]) -> bool:
    """Whether a shortened label lost only (parts of) players' names: every other word of it is still shown."""
    if not any(name and name in text for name in names):
        return False
    rest = text
    for name in sorted(names, key=len, reverse=True):
        if name:
            rest = rest.replace(name, " ")
    words = [w.strip(",.;:·()") for w in rest.split()]
    return all(word in shown for word in words if word)


def _outside_layout(label: Any) -> str:
    """Text drawn beyond the row or column that lays it out (a caption that wrapped to two lines in a one-line
    row, a title pushed up by a column too full): the part outside is drawn under its neighbours. A button counts
    by its face, a label by its ink. Only box and grid layouts place their children inside themselves; other
    parents may let a child reach out on purpose."""
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.gridlayout import GridLayout

    parent = label.parent
    if not isinstance(parent, BoxLayout | GridLayout) or parent.width <= 1 or parent.height <= 1:
        return ""
    drawn = _window_rect(label) if isinstance(label, Button) else ink_rect(label)
    if drawn is None:
        return ""
    x0, y0, x1, y1 = drawn
    p0, q0, p1, q1 = _window_rect(parent)
    out = max(p0 - x0, q0 - y0, x1 - p1, y1 - q1)
    if out > SPILL:
        return f"reaches {out:.0f} px out of its {type(parent).__name__}"
    return ""


def _broken_words(text: str, lines: list[Any]) -> list[str]:
    """Pieces of a word that Kivy split over two lines because the word alone is wider than the box ("Deshace" /
    "r"): rendered words that are no word of the text. Hangul and Han may break between any two characters (as
    Korean sets them), and a shortened word ends in an ellipsis: neither counts."""
    if len(lines) < 2:
        return []
    wanted = set(text.split())
    pieces = []
    for line in lines:
        for token in "".join(word.text for word in line.words).split():
            if token in wanted or "…" in token or "..." in token:
                continue
            if any(
                "\u1100" <= ch <= "\u11ff" or "\uac00" <= ch <= "\ud7a3" or "\u4e00" <= ch <= "\u9fff" for ch in token
            ):
                continue
            pieces.append(token)
    return pieces


def _related(a: Any, b: Any) -> bool:
    for x, y in ((a, b), (b, a)):
        node = y.parent
        seen: set[int] = set()
        while node is not None and id(node) not in seen:
            if node is x:
                return True
            seen.add(id(node))
            node = node.parent
    return False
