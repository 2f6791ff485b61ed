"""The ``companion`` command: the app, and the tools around it (export, replay, dice, calibrate, bench)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="companion", description="Table Companion: referee, dice reader, scores.")
    parser.add_argument("--sim", action="store_true", help="simulation: keys/touch for buttons, bundled dice photos")
    parser.add_argument("--screenshot", metavar="FILE", help="render the first screen to a PNG and exit")
    parser.add_argument("--config", metavar="FILE", type=Path, help="config file (default: XDG config dir)")
    sub = parser.add_subparsers(dest="command")

    export = sub.add_parser("export", help="write a journaled game as JSON lines")
    export.add_argument("game_id", type=int)
    export.add_argument("file", type=Path)
    export.set_defaults(func=cmd_export)

    replay = sub.add_parser("replay", help="replay an exported game and print its state and scores as JSON")
    replay.add_argument("file", type=Path)
    replay.set_defaults(func=cmd_replay)

    games = sub.add_parser("games", help="list the journal's games")
    games.set_defaults(func=cmd_games)

    bench = sub.add_parser("bench", help="measure speed and memory targets (see README)")
    bench.add_argument("--only", action="append", help="run only these benchmarks (repeatable)")
    bench.set_defaults(func=cmd_bench)

    from companion.calibrate.cli import register as register_calibrate
    from companion.vision.cli import register as register_dice

    register_dice(sub)
    register_calibrate(sub, configured_camera)
    return parser


def configured_camera() -> tuple[str, tuple[int, int]]:
    """The camera spec and size the app is configured with, so ``companion calibrate`` calibrates the camera the
    app uses (a broken config: the defaults, as the app itself would)."""
    from companion import config, paths
    from companion.runtime import resolve_camera

    camera = config.load(paths.config_file())["camera"]
    return resolve_camera(str(camera["source"]), simulation=False), (int(camera["width"]), int(camera["height"]))


def cmd_export(args: argparse.Namespace) -> int:
    from companion import paths
    from companion.journal import Journal, JournalError
    from companion.journal.export import export_game

    try:
        path = export_game(Journal(paths.journal_file(), readonly=True), args.game_id, args.file)
    except (JournalError, OSError) as err:
        print(f"companion export: {err}", file=sys.stderr)
        return 2
    print(path)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from companion.journal.replay import ReplayError, replay_file

    try:
        result = replay_file(str(args.file))
    except OSError as err:
        print(f"companion replay: cannot read {args.file}: {err.strerror}", file=sys.stderr)
        return 2
    except ReplayError as err:
        print(f"companion replay: {err}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=1, sort_keys=True))
    return 0


def cmd_games(_args: argparse.Namespace) -> int:
    from companion import paths
    from companion.journal import Journal, JournalError

    if not paths.journal_file().exists():
        print(f"no games yet: no journal at {paths.journal_file()}", file=sys.stderr)
        return 0
    try:
        journal = Journal(paths.journal_file(), readonly=True)
        if journal.damage is not None:
            print(
                f"companion games: warning: {paths.journal_file()} is damaged ({journal.damage}); "
                "the app keeps it and carries the games that still read into a new file when it starts",
                file=sys.stderr,
            )
        records = journal.games()
    except JournalError as err:
        print(f"companion games: {err}", file=sys.stderr)
        return 2
    if not records:
        print(f"no games in {paths.journal_file()}", file=sys.stderr)
    for record in records:
        names = ", ".join(p.name for p in record.setup.players)
        state = f"damaged: {record.problem}" if record.problem else "finished" if record.finished else "unfinished"
        print(f"{record.id}\t{record.game}\t{state}\t{record.actions} actions\t{names}")
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from companion.bench import run_benchmarks

    results = run_benchmarks(args.only)
    print(json.dumps(results, indent=1, sort_keys=True))
    return 0


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func = getattr(args, "func", None)
    if func is not None:
        try:
            return int(func(args) or 0)
        except BrokenPipeError:  # e.g. `companion dice read DIR --json | head -1`: the reader left, quietly
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
    from companion.ui.launch import run

    return run(simulate=args.sim, screenshot=args.screenshot, config_path=args.config)


if __name__ == "__main__":
    sys.exit(main())
