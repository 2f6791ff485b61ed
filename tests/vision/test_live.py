"""Live mode: rolling vs settled, one roll per settle, voting over settled frames, flagging. Synthetic sequences
with injected timestamps (no clock, no camera)."""

from __future__ import annotations

import numpy as np

from companion.vision.detections import Detections
from companion.vision.live import (
    READING,
    ROLLING,
    SETTLED,
    LiveReader,
    LiveSettings,
    SettleVoter,
    shifted,
    vote,
)


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
    slid = dice((3, 130, 100, 0.9), (5, 200, 100, 0.95))  # first die slid by 30 px
    assert v.update(0.0, False, A) is None
    assert v.update(0.1, False, slid) is None
    assert v.state == ROLLING
    assert shifted(A, slid, 0.35) and not shifted(A, A, 0.35)


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
    assert live.feed(still, t) is None and len(calls) == 2  # still the same roll: not read again so soon


WEAK = dice((3, 100, 100, 0.9), (4, 200, 100, 0.9), (5, 300, 100, 0.9))  # the third die is sometimes missed


def test_a_die_missed_in_some_frames_does_not_restart_the_settle() -> None:
    """A die the reader finds in only some still frames used to restart the settle at every change of count
    (seconds of "Still — reading…"), and the roll that finally came left it out without a flag."""
    v = SettleVoter(LiveSettings(settle_s=0.5, votes=3))
    missed = WEAK[[0, 1]]
    frames = [(0.0, True, None)] + [(0.1 * (i + 1), False, [missed, WEAK][i % 2]) for i in range(40)]
    rolls = run(v, frames)
    assert len(rolls) == 1
    t, roll = rolls[0]
    assert abs(t - 0.8) < 1e-9  # still from 0.1, read at 0.6, 0.7, 0.8: no restart
    assert [(d.face, d.flagged) for d in roll.dice] == [(3, False), (4, False), (5, True)]  # type: ignore[attr-defined]


def test_a_die_seen_in_a_minority_of_the_votes_is_dropped() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=3))
    missed = WEAK[[0, 1]]
    assert v.update(0.0, False, missed) is None and v.update(0.1, False, WEAK) is None
    roll = v.update(0.2, False, missed)
    assert roll is not None
    assert [(d.face, d.flagged) for d in roll.dice] == [(3, False), (4, False)]


def test_shifted_tells_a_sliding_die_from_a_missed_one() -> None:
    touching = dice((3, 100, 100, 0.9), (4, 124, 100, 0.9))  # boxes of turned dice overlap: centres 24 px apart
    assert not shifted(touching, touching[[1]], 0.35)  # the first die was missed: nothing moved
    assert not shifted(touching[[1]], touching, 0.35)
    slid = dice((3, 100, 130, 0.9), (4, 124, 100, 0.9))
    assert shifted(touching, slid, 0.35)
    assert shifted(A, dice((3, 130, 100, 0.9), (5, 200, 100, 0.95)), 0.35)


def settled_voter(votes: int = 2, **knobs: float) -> SettleVoter:
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=votes, **knobs))  # type: ignore[arg-type]
    for i in range(votes - 1):
        assert v.update(i * 0.05, False, A) is None
    assert v.update(0.1, False, A) is not None and v.state == SETTLED
    return v


def test_settled_dice_are_read_again_now_and_then() -> None:
    v = settled_voter(recheck_s=1.0, recheck_soon_s=0.25)
    assert not v.wants_reading(0.5)
    assert v.wants_reading(0.5, changed=True)  # a local change in the picture: read again now
    assert not v.wants_reading(0.2, changed=True)  # ...but not right after the last reading
    assert v.wants_reading(1.1)
    assert v.update(1.1, False, A) is None and v.state == SETTLED and not v.wants_reading(1.5)


def test_a_die_turned_over_after_settling_makes_a_new_roll() -> None:
    """A die nudged onto another face in place barely changes the picture: re-reads that find the new face twice
    in a row start a new vote, and a new roll follows (the screen used to keep the old face)."""
    v = settled_voter(recheck_s=1.0)
    turned = dice((6, 101, 100, 0.9), (5, 200, 100, 0.95))
    assert v.update(1.1, False, turned) is None and v.state == SETTLED  # one re-read could be a glitch
    assert v.update(2.1, False, turned) is None and v.state == READING  # two agree: a new vote on fresh reads
    assert v.update(2.2, False, turned) is None
    roll = v.update(2.3, False, turned)  # votes=2
    assert roll is not None and [d.face for d in roll.dice] == [6, 5]
    assert v.state == SETTLED and v.last is not None and v.last.values.tolist() == [6, 5]


def test_re_reads_of_an_unchanged_picture_never_make_a_new_roll() -> None:
    """The reader may misread a still die now and then: with the picture unchanged since the roll, re-reads
    that differ are its doubt, not a new roll (a phantom re-vote made a wrong face win, or silently dropped a
    die from a roll the game then took)."""
    v = settled_voter(recheck_s=1.0)
    misread = dice((6, 100, 100, 0.9), (5, 200, 100, 0.95))
    missed = A[[1]]
    for i, det in enumerate([misread, misread, missed, missed, misread, missed]):
        assert v.update(1.1 + i, False, det, changed=False) is None and v.state == SETTLED


def test_two_different_misreads_do_not_agree() -> None:
    v = settled_voter(recheck_s=1.0)
    for i, face in enumerate((6, 4, 2, 4, 6, 2)):
        det = dice((face, 100, 100, 0.9), (5, 200, 100, 0.95))
        assert v.update(1.1 + i, False, det) is None and v.state == SETTLED, face


def test_one_odd_re_read_changes_nothing() -> None:
    v = settled_voter(recheck_s=1.0)
    turned = dice((6, 100, 100, 0.9), (5, 200, 100, 0.95))
    ghost = Detections.merge([A, dice((2, 400, 300, 0.7))])
    for t, det in [(1.1, turned), (2.1, A), (3.1, ghost), (4.1, A), (5.1, A[[1]]), (6.1, A)]:
        assert v.update(t, False, det) is None and v.state == SETTLED


def test_a_die_added_or_taken_away_while_settled_makes_a_new_roll() -> None:
    v = settled_voter(recheck_s=1.0, votes=3)
    gone = A[[1]]
    assert v.update(1.1, False, gone) is None
    assert v.update(2.1, False, gone) is None and v.state == READING  # two re-reads agree: voting again
    assert v.wants_reading(2.2)
    assert v.update(2.2, False, gone) is None and v.update(2.3, False, gone) is None
    roll = v.update(2.4, False, gone)  # votes=3, all fresh
    assert roll is not None and [d.face for d in roll.dice] == [5]
    added = Detections.merge([gone, dice((1, 300, 300, 0.9))])
    assert v.update(3.4, False, added) is None
    assert v.update(4.4, False, added) is None
    assert v.update(4.5, False, added) is None and v.update(4.6, False, added) is None
    roll = v.update(4.7, False, added)
    assert roll is not None and sorted(d.face for d in roll.dice) == [1, 5]


def test_a_die_the_vote_was_unsure_of_may_come_and_go_while_settled() -> None:
    v = SettleVoter(LiveSettings(settle_s=0.0, votes=3, recheck_s=1.0))
    missed = WEAK[[0, 1]]
    flaky = dice((3, 100, 100, 0.9), (4, 200, 100, 0.9), (6, 300, 100, 0.9))
    assert v.update(0.0, False, WEAK) is None and v.update(0.1, False, missed) is None
    assert v.update(0.2, False, flaky) is not None and v.state == SETTLED
    for i, det in enumerate([missed, missed, WEAK, flaky, missed, missed]):
        assert v.update(1.2 + i, False, det) is None and v.state == SETTLED
