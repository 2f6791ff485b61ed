"""Rat-a-Tat Roll's moves: one function ``(state, action)`` per action type, run on the copy the engine's
``apply`` made once the phase accepts the type (:meth:`RatATatRoll.check_move`), with the steps a turn goes
through after each (refill, reshuffle, look, give back, the next turn, the final round).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from companion.games.base import (
    Action,
    IllegalAction,
    is_whole,
    require,
)
from companion.games.ratatat import wording
from companion.games.ratatat.board import (
    REGIONS,
)
from companion.games.ratatat.phases import (
    DEAL,
    ENDGAME,
    FINAL_REVEAL,
    GIVE_BACK,
    LOOK,
    MAX_DICE,
    OVER,
    PICTURE,
    PICTURE_ROLLED,
    REVEAL,
    ROLL,
    ROLLED,
    SPACE,
    reshuffle_due,
)
from companion.games.ratatat.state import FaceUp, RatatatState, Space, described
from companion.i18n import _, ngettext


def only_so_many(state: RatatatState, value: Any) -> str:
    """The refusal of one card value too many: the deck has only so many."""
    count = int(state["deck"][str(value)])
    return ngettext("the deck has only {n} card of {value}", "the deck has only {n} cards of {value}", count).format(
        n=count, value=value
    )


def whole_arg(action: Action, key: str, what: str) -> int:
    """``action[key]`` as a whole number, else :class:`IllegalAction` naming ``what``."""
    value = action.get(key)
    if not is_whole(value):
        raise IllegalAction(_("{what} must be a whole number, not {value!r}").format(what=what, value=value))
    return value


def player_arg(state: RatatatState, name: Any) -> int:
    """The index of the player called ``name``, else :class:`IllegalAction`."""
    if name not in state["players"]:
        raise IllegalAction(_("there is no player called {name!r}").format(name=name))
    return int(state["players"].index(name))


def picture_choices(state: Mapping[str, Any]) -> list[int]:
    """Regions the cat (lowest) or rat (highest) lets the player take; more than one means a tie to pick."""
    state = described(state)
    cards = [(r, c["value"]) for r, c in enumerate(state["face_up"]) if c is not None]
    if not cards or state["picture"] not in ("cat", "rat"):
        return []
    pick = min if state["picture"] == "cat" else max
    target = pick(v for _region, v in cards)
    return [r for r, v in cards if v == target]


def landing_space(state: RatatatState) -> Space:
    """The space the statue landed on this turn (there is one from the move until the turn ends)."""
    landing = state["landing"]
    assert landing is not None, "the statue has not moved this turn"
    return state["board"]["spaces"][landing]


# --------------------------------------------------------------------------------------------------------------
# Number dice


def _faces(values: Any) -> list[int]:
    if not isinstance(values, list):
        raise IllegalAction(_("dice must be a list of numbers"))
    for v in values:
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
            raise IllegalAction(_("a die shows 1 to 6, not {value!r}").format(value=v))
    return list(values)


def roll(state: RatatatState, action: Action) -> None:
    dice = _faces(action.get("dice"))
    if len(dice) > MAX_DICE:
        raise IllegalAction(_("{n} dice are not allowed: roll 1, 2 or 3").format(n=len(dice)))
    require(len(dice) >= 1, _("roll at least one die"))
    state["dice"] = dice
    state["phase"] = ROLLED


def reroll(state: RatatatState, action: Action) -> None:
    me = state["current"]
    if state["phase"] == PICTURE_ROLLED:
        require("indices" not in action, _("only the picture die was rolled: re-roll it"))
        face = action.get("picture")
        require(
            face in state["picture_faces"],
            _("the picture die shows {faces}, not {face!r}").format(
                faces=", ".join(sorted(set(state["picture_faces"]))), face=face
            ),
        )
        assert isinstance(face, str)  # one of the die's faces
        state["picture"] = face
        state["events"].append({"event": "picture_rerolled", "face": face})
    else:
        require("picture" not in action, _("the picture die was not rolled"))
        indices: Any = action.get("indices")
        values = _faces(action.get("values"))
        count = len(state["dice"])
        require(isinstance(indices, list) and len(indices) >= 1, _("choose at least one die to re-roll"))
        require(len(values) == len(indices), _("give one new value for each die re-rolled"))
        if len(indices) > count:
            raise IllegalAction(_("a re-roll cannot add a die: you rolled {n}").format(n=count))
        for i in indices:
            ok = isinstance(i, int) and not isinstance(i, bool) and 0 <= i < count
            require(ok, _("there is no die {die!r}: you rolled {n}").format(die=i, n=count))
        require(len(set(indices)) == len(indices), _("each die can be re-rolled once per token"))
        for i, v in zip(indices, values, strict=True):
            state["dice"][i] = v
        state["events"].append({"event": "dice_rerolled", "count": len(indices), "of": count})
    state["tokens"][me] -= 1
    state["bank"] += 1


def move(state: RatatatState, action: Action) -> None:
    ring = len(state["board"]["spaces"])
    state["statue"] = (state["statue"] + sum(state["dice"])) % ring
    state["landing"] = state["statue"]
    space = state["board"]["spaces"][state["statue"]]
    state["phase"] = PICTURE if space["kind"] == "picture" else SPACE


# --------------------------------------------------------------------------------------------------------------
# Taking cards


def _earn(state: RatatatState, count: int, why: Literal["balloon_card", "balloon_space"]) -> None:
    """Tokens from the bank for ``why`` ("balloon_card" or "balloon_space"), as many as it still has."""
    me = state["current"]
    got = min(count, state["bank"])
    state["bank"] -= got
    state["tokens"][me] += got
    state["fresh"][me] += got
    if got:
        state["events"].append({"event": "tokens_earned", "count": got, "why": why})
    if got < count:
        state["events"].append({"event": "bank_empty"})


def _add_to_row(state: RatatatState, origin: Literal["board", "pile"]) -> None:
    state["rows"][state["current"]].append({"id": state["next_id"], "from": origin})
    state["next_id"] += 1


def _take_from_region(state: RatatatState, region: int) -> None:
    card = state["face_up"][region]
    assert card is not None  # only a region showing a card is offered
    state["face_up"][region] = None
    _add_to_row(state, "board")
    if card["balloon"]:
        _earn(state, 1, "balloon_card")
    state["to_reveal"].append(region)


def take_region(state: RatatatState, action: Action) -> None:
    if state["phase"] == SPACE:
        space = landing_space(state)
        region = space["region"]
        if "region" in action:
            chosen = whole_arg(action, "region", _("the region"))
            require(
                chosen == region,
                _("the statue is in the {region} region").format(region=wording.region_name(state, region)),
            )
        _take_from_region(state, region)
        if space["kind"] == "balloon":
            _earn(state, 1, "balloon_space")
        if space["kind"] == "leopard":
            state["look_due"] = True
    else:  # picture die: cat or rat
        choices = picture_choices(state)
        if "region" in action:
            region = whole_arg(action, "region", _("the region"))
            require(
                region in choices,
                _("the cat takes the lowest face-up card")
                if state["picture"] == "cat"
                else _("the rat takes the highest face-up card"),
            )
        else:
            require(len(choices) == 1, _("several face-up cards tie: choose which one to take"))
            region = choices[0]
        _take_from_region(state, region)
        if state["endgame_turn"]:
            state["give_back_due"] = True
    _continue(state)


def take_pile(state: RatatatState, action: Action) -> None:
    balloon = action.get("balloon", False)
    require(isinstance(balloon, bool), _("say whether the card shows a balloon (true or false)"))
    state["pile"] -= 1
    _add_to_row(state, "pile")
    if balloon:
        _earn(state, 1, "balloon_card")
    _continue(state)


def end_turn(state: RatatatState, action: Action) -> None:
    state["events"].append({"event": "nothing_to_take"})
    _continue(state)


# --------------------------------------------------------------------------------------------------------------
# Picture die


def picture(state: RatatatState, action: Action) -> None:
    face = action.get("face")
    faces = sorted(set(state["picture_faces"]))
    require(face in faces, _("the picture die shows {faces}, not {face!r}").format(faces=", ".join(faces), face=face))
    state["endgame_turn"] = state["phase"] == ENDGAME
    state["picture"] = face
    state["phase"] = PICTURE_ROLLED


def pass_turn(state: RatatatState, action: Action) -> None:
    _end_turn(state)


def swap(state: RatatatState, action: Action) -> None:
    me = state["current"]
    other = player_arg(state, action.get("other"))
    require(other != me, _("swap with another player's card, not your own"))
    mine = whole_arg(action, "mine", _("your card"))
    theirs = whole_arg(action, "theirs", _("their card"))
    my_row, their_row = state["rows"][me], state["rows"][other]
    require(0 <= mine < len(my_row), _("you have cards 1-{n}, not {card}").format(n=len(my_row), card=mine + 1))
    who = state["players"][other]
    require(
        0 <= theirs < len(their_row),
        _("{name} has cards 1-{n}, not {card}").format(name=who, n=len(their_row), card=theirs + 1),
    )
    my_row[mine], their_row[theirs] = their_row[theirs], my_row[mine]
    state["events"].append({"event": "swapped", "mine": mine, "seat": state["seats"][other], "theirs": theirs})
    _continue(state)


def no_swap(state: RatatatState, action: Action) -> None:
    state["events"].append({"event": "no_swap"})
    _continue(state)


def give_back(state: RatatatState, action: Action) -> None:
    row = state["rows"][state["current"]]
    card = whole_arg(action, "card", _("the card to give back"))
    old = len(row) - 1  # the card just taken is last and cannot be the one given back
    require(0 <= card < old, _("give back one of the cards you held before (1-{n}), not the new one").format(n=old))
    del row[card]
    state["pile"] += 1
    state["give_back_due"] = False
    state["events"].append({"event": "gave_back", "card": card})
    _continue(state)


def look(state: RatatatState, action: Action) -> None:
    at = action.get("at")
    if at not in ("own", "none"):
        other = player_arg(state, at)
        require(other != state["current"], _("to see your own cards choose 'own'"))
        card = whole_arg(action, "card", _("the card to look at"))
        row = state["rows"][other]
        require(
            0 <= card < len(row), _("{name} has cards 1-{n}, not {card}").format(name=at, n=len(row), card=card + 1)
        )
    state["look_due"] = False
    _continue(state)


# --------------------------------------------------------------------------------------------------------------
# Refilling and the reshuffle


def reveal(state: RatatatState, action: Action) -> None:
    pending = state["to_reveal"]
    region = whole_arg(action, "region", _("the region")) if "region" in action else pending[0]
    require(
        region in pending,
        _("the {region} region already has its card").format(region=wording.region_name(state, region))
        if isinstance(region, int) and 0 <= region < REGIONS
        else _("there is no region {region!r}").format(region=region),
    )
    value = action.get("value")
    require(
        isinstance(value, int) and not isinstance(value, bool) and str(value) in state["deck"],
        _("no card in this deck shows {value!r} (values: {values})").format(
            value=value, values=", ".join(state["deck"])
        ),
    )
    balloon = action.get("balloon")
    require(isinstance(balloon, bool), _("say whether the card shows a balloon (true or false)"))
    showing = sum(1 for c in state["face_up"] if c is not None and c["value"] == value)
    require(showing < state["deck"][str(value)], only_so_many(state, value))
    require(state["pile"] > 0, _("the draw pile is empty"))
    state["pile"] -= 1
    assert isinstance(value, int) and isinstance(balloon, bool)  # required above
    card: FaceUp = {"value": value, "balloon": balloon}
    state["face_up"][region] = card
    pending.remove(region)
    _continue(state)


def _refill_done(state: RatatatState) -> None:
    """All regions filled: the reshuffle trigger (checked again after every new five)."""
    if state["phase"] != DEAL and reshuffle_due(state["face_up"], state["edition"]):
        state["pile"] += sum(1 for c in state["face_up"] if c is not None)
        state["face_up"] = [None] * REGIONS
        state["to_reveal"] = list(range(REGIONS))
        state["reshuffles"] += 1
        state["events"].append({"event": "reshuffled"})


def _continue(state: RatatatState) -> None:
    """After a step of a turn: the next thing the table owes, or the end of the turn."""
    if state["give_back_due"]:
        state["phase"] = GIVE_BACK
        return
    if state["to_reveal"] and state["pile"] == 0:
        state["events"].append({"event": "pile_empty"})
        state["to_reveal"] = []
    if state["to_reveal"]:
        if state["phase"] != DEAL:
            state["phase"] = REVEAL
        return
    if state["phase"] == DEAL:
        _start_turn(state)
        return
    if state["phase"] == REVEAL:
        _refill_done(state)
        if state["to_reveal"]:
            return
    if state["look_due"]:
        state["phase"] = LOOK
        return
    _end_turn(state)


# --------------------------------------------------------------------------------------------------------------
# Turns and the end


def _start_turn(state: RatatatState) -> None:
    me = state["current"]
    state["dice"] = []
    state["picture"] = None
    state["landing"] = None
    state["endgame_turn"] = False
    state["phase"] = ENDGAME if len(state["rows"][me]) >= state["threshold"] else ROLL


def _end_turn(state: RatatatState) -> None:
    me = state["current"]
    n = len(state["players"])
    state["fresh"][me] = 0
    at_threshold = [len(row) >= state["threshold"] for row in state["rows"]]
    if state["final_round"] and state["last_to_threshold"] == me:
        state["phase"] = FINAL_REVEAL
        state["dice"], state["picture"], state["landing"] = [], None, None
        state["events"].append({"event": "final_round_over"})
        return
    if not state["final_round"] and all(at_threshold):
        state["final_round"] = True
        state["last_to_threshold"] = me
        state["events"].append({"event": "final_round"})
    state["current"] = (me + 1) % n
    state["turn"] += 1
    _start_turn(state)


def hand(state: RatatatState, action: Action) -> None:
    who = player_arg(state, action.get("player"))
    name = state["players"][who]
    values: Any = action.get("values")
    size = len(state["rows"][who])
    require(
        isinstance(values, list) and len(values) == size,
        ngettext("{name} has {n} card: enter {n} value", "{name} has {n} cards: enter {n} values", size).format(
            name=name, n=size
        ),
    )
    for v in values:
        ok = isinstance(v, int) and not isinstance(v, bool) and str(v) in state["deck"]
        require(ok, _("no card in this deck shows {value!r}").format(value=v))
    hands = dict(state["hands"])
    hands[name] = list(values)
    counts: dict[int, int] = {}
    for hand in hands.values():
        for v in hand:
            counts[v] = counts.get(v, 0) + 1
    for card in state["face_up"]:
        if card is not None:
            counts[card["value"]] = counts.get(card["value"], 0) + 1
    for v, c in counts.items():
        require(c <= state["deck"][str(v)], only_so_many(state, v))
    state["hands"] = hands
    if len(hands) == len(state["players"]):
        state["phase"] = OVER
