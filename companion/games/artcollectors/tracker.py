"""Art Collectors' pile tracker: every draw entered with the token's identity (the bag is physical, so the
token arrives inside the action); the moves keep the bag, the turn and every pile, refuse what the rules
forbid, apply the full game's abilities, and score the piles when the bag runs out.

The moves are module functions ``(state, action)`` on the copy the engine's ``apply`` made; ``options`` says
what can be done now. The state's own copy of the catalogue is all they read (a state never needs the data
file again).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.artcollectors import wording
from companion.games.artcollectors.catalogue import (
    ANGEL,
    BANKER,
    BLACK_CAT_MARK,
    CHEATER,
    ROBIN,
    WILD,
    painting_of,
    plain,
)
from companion.games.artcollectors.scoring import (
    black_cat_painting,
    black_cat_where,
    pile_counts,
    tally,
    top_run,
)
from companion.games.artcollectors.state import ArtCollectorsState, Phase, Turn, described
from companion.games.artcollectors.wording import names_text as _names
from companion.games.artcollectors.wording import token_name
from companion.games.base import Action, IllegalAction, is_whole, require
from companion.i18n import _, a_number, ngettext

# --------------------------------------------------------------------------------------------------------------
# Small helpers over the state's own copy of the catalogue.


def ability_of(state: ArtCollectorsState, code: str) -> str:
    """The ability of token ``code`` in the full game ("" in the basic game or for a token without one)."""
    if not state["settings"]["full_game"]:
        return ""
    return str(state["kinds"][plain(code)]["ability"])


def player_arg(state: ArtCollectorsState, action: Action, key: str) -> int:
    """``action[key]`` as a player number, else :class:`IllegalAction`."""
    value = action.get(key)
    count = len(state["players"])
    if not is_whole(value) or not 0 <= value < count:
        raise IllegalAction(
            _("'{key}' must be a player number 0..{last}, not {value!r}").format(key=key, last=count - 1, value=value)
        )
    return value


def whole_arg(value: Any, reason: str, least: int = 0) -> int:
    """``value`` as an int ≥ ``least``, else :class:`IllegalAction` with ``reason``."""
    if not is_whole(value) or value < least:
        raise IllegalAction(reason)
    return int(value)


def protected(state: Mapping[str, Any], seat: int) -> bool:
    """True when an angel lies on top of ``seat``'s pile in the full game (shielding it from abilities)."""
    state = described(state)
    pile = state["piles"][seat]
    return bool(state["settings"]["full_game"]) and bool(pile) and ability_of(state, pile[-1]) == ANGEL


def bag_total(state: ArtCollectorsState) -> int:
    """Tokens still in the bag."""
    return sum(int(n) for n in state["bag"].values())


def new_turn() -> Turn:
    """A turn before its first draw."""
    return {
        "tokens": [],  # this turn's tokens in the order gained (drawn, stolen, exchanged, taken)
        "drawn": [],  # paintings drawn from the bag this turn (duplicates are judged against these)
        "last": None,  # code of the latest drawn token: steals follow it
        "cat": None,  # after a musician cat: "steal" or "exchange" once chosen
        "cheater": 0,  # duplicates still allowed by the cheater
        "cheater_seen": False,
        "robin": "none",  # none / ready / used
        "ladies": -1,  # -1 not earned; else tokens still to take
    }


# --------------------------------------------------------------------------------------------------------------
# The moves


def _need_play(state: ArtCollectorsState) -> None:
    if state["phase"] != Phase.PLAY:
        if state["settings"]["tracker"]:
            raise IllegalAction(_("tracking has ended: enter the final count instead"))
        raise IllegalAction(_("the pile tracker is off in this game: enter the final count instead"))


def end_tracking(state: ArtCollectorsState, action: Action) -> None:
    """Switch to the hand count, prefilled from the piles; allowed mid-turn (the table may disagree at any time).

    Mid-turn, the tokens in front of the current player are counted as theirs (as if they stopped); the
    count is corrected by hand at the end anyway.
    """
    _need_play(state)
    where, seat = black_cat_where(state)
    counts = pile_counts(state)
    turn_tokens: list[str] = list(state["turn"]["tokens"])
    current = int(state["current"])
    for code in turn_tokens:
        counts[current][str(painting_of(code))] += 1
    state["counts"] = counts
    state["black_cat"] = seat if where in ("pile", "turn") else None
    state["black_cat_set"] = where in ("pile", "turn")
    state["phase"] = Phase.COUNT
    state["events"] = [{"event": "tracker_off", "count": len(turn_tokens), "seat": state["seats"][current]}]


def _token(state: ArtCollectorsState, value: Any) -> str:
    code = str(value).strip().upper()
    if code in state["kinds"]:
        return code
    if code.isdigit():
        if code in state["paintings"]:
            options = _(" or ").join(
                _("{code} ({name})").format(code=c, name=wording.kind_name(state, c))
                for c in state["paintings"][code]["codes"]
            )
            raise IllegalAction(
                _("painting {painting} has different tokens: say which, {options}").format(
                    painting=code, options=options
                )
            )
        if int(code) in state["removed"]:
            raise IllegalAction(_("painting {painting} and its tokens are out of this game").format(painting=code))
    raise IllegalAction(_("there is no token {token!r} in this game").format(token=value))


def draw(state: ArtCollectorsState, action: Action) -> None:
    _need_play(state)
    turn = state["turn"]
    code = _token(state, action.get("token"))
    number = painting_of(code)
    me = state["seats"][state["current"]]
    require(bag_total(state) > 0, _("the bag is empty"))
    if state["bag"][code] <= 0:
        raise IllegalAction(_("there is no {token} left in the bag").format(token=token_name(state, code)))
    cat_wanted = bool(action.get("black_cat", False))
    cat_painting = black_cat_painting(state)
    if cat_wanted:
        if not state["black_cat_in_bag"]:
            where, seat = black_cat_where(state)
            if where == "turn":
                raise IllegalAction(_("the black-cat token is not in the bag: it is in this turn's tokens"))
            raise IllegalAction(
                _("the black-cat token is not in the bag: it is in {name}'s pile").format(
                    name=state["players"][seat or 0]
                )
            )
        if cat_painting and cat_painting != number:
            raise IllegalAction(
                _("the black-cat token is {a_number}, not {other}").format(
                    a_number=a_number(cat_painting), other=a_number(number)
                )
            )
    elif state["black_cat_in_bag"]:
        # The last token that can carry the black cat must be it.
        if cat_painting:
            left = sum(int(state["bag"][c]) for c in state["paintings"][str(cat_painting)]["codes"])
            cat_wanted = number == cat_painting and left == 1
        else:
            cat_wanted = bag_total(state) == 1
    state["bag"][code] -= 1
    if cat_wanted:
        state["black_cat_in_bag"] = False
        state["black_cat_seen"] = number  # one physical token: it stays this painting after a bust
        code += BLACK_CAT_MARK
    if ability_of(state, code) == CHEATER and not turn["cheater_seen"]:
        turn["cheater_seen"] = True
        turn["cheater"] = 1
    if number in turn["drawn"]:
        if turn["cheater"] > 0:
            turn["cheater"] -= 1
            state["events"] = [{"event": "cheater_pass", "seat": me, "painting": number}]
        else:
            lost = [*turn["tokens"], code]
            _to_bag(state, lost)
            state["events"] = [{"event": "bust", "seat": me, "painting": number, "count": len(lost)}]
            _next_player(state)
            return
    else:
        state["events"] = [{"event": "draw", "seat": me, "token": code}]
    turn["drawn"].append(number)
    turn["tokens"].append(code)
    turn["last"] = code
    turn["cat"] = None
    _gain(state, [code])


def _gain(state: ArtCollectorsState, codes: list[str]) -> None:
    """Abilities of tokens gained this turn (full game): banker, cheater, Robin Tell, the three ladies."""
    turn = state["turn"]
    seat = int(state["current"])
    for code in codes:
        ability = ability_of(state, code)
        if ability == ROBIN and turn["robin"] == "none":
            turn["robin"] = "ready"
            state["events"].append({"event": "robin_ready"})
        elif ability == CHEATER and not turn["cheater_seen"]:
            turn["cheater_seen"] = True
            turn["cheater"] = 1
        elif ability == BANKER:
            pile = state["piles"][seat]
            if protected(state, seat) and state["settings"]["angel_guards_banker"]:
                state["events"].append({"event": "angel_guards"})
            else:
                back = (len(pile) + 1) // 2
                returned = pile[len(pile) - back :]
                del pile[len(pile) - back :]
                _to_bag(state, returned)
                state["events"].append({"event": "banker", "count": back})
    if state["settings"]["full_game"] and turn["ladies"] < 0:
        have = {painting_of(c) for c in turn["tokens"]}
        if all(n in have for n in state["ladies"]):
            turn["ladies"] = int(state["ladies_take"])
            state["events"].append({"event": "ladies_ready", "count": turn["ladies"]})


def _to_bag(state: ArtCollectorsState, codes: list[str]) -> None:
    for code in codes:
        if code.endswith(BLACK_CAT_MARK):
            state["black_cat_in_bag"] = True
        state["bag"][plain(code)] += 1


def _next_player(state: ArtCollectorsState) -> None:
    state["current"] = (int(state["current"]) + 1) % len(state["players"])
    state["turn"] = new_turn()
    state["turns"] += 1
    if bag_total(state) == 0:
        where, seat = black_cat_where(state)
        state["result"] = tally(state, pile_counts(state), seat if where == "pile" else None)
        state["phase"] = Phase.OVER
        state["events"].append({"event": "bag_empty"})


def _other(state: ArtCollectorsState, action: Action, key: str) -> int:
    seat = player_arg(state, action, key)
    require(seat != state["current"], _("choose another player's pile, not your own"))
    require(bool(state["piles"][seat]), _("{name}'s pile is empty").format(name=state["players"][seat]))
    return seat


def steal(state: ArtCollectorsState, action: Action) -> None:
    _need_play(state)
    turn = state["turn"]
    last = turn["last"]
    require(last is not None, _("steal right after drawing a token of the same painting"))
    assert last is not None
    seat = _other(state, action, "from")
    number = painting_of(last)
    pile = state["piles"][seat]
    name = state["players"][seat]
    top = painting_of(pile[-1])
    require(
        top == number,
        _("{name}'s top token is {a_number}, not {other}").format(
            name=name, a_number=a_number(top), other=a_number(number)
        ),
    )
    if state["kinds"][plain(last)]["ability"] == WILD:
        require(turn["cat"] != "exchange", _("you exchanged the musician cat: no stealing cats this time"))
        turn["cat"] = "steal"
    run = top_run(pile)
    count = action.get("count", run)  # without a count (journals before it): the whole run, as before
    # "Si en tenen d'altres de seguides iguals que aquesta darrera fitxa, també els les pots robar": the
    # tokens under the top one are the thief's to take too, or to leave.
    if count != run:
        most = "1" if run == 1 else _("1 to {n}").format(n=run)
        require(
            is_whole(count) and 1 <= count <= run,
            _("{name} has {n} × {painting} on top: steal {most}").format(name=name, n=run, painting=number, most=most),
        )
    taken = [pile.pop() for _ in range(int(count))]
    turn["tokens"].extend(taken)
    state["events"] = [
        {
            "event": "steal",
            "seat": state["seats"][state["current"]],
            "count": len(taken),
            "painting": number,
            "from": state["seats"][seat],
        }
    ]
    _gain(state, taken)


def exchange(state: ArtCollectorsState, action: Action) -> None:
    _need_play(state)
    turn = state["turn"]
    last = turn["last"]
    require(
        last is not None and state["kinds"][plain(last)]["ability"] == WILD,
        _("exchange right after drawing a musician cat"),
    )
    assert last is not None
    require(
        turn["cat"] is None,
        _("this musician cat was already used to steal")
        if turn["cat"] == "steal"
        else _("this musician cat was already used to exchange"),
    )
    seat = _other(state, action, "with")
    name = state["players"][seat]
    pile = state["piles"][seat]
    if state["settings"]["full_game"]:
        require(
            not protected(state, seat),
            _("{name}'s top token is the angel: the musician cats cannot take it").format(name=name),
        )
    gained = pile.pop()
    turn["tokens"].remove(last)
    pile.append(last)
    turn["tokens"].append(gained)
    turn["cat"] = "exchange"
    state["events"] = [
        {
            "event": "exchange",
            "seat": state["seats"][state["current"]],
            "with": state["seats"][seat],
            "token": gained,
        }
    ]
    _gain(state, [gained])


def robin(state: ArtCollectorsState, action: Action) -> None:
    _need_play(state)
    turn = state["turn"]
    require(state["settings"]["full_game"], _("Robin Tell has no ability in the basic game"))
    require(turn["robin"] != "used", _("Robin Tell has already acted this turn"))
    require(turn["robin"] == "ready", _("Robin Tell acts only in the turn you gain his token"))
    seat = player_arg(state, action, "target")
    sizes = [len(p) for p in state["piles"]]
    most = max(sizes)
    require(most > 0, _("every pile is empty: Robin Tell has nothing to take"))
    name = state["players"][seat]
    if sizes[seat] != most:
        richest = _names(state, [i for i, n in enumerate(sizes) if n == most])
        raise IllegalAction(
            _("Robin Tell takes the biggest pile ({names}: {most}); {name} has only {n}").format(
                names=richest, most=most, name=name, n=sizes[seat]
            )
        )
    require(not protected(state, seat), _("{name}'s pile is protected by the angel").format(name=name))
    deal = action.get("deal")
    if not isinstance(deal, list) or not deal:
        raise IllegalAction(_("'deal' lists who gets the tokens: [{{'to': player, 'count': n}}]"))
    chunks = []
    for part in deal:
        require(isinstance(part, dict), _("each part of the deal is {{'to': player, 'count': n}}"))
        to = player_arg(state, part, "to")
        chunks.append((to, whole_arg(part.get("count"), _("each part of the deal gives 1 or more tokens"), 1)))
    given = sum(n for _to, n in chunks)
    require(
        given == most,
        ngettext(
            "deal out all {n} token of {name}'s pile (this deal gives {given})",
            "deal out all {n} tokens of {name}'s pile (this deal gives {given})",
            most,
        ).format(n=most, name=name, given=given),
    )
    taken = list(reversed(state["piles"][seat]))  # top first
    state["piles"][seat] = []
    at = 0
    for to, n in chunks:
        chunk = taken[at : at + n]
        at += n
        state["piles"][to].extend(reversed(chunk))  # the chunk keeps its order on the receiver's pile
    turn["robin"] = "used"
    state["events"] = [{"event": "robin", "from": state["seats"][seat], "count": most}]


def take(state: ArtCollectorsState, action: Action) -> None:
    _need_play(state)
    turn = state["turn"]
    require(state["settings"]["full_game"], _("the three ladies have no ability in the basic game"))
    ladies = ", ".join(str(n) for n in state["ladies"])
    require(
        turn["ladies"] != -1, _("taking needs the three ladies ({paintings}) in this turn").format(paintings=ladies)
    )
    require(
        turn["ladies"] > 0,
        ngettext(
            "the three ladies have already taken {n} token",
            "the three ladies have already taken {n} tokens",
            int(state["ladies_take"]),
        ).format(n=state["ladies_take"]),
    )
    seat = _other(state, action, "from")
    name = state["players"][seat]
    require(not protected(state, seat), _("{name}'s pile is protected by the angel").format(name=name))
    gained = state["piles"][seat].pop()
    turn["tokens"].append(gained)
    turn["ladies"] -= 1
    state["events"] = [{"event": "ladies_take", "token": gained, "from": state["seats"][seat], "left": turn["ladies"]}]
    _gain(state, [gained])


def stop(state: ArtCollectorsState, action: Action) -> None:
    _need_play(state)
    turn = state["turn"]
    require(bool(turn["drawn"]), _("draw at least one token before stopping"))
    tokens: list[str] = list(turn["tokens"])
    order = action.get("order")
    if order is not None:
        require(isinstance(order, list) and all(isinstance(c, str) for c in order), _("'order' lists token codes"))
        require(
            sorted(order) == sorted(tokens),
            _("'order' must list exactly this turn's tokens ({tokens}), bottom first").format(tokens=", ".join(tokens)),
        )
        tokens = list(order)
    seat = int(state["current"])
    state["piles"][seat].extend(tokens)
    state["events"] = [{"event": "stop", "seat": state["seats"][seat], "count": len(tokens), "top": tokens[-1]}]
    _next_player(state)


def options(state: Mapping[str, Any]) -> dict[str, Any]:
    """What can be done now (for greying out buttons): drawable codes and the seats each move may target."""
    state = described(state)
    out: dict[str, Any] = {"draw": [], "steal": [], "exchange": [], "take": [], "robin": [], "stop": False}
    if state["phase"] != Phase.PLAY:
        return out
    turn = state["turn"]
    seat = int(state["current"])
    full = bool(state["settings"]["full_game"])
    out["draw"] = [code for code, n in state["bag"].items() if n > 0]
    out["stop"] = bool(turn["drawn"])
    others = [i for i, pile in enumerate(state["piles"]) if i != seat and pile]
    last = turn["last"]
    if last is not None:
        number = painting_of(last)
        wild = state["kinds"][plain(last)]["ability"] == WILD
        if not (wild and turn["cat"] == "exchange"):
            out["steal"] = [i for i in others if painting_of(state["piles"][i][-1]) == number]
        if wild and turn["cat"] is None:
            out["exchange"] = [i for i in others if not (full and protected(state, i))]
    if full and turn["ladies"] > 0:
        out["take"] = [i for i in others if not protected(state, i)]
    if full and turn["robin"] == "ready":
        sizes = [len(p) for p in state["piles"]]
        most = max(sizes)
        out["robin"] = [i for i, n in enumerate(sizes) if most and n == most and not protected(state, i)]
    return out


def steal_run(state: Mapping[str, Any], seat: int) -> int:
    """How many tokens the current player may steal from ``seat``'s pile now: the run of tokens of the same
    painting on its top when a steal from it is legal ("també els les pots robar"), else 0. Above 1 the thief
    chooses to take the whole run or only the top one."""
    state = described(state)
    if seat not in options(state)["steal"]:
        return 0
    return top_run(state["piles"][seat])
