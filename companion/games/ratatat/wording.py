"""Rat-a-Tat Roll in words: the log line of each action and the sentence of each event, in the current
language (``companion.i18n``; called when the text is shown)."""

from __future__ import annotations

from typing import Any

from companion.games.base import Action, State
from companion.i18n import _, ngettext

Event = dict[str, Any]


def describe(action: Action, state: State | None = None) -> str:
    """One line for the log and the undo prompt."""
    kind = action.get("type")
    if kind == "roll":
        return f"roll {' + '.join(map(str, action.get('dice', [])))}"
    if kind == "reroll":
        if "picture" in action:
            return f"re-roll the picture die: {action['picture']}"
        indices, values = action.get("indices", []), action.get("values", [])
        shown = ", ".join(
            _("die {die} now shows {face}").format(die=i + 1, face=v) for i, v in zip(indices, values, strict=False)
        )
        return _("re-roll: {dice}").format(dice=shown)
    if kind == "move":
        return "move the statue"
    if kind == "take_region":
        return "take the region's card" if "region" not in action else f"take the card of region {action['region'] + 1}"
    if kind == "take_pile":
        return "take the top card of the pile" + (" (balloon)" if action.get("balloon") else "")
    if kind == "picture":
        return f"picture die: {action.get('face')}"
    if kind == "swap":
        mine, theirs = action.get("mine", 0) + 1, action.get("theirs", 0) + 1
        return f"swap own card {mine} with {action.get('other')}'s card {theirs}"
    if kind == "give_back":
        return f"give card {action.get('card', 0) + 1} back to the bottom of the pile"
    if kind == "reveal":
        balloon = " with a balloon" if action.get("balloon") else ""
        where = f"region {action['region'] + 1}" if "region" in action else "the board"
        return f"{where} shows {action.get('value')}{balloon}"
    if kind == "look":
        at = action.get("at")
        return {"own": "look at own cards", "none": "look at nothing"}.get(str(at), f"look at a card of {at}")
    if kind == "hand":
        return f"{action.get('player')} reveals {', '.join(map(str, action.get('values', [])))}"
    return {"pass": "pass", "no_swap": "no swap", "end_turn": "end the turn"}.get(str(kind), str(kind))


def player_name(state: State, seat: Any) -> str:
    """The name of the player at ``seat``; the seat number if nobody sits there."""
    seats = state.get("seats", [])
    return str(state["players"][seats.index(seat)]) if seat in seats else str(seat)


def event_text(event: Event, state: State) -> str:
    """One event of the last action (``state["events"]``) as a sentence for the players."""
    kind = event.get("event")
    if kind == "picture_rerolled":
        return _("re-rolled the picture die: {face}").format(face=event["face"])
    if kind == "dice_rerolled":
        return ngettext("re-rolled {count} of {of} dice", "re-rolled {count} of {of} dice", event["of"]).format(
            count=event["count"], of=event["of"]
        )
    if kind == "tokens_earned":
        why = {"balloon_card": _("balloon card"), "balloon_space": _("balloon space")}.get(event["why"], event["why"])
        return ngettext("+{n} re-roll token ({why})", "+{n} re-roll tokens ({why})", event["count"]).format(
            n=event["count"], why=why
        )
    if kind == "swapped":
        return _("swapped card {mine} with {name}'s card {theirs}").format(
            mine=event["mine"] + 1, name=player_name(state, event["seat"]), theirs=event["theirs"] + 1
        )
    if kind == "gave_back":
        return _("card {card} went to the bottom of the pile").format(card=event["card"] + 1)
    fixed = {
        "bank_empty": _("the bank is empty: no token"),
        "nothing_to_take": _("nothing to take"),
        "no_swap": _("no swap"),
        "reshuffled": _("too many balloons: the five cards are shuffled in and five new ones dealt"),
        "pile_empty": _("the draw pile is empty: the region stays empty"),
        "final_round_over": _("the final round is over: reveal the cards"),
        "final_round": _("everyone is at the threshold: final round"),
    }
    return fixed.get(str(kind), str(kind))


def events_text(state: State) -> list[str]:
    """Every event of the last action, in words."""
    return [event_text(event, state) for event in state.get("events", [])]


# Events the log line of their own action says already ("swap own card 1 with Ana's card 2" needs no "swapped
# card 1 with Ana's card 2" after it).
_SAID_BY: dict[str, tuple[str, ...]] = {
    "swap": ("swapped",),
    "no_swap": ("no_swap",),
    "give_back": ("gave_back",),
    "reroll": ("dice_rerolled", "picture_rerolled"),
}


def outcome(action: Action, state: State) -> str:
    """What the message line says after ``action``: its log line and what came of it (tokens earned, an empty
    bank, a reshuffle), each said once; ``state`` is the game after it."""
    line = describe(action, state)
    said = _SAID_BY.get(str(action.get("type")), ())
    events = [event_text(e, state) for e in state.get("events", []) if e.get("event") not in said]
    return f"{line}: {'; '.join(events)}" if events else line
