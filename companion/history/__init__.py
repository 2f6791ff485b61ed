"""Players and history: who played, who won, and how it went.

:class:`History` joins the journal (every game's actions) and the :class:`~companion.history.store.HistoryStore`
(persons, who sat where, each play's derived result). ``refresh`` brings the stored results up to date with the
journal, replaying only the games whose journal changed since.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from companion.games.base import Setup
from companion.history.results import (
    ABANDONED,
    DAMAGED,
    FINISHED,
    IN_PROGRESS,
    Moment,
    Play,
    derive,
    play_uid,
    timeline,
)
from companion.history.store import (
    IMPORTED,
    JOURNAL,
    HistoryBusy,
    HistoryError,
    HistoryStore,
    Person,
    cannot_write,
    name_key,
)
from companion.i18n import Lazy
from companion.journal.store import GameRecord, Journal, JournalError

__all__ = [
    "ABANDONED",
    "DAMAGED",
    "FINISHED",
    "IN_PROGRESS",
    "History",
    "HistoryError",
    "HistoryStore",
    "Moment",
    "Person",
    "Play",
    "history_file",
]

log = logging.getLogger(__name__)

# Bump when what ``derive`` reads changes (a new stat, a fixed adapter): every play is derived again once.
RESULTS_VERSION = 2  # 2: edition and options as played (the engine's defaults under the recorded ones)


def history_file(journal_path: Path) -> Path:
    """The history file lives beside the journal (``history.sqlite3``)."""
    return journal_path.with_name("history.sqlite3")


def record_uid(record: GameRecord) -> str:
    return play_uid(record.setup, record.created)


@dataclass(frozen=True)
class Refreshed:
    """What one :meth:`History.refresh` did: plays derived again, and games that could not be read."""

    derived: int
    problems: tuple[str, ...] = ()


class History:
    """The history of one install: the journal's games as plays, and the players who played them."""

    def __init__(self, journal: Journal, store: HistoryStore, problem: Lazy | None = None) -> None:
        self.journal = journal
        self.store = store
        self.problem = problem  # what went wrong opening the history file, for the banner (None: nothing)

    @classmethod
    def open(cls, journal: Journal, path: Path | None = None) -> History:
        """The history in ``path`` (default: beside ``journal``; in memory when the journal is and no path is
        given). A damaged file (or one from a newer app) is kept as ``history.sqlite3.damaged-<date>`` and a new
        one started: the plays come back from the journal, only renames, merges and plays imported from CSV stay
        in the kept file. A file another program holds is left alone and this run's history kept in memory. A
        file that cannot be written (a read-only card) is read into memory, never moved or changed. Either way
        ``problem`` says so. A file that goes read-only or full later is carried into memory at the first
        write it refuses (``store.trouble``)."""
        if path is None and str(journal.path) == ":memory:":
            return cls(journal, HistoryStore(":memory:"))
        path = history_file(journal.path) if path is None else path
        try:
            return cls(journal, HistoryStore(path))
        except HistoryBusy:
            problem = Lazy(
                "The players and history file is in use by another program: this run's players and history are "
                "not kept. Close the other program and restart the app."
            )
            return cls(journal, HistoryStore(":memory:"), problem)
        except HistoryError as err:
            if not _writable(path):  # a read-only card: what it holds is read, nothing is moved or written
                log.warning("history file cannot be written, read into memory: %s", err)
                return cls._read_only(journal, path, err)
            log.warning("history file not usable, kept aside: %s", err)
        kept = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            for suffix in ("", "-wal", "-shm"):  # the WAL goes with its database: it holds its commits
                part = Path(f"{path}{suffix}")
                if part.exists():
                    part.rename(Path(f"{kept}{suffix}"))
            store = HistoryStore(path)
        except (OSError, HistoryError) as err:
            problem = Lazy(
                "The players and history file cannot be used ({reason}): this run's players and history are not "
                "kept. The saved games are not affected.",
                reason=str(err),
            )
            return cls(journal, HistoryStore(":memory:"), problem)
        problem = Lazy(
            "The players and history file was damaged; it is kept as {kept} and a new one started. Every play "
            "comes back from the saved games; renamed or merged players and plays imported from a CSV file are "
            "only in the kept file.",
            kept=kept.name,
        )
        return cls(journal, store, problem)

    @classmethod
    def _read_only(cls, journal: Journal, path: Path, err: HistoryError) -> History:
        if not path.exists():  # nothing saved before: this run's history lives in memory
            store = HistoryStore(":memory:")
            return cls(journal, store, cannot_write(Lazy("the card is read-only")))
        try:
            store = HistoryStore.copied(path)
        except HistoryError as unread:
            problem = Lazy(
                "The players and history file cannot be used ({reason}): this run's players and history are not "
                "kept. The saved games are not affected.",
                reason=str(unread),
            )
            return cls(journal, HistoryStore(":memory:"), problem)
        return cls(journal, store, store.trouble)

    # -- plays --------------------------------------------------------------------------------------------------

    def refresh(self) -> Refreshed:
        """Derive the result of every journal game that changed since the last refresh (never raises for a game
        that does not replay: it becomes a damaged play, kept apart)."""
        known = self.store.cache_keys()
        derived = 0
        problems: list[str] = []
        for record in self.journal.games():
            uid = record_uid(record)
            key = f"{RESULTS_VERSION}:{record.actions}:{record.updated!r}:{int(record.finished)}"
            if uid in known and known[uid][0] == key and known[uid][1] == record.id:
                continue
            if record.problem is not None:  # a damaged row: no players to show, the journal names it
                problems.append(f"{record.game} {record.id}: {record.problem}")
                continue
            try:
                actions = self.journal.actions(record.id)
                times = self.journal.action_times(record.id)
            except JournalError as err:  # a move that cannot be read: a damaged play, kept apart
                broken = derive(record.setup, [], created=record.created, journal_id=record.id)
                broken = dataclasses.replace(broken, status=DAMAGED, problem=str(err), series={})
                self.store.put_play(broken, source=JOURNAL, cache_key=key)
                self._link_seats(broken)
                problems.append(str(err))
                continue
            play = derive(
                record.setup,
                actions,
                created=record.created,
                times=times,
                journal_id=record.id,
                stopped=record.finished,
            )
            source = JOURNAL
            if uid in known and known[uid][2] == IMPORTED:
                # Brought in by an import: its moves were written now, so its times are the exported ones.
                kept = self.store.play(uid)
                if kept is not None:
                    play = dataclasses.replace(play, ended=kept.ended)
                source = IMPORTED
            self.store.put_play(play, source=source, cache_key=key)
            self._link_seats(play)
            derived += 1
            if play.status == DAMAGED and play.problem:
                problems.append(f"{record.game} {record.id}: {play.problem}")
        return Refreshed(derived, tuple(problems))

    def _link_seats(self, play: Play) -> None:
        """Every seat of a play gets its person: the one chosen at setup, else the person by that name (made when
        there is none, with the colour they played in)."""
        links = self.store.links(play.uid)
        for seat in play.players:
            if seat.seat not in links:
                person = self.store.person_for(seat.name, seat.colour)
                self.store.link(play.uid, seat.seat, person.uid, when=_seat_time(play.started, seat.seat))

    def plays(
        self,
        *,
        game: str | None = None,
        person: str | None = None,
        statuses: Iterable[str] = (FINISHED,),
    ) -> list[Play]:
        """Plays newest first, of one game and/or with one person in them."""
        links = self.store.all_links() if person is not None else {}
        out = []
        for play in self.store.plays(statuses=statuses):
            if game is not None and play.game != game:
                continue
            if person is not None and person not in links.get(play.uid, {}).values():
                continue
            out.append(play)
        return out

    def play(self, uid: str) -> Play | None:
        return self.store.play(uid)

    def who(self, play: Play) -> dict[int, Person]:
        """seat -> person for a play (seats whose person was merged away or never linked are left out)."""
        out: dict[int, Person] = {}
        for seat, uid in self.store.links(play.uid).items():
            person = self.store.person(uid)
            if person is not None:
                out[seat] = person
        return out

    def game_record(self, play: Play) -> GameRecord | None:
        """The journal game a play came from, if this journal still has that very game."""
        if play.journal_id is None:
            return None
        try:
            record = self.journal.game(play.journal_id)
        except JournalError:
            return None
        return record if record_uid(record) == play.uid else None

    def timeline(self, play: Play) -> list[Moment] | None:
        """The play's actions worded, or None when its journal game is not here (a play imported from CSV)."""
        record = self.game_record(play)
        if record is None:
            return None
        return timeline(record.setup, self.journal.actions(record.id), self.journal.action_times(record.id))

    def delete(self, play: Play, *, journal_too: bool = False) -> None:
        """Take a play out of history; its saved game is deleted from the journal only with ``journal_too``."""
        record = self.game_record(play)
        if journal_too and record is not None:
            self.journal.delete_game(record.id)
            self.store.forget(play.uid)
        elif record is None:
            self.store.forget(play.uid)  # nothing would bring it back: an imported play goes entirely
        else:
            self.store.hide(play.uid)

    # -- players -------------------------------------------------------------------------------------------------

    def recent(self, limit: int = 12) -> list[Person]:
        """Players, the most recently played first (what the new-game screen offers)."""
        return self.store.persons()[:limit]

    def started(self, setup: Setup, game_id: int, persons: Mapping[int, str]) -> None:
        """A game was just started with these persons (seat -> person uid): link them now, so the play is theirs
        whatever its names say, and they come first next time."""
        record = self.journal.game(game_id)
        uid = record_uid(record)
        for player in setup.players:
            person = persons.get(player.seat)
            if person is None or self.store.person(person) is None:
                person = self.store.person_for(player.name, player.colour).uid
            self.store.link(uid, player.seat, person, when=_seat_time(record.created, player.seat))
            self.store.update_person(person, colour=player.colour)

    def seats_of(self, game_id: int) -> dict[int, str]:
        """seat -> person uid of a journal game's players (who sat where), e.g. to play it again with the same
        people; empty when the game or its play is not known."""
        try:
            record = self.journal.game(game_id)
        except JournalError:
            return {}
        return self.store.links(record_uid(record))

    def person_named(self, name: str) -> Person | None:
        return self.store.find(name)

    def same_name(self, a: str, b: str) -> bool:
        return name_key(a) == name_key(b)


def _writable(path: Path) -> bool:
    """Whether the history file (or, before it exists, its folder) can be written: False on a read-only card
    (``access`` says so even to root there)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    return os.access(folder, os.W_OK) and (not path.exists() or os.access(path, os.W_OK))


def _seat_time(started: float, seat: int) -> float:
    """When a seat's player last played, for ordering: the start of the play, a microsecond earlier per seat, so
    the players of the latest game come first in their seat order."""
    return started - seat * 1e-6
