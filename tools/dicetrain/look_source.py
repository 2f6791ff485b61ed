"""The training photos' statistics the table's look adapts the face classifiers to (``companion.vision.table_look``).

For each face classifier the reader reads with (``learned.look_paths()``), each convolution's per-channel mean and
spread over the crops of the candidate spots (the detector's finds: dice and what it took for one) of photos the
classifiers trained on, and the share of those spots that are dice (a table's dice and other spots are mixed in
that share before they are compared): ``--photos`` of the development sets' ``train`` parts (``sets.parts``), drawn by
``--seed``. A table's look maps its own crops' numbers onto these. The shipped file,
``companion/vision/models/dice_faces_look.json``, was made from the repository root with
    .venv/bin/python -m tools.dicetrain.look_source ../shared/dice
(``loso.py --memory-shots`` makes a fold's own from the sets the fold trained on, ``for_fold``). Each entry names
its network file by SHA-256: a retrained classifier needs the file made again (the reader then reads it
unadapted and logs why). Offline; needs nothing the app does not have.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

from companion.vision import learned, onnx_bytes, table_look
from companion.vision.crops import die_crops
from companion.vision.dataset import load_image
from companion.vision.networks import run_outputs
from companion.vision.reader_settings import DEFAULT_SETTINGS
from tools.dicetrain.sets import ALL_SETS, parts

PHOTOS = 120  # per training set
BATCH = 128


def photos(root: str | Path, sets: list[str], n: int = PHOTOS, seed: int = 0) -> list[Path]:
    """``n`` photos of the ``train`` parts of ``sets``, drawn by ``seed``."""
    pool = [p for name in sets for p in parts(Path(root) / name)["train"]]
    random.Random(seed).shuffle(pool)
    return sorted(pool[:n])


def candidate_crops(paths: list[Path]) -> tuple[np.ndarray, float]:
    """The face classifiers' crops of every candidate spot the detector finds in ``paths``, and the share of
    them that are dice (their centre in a labelled die's box, ``table_look.centres_in``)."""
    from tools.dicetrain.loso import labels

    out, dice = [], 0
    for path in paths:
        img = load_image(path)
        boxes = np.asarray(learned.find_at_the_right_scale(img, DEFAULT_SETTINGS).boxes, np.float32).reshape(-1, 4)
        if len(boxes):
            out.append(die_crops(img, boxes))
            truth = np.array([lab.box for lab in labels(path, img.shape[1], img.shape[0])], np.float32)
            dice += int(table_look.centres_in(boxes, truth).sum())
    if not out:
        raise SystemExit("no candidate spots in those photos")
    crops = np.concatenate(out)
    return crops, dice / len(crops)


def statistics(path: Path, crops: np.ndarray) -> tuple[str, list[dict[str, list[float]]]]:
    """One classifier's file SHA-256 and each convolution's per-channel mean and spread over ``crops``."""
    net = table_look.network(path)
    names = [c.outputs[0] for c in net.convs]
    probe = onnx_bytes.with_outputs(net.data, net.info, names)
    sums: list[tuple[np.ndarray, np.ndarray, int]] = []
    for i in range(0, len(crops), BATCH):
        outs = run_outputs(probe, crops[i : i + BATCH], names)
        cur = [
            (z.astype(np.float64).sum((0, 2, 3)), (z.astype(np.float64) ** 2).sum((0, 2, 3)), z.size // z.shape[1])
            for z in outs
        ]
        sums = cur if not sums else [(a[0] + b[0], a[1] + b[1], a[2] + b[2]) for a, b in zip(sums, cur, strict=True)]
    layers = []
    for s1, s2, n in sums:
        mean = s1 / n
        std = np.sqrt(np.maximum(s2 / n - mean**2, 0.0))
        layers.append({"mean": [round(float(x), 6) for x in mean], "std": [round(float(x), 6) for x in std]})
    return net.sha256, layers


def write(networks: tuple[Path, ...], by_set: dict[str, list[Path]], out: Path) -> Path:
    """The statistics of ``networks`` over the candidates of each training set's photos (``by_set``: set name ->
    photos), written to ``out``."""
    entries: dict[str, dict[str, object]] = {p.name: {"sets": {}} for p in networks}
    for set_name, paths in by_set.items():
        crops, share = candidate_crops(paths)
        print(f"{set_name}: {len(crops)} candidate crops from {len(paths)} photos, {share:.0%} dice", file=sys.stderr)
        for path in dict.fromkeys(networks):
            sha, layers = statistics(path, crops)
            entries[path.name]["sha256"] = sha
            entries[path.name]["sets"][set_name] = {  # type: ignore[index]
                "photos": len(paths),
                "crops": len(crops),
                "die_share": round(share, 4),
                "layers": layers,
            }
    data = {"schema": table_look.SCHEMA, "networks": entries}
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    return out


def by_set(root: str | Path, sets: list[str], n: int = PHOTOS, seed: int = 0) -> dict[str, list[Path]]:
    """``n`` photos of each set's ``train`` part, drawn by ``seed``."""
    return {name: photos(root, [name], n, seed) for name in sets}


def for_fold(root: str | Path, leave_out: str, out: Path, n: int = PHOTOS, seed: int = 0) -> Path:
    """The statistics of the fold's classifiers (as ``learned`` names them now) over the sets the fold trained on."""
    return write(learned.look_paths(), by_set(root, [s for s in ALL_SETS if s != leave_out], n, seed), out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", help="folder holding the development sets")
    ap.add_argument("--sets", default=",".join(ALL_SETS))
    ap.add_argument("--photos", type=int, default=PHOTOS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=table_look.SOURCE_PATH)
    args = ap.parse_args(argv)
    out = write(learned.look_paths(), by_set(args.root, args.sets.split(","), args.photos, args.seed), args.out)
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
