"""Rat-a-Tat Roll (Gamewright 2021): statue on a ring, icon actions, re-roll tokens, end game and scores.

The engine referees the real table: dice values, picture-die faces and newly revealed face-up cards arrive inside
actions (from the camera or touch), so it is deterministic. Face-down cards are secret: a player's row records
only how many cards there are, in taking order, never their values, until the final reveal enters them.
The Korean rulebook is the source of truth; the English edition's reshuffle threshold is a setting.
Actions are documented in ``docs/ratatat.md``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from companion.games.base import (
    Action,
    BadSetup,
    Engine,
    IllegalAction,
    Move,
    Setting,
    Setup,
    State,
    check_players,
    check_settings,
    choices,
    is_whole,
    require,
    seat_index,
)
from companion.games.ratatat import wording
from companion.games.ratatat.board import (
    DATA_KEYS,
    LOADERS,
    REGIONS,
    inline_data,
    load_board,
    load_deck,
    load_picture_die,
    packaged,
)
from companion.i18n import N_, _, ngettext

TOKENS_TOTAL = 15
TOKENS_EACH = 2
MAX_DICE = 3
EDITIONS = ("ko", "en")

# Phases: what the table is waiting for.
DEAL = "deal"  # the five starting face-up cards are being entered
ROLL = "roll"  # the current player rolls 1-3 number dice
ROLLED = "rolled"  # dice are down: re-roll with a token, or move the statue
SPACE = "space"  # the statue landed on a card/balloon/leopard space: take a card
PICTURE = "picture"  # roll the picture die (landed on a picture space)
ENDGAME = "endgame"  # a player at the threshold: pass or roll the picture die
PICTURE_ROLLED = "picture_rolled"  # picture die is down: re-roll with a token, or resolve it
GIVE_BACK = "give_back"  # end game: give one old card back, blind, to the bottom of the pile
REVEAL = "reveal"  # a region is being refilled: enter the new face-up card
LOOK = "look"  # leopard: look at own cards, or one card of another player
FINAL_REVEAL = "final_reveal"  # game over: enter every player's card values
OVER = "over"


def threshold_for(players: int) -> int:
    """Cards that put a player into end-game mode: 4, or 5 in a two-player game."""
    return 5 if players == 2 else 4


def reshuffle_due(face_up: list[dict[str, Any] | None], edition: str) -> bool:
    """The reshuffle trigger: Korean rules 3 or more balloons among the face-up cards; English more than 3."""
    balloons = sum(1 for card in face_up if card is not None and card["balloon"])
    return balloons >= 3 if edition == "ko" else balloons > 3


def sum_distribution(dice: int) -> dict[int, Fraction]:
    """Exact distribution of the sum of ``dice`` fair d6, by repeated convolution."""
    dist: dict[int, Fraction] = {0: Fraction(1)}
    for _die in range(dice):
        nxt: dict[int, Fraction] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / 6
        dist = nxt
    return dist


def assistant(state: State) -> dict[str, Any]:
    """Before a roll: for 1, 2 and 3 dice, the chance of landing on each space, each region and a picture-die
    space, and of ending up with the lowest face-up card (its region, or a picture space showing the cat).

    Returns ``{"options": {n: {...}}, "best": n, "lowest": value}``; chances are floats from exact fractions.
    """
    spaces = state["board"]["spaces"]
    ring = len(spaces)
    values = [card["value"] for card in state["face_up"] if card is not None]
    lowest = min(values) if values else None
    low_regions = {r for r, card in enumerate(state["face_up"]) if card is not None and card["value"] == lowest}
    faces = state["picture_faces"]
    p_cat = Fraction(faces.count("cat"), len(faces))
    options: dict[int, dict[str, Any]] = {}
    best, best_p = 1, Fraction(-1)
    for n in range(1, MAX_DICE + 1):
        by_space: dict[int, Fraction] = {}
        for total, p in sum_distribution(n).items():
            target = (state["statue"] + total) % ring
            by_space[target] = by_space.get(target, Fraction(0)) + p
        by_region = [Fraction(0)] * REGIONS
        picture = Fraction(0)
        for index, p in by_space.items():
            space = spaces[index]
            if space["kind"] == "picture":
                picture += p
            else:
                by_region[space["region"]] += p
        p_low = sum((by_region[r] for r in low_regions), Fraction(0)) + picture * p_cat if lowest is not None else 0
        options[n] = {
            "spaces": {i: float(p) for i, p in sorted(by_space.items())},
            "regions": [float(p) for p in by_region],
            "picture": float(picture),
            "lowest": float(p_low),
        }
        if p_low > best_p:  # ties keep fewer dice
            best, best_p = n, Fraction(p_low)
    return {"options": options, "best": best, "lowest": lowest}


def reroll_values(state: State, picked: list[int], seen: list[int]) -> list[int]:
    """The new faces of the ``picked`` dice (indices into ``state["dice"]``) from a reading of the tray after a
    re-roll: the picked dice alone, in order, or every die (the camera's order), where the dice kept must still
    show their faces and the others are the new ones. Raises :class:`IllegalAction`, in words for the players,
    when nothing is picked or the reading does not fit the pick."""
    if not picked:
        raise IllegalAction(_("Tap the dice to re-roll first (a token each time), or move the statue"))
    if len(seen) == len(picked):
        return list(seen)
    if len(seen) != len(state["dice"]):
        raise IllegalAction(
            ngettext("Saw {seen} die; re-roll {n} of them", "Saw {seen} dice; re-roll {n} of them", len(seen)).format(
                seen=len(seen), n=len(picked)
            )
        )
    kept = [v for i, v in enumerate(state["dice"]) if i not in picked]
    new = list(seen)
    for value in kept:
        if value not in new:
            raise IllegalAction(
                _(
                    "The dice you kept show {kept}; the camera saw {seen}. Roll only the picked dice, "
                    "or tap the new faces"
                ).format(kept=", ".join(map(str, kept)), seen=", ".join(map(str, seen)))
            )
        new.remove(value)
    return new


def _only(state: State, value: Any) -> str:
    """The refusal of one card value too many: the deck has only so many."""
    count = int(state["deck"][str(value)])
    return ngettext("the deck has only {n} card of {value}", "the deck has only {n} cards of {value}", count).format(
        n=count, value=value
    )


def _int(action: Action, key: str, what: str) -> int:
    value = action.get(key)
    if not is_whole(value):
        raise IllegalAction(_("{what} must be a whole number, not {value!r}").format(what=what, value=value))
    return value


def _player_index(state: State, name: Any) -> int:
    if name not in state["players"]:
        raise IllegalAction(_("there is no player called {name!r}").format(name=name))
    return int(state["players"].index(name))


class RatATatRoll(Engine[State]):
    """The Rat-a-Tat Roll rules engine (see the module docstring)."""

    name = "ratatat"
    title = "Rat-a-Tat Roll"
    min_players = 2
    max_players = 5
    # ``board``/``deck``/``picture_die``: a data file (a name in ``companion/games/data`` or a path); ``data``:
    # the board, deck and die themselves, stored by :meth:`prepare_setup` when a game starts (None: read the files).
    settings = {  # noqa: RUF012  (the base class declares it; one table per game)
        "edition": Setting(
            "ko",
            N_("Rules"),
            choices(
                ("ko", N_("Korean rulebook: five new cards at 3 balloons")),
                ("en", N_("English edition: five new cards at 4 balloons")),
            ),
        ),
        "board": Setting("ratatat_board.json", N_("Board"), packaged("ratatat_board")),
        "deck": Setting("ratatat_deck.json", N_("Cards"), packaged("ratatat_deck")),
        "picture_die": Setting("ratatat_picture_die.json", N_("Picture die"), packaged("ratatat_picture_die")),
        "start": Setting(
            0,
            N_("The statue starts on"),
            choices(
                (0, N_("the first picture-die space")),
                (1, N_("the second picture-die space")),
                (2, N_("the third picture-die space")),
                (3, N_("the fourth picture-die space")),
                (4, N_("the fifth picture-die space")),
            ),
        ),
        "first_player": Setting(0, N_("First to play"), range=(0, 4), player=True),
        "data": Setting(None, shown=False),
    }

    def prepare_setup(self, setup: Setup) -> Setup:
        """The setup to record: the board, deck and picture die are read from their files now and stored inline
        in the ``data`` setting (with the file names, saying where they came from), so a journal or export
        replays the same game after an app update changes or removes a file. BadSetup if a file is unusable."""
        settings = check_settings(self.default_settings(), setup.settings)
        data = dict(inline_data(settings["data"]))
        for key in DATA_KEYS:
            if key not in data:
                data[key] = LOADERS[key](settings[key])
        names = {key: settings[key] for key in DATA_KEYS}
        return Setup(setup.game, setup.players, {**setup.settings, **names, "data": data}, setup.seed)

    # --- setup ---------------------------------------------------------------------------------------------
    def setup(self, setup: Setup) -> State:
        """Deal: one secret card each, five face-up cards still to be entered, 2 tokens each, statue placed."""
        check_players(setup, self.min_players, self.max_players)
        settings = check_settings(self.default_settings(), setup.settings)
        if settings["edition"] not in EDITIONS:
            raise BadSetup(f"edition must be 'ko' (Korean rulebook) or 'en' (English), not {settings['edition']!r}")
        # The copy recorded at the game's start when there is one (see prepare_setup); older games read the files.
        inline = inline_data(settings["data"])
        board = load_board(inline.get("board", settings["board"]))
        deck = load_deck(inline.get("deck", settings["deck"]))
        die = load_picture_die(inline.get("picture_die", settings["picture_die"]))
        pictures = [i for i, s in enumerate(board["spaces"]) if s["kind"] == "picture"]
        start = settings["start"]
        if not 0 <= start < len(pictures):
            raise BadSetup(f"start must be a picture-die space 0-{len(pictures) - 1}, not {start}")
        n = len(setup.players)
        if not 0 <= settings["first_player"] < n:
            raise BadSetup(f"first_player must be 0-{n - 1}, not {settings['first_player']}")
        cards = sum(entry["count"] for entry in deck["cards"])
        if cards < n + REGIONS + 1:
            raise BadSetup(f"a deck of {cards} cards is too small for {n} players")
        return {
            "game": self.name,
            "edition": settings["edition"],
            "players": [p.name for p in setup.players],
            "seats": [p.seat for p in setup.players],
            "board": {"regions": board["regions"], "spaces": board["spaces"]},
            "deck": {str(e["value"]): e["count"] for e in sorted(deck["cards"], key=lambda e: e["value"])},
            "picture_faces": list(die["faces"]),
            "threshold": threshold_for(n),
            "statue": pictures[start],
            "current": settings["first_player"],
            "phase": DEAL,
            "turn": 1,
            "dice": [],
            "picture": None,
            "landing": None,
            "face_up": [None] * REGIONS,
            "to_reveal": list(range(REGIONS)),
            "pile": cards - n,
            "bank": TOKENS_TOTAL - TOKENS_EACH * n,
            "tokens": [TOKENS_EACH] * n,
            "fresh": [0] * n,  # tokens earned this turn: usable from the player's next turn
            "rows": [[{"id": i + 1, "from": "deal"}] for i in range(n)],
            "next_id": n + 1,
            "look_due": False,
            "give_back_due": False,
            "endgame_turn": False,
            "final_round": False,
            "last_to_threshold": None,
            "reshuffles": 0,
            "hands": {},
            "events": [],
        }

    # --- queries ---------------------------------------------------------------------------------------------
    def is_over(self, state: State) -> bool:
        """True once every hand has been revealed."""
        return bool(state["phase"] == OVER)

    def scores(self, state: State) -> dict[str, Any]:
        """Each player's card total once revealed (None before); lowest wins, ties share the win."""
        result: dict[str, Any] = {name: None for name in state["players"]}
        for name, values in state["hands"].items():
            result[name] = sum(values)
        if self.is_over(state):
            low = min(result[name] for name in state["players"])
            result["winners"] = [name for name in state["players"] if result[name] == low]
        return result

    def legal(self, state: State) -> list[str]:
        """The action types the current phase accepts (the UI greys out the rest)."""
        phase = state["phase"]
        me = state["current"]
        usable = state["tokens"][me] - state["fresh"][me] > 0
        if phase in (DEAL, REVEAL):
            return ["reveal"]
        if phase == ROLL:
            return ["roll"]
        if phase == ROLLED:
            return ["move", "reroll"] if usable else ["move"]
        if phase == SPACE:
            space = state["board"]["spaces"][state["landing"]]
            has_card = state["face_up"][space["region"]] is not None
            acts = ["take_region"] if has_card else []
            if space["kind"] == "card" and state["pile"] > 0:
                acts.append("take_pile")
            return acts or ["end_turn"]
        if phase == PICTURE:
            return ["picture"]
        if phase == ENDGAME:
            return ["pass", "picture"]
        if phase == PICTURE_ROLLED:
            acts = (
                ["swap", "no_swap"]
                if state["picture"] == "swap"
                else (["take_region"] if self._picture_choices(state) else ["end_turn"])
            )
            return [*acts, "reroll"] if usable else acts
        if phase == GIVE_BACK:
            return ["give_back"]
        if phase == LOOK:
            return ["look"]
        if phase == FINAL_REVEAL:
            return ["hand"]
        return []

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        """The actions open now: the current player's part of the turn, each player's own hand at the final
        reveal, and (``seat`` None) the table's entries of the cards that refill the board."""
        me = state["current"]
        index = seat_index(state, seat)
        phase = state["phase"]
        if phase in (DEAL, REVEAL):
            return [{"type": "reveal", "region": r} for r in state["to_reveal"]] if seat is None else []
        if phase == FINAL_REVEAL:
            return [
                {"type": "hand", "player": name}
                for i, name in enumerate(state["players"])
                if name not in state["hands"] and (seat is None or i == index)
            ]
        if seat is not None and index != me:
            return []
        out: list[Action] = []
        for kind in self.legal(state):
            if kind == "take_region" and phase == PICTURE_ROLLED:
                out += [{"type": kind, "region": r} for r in self._picture_choices(state)]
            elif kind == "swap":
                out += [
                    {"type": kind, "other": state["players"][other], "mine": mine, "theirs": theirs}
                    for other in range(len(state["players"]))
                    if other != me
                    for mine in range(len(state["rows"][me]))
                    for theirs in range(len(state["rows"][other]))
                ]
            elif kind == "give_back":
                out += [{"type": kind, "card": card} for card in range(len(state["rows"][me]) - 1)]
            elif kind == "look":
                out += [{"type": kind, "at": "own"}, {"type": kind, "at": "none"}]
                out += [
                    {"type": kind, "at": state["players"][other], "card": card}
                    for other in range(len(state["players"]))
                    if other != me
                    for card in range(len(state["rows"][other]))
                ]
            else:
                out.append({"type": kind})
        return out

    def picture_choices(self, state: State) -> list[int]:
        """Regions the cat (lowest) or rat (highest) lets the player take; more than one means a tie to pick."""
        return self._picture_choices(state)

    def _picture_choices(self, state: State) -> list[int]:
        cards = [(r, c["value"]) for r, c in enumerate(state["face_up"]) if c is not None]
        if not cards or state["picture"] not in ("cat", "rat"):
            return []
        pick = min if state["picture"] == "cat" else max
        target = pick(v for _region, v in cards)
        return [r for r, v in cards if v == target]

    def usable_tokens(self, state: State, player: int | None = None) -> int:
        """Tokens the player may spend now (tokens earned this turn wait for the next turn)."""
        who = state["current"] if player is None else player
        return int(state["tokens"][who] - state["fresh"][who])

    # --- apply -----------------------------------------------------------------------------------------------
    def moves(self) -> dict[str, Move]:
        return {
            "roll": self._do_roll,
            "reroll": self._do_reroll,
            "move": self._do_move,
            "take_region": self._do_take_region,
            "take_pile": self._do_take_pile,
            "end_turn": self._do_end_turn,
            "picture": self._do_picture,
            "pass": self._do_pass,
            "swap": self._do_swap,
            "no_swap": self._do_no_swap,
            "give_back": self._do_give_back,
            "look": self._do_look,
            "reveal": self._do_reveal,
            "hand": self._do_hand,
        }

    def check_move(self, state: State, kind: str, action: Action) -> None:
        """Only the action types the phase accepts (:meth:`legal`); :meth:`why_not` says what is awaited."""
        if kind not in self.legal(state):
            raise IllegalAction(self.why_not(state, kind))

    def begin_move(self, state: State) -> None:
        state["events"] = []

    def why_not(self, state: State, kind: str) -> str:
        """Why an action of type ``kind`` is not allowed now, in words for the players."""
        me = state["players"][state["current"]]
        phase = state["phase"]
        if kind == "reroll" and phase in (ROLLED, PICTURE_ROLLED):
            if state["tokens"][state["current"]] > 0:
                return _("a token earned this turn can be used from your next turn")
            return _("you have no re-roll token")
        if kind == "roll" and phase == ENDGAME:
            return ngettext(
                "{name} has {n} card: pass or roll the picture die, no number dice",
                "{name} has {n} cards: pass or roll the picture die, no number dice",
                state["threshold"],
            ).format(name=me, n=state["threshold"])
        if kind == "take_pile" and phase == SPACE:
            space = state["board"]["spaces"][state["landing"]]
            if space["kind"] == "balloon":
                return _(
                    "the draw pile is only for card spaces: on a balloon space {name} takes the region's card"
                ).format(name=me)
            if space["kind"] == "leopard":
                return _(
                    "the draw pile is only for card spaces: on a leopard space {name} takes the region's card"
                ).format(name=me)
            return _("the draw pile is empty: take the region's card")
        # Each sentence names the buttons as the screen labels them (Move the statue, Take …, Pass, Skip...).
        wanted = {
            DEAL: lambda: _("enter the five face-up cards first (tap each card's value)"),
            REVEAL: lambda: _("enter the card that refills the board first (tap its value)"),
            ROLL: lambda: _("{name} rolls 1, 2 or 3 number dice (tap how many, or read them with the camera)"),
            ROLLED: lambda: _("{name} taps Move the statue, or taps dice to re-roll them with a token"),
            SPACE: lambda: _("{name} takes a card from the landing space (tap Take …)"),
            PICTURE: lambda: _("{name} rolls the picture die and taps the face it shows"),
            ENDGAME: lambda: _("{name} taps Pass, or rolls the picture die and taps the face it shows"),
            PICTURE_ROLLED: lambda: self._resolve_words(state),
            GIVE_BACK: lambda: _("{name} gives one old card back to the bottom of the pile (tap Card …)"),
            LOOK: lambda: _("{name} chooses what to look at (My cards, a player's name, or Skip)"),
            FINAL_REVEAL: lambda: _("enter each player's card values (tap them left to right)"),
        }
        words = wanted.get(phase)
        awaited = words().format(name=me) if words is not None else _("the game is over")
        return _("not now: {what}").format(what=awaited)

    def _resolve_words(self, state: State) -> str:
        """What the current player does with the picture die's face ({name} left in)."""
        if state["picture"] == "swap":
            return _("{name} chooses a card to swap (My card …), or taps No swap")
        if self._picture_choices(state):
            if state["picture"] == "cat":
                return _("{name} takes the card the cat shows (tap Take …)")
            return _("{name} takes the card the rat shows (tap Take …)")
        return _("{name} ends the turn: there is no card to take")

    # number dice ------------------------------------------------------------------------------------------
    @staticmethod
    def _faces(values: Any) -> list[int]:
        if not isinstance(values, list):
            raise IllegalAction(_("dice must be a list of numbers"))
        for v in values:
            if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 6:
                raise IllegalAction(_("a die shows 1 to 6, not {value!r}").format(value=v))
        return list(values)

    def _do_roll(self, state: State, action: Action) -> None:
        dice = self._faces(action.get("dice"))
        if len(dice) > MAX_DICE:
            raise IllegalAction(_("{n} dice are not allowed: roll 1, 2 or 3").format(n=len(dice)))
        require(len(dice) >= 1, _("roll at least one die"))
        state["dice"] = dice
        state["phase"] = ROLLED

    def _do_reroll(self, state: State, action: Action) -> None:
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
            state["picture"] = face
            state["events"].append({"event": "picture_rerolled", "face": face})
        else:
            require("picture" not in action, _("the picture die was not rolled"))
            indices: Any = action.get("indices")
            values = self._faces(action.get("values"))
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

    def _do_move(self, state: State, action: Action) -> None:
        ring = len(state["board"]["spaces"])
        state["statue"] = (state["statue"] + sum(state["dice"])) % ring
        state["landing"] = state["statue"]
        space = state["board"]["spaces"][state["statue"]]
        state["phase"] = PICTURE if space["kind"] == "picture" else SPACE

    # taking cards --------------------------------------------------------------------------------------------
    def _earn(self, state: State, count: int, why: str) -> None:
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

    def _add_to_row(self, state: State, origin: str) -> None:
        state["rows"][state["current"]].append({"id": state["next_id"], "from": origin})
        state["next_id"] += 1

    def _take_from_region(self, state: State, region: int) -> None:
        card = state["face_up"][region]
        state["face_up"][region] = None
        self._add_to_row(state, "board")
        if card["balloon"]:
            self._earn(state, 1, "balloon_card")
        state["to_reveal"].append(region)

    def _do_take_region(self, state: State, action: Action) -> None:
        if state["phase"] == SPACE:
            space = state["board"]["spaces"][state["landing"]]
            region = space["region"]
            if "region" in action:
                chosen = _int(action, "region", _("the region"))
                require(
                    chosen == region,
                    _("the statue is in the {region} region").format(region=wording.region_name(state, region)),
                )
            self._take_from_region(state, region)
            if space["kind"] == "balloon":
                self._earn(state, 1, "balloon_space")
            if space["kind"] == "leopard":
                state["look_due"] = True
        else:  # picture die: cat or rat
            choices = self._picture_choices(state)
            if "region" in action:
                region = _int(action, "region", _("the region"))
                require(
                    region in choices,
                    _("the cat takes the lowest face-up card")
                    if state["picture"] == "cat"
                    else _("the rat takes the highest face-up card"),
                )
            else:
                require(len(choices) == 1, _("several face-up cards tie: choose which one to take"))
                region = choices[0]
            self._take_from_region(state, region)
            if state["endgame_turn"]:
                state["give_back_due"] = True
        self._continue(state)

    def _do_take_pile(self, state: State, action: Action) -> None:
        balloon = action.get("balloon", False)
        require(isinstance(balloon, bool), _("say whether the card shows a balloon (true or false)"))
        state["pile"] -= 1
        self._add_to_row(state, "pile")
        if balloon:
            self._earn(state, 1, "balloon_card")
        self._continue(state)

    def _do_end_turn(self, state: State, action: Action) -> None:
        state["events"].append({"event": "nothing_to_take"})
        self._continue(state)

    # picture die ------------------------------------------------------------------------------------------
    def _do_picture(self, state: State, action: Action) -> None:
        face = action.get("face")
        faces = sorted(set(state["picture_faces"]))
        require(
            face in faces, _("the picture die shows {faces}, not {face!r}").format(faces=", ".join(faces), face=face)
        )
        state["endgame_turn"] = state["phase"] == ENDGAME
        state["picture"] = face
        state["phase"] = PICTURE_ROLLED

    def _do_pass(self, state: State, action: Action) -> None:
        self._end_turn(state)

    def _do_swap(self, state: State, action: Action) -> None:
        me = state["current"]
        other = _player_index(state, action.get("other"))
        require(other != me, _("swap with another player's card, not your own"))
        mine = _int(action, "mine", _("your card"))
        theirs = _int(action, "theirs", _("their card"))
        my_row, their_row = state["rows"][me], state["rows"][other]
        require(0 <= mine < len(my_row), _("you have cards 1-{n}, not {card}").format(n=len(my_row), card=mine + 1))
        who = state["players"][other]
        require(
            0 <= theirs < len(their_row),
            _("{name} has cards 1-{n}, not {card}").format(name=who, n=len(their_row), card=theirs + 1),
        )
        my_row[mine], their_row[theirs] = their_row[theirs], my_row[mine]
        state["events"].append({"event": "swapped", "mine": mine, "seat": state["seats"][other], "theirs": theirs})
        self._continue(state)

    def _do_no_swap(self, state: State, action: Action) -> None:
        state["events"].append({"event": "no_swap"})
        self._continue(state)

    def _do_give_back(self, state: State, action: Action) -> None:
        row = state["rows"][state["current"]]
        card = _int(action, "card", _("the card to give back"))
        old = len(row) - 1  # the card just taken is last and cannot be the one given back
        require(0 <= card < old, _("give back one of the cards you held before (1-{n}), not the new one").format(n=old))
        del row[card]
        state["pile"] += 1
        state["give_back_due"] = False
        state["events"].append({"event": "gave_back", "card": card})
        self._continue(state)

    def _do_look(self, state: State, action: Action) -> None:
        at = action.get("at")
        if at not in ("own", "none"):
            other = _player_index(state, at)
            require(other != state["current"], _("to see your own cards choose 'own'"))
            card = _int(action, "card", _("the card to look at"))
            row = state["rows"][other]
            require(
                0 <= card < len(row), _("{name} has cards 1-{n}, not {card}").format(name=at, n=len(row), card=card + 1)
            )
        state["look_due"] = False
        self._continue(state)

    # refilling and the reshuffle -----------------------------------------------------------------------------
    def _do_reveal(self, state: State, action: Action) -> None:
        pending = state["to_reveal"]
        region = _int(action, "region", _("the region")) if "region" in action else pending[0]
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
        require(showing < state["deck"][str(value)], _only(state, value))
        require(state["pile"] > 0, _("the draw pile is empty"))
        state["pile"] -= 1
        state["face_up"][region] = {"value": value, "balloon": balloon}
        pending.remove(region)
        self._continue(state)

    def _refill_done(self, state: State) -> None:
        """All regions filled: the reshuffle trigger (checked again after every new five)."""
        if state["phase"] != DEAL and reshuffle_due(state["face_up"], state["edition"]):
            state["pile"] += sum(1 for c in state["face_up"] if c is not None)
            state["face_up"] = [None] * REGIONS
            state["to_reveal"] = list(range(REGIONS))
            state["reshuffles"] += 1
            state["events"].append({"event": "reshuffled"})

    def _continue(self, state: State) -> None:
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
            self._start_turn(state)
            return
        if state["phase"] == REVEAL:
            self._refill_done(state)
            if state["to_reveal"]:
                return
        if state["look_due"]:
            state["phase"] = LOOK
            return
        self._end_turn(state)

    # turns and the end ----------------------------------------------------------------------------------------
    def _start_turn(self, state: State) -> None:
        me = state["current"]
        state["dice"] = []
        state["picture"] = None
        state["landing"] = None
        state["endgame_turn"] = False
        state["phase"] = ENDGAME if len(state["rows"][me]) >= state["threshold"] else ROLL

    def _end_turn(self, state: State) -> None:
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
        self._start_turn(state)

    def _do_hand(self, state: State, action: Action) -> None:
        who = _player_index(state, action.get("player"))
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
            require(c <= state["deck"][str(v)], _only(state, v))
        state["hands"] = hands
        if len(hands) == len(state["players"]):
            state["phase"] = OVER

    def describe(self, action: Action, state: State | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)


ENGINE = RatATatRoll()
