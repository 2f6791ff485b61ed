"""What history needs from each game's engine state, one small adapter per game.

The engines answer "scores" and "winners" by player name today; the engine contract is being rebuilt around
seats (issue #23). Everything history reads from a game's state goes through the functions here, so a change in
an engine's state or scores means a change in its adapter only. Adapters read, never change, engine state.

Per-seat statistics (``stats``) are plain numbers keyed by a short id from :data:`STAT_LABELS`; ``series`` holds
chart data (Ratuki's rounds, Lowdown's score breakdown), JSON-serialisable like everything in a play.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.games import engine as find_engine
from companion.games.base import Action, BadSetup, Engine, Setup, State
from companion.i18n import N_

# stat id -> label (marked for translation, translated where shown)
STAT_LABELS: dict[str, str] = {
    "stacks": N_("Stacks taken"),
    "ties": N_("Stack ties"),
    "margin_ms": N_("Avg margin"),
    "tokens_used": N_("Tokens used"),
    "lines_crossed": N_("Lines crossed"),
    "shaded": N_("Shaded squares"),
    "paintings": N_("Paintings won"),
    "tokens": N_("Tokens"),
}


def seat_of_name(setup: Setup) -> dict[str, int]:
    return {p.name: p.seat for p in setup.players}


def by_seat(setup: Setup, mapping: dict[Any, Any]) -> dict[int, Any]:
    """A per-player mapping keyed by seat, whether the engine keyed it by name, by seat, or by seat as text."""
    names = seat_of_name(setup)
    seats = {p.seat for p in setup.players}
    out: dict[int, Any] = {}
    for key, value in mapping.items():
        if isinstance(key, str) and key in names:
            out[names[key]] = value
        elif isinstance(key, int) and not isinstance(key, bool) and key in seats:
            out[key] = value
        elif isinstance(key, str) and key.isdigit() and int(key) in seats:
            out[int(key)] = value
    return out


def winner_seats(setup: Setup, winners: Any) -> list[int]:
    names = seat_of_name(setup)
    seats = {p.seat for p in setup.players}
    out: list[int] = []
    for w in winners if isinstance(winners, list | tuple) else []:
        if isinstance(w, str) and w in names:
            out.append(names[w])
        elif isinstance(w, int) and not isinstance(w, bool) and w in seats:
            out.append(w)
    return sorted(set(out))


def describe(engine: Engine, action: Action, state: State | None) -> str:
    """The engine's own wording of one action (with the state, so it names players)."""
    return engine.describe(action, state)


class Tracker:
    """Watches a game's replay step by step and gathers what its final state no longer shows."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup

    def step(self, before: State, action: Action, after: State) -> None:
        """One accepted (non-note) action; ``before``/``after`` are the engine states around it."""

    def stats(self, final: State) -> dict[int, dict[str, float]]:
        """Per-seat statistics of the game (only the ones this game has)."""
        return {}

    def series(self, final: State) -> dict[str, Any]:
        """Chart data for the game (empty when it has no chart)."""
        return {}


class Adapter:
    """One game: which way scores win, its edition and options, and a :class:`Tracker` for its replay."""

    game = ""
    lowest_wins = False
    tracker: Callable[[Setup], Tracker] = Tracker

    def edition(self, setup: Setup) -> str | None:
        value = played_settings(setup).get("edition")
        return str(value) if isinstance(value, str) else None

    def scores(self, engine: Engine, setup: Setup, state: State) -> tuple[dict[int, float | None], list[int]]:
        """Each seat's score (None where the game does not give one) and the winning seats once it is over."""
        raw = engine.scores(state)
        winners = winner_seats(setup, raw.get("winners")) if engine.is_over(state) else []
        values = {k: v for k, v in raw.items() if k != "winners"}
        scores: dict[int, float | None] = {p.seat: None for p in setup.players}
        for seat, value in by_seat(setup, values).items():
            ok = isinstance(value, int | float) and not isinstance(value, bool)
            scores[seat] = value if ok else None
        return scores, winners


def played_settings(setup: Setup) -> dict[str, Any]:
    """The settings a game was played with: the recorded ones over the engine's defaults (a game recorded without
    an option, by a script or an older app, played it at its default: the engine merges them the same way)."""
    try:
        defaults = find_engine(setup.game).default_settings()
    except BadSetup:  # a game this version does not have (an imported play)
        defaults = {}
    return {**defaults, **setup.settings}


def options(setup: Setup) -> dict[str, Any]:
    """The settings the game was played with, as shown in history: scalars only (inline boards, decks and
    catalogues are data the game carries, not options)."""
    played = played_settings(setup)
    return {k: v for k, v in sorted(played.items()) if v is None or isinstance(v, str | int | float | bool)}


# -- Ratuki ---------------------------------------------------------------------------------------------------


class RatukiTracker(Tracker):
    """Margins of every stack taken with a runner-up; stacks and ties per seat from each closed round."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.margins: dict[int, list[float]] = {p.seat: [] for p in setup.players}

    def step(self, before: State, action: Action, after: State) -> None:
        if action.get("type") != "call":
            return
        calls = after.get("calls") or []
        if not calls:
            return
        verdict = calls[-1].get("verdict") or {}
        seats = verdict.get("seats") or []
        margin = verdict.get("margin_ms")
        if verdict.get("kind") == "take" and len(seats) == 1 and isinstance(margin, int | float):
            self.margins.setdefault(int(seats[0]), []).append(float(margin))

    def stats(self, final: State) -> dict[int, dict[str, float]]:
        out: dict[int, dict[str, float]] = {p.seat: {"stacks": 0.0, "ties": 0.0} for p in self.setup.players}
        for record in final.get("rounds", []):
            for seat, n in by_seat(self.setup, record.get("stacks", {})).items():
                out[seat]["stacks"] += n
            for seat, n in by_seat(self.setup, record.get("ties", {})).items():
                out[seat]["ties"] += n
        for seat, margins in self.margins.items():
            if margins and seat in out:
                out[seat]["margin_ms"] = round(sum(margins) / len(margins), 1)
                out[seat]["margin_n"] = float(len(margins))
        return out

    def series(self, final: State) -> dict[str, Any]:
        """``rounds``: per closed round, each seat's points (by seat, as text keys for JSON); ``target``."""
        rounds = []
        for record in final.get("rounds", []):
            points = {
                str(seat): entry.get("points", 0)
                for seat, entry in by_seat(self.setup, record.get("entries", {})).items()
            }
            rounds.append(points)
        return {"rounds": rounds, "target": final.get("settings", {}).get("target")}


class RatukiAdapter(Adapter):
    game = "ratuki"
    tracker = RatukiTracker

    def edition(self, setup: Setup) -> str | None:
        # The Spanish rules' decks have 35 cards, the Hasbro edition's 34 (the game's only edition difference).
        deck = played_settings(setup).get("deck_size")
        return {35: "es", 34: "hasbro"}.get(deck, f"{deck} cards") if isinstance(deck, int) else None


# -- Rat-a-Tat Roll ---------------------------------------------------------------------------------------------


class RatatatTracker(Tracker):
    """Re-roll tokens spent: every ``reroll`` is one token of the player whose turn it is."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.used: dict[int, int] = {p.seat: 0 for p in setup.players}

    def step(self, before: State, action: Action, after: State) -> None:
        if action.get("type") == "reroll":
            index = before.get("current")
            if isinstance(index, int) and 0 <= index < len(self.setup.players):
                self.used[self.setup.players[index].seat] += 1

    def stats(self, final: State) -> dict[int, dict[str, float]]:
        return {seat: {"tokens_used": float(n)} for seat, n in self.used.items()}


class RatatatAdapter(Adapter):
    game = "ratatat"
    lowest_wins = True
    tracker = RatatatTracker


# -- Lowdown ------------------------------------------------------------------------------------------------------


class LowdownTracker(Tracker):
    """Lines crossed and the score's parts: numbers kept per grid, shaded squares (+6 each), numbers crossed out."""

    def _parts(self, final: State, index: int) -> dict[str, Any]:
        board = final["boards"][index]
        crossed = {tuple(s) for line in board.get("crossed", []) for s in line}
        kept: list[int] = []
        shaded = struck = 0
        for g, grid in enumerate(board["grids"]):
            total = 0
            for r, row in enumerate(grid):
                for c, cell in enumerate(row):
                    if cell is None:
                        continue
                    if cell.get("shaded"):
                        shaded += 1
                    elif (g, r, c) in crossed:
                        struck += int(cell["n"])
                    else:
                        total += int(cell["n"])
            kept.append(total)
        return {"kept": kept, "shaded": shaded, "crossed_out": struck, "lines": len(board.get("crossed", []))}

    def stats(self, final: State) -> dict[int, dict[str, float]]:
        out: dict[int, dict[str, float]] = {}
        for index, player in enumerate(self.setup.players):
            parts = self._parts(final, index)
            out[player.seat] = {"lines_crossed": float(parts["lines"]), "shaded": float(parts["shaded"])}
        return out

    def series(self, final: State) -> dict[str, Any]:
        """``grids``: the grid names; ``breakdown``: per seat (text key) numbers kept per grid, shaded squares,
        the sum crossed out and the lines crossed; ``shaded_points``: what one shaded square costs."""
        grids = [str(g.get("name") or f"Grid {i + 1}") for i, g in enumerate(final["layout"]["grids"])]
        breakdown = {str(p.seat): self._parts(final, i) for i, p in enumerate(self.setup.players)}
        return {"grids": grids, "breakdown": breakdown, "shaded_points": 6}


class LowdownAdapter(Adapter):
    game = "lowdown"
    lowest_wins = True
    tracker = LowdownTracker


# -- Art Collectors -------------------------------------------------------------------------------------------


class ArtTracker(Tracker):
    """Paintings won and tokens collected, from the engine's final working."""

    def stats(self, final: State) -> dict[int, dict[str, float]]:
        from companion.games.artcollectors import working

        try:
            players = working(final)["players"]
        except (KeyError, TypeError, ValueError):
            return {}
        out: dict[int, dict[str, float]] = {}
        for index, player in enumerate(players):
            if index < len(self.setup.players):
                out[self.setup.players[index].seat] = {
                    "paintings": float(len(player.get("paintings", []))),
                    "tokens": float(player.get("tokens", 0)),
                }
        return out


class ArtAdapter(Adapter):
    game = "artcollectors"
    tracker = ArtTracker

    def edition(self, setup: Setup) -> str | None:
        return "full" if played_settings(setup).get("full_game", True) else "basic"


ADAPTERS: dict[str, Adapter] = {a.game: a for a in (RatukiAdapter(), RatatatAdapter(), LowdownAdapter(), ArtAdapter())}


def adapter(game: str) -> Adapter:
    """The adapter for ``game`` (a plain one, scores and winners only, for a game without its own)."""
    return ADAPTERS.get(game) or Adapter()
