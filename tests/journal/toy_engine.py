"""A tiny game for journal and replay tests: players take turns adding 1–6 to a shared total.

The first player whose addition reaches ``target`` wins. It follows the engine contract (pure functions over
JSON, ``IllegalAction`` with a reason) without depending on any real game's rules.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import Action, BadSetup, Setup, State, action_type, check_players, check_settings, require


class ToyEngine:
    """Counting to a target, two to five players."""

    name = "toy"
    title = "Toy count"
    min_players = 2
    max_players = 5

    def default_settings(self) -> dict[str, Any]:
        return {"target": 20}

    def setup(self, setup: Setup) -> State:
        check_players(setup, self.min_players, self.max_players)
        settings = check_settings(self.default_settings(), setup.settings)
        if settings["target"] < 1:
            raise BadSetup("the target must be at least 1")
        names = [p.name for p in setup.players]
        return {"players": names, "target": settings["target"], "total": 0, "turn": 0, "added": dict.fromkeys(names, 0)}

    def apply(self, state: State, action: Action) -> State:
        require(action_type(action) == "add", f"unknown action {action.get('type')!r}")
        require(not self.is_over(state), "the game is over")
        n = action.get("n")
        require(isinstance(n, int) and 1 <= n <= 6, f"you can add 1 to 6, not {n!r}")
        player = state["players"][state["turn"]]
        return {
            **state,
            "total": state["total"] + n,
            "turn": (state["turn"] + 1) % len(state["players"]),
            "added": {**state["added"], player: state["added"][player] + n},
            "winner": player if state["total"] + n >= state["target"] else None,
        }

    def is_over(self, state: State) -> bool:
        return bool(state.get("winner"))

    def scores(self, state: State) -> dict[str, Any]:
        result: dict[str, Any] = dict(state["added"])
        if self.is_over(state):
            result["winners"] = [state["winner"]]
        return result

    def describe(self, action: Action) -> str:
        return f"add {action.get('n')}"


ENGINE = ToyEngine()
