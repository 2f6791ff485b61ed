"""Art Collectors in words: the log line of each action, the sentence of each event, why each painting went
to whom and what was not counted, in the current language (``companion.i18n``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.games.artcollectors.catalogue import BLACK_CAT_MARK, plain
from companion.games.base import Action
from companion.i18n import _, ngettext, pgettext

Event = Mapping[str, Any]

# The tokens as the Catalan rulebook names them ("Robin Tell", "el banquer", "el trampós", "l'àngel", "la
# nedadora", "l'astronauta", "l'escriptora", "el paleta", "els bessons", "la pitonissa", "el bomber", "els gats
# músics"); the other languages word them from the catalogue. Keyed by token code; unknown codes keep the data
# file's own name.
TOKEN_NAMES = {
    "1": lambda: pgettext("art collectors token", "Robin Tell"),
    "2B": lambda: pgettext("art collectors token", "the banker"),
    "2C": lambda: pgettext("art collectors token", "the cheater"),
    "3": lambda: pgettext("art collectors token", "the angel"),
    "4": lambda: pgettext("art collectors token", "the swimmer"),
    "5": lambda: pgettext("art collectors token", "the astronaut"),
    "6": lambda: pgettext("art collectors token", "the writer"),
    "7": lambda: pgettext("art collectors token", "the bricklayer"),
    "8": lambda: pgettext("art collectors token", "the twins"),
    "9": lambda: pgettext("art collectors token", "the fortune teller"),
    "10": lambda: pgettext("art collectors token", "the firefighter"),
    "11": lambda: pgettext("art collectors token", "the musician cats"),
}


def kind_name(state: Mapping[str, Any], code: str) -> str:
    """A token's character in the current language ("el banquer"), or the data file's name for it."""
    wording = TOKEN_NAMES.get(plain(code))
    if wording is not None and plain(code) in state["kinds"]:
        return wording()
    kind = state["kinds"].get(plain(code))
    return str(kind["name"]) if kind is not None else code


def token_name(state: Mapping[str, Any], code: str) -> str:
    """Readable name of a token, e.g. "7 (the bricklayer)" or "2B (the banker)"."""
    kind = state["kinds"].get(plain(code))
    if kind is None:
        return code
    if code.endswith(BLACK_CAT_MARK):
        return _("{code} ({name}) with the black cat").format(code=plain(code), name=kind_name(state, code))
    return _("{code} ({name})").format(code=plain(code), name=kind_name(state, code))


def names_text(state: Mapping[str, Any], seats: list[int]) -> str:
    """ "Ana", "Ana and Bo", "Ana, Bo and Cy": the players at these places (indexes), as said aloud."""
    names: list[str] = [str(state["players"][i]) for i in seats]
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])


def describe(action: Action, state: Mapping[str, Any] | None = None) -> str:
    """One line for the log and the undo prompt."""
    kind = str(action.get("type", "?"))
    if kind == "draw":
        if action.get("black_cat"):
            return _("Draw {token} (black cat)").format(token=action.get("token"))
        return _("Draw {token}").format(token=action.get("token"))
    if kind == "steal":
        return _("Steal from player {player}").format(player=action.get("from"))
    if kind == "exchange":
        return _("Swap the musician cat with player {player}").format(player=action.get("with"))
    if kind == "take":
        return _("The three ladies take from player {player}").format(player=action.get("from"))
    if kind == "robin":
        return _("Robin Tell takes player {player}'s pile").format(player=action.get("target"))
    if kind == "stop":
        return _("Stop and pile this turn's tokens")
    if kind == "set_count":
        return _("Player {player} holds {count} of painting {painting}").format(
            player=action.get("player"), count=action.get("count"), painting=action.get("painting")
        )
    if kind == "set_counts":
        return _("Counts for player {player}").format(player=action.get("player"))
    if kind == "set_black_cat":
        who = action.get("player")
        return (
            _("Nobody holds the black cat")
            if who is None
            else _("Player {player} holds the black cat").format(player=who)
        )
    if kind == "finish":
        return _("Score the game")
    if kind == "end_tracking":
        return _("Stop tracking; count by hand")
    return kind


def name_at(state: Mapping[str, Any], seat: Any) -> str:
    """The name of the player at ``seat`` (button number); the seat number if nobody sits there."""
    seats = state.get("seats", [])
    return str(state["players"][seats.index(seat)]) if seat in seats else str(seat)


def event_text(event: Event, state: Mapping[str, Any]) -> str:
    """One event of the last action (``state["events"]``) as a sentence for the players."""
    kind = event.get("event")
    who = name_at(state, event.get("seat"))
    if kind == "draw":
        return _("{name} draws {token}").format(name=who, token=token_name(state, event["token"]))
    if kind == "cheater_pass":
        return _("{name} draws a second {painting}: the cheater lets it pass").format(
            name=who, painting=event["painting"]
        )
    if kind == "bust":
        return ngettext(
            "Bust! {name} drew a second {painting}: {n} token goes back to the bag",
            "Bust! {name} drew a second {painting}: {n} tokens go back to the bag",
            event["count"],
        ).format(name=who, painting=event["painting"], n=event["count"])
    if kind == "banker":
        return ngettext(
            "the banker sends {n} token from the pile back to the bag",
            "the banker sends {n} tokens from the pile back to the bag",
            event["count"],
        ).format(n=event["count"])
    if kind == "ladies_ready":
        return ngettext(
            "the three ladies may take up to {n} token", "the three ladies may take up to {n} tokens", event["count"]
        ).format(n=event["count"])
    if kind == "steal":
        return _("{name} steals {n} × {painting} from {other}").format(
            name=who, n=event["count"], painting=event["painting"], other=name_at(state, event["from"])
        )
    if kind == "exchange":
        return _("{name} swaps the musician cat for {other}'s {token}").format(
            name=who, other=name_at(state, event["with"]), token=token_name(state, event["token"])
        )
    if kind == "robin":
        return ngettext(
            "Robin Tell takes {other}'s token and hands it out",
            "Robin Tell takes {other}'s {n} tokens and hands them out",
            event["count"],
        ).format(other=name_at(state, event["from"]), n=event["count"])
    if kind == "ladies_take":
        return _("The three ladies take {token} from {other} ({n} more)").format(
            token=token_name(state, event["token"]), other=name_at(state, event["from"]), n=event["left"]
        )
    if kind == "stop":
        return ngettext(
            "{name} stops and piles {n} token, {top} on top",
            "{name} stops and piles {n} tokens, {top} on top",
            event["count"],
        ).format(name=who, n=event["count"], top=event["top"])
    if kind == "tracker_off":
        text = _("Tracker off: the counts come from the piles; correct them and finish")
        if event.get("count"):
            text += " " + ngettext(
                "(this turn's {n} token is counted as {name}'s)",
                "(this turn's {n} tokens are counted as {name}'s)",
                event["count"],
            ).format(n=event["count"], name=who)
        return text
    fixed = {
        "robin_ready": _("Robin Tell may take the richest pile"),
        "angel_guards": _("the angel guards the pile from the banker"),
        "bag_empty": _("the bag is empty: game over"),
    }
    return fixed.get(str(kind), str(kind))


def events_line(state: Mapping[str, Any]) -> str:
    """What the last action did, in one line ("Ana draws 7 (the bricklayer); the bag is empty: game over")."""
    return "; ".join(event_text(event, state) for event in state.get("events", []))


def uncounted_text(missing: dict[str, int]) -> str:
    """The warning before scoring a count that leaves tokens out (:func:`~.scoring.uncounted`): the first four
    paintings short, how many more, and that a second Score scores anyway."""
    shown = list(missing.items())
    listed = ", ".join(_("{n} of painting {painting}").format(n=n, painting=key) for key, n in shown[:4])
    if len(shown) > 4:
        listed = _("{listed} and {n} more").format(listed=listed, n=len(shown) - 4)
    return _("Not counted yet: {listed}. Tap Score again to score anyway").format(listed=listed)


def reason_text(row: Mapping[str, Any], result: Mapping[str, Any], state: Mapping[str, Any]) -> str:
    """Why a painting went to whom (a row of the result's ``paintings``)."""
    names: list[str] = [str(n) for n in state["players"]]
    counts: list[int] = row["counts"]
    top = max(counts) if counts else 0
    why = row["why"]
    if why == "none":
        return _("nobody has any of its tokens")
    if why == "most":
        if row["total"] < row["tokens"]:  # "1 of 1" said of a painting of 8 tokens reads as all of them
            return _("{name} has the most: {top} of the {total} counted ({tokens} in the game)").format(
                name=names[row["winner"]], top=top, total=row["total"], tokens=row["tokens"]
            )
        return _("{name} has the most: {top} of {total}").format(name=names[row["winner"]], top=top, total=row["total"])
    tied = names_text(state, row["tied"])
    if why == "tie_no_cat":
        return _("{names} tie on {top} and nobody holds the black cat: nobody takes it").format(names=tied, top=top)
    holder = result["black_cat"]
    if holder in row["tied"]:
        return _("{names} tie on {top}; {name} holds the black cat and takes it").format(
            names=tied, top=top, name=names[holder]
        )
    return _("{names} tie on {top}; {name} holds the black cat, so takes it").format(
        names=tied, top=top, name=names[holder]
    )


def notes(result: Mapping[str, Any], state: Mapping[str, Any]) -> list[str]:
    """What the players should know about a result: tokens not counted, a shared win."""
    out = [
        ngettext(
            "painting {painting}: {missing} of its {tokens} token not counted",
            "painting {painting}: {missing} of its {tokens} tokens not counted",
            row["tokens"],
        ).format(painting=row["painting"], missing=row["tokens"] - row["total"], tokens=row["tokens"])
        for row in result["paintings"]
        if row["tokens"] > row["total"]
    ]
    winners = result["winners"]
    if len(winners) > 1:
        best = max(p["total"] for p in result["players"])
        names = [str(n) for n in state["players"]]
        out.append(
            _("{names} share the win on {best} points").format(
                names=names_text(state, [names.index(w) for w in winners]), best=best
            )
        )
    return out


# The tokens' characters in a few letters, for the count screen's painting captions ("banker & cheater").
SHORT_NAMES = {
    "1": lambda: pgettext("art collectors token, short", "Robin Tell"),
    "2B": lambda: pgettext("art collectors token, short", "banker"),
    "2C": lambda: pgettext("art collectors token, short", "cheater"),
    "3": lambda: pgettext("art collectors token, short", "angel"),
    "4": lambda: pgettext("art collectors token, short", "swimmer"),
    "5": lambda: pgettext("art collectors token, short", "astronaut"),
    "6": lambda: pgettext("art collectors token, short", "writer"),
    "7": lambda: pgettext("art collectors token, short", "bricklayer"),
    "8": lambda: pgettext("art collectors token, short", "twins"),
    "9": lambda: pgettext("art collectors token, short", "fortune teller"),
    "10": lambda: pgettext("art collectors token, short", "firefighter"),
    "11": lambda: pgettext("art collectors token, short", "musician cats"),
}


def painting_characters(state: Mapping[str, Any], key: str, *, short: bool = False) -> str:
    """Who painting ``key`` shows, from its tokens' characters ("the banker and the cheater", short "banker &
    cheater"); a painting of a catalogue of one's own keeps the words its file gives."""
    codes = [str(c) for c in state["paintings"][key].get("codes", [])]
    if codes and all(plain(c) in TOKEN_NAMES for c in codes):
        if short:
            return " & ".join(SHORT_NAMES[plain(c)]() for c in codes)
        names = [kind_name(state, c) for c in codes]
        return (
            names[0]
            if len(names) == 1
            else _("{names} and {last}").format(names=_(", ").join(names[:-1]), last=names[-1])
        )
    return str(state["paintings"][key].get("character", key))


def place(rank: int) -> str:
    """A place in the ranking: "1st", "1위", "1.º", "1r"."""
    words = {
        1: lambda: pgettext("place", "1st"),
        2: lambda: pgettext("place", "2nd"),
        3: lambda: pgettext("place", "3rd"),
    }
    wording = words.get(rank)
    return wording() if wording is not None else pgettext("place", "{n}th").format(n=rank)


def short_name(state: Mapping[str, Any], code: str) -> str:
    """A token's character in a few letters ("banker", "은행가"), for the draw picker's chips."""
    wording = SHORT_NAMES.get(plain(code))
    if wording is not None and plain(code) in state["kinds"]:
        return wording()
    return kind_name(state, code).removeprefix("the ")
