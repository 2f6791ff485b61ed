"""Play the example game logs (written by the scripted games in ``tests/games/*logbot*.py``) into a real journal,
action by action through :class:`GameSession`, as the app does at the table."""

from __future__ import annotations

from pathlib import Path

from companion.journal import GameSession, Journal, load_lines

LOGS = Path(__file__).resolve().parents[1] / "games" / "logs"


class Clock:
    """Wall-clock seconds that move on by ``step`` at every reading (journal timestamps)."""

    def __init__(self, start: float = 1_700_000_000.0, step: float = 7.0) -> None:
        self.now = start
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def play_log(journal: Journal, path: Path, *, upto: int | None = None) -> GameSession:
    """A new journal game from the log's setup, then its actions (the first ``upto`` only, when given)."""
    with path.open(encoding="utf-8") as fh:
        setup, actions = load_lines(fh, source=str(path))
    session = GameSession(journal, journal.new_game(setup))
    for action in actions[:upto]:
        session.do(action)
    return session


def logs(game: str) -> list[Path]:
    return sorted(LOGS.glob(f"{game}-*.jsonl"))
