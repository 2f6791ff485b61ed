"""Statistics per game and player over finished plays: plays, wins, win rate, average and best score (the best
is the lowest in a lowest-wins game), and each game's own figures (Ratuki's reaction margin and stack ties,
Rat-a-Tat's re-roll tokens, Lowdown's crossed lines)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from companion.history.results import FINISHED, Play

# stat id -> how it adds up over plays: "sum" (a count), or "mean" weighted by the stat named after the colon
AGGREGATE: dict[str, str] = {
    "stacks": "sum",
    "ties": "sum",
    "margin_ms": "mean:margin_n",
    "tokens_used": "sum",
    "lines_crossed": "sum",
    "shaded": "sum",
    "paintings": "sum",
    "tokens": "sum",
}
# Which of them each game's table shows, in order.
GAME_STATS: dict[str, tuple[str, ...]] = {
    "ratuki": ("margin_ms", "ties", "stacks"),
    "ratatat": ("tokens_used",),
    "lowdown": ("lines_crossed", "shaded"),
    "artcollectors": ("paintings",),
}


@dataclass
class PlayerStats:
    """One person's figures (for one game, or over all games when ``game`` is None)."""

    person: str
    game: str | None
    plays: int = 0
    wins: int = 0
    scores: list[float] = field(default_factory=list)
    lowest_wins: bool = False
    extras: dict[str, float] = field(default_factory=dict)
    _weights: dict[str, float] = field(default_factory=dict)

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def best(self) -> float | None:
        if not self.scores:
            return None
        return min(self.scores) if self.lowest_wins else max(self.scores)

    def add(self, play: Play, seat: int) -> None:
        result = play.seat(seat)
        if result is None:
            return
        self.plays += 1
        self.wins += int(result.winner)
        self.lowest_wins = play.lowest_wins
        if result.score is not None and self.game is not None:
            self.scores.append(result.score)
        for stat, value in result.stats.items():
            how = AGGREGATE.get(stat)
            if how == "sum":
                self.extras[stat] = self.extras.get(stat, 0.0) + value
            elif how is not None and how.startswith("mean:"):
                weight = result.stats.get(how.partition(":")[2], 1.0)
                total = self.extras.get(stat, 0.0) * self._weights.get(stat, 0.0) + value * weight
                self._weights[stat] = self._weights.get(stat, 0.0) + weight
                self.extras[stat] = total / self._weights[stat] if self._weights[stat] else 0.0


def player_stats(
    plays: Iterable[Play], links: Mapping[str, Mapping[int, str]], *, game: str | None = None
) -> dict[str, PlayerStats]:
    """person uid -> their figures over the finished plays (of ``game`` only, when given). ``links`` says who
    sat where (play uid -> seat -> person uid)."""
    out: dict[str, PlayerStats] = {}
    for play in plays:
        if play.status != FINISHED or (game is not None and play.game != game):
            continue
        for seat, person in links.get(play.uid, {}).items():
            stats = out.setdefault(person, PlayerStats(person, game))
            stats.add(play, seat)
    return out


def ranked(stats: Mapping[str, PlayerStats]) -> list[PlayerStats]:
    """Most wins first, then the better win rate, then more plays, then the better average score (the lower one
    in a lowest-wins game)."""

    def key(line: PlayerStats) -> tuple[float, float, float, bool, float, str]:
        average = line.average
        better = 0.0 if average is None else average if line.lowest_wins else -average
        return (-line.wins, -line.win_rate, -line.plays, average is None, better, line.person)

    return sorted(stats.values(), key=key)


def results_over_time(
    plays: Iterable[Play], links: Mapping[str, Mapping[int, str]], person: str, game: str
) -> list[tuple[Play, float | None, bool]]:
    """A person's finished plays of one game, oldest first: (play, score, won)."""
    out: list[tuple[Play, float | None, bool]] = []
    for play in plays:
        if play.status != FINISHED or play.game != game:
            continue
        for seat, who in links.get(play.uid, {}).items():
            if who == person:
                result = play.seat(seat)
                if result is not None:
                    out.append((play, result.score, result.winner))
    return sorted(out, key=lambda item: item[0].started)
