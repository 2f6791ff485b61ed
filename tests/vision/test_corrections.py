"""Issue #20: label corrections for the development sets (tools/dicetrain/corrections.py, corrections.json): the
file fits the label files, a broken entry is refused naming it, and corrected scoring moves the figures by exactly
the corrected dice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.vision.scoring import Label, Prediction, read_yolo_labels
from tools.dicetrain import corrections as cor

REPO = Path(__file__).resolve().parents[2]
DICE = REPO.parent / "shared" / "dice"
needs_sets = pytest.mark.skipif(
    not (DICE / "felt-trays" / "labels").is_dir(), reason="development photo sets (../shared/dice) not here"
)


def test_the_project_file_parses_and_every_crop_is_committed() -> None:
    entries = cor.read_entries()
    assert entries, "corrections.json holds no entries"
    crops = {e.crop for e in entries}
    for crop in crops:
        img = cv2.imread(str(REPO / crop))
        assert img is not None, f"{crop} is missing (python -m tools.dicetrain.corrections check ../shared/dice)"
        assert 150 <= img.shape[1] <= 250 and img.shape[0] <= 300, f"{crop}: {img.shape}, keep the tiles small"
    stray = {f"docs/corrections/{p.name}" for p in (REPO / "docs" / "corrections").glob("*")} - crops
    assert not stray, f"files in docs/corrections no entry names: {sorted(stray)}"
    fixes = cor.load_corrections()
    assert sum(len(f) + len(getattr(f, "missing", [])) for f in fixes.values()) == len(entries)
    assert all("/images/" not in k and k.count("/") == 1 for k in fixes)  # loso.labels' key: <set>/<NAME.jpg>


@needs_sets
def test_the_project_file_fits_the_label_files() -> None:
    entries = cor.read_entries()
    cor.check_against_labels(entries, DICE)
    fixes = cor.load_corrections(root=DICE)
    for e in entries:
        if e.label_index is not None:
            assert fixes[e.key][e.label_index] == e.corrected
        else:
            assert (e.corrected, e.box) in fixes[e.key].missing  # type: ignore[attr-defined]


GOOD: dict[str, Any] = {
    "image": "felt-trays/images/A.jpg",
    "label_index": 0,
    "label": 1,
    "corrected": 3,
    "note": "three pips on a diagonal",
    "crop": "docs/corrections/felt-trays_A_0.png",
}
NEW: dict[str, Any] = {
    "image": "felt-trays/images/A.jpg",
    "box": [10, 10, 20, 20],
    "corrected": 5,
    "note": "a die with no label",
    "crop": "docs/corrections/felt-trays_A_new.png",
}


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"colour": "blue"}, "unknown key(s) colour"),
        ({"label": 7}, "label must be a die value 1-6"),
        ({"label": True}, "label must be a die value 1-6"),
        ({"corrected": 0}, "corrected must be a die value 1-6 or null"),
        ({"corrected": "3"}, "corrected must be a die value"),
        ({"corrected": 1}, "nothing to correct"),
        ({"label_index": -1}, "label_index must be a line number"),
        ({"image": "felt-trays/A.jpg"}, "image must be '<set>/images/<NAME>.jpg'"),
        ({"image": "../images/A.jpg"}, "image must be"),
        ({"crop": "/tmp/a.png"}, "crop must be a PNG file in docs/corrections/"),
        ({"crop": "docs/corrections/a.jpg"}, "crop must be a PNG"),
        ({"note": " "}, "note must say what the photo shows"),
    ],
)
def test_a_broken_entry_is_refused_with_a_message_naming_it(change: dict[str, Any], words: str) -> None:
    other = dict(GOOD, label_index=1, crop="docs/corrections/other.png")
    with pytest.raises(cor.CorrectionsError) as err:
        cor.parse([other, dict(GOOD, **change)], "corrections.json")
    msg = str(err.value)
    assert "corrections.json: entry 1" in msg and words in msg, msg
    if "image" not in change:
        assert "felt-trays/images/A.jpg #" in msg, msg


def test_broken_files_and_entries_of_the_other_kind_are_refused(tmp_path: Path) -> None:
    assert cor.parse([GOOD, NEW])[1].box == (10.0, 10.0, 20.0, 20.0)
    for entries, words in [
        ([{k: v for k, v in GOOD.items() if k != "note"}], "entry 0 (felt-trays/images/A.jpg #0): missing key(s) note"),
        ([GOOD, GOOD], "entry 1 (felt-trays/images/A.jpg #0): crop docs/corrections/felt-trays_A_0.png is entry 0"),
        ([GOOD, dict(GOOD, crop="docs/corrections/b.png")], "corrected by entry 0 too"),
        ([dict(NEW, box=[20, 10, 10, 20])], "entry 0 (felt-trays/images/A.jpg): box must be [x0, y0, x1, y1]"),
        ([dict(NEW, corrected=None)], "corrected must be a die value 1-6, got None"),
        ([dict(NEW, label_index=2)], "unknown key(s) label_index"),
        ([["not", "an", "object"]], "entry 0: expected an object"),
    ]:
        with pytest.raises(cor.CorrectionsError) as err:
            cor.parse(entries)
        assert words in str(err.value), str(err.value)
    (tmp_path / "c.json").write_text('{"image": 1}')
    with pytest.raises(cor.CorrectionsError, match="expected a JSON list"):
        cor.read_entries(tmp_path / "c.json")
    (tmp_path / "c.json").write_text("[{")
    with pytest.raises(cor.CorrectionsError, match=r"c\.json: cannot be read as JSON"):
        cor.read_entries(tmp_path / "c.json")


def fake_set(root: Path, images: dict[str, tuple[int, list[str]]]) -> Path:
    """A labelled set ``root/felt-trays``: per image stem, its grey level (the stand-in reader keys on it) and
    label lines."""
    d = root / "felt-trays"
    (d / "images").mkdir(parents=True)
    (d / "labels").mkdir()
    for stem, (grey, lines) in images.items():
        cv2.imwrite(str(d / "images" / f"{stem}.png"), np.full((100, 100, 3), grey, np.uint8))
        (d / "labels" / f"{stem}.txt").write_text("".join(line + "\n" for line in lines))
    return d


def test_a_label_that_does_not_match_the_label_file_is_refused(tmp_path: Path) -> None:
    fake_set(tmp_path, {"A": (10, ["1 0.5 0.5 0.2 0.2"])})  # class 1: shows 2
    image = {"image": "felt-trays/images/A.png"}
    cor.check_against_labels(cor.parse([dict(GOOD, **image, label=2)]), tmp_path)
    for entry, words in [
        (dict(GOOD, **image), "entry 0 (felt-trays/images/A.png #0): label 1 does not match"),
        (dict(GOOD, **image, label_index=1, label=2), "has 1 labelled dice, no #1"),
        (dict(GOOD, image="felt-trays/images/B.png"), "no such image"),
        (dict(NEW, **image, box=[50, 50, 120, 90]), "the box reaches outside the 100x100 image"),
    ]:
        with pytest.raises(cor.CorrectionsError) as err:
            cor.check_against_labels(cor.parse([entry]), tmp_path)
        assert words in str(err.value), str(err.value)


def test_corrected_scoring_changes_the_figures_exactly_by_the_corrected_dice(tmp_path: Path) -> None:
    # A (grey 10): die 0 labelled 1 shows 3 (read 3); die 1 labelled 2 is no die (not read); a die with no label
    #   shows 5 (read 5); die 2 labelled 4, read 4. B (grey 20): one die labelled 6, read 6, nothing corrected.
    d = fake_set(
        tmp_path,
        {
            "A": (10, ["0 0.2 0.2 0.1 0.1", "1 0.5 0.2 0.1 0.1", "3 0.8 0.8 0.1 0.1"]),
            "B": (20, ["5 0.5 0.5 0.2 0.2"]),
        },
    )
    readings = {
        10: [Prediction(3, (15, 15, 25, 25)), Prediction(5, (45, 75, 55, 85)), Prediction(4, (75, 75, 85, 85))],
        20: [Prediction(6, (40, 40, 60, 60))],
    }

    def reader(img: np.ndarray) -> list[Prediction]:
        return readings[int(img[0, 0, 0])]

    entries = [
        dict(GOOD, image="felt-trays/images/A.png"),
        dict(GOOD, image="felt-trays/images/A.png", label_index=1, label=2, corrected=None, crop=GOOD["crop"] + "x"),
        dict(NEW, image="felt-trays/images/A.png", box=[44, 74, 56, 86]),
    ]
    entries[1]["crop"] = "docs/corrections/felt-trays_A_1.png"
    fixes = cor.fixes(cor.parse(entries))
    c = cor.compare(d, fixes, reader)
    o, k = c.original, c.corrected
    assert (o.labelled, o.right, o.wrong, o.missed, o.false, o.perfect_images) == (4, 2, 1, 1, 1, 1)
    # die 0: wrong -> right; die 1: missed -> gone; the new die: false -> right
    assert (k.labelled, k.right, k.wrong, k.missed, k.false, k.perfect_images) == (4, 4, 0, 0, 0, 2)
    assert [(p.name, a != b) for p, a, b in c.images] == [("A.png", True), ("B.png", False)]
    truth = read_yolo_labels(d / "labels" / "A.txt", 100, 100)
    assert cor.apply(truth, fixes["felt-trays/A.png"]) == [
        Label(3, truth[0].box),
        truth[2],
        Label(5, (44.0, 74.0, 56.0, 86.0)),
    ]
    assert cor.apply(truth, None) == truth


def test_loso_labels_read_the_corrections_the_same_way(tmp_path: Path) -> None:
    loso = pytest.importorskip("tools.dicetrain.loso")
    d = fake_set(tmp_path, {"A": (10, ["0 0.2 0.2 0.1 0.1", "1 0.5 0.2 0.1 0.1"])})
    only_new = cor.fixes(cor.parse([dict(NEW, image="felt-trays/images/A.png")]))
    a = "felt-trays/images/A.png"
    both = cor.fixes(cor.parse([dict(GOOD, image=a), dict(NEW, image=a)]))
    truth = read_yolo_labels(d / "labels" / "A.txt", 100, 100)
    for fixes in (only_new, both):
        assert loso.labels(d / "images" / "A.png", 100, 100, fixes) == cor.apply(truth, fixes["felt-trays/A.png"])
    assert loso.labels(d / "images" / "A.png", 100, 100, None) == truth


def test_check_writes_the_crops_and_score_prints_both_figures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    d = fake_set(tmp_path / "dice", {"A": (10, ["0 0.2 0.2 0.1 0.1"])})
    f = tmp_path / "c.json"
    f.write_text(json.dumps([dict(GOOD, image="felt-trays/images/A.png"), dict(NEW, image="felt-trays/images/A.png")]))
    monkeypatch.chdir(tmp_path)
    assert cor.main(["check", str(tmp_path / "dice"), "--file", str(f)]) == 0
    assert "2 entries fit the label files (felt-trays 2)" in capsys.readouterr().out
    crop = cv2.imread(str(tmp_path / GOOD["crop"]))
    assert crop is not None
    assert crop.shape == (cor.TILE + cor.HEAD, cor.TILE, 3)
    assert (crop[: cor.HEAD] < 128).any() and (crop[cor.HEAD :] == 10).any()  # text above, the photo below
    assert (tmp_path / NEW["crop"]).is_file()

    monkeypatch.setattr(cor, "shipped_reader", lambda method=None: lambda img: [Prediction(3, (15, 15, 25, 25))])
    assert cor.main(["score", str(d), "--file", str(f), "--list"]) == 0
    out = capsys.readouterr().out
    assert "2 label corrections" in out and "original labels" in out and "corrected labels" in out
    assert "  A.png: 0/1 right, 1 wrong, 0 missed, 0 false -> 1/2 right, 0 wrong, 1 missed, 0 false" in out
    assert cor.main(["score", str(d), "--file", str(f), "--json"]) == 0
    js = json.loads(capsys.readouterr().out)
    assert (js["original"]["right"], js["corrected"]["right"], js["corrected"]["dice"]) == (0, 1, 2)
    monkeypatch.setattr("tools.dicetrain.heldout_eval.held_out", lambda root: [root / "felt-trays/images/B.png"])
    assert cor.main(["score", str(d), "--file", str(f), "--held-out"]) == 2  # A is not held out: nothing to score
    assert "nothing to score" in capsys.readouterr().err

    f.write_text(json.dumps([dict(GOOD, image="felt-trays/images/A.png", label=2)]))
    assert cor.main(["check", str(tmp_path / "dice"), "--file", str(f)]) == 2
    assert "entry 0 (felt-trays/images/A.png #0): label 2 does not match" in capsys.readouterr().err
