"""Accuracy benchmark of calibration on synthetic tables (``companion bench``, and the figures in README).

For each of several tables (tray colour, camera tilt) the full wizard is run on renders under one lamp: markers,
empty tray, every colour face, every picture face. Then dice are rolled under drifting light (2700-6500 K, tint,
brightness, uneven light), blur and noise, and read exactly as the app reads them (the dice reader's per-die
stage over boxes found against the empty tray). Pip dice are mixed in: they must never be read as colour or
picture dice. The renderer lives in ``tests/synth`` (a source checkout is needed).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from calibration.wizard import Wizard

_ROOT = Path(__file__).resolve().parent.parent


def synthetic_renderer() -> Any:
    """The synthetic dice renderer module (``tests/synth/dice_render.py``); ImportError outside a checkout."""
    if str(_ROOT) not in sys.path and (_ROOT / "tests" / "synth").is_dir():
        sys.path.insert(0, str(_ROOT))
    from tests.synth import dice_render

    return dice_render


def calibrate_synthetic(table: Any, rng: np.random.Generator, light: Any = None, per_face: int = 3) -> Wizard:
    """Run the wizard's capture steps on renders of ``table`` under ``light`` (one lamp, small noise)."""
    r = synthetic_renderer()
    light = light or r.Light(4500.0)
    wizard = Wizard("synthetic", table.size, captures_per_face=per_face)
    empty = r.render(table, [], light, noise=2.0, seed=int(rng.integers(1 << 30))).image
    wizard.check_camera(empty)
    message = wizard.find_markers(empty)
    if wizard.profile.tray is None:
        raise RuntimeError(message)
    wizard.capture_empty(empty)
    for kind, faces, count in (("colour", r.COLOUR_REFLECTANCE, 3), ("picture", r.PICTURE_FACES, 1)):
        task = wizard.task(kind)
        while (face := task.current) is not None:
            dice = r.place_dice(rng, table, [(kind, face)] * count, size=42)
            frame = r.render(table, dice, light, blur=0.6, noise=2.0, seed=int(rng.integers(1 << 30))).image
            result = wizard.capture_face(kind, frame)
            if not result.ok:
                raise RuntimeError(f"synthetic capture failed: {result.message}")
        del faces
        wizard.fit(kind)
    return wizard


def bench_calibration(tables: int = 5, rolls: int = 20, seed: int = 7) -> dict[str, Any]:
    """Accuracy of colour and picture reading on synthetic renders under drifting light (see module docstring)."""
    try:
        r = synthetic_renderer()
    except ImportError:
        return {"skipped": "the synthetic renderer (tests/synth) is not available: run from a source checkout"}
    rng = np.random.default_rng(seed)
    counts = {k: {"dice": 0, "right": 0, "wrong": 0, "unknown": 0, "missed": 0} for k in ("colour", "picture")}
    pips = {"dice": 0, "misread_as_colour_or_picture": 0}
    confusions: dict[str, int] = {}
    read_ms: list[float] = []
    trays = list(r.TRAY_COLOURS)
    for t in range(tables):
        table = r.make_table(seed + t, tray=trays[t % len(trays)], perspective=0.05)
        wizard = calibrate_synthetic(table, rng)
        kinds = wizard.reader()
        for i in range(rolls):
            faces: list[tuple[str, str | int]] = [("colour", str(c)) for c in rng.choice(list(r.COLOUR_REFLECTANCE), 2)]
            faces += [("picture", str(rng.choice(r.PICTURE_FACES))), ("pips", int(rng.integers(1, 7)))]
            dice = r.place_dice(rng, table, faces, size=42)
            light = r.random_light(rng)
            shot = r.render(
                table,
                dice,
                light,
                blur=float(rng.uniform(0, 1.5)),
                noise=float(rng.uniform(0, 6)),
                seed=seed * 1000 + i,
            )
            start = time.perf_counter()
            reads = kinds.read(shot.image)
            read_ms.append((time.perf_counter() - start) * 1000)
            for truth in shot.dice:
                cx, cy = (truth.box[0] + truth.box[2]) / 2, (truth.box[1] + truth.box[3]) / 2
                hit = [k for box, k in reads if box[0] <= cx <= box[2] and box[1] <= cy <= box[3]]
                if truth.kind == "pips":
                    pips["dice"] += 1
                    if hit and hit[0].kind in ("colour", "picture"):
                        pips["misread_as_colour_or_picture"] += 1
                    continue
                c = counts[truth.kind]
                c["dice"] += 1
                if not hit:
                    c["missed"] += 1
                elif hit[0].kind == truth.kind and hit[0].face == truth.face:
                    c["right"] += 1
                elif hit[0].face is None:
                    c["unknown"] += 1
                else:
                    c["wrong"] += 1
                    key = f"{truth.face}->{hit[0].face}"
                    confusions[key] = confusions.get(key, 0) + 1
    result: dict[str, Any] = {"tables": tables, "rolls_per_table": rolls}
    for kind, c in counts.items():
        result[kind] = dict(c, accuracy=round(c["right"] / c["dice"], 4) if c["dice"] else None)
    result["pips"] = pips
    result["confusions"] = confusions
    result["read_ms_median"] = round(float(np.median(read_ms)), 2) if read_ms else None
    return result


if __name__ == "__main__":
    import json

    print(json.dumps(bench_calibration(), indent=1))
