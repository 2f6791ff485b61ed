"""Issue #20: the face classifiers adapted to the table's look (companion/vision/table_look.py), the ONNX bytes
they are rewritten with (onnx_bytes.py), and the dice memory that carries the look (dice_memory.learn_look,
MemoryKeeper)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.vision import dice_memory, learned, onnx_bytes, table_look
from companion.vision.crops import die_crops
from companion.vision.dice_memory import UNREADABLE, DiceMemory, MemoryKeeper, MemoryStore
from companion.vision.networks import BACKENDS, load_bytes, load_net, onnxruntime, run_outputs
from companion.vision.reader_settings import DEFAULT_SETTINGS
from companion.vision.table_look import LayerStats, LookError, TableLook

SAMPLES = Path(dice_memory.__file__).parent / "samples"
# A sample photo has ~10 candidate spots (the app waits for 100 used dice), and it is one of a set the classifiers
# trained on (the app leaves such a table unadapted, look_far): these tests adapt it all the same.
S = replace(DEFAULT_SETTINGS, look=True, look_min=4, look_far=0.0, look_margin=0, look_z=0.0)  # with look_margin 0
# the look is used before any checked roll bore it out (the trial: its own tests)


def frame_and_boxes(kind: str = "felt-trays", k: int = 0) -> tuple[np.ndarray, np.ndarray]:
    image = sorted((SAMPLES / kind / "images").glob("*.jpg"))[k]
    frame = cv2.imread(str(image))
    return frame, np.asarray(learned.find_at_the_right_scale(frame).boxes, np.float32)


def some_dice(n: int) -> np.ndarray:
    """Which of ``n`` candidate spots a test takes for dice: all but every third."""
    return np.arange(n) % 3 != 2


def runners() -> list[str]:
    return [r for r in BACKENDS if r != "onnxruntime" or onnxruntime() is not None]


def conv_numpy(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A 3x3 convolution, stride 1, padding 1 (the classifiers' first layer), in plain numpy."""
    n, _, h, wd = x.shape
    pad = np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))
    out = np.zeros((n, w.shape[0], h, wd), np.float64)
    for dy in range(3):
        for dx in range(3):
            out += np.einsum("nchw,oc->nohw", pad[:, :, dy : dy + h, dx : dx + wd], w[:, :, dy, dx])
    return out + b[None, :, None, None]


def test_the_onnx_bytes_are_read_as_the_runtimes_read_them_and_rewritten_exactly() -> None:
    path = learned.FACES_PATHS[0]
    data = path.read_bytes()
    info = onnx_bytes.parse(data)
    convs = [n for n in info.nodes if n.op == "Conv"]
    assert len(convs) == 7 and [n.op for n in info.nodes][-2:] == ["Gemm", "Softmax"]
    frame, boxes = frame_and_boxes()
    x = die_crops(frame, boxes[:4])
    w, b = (onnx_bytes.weight(data, info, name) for name in convs[0].inputs[1:3])
    probe = onnx_bytes.with_outputs(data, info, [convs[0].outputs[0], convs[-1].outputs[0]])
    for runner in runners():
        first, last = run_outputs(probe, x, [convs[0].outputs[0], convs[-1].outputs[0]], runner)
        assert np.allclose(first, conv_numpy(x, w, b), atol=1e-3)  # the weights are what the runtime reads
        assert last.shape == (4, 64, 4, 4)
        # the copy with extra outputs reads as the file does
        assert np.allclose(load_bytes(probe, runner).run(x), load_net(str(path), True, runner).run(x), atol=1e-6)
    same = onnx_bytes.with_weights(data, info, {convs[0].inputs[1]: w})
    assert same == data
    zeroed = onnx_bytes.with_weights(
        data, info, {convs[-1].inputs[1]: np.zeros_like(onnx_bytes.weight(data, info, convs[-1].inputs[1]))}
    )
    assert len(zeroed) == len(data) and not np.allclose(load_bytes(zeroed).run(x), load_net(str(path), True).run(x))
    with pytest.raises(onnx_bytes.OnnxFormatError):
        onnx_bytes.with_weights(data, info, {convs[0].inputs[1]: w[:1]})  # another shape
    with pytest.raises(onnx_bytes.OnnxFormatError):
        onnx_bytes.weight(data, info, "no such weight")
    for broken in (data[: len(data) // 2], b"\xff" * 64, b""):
        with pytest.raises(onnx_bytes.OnnxFormatError):
            onnx_bytes.parse(broken)


def test_the_shipped_statistics_belong_to_the_shipped_classifiers() -> None:
    """A classifier retrained without ``tools/dicetrain/look_source.py`` run again would read unadapted."""
    sources = table_look.load_sources()
    for path in learned.look_paths():
        net = table_look.network(path)
        assert [s.name for s in sources[path.name]] == ["felt-trays", "angled-webcam", "grey-mixed"]  # one per set
        for source in sources[path.name]:
            assert source.sha256 == net.sha256, f"{path.name}: run python -m tools.dicetrain.look_source ../shared/dice"
            assert [len(s.mean) for s in source.layers] == [
                onnx_bytes.weight(net.data, net.info, c.inputs[2]).shape[0] for c in net.convs
            ]
            assert all((s.std > 0).all() for s in source.layers) and 0.5 < source.die_share <= 1.0


def layer_outputs(path: Path, look: TableLook, x: np.ndarray) -> list[np.ndarray]:
    """Each convolution's output over ``x`` as the classifier adapted to ``look`` computes it."""
    net = table_look.network(path)
    source = table_look.nearest(table_look.sources()[path.name], look.layers[path.name][0])
    adapted = table_look.adapted(path, look, S)
    assert adapted is not None
    data = onnx_bytes.with_weights(
        net.data,
        net.info,
        table_look._with_layers(
            net,
            [
                table_look._mapping(s, table_look._table(t, source))
                for s, t in zip(source.layers, look.layers[path.name], strict=True)
            ],
        ),
    )
    names = [c.outputs[0] for c in net.convs]
    return run_outputs(onnx_bytes.with_outputs(data, onnx_bytes.parse(data), names), x, names)


def test_a_look_maps_every_layer_of_the_tables_crops_onto_the_training_photos_numbers() -> None:
    frame, boxes = frame_and_boxes()
    x = die_crops(frame, boxes)
    dice = some_dice(len(x))
    look = table_look.learn(TableLook(), x, dice, learned.look_paths(), S)
    assert (
        look.crops == len(x)
        and look.ready(S)
        and not look.ready()
        and set(look.layers) == {p.name for p in learned.look_paths()}
    )
    path = learned.FACES_PATHS[0]
    source = table_look.nearest(table_look.sources()[path.name], look.layers[path.name][0])
    assert source.name == "felt-trays"  # a felt-trays photo's look is most like the felt-trays photos'
    # mixed in the training photos' share, the table's dice and other spots have the training photos' numbers
    w = np.where(dice, source.die_share / dice.sum(), (1 - source.die_share) / (~dice).sum())
    for z, s in zip(layer_outputs(path, look, x), source.layers, strict=True):
        per_crop = z.mean(axis=(2, 3))
        mean = (w[:, None] * per_crop).sum(axis=0)
        second = (w[:, None] * (z**2).mean(axis=(2, 3))).sum(axis=0)
        assert np.allclose(mean, s.mean, atol=2e-3 + 2e-3 * np.abs(s.mean))
        assert np.allclose(np.sqrt(second - mean**2), s.std, rtol=2e-2, atol=2e-3)
    # the reader with the look reads otherwise than without; a look too small is not used
    plain = learned.classify_faces(frame, boxes)
    assert not np.allclose(learned.classify_faces(frame, boxes, settings=S, look=look), plain, atol=1e-3)
    few = replace(S, look_min=len(x) + 1)
    assert not look.ready(few) and not look.ready(replace(S, look=False))
    assert np.allclose(learned.classify_faces(frame, boxes, settings=few, look=look), plain)
    # the adapted network is made once per look
    assert table_look.adapted(path, look, S) is table_look.adapted(path, look, S)


def test_a_look_weighs_the_newest_crops_up_to_its_cap() -> None:
    a = LayerStats(np.zeros(2, np.float32), np.ones(2, np.float32), 10.0)
    b = a.merged(np.full(2, 2.0), np.ones(2), 10.0, cap=100.0)
    assert b.weight == 20.0 and np.allclose(b.mean, 1.0) and np.allclose(b.std, np.sqrt(2.0))
    c = b.merged(np.full(2, 4.0), np.ones(2), 10.0, cap=20.0)  # the old ones weigh at most cap - new
    assert c.weight == 20.0 and np.allclose(c.mean, 2.5)
    d = c.merged(np.full(2, 8.0), np.zeros(2), 30.0, cap=20.0)  # more new crops than the cap: only them
    assert np.allclose(d.mean, 8.0) and np.allclose(d.std, 0.0)
    frame, boxes = frame_and_boxes()
    x = die_crops(frame, boxes)
    small = replace(DEFAULT_SETTINGS, look_cap=len(x) + 3)
    all_dice = np.ones(len(x), bool)
    once = table_look.learn(TableLook(), x, all_dice, learned.look_paths(), small)
    twice = table_look.learn(once, x, all_dice, learned.look_paths(), small)
    assert twice.crops == 2 * len(x) and twice.dice == len(x) + 3
    assert all(dice.weight == len(x) + 3 and not spots.weight for ls in twice.layers.values() for dice, spots in ls)
    # a table's dice and spots in other shares than the photos': the same look, only the share moves
    one, two = LayerStats(np.zeros(1), np.ones(1), 5.0), LayerStats(np.full(1, 2.0), np.ones(1), 50.0)
    mixed = table_look.mixture(one, two, 0.75)
    assert np.allclose(mixed.mean, 0.5) and np.allclose(mixed.std, np.sqrt(1 + 0.75 * 0.25 + 0.25 * 2.25))
    assert (
        table_look.mixture(one, table_look.EMPTY, 0.9) is one and table_look.mixture(table_look.EMPTY, one, 0.9) is one
    )
    with pytest.raises(LookError):
        table_look.learn(TableLook(), x, all_dice[:2], learned.look_paths())
    inside = table_look.centres_in(np.array([[0, 0, 10, 10], [20, 20, 30, 30]]), np.array([[2, 2, 8, 8]]))
    assert inside.tolist() == [True, False]


def test_classifiers_without_statistics_read_unadapted_and_a_look_survives_json(tmp_path: Path) -> None:
    frame, boxes = frame_and_boxes()
    x = die_crops(frame, boxes)
    look = table_look.learn(TableLook(), x, some_dice(len(x)), learned.look_paths())
    again = TableLook.from_json(json.loads(json.dumps(look.to_json())))
    assert again.crops == look.crops and again.shas == look.shas
    for name, layers in look.layers.items():
        for pair, pair_again in zip(layers, again.layers[name], strict=True):
            for u, v in zip(pair, pair_again, strict=True):
                assert np.allclose(u.mean, v.mean, atol=1e-4) and np.allclose(u.std, v.std, atol=1e-4)
    assert TableLook.from_json(None).crops == 0
    for broken in (
        [],
        {"crops": 3},
        {
            "crops": 3,
            "networks": {"a": {"sha256": "x", "layers": [{"dice": {"mean": [1], "std": [1, 2], "weight": 1}}]}},
        },
    ):
        with pytest.raises(LookError):
            TableLook.from_json(broken)
    # a file the statistics were not made with (retrained, damaged) is left unadapted
    other = tmp_path / learned.FACES_PATHS[0].name
    other.write_bytes(learned.FACES_PATHS[0].read_bytes()[:-1] + b"\x00")
    assert table_look.adapted(other, look, S) is None
    with pytest.raises(LookError):
        table_look.learn(TableLook(), x, some_dice(len(x)), [other])
    # statistics file missing or broken: a LookError, never a traceback of another kind
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    for path in (tmp_path / "missing.json", tmp_path / "broken.json"):
        with pytest.raises(LookError):
            table_look.load_sources(path)


def test_the_memory_carries_the_look_saves_it_and_a_damaged_one_is_refused(tmp_path: Path) -> None:
    frame, boxes = frame_and_boxes()
    m = dice_memory.learn_look(DiceMemory(network="x"), frame, boxes[:3], [1, 2, 3])
    assert m.look.crops == len(boxes) and len(m) == 0
    m = m.with_views(np.ones((2, 64), np.float32), [1, 2], 600)
    assert m.look.crops == len(boxes)  # views added keep the look
    store = MemoryStore(tmp_path)
    store.save("cam@640x480", m)
    loaded, problem = store.load("cam@640x480", "x")
    assert problem is None and loaded.look.crops == m.look.crops and len(loaded) == 2
    data = json.loads(store.path("cam@640x480").read_text(encoding="utf-8"))
    data["look"]["networks"][next(iter(data["look"]["networks"]))]["layers"][0]["dice"]["mean"] = "nonsense"
    store.path("cam@640x480").write_text(json.dumps(data), encoding="utf-8")
    assert store.load("cam@640x480", "x")[1] == UNREADABLE
    assert dice_memory.learn_look(DiceMemory(), frame, [], [], boxes=np.zeros((0, 4))).look.crops == 0
    # the candidates in the used dice's boxes are the dice
    name = learned.FACES_PATHS[0].name
    assert all(dice.weight == 3 and spots.weight == len(boxes) - 3 for dice, spots in m.look.layers[name])


def test_the_keeper_learns_the_look_in_the_background_and_forgetting_drops_it(tmp_path: Path) -> None:
    frame, boxes = frame_and_boxes()
    store = MemoryStore(tmp_path)
    keeper = MemoryKeeper(store, network="x")
    few = [tuple(int(v) for v in b) for b in boxes[:3]]
    keeper.learn("cam@640x480", frame, few, [1, 2, 3])  # type: ignore[arg-type]
    keeper.settle(60)
    assert keeper.get("cam@640x480").look.crops == 0  # off as shipped
    keeper.learn("cam@640x480", frame, few, [1, 2, 3], look=True)  # type: ignore[arg-type]
    keeper.settle(60)
    memory = keeper.get("cam@640x480")
    assert len(memory) == 6 and memory.look.crops == len(boxes)  # two rolls remembered, one of them looked at
    assert MemoryKeeper(store, network="x").get("cam@640x480").look.crops == len(boxes)  # saved with it
    keeper.learn("cam@640x480", frame, few, [1, 2, 3], look=False)
    assert keeper.get("cam@640x480").look.crops == len(boxes)
    # a look still being learned when the player forgets is not kept
    keeper.learn("cam@640x480", frame, few, [1, 2, 3], look=True)  # type: ignore[arg-type]
    keeper.forget("cam@640x480")
    keeper.settle(60)
    assert keeper.get("cam@640x480").look.crops == 0 and len(keeper.get("cam@640x480")) == 0


def test_a_table_is_mapped_onto_the_training_set_it_looks_most_like_and_one_of_them_is_left_alone() -> None:
    """The first convolution's numbers (no adaptation changes them) tell which training set a table is most
    like; a table like one of them (a sample photo of that set) reads unadapted, one unlike all of them (nearer
    sets taken away) is mapped onto the nearest."""
    name = learned.FACES_PATHS[0].name
    candidates = table_look.sources()[name]
    for kind in ("felt-trays", "angled-webcam"):
        frame, boxes = frame_and_boxes(kind, 1)
        look = dice_memory.learn_look(DiceMemory(), frame, boxes, [1] * len(boxes)).look
        first = look.layers[name][0]
        assert table_look.nearest(candidates, first).name == kind
        assert table_look.distance(table_look.nearest(candidates, first), first) < 0.1
        assert table_look.choice(candidates, first) is None
        assert table_look.adapted(learned.FACES_PATHS[0], look, replace(S, look_far=0.1)) is None
        others = [c for c in candidates if c.name != kind]
        far = table_look.choice(others, first)
        assert far is not None and table_look.distance(far, first) > 0.2


def test_a_reading_the_look_changed_is_flagged_for_the_player() -> None:
    no_die = [0.9, 0.02, 0.02, 0.02, 0.02, 0.01, 0.01]
    three = [0.1, 0.05, 0.05, 0.6, 0.1, 0.05, 0.05]
    five = [0.1, 0.05, 0.05, 0.1, 0.1, 0.55, 0.05]
    bare = np.array([no_die, three, three, three, no_die], np.float32)
    adapted = np.array([three, three, five, no_die, no_die], np.float32)
    assert table_look_changed(bare, adapted) == [True, False, True, False, False]
    # in the reader: with a ready look, the readings it changed are flagged; without one, nothing more is
    frame, boxes = frame_and_boxes("felt-trays", 2)
    x = die_crops(frame, boxes)
    look = table_look.learn(TableLook(), x, np.ones(len(x), bool), learned.look_paths(), S)
    memory = DiceMemory(look=look)
    found = learned.find_at_the_right_scale(frame, S)
    with_look = learned.read_found(frame, found, S, memory)
    without = learned.read_found(frame, found, S, DiceMemory())
    bare_p = learned.classify_faces(frame, found.boxes.astype(np.float32), sure=0.0, nets=learned.load_faces()[:1])
    adapted_p = learned.classify_faces(frame, found.boxes.astype(np.float32), settings=S, look=look)
    changed = learned.changed_by_look(bare_p, adapted_p, S.die_threshold)
    keep = (1.0 - adapted_p[:, 0]) >= S.die_threshold
    assert changed.any()  # this photo has a spot the look reads otherwise
    assert with_look.flagged.tolist() == (found.flagged | changed)[keep].tolist()
    assert (
        not without.flagged.any()
        or without.flagged.tolist() == found.flagged[(1.0 - bare_p[:, 0]) >= S.die_threshold].tolist()
    )


def table_look_changed(bare: np.ndarray, adapted: np.ndarray) -> list[bool]:
    return [bool(v) for v in learned.changed_by_look(bare, adapted, 0.5)]


def test_the_trial_keeps_a_look_only_while_the_checked_rolls_say_it_reads_better() -> None:
    """``TableLook.trial``: each checked die read by the classifiers as trained and as adapted; the look is used
    only while the adapted ones are right on ``look_margin`` more of the last ``look_trial`` dice."""
    on = replace(S, look_margin=2, look_trial=6)
    look = table_look.learn(TableLook(), *crops_and_dice(), learned.look_paths(), on)
    assert look.usable(on) and look.trial == () and not look.ready(on)  # nothing bore it out yet
    look = look.tried([False, False, True], [True, True, True], on.look_trial)
    assert look.score(on) == (2, 0) and look.ready(on)
    assert not look.ready(replace(on, look_margin=3)) and not look.ready(replace(on, look=False))
    look = look.tried([True, True, False, False], [False, False, False, False], on.look_trial)
    assert len(look.trial) == 6 and look.score(on) == (1, 2) and not look.ready(on)  # the oldest win went
    # the trial is saved with the look, a damaged one refused, and kept while the look learns more
    again = TableLook.from_json(json.loads(json.dumps(look.to_json())))
    assert again.trial == look.trial and not again.ready(on)
    data = look.to_json()
    data["trial"] = [7]
    with pytest.raises(LookError):
        TableLook.from_json(data)
    more = table_look.learn(look, *crops_and_dice(), learned.look_paths(), on)
    assert more.trial == look.trial and more.crops == 2 * look.crops
    # the sign test (look_z): ahead by at least look_z times the root of the marks only one reading had right
    signed = replace(on, look_trial=100, look_z=2.0)
    chance = look.tried([False] * 6 + [True] * 4 + [True] * 20, [True] * 6 + [False] * 4 + [True] * 20, 100)
    assert chance.score(signed) == (6 + 1, 4 + 2) and not chance.ready(signed)  # 7 won, 6 lost: chance
    clear = chance.tried([False] * 12, [True] * 12, 100)
    assert clear.score(signed) == (19, 6) and clear.ready(signed)  # 13 ahead of 2 x 5 = 10
    assert not clear.ready(replace(signed, look_z=2.7))  # 13 < 2.7 x 5
    # forced: read adapted whatever the trial says (the trial's own reading, the benchmark)
    behind = look.tried([True] * 100, [False] * 100, 100)
    assert not behind.ready(signed) and behind.ready(table_look.forced(signed))
    assert not behind.ready(table_look.forced(replace(signed, look=False)))  # but never where the look is off


def crops_and_dice() -> tuple[np.ndarray, np.ndarray]:
    frame, boxes = frame_and_boxes("felt-trays", 2)
    x = die_crops(frame, boxes)
    return x, some_dice(len(x))


def test_a_checked_roll_is_the_looks_trial_and_the_reader_reads_adapted_only_when_it_wins() -> None:
    """``dice_memory.try_look``: the frame read by the whole reader as trained and adapted; a roll checked as the
    reader as trained read it leaves the look unused (it can only lose there); a roll checked as the adapted reader
    read it, where the two differ, makes it used. (The felt photo read as it is, not upright: the look was learnt
    on its own crops.)"""
    on = replace(S, look_margin=2, upright=False)
    frame, boxes = frame_and_boxes("felt-trays", 2)
    look = table_look.learn(TableLook(), die_crops(frame, boxes), some_dice(len(boxes)), learned.look_paths(), on)
    with_look = DiceMemory(look=look)
    as_trained = learned.read_dice_learned(frame, replace(on, look=False), with_look)
    as_adapted = learned.read_dice_learned(frame, table_look.forced(on), with_look)
    _, differ = dice_memory.trial_marks(as_trained.boxes, as_trained.values, as_trained, as_adapted)
    differ_by = len(differ) - sum(differ)
    assert differ_by >= 2  # this photo's dice read otherwise adapted (the test would prove nothing without)
    lost = dice_memory.try_look(look, frame, as_trained.boxes, as_trained.values.tolist(), on)
    assert lost.score(on) == (0, differ_by) and not lost.ready(on)
    won = dice_memory.try_look(look, frame, as_adapted.boxes, as_adapted.values.tolist(), on)
    assert won.score(on)[0] >= 2 and won.score(on)[1] == 0 and won.ready(on)
    # the reader follows the trial: unadapted while the look loses, adapted while it wins
    found = learned.find_at_the_right_scale(frame, on)
    plain = learned.read_found(frame, found, on, DiceMemory())
    assert learned.read_found(frame, found, on, DiceMemory(look=lost)).values.tolist() == plain.values.tolist()
    assert learned.read_dice_learned(frame, on, DiceMemory(look=won)).values.tolist() == as_adapted.values.tolist()
    # a look that cannot be used yet is not tried; nor is a roll with no checked box
    assert dice_memory.try_look(look, frame, boxes, [1] * len(boxes), replace(on, look_min=10_000)).trial == ()
    assert dice_memory.try_look(look, frame, np.zeros((0, 4)), [], on).trial == ()
    with pytest.raises(dice_memory.DiceMemoryError):  # a value per checked box, or a sentence why not
        dice_memory.learn_look(DiceMemory(look=look), frame, boxes[:2], [1], on)
    # learn_look tries the roll before it learns from it
    memory = dice_memory.learn_look(DiceMemory(look=look), frame, as_adapted.boxes, as_adapted.values.tolist(), on)
    assert memory.look.trial == won.trial and memory.look.crops == 2 * look.crops


def test_the_trial_scores_both_readings_by_the_scoring_rule() -> None:
    """``dice_memory.trial_marks``: per checked die, whether each reading has it with its face (a box near enough
    by the scoring rule); a spot said to be no die is not a die to find, and a false die (there or anywhere) that
    one reading has more of than the other is a mark against that reading."""
    from companion.vision.detections import Detections

    checked = np.array([[0, 0, 20, 20], [40, 0, 60, 20], [80, 0, 100, 20], [120, 0, 140, 20]], np.float32)
    values = np.array([3, 5, 0, 2])  # the third a spot the player said is no die
    first = Detections.from_lists([[1, 1, 21, 21], [41, 0, 61, 20], [80, 0, 100, 20]], [3, 6, 4], [0.9] * 3)
    second = Detections.from_lists([[0, 0, 20, 20], [40, 1, 60, 21], [121, 0, 141, 20]], [3, 5, 2], [0.9] * 3)
    a, b = dice_memory.trial_marks(checked, values, first, second)
    # dice 3, 5, 2: the first reads 3 right, 5 as a 6, misses the 2 and reads the no-die spot as a 4 (one false)
    assert a == [True, False, False, False] and b == [True, True, True, True]
    look = TableLook().tried(a, b, 10)
    assert look.score(replace(S, look_trial=10)) == (3, 0)
    # the same false die in both readings marks neither; none at all, nothing but the dice
    assert dice_memory.trial_marks(checked, values, first, first) == ([True, False, False], [True, False, False])
    assert dice_memory.trial_marks(checked[:0], values[:0], Detections.empty(), Detections.empty()) == ([], [])


def test_the_keeper_gives_the_look_each_checked_roll_as_its_trial(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.vision.pipeline import DEFAULT_PROFILE

    frame, boxes = frame_and_boxes()
    keeper = MemoryKeeper(MemoryStore(tmp_path), network="x")
    profile = replace(DEFAULT_PROFILE, learned=replace(S, look_margin=2, look_min=1))
    few = [tuple(int(v) for v in b) for b in boxes[:3]]
    keeper.learn("cam@640x480", frame, few, [1, 2, 0], profile)  # type: ignore[arg-type]
    keeper.settle(60)
    assert keeper.get("cam@640x480").look.trial == ()  # no look to try before the first roll
    views = len(keeper.get("cam@640x480"))
    asked: list[int] = []
    read = learned.read_dice_learned

    def reading(frame_bgr: np.ndarray, settings: object, memory: DiceMemory) -> object:
        asked.append(len(memory))
        return read(frame_bgr, settings, memory)  # type: ignore[arg-type]

    monkeypatch.setattr(learned, "read_dice_learned", reading)
    keeper.learn("cam@640x480", frame, few, [1, 2, 0], profile)  # type: ignore[arg-type]
    keeper.settle(60)
    look = keeper.get("cam@640x480").look
    assert asked == [views, views]  # read both ways with the memory as it was before this roll
    assert len(look.trial) >= 2 and look.dice == 4  # the second roll tried: its two dice (and any false die)
    assert MemoryKeeper(MemoryStore(tmp_path), network="x").get("cam@640x480").look.trial == look.trial


def test_a_table_like_a_training_sets_gives_the_trial_nothing_to_try() -> None:
    frame, boxes = frame_and_boxes("felt-trays", 1)
    near = replace(S, look_margin=2, look_far=0.1)  # a felt-trays sample: nearer than look_far to its set
    look = table_look.learn(TableLook(), die_crops(frame, boxes), some_dice(len(boxes)), learned.look_paths(), near)
    assert look.usable(near) and dice_memory.try_look(look, frame, boxes, [1] * len(boxes), near).trial == ()
