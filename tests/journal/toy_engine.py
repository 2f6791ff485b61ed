"""A tiny game for journal and replay tests: players take turns adding 1–6 to a shared total.

The first player whose addition reaches ``target`` wins. It follows the engine contract (pure functions over
JSON, ``IllegalAction`` with a reason) without depending on any real game's rules.
"""

from __future__ import annotations

from typing import Any

from companion.games.base import (
    Action,
    BadSetup,
    Engine,
    Move,
    Setting,
    Setup,
    State,
    check_players,
    check_settings,
    require,
)


class ToyEngine(Engine):
    """Counting to a target, two to five players."""

    name = "toy"
    title = "Toy count"
    min_players = 2
    max_players = 5
    settings = {"target": Setting(20, "Count to", range=(1, 100))}  # noqa: RUF012

    def setup(self, setup: Setup) -> State:
        check_players(setup, self.min_players, self.max_players)
        settings = check_settings(self.default_settings(), setup.settings)
        if settings["target"] < 1:
            raise BadSetup("the target must be at least 1")
        names = [p.name for p in setup.players]
        return {"players": names, "target": settings["target"], "total": 0, "turn": 0, "added": dict.fromkeys(names, 0)}

    def moves(self) -> dict[str, Move]:
        return {"add": self._add}

    def _add(self, state: State, action: Action) -> None:
        n = action.get("n")
        require(isinstance(n, int) and 1 <= n <= 6, f"you can add 1 to 6, not {n!r}")
        player = state["players"][state["turn"]]
        state["added"][player] += n
        state["total"] += n
        state["turn"] = (state["turn"] + 1) % len(state["players"])
        state["winner"] = player if state["total"] >= state["target"] else None

    def legal_actions(self, state: State, seat: int | None = None) -> list[Action]:
        if self.is_over(state) or seat not in (None, state["turn"] + 1):
            return []
        return [{"type": "add", "n": n} for n in range(1, 7)]

    def is_over(self, state: State) -> bool:
        return bool(state.get("winner"))

    def scores(self, state: State) -> dict[str, Any]:
        result: dict[str, Any] = dict(state["added"])
        if self.is_over(state):
            result["winners"] = [state["winner"]]
        return result

    def describe(self, action: Action, state: State | None = None) -> str:
        return f"add {action.get('n')}"


ENGINE = ToyEngine()
