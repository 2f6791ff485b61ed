"""The mistakes review sheets: exactly the wrong values, misses and false detections the scorer counts."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from companion.vision.dataset import SAMPLES, evaluate
from tools.dicetrain import mistakes


def test_review_tiles_every_mistake_the_scorer_counts(tmp_path: Path) -> None:
    found = mistakes.review(SAMPLES / "felt-trays", tmp_path, side=64)
    score = evaluate(SAMPLES / "felt-trays").score
    kinds = [m.kind for m in found]
    assert (kinds.count("wrong"), kinds.count("missed"), kinds.count("false")) == (
        score.wrong,
        score.missed,
        score.false,
    )
    assert found and [m.n for m in found] == list(range(len(found)))
    per = mistakes.PER_ROW * mistakes.ROWS
    sheets = sorted(tmp_path.glob("sheet*.png"))
    assert len(sheets) == -(-len(found) // per)
    first = cv2.imread(str(sheets[0]))
    tile = 64 + mistakes.HEAD + 2
    assert first.shape[1] == mistakes.PER_ROW * (64 + 4) and first.shape[0] % tile == 0
    listed = json.loads((tmp_path / "mistakes.json").read_text())
    assert [(r["kind"], r["image"], r["label"], r["read"]) for r in listed] == [
        (m.kind, m.image, m.label, m.read) for m in found
    ]
    for m in found:
        assert (m.label == 0) == (m.kind == "false") and (m.read == 0) == (m.kind == "missed")


def test_review_of_chosen_images_only(tmp_path: Path) -> None:
    assert mistakes.review(SAMPLES / "felt-trays", tmp_path, only=set()) == []
    assert json.loads((tmp_path / "mistakes.json").read_text()) == []
    assert not list(tmp_path.glob("sheet*.png"))
