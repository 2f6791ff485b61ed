"""Rat-a-Tat Roll's panels of a turn: deal and refill the face-up cards, how many dice (with the assistant's
chances), the dice rolled and re-rolled, the space landed on."""

from __future__ import annotations

from typing import Any

from kivy.metrics import dp
from kivy.uix.button import Button
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget
from kivy.utils import escape_markup, get_color_from_hex

from companion.formatting import percent
from companion.games import ratatat
from companion.i18n import _, ngettext
from companion.ui.fit import text_width
from companion.ui.screens import load_kv
from companion.ui.screens.ratatat.board import Swatch
from companion.ui.screens.ratatat.panels import RatatatPanel


class CardPanel(RatatatPanel):
    """Deal and refill: the face-up card of the next region, its value and whether it shows a balloon."""

    def template(self) -> str:
        """Override: the prompt, with ``{region}``."""
        return "{region}"

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        region = state["to_reveal"][0]
        screen.prompt = self.template().format(region=screen.region_name(region))
        if state["reshuffles"] and len(state["to_reveal"]) == 5 and state["phase"] == ratatat.REVEAL:
            screen.info = _("Too many balloons: the five cards were shuffled into the pile. Deal five new ones.")
        balloon = self.button(
            _("Balloon: YES") if screen.balloon else _("Balloon: no"),
            screen.toggle_balloon,
            kind="AccentButton" if screen.balloon else "BigButton",
        )
        self.add_row(self.row([balloon]))
        values = [int(v) for v in state["deck"]]
        self.add_row(self.value_grid(values, lambda v, r=region: screen.reveal(r, v)))


class DealPanel(CardPanel):
    def template(self) -> str:
        return _("Deal: enter the face-up card of the {region} region")


class RevealPanel(CardPanel):
    def template(self) -> str:
        return _("Refill: enter the new face-up card of the {region} region")


class RollPanel(RatatatPanel):
    """How many dice: the assistant's chances for 1, 2 and 3 dice; then the camera, or the faces by touch."""

    def fill(self, me: str) -> None:
        screen = self.screen
        screen.prompt = _("{name}: how many dice? Roll them, or tap the faces").format(name=me)
        help_ = ratatat.assistant(self.state)
        choices = []
        for n in (1, 2, 3):
            chance = help_["options"][n]["lowest"]
            label = ngettext("{n} die: {chance}", "{n} dice: {chance}", n).format(n=n, chance=percent(chance))
            if n == help_["best"]:
                # TRANSLATORS: the dice count with the best chance of the lowest card ("2 dice: 40%  best")
                label = _("{choice}  best").format(choice=label)
            kind = "AccentButton" if n == screen.dice_count else "BigButton"
            choices.append(self.button(label, lambda n=n: screen.choose_count(n), kind=kind))
        self.add_row(self.row(choices))
        if screen.dice_count:
            self.faces_rows()
        else:
            self.add_row(self.odds_table(help_))
            if screen.app is not None and screen.app.manager.has_screen("dice"):
                self.add_row(self.row([self.button(_("Read the dice with the camera"), screen.open_dice)]))

    def faces_rows(self) -> None:
        screen = self.screen
        screen.info = _("Dice: {faces}. Tap each die's face, in any order").format(faces=screen.entered())
        self.add_row(self.face_keypad())
        ready = all(f is not None for f in screen.faces)
        go = self.button(_("Use these dice"), screen.submit_roll, kind="AccentButton", disabled=not ready)
        delete = self.button(_("Delete last"), screen.delete_face, disabled=all(f is None for f in screen.faces))
        back = self.button(_("Back"), lambda: screen.choose_count(0))  # to the chances and the camera
        self.add_row(self.row([go, delete, back]))

    def odds_table(self, help_: dict[str, Any]) -> GridLayout:
        """The assistant panel: for 1, 2 and 3 dice, the chance of each region, a picture space, the lowest card."""
        regions = self.state["board"]["regions"]
        # 16 px type (it was 15, drawn ~12 px in the old font); rows just taller than a line, so the roll phase
        # fits under the fixed prompt and info lines with a notice shown
        grid = GridLayout(cols=len(regions) + 3, size_hint_y=None, height=dp(22) * 4 + dp(2) * 3, spacing=dp(2))

        def cell(text: str, colour: Any = (0.85, 0.85, 0.9, 1), bold: bool = False) -> Label:
            return Label(text=text, font_size=dp(16), color=colour, bold=bold)

        # TRANSLATORS: column heads of the chances table: the number of dice, the picture-die spaces, the lowest card
        heads = (_("dice"), _("picture"), _("low {value}").format(value=help_["lowest"]))
        # every column at least as wide as its widest text (a head, or "100%")
        widest = text_width("100%", dp(16), bold=True) + dp(4)
        worded = dict(zip((0, len(regions) + 1, len(regions) + 2), heads, strict=True))
        grid.cols_minimum = {
            col: max(widest, text_width(worded[col], dp(16), bold=True) + dp(6)) if col in worded else widest
            for col in range(len(regions) + 3)
        }
        grid.add_widget(cell(heads[0], bold=True))
        for region in regions:  # each region by its colour, a swatch: no name to shorten in any language
            grid.add_widget(Swatch(colour=get_color_from_hex(region["colour"])))
        grid.add_widget(cell(heads[1], bold=True))
        grid.add_widget(cell(heads[2], (1, 0.85, 0.3, 1), True))
        for n in (1, 2, 3):
            option = help_["options"][n]
            grid.add_widget(cell(str(n), bold=True))
            for chance in option["regions"]:
                grid.add_widget(cell(percent(chance) if chance else "-"))
            grid.add_widget(cell(percent(option["picture"]) if option["picture"] else "-"))
            grid.add_widget(cell(percent(option["lowest"]), (1, 0.85, 0.3, 1), n == help_["best"]))
        return grid


class DicePanel(RatatatPanel):
    """The dice rolled: where the statue would land, and the dice, to tap for a re-roll."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        ring = len(state["board"]["spaces"])
        target = (state["statue"] + sum(state["dice"])) % ring
        where = screen.space_text(state["board"]["spaces"][target])
        screen.prompt = _("{name} rolled {total}: the statue would land on {space}").format(
            name=me, total=sum(state["dice"]), space=where
        )
        dice = []
        again = escape_markup(_("(re-roll)"))  # under a picked die's face, in a smaller type (fits every language)
        for i, face in enumerate(state["dice"]):
            picked = i in screen.reroll_pick
            dice.append(
                self.button(
                    f"[size={int(dp(26))}]{face}[/size]\n{again}" if picked else str(face),
                    lambda i=i: screen.pick_die(i),
                    kind="DangerButton" if picked else "BigButton",
                    font_size=dp(16) if picked else dp(26),
                    height=dp(64),
                    markup=True,
                )
            )
        self.add_row(self.row(dice, dp(64)))
        self.next_rows()

    def next_rows(self) -> None:
        """Override: what follows the dice."""


class RolledPanel(DicePanel):
    """No dice picked: the tokens to spend, and Move the statue (panels.kv)."""

    def next_rows(self) -> None:
        usable = self.screen.engine.usable_tokens(self.state)
        self.screen.info = ngettext(
            "Tap dice to re-roll them ({n} token to spend)",
            "Tap dice to re-roll them ({n} tokens to spend)",
            usable,
        ).format(n=usable)


class RerollPanel(DicePanel):
    """Dice picked for a re-roll: their new faces, rolled or tapped, for a token."""

    def next_rows(self) -> None:
        screen = self.screen
        count = len(screen.reroll_pick)
        screen.info = ngettext(
            "Re-roll {n} die: roll it, or tap its new face: {faces}",
            "Re-roll {n} dice: roll them, or tap their new faces: {faces}",
            count,
        ).format(n=count, faces=screen.entered())
        self.add_row(self.face_keypad())
        ready = all(f is not None for f in screen.faces)
        go = self.button(_("Spend a token: re-roll"), screen.submit_roll, kind="AccentButton", disabled=not ready)
        delete = self.button(_("Delete last"), screen.delete_face, disabled=all(f is None for f in screen.faces))
        self.add_row(self.row([go, delete, self.button(_("Cancel"), screen.cancel_reroll)]))


class SpacePanel(RatatatPanel):
    """The statue landed on a region's space: take its card, the pile's top card, or end the turn (as legal)."""

    def fill(self, me: str) -> None:
        screen, state = self.screen, self.state
        space = state["board"]["spaces"][state["landing"]]
        region = space["region"]
        card = state["face_up"][region]
        screen.prompt = _("{name} landed on {space}").format(name=me, space=screen.space_text(space))
        legal = screen.engine.legal(state)
        buttons: list[Button] = []
        if "take_region" in legal:
            take = _("Take the {region} {value}").format(region=screen.region_name(region), value=card["value"])
            if card["balloon"]:
                take = _("{take} (balloon: +1 token)").format(take=take)
            if space["kind"] == "balloon":
                take = _("{take} + 1 token").format(take=take)
            elif space["kind"] == "leopard":
                take = _("{take}, then look").format(take=take)
            buttons.append(
                self.button(take, lambda: screen.act({"type": "take_region"}), kind="AccentButton", height=dp(60))
            )
        self.add_row(self.row(buttons, dp(60)) if buttons else Widget(size_hint_y=None, height=0))
        if "take_pile" in legal:
            screen.info = _("Or take the top card of the pile: look at it, then say whether it shows a balloon")
            top = self.button(_("Top of pile"), lambda: screen.act({"type": "take_pile", "balloon": False}))
            top_balloon = self.button(
                _("Top of pile, balloon"), lambda: screen.act({"type": "take_pile", "balloon": True})
            )
            self.add_row(self.row([top, top_balloon], dp(60)))
        if "end_turn" in legal:
            end = self.button(_("Nothing to take: end turn"), lambda: screen.act({"type": "end_turn"}))
            self.add_row(self.row([end]))


load_kv("ratatat/turn")
