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


def test_figures_split_by_how_many_dice_a_photo_holds(tmp_path: Path) -> None:
    """``--crowd N``: the photos under N labelled dice and those with N or more, each with its own figures, which
    add up to the set's."""
    set_dir = SAMPLES / "felt-trays"
    found = mistakes.review(set_dir, tmp_path, side=32)
    result = evaluate(set_dir)
    counts = sorted(s.labelled for _, s in result.images)
    n = counts[len(counts) // 2]
    lines = mistakes.by_crowd(set_dir, found, n)
    assert len(lines) == 2 and lines[0].startswith(f"photos with under {n} dice")
    photos = [int(line.split(": ")[1].split(" photos")[0]) for line in lines]
    dice = [int(line.split(", ")[1].split(" dice")[0]) for line in lines]
    assert sum(photos) == len(result.images) and sum(dice) == result.score.labelled
    assert photos[1] == sum(c >= n for c in counts) and photos[1] > 0
    assert mistakes.by_crowd(set_dir, found, 10_000)[1].startswith("photos with 10000 or more dice: 0 photos, 0 dice")
