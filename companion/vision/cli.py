"""``companion dice read|eval`` and the vision benchmark.

The lead's ``companion/cli.py`` calls :func:`register` with its argparse sub-parsers; each sub-command sets
``func`` (takes the parsed args, returns the exit code). ``python -m companion.vision.cli`` runs the same commands
on their own. cv2/numpy are imported only when a command runs, never at ``companion`` import time.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

METHOD_HELP = (
    "the reader: the small learned network, the classical pip reader, or hybrid (the network finds the dice, sure "
    "classical readings give their values) (default: the profile's)"
)


def with_method(profile: Any, method: str | None) -> Any:
    """The reader profile with ``--method`` applied (None: keep the profile, or the default one)."""
    if method is None:
        return profile
    from dataclasses import replace

    from companion.vision.pipeline import VisionProfile

    return replace(profile, method=method) if profile is not None else VisionProfile(method=method)


def register(subparsers: Any) -> None:
    """Add ``dice`` with sub-commands ``read`` and ``eval`` to an argparse sub-parsers object."""
    dice = subparsers.add_parser("dice", help="read pip dice in photos; score the reader on a labelled set")
    sub = dice.add_subparsers(dest="dice_command", metavar="{read,eval}")
    sub.required = True
    read = sub.add_parser("read", help="read the dice in images (files or folders)")
    read.add_argument("paths", nargs="+", metavar="PATH", help="an image, or a folder of images")
    read.add_argument("--json", action="store_true", help="one JSON object per image per line")
    read.add_argument(
        "--calibration",
        metavar="NAME",
        help="also read colour/picture dice with a calibration profile made at the images' size ('active': the "
        "active one); dice it cannot place are reported with kind 'unknown'",
    )
    read.add_argument("--camera", help="with --calibration: the camera the profile belongs to (pi, webcam:N, ...)")
    read.add_argument("--method", choices=("learned", "classical", "hybrid"), help=METHOD_HELP)
    read.set_defaults(func=cmd_read)
    ev = sub.add_parser("eval", help="score the reader on a folder with images/ and YOLO labels/")
    ev.add_argument("set_dir", metavar="SET_DIR")
    ev.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ev.add_argument("--list", action="store_true", help="also list the images not read entirely right")
    ev.add_argument("--method", choices=("learned", "classical", "hybrid"), help=METHOD_HELP)
    ev.set_defaults(func=cmd_eval)


def cmd_read(args: argparse.Namespace) -> int:
    """Read each image; print a line per image. Unreadable images are reported on stderr (exit code 1)."""
    import time

    from companion.memory import release_memory
    from companion.vision.dataset import READ_PIXELS, image_paths
    from companion.vision.pipeline import read_dice, to_roll, warm_up
    from hardware.imagefile import ImageRefused, read_image

    status, warmed = 0, False
    for arg in args.paths:
        paths = image_paths(arg, recursive=True)
        if not paths:
            print(f"dice read: no images in {arg}", file=sys.stderr)
            status = 1
        for path in paths:
            try:
                # a big phone photo is read at 1/2 or less (memory); a calibration is for the camera's own size
                image = read_image(path, None if getattr(args, "calibration", None) else READ_PIXELS)
            except ImageRefused as err:
                print(f"dice read: {err}", file=sys.stderr)
                status = 1
                continue
            img = image.pixels
            for note in image.notes:  # a truncated file is read as it is, and said to be
                print(f"dice read: {path}: {note}", file=sys.stderr)
            if image.truncated:
                status = 1
            profile = _calibration(args, img)  # calibration (issue 5): None unless --calibration is given
            profile = with_method(profile, getattr(args, "method", None))
            if not warmed:  # "ms" is the reading, not loading the networks once (~50 ms)
                warm_up(profile)
                warmed = True
            t0 = time.perf_counter()
            det = read_dice(img, profile)
            ms = (time.perf_counter() - t0) * 1000
            if image.factor != 1:  # boxes in the picture's own pixels
                det = det.replace(boxes=det.boxes * image.factor)
            roll = to_roll(det)
            if args.json:
                # "value": 1-6 for pip dice, the face name for colour/picture dice, null when unknown
                dice = [
                    {"value": d.face, "kind": d.kind, "box": list(d.box), "confidence": round(d.confidence, 3)}
                    for d in roll.dice
                    if d.kind == "pips" or getattr(args, "calibration", None)
                ]
                line: dict[str, Any] = {"image": str(path), "dice": dice, "ms": round(ms, 1)}
                if image.notes:
                    line["warning"] = "; ".join(reversed(image.notes))
                print(json.dumps(line), flush=True)
            else:
                faces = " ".join(f"{d.face}{'?' if d.flagged else ''}" for d in roll.dice) or "no dice"
                print(f"{path}: {faces} (sum {roll.total}) [{ms:.0f} ms]", flush=True)
            del image, img, det
            release_memory()
    return status


def _calibration(args: argparse.Namespace, img: Any) -> Any:
    """The reader profile for ``--calibration`` (cached per image size); None without the option."""
    name = getattr(args, "calibration", None)
    if not name:
        return None
    from companion import paths
    from companion.vision.dice_kinds import calibration_for_images
    from hardware.sources import camera_id

    cache = args.__dict__.setdefault("_calibration_cache", {})
    size = (int(img.shape[1]), int(img.shape[0]))
    if size not in cache:
        try:
            camera = camera_id(args.camera) if getattr(args, "camera", None) else None
        except ValueError as err:  # read on uncalibrated, as with no profile, and say why
            cache[size] = None
            print(f"dice read: {err}; using no calibration", file=sys.stderr)
            return None
        found = calibration_for_images(size, name, camera, base_dir=paths.calibration_dir())
        cache[size] = found.profile
        print(f"dice read: {found.message}", file=sys.stderr)
    return cache[size]


def cmd_eval(args: argparse.Namespace) -> int:
    """Score the reader on a labelled set and print the figures of the shared scoring rule."""
    from companion.vision.dataset import evaluate

    try:
        result = evaluate(args.set_dir, with_method(None, getattr(args, "method", None)))
    except ValueError as err:
        print(f"dice eval: {err}", file=sys.stderr)
        return 2
    s = result.score
    if args.json:
        out = s.to_json()
        if result.unreadable:
            out["unreadable"] = len(result.unreadable)
        print(json.dumps(out))
    else:
        print(f"set            {args.set_dir}")
        print(f"images         {s.images}")
        print(f"labelled dice  {s.labelled}")
        print(f"per-die acc.   {s.accuracy:.2%} ({s.right} right)")
        print(f"wrong values   {s.wrong}")
        print(f"misses         {s.missed}")
        print(f"false dice     {s.false} ({s.false_rate:.2%} of labelled dice)")
        print(f"images right   {s.perfect_share:.2%} ({s.perfect_images} of {s.images})")
        if result.unreadable:
            print(f"unreadable     {len(result.unreadable)} images (their labelled dice count as missed)")
    if args.list:
        for path, sc in result.images:
            if sc.unread:
                print(f"  {path.name}: could not be read, {sc.labelled} labelled dice missed")
            elif not sc.perfect:
                print(
                    f"  {path.name}: {sc.right}/{sc.labelled} right, {sc.wrong} wrong, {sc.missed} missed, "
                    f"{sc.false} false"
                )
    for problem in result.unreadable:
        print(f"dice eval: {problem}; its labelled dice count as missed", file=sys.stderr)
    for note in result.flagged:
        print(f"dice eval: {note}", file=sys.stderr)
    return 1 if result.unreadable else 0


def bench_vision(images: list[str] | None = None, repeats: int = 3) -> dict[str, Any]:
    """See :func:`companion.vision.bench.bench_vision` (kept here too for callers of the first version)."""
    from companion.vision.bench import bench_vision as run

    return run(images, repeats)


def main(argv: list[str] | None = None) -> int:
    """Run the dice commands on their own (``python -m companion.vision.cli dice read ...`` or ``read ...``)."""
    parser = argparse.ArgumentParser(prog="companion")
    subparsers = parser.add_subparsers(dest="command", required=True)
    register(subparsers)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in ("read", "eval"):
        argv = ["dice", *argv]
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
