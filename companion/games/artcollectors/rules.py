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

Here: the engine (settings, setup, the moves table, the final count's moves and the queries); the pile
tracker's moves are :mod:`.tracker`'s, the tallies :mod:`.scoring`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, cast

from companion.games.artcollectors import tracker, wording
from companion.games.artcollectors.catalogue import (
    Catalogue,
    catalogue_json,
    load_catalogue,
    parse_catalogue,
)
from companion.games.artcollectors.scoring import (
    black_cat_painting,
    pile_counts,
    tally,
    top_run,
    working,
)
from companion.games.artcollectors.state import ArtCollectorsState, Kind, PaintingInfo, Phase, Settings
from companion.games.artcollectors.tracker import (
    bag_total,
    new_turn,
    player_arg,
    protected,
    whole_arg,
)
from companion.games.base import (
    Action,
    BadSetup,
    Choice,
    Engine,
    IllegalAction,
    Setting,
    Setup,
    check_players,
    check_settings,
    require,
    seat_index,
)
from companion.i18n import N_, _, ngettext

__all__ = [
    "ENGINE",
    "ArtCollectors",
    "bag_total",
    "black_cat_painting",
    "pile_counts",
    "protected",
    "tally",
    "top_run",
    "working",
]


Move = Callable[[ArtCollectorsState, Action], None]


class ArtCollectors(Engine[ArtCollectorsState]):
    """The engine (see the module docstring); one instance, ``ENGINE``. State is plain JSON, described by
    :class:`~companion.games.artcollectors.state.ArtCollectorsState`."""

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

    def setup(self, setup: Setup) -> ArtCollectorsState:
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
        checked = check_settings(defaults, setup.settings)
        del checked["catalogue"]  # the state keeps what it needs of it (paintings, kinds, ladies)
        settings = cast(Settings, checked)
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
        paintings: dict[str, PaintingInfo] = {
            str(p.number): {
                "value": p.value,
                "points": p.points_per_token,
                "tokens": p.token_count,
                "character": p.character,
                "codes": [k.code for k in p.tokens],
            }
            for p in in_play
        }
        kinds: dict[str, Kind] = {
            k.code: {"name": k.name, "ability": k.ability, "count": k.count} for p in in_play for k in p.tokens
        }
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
            "phase": Phase.PLAY if settings["tracker"] else Phase.COUNT,
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
            "turn": new_turn(),
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
            "end_tracking": tracker.end_tracking,
            "draw": tracker.draw,
            "steal": tracker.steal,
            "exchange": tracker.exchange,
            "robin": tracker.robin,
            "take": tracker.take,
            "stop": tracker.stop,
        }

    def legal_actions(self, state: ArtCollectorsState, seat: int | None = None) -> list[Action]:
        """Counting: each player's counts and (the table) the black cat's holder and the finish. Tracking: the
        current player's draws (one per token kind in the bag), steals, exchanges, takes, Robin Tell and stop,
        and (the table) ending the tracking."""
        index = seat_index(state, seat)
        if seat is not None and index is None:
            return []
        if state["phase"] == Phase.COUNT:
            players = range(len(state["players"])) if index is None else [index]
            out: list[Action] = [{"type": "set_counts", "player": p} for p in players]
            if seat is None:
                out.append({"type": "set_black_cat"})
                if state["black_cat_set"]:
                    out.append({"type": "finish"})
            return out
        if state["phase"] != Phase.PLAY or (index is not None and index != int(state["current"])):
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

    def _need_count(self, state: ArtCollectorsState) -> None:
        if state["phase"] != Phase.COUNT:
            raise IllegalAction(
                _("the tracker is counting this game from the piles; use end_tracking to count by hand instead")
            )

    def _do_set_count(self, state: ArtCollectorsState, action: Action) -> None:
        self._need_count(state)
        seat = player_arg(state, action, "player")
        key = self._painting_key(state, action.get("painting"))
        value = whole_arg(action.get("count"), _("a count is a whole number, 0 or more"))
        self._set(state, seat, key, value)

    def _do_set_counts(self, state: ArtCollectorsState, action: Action) -> None:
        self._need_count(state)
        seat = player_arg(state, action, "player")
        row = action.get("counts")
        if not isinstance(row, dict):
            raise IllegalAction(_("'counts' must map painting numbers to counts"))
        for painting, value in row.items():
            key = self._painting_key(state, painting)
            self._set(state, seat, key, whole_arg(value, _("a count is a whole number, 0 or more")))

    def _set(self, state: ArtCollectorsState, seat: int, key: str, value: int) -> None:
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

    def _do_set_black_cat(self, state: ArtCollectorsState, action: Action) -> None:
        self._need_count(state)
        require(
            "player" in action,
            _("say who holds the black-cat token: 'player' is a player number, or null for nobody"),
        )
        state["black_cat"] = None if action["player"] is None else player_arg(state, action, "player")
        state["black_cat_set"] = True

    def _do_finish(self, state: ArtCollectorsState, action: Action) -> None:
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
        state["phase"] = Phase.OVER

    def _painting_key(self, state: ArtCollectorsState, value: Any) -> str:
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

    # ---------------------------------------------------------------------------------------------- queries

    def is_over(self, state: Mapping[str, Any]) -> bool:
        return bool(state["phase"] == Phase.OVER)

    def scores(self, state: Mapping[str, Any]) -> dict[str, Any]:
        result = working(state)
        scores: dict[str, Any] = {p["name"]: p["total"] for p in result["players"]}
        if self.is_over(state):
            scores["winners"] = list(result["winners"])
        return scores

    def describe(self, action: Action, state: Mapping[str, Any] | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)

    def options(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """What can be done now (for greying out buttons): drawable codes and the seats each move may target."""
        return tracker.options(state)


ENGINE = ArtCollectors()
