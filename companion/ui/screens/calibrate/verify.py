"""Verify's helpers, plain functions: number (pip) dice the pip reader finds, matched to the wizard's reads by
box, and a roll's answers counted in the wizard's tallies (number dice and "not a die" left out)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from companion.calibrate.wizard import Wizard
from companion.ui.screens.calibrate.words import NOT_A_DIE, NUMBER_DIE

Box = tuple[int, int, int, int]
Read = tuple[Box, str, str | None]
"""One die the wizard read: its box in frame pixels, its kind ("colour", "picture", "pips") and face (None:
not read)."""


def pip_numbers(frame: np.ndarray, tray: Any) -> list[tuple[Box, int]]:
    """Number dice the pip reader finds on the tray (``tray``: the profile's, or None): (box, value); none when it
    cannot run."""
    from companion.vision.pipeline import VisionProfile, read_dice

    try:
        found = read_dice(frame, VisionProfile(tray_quad=tray.corners if tray else None))
    except (ValueError, OSError, RuntimeError, ImportError, cv2.error):
        return []
    return [
        (box4(found.boxes[i]), int(found.values[i]))
        for i in range(len(found))
        if found.kinds[i] == "pips" and int(found.values[i]) > 0
    ]


def with_numbers(reads: list[Read], numbers: list[tuple[Box, int]]) -> list[Read]:
    """``reads`` with each die the wizard could not read and the pip reader found there read as "number N"."""
    return [
        (box, "pips", f"number {n}") if face is None and (n := number_in(box, numbers)) else (box, kind, face)
        for box, kind, face in reads
    ]


def record_answers(wizard: Wizard, reads: list[Read], answers: list[str | None]) -> None:
    """Count one roll: each read die against the player's answer (number dice are the pip reader's: not part of
    this check)."""
    for (_box, kind, face), truth in zip(reads, answers, strict=True):
        if truth in (NOT_A_DIE, NUMBER_DIE) or truth is None or (kind == "pips" and truth == face):
            continue  # number dice are the pip reader's: not part of this check
        truth_kind = "colour" if truth in wizard.colour.faces else "picture"
        wizard.verification_for(truth_kind).record(face, truth)


def box4(values: Any) -> Box:
    """Four numbers as a box of whole pixels."""
    x0, y0, x1, y1 = (int(v) for v in values)
    return (x0, y0, x1, y1)


def number_in(box: Box, numbers: list[tuple[Box, int]]) -> int:
    """The pip reader's value for the die in ``box`` (0: it found no number die there)."""
    x0, y0, x1, y1 = box
    margin = max(4, (x1 - x0) // 4)
    for (a0, b0, a1, b1), value in numbers:
        cx, cy = (a0 + a1) / 2, (b0 + b1) / 2
        if x0 - margin <= cx <= x1 + margin and y0 - margin <= cy <= y1 + margin:
            return value
    return 0
