"""The tool that counts where the reader loses rendered dice, by their look (tools/dicetrain/by_look.py)."""

from __future__ import annotations

from dataclasses import replace

from companion.vision.scoring import Label, Prediction
from tools.dicetrain.by_look import look_of, outcomes, tables
from tools.synth.wide import render_scene
from tools.synth.wide_dice import WideDie


def box(x: float) -> tuple[float, float, float, float]:
    return (x, 0.0, x + 20.0, 20.0)


def test_each_die_is_marked_at_the_stage_that_lost_it_or_by_its_value() -> None:
    truth = [Label(v, box(100.0 * i)) for i, v in enumerate((1, 2, 3, 4, 5))]
    found = [Prediction(1, box(100.0 * i)) for i in (1, 2, 3, 4)]  # die 0 never found
    read = [Prediction(1, box(100.0 * i)) for i in (2, 3, 4)]  # die 1 called no die
    kept = [Prediction(1, box(100.0 * i)) for i in (2, 3, 4)]
    final = [Prediction(3, box(200.0)), Prediction(6, box(300.0))]  # die 4 dropped by the last steps
    assert outcomes(truth, [found, read, kept], final) == ["detector", "classifiers", "right", "wrong", "verifier"]


def test_a_rendered_scene_keeps_each_boxs_die_and_its_look_is_grouped() -> None:
    for seed in range(8_000_000, 8_000_006):
        sc = render_scene(seed)
        assert [d.value for d in sc.dice] == sc.values.tolist()
        assert len(sc.dice) == len(sc.boxes) == len(sc.legible)
    die = WideDie(centre=(50, 50), size=24, angle=0, value=3, body=(0.03, 0.04, 0.17), ink=(0.8, 0.8, 0.84))
    look = look_of(die, True, "felt")
    assert (look["body"], look["pips"], look["size"], look["glare"]) == ("navy", "white", "20-28 px", "no glare")
    look = look_of(replace(die, glare=0.5, size=80, marble=(0.5, 0.1, 0.1)), False, "felt")
    assert (look["size"], look["glare"], look["marbled"], look["legible"]) == (
        "60+ px",
        "glare",
        "marbled",
        "illegible",
    )
    counts = tables([(look, "right"), (look, "detector")])
    assert counts["all"]["all"] == {"right": 1, "detector": 1} and counts["body"]["navy"]["detector"] == 1
