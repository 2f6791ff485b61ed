"""The simulated camera: one frame size, a still picture held until the next roll, a burst of motion in between,
the dice each screen asks for, and dice the reader reads as it reads a camera."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from hardware.camera import CameraUnavailable
from hardware.simtray import COLOUR, PICTURE, PIPS, SimulatedTray, TrayRoll, tray_of
from hardware.sources import open_camera


class Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def tray(seed: int = 1, **kwargs: Any) -> tuple[SimulatedTray, Clock]:
    clock = Clock()
    source = SimulatedTray(clock=clock, seed=seed, **kwargs)
    source.open()
    return source, clock


def test_one_frame_size_and_a_still_picture_until_the_next_roll() -> None:
    source, clock = tray()
    first = source.read().image
    assert first.shape == (480, 640, 3) and first.dtype == np.uint8
    clock.t += 30  # half a minute later, nobody rolled: the same picture
    assert np.array_equal(source.read().image, first)
    shapes = set()
    for _ in range(12):
        source.roll()
        for _ in range(4):
            clock.t += 0.25
            shapes.add(source.read().image.shape)
    assert shapes == {(480, 640, 3)}  # never a 640x640 photo among the 640x480 ones (#21.4)


def test_a_roll_moves_for_a_moment_then_lies_still() -> None:
    source, clock = tray(motion_s=0.8)
    before = source.read().image
    source.roll()
    assert source.moving
    moving = []
    for _ in range(3):
        clock.t += 0.2
        moving.append(source.read().image)
    assert not any(np.array_equal(a, b) for a, b in itertools.pairwise(moving))  # the dice move
    clock.t += 0.5
    assert not source.moving
    still = source.read().image
    clock.t += 5
    assert np.array_equal(source.read().image, still) and not np.array_equal(still, before)


def test_the_roll_fits_what_is_asked_for() -> None:
    source, _clock = tray(seed=4)
    for _ in range(20):
        source.roll()
        assert 1 <= len(source.dice) <= 3 and {kind for kind, _ in source.dice} == {PIPS}  # Rat-a-Tat's default
    assert source.want(TrayRoll(pips=(2, 2), colours=2))  # Lowdown's open roll: not on the tray yet, so rolled
    kinds = sorted(kind for kind, _ in source.dice)
    assert kinds == [COLOUR, COLOUR, PIPS, PIPS]
    assert not source.want(TrayRoll(pips=(2, 2), colours=2))  # it fits already: the picture is kept
    assert source.want(TrayRoll.empty()) and source.dice == []  # the calibration's empty tray
    source.want(TrayRoll(colours=2, colour_face="green"))
    assert source.dice == [(COLOUR, "green"), (COLOUR, "green")]
    source.want(TrayRoll(pictures=1, picture_face="rat"))
    assert source.dice == [(PICTURE, "rat")]


def test_open_camera_sim_is_the_tray_and_the_markers_make_a_tray() -> None:
    from companion.vision.tray import find_tray_markers

    camera, message = open_camera("sim", size=(640, 480))
    assert message is None
    source = tray_of(camera)
    assert isinstance(source, SimulatedTray) and camera.name.startswith("simulated")
    frame = camera.read().image
    quad, seen = find_tray_markers(frame)
    assert seen == [0, 1, 2, 3] and quad is not None
    assert np.allclose(sorted(quad), sorted(source.tray_quad), atol=3)


def test_without_sample_photos_it_says_so(tmp_path: Any) -> None:
    camera, message = open_camera("sim", sim_dir=tmp_path)
    assert message is not None and "no sharp sample dice" in message
    with pytest.raises(CameraUnavailable):
        camera.read()


def test_the_dice_reader_reads_the_tray_as_a_camera() -> None:
    """The number dice are real dice cut from the sample photos: the reader (the app's, uncalibrated) reads
    most rolls whole, and colour dice are not taken for number dice."""
    from companion.vision.pipeline import read_dice

    source, clock = tray(seed=11)
    right = 0
    rolls = 40
    for k in range(rolls):
        source.spec = TrayRoll(pips=(1, 3)) if k % 2 else TrayRoll(pips=(2, 2), colours=2)
        source.roll()
        clock.t += 2
        det = read_dice(source.read().image, None)
        truth = sorted(face for kind, face in source.dice if kind == PIPS)
        right += sorted(int(v) for v in det.values) == truth
    assert right >= 0.85 * rolls, f"{right} of {rolls} rolls read whole"
