"""The verify step as plain logic: the app reads each die, the player confirms or corrects, and the tally gives the
measured accuracy and the faces the reader confuses (so the player knows which faces to recapture)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from calibration.profile import VerifyResult, now_iso

UNREAD = "unknown"
"""How a die the reader could not read is written in confusions."""


@dataclass
class Verification:
    """Tally of one verify run for one die kind: every (true face, read face) pair the player confirmed."""

    kind: str
    pairs: list[tuple[str, str]] = field(default_factory=list)

    def record(self, read: str | None, truth: str) -> None:
        """One die: what the app read (None = unknown) and what the player says it is."""
        if not truth:
            raise ValueError("the player's answer must name a face")
        self.pairs.append((truth, read if read is not None else UNREAD))

    def undo(self) -> None:
        """Forget the last recorded die (a mis-tap)."""
        if self.pairs:
            self.pairs.pop()

    @property
    def rolls(self) -> int:
        """Dice checked."""
        return len(self.pairs)

    @property
    def correct(self) -> int:
        """Dice the app read right."""
        return sum(1 for truth, read in self.pairs if truth == read)

    @property
    def accuracy(self) -> float:
        """Share read right (0 when nothing was checked)."""
        return self.correct / self.rolls if self.rolls else 0.0

    def confusions(self) -> list[tuple[str, str, int]]:
        """(true face, read as, count), most frequent first; "unknown" reads included."""
        counts = Counter((t, r) for t, r in self.pairs if t != r)
        return [(t, r, n) for (t, r), n in sorted(counts.items(), key=lambda item: (-item[1], item[0]))]

    def result(self) -> VerifyResult:
        """The result as stored in the profile."""
        return VerifyResult(self.rolls, self.correct, self.confusions(), now_iso())

    def summary(self) -> str:
        """One or two lines for the screen: accuracy and the worst confusions."""
        from companion.calibrate.steps import face_words
        from companion.i18n import _

        if not self.rolls:
            return _("No dice checked yet")
        text = _("{right} of {rolls} right ({share:.0%})").format(
            right=self.correct, rolls=self.rolls, share=self.accuracy
        )
        confused = self.confusions()
        if confused:
            parts = [
                _("{face} read as {read}").format(face=face_words(t), read=face_words(r)) + (f" ×{n}" if n > 1 else "")
                for t, r, n in confused[:3]
            ]
            text = _("{summary}. Confused: {faces}. Capture those faces again").format(
                summary=text, faces=", ".join(parts)
            )
        return text
