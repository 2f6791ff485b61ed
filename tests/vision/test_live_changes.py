"""Live mode on rendered frames (640x480, the real dice reader): a die turned over after the roll settled is read
again, and a die still sliding slowly never counts as settled."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from scenes import scene

from companion.vision.detections import Detections
from companion.vision.live import SETTLED, LiveReader, LiveSettings
from companion.vision.pipeline import read_dice

OTHERS = [(6, 320, 300), (2, 460, 180)]


def frames_of(dice: list[tuple[int, float, float]], size: float) -> np.ndarray:
    return scene(dice + OTHERS, size=size).image


def counting(reads: list[float], clock: list[float]) -> Callable[[np.ndarray], Detections]:
    def reader(frame: np.ndarray) -> Detections:
        reads.append(clock[0])
        return read_dice(frame)

    return reader


def play(live: LiveReader, frames: list[np.ndarray], fps: float, clock: list[float]) -> list[tuple[float, list[int]]]:
    rolls = []
    for i, frame in enumerate(frames):
        clock[0] = t = i / fps
        roll = live.feed(frame, t)
        if roll is not None:
            rolls.append((round(t, 3), sorted(int(d.face) for d in roll.dice if d.face is not None)))
    return rolls


def moving_hand(base: np.ndarray, n: int) -> list[np.ndarray]:
    out = []
    for i in range(n):
        f = base.copy()
        f[200:330, 40 + 60 * i : 160 + 60 * i] = (150, 170, 200)
        out.append(f)
    return out


@pytest.mark.parametrize(
    ("size", "knobs", "within_s"),
    [
        (44, {"recheck_s": 30.0}, 0.7),  # a big die: the local change alone asks for the re-reads
        (32, {"recheck_s": 1.0, "change_pixels": 0}, 2.7),  # too small to see in the thumbnail: the re-checks
    ],
)
def test_a_die_turned_over_after_settling_is_read_again(size: float, knobs: dict[str, float], within_s: float) -> None:
    """The audit: one die turned in place changes ~0.1% of the thumbnail, under the motion threshold, so the
    screen kept the old face for good."""
    before, after = frames_of([(2, 200, 200)], size), frames_of([(5, 200, 200)], size)
    assert sorted(read_dice(before).values.tolist()) == [2, 2, 6] and sorted(read_dice(after).values.tolist()) == [
        2,
        5,
        6,
    ]
    reads: list[float] = []
    clock = [0.0]
    live = LiveReader(LiveSettings(settle_s=0.5, **knobs), reader=counting(reads, clock))  # type: ignore[arg-type]
    # the premise: turning the die changes less of the thumbnail than counts as motion
    assert live._share(live._thumb(after), live._thumb(before)) < live.settings.motion_pixels
    fps = 10
    rolls = play(live, moving_hand(before, 3) + [before] * 20 + [after] * 40, fps, clock)
    assert [r for _, r in rolls] == [[2, 2, 6], [2, 5, 6]]
    turned_at = 23 / fps
    assert turned_at < rolls[1][0] <= turned_at + within_s
    assert live.state == SETTLED


def test_settled_dice_are_re_read_about_once_a_second_and_no_more() -> None:
    """The cost while nothing happens: one reading per ``recheck_s`` on top of the votes."""
    still = frames_of([(3, 200, 200)], 44)
    reads: list[float] = []
    clock = [0.0]
    live = LiveReader(LiveSettings(settle_s=0.5, votes=3, recheck_s=1.0), reader=counting(reads, clock))
    rolls = play(live, moving_hand(still, 3) + [still] * 100, 10, clock)  # 10 s still
    assert len(rolls) == 1
    assert 3 + 7 <= len(reads) <= 3 + 10


def slide(fps: float, px_per_frame: float, size: float = 32) -> tuple[list[np.ndarray], int]:
    """A die sliding slowly to the right, turning from 4 to 5 half-way, then lying still: the frames and the
    index of the first still one."""
    background = scene(OTHERS, size=size).image
    pad = int(size * 0.75)
    patches = {}
    for value in (4, 5):
        img = scene([(value, 120, 150), *OTHERS], size=size).image
        patches[value] = img[150 - pad : 150 + pad, 120 - pad : 120 + pad].copy()
    frames = moving_hand(background, 3)
    x, start, stop = 90.0, 90.0, 250.0
    while True:
        f = background.copy()
        xi = round(x)
        f[150 - pad : 150 + pad, xi - pad : xi + pad] = patches[4 if x < (start + stop) / 2 else 5]
        frames.append(f)
        if x >= stop:
            break
        x = min(stop, x + px_per_frame)
    return frames + [frames[-1]] * int(2 * fps), len(frames)


@pytest.mark.parametrize(("fps", "px"), [(30, 2), (30, 4), (10, 6)])
def test_a_slowly_sliding_die_is_not_still(fps: float, px: float) -> None:
    """The audit: frame to frame, a die sliding a few pixels a frame changed too little to count as motion, so
    the roll settled (and was voted) mid-slide, with the face the die showed then."""
    frames, stopped = slide(fps, px)
    reads: list[float] = []
    clock = [0.0]
    live = LiveReader(LiveSettings(settle_s=0.5), reader=counting(reads, clock))
    rolls = play(live, frames, fps, clock)
    assert [r for _, r in rolls] == [[2, 5, 6]]
    assert rolls[0][0] >= stopped / fps
    assert min(reads) >= stopped / fps  # nothing was read while the die slid
