"""Issue #20: comparing a candidate reader with the shipped one on photos neither saw (tools/dicetrain/unseen.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tools.dicetrain import unseen
from tools.dicetrain.data import split
from tools.dicetrain.heldout_eval import held_out
from tools.dicetrain.sets import training_part

from .test_dev_splits import fake_set

DICE = Path(__file__).resolve().parents[2].parent / "shared" / "dice"
needs_sets = pytest.mark.skipif(not (DICE / "grey-mixed").is_dir(), reason="development photo sets not here")


@needs_sets
def test_the_unseen_groups_hold_no_photo_either_reader_trained_on() -> None:
    g = unseen.groups(DICE)
    photos = {p.resolve() for name in unseen.UNSEEN for p in g[name]}
    assert len(g["held-out felt-trays"]) == 20 and len(g["held-out angled-webcam"]) == 79
    shipped_train, _ = split(DICE)  # what the shipped detector and classifiers trained on
    candidate_train = training_part(DICE, None, held_out(DICE))  # --parts --spare-held-out
    assert not photos & {p.resolve() for p in shipped_train}
    assert not photos & {p.resolve() for p in candidate_train}
    assert not any(p.parent.parent.name == "grey-mixed" for p in shipped_train)


def test_groups_are_summed_die_by_die() -> None:
    figures = {
        "grey-mixed val": {
            "dice": 10,
            "right": 7,
            "accuracy": 70,
            "wrong": 1,
            "missed": 2,
            "false": 3,
            "unwarned": 1,
            "asked": 2,
        },
        "grey-mixed test": {
            "dice": 30,
            "right": 27,
            "accuracy": 90,
            "wrong": 2,
            "missed": 1,
            "false": 1,
            "unwarned": 0,
            "asked": 5,
        },
    }
    s = unseen.summed(figures, unseen.UNSEEN)
    assert s == {
        "dice": 40,
        "right": 34,
        "accuracy": 85.0,
        "wrong": 3,
        "missed": 3,
        "false": 4,
        "unwarned": 1,
        "asked": 7,
        "false_pct": 10.0,
    }


def test_a_reading_of_a_set_without_dice_counts_every_labelled_die_missed(tmp_path, capsys) -> None:
    fake_set(tmp_path, "grey-mixed", [f"{n:05d}" for n in range(12)])
    assert unseen.main([str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    grey = [out["groups"]["grey-mixed val"], out["groups"]["grey-mixed test"]]
    assert out["unseen"]["dice"] == sum(f["dice"] for f in grey) > 0
    assert out["unseen"]["missed"] == out["unseen"]["dice"] and out["unseen"]["right"] == 0
    assert out["groups"]["held-out felt-trays"]["dice"] == 0 and out["seen"]["dice"] == 0
