"""The reader on the shipped real photos (companion/vision/samples, licences beside them); expected values come
from the YOLO labels and are scored with the shared rule. Floors sit a little under the measured figures, so a
change that makes the reader worse on real photos fails here."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.vision.dataset import SAMPLES, evaluate, labelled_set, predictions
from companion.vision.pipeline import FLAG_BELOW, read_dice
from companion.vision.scoring import score_image

FLOORS = {  # set: (min per-die accuracy, max false detections per labelled die) for the default reader, a little
    # under the measured figures (most samples were training images: this guards against regressions; held-out
    # figures are in docs/dice-reader.md). Measured: webcam 40/42 right, 2 false (since 2026-12-06, the detector
    # pair: two side faces of angled dice, below; the first detector alone, which trained on 11 of these 12 photos,
    # also 2); felt 157/166, 5 false (before the pair 156/166, 7)
    "angled-webcam": (0.90, 0.06),
    "felt-trays": (0.88, 0.10),
}


def test_samples_have_their_licence_beside_them() -> None:
    assert (SAMPLES / "felt-trays" / "SOURCE.txt").read_text().count("CC BY 4.0") == 1
    assert "Penlington" in (SAMPLES / "angled-webcam" / "LICENSE").read_text()
    for name in FLOORS:
        images = sorted(p.stem for p in (SAMPLES / name / "images").iterdir())
        labels = sorted(p.stem for p in (SAMPLES / name / "labels").iterdir())
        assert images == labels and 10 <= len(images) <= 15


@pytest.mark.parametrize("name", sorted(FLOORS))
def test_sample_set_scores_at_least_the_floor(name: str) -> None:
    result = evaluate(SAMPLES / name)
    min_acc, max_false = FLOORS[name]
    assert result.score.accuracy >= min_acc, result.score.to_json()
    assert result.score.false_rate <= max_false, result.score.to_json()


SIDE_FACE = pytest.mark.xfail(
    strict=True,
    reason="known limit: a side face of an angled die read as a sure die (since the detector pair of 2026-12-06, "
    "which reads more of the dice no model saw; docs/dice-reader.md, eleventh and twelfth sessions)",
)


def plain_webcam_shots() -> list[object]:
    # the shots with one to five dice lying flat and apart (in valid_valid_31 a steep side face was read as a sure
    # 6 as well, a strict xfail, until the classifiers' colour-cast training, and again with the detector pair of
    # the eleventh session; in train_dice_43 a die's side face is read as a 2 since the detector pair)
    names = ["train_dice_43", "train_five_28", "train_four_13", "train_six_28", "train_two_17", "valid_valid_31"]
    side_faces = {"train_dice_43"}
    return [
        pytest.param(SAMPLES / "angled-webcam" / "images" / f"{n}.jpg", marks=[SIDE_FACE] if n in side_faces else [])
        for n in names
    ]


@pytest.mark.parametrize("path", plain_webcam_shots(), ids=lambda p: Path(p).stem)
def test_plain_webcam_shots_are_read_entirely_right(path: Path) -> None:
    """Every die right and nothing extra among the sure readings (unsure ones are flagged for the player)."""
    item, img = next((i, im) for i, im in labelled_set(SAMPLES / "angled-webcam") if i.path == path)
    det = read_dice(img)
    score = score_image(item.labels, predictions(det[det.confidences >= FLAG_BELOW]))
    assert score.perfect, score
