"""Data preparation for the learned reader's training (tools/dicetrain/data.py; needs no torch): the
shared colour changes, stitched rims kept off the dice, rendered scenes with colour/picture dice as negatives,
and the fixed held-out list."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tools.dicetrain import data
from tools.synth.dice_render import usual_ink

REPO = Path(__file__).resolve().parents[2]


def test_colour_changes_keep_size_and_type_and_are_seeded() -> None:
    img = np.random.default_rng(1).integers(0, 255, (48, 48, 3), dtype=np.uint8)
    a = data.colour_changes(img, np.random.default_rng(5))
    b = data.colour_changes(img, np.random.default_rng(5))
    assert a.shape == img.shape and a.dtype == np.uint8
    assert np.array_equal(a, b)  # same seed, same view
    assert any(not np.array_equal(data.colour_changes(img, np.random.default_rng(s)), img) for s in range(5))


def test_stitches_are_drawn_but_kept_off_the_dice() -> None:
    img = np.full((200, 300, 3), 90, np.uint8)
    die = np.array([[120.0, 80.0, 160.0, 120.0]], np.float32)
    out = data.add_stitches(img, die, np.random.default_rng(3))
    assert np.abs(out.astype(int) - img).max() > 40  # something was drawn
    x0, y0, x1, y1 = die[0].astype(int)
    assert np.abs(out[y0:y1, x0:x1].astype(int) - img[y0:y1, x0:x1]).max() < 20  # the die stays clean


def test_rendered_scenes_put_colour_and_picture_dice_among_the_negatives() -> None:
    scenes = data.synthetic(4, seed0=40000, repo=REPO, others=0.5, stitches=True)
    assert sum(len(s.others) for s in scenes) > 0 and sum(len(s.values) for s in scenes) > 0
    for s in scenes:
        assert s.boxes.shape == (len(s.values), 4) and s.others.shape[1] == 4
        assert set(s.values.tolist()) <= {1, 2, 3, 4, 5, 6}
    plain = data.synthetic(2, seed0=40000, repo=REPO)
    assert all(len(s.others) == 0 for s in plain)


def test_the_held_out_list_is_fixed_and_covers_both_sets() -> None:
    names = [n for n in data.HELD_OUT_FILE.read_text().splitlines() if n.strip()]
    assert len(names) == len(set(names)) == 99  # 20% of 99 felt-tray and of 396 webcam photos
    assert sum(n.startswith("felt-trays/images/") for n in names) == 20
    assert sum(n.startswith("angled-webcam/images/") for n in names) == 79


def test_close_up_views_make_the_dice_as_much_bigger_as_asked() -> None:
    img = np.full((480, 640, 3), 120, np.uint8)
    img[200:240, 300:340] = 250
    s = data.Sample(img, np.array([[300, 200, 340, 240]], np.float32), np.array([4]), "angled-webcam", Path("x.jpg"))
    for zoom in (1.0, 3.0):
        sides = []
        for seed in range(6):
            out, boxes, values = data.augment(s, np.random.default_rng(seed), 256, 512, (zoom, zoom))
            assert out.shape == (256, 256, 3)
            if len(values):  # most views are cut around the die
                sides.append(float(np.sqrt((boxes[0, 2] - boxes[0, 0]) * (boxes[0, 3] - boxes[0, 1]))))
        assert sides and np.allclose(sides, 32 * zoom, atol=1.0)  # 40 px x 512/640 x zoom


def test_wrong_exposures_burn_out_or_darken_as_a_camera_would() -> None:
    img = np.zeros((32, 32, 3), np.uint8)
    img[:, :16] = 200  # a white die body
    img[:, 16:] = 160  # a light table
    img[10:14, 4:8] = 20  # a pip
    overs = unders = 0
    for seed in range(20):
        out = data.misexpose(img, np.random.default_rng(seed))
        assert out.shape == img.shape and out.dtype == np.uint8
        if out[0, 0, 0] > 200:  # over-exposed: die and table burn out to the same white, the pip stays dark
            overs += 1
            assert out[0, 0, 0] == 255 and out[0, 20, 0] >= 160 * data.OVER[0] - 1 and out[11, 5, 0] < 60
        else:
            unders += 1
            assert 200 * data.UNDER[0] - 1 <= out[0, 0, 0] <= 200 * data.UNDER[1] + 1
    assert overs and unders  # both happen
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    plain = data.colour_changes(img, rng_a)
    assert np.array_equal(plain, data.colour_changes(img, rng_b, exposure=0.0))  # off: the same views as before
    assert rng_a.random() == rng_b.random()  # and the same random stream after


def test_colour_casts_scale_each_channel_and_clip() -> None:
    img = np.full((8, 8, 3), 200, np.uint8)
    seen = set()
    for seed in range(12):
        out = data.colour_cast(img, np.random.default_rng(seed))
        assert out.shape == img.shape and out.dtype == np.uint8
        gains = out[0, 0].astype(float) / 200
        assert np.all(gains >= data.CAST[0] - 0.01) and np.all(gains <= data.CAST[1] + 0.01)
        assert len(set(out[0, 0].tolist())) > 1  # the channels moved apart: a cast, not a brightness change
        seen.add(int(out[0, 0].argmax()))
    assert len(seen) > 1  # warm and cold casts both happen
    bright = np.full((8, 8, 3), 250, np.uint8)
    assert max(int(data.colour_cast(bright, np.random.default_rng(s)).max()) for s in range(12)) == 255  # clipped


def test_marbled_translucent_and_coloured_pip_dice_are_drawn_as_asked() -> None:
    from tools.synth.dice_render import DieSpec, Light, make_table, render

    table = make_table(3, markers=False, tray="green felt")
    blue, white, gold = (0.1, 0.2, 0.7), (0.9, 0.9, 0.9), (0.9, 0.7, 0.1)

    def face(**looks: object) -> np.ndarray:
        shot = render(table, [DieSpec("pips", 1, (320.0, 240.0), 80.0, 0.0, body=blue, **looks)], Light())
        x0, y0, x1, y1 = shot.dice[0].box
        return shot.image[y0 + 6 : y1 - 6, x0 + 6 : x1 - 6].astype(np.float64)

    plain = face()
    marbled = face(marble=white, look_seed=4)
    assert marbled.std(axis=(0, 1)).mean() > 2 * plain.std(axis=(0, 1)).mean()  # veins of a second colour
    assert not np.array_equal(marbled, face(marble=white, look_seed=5))  # the seed moves the veins
    # the single pip at the centre takes the ink colour (BGR: gold is red and green, little blue)
    pip = face(ink=gold)[30:40, 30:40].mean(axis=(0, 1))
    assert pip[2] > 2 * pip[0] and pip[1] > 2 * pip[0]
    # a translucent body lets the green felt through: less blue than the same die opaque, nearer the felt
    see_through = face(opacity=0.5)
    assert see_through[:20, :20, 0].mean() < plain[:20, :20, 0].mean() - 20


def renders_differ(seed0: int, **option: float) -> bool:
    """Two rendered scenes with an option of ``data.synthetic`` turned on differ from the same seeds without it."""
    plain = data.synthetic(2, seed0=seed0, repo=REPO, others=0.2)
    changed = data.synthetic(2, seed0=seed0, repo=REPO, others=0.2, **option)  # type: ignore[arg-type]
    return any(not np.array_equal(a.image, b.image) for a, b in zip(plain, changed, strict=True))


def test_rendered_scenes_with_looks_differ_and_keep_the_pips_readable() -> None:
    assert renders_differ(40000, looks=1.0)
    rng = np.random.default_rng(0)
    drawn = [data.die_looks(rng, (0.8, 0.8, 0.8)) for _ in range(50)]
    assert all(d for d in drawn) and {"marble", "ink", "opacity"} <= {k for d in drawn for k in d}
    for d in drawn:  # pips stand out from a light body: dark ink, a second colour lighter than the pips
        assert "ink" not in d or max(d["ink"]) <= 0.15
        assert "marble" not in d or min(d["marble"]) >= 0.2


def test_other_pip_layouts_keep_pips_apart_and_on_the_face() -> None:
    assert renders_differ(50000, styles=1.0)
    rng = np.random.default_rng(0)
    drawn = [data.pip_style(rng, (0.85, 0.85, 0.82)) for _ in range(200)]
    assert any("big_one" in d for d in drawn) and any("accent" in d for d in drawn)
    for d in drawn:
        step = d["pip_spread"] * 25 / 23  # a 6's rows: the closest pips of any face
        assert 2 * d["pip_size"] <= 0.84 * step + 1e-9  # a gap of about a fifth of a pip at least
        assert step + d["pip_size"] <= 0.45  # off the rounded corners
        assert d.get("big_one", 1.0) * d["pip_size"] <= 0.24 + 1e-9  # a big 1 still well inside the face
    on_red = [data.pip_style(rng, (0.62, 0.05, 0.05)) for _ in range(200)]
    assert not any("accent" in d for d in on_red)  # red pips would not show on a red die


def test_faint_pips_lie_between_the_body_and_the_usual_pips() -> None:
    assert renders_differ(60000, faint=1.0)
    rng = np.random.default_rng(0)
    for body, usual in (((0.85, 0.85, 0.82), 0.03), ((0.1, 0.2, 0.5), 0.85)):  # dark pips on light, light on dark
        assert usual_ink(body) == (usual,) * 3  # what the renderer draws without faint pips
        for _ in range(50):
            ink = np.array(data.faint_ink(rng, body, usual_ink(body)))
            share = (ink - np.array(body)) / (usual - np.array(body))
            assert np.allclose(share, share[0]) and data.FAINT[0] <= share[0] <= data.FAINT[1]


def test_side_faces_in_view_are_negatives_beside_their_dice() -> None:
    shots = data.synthetic(3, seed0=50000, repo=REPO, styles=1.0, sides=1.0)
    assert all(len(s.others) == len(s.boxes) for s in shots)  # every pip die shows a side, and nothing else
    for s in shots:
        for side in s.others:
            centre = (side[:2] + side[2:]) / 2
            gaps = [np.hypot(*(centre - (b[:2] + b[2:]) / 2)) / (b[2] - b[0]) for b in s.boxes]
            assert 0.3 < min(gaps) < 1.0  # right beside a die, not on it


def test_motion_blur_streaks_a_dot_along_one_line() -> None:
    img = np.full((64, 64, 3), 200, np.uint8)
    img[32, 32] = 0  # one dark pixel in the middle
    lengths = []
    for seed in range(10):
        out = data.motion_blur(img, np.random.default_rng(seed))
        assert out.shape == img.shape and out.dtype == np.uint8
        assert out.min() > 0  # smeared, so no pixel stays black
        assert abs(float(out.mean()) - float(img.mean())) < 1.0  # the light is moved, not added or lost
        dark = np.argwhere(out[:, :, 0] < 195)
        spread = max(int(np.ptp(dark[:, 0])), int(np.ptp(dark[:, 1])))
        assert 64 * data.MOTION[0] - 2 <= spread <= 64 * data.MOTION[1] + 2  # a streak as long as asked
        lengths.append(spread)
        # along one line: the darkness's second moments are far from round
        w = 200.0 - out[:, :, 0].astype(float)
        yy, xx = np.mgrid[0:64, 0:64].astype(float)
        pts = np.stack([yy.ravel(), xx.ravel()])
        evals = np.linalg.eigvalsh(np.cov(pts, aweights=w.ravel()))
        assert evals[1] > 4 * evals[0]
    assert len(set(lengths)) > 1
    rng_a, rng_b = np.random.default_rng(7), np.random.default_rng(7)
    plain = data.colour_changes(img, rng_a)
    assert np.array_equal(plain, data.colour_changes(img, rng_b, motion=0.0))  # off: the same views as before
    assert rng_a.random() == rng_b.random()
    blurred = [data.colour_changes(img, np.random.default_rng(s), motion=1.0) for s in range(4)]
    assert all(b.min() > 0 for b in blurred)  # always on at 1.0 (no other change there darkens the dot to 0)


def test_training_views_take_colour_casts_only_when_asked() -> None:
    """``augment(casts=...)`` (``train.py --casts``): a share of the views under a colour cast; without it the views
    are those drawn before the option existed (the same random draws)."""
    img = np.full((240, 320, 3), 150, np.uint8)
    img[100:140, 140:180] = 235
    s = data.Sample(img, np.array([[140, 100, 180, 140]], np.float32), np.array([2]), "felt-trays", Path("x.jpg"))
    plain = [data.augment(s, np.random.default_rng(seed), 128, 320)[0] for seed in range(4)]
    for seed, view in enumerate(plain):
        assert np.array_equal(view, data.augment(s, np.random.default_rng(seed), 128, 320, casts=0.0)[0])
    cast = [data.augment(s, np.random.default_rng(seed), 128, 320, casts=1.0)[0] for seed in range(4)]
    assert any(not np.array_equal(a, b) for a, b in zip(cast, plain, strict=True))


def drawn(die: object, blur: float = 0.0, size: tuple[int, int] = (160, 120)) -> np.ndarray:
    """One appearance-wide die drawn on a plain grey table and finished as the renderer does (shrunk from its
    supersampled drawing, gamma-encoded), optionally blurred: BGR uint8."""
    import cv2

    from tools.synth.wide import SS, draw_die

    w, h = size
    scene = np.full((h * SS, w * SS, 3), 0.3, np.float32)
    draw_die(scene, die, (0.05, 0.1, 0.4))  # type: ignore[arg-type]
    img = cv2.resize(scene, (w, h), interpolation=cv2.INTER_AREA)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    return (np.clip(img, 0, 1) ** (1 / 2.2) * 255).astype(np.uint8)


def test_a_rendered_die_is_legible_only_where_its_pips_stand_out_in_the_finished_photo() -> None:
    """Rendered dice whose value cannot be read teach the face classifiers to guess (issue #20): every pip must
    stand out from the face around it in the finished photo, not merely in the die's colours."""
    from tools.synth.wide import LEGIBLE_CONTRAST, WideDie, pip_contrast

    white, black = (0.8, 0.8, 0.78), (0.02, 0.02, 0.02)
    die = WideDie(centre=(80.0, 60.0), size=60.0, angle=30.0, value=5, body=white, ink=black)
    clear = pip_contrast(drawn(die), die)
    assert clear > 3 * LEGIBLE_CONTRAST
    # pips in the body's own colour, a marbled die's veins of the pips' colour, a heavy blur, a die so small that
    # its pips are under a pixel across: not legible
    assert pip_contrast(drawn(die_ := WideDie((80.0, 60.0), 60.0, 30.0, 5, white, white)), die_) < LEGIBLE_CONTRAST
    assert pip_contrast(drawn(die, blur=6.0), die) < LEGIBLE_CONTRAST
    tiny = WideDie((80.0, 60.0), 7.0, 30.0, 5, white, black, pip_size=0.06)
    assert pip_contrast(drawn(tiny), tiny) < LEGIBLE_CONTRAST
    # red pips on a green face of about the same grey are read by their colour
    red_on_green = WideDie((80.0, 60.0), 60.0, 0.0, 3, (0.1, 0.3, 0.05), (0.6, 0.05, 0.02))
    assert pip_contrast(drawn(red_on_green), red_on_green) > LEGIBLE_CONTRAST
    # a pip cut by the photo's edge is judged on what is in the photo; one off it is not legible
    edge = WideDie((20.0, 60.0), 60.0, 0.0, 4, white, black)
    assert pip_contrast(drawn(edge), edge) > LEGIBLE_CONTRAST
    assert pip_contrast(drawn(die), WideDie((-40.0, 60.0), 60.0, 0.0, 4, white, black)) == 0.0


def test_rendered_scenes_mark_their_illegible_dice() -> None:
    """``WideScene.legible`` per die (``train_verifier.scene_sample`` carries it: test_verifier_training.py). Glare
    streaks and marbling hide pips in some of the renders: a few dice of every hundred."""
    from tools.synth.wide import render_scene

    legible = np.concatenate([render_scene(seed).legible for seed in range(700000, 700012)])
    assert 0 < int((~legible).sum()) < len(legible) // 2


def test_samples_cached_before_a_field_was_added_load_with_its_default() -> None:
    """The training caches are pickles of ``Sample``: one made before ``others`` or ``illegible`` existed loads
    with their defaults (not an AttributeError in the middle of a training run)."""
    import pickle
    from dataclasses import replace

    old = data.Sample(np.zeros((4, 4, 3), np.uint8), np.zeros((1, 4), np.float32), np.ones(1, np.int64), "x", Path("x"))
    del old.illegible, old.others  # as pickled by an older version
    loaded = pickle.loads(pickle.dumps(old))
    assert loaded.illegible.shape == (0,) and loaded.others.shape == (0, 4)
    assert replace(loaded, set_name="y").set_name == "y"


def test_veins_in_the_pips_colour_are_drawn_only_when_asked() -> None:
    """``wide.Shares.veins``: a share of rendered dice get thin veins as dark as their pips (the felt trays' neon dice,
    whose veins a classifier counts as pips); at 0 every render stays as it was."""
    from dataclasses import replace

    from tools.synth import wide
    from tools.synth.wide import WideDie

    die = WideDie(centre=(80.0, 60.0), size=60.0, angle=0.0, value=1, body=(0.7, 0.8, 0.1), ink=(0.02, 0.02, 0.02))
    yy, xx = np.mgrid[0:120, 0:160]
    face = (np.abs(xx - 80) < 26) & (np.abs(yy - 60) < 26) & (np.hypot(xx - 80, yy - 60) > 9)  # off the 1's pip

    def dark(d: WideDie) -> int:
        return int(((drawn(d).mean(axis=2) < 80) & face).sum())

    assert dark(die) == 0 and dark(replace(die, veins=0.3)) > 10
    plain = wide.render_scene(700003)
    veined = wide.render_scene(700003, shares=wide.Shares(veins=1.0))
    assert np.array_equal(plain.boxes, veined.boxes) and not np.array_equal(plain.image, veined.image)
    assert np.array_equal(wide.render_scene(700003, shares=wide.Shares(veins=0.0)).image, plain.image)


def test_a_veined_dies_side_face_is_veined_too() -> None:
    """The side face in view below a die's top face is drawn with the die's whole look (its veins, a printed
    disc), not a plain copy of its body: every face of a real marbled die is marbled."""
    from dataclasses import replace

    from tools.synth.wide import WideDie

    die = WideDie(
        centre=(80.0, 45.0),
        size=50.0,
        angle=0.0,
        value=1,
        body=(0.7, 0.8, 0.1),
        ink=(0.02, 0.02, 0.02),
        side=(1, 0.5, 0.8),
    )
    yy, xx = np.mgrid[0:120, 0:160]
    band = (np.abs(xx - 80) < 20) & (yy > 73) & (yy < 92) & (np.hypot(xx - 80, yy - 82) > 8)  # off its 1's pip

    def dark(d: WideDie) -> int:
        return int(((drawn(d).mean(axis=2) < 120) & band).sum())

    assert dark(die) == 0 and dark(replace(die, veins=0.3)) > 10


def test_a_die_drawn_in_three_dimensions_shows_its_value_on_the_face_turned_to_the_camera() -> None:
    """``dice3d.render_die``: a white die with black pips seen straight down shows as many pips as its value
    inside its top face, whose corners are the square the cube's top projects to; opposite faces sum to 7."""
    import cv2

    from tools.synth.dice3d import REACH, face_values, render_die
    from tools.synth.wide import WideDie

    n = 190
    for value in range(1, 7):
        die = WideDie((0.0, 0.0), 50.0, 0.0, value, (0.8, 0.8, 0.78), (0.02, 0.02, 0.02), corner=0.1)
        colour, alpha, corners = render_die(die, np.eye(3), np.array([0.3, 0.3, 0.9]), n, np.random.default_rng(0))
        half = n / (2 * REACH)
        assert np.allclose(sorted(corners[:, 0]), [n / 2 - half] * 2 + [n / 2 + half] * 2, atol=0.01)
        top = (slice(int(n / 2 - half * 0.9), int(n / 2 + half * 0.9)),) * 2
        assert (alpha[top] == 1.0).all() and alpha[0, 0] == 0.0
        dark = ((colour[top].mean(axis=2) < 0.2) * 255).astype(np.uint8)
        assert cv2.connectedComponents(dark)[0] - 1 == value
        faces = face_values(value, np.random.default_rng(value))
        assert sorted(faces) == [1, 2, 3, 4, 5, 6] and faces[0] == value
        assert faces[0] + faces[1] == faces[2] + faces[3] == faces[4] + faces[5] == 7


def test_a_tilted_camera_sees_a_die_s_sides_and_sunk_pips_have_a_shaded_rim() -> None:
    """Seen 25 degrees off the vertical a die covers more than its top face (a side is in view); a sunk pip (``depth``)
    on a die of the pip's own colour is told from the face by its shading alone."""
    from tools.synth.dice3d import render_die, rotation
    from tools.synth.wide import WideDie

    n = 190
    die = WideDie((0.0, 0.0), 50.0, 0.0, 1, (0.5, 0.5, 0.5), (0.5, 0.5, 0.5), pip_size=0.15, corner=0.1)
    light = np.array([0.5, 0.0, 0.87])
    _, straight, _ = render_die(die, np.eye(3), light, n, np.random.default_rng(0))
    _, tilted, _ = render_die(die, rotation((1, 0, 0), 25), light, n, np.random.default_rng(0))
    assert tilted.sum() > straight.sum() * 1.2
    flat, _, _ = render_die(die, np.eye(3), light, n, np.random.default_rng(0))
    sunk, _, _ = render_die(die, np.eye(3), light, n, np.random.default_rng(0), depth=0.1)
    middle = (slice(n // 2 - 12, n // 2 + 12),) * 2
    assert np.ptp(flat[middle].mean(axis=2)) < 0.02 < np.ptp(sunk[middle].mean(axis=2))


def test_scenes_of_dice_in_three_dimensions_are_seeded_and_box_their_dice() -> None:
    """``dice3d.render_scene3d``: the same seed gives the same photo; every die's box is in the frame and holds its
    die's top face, and most dice have something in their box that differs from the table."""
    from tools.synth.dice3d import render_scene3d

    a, b = render_scene3d(810000, size=(320, 240)), render_scene3d(810000, size=(320, 240))
    assert np.array_equal(a.image, b.image) and np.array_equal(a.boxes, b.boxes)
    boxes = 0
    for seed in range(810000, 810008):
        sc = render_scene3d(seed, size=(320, 240))
        assert sc.image.shape == (240, 320, 3) and len(sc.values) == len(sc.boxes) == len(sc.legible) == len(sc.dice)
        assert not sc.hidden.any() and set(sc.values.tolist()) <= {1, 2, 3, 4, 5, 6}
        if len(sc.boxes):
            assert (sc.boxes[:, :2] >= 0).all() and (sc.boxes[:, 2] <= 320).all() and (sc.boxes[:, 3] <= 240).all()
            assert (sc.boxes[:, 2] > sc.boxes[:, 0]).all() and (sc.boxes[:, 3] > sc.boxes[:, 1]).all()
        boxes += len(sc.boxes)
    assert boxes >= 8


def test_how_far_a_solid_scene_s_camera_leans_is_asked_for() -> None:
    """``wide.Shares.tilt``: straight down (0) a die's top face is a turned square and its box a square (but for the
    dice that lean); with the camera leaning up to 50 degrees off the vertical the faces are foreshortened."""
    from tools.synth.dice3d import render_scene3d
    from tools.synth.wide import Shares

    def off_square(tilt: float) -> float:  # the boxes' mean |log(width / height)|
        shares = Shares(solid=True, tilt=tilt)
        boxes = np.concatenate([render_scene3d(s, size=(320, 240), shares=shares).boxes for s in range(830000, 830010)])
        return float(np.mean(np.abs(np.log((boxes[:, 2] - boxes[:, 0]) / (boxes[:, 3] - boxes[:, 1])))))

    assert off_square(0.0) < 0.006 < off_square(50.0)


def test_resized_photos_are_grown_until_their_labelled_dice_are_square() -> None:
    """``--upright-labels``: a square photo whose dice are 1.3x wider than tall is grown along its height (boxes
    and the other dice's boxes with it); a photo whose dice are square, one in a camera's own shape (a slanted
    camera, not a resize) and a rendered scene are left as they are."""
    img = np.zeros((640, 640, 3), np.uint8)
    wide = np.array([[100, 100, 152, 140], [300, 300, 352, 340], [400, 100, 452, 140]], np.float32)
    square = np.array([[100, 100, 140, 140], [300, 300, 340, 340]], np.float32)
    others = np.array([[10, 10, 36, 30]], np.float32)
    stretched = data.Sample(img, wide, np.array([2, 5, 6]), "felt-trays", Path("a.jpg"), others)
    out = data.upright_by_labels(
        [
            stretched,
            data.Sample(img, square, np.array([3, 4]), "felt-trays", Path("b.jpg")),
            data.Sample(img[:480], wide, np.array([2, 5, 6]), "angled-webcam", Path("c.jpg")),
            data.Sample(img, wide, np.array([2, 5, 6]), "synthetic", Path("d")),
        ]
    )
    grown = out[0]
    assert grown.image.shape == (832, 640, 3) and abs(grown.grown - 1.3) < 1e-6  # 640 x 1.3
    sizes = grown.boxes[:, 2:] - grown.boxes[:, :2]
    assert np.allclose(sizes[:, 0], sizes[:, 1])
    assert np.allclose(grown.others, others * np.array([1, 1.3, 1, 1.3], np.float32))
    assert [s.image.shape for s in out[1:]] == [(640, 640, 3), (480, 640, 3), (640, 640, 3)]
    assert not np.any(out[2].boxes - wide) and not np.any(out[3].boxes - wide) and out[1].grown == 1.0
    # a training view shows the grown photo's dice as big as the reader's first look does (long_side x the growth)
    rng = np.random.default_rng(0)
    _, plain, _ = data.augment(stretched, rng, crop=1024, long_side=512, zoom=(1.0, 1.0))
    _, up, _ = data.augment(grown, np.random.default_rng(0), crop=1024, long_side=512, zoom=(1.0, 1.0))
    plain_w, up_w = (plain[:, 2:] - plain[:, :2]).max(axis=1), (up[:, 2:] - up[:, :2]).max(axis=1)
    assert len(plain_w) and len(up_w) and abs(np.log(np.median(up_w) / np.median(plain_w))) < 0.2
    tall = data.upright_by_labels(
        [data.Sample(img, wide[:, [1, 0, 3, 2]], np.array([2, 5, 6]), "grey-mixed", Path("e"))]
    )
    assert tall[0].image.shape == (640, 832, 3)
