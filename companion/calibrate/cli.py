"""``companion calibrate``: the calibration walk-through in a terminal, and profile management.

    companion calibrate [--camera SPEC] [--profile NAME] [--kinds colour,picture] [--captures N] [--verify N]
    companion calibrate --list | --use NAME | --delete NAME [--camera SPEC --size WxH] | --markers FILE

The walk-through reads one frame per step (Enter = capture), so it also runs on a replay of recorded frames.
Profiles live in the app's data folder; ``--base-dir`` points elsewhere (tests, or a second set of profiles).
The camera calibrated by default is the one the app is configured with: ``companion.cli`` (the app's wiring)
hands it to :func:`register`, so nothing here reads the app's config.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, TextIO

from calibration.profile import DEFAULT_COLOUR_FACES, DEFAULT_PICTURE_FACES, KINDS, ProfileError
from calibration.store import ProfileStore
from companion import paths
from hardware.sources import camera_id

Ask = Callable[[str], str]
Configured = Callable[[], tuple[str, tuple[int, int]]]
"""Gives the camera spec and frame size to calibrate when ``--camera`` / ``--size`` are not given."""

DEFAULT_CAMERA: tuple[str, tuple[int, int]] = ("webcam:0", (640, 480))


def register(subparsers: Any, configured: Configured = lambda: DEFAULT_CAMERA) -> None:
    """Add the ``calibrate`` command to the ``companion`` parser's subcommands; ``configured`` gives the camera
    the app uses (the default when ``--camera`` and ``--size`` are left out)."""
    p = subparsers.add_parser(
        "calibrate",
        help="calibrate the camera, tray, colour dice and picture die (or manage calibration profiles)",
        description="Walk through calibration in the terminal, or list/choose/delete profiles.",
    )
    p.add_argument("--camera", help="pi, webcam:N or replay:PATH (default: the camera in the app's config)")
    p.add_argument("--size", help="camera resolution WxH (default: the size in the app's config, else 640x480)")
    p.add_argument("--profile", metavar="NAME", help="profile name to save (or to recalibrate part of)")
    p.add_argument(
        "--kinds",
        default="colour,picture",
        help="die kinds to capture, comma-separated (colour, picture); others are kept as they are",
    )
    p.add_argument("--captures", type=int, default=3, help="captures per face (default 3)")
    p.add_argument("--verify", type=int, default=5, metavar="N", help="verify rolls after capturing (0: skip)")
    p.add_argument("--list", action="store_true", help="list the saved profiles and which are active")
    p.add_argument("--use", metavar="NAME", help="make a saved profile the active one for --camera/--size")
    p.add_argument("--delete", metavar="NAME", help="delete a saved profile of --camera/--size")
    p.add_argument("--markers", metavar="FILE", type=Path, help="write a printable sheet of the 4 tray markers")
    p.add_argument("--base-dir", type=Path, help=argparse.SUPPRESS)
    p.set_defaults(func=partial(cmd_calibrate, configured=configured))


def parse_size(text: str) -> tuple[int, int]:
    """``"640x480"`` -> (640, 480); ValueError otherwise."""
    match = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", text)
    if not match or int(match.group(1)) <= 0 or int(match.group(2)) <= 0:
        raise ValueError(f"size {text!r} is not WIDTHxHEIGHT, e.g. 640x480")
    return int(match.group(1)), int(match.group(2))


def cmd_calibrate(
    args: argparse.Namespace,
    ask: Ask = input,
    out: TextIO | None = None,
    source: Any = None,
    configured: Configured = lambda: DEFAULT_CAMERA,
) -> int:
    """Run ``companion calibrate``; ``ask``, ``out`` and ``source`` are replaced in tests, ``configured`` gives
    the app's camera (see :func:`register`)."""
    out = out or sys.stdout
    store = ProfileStore(args.base_dir if args.base_dir is not None else paths.calibration_dir())
    spec, configured_size = configured()
    args.camera = args.camera or spec
    try:
        size = parse_size(args.size) if args.size else configured_size
    except ValueError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return 2
    if args.markers:
        import cv2

        from companion.vision.tray import marker_sheet

        if not cv2.imwrite(str(args.markers), marker_sheet()):
            print(f"companion calibrate: cannot write {args.markers}", file=sys.stderr)
            return 2
        print(
            f"Marker sheet written to {args.markers}: print it, cut out the 4 markers and stick them at the "
            "tray's corners (0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left).",
            file=out,
        )
        return 0
    if args.list:
        entries = store.entries()
        if not entries:
            print(f"No calibration profiles in {store.base_dir}", file=out)
        for e in entries:
            if not e.camera:  # active.json itself, unreadable: no profile counts as active
                print(f"  {'(active choices)':<24} {e.path.name:<17}   BROKEN: {e.problem}", file=out)
                continue
            mark = "*" if e.active else " "
            where = f"{e.camera}@{e.resolution[0]}x{e.resolution[1]}"
            print(f"{mark} {e.name:<24} {where}" + (f"   BROKEN: {e.problem}" if e.problem else ""), file=out)
        return 0
    try:
        camera = camera_id(args.camera)  # the camera part of a profile's key, as the app's source.id says it
    except ValueError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        if args.use:
            profile = store.use(args.use, camera, size)
            print(f"Active for {profile.key}: {profile.name}", file=out)
            return 0
        if args.delete:
            if not store.exists(args.delete, camera, size):
                raise ProfileError(f"no profile {args.delete!r} for {camera}@{size[0]}x{size[1]}")
            store.delete(args.delete, camera, size)
            print(f"Deleted {args.delete}", file=out)
            return 0
    except ProfileError as exc:
        print(f"companion calibrate: {exc}", file=sys.stderr)
        return 2
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in KINDS]
    if unknown or args.captures < 1 or args.verify < 0:
        why = f"unknown die kind {unknown[0]!r} (use {', '.join(KINDS)})" if unknown else "bad --captures/--verify"
        print(f"companion calibrate: {why}", file=sys.stderr)
        return 2
    if source is None:
        from hardware.sources import open_camera

        try:
            source, message = open_camera(args.camera, size=size)
        except ValueError as exc:
            print(f"companion calibrate: {exc}", file=sys.stderr)
            return 2
        if message:
            print(f"Camera: {message} (will keep trying)", file=out)
    from companion.calibrate.wizard import WizardError  # OpenCV and the classifiers load only when calibrating

    try:
        return Walkthrough(store, source, camera, args.profile, kinds, args.captures, args.verify, ask, out).run()
    except (EOFError, KeyboardInterrupt):
        print("\nStopped; nothing was saved.", file=out)
        return 1
    except (WizardError, ProfileError) as exc:
        print(f"companion calibrate: {exc}; nothing was saved", file=sys.stderr)
        return 2
    finally:
        close = getattr(source, "close", None)
        if close is not None:
            close()


class Walkthrough:
    """The terminal version of the wizard: one prompt per step, one frame per capture."""

    def __init__(
        self,
        store: ProfileStore,
        source: Any,
        camera: str,
        name: str | None,
        kinds: list[str],
        captures: int,
        verify_rolls: int,
        ask: Ask,
        out: TextIO,
    ) -> None:
        self.store, self.source, self.camera, self.name = store, source, camera, name
        self.kinds, self.captures, self.verify_rolls = kinds, captures, verify_rolls
        self.ask, self.out = ask, out

    def say(self, text: str) -> None:
        """Print a line for the player."""
        print(text, file=self.out)

    def frame(self) -> Any:
        """The next frame's image; on a camera problem, say so and let the player retry or quit."""
        from hardware.camera import CameraUnavailable

        while True:
            try:
                return self.source.read().image
            except CameraUnavailable as exc:
                self.say(f"Camera: {exc}")
                if self.ask("Enter to try again, q to quit: ").strip().lower() == "q":
                    raise EOFError from None

    def run(self) -> int:
        """The whole walk-through; returns the exit code."""
        from companion.calibrate.wizard import Wizard, WizardError

        first = self.frame()
        resolution = (int(first.shape[1]), int(first.shape[0]))
        if self.name and self.store.exists(self.name, self.camera, resolution):
            wizard = Wizard.resume(self.store, self.name, self.camera, resolution, captures_per_face=self.captures)
            self.say(f"Recalibrating '{self.name}': {', '.join(self.kinds)} (the rest is kept)")
            for notice in wizard.notices:
                self.say(f"      {notice}")
        else:
            wizard = Wizard(self.camera, resolution, captures_per_face=self.captures)
        self.say(f"Calibrating {self.camera} at {resolution[0]}x{resolution[1]}")
        # 1. camera check
        exposure = wizard.check_camera(first)
        self.say(
            f"[1/7] Camera: sharpness {exposure.sharpness:.0f}, brightness {exposure.brightness:.0f}. {exposure.advice}"
        )
        while self.ask("Enter to go on, m to measure again: ").strip().lower() == "m":
            exposure = wizard.check_camera(self.frame())
            self.say(
                f"      sharpness {exposure.sharpness:.0f}, brightness {exposure.brightness:.0f}. {exposure.advice}"
            )
        # 2. tray area
        wizard.go("tray")
        keep = wizard.profile.tray is not None and self.ask("[2/7] Keep the saved tray area? [Y/n] ").strip() != "n"
        if not keep:
            wizard.profile.tray = None
        while wizard.profile.tray is None:
            self.say("[2/7] " + wizard.find_markers(self.frame()))
            if wizard.profile.tray is not None:
                break
            answer = self.ask("Enter to look again, or type the corners as x,y x,y x,y x,y: ").strip()
            if answer:
                try:
                    points = [tuple(float(v) for v in p.split(",")) for p in answer.split()]
                    self.say(wizard.set_tray_taps([(p[0], p[1]) for p in points]))
                except (ValueError, IndexError, WizardError) as exc:
                    self.say(f"      {exc}")
        # 3. empty tray
        wizard.go("empty")
        if wizard.empty_image is None or self.ask("[3/7] Keep the saved empty tray? [Y/n] ").strip().lower() == "n":
            while True:
                self.ask("[3/7] Clear the tray (no dice, no hands) and press Enter: ")
                try:
                    self.say(wizard.capture_empty(self.frame()))
                    break
                except WizardError as exc:
                    self.say(f"      {exc}")
        # 4-5. faces
        for step, kind in (("4/7", "colour"), ("5/7", "picture")):
            if kind not in self.kinds:
                continue
            wizard.go(kind)
            wizard.restart_kind(kind)  # asked for: capture every face of this kind again
            task = wizard.task(kind)
            what = "the colour dice" if kind == "colour" else "the picture die (alone)"
            while (face := task.current) is not None:
                n = task.done.get(face, 0) + 1
                answer = (
                    self.ask(
                        f"[{step}] Put {what} on the tray with {face.upper()} on top "
                        f"({n}/{task.per_face}), Enter to capture, s to skip {kind}: "
                    )
                    .strip()
                    .lower()
                )
                if answer == "s":
                    self.say(f"      {kind} skipped: the saved {kind} calibration (if any) is kept")
                    break
                result = wizard.capture_face(kind, self.frame())
                self.say(f"      {result.message}")
            else:
                wizard.fit(kind)
        # 6. verify
        wizard.go("verify")
        if self.verify_rolls and wizard.profile.calibrated_kinds():
            self.verify(wizard)
        # 7. save
        wizard.go("save")
        name = self.name or ""
        while True:
            if not name:
                name = self.ask("[7/7] Name this profile (e.g. kitchen table): ").strip()
            if wizard.would_replace(self.store, name):
                answer = self.ask(f"      A profile called '{name}' is already saved: replace it? [y/N] ")
                if answer.strip().lower() not in ("y", "yes"):
                    name = ""
                    continue
            try:
                profile = wizard.save(self.store, name)
                break
            except WizardError as exc:
                self.say(f"      {exc}")
                name = ""
        self.say(
            f"Saved '{profile.name}' for {profile.key} and made it active "
            f"({', '.join(profile.calibrated_kinds()) or 'tray only'})."
        )
        return 0

    def verify(self, wizard: Any) -> None:
        """Roll, read, let the player confirm (Enter) or correct (type the face) each die."""
        faces = {"colour": list(DEFAULT_COLOUR_FACES), "picture": list(DEFAULT_PICTURE_FACES)}
        faces.update({k: list(wizard.task(k).faces) for k in KINDS})
        for roll in range(1, self.verify_rolls + 1):
            self.ask(f"[6/7] Verify {roll}/{self.verify_rolls}: roll the dice, Enter when they are still: ")
            reads = wizard.verify_read(self.frame())
            if not reads:
                self.say("      no dice found")
            for i, (box, kind, face) in enumerate(reads, start=1):
                shown = face if face is not None else "unknown"
                answer = self.ask(
                    f"      die {i} at ({(box[0] + box[2]) // 2},{(box[1] + box[3]) // 2}): {shown} "
                    "- Enter if right, else type what it shows (- for not a calibrated die): "
                )
                answer = answer.strip().lower()
                known = [name for names in faces.values() for name in names]
                while (answer not in ("-", "") and answer not in known) or (not answer and face is None):
                    answer = self.ask(f"      say what die {i} shows ({', '.join(known)}) or - : ").strip().lower()
                if answer == "-":
                    continue
                truth = answer or str(face)
                truth_kind = next((k for k, names in faces.items() if truth in names), kind)
                if truth_kind in KINDS:
                    wizard.verification_for(truth_kind).record(face, truth)
        for kind, tally in wizard.verifications.items():
            self.say(f"      {kind}: {tally.summary()}")
        wizard.finish_verify()
