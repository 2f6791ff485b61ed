"""Art Collectors: the Catalan bag game of painting tokens, scored by majorities with a black-cat tie-break.

Two modes (setting ``tracker``):

* final count (default): the players play with the real bag and, at the end, enter how many tokens of each
  painting every player holds (``set_count``) and who holds the black-cat token (``set_black_cat``); ``finish``
  awards the paintings and ranks the players, keeping the working (per painting: counts, winner, reason).
* pile tracker: every draw is entered with the token's identity (the bag is physical, so the token arrives
  inside the action); the engine keeps the bag, the turn and every pile, refuses what the rules forbid, and
  scores the piles when the bag runs out.

Numbers (tokens per painting, values, twins' points, removed paintings, the three ladies) come from
``data/artcollectors.json``. Decisions where the rulebook is silent are listed in ``docs/artcollectors.md``.
"""

from __future__ import annotations

from typing import Any

from companion.games.artcollectors import wording
from companion.games.artcollectors.catalogue import (
    ANGEL,
    BANKER,
    BLACK_CAT_MARK,
    CHEATER,
    ROBIN,
    WILD,
    Catalogue,
    catalogue_json,
    load_catalogue,
    painting_of,
    parse_catalogue,
    plain,
)
from companion.games.artcollectors.wording import names_text as _names
from companion.games.artcollectors.wording import token_name
from companion.games.base import (
    Action,
    BadSetup,
    Choice,
    Engine,
    IllegalAction,
    Move,
    Setting,
    Setup,
    State,
    check_players,
    check_settings,
    is_whole,
    require,
    seat_index,
)
from companion.i18n import N_, _, a_number, ngettext

# --------------------------------------------------------------------------------------------------------------
# Small helpers over the state's own copy of the catalogue (a state never needs the data file again).


def _ability(state: State, code: str) -> str:
    if not state["settings"]["full_game"]:
        return ""
    return str(state["kinds"][plain(code)]["ability"])


def _player(state: State, action: Action, key: str) -> int:
    value = action.get(key)
    count = len(state["players"])
    if not is_whole(value) or not 0 <= value < count:
        raise IllegalAction(
            _("'{key}' must be a player number 0..{last}, not {value!r}").format(key=key, last=count - 1, value=value)
        )
    return value


def _whole(value: Any, reason: str, least: int = 0) -> int:
    """``value`` as an int ≥ ``least``, else :class:`IllegalAction` with ``reason``."""
    if not is_whole(value) or value < least:
        raise IllegalAction(reason)
    return int(value)


def protected(state: State, seat: int) -> bool:
    """True when an angel lies on top of ``seat``'s pile in the full game (shielding it from abilities)."""
    pile = state["piles"][seat]
    return bool(state["settings"]["full_game"]) and bool(pile) and _ability(state, pile[-1]) == ANGEL


def bag_total(state: State) -> int:
    """Tokens still in the bag."""
    return sum(int(n) for n in state["bag"].values())


def _new_turn() -> dict[str, Any]:
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


def black_cat_painting(state: State) -> int:
    """The black-cat token's painting: from the settings, else from the draw that showed it (0: not known yet)."""
    return int(state["settings"]["black_cat_painting"]) or int(state.get("black_cat_seen", 0))


def _black_cat_where(state: State) -> tuple[str, int | None]:
    """("bag", None), ("turn", seat) or ("pile", seat)."""
    for seat, pile in enumerate(state["piles"]):
        if any(code.endswith(BLACK_CAT_MARK) for code in pile):
            return "pile", seat
    if any(code.endswith(BLACK_CAT_MARK) for code in state["turn"]["tokens"]):
        return "turn", int(state["current"])
    return "bag", None


# --------------------------------------------------------------------------------------------------------------
# Scoring


def tally(state: State, counts: list[dict[str, int]], black_cat: int | None) -> dict[str, Any]:
    """The working: per painting the counts, winner and reason; per player the points and rank; the winners.

    Majority wins a painting; a tie for the most goes to the black-cat holder even if not among the tied
    (nobody takes it when nobody holds the black cat). Tokens score their points (twins 2), paintings their value.
    Each painting's ``why`` says how it was decided ("none", "most", "tie_no_cat", "tie_cat"); the words for it
    and for what was not counted are :mod:`companion.games.artcollectors.wording`'s.
    """
    names: list[str] = state["players"]
    rows = []
    token_points = [0] * len(names)
    token_counts = [0] * len(names)
    won: list[list[int]] = [[] for _ in names]
    for key in state["order"]:
        info = state["paintings"][key]
        number = int(key)
        these = [int(c.get(key, 0)) for c in counts]
        total = sum(these)
        top = max(these) if these else 0
        leaders = [i for i, n in enumerate(these) if n == top and n > 0]
        winner: int | None
        if total == 0:
            winner, why = None, "none"
        elif len(leaders) == 1:
            winner, why = leaders[0], "most"
        elif black_cat is None:
            winner, why = None, "tie_no_cat"
        else:
            winner, why = black_cat, "tie_cat"
        if winner is not None:
            won[winner].append(number)
        for i, n in enumerate(these):
            token_points[i] += n * int(info["points"])
            token_counts[i] += n
        rows.append(
            {
                "painting": number,
                "value": int(info["value"]),
                "points_per_token": int(info["points"]),
                "counts": these,
                "total": total,
                "tokens": int(info["tokens"]),
                "winner": winner,
                "tied": leaders if len(leaders) > 1 else [],
                "why": why,
            }
        )
    players: list[dict[str, Any]] = []
    for i, name in enumerate(names):
        painting_points = sum(int(state["paintings"][str(n)]["value"]) for n in won[i])
        players.append(
            {
                "name": name,
                "tokens": token_counts[i],
                "token_points": token_points[i],
                "paintings": won[i],
                "painting_points": painting_points,
                "total": token_points[i] + painting_points,
            }
        )
    totals = [p["total"] for p in players]
    for p in players:
        p["rank"] = 1 + sum(1 for t in totals if t > p["total"])
    best = max(totals) if totals else 0
    winners = [p["name"] for p in players if p["total"] == best]
    return {"paintings": rows, "players": players, "winners": winners, "black_cat": black_cat}


def top_run(pile: list[str]) -> int:
    """How many tokens of the same painting lie together on top of ``pile`` (what one steal may take)."""
    run = 0
    for code in reversed(pile):
        if painting_of(code) != painting_of(pile[-1]):
            break
        run += 1
    return run


def pile_counts(state: State) -> list[dict[str, int]]:
    """Tokens per painting in each player's pile (the tracker's version of the final count)."""
    counts: list[dict[str, int]] = []
    for pile in state["piles"]:
        row = dict.fromkeys(state["order"], 0)
        for code in pile:
            row[str(painting_of(code))] += 1
        counts.append(row)
    return counts


def working(state: State) -> dict[str, Any]:
    """The final result if the game is over, else the result the current counts or piles would give."""
    if state.get("result") is not None:
        return dict(state["result"])
    if state["phase"] == "play":
        where, seat = _black_cat_where(state)
        return tally(state, pile_counts(state), seat if where == "pile" else None)
    return tally(state, state["counts"], state["black_cat"])


# --------------------------------------------------------------------------------------------------------------


class ArtCollectors(Engine[State]):
    """The engine (see the module docstring); one instance, ``ENGINE``."""

    name = "artcollectors"

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.catalogue = catalogue or load_catalogue()

    @property
    def catalogue(self) -> Catalogue:
        """The packaged catalogue new games start with (title, player counts and settings follow it)."""
        return self._catalogue

    @catalogue.setter
    def catalogue(self, catalogue: Catalogue) -> None:
        self._catalogue = catalogue
        self.title = catalogue.title
        self.min_players = catalogue.min_players
        self.max_players = catalogue.max_players
        paintings = [p.number for p in self.catalogue.paintings]
        self.settings = {
            # follow the whole game pile by pile instead of counting at the end
            "tracker": Setting(False, N_("Follow every draw (pile tracker)")),
            # special abilities (the rulebook's "joc complet"); False = basic game
            "full_game": Setting(True, N_("Full game (special abilities)")),
            "angel_guards_banker": Setting(True, N_("An angel on top also guards against your own banker")),
            # 0 = unknown: the draw that shows it marks it
            "black_cat_painting": Setting(
                self.catalogue.black_cat_painting,
                N_("The black-cat token's painting"),
                (
                    Choice(0, N_("not known: marked when it is drawn")),
                    *(Choice(n, N_("painting {value}")) for n in paintings),
                ),
            ),
            # Screen only: "els altres jugadors no poden facilitar la feina d'identificació de fitxes iguals",
            # so by default the tracker offers a steal from every pile and lets the rules judge the claim.
            "steal_hints": Setting(False, N_("Point out possible steals (the rulebook: nobody may help)")),
            # "Comença a jugar qui hagi anat més recentment a una exposició d'art": index in seat order; play
            # then goes clockwise (seat order).
            "first_player": Setting(0, N_("First to play"), range=(0, 4), player=True),
            # The catalogue itself (the data file's format), stored by prepare_setup when a game starts so that
            # replay never depends on the packaged file; None (games recorded before): the packaged catalogue.
            "catalogue": Setting(None, shown=False),
        }

    def prepare_setup(self, setup: Setup) -> Setup:
        """The setup to record: the catalogue this game starts with goes inline (``catalogue``), so a journal or
        export replays the same game after an app update corrects ``artcollectors.json``."""
        if isinstance(setup.settings.get("catalogue"), dict):
            return setup
        return Setup(
            setup.game, setup.players, {**setup.settings, "catalogue": catalogue_json(self.catalogue)}, setup.seed
        )

    # ---------------------------------------------------------------------------------------------- setup

    def setup(self, setup: Setup) -> State:
        raw = setup.settings.get("catalogue")
        if raw is None:
            catalogue = self.catalogue
        elif isinstance(raw, dict):
            catalogue = parse_catalogue(raw, source="the game's recorded catalogue")
        else:
            raise BadSetup(
                _("setting 'catalogue' must be empty or the catalogue as an object, not {value!r}").format(value=raw)
            )
        check_players(setup, catalogue.min_players, catalogue.max_players)
        defaults = self.default_settings()
        defaults["black_cat_painting"] = catalogue.black_cat_painting
        settings = check_settings(defaults, setup.settings)
        del settings["catalogue"]  # the state keeps what it needs of it (paintings, kinds, ladies)
        count = len(setup.players)
        removed = catalogue.removed.get(count, ())
        in_play = [p for p in catalogue.paintings if p.number not in removed]
        first = int(settings["first_player"])
        if not 0 <= first < count:
            raise BadSetup(
                _("first_player must be 0-{last} (a seat among {n} players), not {value}").format(
                    last=count - 1, n=count, value=first
                )
            )
        cat = int(settings["black_cat_painting"])
        if cat and cat not in {p.number for p in in_play}:
            raise BadSetup(
                _("black_cat_painting {painting} is not a painting in play with {n} players").format(
                    painting=cat, n=count
                )
            )
        paintings = {
            str(p.number): {
                "value": p.value,
                "points": p.points_per_token,
                "tokens": p.token_count,
                "character": p.character,
                "codes": [k.code for k in p.tokens],
            }
            for p in in_play
        }
        kinds = {k.code: {"name": k.name, "ability": k.ability, "count": k.count} for p in in_play for k in p.tokens}
        return {
            "game": self.name,
            "players": [p.name for p in setup.players],
            "seats": [p.seat for p in setup.players],
            "colours": [p.colour for p in setup.players],
            "settings": settings,
            "order": [str(p.number) for p in in_play],
            "removed": list(removed),
            "paintings": paintings,
            "kinds": kinds,
            "ladies": list(catalogue.ladies),
            "ladies_take": catalogue.ladies_take,
            "phase": "play" if settings["tracker"] else "count",
            # count mode
            "counts": [dict.fromkeys(paintings, 0) for _ in setup.players],
            "black_cat": None,
            "black_cat_set": False,
            # tracker mode
            "bag": {code: kind["count"] for code, kind in kinds.items()},
            "black_cat_in_bag": True,
            "black_cat_seen": 0,  # the black cat's painting once a draw showed it (0: not yet, or set in settings)
            "piles": [[] for _ in setup.players],
            "current": first,
            "turn": _new_turn(),
            "turns": 0,
            "events": [],
            "result": None,
        }

    # ---------------------------------------------------------------------------------------------- apply

    def moves(self) -> dict[str, Move]:
        return {
            "set_count": self._do_set_count,
            "set_counts": self._do_set_counts,
            "set_black_cat": self._do_set_black_cat,
            "finish": self._do_finish,
            "end_tracking": self._do_end_tracking,
            "draw": self._do_draw,
            "steal": self._do_steal,
            "exchange": self._do_exchange,
            "robin": self._do_robin,
            "take": self._do_take,
            "stop": self._do_stop,
        }

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        """Counting: each player's counts and (the table) the black cat's holder and the finish. Tracking: the
        current player's draws (one per token kind in the bag), steals, exchanges, takes, Robin Tell and stop,
        and (the table) ending the tracking."""
        index = seat_index(state, seat)
        if seat is not None and index is None:
            return []
        if state["phase"] == "count":
            players = range(len(state["players"])) if index is None else [index]
            out: list[Action] = [{"type": "set_counts", "player": p} for p in players]
            if seat is None:
                out.append({"type": "set_black_cat"})
                if state["black_cat_set"]:
                    out.append({"type": "finish"})
            return out
        if state["phase"] != "play" or (index is not None and index != int(state["current"])):
            return []
        opts = self.options(state)
        out = [{"type": "draw", "token": code} for code in opts["draw"]]
        out += [
            {"type": "steal", "from": i, "count": n}
            for i in opts["steal"]
            for n in range(1, top_run(state["piles"][i]) + 1)
        ]
        out += [{"type": "exchange", "with": i} for i in opts["exchange"]]
        out += [{"type": "take", "from": i} for i in opts["take"]]
        out += [{"type": "robin", "target": i} for i in opts["robin"]]
        if opts["stop"]:
            out.append({"type": "stop"})
        if seat is None:
            out.append({"type": "end_tracking"})
        return out

    # ---- count mode

    def _need_count(self, state: State) -> None:
        if state["phase"] != "count":
            raise IllegalAction(
                _("the tracker is counting this game from the piles; use end_tracking to count by hand instead")
            )

    def _do_set_count(self, state: State, action: Action) -> None:
        self._need_count(state)
        seat = _player(state, action, "player")
        key = self._painting_key(state, action.get("painting"))
        value = _whole(action.get("count"), _("a count is a whole number, 0 or more"))
        self._set(state, seat, key, value)

    def _do_set_counts(self, state: State, action: Action) -> None:
        self._need_count(state)
        seat = _player(state, action, "player")
        row = action.get("counts")
        if not isinstance(row, dict):
            raise IllegalAction(_("'counts' must map painting numbers to counts"))
        for painting, value in row.items():
            key = self._painting_key(state, painting)
            self._set(state, seat, key, _whole(value, _("a count is a whole number, 0 or more")))

    def _set(self, state: State, seat: int, key: str, value: int) -> None:
        others = sum(int(row[key]) for i, row in enumerate(state["counts"]) if i != seat)
        limit = int(state["paintings"][key]["tokens"])
        if others + value > limit:
            raise IllegalAction(
                ngettext(
                    "painting {key} has only {limit} token: {name} with {value} would make {total}",
                    "painting {key} has only {limit} tokens: {name} with {value} would make {total}",
                    limit,
                ).format(key=key, limit=limit, name=state["players"][seat], value=value, total=others + value)
            )
        state["counts"][seat][key] = value

    def _do_set_black_cat(self, state: State, action: Action) -> None:
        self._need_count(state)
        require(
            "player" in action,
            _("say who holds the black-cat token: 'player' is a player number, or null for nobody"),
        )
        state["black_cat"] = None if action["player"] is None else _player(state, action, "player")
        state["black_cat_set"] = True

    def _do_finish(self, state: State, action: Action) -> None:
        self._need_count(state)
        require(state["black_cat_set"], _("say who holds the black-cat token first (or nobody)"))
        cat = str(black_cat_painting(state))
        if cat in state["paintings"]:  # the black cat's painting is known: the count must agree with the holder
            holder = state["black_cat"]
            held = [int(row[cat]) for row in state["counts"]]
            if holder is not None and held[holder] == 0:
                raise IllegalAction(
                    _(
                        "{name} holds the black cat but has no token of painting {painting}: correct the count or "
                        "the holder"
                    ).format(name=state["players"][holder], painting=cat)
                )
            if holder is None and sum(held) == int(state["paintings"][cat]["tokens"]):
                raise IllegalAction(
                    _("every token of painting {painting} is counted, so someone holds the black cat: say who").format(
                        painting=cat
                    )
                )
        state["result"] = tally(state, state["counts"], state["black_cat"])
        state["phase"] = "over"

    def _painting_key(self, state: State, value: Any) -> str:
        key = str(value)
        if key not in state["paintings"]:
            if isinstance(value, int) and value in state["removed"]:
                raise IllegalAction(
                    _("painting {painting} is out of this game with {n} players").format(
                        painting=value, n=len(state["players"])
                    )
                )
            raise IllegalAction(_("there is no painting {painting!r} in this game").format(painting=value))
        return key

    # ---- tracker

    def _need_play(self, state: State) -> None:
        if state["phase"] != "play":
            if state["settings"]["tracker"]:
                raise IllegalAction(_("tracking has ended: enter the final count instead"))
            raise IllegalAction(_("the pile tracker is off in this game: enter the final count instead"))

    def _do_end_tracking(self, state: State, action: Action) -> None:
        """Switch to the hand count, prefilled from the piles; allowed mid-turn (the table may disagree at any time).

        Mid-turn, the tokens in front of the current player are counted as theirs (as if they stopped); the
        count is corrected by hand at the end anyway.
        """
        self._need_play(state)
        where, seat = _black_cat_where(state)
        counts = pile_counts(state)
        turn_tokens: list[str] = list(state["turn"]["tokens"])
        current = int(state["current"])
        for code in turn_tokens:
            counts[current][str(painting_of(code))] += 1
        state["counts"] = counts
        state["black_cat"] = seat if where in ("pile", "turn") else None
        state["black_cat_set"] = where in ("pile", "turn")
        state["phase"] = "count"
        state["events"] = [{"event": "tracker_off", "count": len(turn_tokens), "seat": state["seats"][current]}]

    def _token(self, state: State, value: Any) -> str:
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

    def _do_draw(self, state: State, action: Action) -> None:
        self._need_play(state)
        turn = state["turn"]
        code = self._token(state, action.get("token"))
        number = painting_of(code)
        me = state["seats"][state["current"]]
        require(bag_total(state) > 0, _("the bag is empty"))
        if state["bag"][code] <= 0:
            raise IllegalAction(_("there is no {token} left in the bag").format(token=token_name(state, code)))
        cat_wanted = bool(action.get("black_cat", False))
        cat_painting = black_cat_painting(state)
        if cat_wanted:
            if not state["black_cat_in_bag"]:
                where, seat = _black_cat_where(state)
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
        if _ability(state, code) == CHEATER and not turn["cheater_seen"]:
            turn["cheater_seen"] = True
            turn["cheater"] = 1
        if number in turn["drawn"]:
            if turn["cheater"] > 0:
                turn["cheater"] -= 1
                state["events"] = [{"event": "cheater_pass", "seat": me, "painting": number}]
            else:
                lost = [*turn["tokens"], code]
                self._to_bag(state, lost)
                state["events"] = [{"event": "bust", "seat": me, "painting": number, "count": len(lost)}]
                self._next_player(state)
                return
        else:
            state["events"] = [{"event": "draw", "seat": me, "token": code}]
        turn["drawn"].append(number)
        turn["tokens"].append(code)
        turn["last"] = code
        turn["cat"] = None
        self._gain(state, [code])

    def _gain(self, state: State, codes: list[str]) -> None:
        """Abilities of tokens gained this turn (full game): banker, cheater, Robin Tell, the three ladies."""
        turn = state["turn"]
        seat = int(state["current"])
        for code in codes:
            ability = _ability(state, code)
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
                    self._to_bag(state, returned)
                    state["events"].append({"event": "banker", "count": back})
        if state["settings"]["full_game"] and turn["ladies"] < 0:
            have = {painting_of(c) for c in turn["tokens"]}
            if all(n in have for n in state["ladies"]):
                turn["ladies"] = int(state["ladies_take"])
                state["events"].append({"event": "ladies_ready", "count": turn["ladies"]})

    def _to_bag(self, state: State, codes: list[str]) -> None:
        for code in codes:
            if code.endswith(BLACK_CAT_MARK):
                state["black_cat_in_bag"] = True
            state["bag"][plain(code)] += 1

    def _next_player(self, state: State) -> None:
        state["current"] = (int(state["current"]) + 1) % len(state["players"])
        state["turn"] = _new_turn()
        state["turns"] += 1
        if bag_total(state) == 0:
            where, seat = _black_cat_where(state)
            state["result"] = tally(state, pile_counts(state), seat if where == "pile" else None)
            state["phase"] = "over"
            state["events"].append({"event": "bag_empty"})

    def _other(self, state: State, action: Action, key: str) -> int:
        seat = _player(state, action, key)
        require(seat != state["current"], _("choose another player's pile, not your own"))
        require(bool(state["piles"][seat]), _("{name}'s pile is empty").format(name=state["players"][seat]))
        return seat

    def _do_steal(self, state: State, action: Action) -> None:
        self._need_play(state)
        turn = state["turn"]
        require(turn["last"] is not None, _("steal right after drawing a token of the same painting"))
        seat = self._other(state, action, "from")
        number = painting_of(turn["last"])
        pile = state["piles"][seat]
        name = state["players"][seat]
        top = painting_of(pile[-1])
        require(
            top == number,
            _("{name}'s top token is {a_number}, not {other}").format(
                name=name, a_number=a_number(top), other=a_number(number)
            ),
        )
        if state["kinds"][plain(turn["last"])]["ability"] == WILD:
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
                _("{name} has {n} × {painting} on top: steal {most}").format(
                    name=name, n=run, painting=number, most=most
                ),
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
        self._gain(state, taken)

    def _do_exchange(self, state: State, action: Action) -> None:
        self._need_play(state)
        turn = state["turn"]
        last = turn["last"]
        require(
            last is not None and state["kinds"][plain(last)]["ability"] == WILD,
            _("exchange right after drawing a musician cat"),
        )
        require(
            turn["cat"] is None,
            _("this musician cat was already used to steal")
            if turn["cat"] == "steal"
            else _("this musician cat was already used to exchange"),
        )
        seat = self._other(state, action, "with")
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
        self._gain(state, [gained])

    def _do_robin(self, state: State, action: Action) -> None:
        self._need_play(state)
        turn = state["turn"]
        require(state["settings"]["full_game"], _("Robin Tell has no ability in the basic game"))
        require(turn["robin"] != "used", _("Robin Tell has already acted this turn"))
        require(turn["robin"] == "ready", _("Robin Tell acts only in the turn you gain his token"))
        seat = _player(state, action, "target")
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
            to = _player(state, part, "to")
            chunks.append((to, _whole(part.get("count"), _("each part of the deal gives 1 or more tokens"), 1)))
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

    def _do_take(self, state: State, action: Action) -> None:
        self._need_play(state)
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
        seat = self._other(state, action, "from")
        name = state["players"][seat]
        require(not protected(state, seat), _("{name}'s pile is protected by the angel").format(name=name))
        gained = state["piles"][seat].pop()
        turn["tokens"].append(gained)
        turn["ladies"] -= 1
        state["events"] = [
            {"event": "ladies_take", "token": gained, "from": state["seats"][seat], "left": turn["ladies"]}
        ]
        self._gain(state, [gained])

    def _do_stop(self, state: State, action: Action) -> None:
        self._need_play(state)
        turn = state["turn"]
        require(bool(turn["drawn"]), _("draw at least one token before stopping"))
        tokens: list[str] = list(turn["tokens"])
        order = action.get("order")
        if order is not None:
            require(isinstance(order, list) and all(isinstance(c, str) for c in order), _("'order' lists token codes"))
            require(
                sorted(order) == sorted(tokens),
                _("'order' must list exactly this turn's tokens ({tokens}), bottom first").format(
                    tokens=", ".join(tokens)
                ),
            )
            tokens = list(order)
        seat = int(state["current"])
        state["piles"][seat].extend(tokens)
        state["events"] = [{"event": "stop", "seat": state["seats"][seat], "count": len(tokens), "top": tokens[-1]}]
        self._next_player(state)

    # ---------------------------------------------------------------------------------------------- queries

    def is_over(self, state: State) -> bool:
        return bool(state["phase"] == "over")

    def scores(self, state: State) -> dict[str, Any]:
        result = working(state)
        scores: dict[str, Any] = {p["name"]: p["total"] for p in result["players"]}
        if self.is_over(state):
            scores["winners"] = list(result["winners"])
        return scores

    def describe(self, action: Action, state: State | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)

    def options(self, state: State) -> dict[str, Any]:
        """What can be done now (for greying out buttons): drawable codes and the seats each move may target."""
        out: dict[str, Any] = {"draw": [], "steal": [], "exchange": [], "take": [], "robin": [], "stop": False}
        if state["phase"] != "play":
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


ENGINE = ArtCollectors()
