"""Art Collectors' pile tracker: whose turn, this turn's tokens (tap one to put it on top), every player's pile,
the moves on offer (steal, swap, take, Robin Tell), and the picker of the token drawn. Taps are forwarded to the
screen; layout in ``tracker.kv``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion.games.artcollectors import ENGINE, black_cat_painting, painting_of, plain, protected, steal_run
from companion.games.artcollectors.wording import short_name
from companion.games.base import Action
from companion.i18n import _, ngettext
from companion.ui.fit import shorten
from companion.ui.screens import load_kv
from companion.ui.screens.artcollectors.widgets import (
    ACChip,
    ACPanel,
    ACTile,
    hex_rgba,
    painting_colour,
    pile_depth_shown,
)
from companion.ui.widgets import readable_text


def turn_order(order: list[str], tokens: list[str]) -> list[str]:
    """This turn's tokens in the order the player chose (``order``, the top one last), then the tokens new to it
    in drawing order."""
    left = Counter(tokens)  # matched by count: an undone draw or a stolen run can leave a code fewer times
    kept: list[str] = []
    for code in [*order, *tokens]:  # the player's order first, then tokens new to it in drawing order
        if left[code] > 0:
            kept.append(code)
            left[code] -= 1
    return kept


class ACTracker(ACPanel):
    """The current turn, the piles, the moves on offer and the draw picker."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.picks: dict[str, ACChip] = {}
        self.pile_views: list[dict[str, Any]] = []
        self._right_children = list(reversed(self.ids.right.children))  # the picker's, put back after a deal

    def build(self, state: dict[str, Any]) -> None:
        """A painting to tap for each kind of token, and a column per pile (made once a game)."""
        self.picks = {}
        picker = self.ids.picker
        picker.clear_widgets()
        for code in state["kinds"]:
            chip = ACChip(tile=painting_colour(painting_of(code)))
            chip.bind(on_release=lambda _b, c=code: self.screen.draw(c))
            self.picks[code] = chip
            picker.add_widget(chip)
        self._build_piles(state)

    def _show_robin(self, state: dict[str, Any], plan: dict[str, Any]) -> None:
        robin = self.screen.robin
        right = self.ids.right
        if robin not in right.children:
            right.clear_widgets()
            right.add_widget(robin)
        robin.fill(state, plan)

    def fill(self, state: dict[str, Any]) -> None:
        """Whose turn, this turn's tokens in the order chosen (the top one last), the piles, the moves on offer,
        and the draw picker (or Robin Tell's deal while it is planned)."""
        screen = self.screen
        ids = self.ids
        seat = int(state["current"])
        colour = state["colours"][seat]
        whose = ids.whose
        name = shorten(  # the name is what gets cut when long, never "'s turn"
            state["players"][seat],
            whose.width - dp(4),
            whose.font_size,
            bold=whose.bold,
            around=lambda n: _("{name}'s turn").format(name=n),
        )
        whose.text = _("{name}'s turn").format(name=f"[color={colour.lstrip('#')}]{escape_markup(name)}[/color]")
        kept = screen.order
        turn = ids.turn
        turn.clear_widgets()
        room = ids.turn_scroll.width or dp(500)
        gaps = dp(3) * max(0, len(kept) - 1)
        size = max(dp(48), min(dp(60), (room - gaps) / max(1, len(kept))))
        for index, code in enumerate(kept):
            # TRANSLATORS: under the token that will lie on top of the pile
            top = _("top") if index == len(kept) - 1 else ""
            label = plain(code) + ("*" if code != plain(code) else "")
            chip = ACChip(
                text=f"{label}\n[size={int(dp(16))}]{top}[/size]",
                tile=painting_colour(painting_of(code)),
                size_hint_x=None,
                width=size,
            )
            chip.bind(on_release=lambda _b, i=index: screen.put_on_top(i))
            turn.add_widget(chip)
        if not kept:
            turn.add_widget(Label(text=_("no tokens drawn yet"), font_size=dp(16), color=(0.75, 0.75, 0.8, 1)))
        ids.turn_scroll.scroll_x = 1  # the top token (rightmost) in view
        options = ENGINE.options(state)
        ids.stop.disabled = not options["stop"]
        self._fill_piles(state)
        self._fill_moves(state, options)
        if screen.robin_plan is not None:
            self._show_robin(state, screen.robin_plan)
        else:
            self._show_picker(state, options)

    def _build_piles(self, state: dict[str, Any]) -> None:
        """One column per player, made once: name, size, the top tokens, how many lie below."""
        piles = self.ids.piles
        piles.clear_widgets()
        self.pile_views = []
        for seat, colour in enumerate(state["colours"]):
            column = BoxLayout(orientation="vertical", spacing=dp(1))
            name = ACTile(
                tile=hex_rgba(colour),
                color=readable_text(colour),
                size_hint_y=None,
                height=dp(26),
                font_size=dp(16),
                shorten=True,
                halign="center",
                valign="middle",
            )
            name.bind(size=lambda lab, size: setattr(lab, "text_size", size))
            # the size and what lies below: 16 px, on two lines in a narrow column ("12 tokens · angel")
            size = Label(size_hint_y=None, height=dp(42), font_size=dp(16), halign="center", valign="top")
            size.bind(width=lambda lab, w: setattr(lab, "text_size", (w, None)))
            tiles = [
                ACTile(
                    size_hint_y=None,
                    height=dp(30) if depth == 0 else dp(24),
                    font_size=dp(18) if depth == 0 else dp(16),
                )
                for depth in range(pile_depth_shown(state))
            ]
            below = Label(size_hint_y=None, height=dp(42), font_size=dp(16), halign="center", valign="top")
            below.bind(width=lambda lab, w: setattr(lab, "text_size", (w, None)))
            for widget in (name, size, *tiles, below, Label()):
                column.add_widget(widget)
            piles.add_widget(column)
            self.pile_views.append({"seat": seat, "name": name, "size": size, "tiles": tiles, "below": below})

    def _fill_piles(self, state: dict[str, Any]) -> None:
        few = len(state["piles"]) <= 3
        depth_shown = pile_depth_shown(state)
        for view in self.pile_views:
            seat = view["seat"]
            pile = state["piles"][seat]
            view["name"].text = ("» " if seat == state["current"] else "") + state["players"][seat]
            size = ngettext("{n} token", "{n} tokens", len(pile)).format(n=len(pile)) if few else str(len(pile))
            if protected(state, seat):
                # TRANSLATORS: under a pile's size: an angel on top guards the pile
                size = _("{size} · angel").format(size=size)
            view["size"].text = size
            shown = list(reversed(pile[-depth_shown:]))
            for depth, tile in enumerate(view["tiles"]):
                if depth < len(shown):
                    code = shown[depth]
                    tile.text = plain(code) + ("*" if code != plain(code) else "")  # * = black cat, as in the turn
                    tile.tile = painting_colour(painting_of(code))
                    tile.opacity = 1 if depth == 0 else 0.8
                else:
                    tile.text = ""
                    tile.opacity = 0
            hidden = len(pile) - len(shown)
            view["below"].text = _("+{n} below").format(n=hidden) if hidden > 0 else ""

    def _fill_moves(self, state: dict[str, Any], options: dict[str, Any]) -> None:
        screen = self.screen
        moves = self.ids.moves
        moves.clear_widgets()
        names = state["players"]
        piles = state["piles"]
        turn = state["turn"]
        offers: list[tuple[str, Action]] = []
        if screen.robin_plan is not None:  # one thing at a time: finish or cancel the deal first
            note = Label(
                text=_("Robin Tell's deal: Deal or Cancel first"),
                size_hint=(1, None),
                height=dp(52),
                font_size=dp(16),
                color=(0.75, 0.75, 0.8, 1),
                halign="center",
            )
            note.bind(width=lambda w, width: setattr(w, "text_size", (width, None)))  # two lines when it must
            moves.add_widget(note)
            return
        if state["settings"]["steal_hints"]:
            for seat in options["steal"]:
                number = painting_of(piles[seat][-1])
                run = steal_run(state, seat)
                offers.append(
                    (
                        _("Steal {n}×{painting} from {name}").format(n=run, painting=number, name=names[seat]),
                        {"type": "steal", "from": seat},
                    )
                )
        elif turn["last"] is not None and turn["cat"] != "exchange":
            # No hints: offer every other pile; the player claims, the rules judge (as at the table).
            for seat in range(len(piles)):
                if seat != state["current"] and piles[seat]:
                    offers.append((_("Steal from {name}").format(name=names[seat]), {"type": "steal", "from": seat}))
        for seat in options["exchange"]:
            top = plain(piles[seat][-1])
            offers.append(
                (
                    _("Swap cat for {name}'s {token}").format(name=names[seat], token=top),
                    {"type": "exchange", "with": seat},
                )
            )
        for seat in options["take"]:
            top = plain(piles[seat][-1])
            offers.append(
                (
                    _("Ladies take {name}'s {token} ({n} left)").format(name=names[seat], token=top, n=turn["ladies"]),
                    {"type": "take", "from": seat},
                )
            )
        robin = [(_("Robin Tell: {name}'s pile").format(name=names[seat]), seat) for seat in options["robin"]]
        count = len(offers) + len(robin)
        width = moves.width or dp(372)
        per_row = 2 if count <= 4 else 3 if count <= 6 else 4
        button_width = (width - dp(4) * (per_row - 1)) / per_row - 1

        def offer(text: str, colour: tuple[float, ...], chosen: Callable[[], object]) -> None:
            button = Button(
                text=text, font_size=dp(16), size_hint=(None, None), size=(button_width, dp(52)), halign="center"
            )
            button.text_size = (button_width - dp(6), None)
            button.background_normal = ""
            button.background_color = colour
            button.bind(on_release=lambda _b: chosen())
            moves.add_widget(button)

        for text, action in offers:
            offer(text, (0.10, 0.45, 0.55, 1), partial(screen.move, action))
        for text, seat in robin:
            offer(text, (0.45, 0.25, 0.55, 1), partial(screen.robin_start, seat))
        if not count:
            hint = _("Tap a painting to enter the token drawn.")
            if turn["drawn"]:
                hint = _("Draw again, or choose the top token and Stop.")
            moves.add_widget(
                Label(text=hint, size_hint=(1, None), height=dp(52), font_size=dp(16), color=(0.75, 0.75, 0.8, 1))
            )

    def _show_picker(self, state: dict[str, Any], options: dict[str, Any]) -> None:
        right = self.ids.right
        if self.screen.robin in right.children:
            right.clear_widgets()
            for child in self._right_children:
                right.add_widget(child)
        for code, chip in self.picks.items():
            left = int(state["bag"][code])
            name = short_name(state, code)
            remaining = ngettext("{n} left", "{n} left", left).format(n=left)
            small = int(dp(16))  # the character and the count under the painting's number, at 16 px like all text
            chip.text = f"{plain(code)}  [size={small}]{name}[/size]\n[size={small}]{remaining}[/size]"
            chip.disabled = code not in options["draw"]
            chip.opacity = 1 if left else 0.35
        cat = self.ids.black_cat
        cat.disabled = not state["black_cat_in_bag"]
        if cat.disabled:
            cat.state = "normal"
        known = black_cat_painting(state)
        if not state["black_cat_in_bag"]:
            cat.text = _("Black cat (*) is out of the bag")
        elif known:
            cat.text = _("Next draw is the black-cat {painting} (*)").format(painting=known)
        else:
            cat.text = _("Next draw is the black cat (*)")


load_kv("artcollectors/tracker")
