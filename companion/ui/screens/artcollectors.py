"""Art Collectors screen: setup summary, the end-of-game count, results with the working, and the pile tracker.

Every tap that changes the game is one engine action through :meth:`GameScreen.act` (journaled, undoable);
the only local state is what a screen needs between taps: which player's counts are shown, the order chosen for
this turn's tokens, and Robin Tell's deal while it is being planned.
"""

from __future__ import annotations

import colorsys
from collections import Counter
from functools import partial
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton
from kivy.utils import escape_markup, get_color_from_hex

from companion.games.artcollectors import (
    ENGINE,
    black_cat_painting,
    painting_of,
    plain,
    protected,
    top_run,
    wording,
    working,
)
from companion.games.artcollectors.wording import painting_characters, place, short_name
from companion.games.base import Action
from companion.i18n import _, and_list, ngettext
from companion.ui.contrast import legible_rgba
from companion.ui.fit import keep_fitted, shorten, text_width, two_lines
from companion.ui.screens import load_kv
from companion.ui.screens.game import GameScreen
from companion.ui.widgets import dialog, readable_text
from hardware.buttons import ButtonEvent

load_kv("artcollectors")

PILE_TOKENS_SHOWN = 6


def painting_colour(number: int) -> list[float]:
    """A distinct tile colour per painting (hue around the wheel), dark enough for white text."""
    r, g, b = colorsys.hsv_to_rgb(((number - 1) * 0.093) % 1.0, 0.62, 0.62)
    return [r, g, b, 1.0]


def pile_depth_shown(state: dict[str, Any]) -> int:
    """Tokens shown per pile: piles are blind stacks ("sense mirar les fitxes anteriors") and nobody may help
    spot equal tokens, so only the top one shows unless the table turned steal hints on."""
    return PILE_TOKENS_SHOWN if state["settings"]["steal_hints"] else 1


def hex_rgba(colour: str) -> list[float]:
    return list(get_color_from_hex(colour))


def chunks_from_gives(gives: list[int]) -> list[dict[str, int]]:
    """Robin Tell's deal: consecutive tokens given to the same player travel as one stack (order kept)."""
    deal: list[dict[str, int]] = []
    for seat in gives:
        if deal and deal[-1]["to"] == seat:
            deal[-1]["count"] += 1
        else:
            deal.append({"to": seat, "count": 1})
    return deal


def name_text(name: str, room: float, size: float, smaller: float) -> tuple[str, float]:
    """A player's name on a button: one line at ``size`` when it fits, else two lines at ``smaller``."""
    if text_width(name, size) <= room:
        return name, size
    return two_lines(name, room, smaller), smaller


class ACChip(Button):
    """A tappable token or painting tile."""

    tile = ListProperty([0.3, 0.3, 0.3, 1])
    ink = ListProperty([1, 1, 1, 1])


class ACTile(Label):
    """A token shown in a pile (not tappable)."""

    tile = ListProperty([0.3, 0.3, 0.3, 1])


class ACRank(BoxLayout):
    """A player's place in the final ranking: place and name (wrapped or shortened to fit), the total in full
    beside them, and how it is made up below."""

    tile = ListProperty([0.3, 0.3, 0.3, 1])
    ink = ListProperty([1, 1, 1, 1])

    def __init__(self, place: str, name: str, total: int, detail: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        ids = self.ids
        ids.total.text = str(total)

        def head(room: float) -> tuple[str, float]:
            # one line of 16 px (text is never smaller): the place, then the name, shortened when long
            return shorten(f"{place} {name}", room, dp(16), bold=True), dp(16)

        keep_fitted(ids.head, head, margin=dp(2))
        ids.detail.text = detail  # 16 px, wrapped to two lines where the tile is narrow


class ACCountCell(BoxLayout):
    """Counter for one painting of the shown player: − value +."""

    screen = ObjectProperty(None, allownone=True)
    painting = NumericProperty(0)
    caption = StringProperty("")
    value = NumericProperty(0)
    full = BooleanProperty(False)


class ACPanel(BoxLayout):
    """Base of the screen's panels: they know their screen."""

    screen = ObjectProperty(None, allownone=True)


class ACSummary(ACPanel):
    """What was set up: players, paintings in play, the mode."""


class ACCount(ACPanel):
    """Tokens per painting per player, and who holds the black cat."""


class ACResults(ACPanel):
    """The working (per painting: counts, winner, why) and the ranking."""


class ACTracker(ACPanel):
    """The current turn, the piles, the moves on offer and the draw picker."""


class ACRobin(ACPanel):
    """Robin Tell's deal: give the taken pile out token by token."""


class ArtCollectorsScreen(GameScreen):
    """The game screen; panels switch with the engine's phase."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.show_summary = False
        self.count_seat = 0
        self.order: list[str] = []
        self.robin_plan: dict[str, Any] | None = None
        self.score_warned: list[tuple[str, int]] | None = None  # the uncounted tokens Score last warned about
        self.summary = ACSummary(screen=self)
        self.count = ACCount(screen=self)
        self.results = ACResults(screen=self)
        self.tracker = ACTracker(screen=self)
        self.robin = ACRobin(screen=self)
        self.cells: dict[str, ACCountCell] = {}
        self.picks: dict[str, ACChip] = {}
        self._right_children: list[Any] = []
        self.pile_views: list[dict[str, Any]] = []

    @property
    def state(self) -> dict[str, Any]:
        assert self.session is not None
        return self.session.state

    # -- life cycle --------------------------------------------------------------------------------------

    def on_session(self) -> None:
        state = self.state
        self.show_summary = not self.session.actions if self.session else False
        self.count_seat = 0
        self.order = []
        self.robin_plan = None
        self._build_summary(state)
        self.cells = {}
        grid = self.count.ids.cells
        grid.clear_widgets()
        for key in state["order"]:
            cell = ACCountCell(screen=self, painting=int(key))
            self.cells[key] = cell
            grid.add_widget(cell)
        self.picks = {}
        picker = self.tracker.ids.picker
        picker.clear_widgets()
        for code in state["kinds"]:
            chip = ACChip(tile=painting_colour(painting_of(code)))
            chip.bind(on_release=lambda _b, c=code: self.draw(c))
            self.picks[code] = chip
            picker.add_widget(chip)
        if not self._right_children:
            self._right_children = list(reversed(self.tracker.ids.right.children))
        self._build_piles(state)

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.state
        body = self.ids.body
        if self.show_summary and not self.session.actions:
            panel: ACPanel = self.summary
        elif state["phase"] == "over":
            panel = self.results
            self._fill_results(state)
        elif state["phase"] == "count":
            panel = self.count
            self._fill_count(state)
        else:
            panel = self.tracker
            self._fill_tracker(state)
        if panel not in body.children:  # ids are weak proxies: compare by membership
            body.clear_widgets()
            body.add_widget(panel)

    def leave_summary(self) -> None:
        self.show_summary = False
        self.refresh()

    def _build_summary(self, state: dict[str, Any]) -> None:
        ids = self.summary.ids
        names = ", ".join(state["players"])
        mode = _("pile tracker") if state["settings"]["tracker"] else _("final count only")
        game = _("full game") if state["settings"]["full_game"] else _("basic game")
        ids.players.text = ngettext(
            "{n} player: {names} · {mode} · {game}", "{n} players: {names} · {mode} · {game}", len(state["players"])
        ).format(n=len(state["players"]), names=names, mode=mode, game=game)
        tokens = sum(int(info["tokens"]) for info in state["paintings"].values())
        removed = state["removed"]
        text = _("{n} paintings, {tokens} tokens in the bag").format(n=len(state["order"]), tokens=tokens)
        if removed:
            text = ngettext(
                "{text} · painting {paintings} and its tokens are out",
                "{text} · paintings {paintings} and their tokens are out",
                len(removed),
            ).format(text=text, paintings=", ".join(map(str, removed)))
        ids.paintings.text = text
        ids.chips.clear_widgets()
        for key in state["order"]:
            info = state["paintings"][key]
            ids.chips.add_widget(
                ACTile(
                    text=f"{key}\n[size={int(dp(16))}]×{info['tokens']}[/size]",
                    tile=painting_colour(int(key)),
                    halign="center",
                )
            )
        if state["settings"]["tracker"]:
            first = state["players"][int(state["settings"]["first_player"])]
            ids.rules.text = _(
                "{name} draws first. Enter every token as it comes out of the bag; the screen follows busts, steals "
                "and abilities, refuses what the rules forbid, and scores the piles when the bag is empty.\n"
                "Tap this turn's tokens to choose the one on top, then Stop (or press your button)."
            ).format(name=first)
            ids.go.text = _("Start tracking")
        else:
            ids.rules.text = _(
                "Play with the real bag. At the end, enter each player's tokens per painting and who holds the "
                "black-cat token: the most tokens win a painting; a tie goes to the black-cat holder, even if "
                "not tied. Tokens 1 point (twins 2) plus the paintings won."
            )
            ids.go.text = _("Count the tokens")

    # -- final count ---------------------------------------------------------------------------------------

    def _fill_count(self, state: dict[str, Any]) -> None:
        tabs = self.count.ids.tabs
        tabs.clear_widgets()
        totals = [sum(int(n) for n in row.values()) for row in state["counts"]]
        # One style for the row: every tab on one line, or (when one of them does not fit) every tab on two.
        players = state["players"]
        widest = max(text_width(f"{name} · {held}", dp(18)) for name, held in zip(players, totals, strict=True))
        for seat, name in enumerate(state["players"]):
            held = totals[seat]
            colour = state["colours"][seat]
            tab = ToggleButton(
                group="ac-count-seat",
                state="down" if seat == self.count_seat else "normal",
                allow_no_selection=False,
                halign="center",
                valign="middle",
                background_normal="",
                background_down="",
                background_color=hex_rgba(colour) if seat == self.count_seat else [0.22, 0.24, 0.32, 1],
                color=readable_text(colour) if seat == self.count_seat else (1, 1, 1, 1),
            )
            tab.bind(on_release=lambda _b, s=seat: self.show_seat(s))
            tabs.add_widget(tab)
            keep_fitted(tab, partial(self.tab_text, name, held, widest=widest))
        for key, cell in self.cells.items():
            info = state["paintings"][key]
            left = int(info["tokens"]) - sum(int(row[key]) for row in state["counts"])
            character = escape_markup(painting_characters(state, key, short=True))
            if int(info["points"]) != 1:
                # TRANSLATORS: the twins' tokens count 2 points each
                character = _("{character} ×2 pts").format(character=character)
            cell.caption = _("[b]{painting}[/b] {character} · {n} left").format(
                painting=key, character=character, n=left
            )
            cell.value = int(state["counts"][self.count_seat][key])
            cell.full = left == 0
        cat = self.count.ids.cat
        cat.clear_widgets()
        choices: list[tuple[int | None, str]] = [*enumerate(state["players"]), (None, _("Nobody"))]
        for holder, name in choices:
            chosen = state["black_cat_set"] and state["black_cat"] == holder
            button = ToggleButton(
                group="ac-black-cat",
                state="down" if chosen else "normal",
                halign="center",
                valign="middle",
                background_normal="",
                background_down="",
                background_color=[0.55, 0.45, 0.1, 1] if chosen else [0.22, 0.24, 0.32, 1],
            )
            button.bind(on_release=lambda _b, s=holder: self.set_black_cat(s))
            cat.add_widget(button)
            keep_fitted(button, partial(name_text, name, size=dp(17), smaller=dp(16)))

    @staticmethod
    def tab_text(name: str, held: int, room: float, widest: float) -> tuple[str, float]:
        """A count tab: "name · tokens" on one line when every tab's fits (``widest``), else the name (shortened
        if need be) over the number of tokens, which is always shown whole."""
        if widest <= room:
            return f"{name} · {held}", dp(18)
        size = dp(16)  # drawn at 16 px, the smallest text (it asked for 15)
        return f"{shorten(name, room, size)}\n" + ngettext("{n} token", "{n} tokens", held).format(n=held), size

    def show_seat(self, seat: int) -> None:
        self.count_seat = seat
        self.refresh()

    def step_count(self, painting: int, delta: int) -> None:
        state = self.state
        key = str(painting)
        value = int(state["counts"][self.count_seat][key]) + delta
        name = state["players"][self.count_seat]
        if value < 0:
            self.show_message(
                _("{name} has no tokens of painting {painting} to take away").format(name=name, painting=painting),
                error=True,
            )
            return
        if self.act({"type": "set_count", "player": self.count_seat, "painting": painting, "count": value}, quiet=True):
            self.show_message(_("{name}: {n} of painting {painting}").format(name=name, n=value, painting=painting))

    def set_black_cat(self, seat: int | None) -> None:
        if self.act({"type": "set_black_cat", "player": seat}, quiet=True):
            if seat is None:
                self.show_message(_("Nobody holds the black-cat token"))
            else:
                self.show_message(_("{name} holds the black-cat token").format(name=self.state["players"][seat]))
        else:
            self.refresh()

    def score(self) -> None:
        """Score the count; at the end the bag is empty, so uncounted tokens are a slip: say which, score on a
        second tap of Score with the same counts."""
        state = self.state
        missing = [
            (key, int(info["tokens"]) - sum(int(row[key]) for row in state["counts"]))
            for key, info in state["paintings"].items()
        ]
        missing = [(key, n) for key, n in missing if n > 0]
        if missing and state["black_cat_set"] and self.score_warned != missing:
            self.score_warned = missing
            listed = ", ".join(_("{n} of painting {painting}").format(n=n, painting=key) for key, n in missing[:4])
            if len(missing) > 4:
                listed = _("{listed} and {n} more").format(listed=listed, n=len(missing) - 4)
            self.show_message(
                _("Not counted yet: {listed}. Tap Score again to score anyway").format(listed=listed), error=True
            )
            return
        if self.act({"type": "finish"}, quiet=True):
            self.show_message(self.winner_line())

    def winner_line(self) -> str:
        result = working(self.state)
        best = max(p["total"] for p in result["players"])
        winners = result["winners"]
        if len(winners) == 1:
            return _("{name} wins with {points} points").format(name=winners[0], points=best)
        return _("{names} share the win with {points} points").format(names=and_list(winners), points=best)

    # -- results ---------------------------------------------------------------------------------------------

    def _fill_results(self, state: dict[str, Any]) -> None:
        result = working(state)
        ids = self.results.ids
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
        self.show_message(self.winner_line())

    # -- tracker -------------------------------------------------------------------------------------------

    def _fill_tracker(self, state: dict[str, Any]) -> None:
        ids = self.tracker.ids
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
        tokens: list[str] = list(state["turn"]["tokens"])
        left = Counter(tokens)  # matched by count: an undone draw or a stolen run can leave a code fewer times
        kept: list[str] = []
        for code in [*self.order, *tokens]:  # the player's order first, then tokens new to it in drawing order
            if left[code] > 0:
                kept.append(code)
                left[code] -= 1
        self.order = kept
        turn = ids.turn
        turn.clear_widgets()
        room = ids.turn_scroll.width or dp(500)
        gaps = dp(3) * max(0, len(kept) - 1)
        size = max(dp(48), min(dp(60), (room - gaps) / max(1, len(kept))))
        for index, code in enumerate(self.order):
            # TRANSLATORS: under the token that will lie on top of the pile
            top = _("top") if index == len(self.order) - 1 else ""
            label = plain(code) + ("*" if code != plain(code) else "")
            chip = ACChip(
                text=f"{label}\n[size={int(dp(16))}]{top}[/size]",
                tile=painting_colour(painting_of(code)),
                size_hint_x=None,
                width=size,
            )
            chip.bind(on_release=lambda _b, i=index: self.put_on_top(i))
            turn.add_widget(chip)
        if not kept:
            turn.add_widget(Label(text=_("no tokens drawn yet"), font_size=dp(16), color=(0.75, 0.75, 0.8, 1)))
        ids.turn_scroll.scroll_x = 1  # the top token (rightmost) in view
        options = ENGINE.options(state)
        ids.stop.disabled = not options["stop"]
        self._fill_piles(state)
        self._fill_moves(state, options)
        if self.robin_plan is not None:
            self._show_robin(state)
        else:
            self._show_picker(state, options)

    def _build_piles(self, state: dict[str, Any]) -> None:
        """One column per player, made once: name, size, the top tokens, how many lie below."""
        piles = self.tracker.ids.piles
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
        moves = self.tracker.ids.moves
        moves.clear_widgets()
        names = state["players"]
        piles = state["piles"]
        turn = state["turn"]
        offers: list[tuple[str, Action]] = []
        if self.robin_plan is not None:  # one thing at a time: finish or cancel the deal first
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
                run = 0
                for code in reversed(piles[seat]):
                    if painting_of(code) != number:
                        break
                    run += 1
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
        for text, action in offers:
            button = Button(
                text=text, font_size=dp(16), size_hint=(None, None), size=(button_width, dp(52)), halign="center"
            )
            button.text_size = (button_width - dp(6), None)
            button.background_normal = ""
            button.background_color = (0.10, 0.45, 0.55, 1)
            button.bind(on_release=lambda _b, a=action: self.move(a))
            moves.add_widget(button)
        for text, seat in robin:
            button = Button(
                text=text, font_size=dp(16), size_hint=(None, None), size=(button_width, dp(52)), halign="center"
            )
            button.text_size = (button_width - dp(6), None)
            button.background_normal = ""
            button.background_color = (0.45, 0.25, 0.55, 1)
            button.bind(on_release=lambda _b, s=seat: self.robin_start(s))
            moves.add_widget(button)
        if not count:
            hint = _("Tap a painting to enter the token drawn.")
            if turn["drawn"]:
                hint = _("Draw again, or choose the top token and Stop.")
            moves.add_widget(
                Label(text=hint, size_hint=(1, None), height=dp(52), font_size=dp(16), color=(0.75, 0.75, 0.8, 1))
            )

    def _show_picker(self, state: dict[str, Any], options: dict[str, Any]) -> None:
        right = self.tracker.ids.right
        if self.robin in right.children:
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
        cat = self.tracker.ids.black_cat
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

    # -- tracker actions ------------------------------------------------------------------------------------

    def draw(self, code: str) -> None:
        cat = self.tracker.ids.black_cat
        action: Action = {"type": "draw", "token": code}
        if cat.state == "down":
            action["black_cat"] = True
        if self.act(action, quiet=True):
            cat.state = "normal"
            self.show_message(wording.events_line(self.state))

    def move(self, action: Action) -> Any:
        """Make a tracker move. A steal from a pile with more than one token of that painting on top asks first:
        the tokens under the top one may be taken too, or left (the rules: "també els les pots robar"). Returns
        that question's view, else None."""
        if action["type"] == "steal" and "count" not in action:
            pile = self.state["piles"][action["from"]]
            last = self.state["turn"]["last"]
            run = top_run(pile) if pile and last is not None and painting_of(pile[-1]) == painting_of(last) else 0
            if run > 1:
                return self._ask_steal_count(action, run)
        if self.act(action, quiet=True):
            self.show_message(wording.events_line(self.state))
        return None

    def _ask_steal_count(self, action: Action, run: int) -> Any:
        name = self.state["players"][action["from"]]
        number = painting_of(self.state["piles"][action["from"]][-1])
        view = dialog(560, 220)
        box = BoxLayout(orientation="vertical", padding=dp(16), spacing=dp(12))
        question = _("{name} has {n} × {painting} on top. Take them all, or only the top one?").format(
            name=name, n=run, painting=number
        )
        box.add_widget(Label(text=question, font_size=dp(20), text_size=(dp(520), None), halign="center"))
        row = BoxLayout(size_hint_y=None, height=dp(56), spacing=dp(12))
        for text, count in ((_("Only the top one"), 1), (_("All {n}").format(n=run), run)):
            button = Factory.BigButton(text=text)
            button.bind(on_release=lambda _b, c=count: (view.dismiss(), self.move({**action, "count": c})))
            row.add_widget(button)
        box.add_widget(row)
        view.add_widget(box)
        view.open()
        return view

    def put_on_top(self, index: int) -> None:
        """Tap a token of this turn to make it the top of the stack the turn will pile."""
        code = self.order.pop(index)
        self.order.append(code)
        self.show_message(_("{token} will be on top").format(token=plain(code)))
        self.refresh()

    def stop_turn(self) -> None:
        if self.state["phase"] != "play" or self.robin_plan is not None:
            return
        order = list(self.order)
        if self.act({"type": "stop", "order": order}, quiet=True):
            self.order = []
            self.show_message(
                wording.events_line(self.state) if not self.session or not self.session.over else self.winner_line()
            )

    def end_tracking(self) -> None:
        if self.act({"type": "end_tracking"}, quiet=True):
            self.show_message(wording.events_line(self.state))

    def on_button(self, event: ButtonEvent) -> None:
        """Tracker: the current player's button ends the turn (Stop). Count: a button shows that player's counts."""
        if self.session is None or event.kind != "press":
            return
        seats = [p.seat for p in self.players]
        if event.seat not in seats:
            return
        index = seats.index(event.seat)
        phase = self.state["phase"]
        if phase == "play" and not self.show_summary:
            current = int(self.state["current"])
            if index == current:
                self.stop_turn()
            else:
                names = self.state["players"]
                self.show_message(_("It is {name}'s turn: only {name}'s button stops it").format(name=names[current]))
        elif phase == "count":
            self.show_seat(index)

    # -- Robin Tell's deal ---------------------------------------------------------------------------------

    def robin_start(self, target: int) -> None:
        pile = list(reversed(self.state["piles"][target]))  # top first, the order they are handed out
        self.robin_plan = {"target": target, "tokens": pile, "gives": []}
        self.refresh()

    def _show_robin(self, state: dict[str, Any]) -> None:
        plan = self.robin_plan
        assert plan is not None
        right = self.tracker.ids.right
        if self.robin not in right.children:
            right.clear_widgets()
            right.add_widget(self.robin)
        ids = self.robin.ids
        names = state["players"]
        remaining = plan["tokens"][len(plan["gives"]) :]
        taken = len(plan["tokens"])
        ids.title.text = ngettext(
            "Robin Tell takes {name}'s {n} token: hand it out (tokens in a row to one player stay in order)",
            "Robin Tell takes {name}'s {n} tokens: hand them all out, top first (tokens in a row to one player stay "
            "in order)",
            taken,
        ).format(name=names[plan["target"]], n=taken)
        ids.tokens.clear_widgets()
        for code in remaining[:8]:
            ids.tokens.add_widget(ACTile(text=plain(code), tile=painting_colour(painting_of(code))))
        if not remaining:
            ids.tokens.add_widget(Label(text=_("all given"), font_size=dp(16)))
        ids.givers.clear_widgets()
        for seat, name in enumerate(names):
            colour = state["colours"][seat]
            button = Button(
                halign="center",
                valign="middle",
                background_normal="",
                background_color=hex_rgba(colour),
                color=readable_text(colour),
                disabled=not remaining,
            )
            button.bind(on_release=lambda _b, s=seat: self.robin_give(s))
            ids.givers.add_widget(button)
            keep_fitted(button, partial(name_text, name, size=dp(18), smaller=dp(16)))
        given: dict[int, list[str]] = {}
        for code, seat in zip(plan["tokens"], plan["gives"], strict=False):
            given.setdefault(seat, []).append(plain(code))
        ids.plan.text = " · ".join(
            _("{name} gets {tokens}").format(name=names[s], tokens=", ".join(c)) for s, c in given.items()
        ) or _("nothing given yet")
        ids.deal.disabled = bool(remaining)

    def robin_give(self, seat: int) -> None:
        if self.robin_plan is not None and len(self.robin_plan["gives"]) < len(self.robin_plan["tokens"]):
            self.robin_plan["gives"].append(seat)
            self.refresh()

    def robin_take_back(self) -> None:
        if self.robin_plan is not None and self.robin_plan["gives"]:
            self.robin_plan["gives"].pop()
            self.refresh()

    def robin_cancel(self) -> None:
        self.robin_plan = None
        self.refresh()

    def robin_deal(self) -> None:
        plan = self.robin_plan
        if plan is None:
            return
        action = {"type": "robin", "target": plan["target"], "deal": chunks_from_gives(plan["gives"])}
        if self.act(action, quiet=True):
            self.robin_plan = None
            self.show_message(wording.events_line(self.state))
            self.refresh()
