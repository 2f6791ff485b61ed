"""Ratuki's verdict banner: the headline and detail of a verdict in the players' words, drawn from textures
rendered ahead (a verdict shows in the frame its timer fires), the tones, and the round clock's text."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, ClassVar

from kivy.clock import Clock
from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.image import Image

from companion.games.base import Player
from companion.games.ratuki import SEPARATE
from companion.games.ratuki.referee import TAKE, TIE
from companion.games.ratuki.wording import shout
from companion.i18n import _
from companion.ui.widgets import readable_text

IDLE_COLOUR = (0.16, 0.16, 0.20, 1)
TIE_COLOUR = (1.0, 0.70, 0.0, 1)
SEPARATE_COLOUR = (0.20, 0.30, 0.42, 1)
TONES = {
    "take": [(784.0, 0.07), (1175.0, 0.12)],
    "tie": [(392.0, 0.09), (0.0, 0.04), (392.0, 0.09)],
}


def verdict_parts(kind: str, names: list[str], margin_ms: float | None, runner_up: str | None) -> tuple[str, str]:
    """Headline and detail shown for a verdict (together they read like ``ratuki.verdict_line``)."""
    if kind == TIE:
        return _("TIE: {names}").format(names=", ".join(names)), _("cards back to your discard piles")
    if kind == SEPARATE:
        return _("Different stacks: {names}").format(names=", ".join(names)), _("each takes their own stack")
    detail = (
        _("{ms} ms ahead of {name}").format(ms=f"{margin_ms:.0f}", name=runner_up)
        if margin_ms is not None and runner_up
        else ""
    )
    return _("{name} takes the stack").format(name=shout(names[0])), detail


def clock_text(seconds: float) -> str:
    """``m:ss`` for the round clock (``h:mm:ss`` past an hour)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


class VerdictText(Image):
    """Big one-line text drawn from a texture cache, scaled down to fit.

    Rendering a 46 px line costs tens of milliseconds on a small CPU; every verdict headline is rendered ahead
    (see :meth:`RatukiScreen.prewarm`), so showing a verdict only swaps a texture in the same frame."""

    text = StringProperty("")
    font_size = NumericProperty(dp(46))
    bold = BooleanProperty(True)
    color = ListProperty([1, 1, 1, 1])
    # Long lines (five tied names) wrap at this width, then scale down only if still too big.
    wrap_width = NumericProperty(dp(520))
    _cache: ClassVar[dict[tuple[str, float, bool, tuple[float, ...], float], Any]] = {}

    def __init__(self, **kwargs: Any) -> None:
        # -1: run just before this frame is drawn, once, after text and colour have both changed.
        self._update = Clock.create_trigger(self.update, -1)
        super().__init__(**kwargs)
        self.bind(
            text=self._update, color=self._update, font_size=self._update, bold=self._update, wrap_width=self._update
        )

    def update(self, *_args: Any) -> None:
        """Swap in the texture for the current text and colour (rendered now if not cached)."""
        if not self.text:
            # No line to show (an uncontested take has no margin): nothing drawn. An Image without a texture
            # draws a plain rectangle in its colour: it was a white bar under the headline.
            self.texture = None
            self.opacity = 0
            return
        self.opacity = 1
        self.texture = self.render(self.text, self.font_size, self.bold, self.color, self.wrap_width)

    @classmethod
    def render(cls, text: str, font_size: float, bold: bool, color: Any, wrap_width: float = dp(520)) -> Any:
        """The texture for ``text`` (cached): centred lines no wider than ``wrap_width``."""
        key = (text, float(font_size), bool(bold), tuple(float(c) for c in color), float(wrap_width))
        texture = cls._cache.get(key)
        if texture is None:
            label = CoreLabel(
                text=text,
                font_size=font_size,
                bold=bold,
                color=list(color),
                text_size=(wrap_width, None),
                halign="center",
            )
            label.refresh()
            texture = label.texture
            if len(cls._cache) > 256:
                cls._cache.clear()
            cls._cache[key] = texture
        return texture


def verdict_texts(players: Sequence[Player]) -> list[tuple[str, str, Any]]:
    """Every headline a verdict can show (each player taking, every tie), with its colours."""
    out: list[tuple[str, str, Any]] = []
    for player in players:
        out.append((verdict_parts(TAKE, [player.name], None, None)[0], "", readable_text(player.colour)))
    for size in range(2, len(players) + 1):
        for group in combinations(players, size):
            headline, detail = verdict_parts(TIE, [p.name for p in group], None, None)
            out.append((headline, detail, (0, 0, 0, 1)))
    return out
