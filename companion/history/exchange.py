"""Export and import of the history: ``plays.csv`` (one row per player per play), ``players.csv`` (everyone, with
the names they were known by) and ``games/<play>.jsonl`` (each play's full journal, the format ``companion replay``
reads). Importing into an empty install restores the history; importing the same files again adds nothing (plays
and players are matched by the ids the files carry)."""

from __future__ import annotations

import csv
import dataclasses
import datetime as dt
import io
import itertools
import json
import math
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.config import MAX_NAME
from companion.history import History, record_uid
from companion.history.results import ABANDONED, FINISHED, STATUSES, Play, SeatResult, derive
from companion.history.store import IMPORTED, HistoryError, clean_name
from companion.i18n import _
from companion.journal.replay import MAX_LINE_BYTES, ReplayError, dump_lines, load_lines
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
# What the app itself writes, and so all an import takes: a file edited by hand or by a spreadsheet may hold
# anything, and a name of 10,000 characters, a colour "red" or a start time of 1e20 would break the screens.
PLAY_ID = re.compile(r"[0-9a-f]{16}")  # results.play_uid
PERSON_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
GAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
LATEST = 4_102_444_800.0  # 2100-01-01: no play starts later


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
            lines = _timed_lines(history, record.id, record.setup)
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
            except (HistoryError, ValueError) as err:
                problems.append(_("{file}, line {line}: {error}").format(file=players_csv.name, line=number, error=err))
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
            seat = next(p for p in play.players if p.seat == int(row["seat"]))
            person = _person_for_row(history, row, seat)
            history.store.link(uid, seat.seat, person, when=play.started - seat.seat * 1e-6)
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


def _timed_lines(history: History, game_id: int, setup: Any) -> list[str]:
    """The game's export lines (as ``companion export`` writes them), each action with ``at``: when it was played
    (``companion replay`` passes over it; an import gives the moves their times back, so the timeline says when)."""
    lines = dump_lines(setup, history.journal.actions(game_id))
    times = history.journal.action_times(game_id)
    out = lines[:1]
    for line, at in zip(lines[1:], times, strict=True):
        out.append(json.dumps({**json.loads(line), "at": at}, sort_keys=True))
    return out


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
    where = _("{file}, line {line}").format(file=source, line=number)
    try:
        if not PLAY_ID.fullmatch(uid):
            raise ValueError(_("{value!r} is not a play id").format(value=uid[:40]))
        started = _bounded(first["started"], _("start time"), 0.0, LATEST)
        duration = _bounded(first["duration_s"] or "0", _("duration"), 0.0, 366 * 86400.0)
        options = _json(first["options"] or "{}", _("options"))
        actions = int(_bounded(first["actions"] or "0", _("moves"), 0, 10_000_000))
        if first["status"] not in STATUSES or not isinstance(options, dict) or not GAME.fullmatch(first["game"]):
            raise ValueError(
                _("not a play (status {status!r}, game {game!r})").format(
                    status=first["status"][:40], game=first["game"][:40]
                )
            )
        if len(first["edition"]) > 40 or len(rows) > 5:
            raise ValueError(_("not a play of this app (edition or number of players)"))
        players = []
        for line, row in rows:
            where = _("{file}, line {line}").format(file=source, line=line)
            players.append(_seat_from_row(row))
        if len({p.seat for p in players}) != len(players):
            raise ValueError(_("two players in one seat"))
    except (ValueError, TypeError, AttributeError, RecursionError) as err:
        raise ExchangeError(f"{where}: {err}") from err
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
        actions=actions,
    )


def _seat_from_row(row: dict[str, str]) -> SeatResult:
    """One player of a play as the app writes it: seat 1-5, a name of 1-14 characters, a #rrggbb colour, finite
    numbers (ValueError saying what is wrong otherwise)."""
    score = row["score"].strip()
    stats = _json(row["stats"] or "{}", _("game stats"))
    if not isinstance(stats, dict):
        raise ValueError(_("game stats: not as the app writes them"))
    return SeatResult(
        seat=int(_bounded(row["seat"], _("seat"), 1, 5)),
        name=_name(row["name"]),
        colour=_colour(row["colour"]),
        score=_bounded(score, _("score"), -1e6, 1e6) if score else None,
        winner=row["winner"] in ("1", "true", "True"),
        rank=int(_bounded(row["rank"] or "0", _("rank"), 0, 5)),
        stats={str(k)[:40]: _bounded(v, str(k)[:40], -1e9, 1e9) for k, v in stats.items()},
    )


def _bounded(value: object, what: str, low: float, high: float) -> float:
    """A finite number from ``low`` to ``high`` (a whole one where both are whole)."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise ValueError(_("{what}: not a number").format(what=what))
    try:
        number = float(value)
    except ValueError:
        raise ValueError(_("{what}: {value!r} is not a number").format(what=what, value=str(value)[:40])) from None
    whole = isinstance(low, int) and isinstance(high, int)
    if not math.isfinite(number) or not low <= number <= high or (whole and not number.is_integer()):
        raise ValueError(
            _("{what}: {value} is not from {low} to {high}").format(
                what=what, value=str(value)[:40], low=_number(low), high=_number(high)
            )
        )
    return number


def _json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError(_("{what}: not as the app writes them").format(what=what)) from None


def _name(value: str) -> str:
    name = clean_name(value)
    if not 1 <= len(name) <= MAX_NAME:
        raise ValueError(_("a player's name must be 1 to {n} characters").format(n=MAX_NAME))
    return name


def _colour(value: str) -> str:
    if not COLOUR.fullmatch(value.strip()):
        raise ValueError(_("{value!r} is not a colour (#rrggbb)").format(value=value[:40]))
    return value.strip().lower()


def _import_person(history: History, row: dict[str, str]) -> int:
    """One line of players.csv: a person with their id, name, colour, initial and the names they went by."""
    store = history.store
    if not PERSON_ID.fullmatch(row["person"]):
        raise ValueError(_("{value!r} is not a player id").format(value=row["person"][:40]))
    name, colour = _name(row["name"]), _colour(row["colour"])
    initial = clean_name(row["initial"])
    if len(initial) > 2:
        raise ValueError(_("an initial is at most 2 characters"))
    aliases = [a for a in row["also_known_as"].split("|") if a.strip()]
    if len(aliases) > 100 or any(len(a) > 4 * MAX_NAME for a in aliases):
        raise ValueError(_("not the names of one player"))
    if store.person(row["person"]) is not None:
        return 0
    if store.find(name) is not None:
        return 0  # someone here already goes by that name: the plays will join them
    store.add_person(name, colour, uid=row["person"], initial=initial)
    for alias in aliases:
        if store.find(alias) is None:
            store.add_alias(alias, row["person"])
    return 1


def _person_for_row(history: History, row: dict[str, str], seat: SeatResult) -> str:
    """The person who sat in a seat of an imported play: the one with the row's id, else the one known by the
    row's name, else a new person (the name as checked for the play)."""
    store = history.store
    uid = row["person"] if PERSON_ID.fullmatch(row["person"]) else ""
    if uid and store.person(uid) is not None:
        return uid
    name = clean_name(row["person_name"])
    if not 1 <= len(name) <= MAX_NAME:
        name = seat.name
    found = store.find(name)
    if found is not None:
        return found.uid
    return store.add_person(name, seat.colour, uid=uid or None).uid


def _import_game(history: History, path: Path, play: Play) -> bool:
    """Bring a play's journal along (its start time as exported, so it is the same play). A game that does not
    replay to the exported result is not imported (the CSV's result stands)."""
    if path.stat().st_size > MAX_FILE:
        raise ExchangeError(f"{path.stat().st_size // 1_000_000} MB is too big for one game")
    with path.open(encoding="utf-8") as fh:
        setup, actions = load_lines(fh, source=path.name)
    times = _times(path, len(actions), play)
    again = derive(setup, actions, created=play.started, stopped=play.status == ABANDONED)
    if again.uid != play.uid or again.status != play.status:
        raise ExchangeError("its moves do not give the exported result; the result from plays.csv is kept")
    journal = history.journal
    game_id = journal.new_game(setup, created=play.started)
    for index, action in enumerate(actions):
        journal.append(game_id, action, at=times[index] if times else None)
    if play.status == ABANDONED or again.status == FINISHED:
        journal.set_finished(game_id, True)
    history.store.put_play(dataclasses.replace(again, ended=play.ended, journal_id=game_id), source=IMPORTED)
    return True


def _times(path: Path, count: int, play: Play) -> list[float] | None:
    """When each move of an exported game was played (the ``at`` of its action lines, in order, within the
    play), or None when the file does not say it for every move (a game exported by ``companion export``)."""
    times: list[float] = []
    with path.open(encoding="utf-8") as fh:
        for raw in fh:
            if len(raw) > MAX_LINE_BYTES:
                return None
            try:
                record = json.loads(raw) if raw.strip() else {}
            except (ValueError, RecursionError):
                return None
            if isinstance(record, dict) and record.get("kind") == "action":
                at = record.get("at")
                if isinstance(at, bool) or not isinstance(at, int | float) or not math.isfinite(at):
                    return None
                times.append(float(at))
    ordered = all(a <= b for a, b in itertools.pairwise(times))
    if len(times) != count or not ordered or (times and not play.started <= times[0] <= times[-1] <= LATEST):
        return None
    return times
