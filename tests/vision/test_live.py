"""Live mode: rolling vs settled, one roll per settle, voting over settled frames, flagging. Synthetic sequences
with injected timestamps (no clock, no camera)."""

from __future__ import annotations

import numpy as np

from companion.vision.detections import Detections
from companion.vision.live import READING, ROLLING, SETTLED, LiveReader, LiveSettings, SettleVoter, moved, vote


def dice(*items: tuple[int, float, float, float]) -> Detections:
    """(value, cx, cy, confidence) -> Detections with 30 px boxes."""
    return Detections.from_lists(
        [[x - 15, y - 15, x + 15, y + 15] for _, x, y, _ in items], [v for v, *_ in items], [c for *_, c in items]
    )


A = dice((3, 100, 100, 0.9), (5, 200, 100, 0.95))


def run(voter: SettleVoter, frames: list[tuple[float, bool, Detections | None]]) -> list[tuple[float, object]]:
    out = []
    for t, moving, det in frames:
        roll = voter.update(t, moving, det if voter.wants_reading(t) else None)
        if roll is not None:
            out.append((t, roll))
    return out


def test_reads_only_after_settle_time_and_emits_once() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.5, votes=3))
    frames = [(i * 0.1, i < 5, A) for i in range(30)]  # moving until t=0.4, then still for 2.5 s
    rolls = run(v, frames)
    assert len(rolls) == 1
    t, roll = rolls[0]
    # still from t=0.5; settled at 1.0; three votes at 1.0, 1.1, 1.2
    assert abs(t - 1.2) < 1e-9
    assert [d.face for d in roll.dice] == [3, 5]  # type: ignore[attr-defined]
    assert not roll.needs_check  # type: ignore[attr-defined]
    assert v.state == SETTLED


def test_not_settled_before_settle_time() -> None:
    v = SettleVoter(LiveSettings(settle_s=1.0, votes=2))
    v.update(0.0, True)
    v.update(0.1, False)
    assert not v.wants_reading(0.5)
    assert v.update(0.5, False, A) is None
    assert v.state == ROLLING
    assert v.wants_reading(1.1)
    assert v.update(1.1, False, A) is None
    assert v.state == READING


def test_a_new_roll_after_movement_emits_again() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.3, votes=2))
    b = dice((6, 300, 300, 0.9))
    frames = [(i * 0.1, False, A) for i in range(10)]
    frames += [(1.0 + i * 0.1, True, None) for i in range(5)]  # the dice are picked up and rolled
    frames += [(1.5 + i * 0.1, False, b) for i in range(10)]
    rolls = run(v, frames)
    assert [[d.face for d in r.dice] for _, r in rolls] == [[3, 5], [6]]  # type: ignore[attr-defined]


def test_movement_while_voting_restarts_the_settle() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.2, votes=3))
    frames = [(0.0, True, None), (0.1, False, A), (0.3, False, A), (0.4, True, None)]
    frames += [(0.5 + 0.1 * i, False, A) for i in range(8)]
    rolls = run(v, frames)
    assert len(rolls) == 1
    assert rolls[0][0] > 0.6


def test_a_die_that_shifts_between_votes_counts_as_movement() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=3))
    shifted = dice((3, 130, 100, 0.9), (5, 200, 100, 0.95))  # first die slid by 30 px
    assert v.update(0.0, False, A) is None
    assert v.update(0.1, False, shifted) is None
    assert v.state == ROLLING
    assert moved(A, shifted, 0.35) and not moved(A, A, 0.35)


def test_vote_takes_the_most_common_value_and_flags_disagreement() -> None:
    readings = [
        dice((4, 100, 100, 0.9), (2, 200, 100, 0.9)),
        dice((4, 101, 99, 0.8), (2, 200, 101, 0.9)),
        dice((6, 100, 101, 0.7), (2, 199, 100, 0.9)),
    ]
    voted = vote(readings)
    assert voted.values.tolist() == [4, 2]
    assert voted.data["agree"].tolist() == [2 / 3, 1.0]
    assert voted.confidences[0] < voted.confidences[1]
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=3))
    roll = None
    for i, r in enumerate(readings):
        roll = v.update(i * 0.1, False, r)
    assert roll is not None
    assert [(d.face, d.flagged) for d in roll.dice] == [(4, True), (2, False)]
    assert roll.needs_check


def test_vote_drops_a_die_seen_in_one_frame_only() -> None:
    ghost = dice((1, 400, 400, 0.6))
    readings = [A, Detections.merge([A, ghost]), A]
    assert vote(readings).values.tolist() == [3, 5]


def test_unsure_reading_is_flagged() -> None:
    weak = dice((2, 100, 100, 0.3))
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=2))
    v.update(0.0, False, weak)
    roll = v.update(0.1, False, weak)
    assert roll is not None and roll.dice[0].flagged


def test_empty_tray_settles_to_an_empty_roll() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=2))
    v.update(0.0, False, Detections.empty())
    roll = v.update(0.1, False, Detections.empty())
    assert roll is not None and roll.dice == ()


def test_live_reader_uses_frame_motion_and_reads_only_when_still() -> None:
    calls: list[int] = []

    def reader(frame: np.ndarray) -> Detections:
        calls.append(int(frame.mean()))
        return A

    live = LiveReader(LiveSettings(settle_s=0.3, votes=2), reader=reader)
    rng = np.random.default_rng(0)
    rolls = []
    t = 0.0
    for _ in range(5):  # rolling: every frame different
        assert live.feed(rng.integers(0, 255, (120, 160, 3), dtype=np.uint8), t) is None
        t += 0.1
    still = np.full((120, 160, 3), 128, np.uint8)
    for _ in range(10):
        roll = live.feed(still, t)
        if roll is not None:
            rolls.append(roll)
        t += 0.1
    assert len(rolls) == 1
    assert len(calls) == 2  # two votes, no reading while rolling or after the roll was emitted
    assert live.state == SETTLED
    assert live.motion(still) == 0.0
