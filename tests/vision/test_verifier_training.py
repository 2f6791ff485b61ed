"""The verifier's training data (``tools/dicetrain/train_verifier.py``, offline: needs PyTorch, skipped without)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")

from tools.dicetrain.data import Sample, side_faces


def sample(boxes: list[list[float]], set_name: str = "angled-webcam", values: list[int] | None = None) -> Sample:
    arr = np.array(boxes, np.float32).reshape(-1, 4)
    vals = np.array(values or [3] * len(arr), np.int64)
    return Sample(np.zeros((480, 640, 3), np.uint8), arr, vals, set_name, Path("x.jpg"))


def test_side_faces_lie_below_and_beside_a_labelled_top_face() -> None:
    """A die seen at an angle shows a side face below its top face (and one to a side): negatives there, never on
    another labelled die or off the photo, and none for sets that label the face towards the camera."""
    found = side_faces([sample([[300, 200, 340, 240]])])
    assert len(found) == 3
    below = found[0][1]
    assert below[1] > 240 and abs((below[0] + below[2]) / 2 - 320) < 1 and below[3] - below[1] < 40
    # a labelled die right below: that box is a die, not a side face
    assert len(side_faces([sample([[300, 200, 340, 240], [300, 246, 340, 286]])])) == 5
    assert side_faces([sample([[0, 450, 40, 478]])]) == []  # at the photo's bottom corner: all off it
    assert side_faces([sample([[300, 200, 340, 240]], "grey-mixed")]) == []
    # a 1's box hugs its pip (half a face in the webcam set): its side faces are placed by the other dice's size,
    # off its face, and a 1 alone in its photo gives none
    one_and_four = sample([[310, 210, 330, 230], [100, 100, 140, 140]], values=[1, 4])
    below = next(box for i, box in side_faces([one_and_four]) if box[1] > 230 and abs((box[0] + box[2]) / 2 - 320) < 1)
    assert below[1] > 240 and below[2] - below[0] == 40
    assert side_faces([sample([[310, 210, 330, 230]], values=[1])]) == []


def test_side_faces_travel_with_the_view_and_are_weighed_in_the_detectors_loss() -> None:
    """The detector's training (``train.py --side-weight``): the side faces' boxes go through the same crop, flips
    and turns as the dice (a box below a die stays next to it), views are chosen as without them, and the focal
    loss costs more for a peak on a side face than for the same peak elsewhere."""
    import torch

    from tools.dicetrain import data
    from tools.dicetrain.train import batch, focal

    rng_img = np.random.default_rng(0)
    s = sample([[300, 200, 340, 240], [100, 100, 140, 140]])
    s.image[:] = rng_img.integers(0, 255, s.image.shape, dtype=np.uint8)
    sides = data.side_face_boxes(s)
    assert len(sides) == 6
    for rendered in data.RENDERED:  # a render's sides are not where a webcam in front would see them: none
        assert len(data.side_face_boxes(replace(s, set_name=rendered))) == 0
    for seed in range(20):
        plain = data.augment(s, np.random.default_rng(seed), 256, 640)
        img, boxes, values, extra = data.augment_with(s, sides, np.random.default_rng(seed), 256, 640)
        assert np.array_equal(plain[0], img) and np.array_equal(plain[1], boxes) and np.array_equal(plain[2], values)
        for b in boxes:  # each die kept has its side faces (those still in view) within 1.3 sides of its centre
            c, side = (b[:2] + b[2:]) / 2, float(b[2] - b[0])
            near = [e for e in extra if np.hypot(*((e[:2] + e[2:]) / 2 - c)) < 1.3 * side]
            assert all(0.5 * side < np.hypot(*((e[:2] + e[2:]) / 2 - c)) for e in near)
    # the batch: without side faces the same tensors as before and no weights; with them weights > 0 somewhere
    ids = {id(s): sides}
    a = batch([s], np.random.default_rng(1), 4, 256)
    b = batch([s], np.random.default_rng(1), 4, 256, sides=ids, side_weight=4.0)
    assert all(torch.equal(x, y) for x, y in zip(a[:5], b[:5], strict=True))
    assert float(a[5].abs().sum()) == 0 and float(b[5].max()) == pytest.approx(4.0, abs=0.5)
    # the loss: a peak at the hard place costs (1 + 4) times the same peak on a plain negative
    gt = torch.zeros(1, 6, 8, 8)
    gt[0, 0, 0, 0] = 1.0
    flat = torch.full((1, 6, 8, 8), -8.0)
    flat[0, 0, 0, 0] = 8.0
    peak = flat.clone()
    peak[0, :, 5, 5] = 2.0
    hard = torch.zeros(1, 8, 8)
    cost = float(focal(peak, gt)) - float(focal(flat, gt))
    assert cost > 1 and float(focal(peak, gt, hard)) == pytest.approx(float(focal(peak, gt)))
    hard[0, 5, 5] = 4.0
    assert float(focal(peak, gt, hard)) - float(focal(flat, gt, hard)) == pytest.approx(5 * cost, rel=1e-3)


def test_boxes_that_hug_the_pips_are_grown_to_the_top_face() -> None:
    """The webcam set boxes the pips, not the face (a 1's box is its one pip): for the detector they become squares
    the size of the photo's faces, judged from its other values, about the same centres; a photo of 1s alone takes
    the set's median face; other sets are left as they are."""
    from tools.dicetrain.data import face_sized

    sixes = sample([[100, 100, 134, 134], [300, 300, 312, 312]], values=[6, 1])  # a 6's pips span 34 px: face 40
    ones = sample([[200, 200, 10 + 200, 210]], values=[1])
    felt = sample([[10, 10, 20, 20]], set_name="felt-trays", values=[1])
    grown = face_sized([sixes, ones, felt])
    assert np.allclose(grown[0].boxes, [[97, 97, 137, 137], [286, 286, 326, 326]])
    assert np.allclose(grown[1].boxes, [[185, 185, 225, 225]])  # the set's face, 40 px
    assert grown[2] is felt and grown[0].values.tolist() == [6, 1] and sixes.boxes[1, 0] == 300
    half = face_sized([sixes, ones, felt], share=0.5)  # half way: the 1 of 12 px grows to 26, the 6 of 34 to 37
    assert np.allclose(half[0].boxes, [[98.5, 98.5, 135.5, 135.5], [293, 293, 319, 319]])


def test_the_pip_sized_ones_are_left_out_of_the_detectors_loss() -> None:
    """``train.py --ignore-pip-ones``: a webcam 1 (boxed by its pip) is neither a die nor background for the
    detector: no target at it, and the 1s' map is not pushed down over its face, while every other map is, and
    the other values and sets are taught as before."""
    import torch

    from tools.dicetrain.data import IGNORED, ignore_map, ignore_pip_ones, targets
    from tools.dicetrain.train import focal

    sixes = sample([[100, 100, 134, 134], [200, 200, 212, 212]], values=[6, 1])  # face 40 px
    felt = sample([[10, 10, 30, 30]], set_name="felt-trays", values=[1])
    out = ignore_pip_ones([sixes, felt])
    assert out[0].values.tolist() == [6, IGNORED] and out[1] is felt and sixes.values.tolist() == [6, 1]
    assert np.allclose(out[0].boxes, [[100, 100, 134, 134], [186, 186, 226, 226]])  # the 1 grown to the face
    heat, _, _, mask = targets(out[0].boxes, out[0].values, 256, 4)
    assert mask.sum() == 1 and heat[0].max() == 0 and heat[5].max() == 1  # the 6 only
    ignore = ignore_map(out[0].boxes, out[0].values, 256, 4)
    assert ignore[51, 51] == 1 and ignore[25, 25] == 0 and ignore.sum() == 11 * 11  # cells 46-56
    # the loss: a sure 1 over the ignored face costs nothing (without the map it would); a sure 2 there does
    logits = torch.full((1, 6, 64, 64), -9.0)
    gt = torch.zeros(1, 6, 64, 64)
    ign = torch.from_numpy(ignore)[None]
    base = float(focal(logits, gt, ignore=ign))
    one_there = logits.clone()
    one_there[0, 0, 51, 51] = 5.0
    assert float(focal(one_there, gt, ignore=ign)) == pytest.approx(base)
    assert float(focal(one_there, gt)) > base + 1
    two_there = logits.clone()
    two_there[0, 1, 51, 51] = 5.0
    assert float(focal(two_there, gt, ignore=ign)) > base + 1


def test_a_grey_face_classifier_reads_the_same_whatever_the_dies_colours_and_the_light() -> None:
    """``train_values --gray``: the crop made grey and its contrast evened inside the network, so swapping the
    channels or dimming the light changes nothing (as it does change what a colour classifier says)."""
    import torch

    from tools.dicetrain.train_values import FaceNet

    torch.manual_seed(0)
    net = FaceNet(gray=True).eval()
    x = torch.rand(4, 3, 32, 32)
    base = net(x)
    swapped = x[:, [2, 0, 1]]
    dim = x * 0.5 + 0.1  # half the contrast, another level
    assert torch.allclose(net(swapped), base, atol=1e-5)
    assert torch.allclose(net(dim), base, atol=0.05)
    colour = FaceNet().eval()
    assert not torch.allclose(colour(swapped), colour(x), atol=1e-5)


def test_renders_with_more_blocks_of_touching_dice_are_cached_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``train.py --wide-blocks``: the share of appearance-wide scenes with a block of touching dice; the scenes made
    with another share are cached under another name (never mixed up with the default's), and more scenes have one."""
    from tools.dicetrain.train_verifier import scenes
    from tools.synth import wide

    def rows_of_dice(samples: list[Sample]) -> int:  # scenes with three dice or more at one die's pitch in a row
        count = 0
        for s in samples:
            c = (s.boxes[:, :2] + s.boxes[:, 2:]) / 2
            side = np.sqrt((s.boxes[:, 2] - s.boxes[:, 0]) * (s.boxes[:, 3] - s.boxes[:, 1]))
            near = np.hypot(*(c[:, None] - c[None]).transpose(2, 0, 1)) < side[:, None] * 1.2
            count += bool(len(c) and (near.sum(axis=1) >= 3).any())
        return count

    plain, _ = scenes(tmp_path, 12, 950_000, wide.Backgrounds())
    blocks, _ = scenes(tmp_path, 12, 950_000, wide.Backgrounds(), shares=wide.Shares(blocks=1.0))
    names = sorted(p.name for p in tmp_path.iterdir())
    assert len(names) == 2 and names[0].endswith("-blocks1.pkl") and names[0].replace("-blocks1", "") == names[1]
    assert rows_of_dice(blocks) > rows_of_dice(plain)


def test_scenes_rendered_on_several_processes_are_the_same_scenes(tmp_path: Path) -> None:
    """``scenes(..., procs=2)`` (``tools/dicetrain/caches.py``): each scene is its seed's, so forked workers
    render exactly what one process renders, in the same order, into the same cache file."""
    from tools.dicetrain.train_verifier import scene_cache, scenes
    from tools.synth import wide

    one, hidden_one = scenes(tmp_path / "one", 4, 951_000, wide.Backgrounds())
    two, hidden_two = scenes(tmp_path / "two", 4, 951_000, wide.Backgrounds(), procs=2)
    assert [s.path for s in two] == [s.path for s in one]
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a.image, b.image) and np.array_equal(a.boxes, b.boxes)
    assert all(np.array_equal(a, b) for a, b in zip(hidden_one, hidden_two, strict=True))
    assert scene_cache(tmp_path / "two", 4, 951_000, wide.Backgrounds()).is_file()


def test_illegible_rendered_dice_teach_no_value_and_old_caches_are_told_apart() -> None:
    """``train_values --legible-only``: a rendered die marked illegible gives no crop labelled with its value (it
    stays among the boxes, so no negative is cut on it); a cache made before dice were judged (no marks) is
    counted, so the run can refuse it instead of silently leaving nothing out."""
    from dataclasses import replace

    from tools.dicetrain.train_values import die_views, without_legibility

    scene = replace(sample([[10, 10, 50, 50], [100, 10, 140, 50]], "wide"), illegible=np.array([True, False]))
    photo = sample([[10, 10, 50, 50]])
    assert die_views([scene, photo]) == [(0, 0), (0, 1), (1, 0)]
    assert die_views([scene, photo], legible_only=True) == [(0, 1), (1, 0)]
    old = sample([[10, 10, 50, 50]], "wide")
    assert without_legibility([scene, photo]) == 0
    assert without_legibility([scene, photo, old]) == 1


def test_the_training_samples_of_rendered_scenes_keep_the_illegible_mark() -> None:
    """``train_verifier.scene_sample`` carries ``WideScene.legible`` (as ``illegible``) for the dice it keeps."""
    from tools.dicetrain.train_verifier import scene_sample
    from tools.synth.wide import Backgrounds, render_scene

    backgrounds = Backgrounds([])
    sc = render_scene(700000, backgrounds)
    made, _ = scene_sample(700000, backgrounds)
    assert len(made.illegible) == len(made.values) == int((~sc.hidden).sum())
    assert np.array_equal(made.illegible, ~sc.legible[~sc.hidden])


def test_proposals_on_rendered_things_are_a_pool_of_negatives_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """``train_verifier --on-things``: the detector's proposals whose centre lies on a rendered thing that is not a
    die (a domino's half, a brick's studs) are drawn as negatives at the share asked for; proposals elsewhere are
    not in that pool, and without the option the batch is drawn as before."""
    from tools.dicetrain import train_verifier
    from tools.dicetrain.train_verifier import Pools, batch, proposals_on_things

    s = sample([[300, 200, 340, 240]])
    s = Sample(s.image, s.boxes, s.values, s.set_name, s.path, np.array([[100, 100, 180, 140]], np.float32))
    bare = sample([[300, 200, 340, 240]])
    on = np.array([100, 100, 140, 140], np.float32)  # a domino's left half
    off = np.array([400, 300, 440, 340], np.float32)  # the table
    pools = Pools([(0, s.boxes[0])], [(0, on), (0, off), (1, on)], [], [])
    found = proposals_on_things([s, bare], pools)
    assert [(i, b.tolist()) for i, b in found] == [(0, on.tolist())]
    cut = []
    real_crop = train_verifier.crop
    monkeypatch.setattr(
        train_verifier, "crop", lambda img, box, rng, jitter: cut.append(box) or real_crop(img, box, rng, jitter)
    )
    _, y = batch([s, bare], pools, np.random.default_rng(0), 64, [True, True], on_things=found, things_share=1.0)
    negatives = [box.tolist() for box, label in zip(cut, y.tolist(), strict=True) if label == 0]
    assert 10 < len(negatives) < 54 and all(box == on.tolist() for box in negatives)
    shares = []  # --things-for-spots: the random spots' share (0.15 of the negatives) comes from that pool instead
    for spots in (False, True):
        cut.clear()
        _, y = batch(
            [s, bare], pools, np.random.default_rng(0), 600, [True, True], on_things=found, things_for_spots=spots
        )
        negatives = [box.tolist() for box, label in zip(cut, y.tolist(), strict=True) if label == 0]
        shares.append(sum(box == on.tolist() for box in negatives) / len(negatives))
    assert 0.08 < shares[1] - shares[0] < 0.25
    monkeypatch.setattr(train_verifier, "crop", real_crop)
    a = batch([s, bare], pools, np.random.default_rng(1), 16, [True, True])
    b = batch([s, bare], pools, np.random.default_rng(1), 16, [True, True], on_things=[], things_share=0.5)
    assert np.array_equal(a[0].numpy(), b[0].numpy())


def test_a_verifier_that_knows_where_in_its_crop_exports_and_runs_as_the_shipped_one(tmp_path: Path) -> None:
    """``train_verifier --where``: the last layer sees the 3x3 cells of the crop apart (what lies at the centre and
    what beside it); the exported model takes the same crops and gives the same two columns, on both runtimes,
    and moving a pattern from the crop's centre to its edge changes its answer."""
    import torch

    from companion.vision.networks import load_net
    from tools.dicetrain.train_verifier import VerifierNet, export

    torch.manual_seed(0)
    net = VerifierNet(where=True)
    path = tmp_path / "v.onnx"
    export(net, path)
    x = np.zeros((2, 3, 48, 48), np.float32)
    x[0, :, 20:28, 20:28] = 1.0  # a bright square at the centre
    x[1, :, 2:10, 20:28] = 1.0  # the same at the top edge
    p = load_net(str(path), True).run(x)
    assert p.shape == (2, 2) and np.allclose(p.sum(axis=1), 1.0, atol=1e-5)
    assert abs(float(p[0, 1] - p[1, 1])) > 1e-4
    with torch.no_grad():
        net.export = True
        assert np.allclose(net(torch.from_numpy(x)).numpy(), p, atol=1e-4)


def test_scenes_of_dice_drawn_in_three_dimensions_are_a_pool_and_a_cache_of_their_own(tmp_path: Path) -> None:
    """``wide.Shares(solid=True)`` (``train_values --solid``, ``caches.py --solid``): the scenes are
    ``dice3d.render_scene3d``'s, samples of the pool "solid", cached under their own name."""
    from tools.dicetrain.train_verifier import scene_cache, scenes
    from tools.synth import wide
    from tools.synth.dice3d import render_scene3d

    solid, _ = scenes(tmp_path, 2, 820_000, wide.Backgrounds(), shares=wide.Shares(solid=True))
    assert [s.set_name for s in solid] == ["solid", "solid"]
    assert np.array_equal(solid[0].image, render_scene3d(820_000, wide.Backgrounds()).image)
    assert scene_cache(tmp_path, 2, 820_000, wide.Backgrounds(), wide.Shares(solid=True)).name.startswith("solid-")
    assert scene_cache(tmp_path, 2, 820_000, wide.Backgrounds()).name.startswith("wide-")
    leaning = wide.Shares(solid=True, tilt=50)
    assert scene_cache(tmp_path, 2, 820_000, wide.Backgrounds(), leaning).name.endswith("-tilt50.pkl")


def test_the_pip_counter_adds_up_what_it_sees_in_small_windows_and_exports_as_trained(tmp_path: Path) -> None:
    """``train_counter.py``: the count is the sum of a density that each cell takes from a 13 px window, so two
    spots far apart add what each adds alone (a network that looked at the whole crop would not); the exported
    model gives the same count and a die probability on both runtimes."""
    import torch

    from companion.vision.networks import load_net
    from tools.dicetrain.train_counter import CountNet, export

    torch.manual_seed(0)
    net = CountNet().eval()
    with torch.no_grad():
        net.density.bias.fill_(0.05)  # every cell counts something, so the test sees each window's share
    blank = np.zeros((1, 3, 32, 32), np.float32)
    a, b = blank.copy(), blank.copy()
    a[0, :, 6:9, 6:9] = -2.0  # the windows of the cells they reach do not overlap
    b[0, :, 23:26, 23:26] = -2.0
    both = a + b
    x = torch.from_numpy(np.concatenate([blank, a, b, both]))
    with torch.no_grad():
        c = net(x)[:, 0].numpy()
    assert abs(c[1] - c[0]) > 1e-3 and abs(c[2] - c[0]) > 1e-3
    assert c[3] - c[0] == pytest.approx((c[1] - c[0]) + (c[2] - c[0]), abs=1e-4)
    path = tmp_path / "counter.onnx"
    export(net, path)
    for classic in (False, True):
        out = load_net(str(path), classic).run(x.numpy())
        assert out.shape == (4, 2) and np.all((out[:, 1] >= 0) & (out[:, 1] <= 1))
        assert np.allclose(out[:, 0], c, atol=1e-4)


def test_the_pip_counters_rendered_dice_teach_a_blob_on_each_of_their_own_pips() -> None:
    """``train_counter.point_batch``: whatever the crop's turn, mirror and shift, the density a rendered die should
    give has mass one on each of its pips, where the crop shows them, and none elsewhere."""
    import cv2

    from tools.dicetrain.train_counter import GRID, point_batch

    img = np.full((200, 200, 3), 230, np.uint8)
    box = np.array([70.0, 70.0, 130.0, 130.0])
    pts = np.array([[85.0, 85.0], [115.0, 115.0], [100.0, 100.0]])
    for x, y in pts:
        cv2.circle(img, (int(x), int(y)), 5, (20, 20, 20), -1)
    x, y, maps = point_batch([(img, box, 3, pts)], np.random.default_rng(0), 6)
    assert y.tolist() == [3] * 6
    assert np.allclose(maps.sum(dim=(1, 2)).numpy(), 3.0, atol=1e-4)
    for crop, target in zip(x.numpy(), maps.numpy(), strict=True):
        grey = cv2.resize(crop.mean(axis=0), (GRID, GRID), interpolation=cv2.INTER_AREA)
        odd = np.abs(grey - np.median(grey)).ravel()  # the pips, dark or (colours inverted) light
        peaks = np.argsort(target.ravel())[-3:]
        assert odd[peaks].mean() > odd.mean() + 0.5  # the blobs sit on the pips


def test_a_local_contrast_classifier_sees_what_differs_from_the_face_round_it(tmp_path: Path) -> None:
    """``train_values --local``: each pixel less its neighbourhood's mean over its spread, inside the network: a
    shading across the crop and another level change nothing, more contrast only its strength; a flat crop is all
    zeros; the exported model runs on both runtimes as trained."""
    import cv2
    import onnxruntime as ort
    import torch

    from tools.dicetrain.train_values import FaceNet, LocalContrast, export

    lc = LocalContrast(3.0)
    assert torch.allclose(lc(torch.full((1, 3, 32, 32), 0.7)), torch.zeros(1, 3, 32, 32), atol=1e-4)
    x = torch.zeros(1, 3, 32, 32)
    x[:, :, 14:18, 14:18] = 1.0  # a pip
    ramp = torch.linspace(-2, 2, 32).view(1, 1, 1, 32)
    far = (slice(None), slice(None), slice(8, 24), slice(8, 24))  # the middle, away from where the padding bends
    assert torch.allclose(lc(x + 0.3 * ramp)[far], lc(x)[far], atol=1e-3)  # a linear shading is no contrast
    assert torch.allclose(lc(x + 5), lc(x), atol=1e-4)  # another level
    strong, weak = lc(3 * x)[far].flatten(), lc(x)[far].flatten()  # more contrast: the same pattern, stronger
    assert torch.corrcoef(torch.stack([strong, weak]))[0, 1] > 0.999 and strong.abs().max() > weak.abs().max()
    torch.manual_seed(0)
    net = FaceNet(local=3.0).eval()
    out = tmp_path / "local.onnx"
    export(net, out, 32)
    crops = np.random.default_rng(0).random((3, 3, 32, 32), dtype=np.float32)
    with torch.no_grad():
        want = torch.softmax(net(torch.from_numpy(crops)), 1).numpy()
    sess = ort.InferenceSession(str(out))
    assert np.allclose(sess.run(None, {sess.get_inputs()[0].name: crops})[0], want, atol=1e-5)
    dnn = cv2.dnn.readNetFromONNX(str(out))
    dnn.setInput(crops)
    assert np.allclose(dnn.forward(), want, atol=1e-5)


def test_random_convolutions_change_a_share_of_the_crops_and_keep_their_level_and_contrast() -> None:
    """``train_values --randconv``: the picked crops pass a random convolution (new colours, texture) and keep
    their own mean and spread; the others are untouched; the same generator seed gives the same batch."""
    import torch

    from tools.dicetrain.train_values import random_convolution

    x = torch.randn(64, 3, 32, 32)
    out = random_convolution(x, torch.Generator().manual_seed(3), 0.5)
    same = (out == x).flatten(1).all(dim=1)
    assert 10 < int(same.sum()) < 54  # about half untouched
    changed = ~same
    assert torch.allclose(out[changed].mean(dim=(1, 2, 3)), x[changed].mean(dim=(1, 2, 3)), atol=1e-4)
    assert torch.allclose(out[changed].std(dim=(1, 2, 3)), x[changed].std(dim=(1, 2, 3)), rtol=1e-2)
    again = random_convolution(x, torch.Generator().manual_seed(3), 0.5)
    assert torch.equal(out, again)
    assert torch.equal(random_convolution(x, torch.Generator().manual_seed(3), 0.0), x)


def test_mixstyle_mixes_the_crops_feature_statistics_in_training_only() -> None:
    """``train_values --mixstyle``: in training a crop's early features take statistics mixed with another
    crop's (so the classifier's reading changes); in evaluation and export the network is the plain one."""
    import torch

    from tools.dicetrain.train_values import FaceNet, mix_style

    f = torch.randn(8, 16, 8, 8) * torch.linspace(0.5, 3, 8).view(8, 1, 1, 1)
    torch.manual_seed(1)
    mixed = mix_style(f, torch.Generator().manual_seed(0), p=1.0, alpha=0.1)
    assert mixed.shape == f.shape and not torch.allclose(mixed, f)
    torch.manual_seed(1)
    assert torch.equal(mix_style(f, torch.Generator().manual_seed(0), p=0.0), f)
    torch.manual_seed(0)
    net = FaceNet()
    x = torch.randn(8, 3, 32, 32)
    net.eval()
    plain = net(x)
    net.mixstyle = torch.Generator().manual_seed(0)
    assert torch.equal(net(x), plain)  # evaluation: no mixing
    net.train()
    with torch.no_grad():
        trained_view = net(x)
    net.mixstyle = None
    with torch.no_grad():
        without = net(x)
    assert not torch.allclose(trained_view, without)
