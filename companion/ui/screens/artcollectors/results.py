"""Art Collectors' results: the working per painting (counts, winner and why), the ranking, what was not counted,
and Home or Rematch. Layout in ``results.kv``."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion.games.artcollectors import wording, working
from companion.games.artcollectors.wording import place
from companion.i18n import _
from companion.ui.contrast import legible_rgba
from companion.ui.screens import load_kv
from companion.ui.screens.artcollectors.widgets import ACPanel, ACRank, ACTile, hex_rgba, painting_colour
from companion.ui.widgets import readable_text


class ACResults(ACPanel):
    """The working (per painting: counts, winner, why) and the ranking."""

    def fill(self, state: dict[str, Any]) -> None:
        """Per painting: each player's count, the winner and why; the ranking; the tokens not counted."""
        result = working(state)
        ids = self.ids
        names = state["players"]
        width = dp(52) if len(names) <= 3 else dp(44)
        head = ids.head
        head.clear_widgets()
        head.add_widget(Label(text="#", size_hint_x=None, width=dp(44), font_size=dp(16)))
        for seat, name in enumerate(names):
            head.add_widget(
                Label(
                    text=name,
                    size_hint_x=None,
                    width=width,
                    font_size=dp(16),
                    color=legible_rgba(state["colours"][seat]),
                    text_size=(width, None),
                    halign="center",
                    shorten=True,
                    shorten_from="right",
                )
            )
        why_head = Label(text=_("won by · why"), font_size=dp(16), halign="left", valign="middle")
        why_head.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        head.add_widget(why_head)
        rows = ids.rows
        rows.clear_widgets()
        for row in result["paintings"]:
            line = BoxLayout(
                size_hint_y=None, height=dp(28) if len(result["paintings"]) <= 10 else dp(26), spacing=dp(1)
            )
            line.add_widget(
                ACTile(text=str(row["painting"]), tile=painting_colour(row["painting"]), size_hint_x=None, width=dp(44))
            )
            for seat, n in enumerate(row["counts"]):
                mark = f"[b]{n}[/b]" if row["winner"] == seat else str(n)
                line.add_widget(Label(text=mark, markup=True, size_hint_x=None, width=width, font_size=dp(17)))
            winner = row["winner"]
            who = "—" if winner is None else f"[b]{escape_markup(names[winner])}[/b] +{row['value']}"
            # 16 px and whole: a long reason takes a second line and its row grows (it was 14 px, cut)
            why = Label(
                text=f"{who} · {escape_markup(wording.reason_text(row, result, state))}",
                markup=True,
                font_size=dp(16),
                halign="left",
                valign="middle",
            )
            low = line.height
            why.bind(width=lambda lab, w: setattr(lab, "text_size", (w, None)))
            why.bind(texture_size=lambda lab, ts, ln=line, low=low: setattr(ln, "height", max(low, ts[1] + dp(4))))
            why.bind(height=lambda lab, h: setattr(lab, "text_size", (lab.width, None)))
            line.add_widget(why)
            rows.add_widget(line)
        ranking = ids.ranking
        ranking.clear_widgets()
        for player in sorted(result["players"], key=lambda p: (p["rank"], p["name"])):
            seat = names.index(player["name"])
            colour = state["colours"][seat]
            ranking.add_widget(
                ACRank(
                    place(int(player["rank"])),
                    player["name"],
                    player["total"],
                    _("{tokens} token pts + {paintings} paintings").format(
                        tokens=player["token_points"], paintings=player["painting_points"]
                    ),
                    tile=hex_rgba(colour),
                    ink=readable_text(colour),
                )
            )
        short = [row for row in result["paintings"] if row["total"] < row["tokens"]]
        ids.notes.text = (
            _("Not counted: {listed}").format(
                listed=", ".join(
                    _("{n} of painting {painting}").format(n=r["tokens"] - r["total"], painting=r["painting"])
                    for r in short
                )
            )
            if short
            else _("Every token is counted.")
        )


load_kv("artcollectors/results")
