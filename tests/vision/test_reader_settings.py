"""Issue #23 item 7: the learned reader's thresholds as one frozen ReaderSettings that reaches every stage."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from companion.vision import learned
from companion.vision.dataset import SAMPLES, load_image
from companion.vision.detections import Detections
from companion.vision.pipeline import VisionProfile, read_dice
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings

FELT = SAMPLES / "felt-trays" / "images"


def test_the_settings_are_frozen_and_default_to_the_shipped_reader() -> None:
    assert ReaderSettings() == DEFAULT_SETTINGS
    assert VisionProfile().learned == DEFAULT_SETTINGS
    with pytest.raises(dataclasses.FrozenInstanceError):
        DEFAULT_SETTINGS.die_threshold = 0.9  # type: ignore[misc]
    stricter = dataclasses.replace(DEFAULT_SETTINGS, verify_threshold=0.9)
    assert stricter.verify_threshold == 0.9 and DEFAULT_SETTINGS.verify_threshold == 0.5
    assert len({DEFAULT_SETTINGS, ReaderSettings(), stricter}) == 2  # hashable, equal by value


@pytest.mark.parametrize(
    ("photo", "change", "shipped", "fewer"),
    [
        # three of its ten dice the verifiers' mean is less than 90 % sure of (0.79-0.88)
        ("PXL_20240219_191156182.jpg", {"verify_threshold": 0.9}, 10, 7),
        # one of its eleven dice the classifiers are less than 90 % sure is a die
        ("PXL_20240219_191332049.jpg", {"die_threshold": 0.9}, 11, 10),
    ],
)
def test_a_stricter_threshold_drops_dice_the_shipped_reader_keeps(
    photo: str, change: dict[str, float], shipped: int, fewer: int
) -> None:
    img = load_image(FELT / photo)
    # read as the frame is: the felt photos are stretched, and upright (learned.upright_frame) the classifiers are
    # surer of this photo's eleventh die
    settings = ReaderSettings(upright=False, **change)
    plain = learned.read_dice_learned(img, ReaderSettings(upright=False))
    strict = learned.read_dice_learned(img, settings)
    assert (len(plain), len(strict)) == (shipped, fewer)
    assert {tuple(b) for b in strict.boxes.tolist()} <= {tuple(b) for b in plain.boxes.tolist()}
    if "verify_threshold" in change:
        assert (strict.data["die"] >= 0.9).all() and (plain.data["die"] < 0.9).sum() == shipped - fewer
    # the pipeline passes the profile's settings on: the same reading through read_dice
    through = read_dice(img, VisionProfile(learned=settings))
    assert through.boxes.tolist() == strict.boxes.tolist() and through.values.tolist() == strict.values.tolist()
    assert read_dice(img, VisionProfile(learned=ReaderSettings(upright=False))).boxes.tolist() == plain.boxes.tolist()


def test_without_the_verifier_nothing_is_verified() -> None:
    img = load_image(FELT / "PXL_20240219_191156182.jpg")
    read = learned.read_dice_learned(img, ReaderSettings(verify=False))
    assert "die" not in read.data and len(read) >= 10


def test_the_detector_is_asked_at_the_settings_threshold_and_input_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """With stand-in finds: the first look is at ``long_side``, with peaks down to ``find_threshold``; a frame
    with nothing sure gets the quick look at ``coarse_side``."""
    asked: list[tuple[float, int]] = []

    def find(
        frame: np.ndarray, threshold: float, long_side: int, settings: ReaderSettings, first_only: bool = False
    ) -> Detections:
        asked.append((threshold, long_side))
        return Detections.empty()

    monkeypatch.setattr(learned, "find_dice", find)
    learned.find_at_the_right_scale(np.zeros((480, 640, 3), np.uint8))
    weak = DEFAULT_SETTINGS.measure_threshold  # the looks are sized by peaks this weak
    assert asked == [(weak, 512), (weak, 192)] and weak < DEFAULT_SETTINGS.find_threshold
    asked.clear()
    learned.find_at_the_right_scale(
        np.zeros((480, 640, 3), np.uint8),
        ReaderSettings(find_threshold=0.3, measure_threshold=0.1, long_side=448, coarse_side=160),
    )
    assert asked == [(0.1, 448), (0.1, 160)]
    asked.clear()
    learned.find_at_the_right_scale(np.zeros((480, 640, 3), np.uint8), ReaderSettings(measure_threshold=0.3))
    assert asked == [(DEFAULT_SETTINGS.find_threshold, 512), (DEFAULT_SETTINGS.find_threshold, 192)]  # the lower


def test_finds_weaker_than_the_find_threshold_only_size_the_looks(monkeypatch: pytest.MonkeyPatch) -> None:
    s = DEFAULT_SETTINGS
    weak = (s.measure_threshold + s.find_threshold) / 2
    finds = Detections.from_lists([[100, 100, 140, 140], [300, 100, 340, 140]], [3, 5], [0.9, weak])
    monkeypatch.setattr(learned, "find_dice", lambda frame, threshold, long_side, settings, first_only=False: finds)
    kept = learned.find_at_the_right_scale(np.zeros((480, 640, 3), np.uint8))
    assert kept.values.tolist() == [3]  # handed on: the finds of at least find_threshold
