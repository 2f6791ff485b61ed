"""Export and import of the history: ``plays.csv`` (one row per player per play), ``players.csv`` (everyone, with
the names they were known by) and ``games/<play>.jsonl`` (each play's full journal, the format ``companion replay``
reads). Importing into an empty install restores the history; importing the same files again adds nothing (plays
and players are matched by the ids the files carry)."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.history import History, record_uid
from companion.history.results import ABANDONED, FINISHED, STATUSES, Play, SeatResult, derive
from companion.history.store import IMPORTED, HistoryError
from companion.journal.replay import ReplayError, dump_lines, load_lines
from companion.journal.store import JournalError

PLAY_COLUMNS = [
    "play",
    "game",
    "status",
    "started",
    "started_at",
    "duration_s",
    "edition",
    "options",
    "lowest_wins",
    "actions",
    "seat",
    "name",
    "colour",
    "score",
    "winner",
    "rank",
    "stats",
    "person",
    "person_name",
]
PLAYER_COLUMNS = ["person", "name", "colour", "initial", "also_known_as"]
MAX_FILE = 50 * 1024 * 1024  # bytes: an export of years of games is a few MB; anything bigger is not ours


class ExchangeError(ValueError):
    """An export that cannot be written, or a file that is not one of ours (the message names file and line)."""


@dataclass(frozen=True)
class Report:
    """What an export wrote or an import added (and what it found already there)."""

    plays: int = 0
    players: int = 0
    games: int = 0
    skipped: int = 0
    folder: Path | None = None
    problems: tuple[str, ...] = ()


def export(history: History, folder: Path) -> Report:
    """Write the whole history (finished and abandoned plays, everyone) into ``folder`` (made if missing)."""
    history.refresh()
    plays = history.plays(statuses=(FINISHED, ABANDONED))
    links = history.store.all_links()
    persons = {p.uid: p for p in history.store.persons()}
    try:
        (folder / "games").mkdir(parents=True, exist_ok=True)
        rows = []
        for play in sorted(plays, key=lambda p: p.started):
            for seat in play.players:
                person = persons.get(links.get(play.uid, {}).get(seat.seat, ""))
                rows.append(_play_row(play, seat, person.uid if person else "", person.name if person else ""))
        _write_csv(folder / "plays.csv", PLAY_COLUMNS, rows)
        people = [
            {
                "person": p.uid,
                "name": p.name,
                "colour": p.colour,
                "initial": p.initial,
                "also_known_as": "|".join(history.store.names_of(p.uid)),
            }
            for p in persons.values()
        ]
        _write_csv(folder / "players.csv", PLAYER_COLUMNS, people)
        games = 0
        for play in plays:
            record = history.game_record(play)
            if record is None:
                continue
            lines = dump_lines(record.setup, history.journal.actions(record.id))
            _write_text(folder / "games" / f"{play.uid}.jsonl", "\n".join(lines) + "\n")
            games += 1
    except (OSError, JournalError) as err:
        raise ExchangeError(f"{folder}: the export could not be written ({err})") from err
    return Report(plays=len(plays), players=len(persons), games=games, folder=folder)


def import_from(history: History, source: Path) -> Report:
    """Import a folder written by :func:`export` (or a ``plays.csv`` file): players first, then each play's
    journal where it came along (so its timeline and charts come back too), then the plays known only from the
    CSV. Anything already here is left as it is."""
    folder = source.parent if source.is_file() else source
    plays_csv = source if source.is_file() else folder / "plays.csv"
    if not plays_csv.exists():
        raise ExchangeError(f"{folder}: no plays.csv here (is this a history export?)")
    history.refresh()
    people = 0
    problems: list[str] = []
    players_csv = folder / "players.csv"
    if players_csv.exists():
        for number, row in _read_csv(players_csv, PLAYER_COLUMNS):
            try:
                people += _import_person(history, row)
            except HistoryError as err:
                problems.append(f"{players_csv.name}, line {number}: {err}")
    by_play: dict[str, list[tuple[int, dict[str, str]]]] = {}
    for number, row in _read_csv(plays_csv, PLAY_COLUMNS):
        by_play.setdefault(row["play"], []).append((number, row))
    known = set(history.store.cache_keys())
    known |= {record_uid(r) for r in history.journal.games() if r.problem is None}
    added = games = skipped = 0
    for uid, rows in by_play.items():
        if uid in known:
            skipped += 1
            continue
        try:
            play = _play_from_rows(uid, rows, plays_csv.name)
        except ExchangeError as err:
            problems.append(str(err))
            continue
        journal_file = folder / "games" / f"{uid}.jsonl"
        brought = False
        if journal_file.exists():
            try:
                brought = _import_game(history, journal_file, play)
                games += int(brought)
            except (ReplayError, ExchangeError, JournalError, OSError) as err:
                problems.append(f"{journal_file.name}: {err}")
        if not brought:
            history.store.put_play(play, source=IMPORTED)
        for _number, row in rows:
            person = _person_for_row(history, row)
            history.store.link(uid, int(row["seat"]), person, when=play.started - int(row["seat"]) * 1e-6)
        added += 1
    history.refresh()
    return Report(plays=added, players=people, games=games, skipped=skipped, folder=folder, problems=tuple(problems))


# -- writing -------------------------------------------------------------------------------------------------------


def _play_row(play: Play, seat: SeatResult, person: str, person_name: str) -> dict[str, Any]:
    return {
        "play": play.uid,
        "game": play.game,
        "status": play.status,
        "started": f"{play.started:.6f}",
        "started_at": dt.datetime.fromtimestamp(play.started).isoformat(timespec="seconds"),
        "duration_s": f"{play.duration_s:.0f}",
        "edition": play.edition or "",
        "options": json.dumps(play.options, sort_keys=True, ensure_ascii=False),
        "lowest_wins": int(play.lowest_wins),
        "actions": play.actions,
        "seat": seat.seat,
        "name": seat.name,
        "colour": seat.colour,
        "score": "" if seat.score is None else _number(seat.score),
        "winner": int(seat.winner),
        "rank": seat.rank,
        "stats": json.dumps(seat.stats, sort_keys=True),
        "person": person,
        "person_name": person_name,
    }


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _write_csv(path: Path, columns: list[str], rows: Iterable[dict[str, Any]]) -> None:
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    # UTF-8 with a byte-order mark: spreadsheet programs then read Hangul and accents right.
    _write_text(path, "\ufeff" + buffer.getvalue())


def _write_text(path: Path, text: str) -> None:
    temp = path.with_name(path.name + ".tmp")
    with temp.open("w", encoding="utf-8", newline="") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    temp.replace(path)


# -- reading -------------------------------------------------------------------------------------------------------


def _read_csv(path: Path, columns: list[str]) -> list[tuple[int, dict[str, str]]]:
    try:
        if path.stat().st_size > MAX_FILE:
            raise ExchangeError(f"{path.name}: {path.stat().st_size // 1_000_000} MB is too big for a history export")
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as err:
        raise ExchangeError(f"{path.name}: not UTF-8 text ({err.reason} at byte {err.start})") from err
    except OSError as err:
        raise ExchangeError(f"{path.name}: cannot be read ({err})") from err
    reader = csv.DictReader(io.StringIO(text))
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if missing:
        raise ExchangeError(f"{path.name}: not a history export (missing columns: {', '.join(missing)})")
    return [(number, {k: (v or "") for k, v in row.items() if k}) for number, row in enumerate(reader, start=2)]


def _play_from_rows(uid: str, rows: list[tuple[int, dict[str, str]]], source: str) -> Play:
    number, first = rows[0]
    where = f"{source}, line {number}"
    try:
        started = float(first["started"])
        duration = float(first["duration_s"] or 0)
        options = json.loads(first["options"] or "{}")
        players = []
        for line, row in rows:
            score = row["score"].strip()
            players.append(
                SeatResult(
                    seat=int(row["seat"]),
                    name=row["name"],
                    colour=row["colour"] or "#ffffff",
                    score=float(score) if score else None,
                    winner=row["winner"] in ("1", "true", "True"),
                    rank=int(row["rank"] or 0),
                    stats={str(k): float(v) for k, v in json.loads(row["stats"] or "{}").items()},
                )
            )
            where = f"{source}, line {line}"
    except (ValueError, TypeError, AttributeError) as err:
        raise ExchangeError(f"{where}: {err}") from err
    if first["status"] not in STATUSES or not isinstance(options, dict) or not first["game"]:
        raise ExchangeError(f"{where}: not a play (status {first['status']!r}, game {first['game']!r})")
    return Play(
        uid=uid,
        game=first["game"],
        status=first["status"],
        started=started,
        ended=started + duration,
        players=tuple(sorted(players, key=lambda p: p.seat)),
        lowest_wins=first["lowest_wins"] in ("1", "true", "True"),
        edition=first["edition"] or None,
        options=options,
        actions=int(first["actions"] or 0),
    )


def _import_person(history: History, row: dict[str, str]) -> int:
    store = history.store
    if not row["person"] or store.person(row["person"]) is not None:
        return 0
    if store.find(row["name"]) is not None:
        return 0  # someone here already goes by that name: the plays will join them
    store.add_person(row["name"], row["colour"] or "#ffffff", uid=row["person"], initial=row["initial"])
    for alias in filter(None, row["also_known_as"].split("|")):
        if store.find(alias) is None:
            store.add_alias(alias, row["person"])
    return 1


def _person_for_row(history: History, row: dict[str, str]) -> str:
    store = history.store
    if row["person"] and store.person(row["person"]) is not None:
        return row["person"]
    name = row["person_name"] or row["name"]
    found = store.find(name)
    if found is not None:
        return found.uid
    return store.add_person(name, row["colour"] or "#ffffff", uid=row["person"] or None).uid


def _import_game(history: History, path: Path, play: Play) -> bool:
    """Bring a play's journal along (its start time as exported, so it is the same play). A game that does not
    replay to the exported result is not imported (the CSV's result stands)."""
    if path.stat().st_size > MAX_FILE:
        raise ExchangeError(f"{path.stat().st_size // 1_000_000} MB is too big for one game")
    with path.open(encoding="utf-8") as fh:
        setup, actions = load_lines(fh, source=path.name)
    again = derive(setup, actions, created=play.started, stopped=play.status == ABANDONED)
    if again.uid != play.uid or again.status != play.status:
        raise ExchangeError("its moves do not give the exported result; the result from plays.csv is kept")
    journal = history.journal
    game_id = journal.new_game(setup, created=play.started)
    for action in actions:
        journal.append(game_id, action)
    if play.status == ABANDONED or again.status == FINISHED:
        journal.set_finished(game_id, True)
    history.store.put_play(dataclasses.replace(again, ended=play.ended, journal_id=game_id), source=IMPORTED)
    return True
