"""Rat-a-Tat Roll's panels of the picture die and the cards it moves: the picture die rolled or re-rolled, the
end-game roll or pass, the cat and the rat, the swap, a card given back, the leopard's look."""

from __future__ import annotations

from kivy.metrics import dp

from companion.i18n import _, ngettext
from companion.ui.screens import load_kv
from companion.ui.screens.ratatat.panels import RatatatPanel


class PicturePanel(RatatatPanel):
    """A picture-die space: the picture die's face, tapped or read."""

    def fill(self, me: str) -> None:
        self.screen.prompt = _("{name} landed on a picture-die space: roll the picture die").format(name=me)
        self.picture_rows(reroll=False)


class EndgamePanel(RatatatPanel):
    """Enough cards to end the game: roll the picture die, or Pass (panels.kv)."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        n = state["threshold"]
        if state["final_round"]:
            prompt = ngettext(
                "{name} has {n} card (final round): pass, or roll the picture die",
                "{name} has {n} cards (final round): pass, or roll the picture die",
                n,
            )
        else:
            prompt = ngettext(
                "{name} has {n} card: pass, or roll the picture die",
                "{name} has {n} cards: pass, or roll the picture die",
                n,
            )
        screen.prompt = prompt.format(name=me, n=n)
        screen.info = _(
            "Cat or rat: take that card, then give one of your old cards back, unseen, to the pile's bottom"
        )
        self.picture_rows(reroll=False)


class PictureRerollPanel(RatatatPanel):
    """A token spent on the picture die: its new face, or Cancel (panels.kv)."""

    def fill(self, me: str) -> None:
        self.screen.prompt = _("{name} re-rolls the picture die: what does it show now?").format(name=me)
        self.picture_rows(reroll=True)


class PictureRolledPanel(RatatatPanel):
    """The cat or the rat: which face-up card it takes (one of equal cards, or none); a token re-rolls it."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        choices = screen.engine.picture_choices(state)
        tie = len(choices) > 1
        if state["picture"] == "cat":
            prompt = (
                _("{name}: the cat takes the lowest face-up card (pick one of the equal cards)")
                if tie
                else _("{name}: the cat takes the lowest face-up card")
            )
        else:
            prompt = (
                _("{name}: the rat takes the highest face-up card (pick one of the equal cards)")
                if tie
                else _("{name}: the rat takes the highest face-up card")
            )
        screen.prompt = prompt.format(name=me)
        buttons = [
            self.button(
                _("Take {region} {value}").format(region=screen.region_name(r), value=state["face_up"][r]["value"]),
                lambda r=r: screen.act({"type": "take_region", "region": r}),
                kind="AccentButton",
                height=dp(60),
            )
            for r in choices
        ]
        if not choices:
            buttons = [self.button(_("No card to take: end turn"), lambda: screen.act({"type": "end_turn"}))]
        self.add_row(self.row(buttons, dp(60)))
        self.reroll_row()

    def reroll_row(self) -> None:
        usable = self.screen.engine.usable_tokens(self.state)
        if usable > 0:
            again = ngettext(
                "Re-roll the picture die (token, {n} left)", "Re-roll the picture die (token, {n} left)", usable
            ).format(n=usable)
            self.add_row(self.row([self.button(again, self.screen.arm)]))


class SwapPanel(PictureRolledPanel):
    """The swap face: one of my cards, then whose card, then which of theirs (all face down); Back a step."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        mine = len(state["rows"][state["current"]])
        if screen.swap_mine is None:
            screen.prompt = _("{name}: swap? Pick one of your cards (face down, nobody looks)").format(name=me)
            self.add_row(
                self.row(
                    [
                        self.button(_("My card {n}").format(n=i + 1), lambda i=i: screen.swap_pick(i))
                        for i in range(mine)
                    ]
                )
            )
        elif screen.swap_other is None:
            screen.prompt = _("{name}: swap your card {card} with whose card?").format(
                name=me, card=screen.swap_mine + 1
            )
            others = [p for p in state["players"] if p != me]
            self.add_row(self.grid([self.name_button(p, "", lambda p=p: screen.swap_with(p)) for p in others]))
        else:
            other = screen.swap_other
            theirs = len(state["rows"][state["players"].index(other)])
            screen.prompt = _("{name}: swap your card {card} with which of {other}'s cards?").format(
                name=me, card=screen.swap_mine + 1, other=other
            )
            self.add_row(
                self.row(
                    [
                        self.name_button(other, f" {j + 1}", lambda j=j: screen.swap_do(j), kind="AccentButton")
                        for j in range(theirs)
                    ]
                )
            )
        bottom = [self.button(_("No swap"), screen.no_swap, kind="DangerButton")]
        if screen.swap_mine is not None:  # a wrong pick is undone here: nothing is journaled until the swap
            bottom.insert(0, self.button(_("Back"), screen.swap_back))
        self.add_row(self.row(bottom))
        self.reroll_row()


class GiveBackPanel(RatatatPanel):
    """Cat or rat at the end: which old card goes back to the bottom of the pile, unseen."""

    def fill(self, me: str) -> None:
        screen = self.screen
        old = len(self.state["rows"][self.state["current"]]) - 1
        screen.prompt = _("{name}: give one of your old cards back, without looking, to the bottom of the pile").format(
            name=me
        )
        cards = [
            self.button(_("Card {n}").format(n=i + 1), lambda i=i: screen.act({"type": "give_back", "card": i}))
            for i in range(old)
        ]
        self.add_row(self.row(cards, dp(60)))


class LookPanel(RatatatPanel):
    """The leopard: look at all my cards, or pick another player; Skip (panels.kv)."""

    def fill(self, me: str) -> None:
        screen = self.screen
        screen.prompt = _("{name}: look at all your own cards, or at one card of another player").format(name=me)
        buttons = [self.button(_("My cards"), lambda: screen.look({"type": "look", "at": "own"}), kind="AccentButton")]
        buttons += [self.name_button(p, "", lambda p=p: screen.look_at(p)) for p in self.state["players"] if p != me]
        self.add_row(self.grid(buttons, dp(60) if len(buttons) <= 3 else dp(52)))


class LookCardPanel(RatatatPanel):
    """The leopard, another player picked: which of their cards; Back (panels.kv)."""

    def fill(self, me: str) -> None:
        screen = self.screen
        other = screen.look_other
        count = len(self.state["rows"][self.state["players"].index(other)])
        screen.prompt = _("{name}: which of {other}'s cards do you look at?").format(name=me, other=other)
        cards = [
            self.name_button(other, f" {j + 1}", lambda j=j: screen.look({"type": "look", "at": other, "card": j}))
            for j in range(count)
        ]
        self.add_row(self.row(cards, dp(60)))


load_kv("ratatat/picture")
