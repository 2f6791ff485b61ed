"""Roll.match_dice: the dice screen keeps a player's corrections while the same dice lie in the same places."""

from __future__ import annotations

from companion.vision.roll import DieRead, Roll


def roll(*dice: tuple[int, int, int]) -> Roll:
    """Pip dice as (face, x, y): 30 px boxes with their top-left corner at (x, y)."""
    return Roll(tuple(DieRead("pips", face, 0.9, (x, y, x + 30, y + 30)) for face, x, y in dice))


def test_the_same_dice_a_few_pixels_off_in_another_order_are_the_same() -> None:
    assert roll((4, 10, 10), (2, 100, 40)).match_dice(roll((2, 103, 38), (4, 12, 9))) is not None


def test_a_face_read_differently_is_still_the_same_dice() -> None:
    assert roll((4, 10, 10)).match_dice(roll((5, 10, 10))) is not None


def test_a_moved_added_removed_or_other_kind_of_die_is_a_new_roll() -> None:
    base = roll((4, 10, 10), (2, 100, 40))
    assert base.match_dice(roll((4, 10, 10), (2, 140, 40))) is None  # moved by more than half a die
    assert base.match_dice(roll((4, 10, 10), (2, 100, 40), (6, 200, 200))) is None
    assert base.match_dice(roll((4, 10, 10))) is None
    other = Roll((DieRead("colour", "red", 0.9, (10, 10, 40, 40)), DieRead("pips", 2, 0.9, (100, 40, 130, 70))))
    assert base.match_dice(other) is None
