"""Issue #20: the table's own dice, remembered from the player's checked rolls (companion/vision/dice_memory.py),
and the reader asking that memory (learned.read_found, pipeline.read_dice / remember)."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import dice_memory, learned, pipeline
from companion.vision.dice_memory import NOT_A_DIE, STALE, TOO_BIG, UNREADABLE, DiceMemory, DiceMemoryError, MemoryStore
from companion.vision.reader_settings import DEFAULT_SETTINGS

SAMPLES = Path(dice_memory.__file__).parent / "samples"


def clusters(n: int = 12, seed: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Views round two far-apart points: ``a`` (dice showing 3) and ``b`` (a spot of the table that is no die)."""
    rng = np.random.default_rng(seed)
    a, b = rng.normal(size=64), rng.normal(size=64)
    dice = a + 0.05 * rng.normal(size=(n, 64))
    spots = b + 0.05 * rng.normal(size=(n, 64))
    return a, b, dice.astype(np.float32), spots.astype(np.float32)


def memory_of(dice: np.ndarray, spots: np.ndarray) -> DiceMemory:
    return DiceMemory(network="x").with_views(
        np.concatenate([dice, spots]), [3] * len(dice) + [NOT_A_DIE] * len(spots), 600
    )


def test_a_memory_keeps_the_newest_views_up_to_its_cap_and_refuses_what_is_not_a_view() -> None:
    m = DiceMemory(network="x")
    assert len(m) == 0 and m.dice == 0
    feats = np.arange(5 * 4, dtype=np.float32).reshape(5, 4)
    m2 = m.with_views(feats, [1, 2, 0, 4, 5], cap=3)
    assert len(m) == 0  # a value: the old memory is unchanged
    assert m2.values.tolist() == [0, 4, 5] and m2.features[0, 0] == 8 and m2.dice == 2
    assert m2.with_views(np.zeros((0, 4)), [], 3) is m2
    with pytest.raises(DiceMemoryError):
        m2.with_views(np.zeros((1, 4)), [7], 3)  # not a face
    with pytest.raises(DiceMemoryError):
        m2.with_views(np.zeros((1, 5)), [1], 3)  # other numbers than the views it has
    with pytest.raises(DiceMemoryError):
        m2.with_views(np.zeros((2, 4)), [1], 3)


def test_the_memory_votes_with_the_views_most_like_a_candidate() -> None:
    a, b, dice, spots = clusters()
    m = memory_of(dice, spots)
    q, nearest = m.vote(np.stack([a, b]).astype(np.float32))
    assert q[0, 3] == 1.0 and q[1, NOT_A_DIE] == 1.0
    assert (nearest > 0.9).all()


def test_a_die_the_classifiers_call_no_die_is_kept_when_it_looks_like_the_tables_dice_and_a_spot_goes() -> None:
    a, b, dice, spots = clusters()
    m = memory_of(dice, spots)
    p = np.array(
        [
            [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01],  # a die of the table's kind the classifiers call no die
            [0.1, 0.0, 0.0, 0.0, 0.0, 0.9, 0.0],  # a spot of the table they read as a sure 5
        ],
        np.float32,
    )
    out = m.adjust(p, np.stack([a, b]).astype(np.float32))
    assert 1 - out[0, 0] >= DEFAULT_SETTINGS.die_threshold and out[0, 1:].argmax() + 1 == 3
    assert 1 - out[1, 0] < DEFAULT_SETTINGS.die_threshold
    assert np.allclose(out.sum(axis=1), 1.0, atol=1e-5)
    assert (p[0, 0], p[1, 5]) == (np.float32(0.9), np.float32(0.9))  # a new array


def test_the_memory_leaves_the_reading_alone_when_it_is_small_or_knows_nothing_like_the_candidate() -> None:
    a, _, dice, spots = clusters(n=4)
    p = np.array([[0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01]], np.float32)
    small = memory_of(dice, spots)  # 8 views, under memory_min
    assert len(small) < DEFAULT_SETTINGS.memory_min
    assert np.array_equal(small.adjust(p, a[None].astype(np.float32)), p)
    _, _, dice, spots = clusters(n=12)
    m = memory_of(dice, spots)
    other = np.random.default_rng(5).normal(size=(1, 64)).astype(np.float32)  # like neither
    assert np.array_equal(m.adjust(p, other), p)
    assert np.array_equal(m.adjust(p, np.zeros((1, 32), np.float32)), p)  # another network's numbers


def test_a_sure_face_stays_the_classifiers_and_an_unsure_one_hears_the_memory() -> None:
    a, _, dice, spots = clusters()
    m = memory_of(dice, spots)  # the remembered dice show 3
    sure = np.array([[0.05, 0.0, 0.0, 0.0, 0.0, 0.95, 0.0]], np.float32)
    unsure = np.array([[0.05, 0.0, 0.0, 0.4, 0.0, 0.55, 0.0]], np.float32)
    f = a[None].astype(np.float32)
    assert m.adjust(sure, f)[0, 1:].argmax() + 1 == 5
    assert m.adjust(unsure, f)[0, 1:].argmax() + 1 == 3


def test_a_memory_survives_json_and_broken_files_are_refused_with_a_reason() -> None:
    _, _, dice, spots = clusters()
    m = memory_of(dice, spots)
    back = DiceMemory.from_json(json.loads(json.dumps(m.to_json())))
    assert back.network == "x" and back.values.tolist() == m.values.tolist()
    assert np.allclose(back.features, m.features, atol=1e-4)
    assert len(DiceMemory.from_json({"schema": 1, "network": "x", "views": []})) == 0
    for bad in (
        None,
        [],
        {"schema": 2, "views": []},
        {"schema": 1, "views": [{"value": 3}]},
        {"schema": 1, "views": [{"value": "x", "f": [1.0]}]},
        {"schema": 1, "views": [{"value": 9, "f": [1.0]}]},
        {"schema": 1, "views": [{"value": 1, "f": [1.0]}, {"value": 1, "f": [1.0, 2.0]}]},
        {"schema": 1, "views": [{"value": 1, "f": ["nan"]}]},
        {"schema": 1, "views": [{"value": 300, "f": [1.0]}]},
        {"schema": 1, "views": ["x"]},
    ):
        with pytest.raises(DiceMemoryError):
            DiceMemory.from_json(bad)


def test_the_store_keeps_a_memory_per_camera_and_says_why_one_is_not_used(tmp_path: Path) -> None:
    store = MemoryStore(tmp_path / "dice-memory")
    assert len(store.load("picamera2:0@1280x720", "x")[0]) == 0
    assert store.load("picamera2:0@1280x720", "x")[1] is None  # nothing learned yet is no problem
    _, _, dice, spots = clusters()
    m = memory_of(dice, spots)
    path = store.save("picamera2:0@1280x720", m)
    assert path.parent == tmp_path / "dice-memory" and "/" not in path.name
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]
    back, problem = store.load("picamera2:0@1280x720", "x")
    assert problem is None and len(back) == len(m)
    other, problem = store.load("webcam:0@640x480", "x")  # another camera: its own memory, none yet
    assert len(other) == 0 and problem is None
    stale, problem = store.load("picamera2:0@1280x720", "another network")
    assert len(stale) == 0 and problem == STALE and stale.network == "another network"
    path.write_text("{ not json", encoding="utf-8")
    assert store.load("picamera2:0@1280x720", "x")[1] == UNREADABLE
    path.write_bytes(b"\xff\xfe" * 10)
    assert store.load("picamera2:0@1280x720", "x")[1] == UNREADABLE
    with open(path, "wb") as fh:
        fh.truncate(dice_memory.MAX_FILE_BYTES + 1)
    assert store.load("picamera2:0@1280x720", "x")[1] == TOO_BIG
    store.forget("picamera2:0@1280x720")
    assert not path.exists()
    store.forget("picamera2:0@1280x720")  # twice is no error


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_memory_that_cannot_be_saved_says_why(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(DiceMemoryError):
            MemoryStore(folder).save("cam@1x1", DiceMemory(network="x"))
    finally:
        folder.chmod(0o700)


def test_a_memory_that_cannot_be_saved_on_a_full_card_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def full(*_a: object, **_k: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full)
    with pytest.raises(DiceMemoryError, match="No space"):
        MemoryStore(tmp_path).save("cam@1x1", DiceMemory(network="x"))
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # nothing half-written is left


def sample(kind: str = "felt-trays", k: int = 0) -> tuple[np.ndarray, list[tuple[int, int, int, int]], list[int]]:
    """A shipped sample photo, its labelled dice boxes and their values."""
    from companion.vision.scoring import read_yolo_labels

    image = sorted((SAMPLES / kind / "images").glob("*.jpg"))[k]
    frame = cv2.imread(str(image))
    h, w = frame.shape[:2]
    labels = read_yolo_labels(SAMPLES / kind / "labels" / f"{image.stem}.txt", w, h)
    return frame, [tuple(int(v) for v in lab.box) for lab in labels], [lab.value for lab in labels]  # type: ignore[misc]


def test_the_features_network_is_the_first_classifier_cut_before_its_last_layer() -> None:
    assert dice_memory.FEATURES_PATH.is_file() and dice_memory.fingerprint()
    assert dice_memory.fingerprint(Path("/nonexistent")) == ""
    frame, boxes, _ = sample()
    f = dice_memory.features(frame, np.array(boxes[:3], np.float32))
    assert f.shape == (3, 64) and (f >= 0).all()  # the mean of a ReLU layer
    # the classifier's last layer on these numbers gives the classifier's own reading
    onnx = pytest.importorskip("onnx")
    from onnx import numpy_helper

    model = onnx.load(str(learned.FACES_PATHS[0]))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    gemm = next(n for n in model.graph.node if n.op_type == "Gemm")
    logits = f @ weights[gemm.input[1]].T + weights[gemm.input[2]]
    mine = np.exp(logits - logits.max(axis=1, keepdims=True))
    mine /= mine.sum(axis=1, keepdims=True)
    from companion.vision.crops import die_crops
    from companion.vision.networks import load_net

    theirs = load_net(str(learned.FACES_PATHS[0]), True).run(die_crops(frame, np.array(boxes[:3], np.float32)))
    assert np.allclose(mine, theirs.reshape(3, 7), atol=1e-4)


def test_a_checked_roll_is_learned_and_the_reader_asks_the_memory() -> None:
    frame, boxes, _ = sample()
    # the felt sample is a stretched photo, read upright (learned.upright_frame) unless told not to: the memory's
    # own effect is measured on the frame's crops, as learnt
    square = replace(DEFAULT_SETTINGS, upright=False)
    plain = learned.read_dice_learned(frame, square)
    assert len(plain) >= 5
    m = dice_memory.learn(DiceMemory(network="x"), frame, boxes, [3] * len(boxes))
    assert len(m) == len(boxes) and m.dice == len(boxes)
    # a memory of other dice, and of every die of this photo as no die (as if the player had removed each):
    # the reader is then less sure of every one, and with the vote weighing more than half, drops them
    spots = DiceMemory(network="x")
    for k in range(3):
        other, other_boxes, values = sample("angled-webcam", k)
        spots = dice_memory.learn(spots, other, other_boxes, values)
    spots = dice_memory.learn(spots, frame, boxes * 2, [NOT_A_DIE] * (2 * len(boxes)))
    doubted = learned.read_dice_learned(frame, square, spots)
    assert doubted.confidences.mean() < plain.confidences.mean() - 0.2
    assert len(learned.read_dice_learned(frame, DEFAULT_SETTINGS, spots)) < len(plain) / 2  # upright: doubted more
    heavy = replace(square, memory_weight=0.6)
    gone = learned.read_dice_learned(frame, heavy, spots)
    assert len(gone) < len(plain) / 2
    profile = pipeline.VisionProfile(memory=spots, learned=heavy)
    assert len(pipeline.read_dice(frame, profile)) == len(gone)
    # under memory_min views the memory is not asked
    few = replace(heavy, memory_min=10_000)
    assert len(learned.read_dice_learned(frame, few, spots)) == len(plain)


def test_a_roll_read_on_the_tray_view_is_learned_on_the_tray_view() -> None:
    frame, boxes, _ = sample()
    h, w = frame.shape[:2]
    whole = [(0, 0), (w - 1, 0), (w - 1, h - 1), (0, h - 1)]  # a tray outline as big as the frame: the same view
    empty = DiceMemory(network="x")
    on_tray = pipeline.remember(empty, frame, boxes[:4], [1, 2, 3, 4], pipeline.VisionProfile(tray_quad=whole))
    direct = pipeline.remember(empty, frame, boxes[:4], [1, 2, 3, 4])
    half = [(0, 0), (w // 2, 0), (w // 2, h - 1), (0, h - 1)]  # the tray's view is stretched: other crops
    stretched = pipeline.remember(empty, frame, boxes[:4], [1, 2, 3, 4], pipeline.VisionProfile(tray_quad=half))

    def alike(x: np.ndarray, y: np.ndarray) -> float:
        return float(np.min(np.sum(x * y, axis=1) / np.linalg.norm(x, axis=1) / np.linalg.norm(y, axis=1)))

    assert alike(on_tray.features, direct.features) > 0.98
    assert alike(stretched.features, direct.features) < alike(on_tray.features, direct.features)


def test_the_keeper_loads_each_cameras_memory_once_learns_saves_and_forgets(tmp_path: Path) -> None:
    from companion.vision.dice_memory import MemoryKeeper

    store = MemoryStore(tmp_path)
    store.path("cam@640x480").write_text("[]", encoding="utf-8")  # a broken file
    keeper = MemoryKeeper(store, network="x")
    assert len(keeper.get("cam@640x480")) == 0
    assert keeper.take_problem("cam@640x480") == UNREADABLE and keeper.take_problem("cam@640x480") is None
    frame, boxes, values = sample()
    learned_once = keeper.learn("cam@640x480", frame, boxes, values, look=False)  # the look: test_table_look
    assert len(learned_once) == len(boxes) and keeper.get("cam@640x480") is learned_once
    assert len(MemoryKeeper(store, network="x").get("cam@640x480")) == len(boxes)  # saved: a restart has it
    assert len(keeper.get("other@640x480")) == 0  # each camera and size its own
    keeper.forget("cam@640x480")
    assert len(keeper.get("cam@640x480")) == 0 and not store.path("cam@640x480").exists()
    assert keeper.network == "x" and MemoryKeeper(store).network == dice_memory.fingerprint()


def test_a_spot_the_classifiers_call_no_die_that_the_memory_keeps_is_flagged(monkeypatch: pytest.MonkeyPatch) -> None:
    from companion.vision.detections import Detections

    no_die = np.array([0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01], np.float32)
    sure_three = np.array([0.02, 0.0, 0.0, 0.96, 0.01, 0.01, 0.0], np.float32)

    def classify(frame, boxes, die_threshold=None, sure=None, nets=None, settings=None, memory=None, look=None):  # type: ignore[no-untyped-def]
        return np.stack([no_die, sure_three, no_die][: len(boxes)])

    def kept_first(frame, boxes, p, memory, settings=DEFAULT_SETTINGS):  # type: ignore[no-untyped-def]
        out = p.copy()
        out[0] = [0.3, 0.0, 0.0, 0.7, 0.0, 0.0, 0.0]  # the memory's vote keeps the first as a 3
        return out

    monkeypatch.setattr(learned, "classify_faces", classify)
    monkeypatch.setattr(learned, "remembered", kept_first)
    found = Detections.from_lists([[0, 0, 40, 40], [60, 0, 100, 40], [120, 0, 160, 40]], [1, 1, 1], [0.2] * 3)
    read = learned.read_found(np.zeros((50, 200, 3), np.uint8), found, DEFAULT_SETTINGS, DiceMemory())
    assert read.values.tolist() == [3, 3] and read.flagged.tolist() == [True, False]  # the third: no die, gone


def test_a_die_can_be_remembered_in_quarter_turns_too() -> None:
    frame, boxes, values = sample()
    once = dice_memory.features(frame, np.array(boxes[:3], np.float32))
    turned = dice_memory.features(frame, np.array(boxes[:3], np.float32), turns=4)
    assert turned.shape == (12, 64) and np.allclose(turned[:3], once, atol=1e-5)
    assert not np.allclose(turned[3:6], once, atol=1e-3)  # a quarter turn is another view
    four = dice_memory.learn(
        DiceMemory(network="x"), frame, boxes[:3], values[:3], replace(DEFAULT_SETTINGS, memory_turns=4)
    )
    assert len(four) == 12 and four.values.tolist() == values[:3] * 4


def test_weak_finds_the_remembered_dice_vouch_for_are_read_and_flagged() -> None:
    """``learned.remembered_finds``: a die whose detector peak is under ``find_threshold`` (here: the threshold
    set so high that the first look keeps only some of a photo's dice) is found again among the weak peaks where
    the table's memory has seen it as a die, the verifier agrees, and it is flagged for the player; not where the
    player said such spots are no die, not without a memory, not where the verifier doubts it."""
    frame = cv2.imread(str(sorted((SAMPLES / "felt-trays" / "images").glob("*.jpg"))[0]))
    all_found = learned.find_at_the_right_scale(frame)
    assert len(all_found) >= 6
    strict = replace(DEFAULT_SETTINGS, find_threshold=float(np.median(all_found.confidences)) + 1e-3)
    found = learned.find_at_the_right_scale(frame, strict)
    assert 0 < len(found) < len(all_found)  # the weaker half of the dice missed at this threshold
    boxes = all_found.boxes.astype(np.float32)
    dice = dice_memory.learn(DiceMemory(network="x"), frame, boxes, [3] * len(boxes))
    dice = dice.with_views(dice.features, dice.values, 600)  # memory_min views
    again = learned.remembered_finds(frame, found, strict, dice)
    added = len(again) - len(found)
    assert added >= 2 and again.flagged.sum() >= added and not found.flagged.any()
    # the reader reads them: read_candidates asks the memory's weak finds
    assert len(learned.read_candidates(frame, strict, dice)) > len(learned.read_candidates(frame, strict, None))
    # spots the player removed as no die vouch for nothing; nor does a memory too small to ask
    spots = dice_memory.learn(DiceMemory(network="x"), frame, boxes, [NOT_A_DIE] * len(boxes))
    spots = spots.with_views(spots.features, spots.values, 600)
    assert len(learned.remembered_finds(frame, found, strict, spots)) == len(found)
    assert learned.remembered_finds(frame, found, strict, None) is found
    assert learned.remembered_finds(frame, found, replace(strict, memory_min=10_000), dice) is found
    # the verifier must agree, and a memory_find not under find_threshold asks for no weak peak
    assert len(learned.remembered_finds(frame, found, replace(strict, memory_find_verify=1.01), dice)) == len(found)
    assert learned.remembered_finds(frame, found, replace(strict, verify=False), dice) is found
    no_weak = replace(strict, memory_find=strict.find_threshold)
    assert learned.remembered_finds(frame, found, no_weak, dice) is found


def test_weak_finds_without_the_features_network_or_with_a_stale_memory_are_no_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A features network that cannot be loaded, or a memory made by another one (other numbers per view): the
    first finds as they were, no traceback."""
    frame = cv2.imread(str(sorted((SAMPLES / "felt-trays" / "images").glob("*.jpg"))[0]))
    strict = replace(DEFAULT_SETTINGS, find_threshold=0.6)
    found = learned.find_at_the_right_scale(frame, strict)
    stale = DiceMemory(network="x").with_views(np.ones((20, 7), np.float32), [3] * 20, 600)
    assert learned.remembered_finds(frame, found, strict, stale) is found
    monkeypatch.setattr(dice_memory, "FEATURES_PATH", tmp_path / "missing.onnx")
    boxes = learned.find_at_the_right_scale(frame).boxes.astype(np.float32)
    memory = DiceMemory(network="x").with_views(np.ones((20, 64), np.float32), [3] * 20, 600)
    assert learned.remembered_finds(frame, found, strict, memory) is found
    assert len(learned.read_candidates(frame, strict, memory)) >= 1  # the reader reads on without it
    assert len(boxes) > len(found)


def test_the_weak_finds_cost_no_second_run_of_the_detector(monkeypatch: pytest.MonkeyPatch) -> None:
    """``learned.find_with_memory`` looks at the frame twice (the first finds, then the weak peaks) with the
    detector run once per input size (``detector.outputs_kept``), and reads as the two calls made apart."""
    from companion.vision import detector

    frame = cv2.imread(str(sorted((SAMPLES / "felt-trays" / "images").glob("*.jpg"))[0]))
    boxes = learned.find_at_the_right_scale(frame).boxes.astype(np.float32)
    memory = dice_memory.learn(DiceMemory(network="x"), frame, boxes, [3] * len(boxes))
    memory = memory.with_views(memory.features, memory.values, 600)
    strict = replace(DEFAULT_SETTINGS, find_threshold=0.6)
    runs: list[tuple[int, ...]] = []
    run = detector.run_in_tiles

    def counted(net: object, small: np.ndarray, *args: object) -> np.ndarray:
        runs.append(small.shape)
        return run(net, small, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(detector, "run_in_tiles", counted)
    apart = learned.remembered_finds(frame, learned.find_at_the_right_scale(frame, strict), strict, memory)
    twice = len(runs)
    runs.clear()
    together = learned.find_with_memory(frame, strict, memory)
    assert len(runs) == len(set(runs)) and len(runs) < twice  # each input size once
    assert together.boxes.tolist() == apart.boxes.tolist() and together.flagged.tolist() == apart.flagged.tolist()
    assert together.flagged.any()  # weak finds were added: the second look was made
    runs.clear()
    learned.find_at_the_right_scale(frame, strict)
    learned.find_at_the_right_scale(frame, strict)
    assert len(runs) == 2 * len(set(runs))  # outside it, nothing is kept
