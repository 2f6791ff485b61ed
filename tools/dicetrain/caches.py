"""Render the caches the detector chain of ``train.py`` reads, on several processes, before the runs start.

``train.py --wide 1500 --wide-seed 700000 --wide-blocks 0.5 --cache DIR`` renders its 1,500 appearance-wide scenes
on one core (~7 min here) and two runs started at once would both render them; ``--synthetic 240`` renders its
tray scenes into ``WORK/synthetic-240.pkl``. This writes both, the same scenes by the same seeds, the wide ones on
``--procs`` processes (~5 min on two cores), from the repository root:
    .venv/bin/python -m tools.dicetrain.caches ../shared/dice --cache /tmp/dice_verifier/all \
        --synthetic /tmp/s/synthetic-240.pkl
then link the synthetic file into each run's ``--work`` folder. The wide scenes' surfaces are the ``train`` parts'
photos with their dice painted out, as ``train.py --parts`` (no set left out) makes them; ``--leave-out SET`` as a
fold's runs make them (``train_values.py --parts --leave-out SET --wide N`` reads the same file; it draws blocks of
touching dice in ``--wide-blocks 0.12`` of its scenes, ``wide.DEFAULT_BLOCKS``); ``--spare-held-out`` as runs with
that option make them (fewer photos, so another file: without it such a run renders its own scenes first).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from tools.dicetrain.data import load, rendered, split
from tools.dicetrain.heldout_eval import held_out
from tools.dicetrain.sets import training_part
from tools.dicetrain.train_verifier import painted_out, scene_cache, scenes
from tools.synth import wide


def wide_cache(
    root: str,
    cache: Path,
    n: int,
    seed0: int,
    blocks: float,
    procs: int,
    leave_out: str | None = None,
    by_image: bool = False,
    veins: float = 0.0,
    spare_held_out: bool = False,
    solid: bool = False,
    tilt: float = wide.PLAIN.tilt,
) -> Path:
    """The file ``train_verifier.scenes`` reads for these scenes, rendered there on ``procs`` processes when
    it is not made yet; with ``leave_out``, on the surfaces of that fold's ``train`` parts (``--leave-out``); with
    ``by_image``, of ``data.split``'s training photos (the runs without ``--parts``); with ``spare_held_out``,
    without ``heldout.txt``'s photos (``--spare-held-out``, as ``sets.training_part``); ``blocks`` and ``veins``
    are ``wide``'s shares the runs set (``--wide-blocks``, ``--veins``); ``solid``: the scenes of dice drawn in three
    dimensions (``train_values --solid N --solid-seed S``: pass them as ``n``, ``seed0``), their camera leaning up
    to ``tilt`` degrees (``--solid-tilt``)."""
    blocks = wide.DEFAULT_BLOCKS if solid else blocks  # no blocks in 3D
    shares = wide.Shares(blocks=blocks, veins=veins, solid=solid, tilt=tilt)
    spare = held_out(Path(root)) if spare_held_out else []
    photos = split(root)[0] if by_image else training_part(root, leave_out, spare)
    backgrounds = wide.Backgrounds(painted_out(load(photos)))
    path = scene_cache(cache, n, seed0, backgrounds, shares)
    if not path.exists():
        scenes(cache, n, seed0, backgrounds, procs, shares)
    return path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", help="folder holding the development sets")
    ap.add_argument("--cache", default="/tmp/dice_verifier/all")
    ap.add_argument("--wide", type=int, default=1500)
    ap.add_argument("--wide-seed", type=int, default=700000)
    ap.add_argument("--wide-blocks", type=float, default=0.5)
    ap.add_argument("--synthetic", default=None, help="also write this synthetic-240.pkl (240 tray scenes)")
    ap.add_argument("--procs", type=int, default=2)
    ap.add_argument("--leave-out", default=None, help="the wide scenes of this leave-one-set-out fold's runs")
    ap.add_argument("--by-image", action="store_true", help="the wide scenes of the runs without --parts")
    ap.add_argument("--veins", type=float, default=0.0, help="as train_values --veins")
    ap.add_argument("--spare-held-out", action="store_true", help="the surfaces of runs with --spare-held-out")
    ap.add_argument("--solid", action="store_true", help="--wide N scenes of dice drawn in three dimensions")
    ap.add_argument("--solid-tilt", type=float, default=wide.PLAIN.tilt, help="as train.py --solid-tilt")
    args = ap.parse_args()
    path = wide_cache(
        args.root,
        Path(args.cache),
        args.wide,
        args.wide_seed,
        args.wide_blocks,
        args.procs,
        args.leave_out,
        args.by_image,
        args.veins,
        args.spare_held_out,
        args.solid,
        args.solid_tilt,
    )
    print(path)
    if args.synthetic:
        rendered(Path(args.synthetic), 240, 1000)
        print(args.synthetic)


if __name__ == "__main__":
    main()
