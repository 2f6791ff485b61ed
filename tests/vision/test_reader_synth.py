"""The reader on synthetic renders of the hard cases: every value, light and dark dice, marbled and translucent dice,
coloured pips, touching dice, a tray wall, glare, a hand in frame, shadows. Expected values come from the render's
truth."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from scenes import BLACK, BLUE, IVORY, RED, WHITE, add_glare, add_hand, add_shadow, add_wall, scene

from companion.vision.detections import Detections
from companion.vision.pipeline import FLAG_BELOW, VisionProfile, read_dice, to_roll


def sure(det: Detections) -> Detections:
    return det[det.confidences >= FLAG_BELOW]


def read_as(img: np.ndarray, dice: list[tuple[int, float, float]]) -> None:
    """Every die read right (the reading whose centre is nearest the die's), and no other sure reading."""
    det = read_dice(img)
    confident = sure(det)
    centres = confident.centres
    got = {}
    for value, x, y in dice:
        assert len(confident), f"nothing read, expected {value} at ({x}, {y})"
        d = np.hypot(centres[:, 0] - x, centres[:, 1] - y)
        i = int(np.argmin(d))
        assert d[i] < 12, f"no die found near ({x}, {y}) (expected {value})"
        got[(x, y)] = int(confident.values[i])
    assert got == {(x, y): v for v, x, y in dice}
    assert len(confident) == len(dice), f"extra dice: {confident.values.tolist()} at {centres.astype(int).tolist()}"


ALL = [(v, 90 + 80 * v, 240) for v in range(1, 7)]
GOLD = (0.95, 0.75, 0.2)


@pytest.mark.parametrize(
    ("body", "tray"),
    [(WHITE, "green felt"), (BLACK, "brown wood"), (RED, "grey board"), (BLUE, "black felt"), (IVORY, "purple felt")],
)
def test_every_value_on_light_and_dark_dice(body: tuple[float, float, float], tray: str) -> None:
    read_as(scene(ALL, body=body, tray=tray, angle=20).image, ALL)


@pytest.mark.parametrize(
    ("body", "tray", "size", "angle"),
    [
        (WHITE, "white paper", 30, 25),  # white on white: the detector boxes some dice by their pips alone
        (WHITE, "white paper", 60, 40),
        (IVORY, "light wood", 44, 20),
        (BLACK, "white paper", 36, 10),
        (RED, "light grey", 44, 30),
    ],
)
def test_every_value_on_a_light_table(body: tuple[float, float, float], tray: str, size: float, angle: float) -> None:
    for seed in (1, 2):
        read_as(scene(ALL, body=body, tray=tray, size=size, angle=angle, seed=seed).image, ALL)


@pytest.mark.parametrize(
    ("body", "tray", "style"),
    [
        (WHITE, "green felt", {"big_one": 2.2, "accent": (0.6, 0.03, 0.03)}),  # Chinese dice: big red 1, red 4
        (IVORY, "brown wood", {"big_one": 2.0}),  # a big black 1
        (WHITE, "black felt", {"pip_size": 0.065, "pip_spread": 0.27}),  # small pips out by the corners
        (BLACK, "purple felt", {"pip_size": 0.11, "pip_spread": 0.26}),  # big pips
        (RED, "grey board", {"pip_size": 0.07, "pip_spread": 0.2}),  # a tight layout
    ],
)
def test_every_value_with_other_pip_layouts(body: tuple[float, float, float], tray: str, style: dict[str, Any]) -> None:
    # dice makers lay pips out differently; before training on such dice (``train_values --styles``) every big 1
    # was called "no die"
    for seed in (1, 2):
        read_as(scene(ALL, body=body, tray=tray, angle=25, size=28 + 12 * seed, seed=seed, style=style).image, ALL)


@pytest.mark.parametrize(
    ("body", "tray", "side"),
    [
        (WHITE, "brown wood", (6, 0.45, 0.7)),  # a 6's rows squashed together, as in an angled webcam shot
        (WHITE, "green felt", (5, 0.35, 0.85)),
        (IVORY, "black felt", (4, 0.55, 0.6)),
        (RED, "grey board", (3, 0.3, 0.75)),
    ],
)
def test_a_side_face_in_view_is_not_read(
    body: tuple[float, float, float], tray: str, side: tuple[int, float, float]
) -> None:
    # a camera at an angle sees a side of each die beside its top face: only the top faces are dice to read
    spread = [(v, 90 + 80 * v, 150 + 60 * (v % 2)) for v in range(1, 7)]
    for seed in (1, 2):
        read_as(
            scene(spread, body=body, tray=tray, angle=15 + 30 * seed, size=40, seed=seed, style={"side": side}).image,
            spread,
        )


@pytest.mark.parametrize(
    ("body", "marble", "ink", "tray"),
    [
        (RED, (0.3, 0.02, 0.03), IVORY, "green felt"),  # dark red veins, cream pips
        (IVORY, (0.9, 0.6, 0.2), (0.05, 0.05, 0.3), "purple felt"),  # pearl with orange veins, dark blue pips
        (WHITE, (0.35, 0.4, 0.55), BLACK, "black felt"),  # white with grey-blue swirls, black pips
    ],
)
def test_every_value_on_marbled_dice(
    body: tuple[float, float, float], marble: tuple[float, float, float], ink: tuple[float, float, float], tray: str
) -> None:
    read_as(scene(ALL, body=body, marble=marble, ink=ink, tray=tray, angle=20).image, ALL)


@pytest.mark.parametrize(
    ("body", "ink", "tray"),
    [
        ((0.1, 0.5, 0.2), WHITE, "black felt"),  # translucent green
        ((0.7, 0.1, 0.1), WHITE, "grey board"),  # translucent red
        ((0.5, 0.3, 0.6), WHITE, "brown wood"),  # translucent purple
    ],
)
def test_every_value_on_translucent_dice(
    body: tuple[float, float, float], ink: tuple[float, float, float], tray: str
) -> None:
    read_as(scene(ALL, body=body, ink=ink, opacity=0.6, tray=tray, angle=35, seed=2).image, ALL)


@pytest.mark.xfail(strict=True, reason="known limit: dark veins as big and as contrasting as the pips are misread")
def test_every_value_on_dice_with_bold_dark_veins() -> None:
    # a green die with dark green veins and gold pips, plain to the eye: the pips are the only round yellow spots;
    # the face classifiers read most of these wrong (a fine-tune with rendered marbled dice did not mend it)
    read_as(
        scene(ALL, body=(0.1, 0.45, 0.2), marble=(0.02, 0.1, 0.05), ink=GOLD, tray="black felt", angle=20).image, ALL
    )


def test_every_value_with_coloured_pips() -> None:
    gold_on_black = scene(ALL, body=BLACK, ink=GOLD, tray="green felt", angle=10).image
    read_as(gold_on_black, ALL)
    red_on_white = scene(ALL, body=WHITE, ink=(0.6, 0.03, 0.03), tray="black felt", angle=50, seed=3).image
    read_as(red_on_white, ALL)


@pytest.mark.parametrize("angle", [0, 33])
def test_every_value_rotated_and_small(angle: float) -> None:
    dice = [(v, 150 + 60 * v, 200) for v in range(1, 7)]
    read_as(scene(dice, size=26, angle=angle, seed=4).image, dice)


def test_touching_dice_in_a_block() -> None:
    dice = [(6, 200, 200), (5, 248, 200), (4, 296, 200), (3, 200, 248), (2, 248, 248), (1, 296, 248)]
    read_as(scene(dice).image, dice)


def test_touching_dark_dice_with_light_pips_at_an_angle() -> None:
    # the 2 in the block was found but flagged (44%) until unsure spots were read in four views
    dice = [(6, 200, 200), (5, 249, 209), (4, 298, 218), (3, 191, 249), (2, 240, 258), (1, 289, 267)]
    read_as(scene(dice, angle=10, body=BLACK, tray="brown wood").image, dice)


@pytest.mark.parametrize("dark_wall", [True, False])
def test_dice_next_to_a_stitched_tray_wall(dark_wall: bool) -> None:
    dice = [(5, 560, 150), (3, 560, 300), (6, 400, 200)]
    read_as(add_wall(scene(dice, body=RED).image, 590, dark=dark_wall), dice)


def test_glare_on_a_die_edge_and_on_the_felt() -> None:
    dice = [(4, 200, 200), (2, 350, 200), (6, 300, 330)]
    img = scene(dice, body=BLUE, tray="black felt").image
    read_as(add_glare(add_glare(img, (221, 200), (6, 2)), (300, 260), (12, 6)), dice)


def test_glare_hiding_a_pip_never_gives_a_sure_wrong_value() -> None:
    dice = [(4, 200, 200), (2, 350, 200)]
    img = add_glare(scene(dice, body=BLUE, tray="black felt").image, (210, 210), (7, 5))
    det = sure(read_dice(img))
    near = np.hypot(det.centres[:, 0] - 200, det.centres[:, 1] - 200) < 25
    assert all(v == 4 for v in det.values[near])  # either still a 4, or unsure, or not reported
    assert 2 in det.values[~near].tolist()


def test_a_hand_in_frame_gives_no_sure_die() -> None:
    dice = [(3, 150, 350), (5, 300, 350), (1, 450, 350)]
    read_as(add_hand(scene(dice, body=IVORY, tray="grey board").image, (330, 170)), dice)


def test_a_shadow_across_the_tray() -> None:
    dice = [(2, 150, 240), (6, 280, 240), (4, 420, 240)]
    read_as(add_shadow(scene(dice).image, 260), dice)


def test_empty_tray_reads_nothing() -> None:
    assert len(sure(read_dice(scene([]).image))) == 0


def test_tray_outline_keeps_only_dice_inside() -> None:
    dice = [(5, 150, 240), (3, 450, 240)]
    img = scene(dice).image
    det = read_dice(img, VisionProfile(tray_quad=[(300, 100), (600, 100), (600, 400), (300, 400)]))
    assert det.values.tolist() == [3]


def test_empty_tray_reference_drops_marks_that_were_already_there() -> None:
    mark = [(4, 150, 240)]  # a printed die on the tray: present in the reference too
    empty = scene(mark).image
    now = scene([*mark, (2, 450, 240)]).image
    assert sorted(read_dice(now).values.tolist()) == [2, 4]
    assert read_dice(now, VisionProfile(reference_bgr=empty)).values.tolist() == [2]


def test_large_frames_are_shrunk_and_boxes_come_back_in_frame_pixels() -> None:
    dice = [(5, 200, 200), (2, 400, 300)]
    img = scene(dice).image
    big = np.repeat(np.repeat(img, 3, axis=0), 3, axis=1)  # 1920x1440
    det = read_dice(big)
    assert sorted(det.values.tolist()) == [2, 5]
    c = det.sorted_left_to_right().centres
    assert np.allclose(c, [[600, 600], [1200, 900]], atol=15)


def test_classifier_stages_run_after_pip_reading() -> None:
    img = scene([(3, 300, 240)]).image

    def relabel(frame: np.ndarray, det: Detections) -> Detections:
        return det.replace(kinds=["colour"] * len(det), faces=["red"] * len(det))

    det = read_dice(img, VisionProfile(classifiers=(relabel,)))
    roll = to_roll(det)
    assert [(d.kind, d.face) for d in roll.dice] == [("colour", "red")]
    assert roll.faces() == []


def test_calibrated_tray_outline_straightens_a_tilted_view() -> None:
    from companion.vision.scoring import Label, Prediction, score_image, total
    from tools.synth.dice_render import DieSpec, Light, make_table, render

    scores = []
    for seed in range(4):
        rng = np.random.default_rng(seed)
        table = make_table(seed, markers=False, tray="green felt", perspective=0.22)
        specs = [
            DieSpec(
                "pips",
                int(rng.integers(1, 7)),
                (110 + 105 * (i % 5), 150 + 170 * (i // 5)),
                size=34,
                angle=float(rng.uniform(0, 90)),
            )
            for i in range(10)
        ]
        shot = render(table, specs, Light(), blur=0.7, noise=2, seed=seed, jpeg=90)
        det = read_dice(shot.image, VisionProfile(tray_quad=shot.tray_corners))
        labels = [Label(int(d.face), tuple(float(v) for v in d.box)) for d in shot.dice]  # type: ignore[arg-type]
        scores.append(score_image(labels, [Prediction(int(v), tuple(float(q) for q in b)) for b, v, _, _ in det]))  # type: ignore[arg-type]
    assert total(scores).perfect_share == 1.0, total(scores)


@pytest.mark.slow
def test_random_scenes_of_many_dice_colours_sizes_trays_and_lights() -> None:
    """A broad check that nothing was tuned to one look: random trays, dice colours, sizes (22-60 px), angles,
    light colour, blur and noise. Floors sit under the measured 96.8% (60 scenes) on these 20."""
    from companion.vision.scoring import Label, Prediction, score_image, total
    from tools.synth.dice_render import TRAY_COLOURS, DieSpec, make_table, random_light, render

    bodies = [WHITE, BLACK, RED, BLUE, IVORY, (0.05, 0.36, 0.09), (0.78, 0.66, 0.04), (0.26, 0.05, 0.42)]
    scores = []
    for seed in range(20):
        rng = np.random.default_rng(seed)
        table = make_table(seed, markers=False, tray=list(TRAY_COLOURS)[seed % 5], perspective=0.04)
        size = float(rng.uniform(22, 60))
        specs: list[DieSpec] = []
        for _ in range(int(rng.integers(2, 9))):
            for _ in range(100):
                c = (float(rng.uniform(60, 580)), float(rng.uniform(60, 420)))
                if all(np.hypot(c[0] - d.centre[0], c[1] - d.centre[1]) > size * 1.5 for d in specs):
                    break
            specs.append(
                DieSpec(
                    "pips",
                    int(rng.integers(1, 7)),
                    c,
                    size=size,
                    angle=float(rng.uniform(0, 90)),
                    body=bodies[int(rng.integers(len(bodies)))],
                )
            )
        shot = render(
            table,
            specs,
            random_light(rng, 0.7),
            blur=float(rng.uniform(0.3, 1.2)),
            noise=float(rng.uniform(1, 4)),
            seed=seed,
            jpeg=85,
        )
        labels = [Label(int(d.face), tuple(float(v) for v in d.box)) for d in shot.dice]  # type: ignore[arg-type]
        det = read_dice(shot.image)
        scores.append(score_image(labels, [Prediction(int(v), tuple(float(q) for q in b)) for b, v, _, _ in det]))  # type: ignore[arg-type]
    result = total(scores)
    assert result.accuracy >= 0.9 and result.false_rate <= 0.03, result


def test_dice_of_two_sizes_in_one_frame() -> None:
    """16 mm and 12 mm dice together (1.33x): neither size is taken for the wrong one (the reader's odd-size
    re-read only touches spots called no die)."""
    from tools.synth.dice_render import DieSpec, Light, make_table, render

    big = [(v, 60 + 90 * v, 150) for v in range(1, 7)]
    small = [(7 - v, 60 + 90 * v, 330) for v in range(1, 7)]
    bodies = [WHITE, BLACK, RED, IVORY, BLUE, WHITE]
    specs = [DieSpec("pips", v, (x, y), 48, 15.0 * v, bodies[v - 1]) for v, x, y in big]
    specs += [DieSpec("pips", v, (x, y), 36, 10.0 * v, bodies[6 - v]) for v, x, y in small]
    image = render(make_table(3, markers=False, tray="grey board"), specs, Light(), blur=0.6, noise=2.0, jpeg=90)
    read_as(image.image, big + small)


def test_a_close_up_of_big_dice() -> None:
    """Dice filling a quarter of the frame's width (a camera close over a small tray) are read whole, not pip by
    pip: the reader looks again at a smaller scale."""
    dice = [(5, 180, 240), (6, 460, 220)]
    read_as(scene(dice, size=150, angle=12).image, dice)
