"""The one value object that flows through the dice pipeline (modelled on supervision's ``Detections``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from companion.vision.roll import PIPS


@dataclass(frozen=True)
class Detections:
    """N dice found in one frame: boxes (N, 4) int x0 y0 x1 y1 in frame pixels, values (N,) int (0 = unread),
    confidences (N,) float 0-1, kinds (N) die kinds ("pips" by default), faces (N) for non-pip kinds and
    flagged (N,) bool: a stage that is unsure of a die says so here, whatever its confidence (the player is asked
    to check it; a low confidence alone flags it later, against the configured ``dice.min_confidence``).

    ``data`` carries per-stage extras (arrays of length N, e.g. pip counts), like supervision's ``data``.
    Stages never mutate a Detections: they return a new one (``replace``/indexing)."""

    boxes: np.ndarray
    values: np.ndarray
    confidences: np.ndarray
    kinds: list[str] = field(default_factory=list)
    faces: list[int | str | None] = field(default_factory=list)
    data: dict[str, np.ndarray] = field(default_factory=dict)
    flagged: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))

    def __post_init__(self) -> None:
        n = len(self.boxes)
        if self.boxes.shape != (n, 4) or len(self.values) != n or len(self.confidences) != n:
            raise ValueError(
                f"Detections arrays disagree: boxes {self.boxes.shape}, values {len(self.values)}, "
                f"confidences {len(self.confidences)}"
            )
        if not self.kinds:
            object.__setattr__(self, "kinds", [PIPS] * n)
        if not self.faces:
            object.__setattr__(self, "faces", [int(v) if v else None for v in self.values])
        if len(self.kinds) != n or len(self.faces) != n:
            raise ValueError("Detections kinds/faces must have one entry per box")
        if len(self.flagged) == 0 and n:
            object.__setattr__(self, "flagged", np.zeros(n, dtype=bool))
        else:
            object.__setattr__(self, "flagged", np.asarray(self.flagged, dtype=bool))
        if len(self.flagged) != n:
            raise ValueError(f"Detections flagged has {len(self.flagged)} entries for {n} boxes")
        for k, v in self.data.items():
            if len(v) != n:
                raise ValueError(f"Detections data[{k!r}] has {len(v)} entries for {n} boxes")

    @classmethod
    def empty(cls) -> Detections:
        """No dice."""
        return cls(np.zeros((0, 4), dtype=np.int32), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32))

    @classmethod
    def from_lists(
        cls,
        boxes: Sequence[Sequence[float]] | np.ndarray,
        values: Sequence[int],
        confidences: Sequence[float],
        **kwargs: Any,
    ) -> Detections:
        """Build from plain Python lists (tests, JSON)."""
        b = np.asarray(boxes, dtype=np.int32).reshape(-1, 4)
        return cls(b, np.asarray(values, dtype=np.int32), np.asarray(confidences, dtype=np.float32), **kwargs)

    def __len__(self) -> int:
        return len(self.boxes)

    def __getitem__(self, index: Any) -> Detections:
        """Select dice by a boolean mask, an index array or a slice."""
        idx = np.arange(len(self))[index]
        idx = np.atleast_1d(idx)
        return Detections(
            self.boxes[idx].reshape(-1, 4),
            self.values[idx],
            self.confidences[idx],
            [self.kinds[i] for i in idx],
            [self.faces[i] for i in idx],
            {k: v[idx] for k, v in self.data.items()},
            self.flagged[idx],
        )

    def __iter__(self) -> Iterator[tuple[np.ndarray, int, float, str]]:
        for i in range(len(self)):
            yield self.boxes[i], int(self.values[i]), float(self.confidences[i]), self.kinds[i]

    @property
    def centres(self) -> np.ndarray:
        """(N, 2) float box centres."""
        b = self.boxes.astype(np.float32)
        return np.stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2], axis=1) if len(b) else np.zeros((0, 2))

    @property
    def long_sides(self) -> np.ndarray:
        """(N,) float64: each box's longer side (px)."""
        b = self.boxes
        return np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]).astype(np.float64)

    @property
    def pip_dice(self) -> np.ndarray:
        """(N,) bool: which are pip dice with a value read (not colour or picture dice, not unread)."""
        return np.array([k == PIPS and bool(v) for k, v in zip(self.kinds, self.values, strict=True)], dtype=bool)

    def replace(self, **changes: Any) -> Detections:
        """A copy with some fields replaced (the way stages hand results on)."""
        fields: dict[str, Any] = {
            "boxes": self.boxes,
            "values": self.values,
            "confidences": self.confidences,
            "kinds": list(self.kinds),
            "faces": list(self.faces),
            "data": dict(self.data),
            "flagged": self.flagged,
        }
        fields.update(changes)
        return Detections(**fields)

    def sorted_left_to_right(self) -> Detections:
        """Reading order: left to right, then top to bottom."""
        if not len(self):
            return self
        c = self.centres
        return self[np.lexsort((c[:, 1], c[:, 0]))]

    @staticmethod
    def merge(parts: Sequence[Detections]) -> Detections:
        """Concatenate several Detections (data keys kept only where every part has them)."""
        parts = [p for p in parts if len(p)]
        if not parts:
            return Detections.empty()
        keys = set.intersection(*(set(p.data) for p in parts))
        return Detections(
            np.concatenate([p.boxes for p in parts]),
            np.concatenate([p.values for p in parts]),
            np.concatenate([p.confidences for p in parts]),
            [k for p in parts for k in p.kinds],
            [f for p in parts for f in p.faces],
            {k: np.concatenate([p.data[k] for p in parts]) for k in keys},
            np.concatenate([p.flagged for p in parts]),
        )
