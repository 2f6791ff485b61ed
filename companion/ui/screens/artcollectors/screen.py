"""Art Collectors screen: setup summary, the end-of-game count, results with the working, and the pile tracker,
each a panel of its own (``count``, ``results``, ``tracker``, ``robin``; tiles in ``widgets``).

Every tap that changes the game is one engine action through :meth:`GameScreen.act` (journaled, undoable);
the only local state is what a screen needs between taps: which player's counts are shown, the order chosen for
this turn's tokens, and Robin Tell's deal while it is being planned.
"""

from __future__ import annotations

from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from companion.games.artcollectors import painting_of, plain, steal_run, uncounted, wording, working
from companion.games.base import Action
from companion.i18n import _, and_list
from companion.ui.screens import load_kv
from companion.ui.screens.artcollectors.count import ACCount, ACSummary
from companion.ui.screens.artcollectors.results import ACResults
from companion.ui.screens.artcollectors.robin import ACRobin
from companion.ui.screens.artcollectors.tracker import ACTracker, turn_order
from companion.ui.screens.artcollectors.widgets import ACChip, ACCountCell, ACPanel, chunks_from_gives
from companion.ui.screens.game import GameScreen
from companion.ui.widgets import dialog
from hardware.buttons import ButtonEvent


class ArtCollectorsScreen(GameScreen):
    """The game screen; panels switch with the engine's phase."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.show_summary = False
        self.count_seat = 0
        self.order: list[str] = []
        self.robin_plan: dict[str, Any] | None = None
        self.score_warned: dict[str, int] | None = None  # the uncounted tokens Score last warned about
        self.summary = ACSummary(screen=self)
        self.count = ACCount(screen=self)
        self.results = ACResults(screen=self)
        self.tracker = ACTracker(screen=self)
        self.robin = ACRobin(screen=self)

    @property
    def state(self) -> dict[str, Any]:
        assert self.session is not None
        return self.session.state

    @property
    def cells(self) -> dict[str, ACCountCell]:
        """The final count's counter per painting, by painting number."""
        return self.count.cells

    @property
    def picks(self) -> dict[str, ACChip]:
        """The tracker's painting to tap per kind of token drawn."""
        return self.tracker.picks

    @property
    def pile_views(self) -> list[dict[str, Any]]:
        """The tracker's column per pile."""
        return self.tracker.pile_views

    # -- life cycle --------------------------------------------------------------------------------------

    def on_session(self) -> None:
        state = self.state
        self.show_summary = not self.session.actions if self.session else False
        self.count_seat = 0
        self.order = []
        self.robin_plan = None
        self.summary.fill(state)
        self.count.build(state)
        self.tracker.build(state)

    def refresh(self) -> None:
        if self.session is None:
            return
        state = self.state
        body = self.ids.body
        if self.show_summary and not self.session.actions:
            panel: ACPanel = self.summary
        elif state["phase"] == "over":
            panel = self.results
            self.results.fill(state)
            self.show_message(self.winner_line())
        elif state["phase"] == "count":
            panel = self.count
            self.count.fill(state)
        else:
            panel = self.tracker
            self.order = turn_order(self.order, list(state["turn"]["tokens"]))
            self.tracker.fill(state)
        if panel not in body.children:  # ids are weak proxies: compare by membership
            body.clear_widgets()
            body.add_widget(panel)

    def leave_summary(self) -> None:
        self.show_summary = False
        self.refresh()

    # -- final count -----------------------------------------------------------------------------------------

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
        missing = uncounted(state)
        if missing and state["black_cat_set"] and self.score_warned != missing:
            self.score_warned = missing
            self.show_message(wording.uncounted_text(missing), error=True)
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
            run = steal_run(self.state, int(action["from"]))
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


load_kv("artcollectors/screen")
