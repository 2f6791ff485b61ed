"""The dice screen's live reader times each frame by when the camera took it (``Frame.taken``), not by when the
camera thread gets round to processing it (#23 item 7)."""

from __future__ import annotations

import numpy as np

from companion.ui.screens.dice import LiveResult, live_processor
from companion.vision.roll import LiveState
from hardware.camera import Frame


def test_frames_settle_by_their_capture_times() -> None:
    process = live_processor({"settle_ms": 600, "vote_frames": 3, "min_confidence": 0.6}, lambda size: None)
    tray = np.full((120, 160, 3), 90, np.uint8)  # an empty tray, perfectly still
    # 2 s of frames taken 0.1 s apart, processed in a few milliseconds: only their own times can settle them
    results: list[LiveResult] = [process(Frame(tray, 50.0 + k / 10)) for k in range(20)]
    states = [r.state for r in results]
    first = next(k for k, r in enumerate(results) if r.settled is not None)
    # still from the second frame (50.1 s); 0.6 s later (50.7 s) three readings are voted: settled at 50.9 s
    assert first == 9 and states[first] == LiveState.SETTLED
    assert states[:7] == [LiveState.ROLLING] * 7 and results[first].settled.dice == ()
