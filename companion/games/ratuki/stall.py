"""Ratuki's "round over?" question: asked after a stretch of the round clock running with no call.

A table whose players are all stuck stops calling stacks; the screen then offers to end the round. The rule is
kept here, clock-free like the referee (the caller passes ``now``, monotonic seconds), so a scenario can check it
without Kivy: every new round, call, resume and "keep playing" starts the quiet stretch again, and nothing is
asked while the round is not running (paused, over, or a call still being judged).
"""

from __future__ import annotations


class StallWatch:
    """Counts the quiet stretch of one round; :meth:`asking` says when (and after how long) to ask."""

    def __init__(self, after_s: float) -> None:
        self.after_s = float(after_s)  # 0: never ask
        self.since: float | None = None  # start of the quiet stretch; None while the round is not running

    def restart(self, now: float) -> None:
        """Something happened (a new round, a call, the clock resumed, "keep playing"): count from ``now``."""
        self.since = now

    def stop(self) -> None:
        """The round is not running (paused, over): nothing to ask until :meth:`restart`."""
        self.since = None

    def asking(self, now: float, *, running: bool = True) -> int | None:
        """Whole seconds of quiet when the question is due (``running``: the clock runs and no call is being
        judged), else None: the question is cleared as soon as it is no longer due."""
        if not running or self.since is None or self.after_s <= 0:
            return None
        quiet = now - self.since
        return int(quiet) if quiet >= self.after_s else None
