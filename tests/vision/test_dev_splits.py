"""Issue #20: honest splits of the development sets (tools/dicetrain/sets.py: by sequence, never by frame;
leave-one-set-out folds) and the appearance-wide renderer (tools/synth/wide.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tools.dicetrain import sets
from tools.synth.wide import THINGS, Backgrounds, read_gimp_pattern, render_scene

DICE = Path(__file__).resolve().parents[2].parent / "shared" / "dice"
needs_sets = pytest.mark.skipif(not (DICE / "angled-webcam").is_dir(), reason="development photo sets not here")


def fake_set(root: Path, name: str, stems: list[str]) -> Path:
    d = root / name
    (d / "images").mkdir(parents=True)
    (d / "labels").mkdir()
    for i, stem in enumerate(stems):
        img = np.full((40, 40, 3), 30 + 5 * i % 200, np.uint8)
        cv2.imwrite(str(d / "images" / f"{stem}.jpg"), img)
        (d / "labels" / f"{stem}.txt").write_text(f"{i % 6} 0.5 0.5 0.2 0.2\n")
    return d


def test_webcam_frames_are_split_by_runs_and_no_two_parts_hold_neighbouring_frames(tmp_path) -> None:
    stems = [f"train_five_{n}" for n in range(100)] + [f"valid_valid_{n}" for n in range(60)]
    d = fake_set(tmp_path, "angled-webcam", stems)
    parts = sets.parts(d)
    owner = {p.stem: k for k, ps in parts.items() for p in ps}
    assert set(parts) == {"train", "val", "test"} and all(parts.values())
    for video, n in (("train_five", 100), ("valid_valid", 60)):
        for i in range(n - 1):
            a, b = owner.get(f"{video}_{i}"), owner.get(f"{video}_{i + 1}")
            assert a is None or b is None or a == b, f"frames {i} and {i + 1} of {video} in {a} and {b}"
    assert len(owner) >= 140  # only frames beside a cut are left out


def test_felt_bursts_stay_together(tmp_path) -> None:
    times = [0, 2, 4, 6, 60, 62, 64, 130, 132, 200, 203, 206, 300, 302]
    stems = [f"PXL_20240219_19{t // 60:02d}{t % 60:02d}000" for t in times]
    d = fake_set(tmp_path, "felt-trays", stems)
    seqs = sets.sequences(d)
    assert [len(s) for s in sorted(seqs, key=lambda s: s[0].name)] == [4, 3, 2, 3, 2]
    owner = {p.stem: k for k, ps in sets.parts(d).items() for p in ps}
    for seq in seqs:
        assert len({owner[p.stem] for p in seq}) == 1


def test_a_left_out_set_is_reported_whole_and_never_trained_or_chosen_on(tmp_path) -> None:
    fake_set(tmp_path, "felt-trays", [f"PXL_20240219_19{m:02d}0{s}000" for m in range(10) for s in range(3)])
    fake_set(tmp_path, "angled-webcam", [f"train_dice_{n}" for n in range(80)])
    fake_set(tmp_path, "grey-mixed", [f"{n:05d}" for n in range(30)])
    f = sets.fold(tmp_path, "grey-mixed")
    assert len(f["report"]) == 30 and all(p.parent.parent.name == "grey-mixed" for p in f["report"])
    assert not any(p.parent.parent.name == "grey-mixed" for p in f["train"] + f["val"])
    shipped = sets.fold(tmp_path, None)
    assert not set(shipped["report"]) & set(shipped["train"] + shipped["val"])
    assert {p.parent.parent.name for p in shipped["train"]} == {"felt-trays", "angled-webcam", "grey-mixed"}


def test_a_training_part_can_spare_the_held_out_photos(tmp_path) -> None:
    fake_set(tmp_path, "angled-webcam", [f"train_dice_{n}" for n in range(80)])
    fake_set(tmp_path, "grey-mixed", [f"{n:05d}" for n in range(30)])
    whole = sets.fold(tmp_path, None)["train"]
    spare = [*whole[::3], tmp_path / "angled-webcam" / "images" / "not_there.jpg"]
    kept = sets.training_part(tmp_path, None, spare)
    assert kept == [p for p in whole if p not in whole[::3]]
    assert sets.training_part(tmp_path, None) == whole


def test_a_fold_can_be_given_a_few_photos_of_its_set_from_the_train_part_only(tmp_path) -> None:
    """``--shots N``: a table's few calibration photos; drawn from the left-out set's ``train`` part, never from
    the ``val`` and ``test`` parts the fold is reported on, the same ones for one seed, repeated as asked."""
    import argparse

    fake_set(tmp_path, "angled-webcam", [f"train_dice_{n}" for n in range(80)])
    fake_set(tmp_path, "grey-mixed", [f"{n:05d}" for n in range(40)])
    split = sets.parts(tmp_path / "grey-mixed")
    shots = sets.few_shots(tmp_path, "grey-mixed", 5, seed=3)
    assert len(set(shots)) == 5 and set(shots) <= set(split["train"])
    assert shots == sets.few_shots(tmp_path, "grey-mixed", 5, seed=3) != sets.few_shots(tmp_path, "grey-mixed", 5, 4)
    assert sets.few_shots(tmp_path, None, 5) == [] and sets.few_shots(tmp_path, "grey-mixed", 0) == []
    ap = argparse.ArgumentParser()
    sets.add_part_options(ap)
    args = ap.parse_args(["--parts", "--leave-out", "grey-mixed", "--shots", "5", "--shot-seed", "3"])
    args.shot_repeat = 3
    photos = sets.training_photos(tmp_path, args)
    assert photos[:-15] == sets.fold(tmp_path, "grey-mixed")["train"] and photos[-15:] == shots * 3


def test_a_fold_without_models_of_its_own_reads_with_the_shipped_detectors_that_never_saw_its_set() -> None:
    loso = pytest.importorskip("tools.dicetrain.loso")
    pair = loso.learned.MODEL_PATHS  # the second trained on grey-mixed's train part too
    assert loso.never_saw(pair, "grey-mixed") == pair[:1]
    assert loso.never_saw(pair, "felt-trays") == pair  # both saw it: the fold needs models of its own
    assert loso.never_saw(pair, None) == pair
    other = (Path("/tmp/candidate/dice_centernet.onnx"),)  # not a shipped file: what it saw is not known here
    assert loso.never_saw(other, "grey-mixed") == other
    partners = loso.learned.FACES_PARTNERS  # the face classifiers' partners saw all three sets' train parts
    assert len(partners) == 2 and loso.partners_for(partners, None) == partners
    assert all(loso.partners_for(partners, name) == () for name in ("felt-trays", "angled-webcam", "grey-mixed"))


def test_a_fold_reads_with_partners_of_its_own_where_its_folder_holds_them(tmp_path) -> None:
    """A fold's folder may hold the pairs' second networks trained without its set: the fold then reads as the
    shipped pairs do, the first detector beside its own second, the classifiers beside its own partners."""
    loso = pytest.importorskip("tools.dicetrain.loso")
    first = (loso.learned.MODEL_PATHS[0],)
    assert loso.fold_partners(tmp_path, first, ()) == (first, ())  # an empty folder changes nothing
    (tmp_path / "dice_centernet_2.onnx").write_bytes(b"x")
    (tmp_path / loso.SHIPPED_PARTNERS[0].name).write_bytes(b"x")  # one partner of two: not used
    assert loso.fold_partners(tmp_path, first, ()) == ((first[0], tmp_path / "dice_centernet_2.onnx"), ())
    for p in loso.SHIPPED_PARTNERS:
        (tmp_path / p.name).write_bytes(b"x")
    detectors, partners = loso.fold_partners(tmp_path, first, ())
    assert detectors == (first[0], tmp_path / "dice_centernet_2.onnx")
    assert partners == tuple(tmp_path / p.name for p in loso.SHIPPED_PARTNERS) and len(partners) == 2


def test_flagging_is_counted_both_ways_mistakes_left_unflagged_and_right_dice_flagged() -> None:
    """What flagging misses (a wrong value or a false die the player is not asked to check) and what it costs (a
    right die the player is asked to check all the same), per reading."""
    loso = pytest.importorskip("tools.dicetrain.loso")
    from companion.vision.detections import Detections
    from companion.vision.scoring import Label

    truth = [Label(3, (0, 0, 20, 20)), Label(5, (40, 0, 60, 20)), Label(2, (80, 0, 100, 20))]
    det = Detections.from_lists(
        [[0, 0, 20, 20], [40, 0, 60, 20], [80, 0, 100, 20], [120, 0, 140, 20], [160, 0, 180, 20]],
        [3, 5, 4, 6, 1],  # right and sure; right, flagged; wrong and sure; false, sure; false, read unsurely
        [0.95, 0.95, 0.9, 0.9, loso.FLAG_BELOW - 0.1],
        flagged=np.array([False, True, False, False, False]),
    )
    preds = loso.predictions(det)
    assert loso.warnings(truth, det, preds) == (2, 1)  # the sure wrong 4 and the sure false 6; the flagged 5
    scored: dict = {}
    loso.tally(scored, "part", truth, det)
    fig = loso.figures(scored["part"])
    assert (fig["unwarned"], fig["asked"], fig["right"], fig["false"]) == (2, 1, 2, 2)


def test_each_missed_die_is_counted_at_the_step_that_lost_it() -> None:
    """``loso --steps``: a missed die is put down to the first of the reader's steps that kept no box there (the
    detector, the classifiers, the verifier, the last steps); a die read, right or wrong, is not counted."""
    loso = pytest.importorskip("tools.dicetrain.loso")
    from companion.vision.detections import Detections
    from companion.vision.scoring import Label

    def boxes(*xs: int) -> Detections:
        return Detections.from_lists([[x, 0, x + 20, 20] for x in xs], [4] * len(xs), [0.9] * len(xs))

    truth = [Label(4, (x, 0, x + 20, 20)) for x in (0, 40, 80, 120, 160, 200)]  # the last read wrong: not missed
    found, read, verified = boxes(40, 80, 120, 160, 200), boxes(80, 120, 160, 200), boxes(120, 160, 200)
    final = Detections.from_lists([[160, 0, 180, 20], [200, 0, 220, 20]], [4, 2], [0.9, 0.9])
    steps = [(loso.NEVER_FOUND, found), (loso.NO_DIE, read), (loso.VERIFIER, verified)]
    preds = loso.predictions(final)
    lost = loso.lost_at_step(truth, preds, [*steps, (loso.LAST_STEPS, final)])
    assert lost == [loso.NEVER_FOUND, loso.NO_DIE, loso.VERIFIER, loso.LAST_STEPS]
    assert loso.lost_at_step(truth[:1], [], [(loso.NEVER_FOUND, boxes(2)), (loso.LAST_STEPS, boxes(2))]) == [
        loso.NOT_MATCHED  # a box there at every step, none that the scoring pairs with the die
    ]
    assert loso.lost_at_step(truth[:1], [], [(loso.NEVER_FOUND, boxes())]) == [loso.NEVER_FOUND]
    scored: dict = {}
    loso.tally(scored, "0.5", truth, final, steps=steps)
    fig = loso.figures(scored["0.5"])
    assert fig["missed"] == 4 and sum(fig["lost_at"].values()) == 4 and fig["lost_at"][loso.VERIFIER] == 1
    assert "lost_at" in fig and loso.figures(loso.Scored())["lost_at"] == {}


def test_a_reading_on_a_mostly_covered_rendered_die_is_found_by_its_centre() -> None:
    """``score_renders`` leaves out readings centred on a die the scene's things mostly cover (no label there)."""
    from companion.vision.detector import centres_in

    def centred_in(centres: np.ndarray, boxes: np.ndarray) -> list[bool]:  # as score_renders asks it
        return centres_in(centres, boxes).any(axis=1).tolist()

    hidden = np.array([[10, 10, 30, 30], [100, 0, 120, 20]], np.float32)
    centres = np.array([[20, 20], [30, 30], [31, 20], [110, 21], [110, 0]], np.float32)
    assert centred_in(centres, hidden) == [True, True, False, False, True]
    assert centred_in(np.zeros((0, 2)), hidden) == []
    assert centred_in(centres, np.zeros((0, 4))) == [False] * 5


@needs_sets
def test_the_real_sets_split_into_disjoint_parts_near_their_shares() -> None:
    for name in sets.ALL_SETS:
        parts = sets.parts(DICE / name)
        everything = [p for ps in parts.values() for p in ps]
        assert len(everything) == len(set(everything))
        n = len(everything)
        assert parts["train"] and 0.1 * n <= len(parts["val"]) and 0.1 * n <= len(parts["test"])


@needs_sets
def test_the_wide_cache_of_runs_that_spare_the_held_out_photos_is_the_file_they_read(monkeypatch) -> None:
    """``caches.py --spare-held-out``: the scenes' surfaces are the photos such a run trains on (the fold's
    ``train`` part without ``heldout.txt``'s), so the file is the one its run reads and not rendered again."""
    pytest.importorskip("torch")  # caches.py imports train_verifier: torch, not in the test install
    from tools.dicetrain import caches
    from tools.dicetrain.heldout_eval import held_out

    seen: dict[bool, list[Path]] = {}

    def photos_of(spare: bool) -> list[Path]:
        monkeypatch.setattr(caches, "load", lambda paths: seen.setdefault(spare, list(paths)) and [])
        monkeypatch.setattr(caches, "painted_out", lambda samples: [])
        monkeypatch.setattr(caches, "scenes", lambda *a, **k: None)
        caches.wide_cache(str(DICE), Path("/nonexistent"), 2, 1, 0.5, 1, "angled-webcam", spare_held_out=spare)
        return seen[spare]

    spared = {p.resolve() for p in held_out(DICE)}
    everything, fewer = photos_of(False), photos_of(True)
    assert fewer == sets.training_part(DICE, "angled-webcam", held_out(DICE))
    assert set(fewer) < set(everything) and not spared & {p.resolve() for p in fewer}
    assert spared & {p.resolve() for p in everything}


@pytest.mark.slow
def test_renders_are_deterministic_and_hold_what_their_truth_says() -> None:
    a, b = render_scene(12345), render_scene(12345)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.boxes, b.boxes)
    kinds: set[str] = set()
    dice = 0
    for seed in range(40):
        sc = render_scene(seed)
        h, w = sc.image.shape[:2]
        assert sc.image.dtype == np.uint8 and sc.image.shape[2] == 3
        for boxes in (sc.boxes, sc.things):
            if len(boxes):
                assert (boxes[:, 0] >= 0).all() and (boxes[:, 2] <= w).all() and (boxes[:, 3] <= h).all()
        assert len(sc.values) == len(sc.boxes) == len(sc.hidden)
        assert set(sc.values.tolist()) <= {1, 2, 3, 4, 5, 6}
        kinds |= set(sc.thing_kinds)
        dice += len(sc.boxes)
    assert dice > 100 and len(kinds) >= len(THINGS) - 3


def test_snap_studs_come_only_when_asked_for_in_rows_inside_the_frame_with_a_glint() -> None:
    from tools.synth.wide import SNAP, SS, Shares, Thing, draw_thing

    for seed in (720003, 720004):  # at 0 the scene is the one earlier runs rendered
        plain, zero = render_scene(seed), render_scene(seed, shares=Shares(snaps=0.0))
        assert np.array_equal(plain.image, zero.image) and SNAP not in plain.thing_kinds
    snaps = 0
    for seed in range(20):
        sc = render_scene(seed, shares=Shares(snaps=1.0))
        h, w = sc.image.shape[:2]
        boxes = sc.things[[k == SNAP for k in sc.thing_kinds]]
        assert len(boxes) and (boxes[:, :2] >= 0).all() and (boxes[:, 2] <= w).all() and (boxes[:, 3] <= h).all()
        snaps += len(boxes)
    assert snaps >= 40
    table = np.full((100 * SS, 100 * SS, 3), 0.3, np.float32)
    draw_thing(table, Thing(SNAP, (50, 50), 30, 0, 7), (0.1, 0.1, 0.5))
    lum = table[35 * SS : 65 * SS, 35 * SS : 65 * SS].mean(axis=2)
    assert lum.max() > 0.75 and lum.min() < 0.3  # a bright glint on a darker dome


def test_a_speckled_carpet_comes_only_when_asked_for_and_is_flecks_of_several_colours() -> None:
    from tools.synth.wide import Shares, surface_carpet, surface_speckle

    plain, zero = render_scene(720001), render_scene(720001, shares=Shares(speckle=0.0))
    assert np.array_equal(plain.image, zero.image) and plain.surface != "speckle"
    laid = [render_scene(seed, shares=Shares(speckle=0.5)).surface == "speckle" for seed in range(20)]
    assert 4 <= sum(laid) <= 16
    carpet = surface_speckle(np.random.default_rng(3), (200, 200))
    assert carpet.shape == (200, 200, 3) and carpet.dtype == np.float32
    colours = {tuple(np.round(c, 1)) for c in carpet[::7, ::7].reshape(-1, 3)}
    assert len(colours) >= 4  # flecks of several inks on a ground, not one colour

    def grain(surface: np.ndarray) -> float:
        return float(np.abs(np.diff(surface.mean(axis=2), axis=1)).mean())

    speckled = np.mean([grain(surface_speckle(np.random.default_rng(s), (200, 200))) for s in range(6)])
    blobs = np.mean([grain(surface_carpet(np.random.default_rng(s), (200, 200))) for s in range(6)])
    assert speckled > 1.4 * blobs  # flecks a pip's size, finer than the blobby carpet's colour fields


def test_a_rendered_die_shows_its_pips_and_a_hole_is_darker_than_the_table() -> None:
    from tools.synth.wide import SS, Thing, WideDie, die_face, draw_thing

    d = WideDie((0, 0), 40, 0, 5, (0.8, 0.8, 0.8), (0.02, 0.02, 0.02))
    face, alpha = die_face(d, 80)
    dark = face.mean(axis=2) < 0.2
    n, _ = cv2.connectedComponents(dark.astype(np.uint8))
    assert n - 1 == 5 and alpha[40, 40] == 1.0
    middle = WideDie((0, 0), 40, 0, 2, (0.8, 0.8, 0.8), (0.02, 0.02, 0.02), middle=True)
    f2, _ = die_face(middle, 80)
    ys, _xs = np.nonzero(f2.mean(axis=2) < 0.2)
    assert abs(ys.mean() - 40) < 2  # a 2 along the middle, not on the diagonal
    table = np.full((100 * SS, 100 * SS, 3), 0.5, np.float32)
    draw_thing(table, Thing("hole", (50, 50), 20, 0, 1), (0.1, 0.1, 0.5))
    assert table[50 * SS, 50 * SS].mean() < 0.5 * 0.7


def test_gimp_patterns_are_read_and_broken_ones_refused(tmp_path) -> None:
    import struct

    good = tmp_path / "p.pat"
    name = b"x\0"
    px = np.arange(4 * 3 * 3, dtype=np.uint8).reshape(3, 4, 3)
    good.write_bytes(struct.pack(">5I", 24 + len(name), 1, 4, 3, 3) + b"GPAT" + name + px.tobytes())
    tile = read_gimp_pattern(good)
    assert tile is not None and tile.shape == (3, 4, 3) and np.array_equal(tile[:, :, ::-1], px)
    bad = tmp_path / "b.pat"
    bad.write_bytes(b"not a pattern at all, no")
    assert read_gimp_pattern(bad) is None
    surface = Backgrounds([np.full((50, 60, 3), 128, np.uint8)], gimp=False).surface(np.random.default_rng(0), (40, 40))
    assert surface.shape == (40, 40, 3) and surface.dtype == np.float32


def test_a_checked_reading_is_what_the_player_tells_the_dice_screen() -> None:
    """``loso.checked``: the careful player's answer for every die read, every false die and every missed die;
    the careless one corrects only what is drawn to be checked."""
    from companion.vision.detections import Detections
    from companion.vision.scoring import Label
    from tools.dicetrain.loso import checked

    a, b, c, d, e = (0, 0, 10, 10), (20, 0, 30, 10), (40, 0, 50, 10), (60, 0, 70, 10), (80, 0, 90, 10)
    truth = [Label(3, a), Label(5, b), Label(2, c)]
    det = Detections.from_lists([a, b, d, e], [3, 6, 4, 1], [0.95, 0.9, 0.9, 0.9]).replace(
        flagged=np.array([False, False, False, True])
    )
    boxes, values = checked(truth, det)
    assert boxes == [a, b, d, e, c] and values == [3, 5, 0, 0, 2]  # right, corrected, removed twice, added
    boxes, values = checked(truth, det, careless=True)
    assert boxes == [a, b, d, e, c] and values == [3, 6, 4, 0, 2]  # the unflagged wrong face and false die stay


@needs_sets
def test_a_folds_memory_is_learned_from_a_few_checked_photos_of_the_left_out_set() -> None:
    """``loso.memory_from_shots``: the photos come from the left-out set's ``train`` part, each read with the
    memory so far and checked; their dice (and the things removed from a cluttered table) are remembered."""
    pytest.importorskip("onnx")
    from dataclasses import replace

    from companion.vision import dice_memory, learned, table_look
    from companion.vision.reader_settings import DEFAULT_SETTINGS
    from tools.dicetrain import loso

    before = dice_memory.FEATURES_PATH, table_look.SOURCE_PATH
    try:
        on = replace(DEFAULT_SETTINGS, look=True, look_min=1, look_far=0.0)  # the table's look on any table, early
        memory, shots = loso.memory_from_shots(DICE, "angled-webcam", 2, 0, None, on)
        assert len(shots) == 2 and all(p in sets.parts(DICE / "angled-webcam")["train"] for p in shots)
        assert memory.dice >= 2 and memory.network == dice_memory.fingerprint(dice_memory.FEATURES_PATH)
        # the table's look too, against the statistics of the two sets the fold trained on
        assert memory.look.crops >= 2 and before[1] != table_look.SOURCE_PATH
        assert len(memory.look.trial) >= 1  # the second photo's checked dice tried the look of the first
        names = {s.name for s in table_look.sources()[learned.FACES_PATHS[0].name]}
        assert names == {"felt-trays", "grey-mixed"}
        cluttered, _ = loso.memory_from_shots(DICE, "angled-webcam", 2, 0, None, on, clutter=True)
        assert cluttered.dice == memory.dice and len(cluttered) > len(memory)  # things read as dice, removed
        assert cluttered.look.crops > memory.look.crops  # the things on the table are candidate spots too
    finally:
        dice_memory.FEATURES_PATH, table_look.SOURCE_PATH = before


def test_loso_read_again_while_a_fold_has_its_detector_swapped_in_knows_the_shipped_detectors(monkeypatch) -> None:
    """``look_source`` imports ``loso`` while a ``python -m tools.dicetrain.loso`` run reads with one fold detector
    (``use_detector``); the module's own figures must not be made from the swapped names (a grey-mixed fold with
    the look on crashed there)."""
    import importlib.util

    from companion.vision import learned, networks
    from tools.dicetrain import loso

    monkeypatch.setattr(learned, "MODEL_PATHS", learned.MODEL_PATHS[:1])
    spec = importlib.util.spec_from_file_location("loso_again", loso.__file__)
    assert spec is not None and spec.loader is not None
    again = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(again)
    assert set(again.SHIPPED_DETECTORS_SAW) == set(networks.MODEL_PATHS)
    assert again.never_saw(networks.MODEL_PATHS, "grey-mixed") == networks.MODEL_PATHS[:1]
