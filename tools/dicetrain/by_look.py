"""Where the reader loses rendered dice, by the die's look: the appearance-wide validation renders
(``tools/synth/wide.py``, the seeds ``loso.score_renders`` uses) read by the shipped reader, each visible die
marked right, wrong (another value), or lost at the stage that dropped it (the detector's finds, the face
classifiers' dice, the verifier and the last steps), then counted by body colour, pip colour, size, glare,
marbling, translucency, a side face in view, legibility (``wide_dice.pip_contrast``) and surface.

    .venv/bin/python -m tools.dicetrain.by_look --renders 400

Offline only (no PyTorch needed). Figures: docs/dice-reader.md, "2026-12-06, ninth session".
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Sequence

import numpy as np

from companion.vision import learned, verifier
from companion.vision.dataset import predictions
from companion.vision.detections import Detections
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings
from companion.vision.scoring import Label, Prediction, match
from tools.dicetrain.loso import RENDER_SEED, render_labels
from tools.synth.wide import WideScene, render_scene
from tools.synth.wide_dice import BODIES, INKS, WideDie

STAGES = ("detector", "classifiers", "verifier")  # where a die can be lost, in the reader's order
OUTCOMES = ("right", "wrong", *STAGES)
SIZES = (20, 28, 40, 60)  # die side (px in the render) bounds of the size groups


def as_found(det: Detections) -> list[Prediction]:
    """A stage's dice as predictions to match against the labels (by box; the value does not matter here)."""
    return [Prediction(1, (float(b[0]), float(b[1]), float(b[2]), float(b[3]))) for b in det.boxes]


def outcomes(truth: Sequence[Label], stages: Sequence[Sequence[Prediction]], final: Sequence[Prediction]) -> list[str]:
    """Per labelled die, the first of ``STAGES`` whose dice (``stages``, in that order) do not hold it, else
    "right" or "wrong" by the value of the final reading that holds it; a die the last steps drop after the
    verifier kept it counts as the verifier's (``learned.last_steps`` ends the verifier's work)."""
    held = [dict(match(truth, s)) for s in stages]
    last = dict(match(truth, final))
    out = []
    for j, lab in enumerate(truth):
        lost = next((name for name, h in zip(STAGES, held, strict=True) if j not in h), None)
        if lost is None and j not in last:
            lost = STAGES[-1]
        out.append(lost or ("right" if final[last[j]].value == lab.value else "wrong"))
    return out


def nearest(colour: Sequence[float], palette: Sequence[tuple[str, tuple[float, float, float]]]) -> str:
    """The name of the palette colour (RGB, 0-1) nearest ``colour``."""
    c = np.asarray(colour, np.float32)
    return min(palette, key=lambda p: float(np.sum((np.asarray(p[1], np.float32) - c) ** 2)))[0]


def size_group(side: float) -> str:
    """The size group (``SIZES``' bounds) of a die ``side`` px across."""
    lo = max(b for b in (0, *SIZES) if b <= side)
    hi = next((b for b in SIZES if b > side), None)
    return f"{lo}+ px" if hi is None else f"{lo}-{hi} px"


def look_of(d: WideDie, legible: bool, surface: str) -> dict[str, str]:
    """The groups one rendered die falls in."""
    return {
        "body": nearest(d.body, [(n, c) for n, c, _ in BODIES]),
        "pips": nearest(d.ink, INKS),
        "size": size_group(d.size),
        "glare": "glare" if d.glare > 0 else "no glare",
        "marbled": "marbled" if d.marble is not None else "plain",
        "translucent": "translucent" if d.opacity < 1 else "opaque",
        "side face": "side face in view" if d.side is not None else "top face only",
        "legible": "legible" if legible else "illegible",
        "surface": surface,
    }


def read_scene(sc: WideScene, settings: ReaderSettings = DEFAULT_SETTINGS) -> list[tuple[dict[str, str], str]]:
    """Each visible die of a render: its groups and its outcome (``outcomes``) by the reader at ``settings``."""
    visible = np.flatnonzero(~sc.hidden)
    truth = render_labels(sc)
    found = learned.find_at_the_right_scale(sc.image, settings)
    read = learned.read_found(sc.image, found, settings)
    kept = verifier.verify(sc.image, read, settings) if settings.verify and len(read) else read
    final = predictions(learned.last_steps(kept, settings))
    got = outcomes(truth, [as_found(found), as_found(read), as_found(kept)], final)
    return [(look_of(sc.dice[i], bool(sc.legible[i]), sc.surface), o) for i, o in zip(visible, got, strict=True)]


def tables(rows: Sequence[tuple[dict[str, str], str]]) -> dict[str, dict[str, Counter[str]]]:
    """Per kind of group (body, pips, ...), per group, how many dice had each outcome."""
    out: dict[str, dict[str, Counter[str]]] = defaultdict(lambda: defaultdict(Counter))
    for look, outcome in rows:
        out["all"]["all"][outcome] += 1
        for kind, group in look.items():
            out[kind][group][outcome] += 1
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--renders", type=int, default=400, help="how many validation renders")
    ap.add_argument("--seed", type=int, default=RENDER_SEED, help="the first render's seed")
    args = ap.parse_args(argv)
    rows = []
    for k in range(args.renders):
        rows += read_scene(render_scene(args.seed + k))
        if k % 50 == 49:
            print(f"{k + 1} renders, {len(rows)} dice", flush=True)
    print(f"{'group':26} {'dice':>6} " + " ".join(f"{o:>11}" for o in OUTCOMES))
    for kind, groups in tables(rows).items():
        print(f"-- {kind}")
        for group, counts in sorted(groups.items(), key=lambda g: -sum(g[1].values())):
            n = sum(counts.values())
            print(f"{group:26} {n:6} " + " ".join(f"{100 * counts[o] / n:10.1f}%" for o in OUTCOMES))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
