"""Charts of plays, drawn with matplotlib's Agg backend into an RGBA buffer (the UI puts it in a texture).

matplotlib is imported only when a chart is drawn (it costs ~30 MB and a second or two on a Pi), and nothing
here needs Kivy, so the charts are tested as pictures without a window. Sizes are in screen pixels: text is at
least 16 px and lines 3 px at 800x480, so a chart reads at arm's length on the 7" screen. Players are labelled
at the end of their lines in their own colours (no legend to match up).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.i18n import _

BACKGROUND = "#1e1e24"  # the app's background (0.118, 0.118, 0.141)
TEXT = "#e8e8ee"
MUTED = "#9aa0b0"
GRID = "#3a3a48"
GOLD = "#ffca28"
DPI = 100
PX = 72 / DPI  # points per pixel at this dpi (matplotlib sizes text in points)


@dataclass(frozen=True)
class Who:
    """A player as a chart shows them: name and colour (``#rrggbb``)."""

    name: str
    colour: str


@dataclass(frozen=True)
class Picture:
    """A drawn chart: ``width`` x ``height`` pixels of RGBA, top row first."""

    width: int
    height: int
    rgba: bytes


def readable(colour: str, background: str = BACKGROUND, ratio: float = 4.5) -> str:
    """``colour`` lightened until it reads on the dark background (WCAG contrast >= ``ratio``)."""

    def channel(value: float) -> float:
        return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

    def luminance(rgb: Sequence[float]) -> float:
        r, g, b = (channel(v) for v in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    def parse(text: str) -> list[float]:
        text = text.lstrip("#")
        try:
            return [int(text[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        except ValueError:
            return [1.0, 1.0, 1.0]

    rgb, bg = parse(colour), luminance(parse(background))
    for _step in range(20):
        if (luminance(rgb) + 0.05) / (bg + 0.05) >= ratio:
            break
        rgb = [v + (1 - v) * 0.15 for v in rgb]
    return "#" + "".join(f"{round(v * 255):02x}" for v in rgb)


@functools.cache
def _matplotlib() -> Any:
    """matplotlib with the Agg backend and fonts for every script a name may be in (Hangul through a CJK font
    where one is installed: fonts-noto-cjk or fonts-nanum)."""
    import matplotlib

    matplotlib.use("Agg", force=True)
    from matplotlib import font_manager

    families = ["DejaVu Sans"]
    installed = {f.name for f in font_manager.fontManager.ttflist}
    for family in ("Noto Sans CJK KR", "Noto Sans CJK JP", "NanumGothic", "NanumBarunGothic", "Noto Sans KR"):
        if family in installed:
            families.append(family)
            break
    matplotlib.rcParams.update(
        {
            "font.family": families,
            "axes.unicode_minus": False,
            "figure.facecolor": BACKGROUND,
            "axes.facecolor": BACKGROUND,
            "axes.edgecolor": GRID,
            "axes.labelcolor": TEXT,
            "text.color": TEXT,
            "xtick.color": MUTED,
            "ytick.color": MUTED,
            "grid.color": GRID,
            "font.size": 16 * PX,
        }
    )
    return matplotlib


def _figure(width: int, height: int) -> Any:
    _matplotlib()
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width / DPI, height / DPI), dpi=DPI)
    return fig


def render(fig: Any) -> Picture:
    """Draw a figure into RGBA pixels."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()  # type: ignore[no-untyped-call]
    width, height = canvas.get_width_height()
    return Picture(int(width), int(height), bytes(canvas.buffer_rgba()))  # type: ignore[no-untyped-call]


def _style(ax: Any) -> None:
    ax.grid(True, axis="y", linewidth=1)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.tick_params(labelsize=16 * PX, length=0, pad=6)


def _label_ends(ax: Any, ends: list[tuple[float, float, str, str]], span: float) -> None:
    """Names at the right end of their lines, nudged apart so none overlap."""
    gap = span * 0.075
    placed: list[float] = []
    for x, y, text, colour in sorted(ends, key=lambda e: e[1]):
        at = y
        for other in placed:
            if abs(at - other) < gap:
                at = other + gap
        placed.append(at)
        ax.annotate(
            text,
            xy=(x, y),
            xytext=(x, at),
            textcoords="data",
            xycoords="data",
            fontsize=17 * PX,
            fontweight="bold",
            color=readable(colour),
            va="center",
            ha="left",
            annotation_clip=False,
        )


def ratuki_progression(
    rounds: Sequence[dict[str, Any]], players: dict[int, Who], target: int | None, *, size: tuple[int, int]
) -> Any:
    """Ratuki: each player's running total after every round (0 before the first), the target as a line."""
    fig = _figure(*size)
    ax = fig.add_axes((0.08, 0.13, 0.72, 0.77))
    _style(ax)
    xs = list(range(len(rounds) + 1))
    ends = []
    lows, highs = [0.0], [float(target or 0)]
    for seat, who in sorted(players.items()):
        total, ys = 0.0, [0.0]
        for record in rounds:
            total += float(record.get(str(seat), 0) or 0)
            ys.append(total)
        ax.plot(xs, ys, color=readable(who.colour, ratio=3.0), linewidth=3.5, marker="o", markersize=7)
        ends.append((xs[-1] + 0.15, ys[-1], f"{who.name} {ys[-1]:.0f}", who.colour))
        lows.append(min(ys))
        highs.append(max(ys))
    if target:
        ax.axhline(target, color=GOLD, linewidth=2, linestyle=(0, (6, 4)))
        ax.annotate(
            _("target {points}").format(points=target),
            xy=(0, target),
            xytext=(4, 6),
            textcoords="offset points",
            color=GOLD,
            fontsize=16 * PX,
        )
    span = max(highs) - min(lows) or 1.0
    ax.set_ylim(min(lows) - span * 0.05, max(highs) + span * 0.1)
    ax.set_xlim(-0.1, max(1, len(rounds)) + 0.1)
    ax.set_xticks(xs)
    ax.set_xticklabels(["0", *(str(i) for i in xs[1:])])
    ax.set_xlabel(_("round"), fontsize=16 * PX)
    ax.set_title(_("Score after each round"), fontsize=20 * PX, loc="left", color=TEXT, pad=10)
    _label_ends(ax, ends, span)
    return fig


def results_over_time(
    points: Sequence[tuple[float, float | None, bool]],
    who: Who,
    *,
    lowest_wins: bool,
    title: str,
    size: tuple[int, int],
) -> Any:
    """One player's score in each play of a game, oldest left; wins as gold stars; the average dashed. In a
    lowest-wins game the axis runs downwards, so better is always up."""
    fig = _figure(*size)
    ax = fig.add_axes((0.09, 0.17, 0.86, 0.71))
    _style(ax)
    xs = [i + 1 for i, (_when, score, _won) in enumerate(points) if score is not None]
    ys = [float(score) for _when, score, _won in points if score is not None]
    wins = [(i + 1, float(score)) for i, (_when, score, won) in enumerate(points) if won and score is not None]
    colour = readable(who.colour, ratio=3.0)
    if xs:
        ax.plot(xs, ys, color=colour, linewidth=3, marker="o", markersize=9, zorder=2)
        ax.axhline(sum(ys) / len(ys), color=MUTED, linewidth=1.5, linestyle=(0, (5, 4)), zorder=1)
        ax.annotate(
            _("average {score:.1f}").format(score=sum(ys) / len(ys)),
            xy=(1, sum(ys) / len(ys)),
            xytext=(0, 6),
            textcoords="offset points",
            color=MUTED,
            fontsize=15 * PX,
        )
    if wins:
        ax.scatter(
            [x for x, _y in wins], [y for _x, y in wins], marker="*", s=520, color=GOLD, zorder=3, edgecolors="none"
        )
    from companion import formatting

    days = [formatting.day(when) for when, _s, _w in points]
    # Several plays on one day (a games night) are told apart by their time, under the day.
    labels = [
        f"{day}\n{formatting.time(when)}" if days.count(day) > 1 else day
        for day, (when, _s, _w) in zip(days, points, strict=True)
    ]
    step = max(1, len(labels) // (8 if len(set(days)) == len(days) else 6))
    ticks = list(range(1, len(labels) + 1))[::step]
    ax.set_xticks(ticks)
    ax.set_xticklabels([labels[t - 1] for t in ticks])
    ax.set_xlim(0.5, max(1, len(points)) + 0.5)
    if ys:
        lo, hi = min(ys), max(ys)
        pad = (hi - lo) * 0.15 or 2.0
        ax.set_ylim((hi + pad, lo - pad) if lowest_wins else (lo - pad, hi + pad))
        if all(float(y).is_integer() for y in ys):  # whole points: no 23.5 on the axis
            from matplotlib.ticker import MaxNLocator

            ax.yaxis.set_major_locator(MaxNLocator(nbins=6, integer=True))
    note = _("lower is better") if lowest_wins else _("higher is better")
    ax.set_ylabel(_("score ({which})").format(which=note), fontsize=15 * PX, color=MUTED)
    ax.set_title(title, fontsize=20 * PX, loc="left", color=TEXT, pad=10)
    return fig


def lowdown_breakdown(
    breakdown: dict[str, dict[str, Any]],
    grids: Sequence[str],
    players: dict[int, Who],
    winners: Sequence[int],
    *,
    shaded_points: int = 6,
    size: tuple[int, int],
) -> Any:
    """Lowdown: each player's total as a bar of its parts (numbers left in each grid, then shaded squares at
    +6), lowest (the winner) on top; what crossed lines took off is said at the bar's end."""
    fig = _figure(*size)
    ax = fig.add_axes((0.17, 0.17, 0.8, 0.72))
    _style(ax)
    ax.grid(True, axis="x", linewidth=1)
    ax.grid(False, axis="y")
    greys = ["#5c6bc0", "#26a69a", "#8d6e63", "#78909c"]
    rows = []
    for seat, who in players.items():
        parts = breakdown.get(str(seat))
        if parts:
            rows.append((sum(parts["kept"]) + parts["shaded"] * shaded_points, seat, who, parts))
    rows.sort(key=lambda r: (r[0], r[1]), reverse=True)  # lowest total drawn last: the top bar
    longest = max((r[0] + 0.0 for r in rows), default=1.0) or 1.0
    for y, (total, seat, _who, parts) in enumerate(rows):
        left = 0.0
        for g, value in enumerate(parts["kept"]):
            if value:
                ax.barh(y, value, left=left, color=greys[g % len(greys)], height=0.62, edgecolor=BACKGROUND)
                if value >= longest * 0.06:
                    ax.text(left + value / 2, y, str(value), ha="center", va="center", fontsize=15 * PX)
            left += value
        if parts["shaded"]:
            width = parts["shaded"] * shaded_points
            ax.barh(y, width, left=left, color="#c62828", height=0.62, hatch="//", edgecolor="#ef9a9a")
            ax.text(left + width / 2, y, f"+{width}", ha="center", va="center", fontsize=15 * PX, fontweight="bold")
            left += width
        crowned = "★ " if seat in winners else ""
        note = ngettext_lines(int(parts["lines"]), int(parts["crossed_out"]))
        ax.text(left + longest * 0.02, y, f"{crowned}{total:.0f}   {note}", va="center", fontsize=16 * PX)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r[2].name for r in rows], fontsize=18 * PX, fontweight="bold")
    for tick, row in zip(ax.get_yticklabels(), rows, strict=True):
        tick.set_color(readable(row[2].colour))
    ax.set_xlim(0, longest * 1.75)
    ax.set_xlabel(_("points (lowest wins)"), fontsize=15 * PX, color=MUTED)
    from matplotlib.patches import Patch

    handles = [Patch(color=greys[g % len(greys)], label=name) for g, name in enumerate(grids)]
    handles.append(
        Patch(facecolor="#c62828", edgecolor="#ef9a9a", hatch="//", label=_("shaded +{n}").format(n=shaded_points))
    )
    ax.legend(
        handles=handles,
        loc="lower left",
        bbox_to_anchor=(0, 1.0),
        ncol=len(handles),
        frameon=False,
        fontsize=15 * PX,
        handlelength=1.2,
        columnspacing=1.2,
        borderaxespad=0.2,
    )
    return fig


def ngettext_lines(lines: int, crossed: int) -> str:
    from companion.i18n import ngettext

    if not lines:
        return _("no lines crossed")
    return ngettext("{n} line crossed (−{points})", "{n} lines crossed (−{points})", lines).format(
        n=lines, points=crossed
    )
