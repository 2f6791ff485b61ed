"""Rat-a-Tat Roll in words: the log line of each action and the sentence of each event, in the current
language (``companion.i18n``; called when the text is shown)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.base import Action
from companion.i18n import _, ngettext, pgettext

Event = Mapping[str, Any]


def _face(face: Any) -> str:
    """A picture-die face as the Korean rulebook names it (고양이, 쥐, 교환)."""
    faces = {
        "cat": lambda: pgettext("picture die", "cat"),
        "rat": lambda: pgettext("picture die", "rat"),
        "swap": lambda: pgettext("picture die", "swap"),
    }
    wording = faces.get(str(face))
    return wording() if wording is not None else str(face)


# The packaged boards' regions as the players call them (a board file of one's own keeps its names as written).
_REGIONS = {
    "Red": lambda: pgettext("board region", "Red"),
    "Yellow": lambda: pgettext("board region", "Yellow"),
    "Green": lambda: pgettext("board region", "Green"),
    "Blue": lambda: pgettext("board region", "Blue"),
    "Purple": lambda: pgettext("board region", "Purple"),
}


def region_name(state: Mapping[str, Any], region: int) -> str:
    """Region ``region`` (0-based) by the colour the board gives it, in the current language ("Blue", "파랑")."""
    name = str(state["board"]["regions"][region]["name"])
    wording = _REGIONS.get(name)
    return wording() if wording is not None else name


def _region(action: Action, state: Mapping[str, Any] | None, named: bool) -> str | None:
    """The action's region said by its colour when ``named`` and the board is known; else None."""
    region = action.get("region")
    if not named or state is None or not isinstance(region, int) or not 0 <= region < len(state["board"]["regions"]):
        return None
    return region_name(state, region)


def describe(action: Action, state: Mapping[str, Any] | None = None, *, named: bool = False) -> str:
    """One line for the log and the undo prompt; ``named``: regions by their colour ("the Blue region", as the
    screen says them) instead of their number (as the log and the exported lines keep them)."""
    colour = _region(action, state, named)
    kind = action.get("type")
    if kind == "roll":
        return _("roll {dice}").format(dice=" + ".join(map(str, action.get("dice", []))))
    if kind == "reroll":
        if "picture" in action:
            return _("re-roll the picture die: {face}").format(face=_face(action["picture"]))
        indices, values = action.get("indices", []), action.get("values", [])
        shown = ", ".join(
            _("die {die} now shows {face}").format(die=i + 1, face=v) for i, v in zip(indices, values, strict=False)
        )
        return _("re-roll: {dice}").format(dice=shown)
    if kind == "move":
        return _("move the statue")
    if kind == "take_region":
        if "region" not in action:
            return _("take the region's card")
        if colour is not None:
            return _("take the card of the {region} region").format(region=colour)
        return _("take the card of region {region}").format(region=action["region"] + 1)
    if kind == "take_pile":
        return (
            _("take the top card of the pile (balloon)")
            if action.get("balloon")
            else _("take the top card of the pile")
        )
    if kind == "picture":
        return _("picture die: {face}").format(face=_face(action.get("face")))
    if kind == "swap":
        mine, theirs = action.get("mine", 0) + 1, action.get("theirs", 0) + 1
        return _("swap own card {mine} with {name}'s card {theirs}").format(
            mine=mine, name=action.get("other"), theirs=theirs
        )
    if kind == "give_back":
        return _("give card {card} back to the bottom of the pile").format(card=action.get("card", 0) + 1)
    if kind == "reveal":
        value = action.get("value")
        if colour is not None:
            if action.get("balloon"):
                return _("the {region} region shows {value} with a balloon").format(region=colour, value=value)
            return _("the {region} region shows {value}").format(region=colour, value=value)
        if "region" in action:
            if action.get("balloon"):
                return _("region {region} shows {value} with a balloon").format(
                    region=action["region"] + 1, value=value
                )
            return _("region {region} shows {value}").format(region=action["region"] + 1, value=value)
        if action.get("balloon"):
            return _("the board shows {value} with a balloon").format(value=value)
        return _("the board shows {value}").format(value=value)
    if kind == "look":
        at = action.get("at")
        if at == "own":
            return _("look at own cards")
        if at == "none":
            return _("look at nothing")
        return _("look at a card of {name}").format(name=at)
    if kind == "hand":
        return _("{name} reveals {values}").format(
            name=action.get("player"), values=", ".join(map(str, action.get("values", [])))
        )
    words = {"pass": lambda: _("pass"), "no_swap": lambda: _("no swap"), "end_turn": lambda: _("end the turn")}
    return words[str(kind)]() if str(kind) in words else str(kind)


def player_name(state: Mapping[str, Any], seat: Any) -> str:
    """The name of the player at ``seat``; the seat number if nobody sits there."""
    seats = state.get("seats", [])
    return str(state["players"][seats.index(seat)]) if seat in seats else str(seat)


def event_text(event: Event, state: Mapping[str, Any]) -> str:
    """One event of the last action (``state["events"]``) as a sentence for the players."""
    kind = event.get("event")
    if kind == "picture_rerolled":
        return _("re-rolled the picture die: {face}").format(face=_face(event["face"]))
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


def events_text(state: Mapping[str, Any]) -> list[str]:
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


def outcome(action: Action, state: Mapping[str, Any], *, named: bool = False) -> str:
    """What the message line says after ``action``: its log line and what came of it (tokens earned, an empty
    bank, a reshuffle), each said once; ``state`` is the game after it (``named``: as :func:`describe`)."""
    line = describe(action, state, named=named)
    said = _SAID_BY.get(str(action.get("type")), ())
    events = [event_text(e, state) for e in state.get("events", []) if e.get("event") not in said]
    return _("{line}: {events}").format(line=line, events=_("; ").join(events)) if events else line
