"""Rat-a-Tat Roll (Gamewright 2021): statue on a ring, icon actions, re-roll tokens, end game and scores.

The engine referees the real table: dice values, picture-die faces and newly revealed face-up cards arrive inside
actions (from the camera or touch), so it is deterministic. Face-down cards are secret: a player's row records
only how many cards there are, in taking order, never their values, until the final reveal enters them.
The Korean rulebook is the source of truth; the English edition's reshuffle threshold is a setting.
Actions are documented in ``docs/ratatat.md``.

Here: the engine (settings, setup, the queries, the moves table and why an action is refused); the moves
are :mod:`.moves`'s, the phases :mod:`.phases`', the dice odds and re-roll readings :mod:`.dice`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.base import (
    Action,
    BadSetup,
    Engine,
    IllegalAction,
    Setting,
    Setup,
    check_players,
    check_settings,
    choices,
    seat_index,
)
from companion.games.ratatat import moves, wording
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
from companion.games.ratatat.dice import assistant, reroll_values, sum_distribution
from companion.games.ratatat.moves import landing_space, picture_choices
from companion.games.ratatat.phases import (
    DEAL,
    EDITIONS,
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
    TOKENS_EACH,
    TOKENS_TOTAL,
    reshuffle_due,
    threshold_for,
)
from companion.games.ratatat.state import RatatatState, described
from companion.i18n import N_, _, ngettext

__all__ = [
    "DEAL",
    "EDITIONS",
    "ENDGAME",
    "ENGINE",
    "FINAL_REVEAL",
    "GIVE_BACK",
    "LOOK",
    "MAX_DICE",
    "OVER",
    "PICTURE",
    "PICTURE_ROLLED",
    "REVEAL",
    "ROLL",
    "ROLLED",
    "SPACE",
    "TOKENS_EACH",
    "TOKENS_TOTAL",
    "RatATatRoll",
    "assistant",
    "reroll_values",
    "reshuffle_due",
    "sum_distribution",
    "threshold_for",
]


class RatATatRoll(Engine[RatatatState]):
    """The Rat-a-Tat Roll rules engine (see the module docstring); state is plain JSON, described by
    :class:`~companion.games.ratatat.state.RatatatState`."""

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
    def setup(self, setup: Setup) -> RatatatState:
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
    def is_over(self, state: Mapping[str, Any]) -> bool:
        """True once every hand has been revealed."""
        return bool(state["phase"] == OVER)

    def scores(self, state: Mapping[str, Any]) -> dict[str, Any]:
        """Each player's card total once revealed (None before); lowest wins, ties share the win."""
        state = described(state)
        result: dict[str, Any] = {name: None for name in state["players"]}
        for name, values in state["hands"].items():
            result[name] = sum(values)
        if self.is_over(state):
            low = min(result[name] for name in state["players"])
            result["winners"] = [name for name in state["players"] if result[name] == low]
        return result

    def legal(self, state: Mapping[str, Any]) -> list[str]:
        """The action types the current phase accepts (the UI greys out the rest)."""
        state = described(state)
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
            space = landing_space(state)
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
                else (["take_region"] if picture_choices(state) else ["end_turn"])
            )
            return [*acts, "reroll"] if usable else acts
        if phase == GIVE_BACK:
            return ["give_back"]
        if phase == LOOK:
            return ["look"]
        if phase == FINAL_REVEAL:
            return ["hand"]
        return []

    def legal_actions(self, state: RatatatState, seat: int | None = None) -> list[Action]:
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
                out += [{"type": kind, "region": r} for r in picture_choices(state)]
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

    def picture_choices(self, state: Mapping[str, Any]) -> list[int]:
        """Regions the cat (lowest) or rat (highest) lets the player take; more than one means a tie to pick."""
        return picture_choices(state)

    def usable_tokens(self, state: Mapping[str, Any], player: int | None = None) -> int:
        """Tokens the player may spend now (tokens earned this turn wait for the next turn)."""
        state = described(state)
        who = state["current"] if player is None else player
        return int(state["tokens"][who] - state["fresh"][who])

    # --- apply -----------------------------------------------------------------------------------------------
    def moves(self) -> dict[str, Callable[[RatatatState, Action], None]]:
        return {
            "roll": moves.roll,
            "reroll": moves.reroll,
            "move": moves.move,
            "take_region": moves.take_region,
            "take_pile": moves.take_pile,
            "end_turn": moves.end_turn,
            "picture": moves.picture,
            "pass": moves.pass_turn,
            "swap": moves.swap,
            "no_swap": moves.no_swap,
            "give_back": moves.give_back,
            "look": moves.look,
            "reveal": moves.reveal,
            "hand": moves.hand,
        }

    def check_move(self, state: RatatatState, kind: str, action: Action) -> None:
        """Only the action types the phase accepts (:meth:`legal`); :meth:`why_not` says what is awaited."""
        if kind not in self.legal(state):
            raise IllegalAction(self.why_not(state, kind))

    def begin_move(self, state: RatatatState) -> None:
        state["events"] = []

    def why_not(self, state: Mapping[str, Any], kind: str) -> str:
        """Why an action of type ``kind`` is not allowed now, in words for the players."""
        state = described(state)
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
            space = landing_space(state)
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

    def _resolve_words(self, state: RatatatState) -> str:
        """What the current player does with the picture die's face ({name} left in)."""
        if state["picture"] == "swap":
            return _("{name} chooses a card to swap (My card …), or taps No swap")
        if picture_choices(state):
            if state["picture"] == "cat":
                return _("{name} takes the card the cat shows (tap Take …)")
            return _("{name} takes the card the rat shows (tap Take …)")
        return _("{name} ends the turn: there is no card to take")

    def describe(self, action: Action, state: Mapping[str, Any] | None = None) -> str:
        """One line for the log and the undo prompt (:func:`wording.describe`)."""
        return wording.describe(action, state)


ENGINE = RatATatRoll()
