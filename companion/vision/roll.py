"""What a dice reading hands to a game: plain values, no numpy, so screens and engines can use it freely."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class DieKind(StrEnum):
    """What kind of die was read: standard pip dice read as 1-6; colour dice as a colour name; picture dice as an
    icon name; unknown when no reader could place it. Equal to its name as a string (JSON and journals keep the
    plain string)."""

    PIPS = "pips"
    COLOUR = "colour"
    PICTURE = "picture"
    UNKNOWN = "unknown"


PIPS, COLOUR, PICTURE, UNKNOWN = DieKind.PIPS, DieKind.COLOUR, DieKind.PICTURE, DieKind.UNKNOWN


class LiveState(StrEnum):
    """Where live reading is (``companion.vision.live``): dice moving, still and being read, or a roll settled.
    Equal to its name as a string."""

    ROLLING = "rolling"
    READING = "reading"
    SETTLED = "settled"


@dataclass(frozen=True)
class DieRead:
    """One die as read: its kind, its face (int 1-6 for pips, a name such as "red" or "cat" otherwise),
    the reader's confidence 0-1, its box in frame pixels, and whether it needs a look from the player."""

    kind: str
    face: int | str | None
    confidence: float = 1.0
    box: tuple[int, int, int, int] = (0, 0, 0, 0)
    flagged: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "face": self.face,
            "confidence": round(self.confidence, 3),
            "box": list(self.box),
            "flagged": self.flagged,
        }


@dataclass(frozen=True)
class Roll:
    """One settled roll: every die read, plus where it came from ("camera", "touch", "replay")."""

    dice: tuple[DieRead, ...] = field(default_factory=tuple)
    source: str = "camera"

    def faces(self, kind: str = PIPS) -> list[int | str]:
        """The faces of the dice of one kind, in reading order (left to right)."""
        return [d.face for d in self.dice if d.kind == kind and d.face is not None]

    @property
    def total(self) -> int:
        return sum(int(f) for f in self.faces(PIPS))

    @property
    def needs_check(self) -> bool:
        return any(d.flagged or d.kind == UNKNOWN for d in self.dice)

    def match_dice(self, other: Roll) -> list[int] | None:
        """For each of our dice, the index of the same die in ``other``; None when ``other`` does not show the
        same dice in the same places: as many, each of the same kind with its centre within half a die of one of
        ours (a hand or a shadow passed over the tray; nothing was rolled). Faces are not compared: a face read
        differently is the reader's doubt, not a new roll."""
        if len(self.dice) != len(other.dice):
            return None
        left = list(range(len(other.dice)))
        found: list[int] = []
        for die in self.dice:
            x0, y0, x1, y1 = die.box
            reach = max(4.0, max(x1 - x0, y1 - y0) / 2)
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            match = next(
                (
                    k
                    for k in left
                    if other.dice[k].kind == die.kind
                    and abs((other.dice[k].box[0] + other.dice[k].box[2]) / 2 - cx) <= reach
                    and abs((other.dice[k].box[1] + other.dice[k].box[3]) / 2 - cy) <= reach
                ),
                None,
            )
            if match is None:
                return None
            left.remove(match)
            found.append(match)
        return found

    def to_json(self) -> dict[str, Any]:
        return {"source": self.source, "dice": [d.to_json() for d in self.dice]}
