"""Leave-one-set-out figures for the dice reader (issue #20), scored exactly as ``companion dice eval``.

For each fold (a development set left out, and ``all``: the shipped models, reported on every set's ``test``
part) the reader is run on the fold's ``val`` images (the other sets' validation parts: for choosing thresholds)
and ``report`` images (the left-out set: never used to choose anything), with that fold's verifiers
(``--models DIR``: every ``DIR/<set>/dice_verifier*.onnx``, ``DIR/all/dice_verifier*.onnx``, their mean deciding as
in the reader, ``verifier.MODEL_PATHS``; trained by ``train_verifier.py --leave-out``) at each of
``--thresholds``, and without a verifier. Parts are by sequence
(``sets.py``). ``--corrections FILE`` also scores against the labels as corrected there (``corrections.py``).

The detector and the face classifiers are the shipped ones unless ``--fold-models DIR`` holds a fold's own
(``DIR/<set>/dice_centernet.onnx``, ``DIR/<set>/dice_faces.onnx``: ``train.py`` / ``train_values.py --parts
--leave-out SET``; that classifier also stands in for the second pair and the layout pair) or partners of its own
for the shipped networks that never saw the set (``DIR/<set>/dice_centernet_2.onnx``, the detector pair's second;
``DIR/<set>/dice_faces_2.onnx`` and ``dice_faces_stitched_2.onnx``, the classifiers' partners: ``fold_partners``),
or ``--detector`` /
``--faces`` name others for every fold; with the shipped ones only the ``grey-mixed`` fold is leave-one-set-out
for the whole reader (they were trained on 80 % of felt-trays and angled-webcam, chosen by image).

The parts with rendered things on the tables (``val+clutter``, ``report+clutter``) and ``--renders`` also say
what the false dice lay on ("false dice on: domino 37, elsewhere 40, ...": the kind of the rendered thing under
each false die's centre, ``false_on``), so a change to the reader can be judged by the kinds of things it keeps.
``--steps`` also says where the missed dice were lost ("missed dice lost at: never found 91, no die 329, ...":
the first of the reader's steps, detector, face classifiers, verifier, last steps, that kept no box on the die,
``lost_at_step``), so a fold's losses can be put down to the network that makes them.
``--memory-shots N`` reads a fold with what a family's first N checked rolls teach the reader: the dice memory and
the table's look where ``--set look=1`` (``memory_from_shots``; ``--set memory_min=100000`` leaves the memory's
vote out).

Usage, from the repository root:
    .venv/bin/python -m tools.dicetrain.loso ../shared/dice --models /tmp/verifier [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.vision import detector, learned, networks, verifier
from companion.vision.dataset import load_image, predictions
from companion.vision.detections import Detections
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings
from companion.vision.scoring import ImageScore, Label, Prediction, match, read_yolo_labels, score_image, total
from companion.vision.upright import mapped_back
from tools.dicetrain.data import matches
from tools.dicetrain.sets import ALL_SETS, fold

if TYPE_CHECKING:
    from companion.vision.dice_memory import DiceMemory
    from tools.synth.wide import WideScene


def labels(path: Path, w: int, h: int, corrections: dict[str, dict[int, int | None]] | None = None) -> list[Label]:
    """The image's labels, corrected where ``corrections`` (image key -> {label index: value or None}) says; the
    dice its labels left out (``corrections.ImageFix.missing``: value and pixel box) are added."""
    lab = path.parent.parent / "labels" / (path.stem + ".txt")
    out = read_yolo_labels(lab, w, h) if lab.exists() else []
    fix = (corrections or {}).get(f"{path.parent.parent.name}/{path.name}")
    missing = getattr(fix, "missing", [])
    if not fix and not missing:
        return out
    fixed = []
    for i, lb in enumerate(out):
        if fix and i in fix:
            if fix[i] is not None:
                fixed.append(Label(int(fix[i]), lb.box))  # type: ignore[arg-type]
        else:
            fixed.append(lb)
    return fixed + [Label(int(v), box) for v, box in missing]


CLUTTER_SEED = 9_000_000
FLAG_BELOW = 0.6  # the dice screen's default dice.min_confidence: a die read less surely is drawn to be checked


def warnings(truth: list[Label], det: Detections, preds: list[Prediction]) -> tuple[int, int]:
    """The reading's mistakes the player is not warned of (dice read with a wrong value or where no die is, that
    are neither flagged by a stage, ``det.flagged``, nor read under ``FLAG_BELOW``) and its right dice the player
    is asked to check all the same (flagged, or read under ``FLAG_BELOW``): what flagging more costs at the table.
    ``preds`` is ``predictions(det)`` (its dice in the order of ``det``'s pip dice)."""
    pips = [i for i, k in enumerate(det.kinds) if k == "pips" and det.values[i]]
    warned = [bool(det.flagged[i]) or float(det.confidences[i]) < FLAG_BELOW for i in pips]
    pairs = dict((pi, li) for li, pi in match(truth, preds))
    right = [pi in pairs and truth[pairs[pi]].value == p.value for pi, p in enumerate(preds)]
    return (
        sum(1 for pi in range(len(preds)) if not warned[pi] and not right[pi]),
        sum(1 for pi in range(len(preds)) if warned[pi] and right[pi]),
    )


class Scored(list[ImageScore]):
    """A part's image scores, how many of the reader's mistakes went unflagged over them and how many right dice
    were flagged (``asked``), where things that are not dice were put on the tables, what the false dice lay
    on (``false_on``: a thing's kind, or ``ELSEWHERE``), and, where the reader's steps were kept, at which step
    each missed die was lost (``lost_at``, ``lost_at_step``)."""

    unwarned: int = 0
    asked: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.false_on: Counter[str] = Counter()
        self.lost_at: Counter[str] = Counter()


Things = tuple[np.ndarray, list[str]]  # boxes (N, 4) in pixels and the kind of each


ELSEWHERE = "elsewhere"  # a false die on no rendered thing: the table, a die's side, a labelled die read twice


Steps = list[tuple[str, Detections]]  # the reader's steps before the last one, in order: (step name, what it kept)


def tally(
    out: dict[str, Scored],
    key: str,
    truth: list[Label],
    det: Detections,
    things: Things | None = None,
    steps: Steps | None = None,
) -> None:
    """Score one reading against ``truth`` into ``out[key]``; with ``things`` (the boxes and kinds of the things
    that are not dice on the table), count each false die under the kind of thing its centre lies on; with
    ``steps``, count each missed die under the step that lost it (``lost_at_step``)."""
    preds = predictions(det)
    scored = out.setdefault(key, Scored())
    if steps is not None:
        scored.lost_at.update(lost_at_step(truth, preds, [*steps, (LAST_STEPS, det)]))
    scored.append(score_image(truth, preds))
    missed_warnings, asked = warnings(truth, det, preds)
    scored.unwarned += missed_warnings
    scored.asked += asked
    if things is not None:
        scored.false_on.update(false_on(truth, preds, things))


NEVER_FOUND = "never found"  # lost_at_step's names of the reader's steps (``score``)
NO_DIE = "no die"
VERIFIER = "verifier"
LAST_STEPS = "last steps"
NOT_MATCHED = "not matched"  # a box kept at the die, but not one ``match`` pairs with it (too far off, or taken)


def lost_at_step(truth: list[Label], preds: list[Prediction], steps: Steps) -> list[str]:
    """Per label that ``match`` pairs with no prediction (a missed die), the first of the reader's ``steps`` none
    of whose boxes has its centre in the label's box (grown as ``match`` grows it, ``data.matches``): the step
    that lost the die; ``NOT_MATCHED`` where every step kept one there."""
    paired = {li for li, _ in match(truth, preds)}
    missed = [li for li in range(len(truth)) if li not in paired]
    if not missed:
        return []
    labs = np.array([lab.box for lab in truth], np.float32)
    held = [(name, [matches(np.asarray(b, np.float32), labs) for b in kept.boxes]) for name, kept in steps]
    kept_at = [(name, np.any(hits, axis=0) if hits else np.zeros(len(truth), bool)) for name, hits in held]
    return [next((name for name, at_die in kept_at if not at_die[li]), NOT_MATCHED) for li in missed]


def false_on(truth: list[Label], preds: list[Prediction], things: Things) -> list[str]:
    """Per false die (a prediction ``match`` pairs with no label), the kind of the thing whose box holds its
    centre (the smallest, where boxes overlap), else ``ELSEWHERE``."""
    boxes, kinds = things
    areas = np.prod(boxes[:, 2:] - boxes[:, :2], axis=1)
    paired = {p for _, p in match(truth, preds)}
    out = []
    for i, p in enumerate(preds):
        if i in paired:
            continue
        inside = np.flatnonzero(matches(np.asarray(p.box, np.float32), boxes, 1.0))
        out.append(kinds[inside[np.argmin(areas[inside])]] if len(inside) else ELSEWHERE)
    return out


def cluttered(img: np.ndarray, truth: list[Label], seed: int) -> tuple[np.ndarray, Things]:
    """The photo with 6-14 rendered things that are not dice put on its table away from the labelled dice
    (``wide.clutter_photo``): real dice on a real table with other things about; and the things (boxes, kinds)."""
    from tools.synth.wide import clutter_photo

    boxes = np.array([b.box for b in truth], np.float32).reshape(-1, 4)
    img, thing_boxes, kinds = clutter_photo(img, boxes, seed)
    return img, (thing_boxes, kinds)


def at(threshold: float, settings: ReaderSettings = DEFAULT_SETTINGS) -> ReaderSettings:
    """The reader's ``settings`` with the verifier's threshold at ``threshold``."""
    return replace(settings, verify_threshold=threshold)


def with_changes(settings: ReaderSettings, changes: list[str]) -> ReaderSettings:
    """``settings`` with ``NAME=VALUE`` changes (a number field takes a number, a flag true/false): the figures
    of a knob's other value, e.g. ``doubt_confidence=0`` for the reader without ``verifier.drop_doubtful``'s
    first rule."""
    fields: dict[str, object] = {}
    for change in changes:
        name, _, value = change.partition("=")
        if not hasattr(settings, name) or not value:
            raise SystemExit(f"--set {change}: not NAME=VALUE with NAME a ReaderSettings field")
        old = getattr(settings, name)
        try:
            fields[name] = value.lower() in ("1", "true", "yes") if isinstance(old, bool) else type(old)(float(value))
        except (TypeError, ValueError):
            raise SystemExit(f"--set {change}: {name} takes {type(old).__name__}, not {value!r}") from None
    return replace(settings, **fields)


def score(
    paths: list[Path],
    thresholds: list[float | None],
    model: tuple[Path, ...] | None,
    corrections: dict[str, dict[int, int | None]] | None = None,
    clutter: bool = False,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    steps: bool = False,
    memory: DiceMemory | None = None,
) -> dict[str, Scored]:
    """Per threshold (None: no verifier), each image's score (and with ``corrections``, ``"<t> corrected"``);
    with ``clutter``, of each photo with things that are not dice put on its table (``cluttered``). Read with the
    reader's ``settings`` (``--set`` changes some). With ``steps``, also where each missed die was lost
    (``Scored.lost_at``: the detector's finds, the classifiers', the verifier's, the last steps'). ``memory``: the
    table's remembered dice the classifiers' readings are mixed with (``memory_from_shots``)."""
    out: dict[str, Scored] = {}
    for k, path in enumerate(paths):
        img = load_image(path)
        h, w = img.shape[:2]
        truth = labels(path, w, h)
        things = None
        if clutter:
            img, things = cluttered(img, truth, CLUTTER_SEED + k)
        fixed = labels(path, w, h, corrections) if corrections else None
        (read, s, up, _), found, cands = learned.read_upright(img, settings, memory)  # as learned.read_dice_learned
        for t in thresholds:
            kept = cands if t is None or model is None else verifier.verify(read, cands, at(t, s), model)
            det = mapped_back(up, learned.last_steps(kept, s), (h, w))
            key = "none" if t is None else f"{t:g}"
            seen: Steps | None = None
            if steps:
                seen = [(NEVER_FOUND, mapped_back(up, found, (h, w))), (NO_DIE, mapped_back(up, cands, (h, w)))]
                seen += [(VERIFIER, mapped_back(up, kept, (h, w)))] if kept is not cands else []
            tally(out, key, truth, det, things, seen)
            if fixed is not None:
                tally(out, f"{key} corrected", fixed, det, things, seen)
    return out


SHOT_CLUTTER_SEED = 50_000  # the checked photos' things (``memory_from_shots``), apart from CLUTTER_SEED's


def checked(
    truth: list[Label], det: Detections, careless: bool = False
) -> tuple[list[tuple[float, float, float, float]], list[int]]:
    """What a player who checks a reading tells the dice screen (and its memory learns): each die read, with the
    value it truly shows (right, or corrected), each read spot that is no die with 0 ("not a die"), and each die
    missed, added where it lies (its labelled box). A ``careless`` player looks only at the dice drawn to be
    checked (flagged, or read under ``FLAG_BELOW``): a wrong face or a false die that is not is used as read."""
    preds = predictions(det)
    pairs = dict((pi, li) for li, pi in match(truth, preds))
    pips = [i for i, k in enumerate(det.kinds) if k == "pips" and det.values[i]]
    looked = [bool(det.flagged[i]) or float(det.confidences[i]) < FLAG_BELOW or not careless for i in pips]
    boxes = [p.box for p in preds]
    values = [(truth[pairs[i]].value if i in pairs else 0) if looked[i] else preds[i].value for i in range(len(preds))]
    taken = set(pairs.values())
    for li, lab in enumerate(truth):
        if li not in taken:
            boxes.append(lab.box)
            values.append(lab.value)
    return boxes, values


_SCRATCH: list[Any] = []  # the features networks' folders, kept until the run ends


def memory_from_shots(
    root: str | Path,
    leave_out: str,
    n: int,
    seed: int,
    model: tuple[Path, ...] | None,
    settings: ReaderSettings = DEFAULT_SETTINGS,
    careless: bool = False,
    clutter: bool = False,
    fold: bool = True,
) -> tuple[DiceMemory, list[Path]]:
    """The memory a family's first ``n`` checked rolls leave (``--memory-shots``): ``n`` photos of the left-out
    set's ``train`` part (``sets.few_shots``, drawn by ``seed``) read one after the other as the reader reads
    them, with the memory so far, and checked as a player would (``checked``); and those photos, which the fold
    is then not reported on (``careless``: by a player who looks only at the dice drawn to be checked;
    ``clutter``: each photo with things that are not dice put on its table, ``cluttered``, other seeds than the
    reported photos'). The features network is the fold's first face classifier cut after its mean
    (``features_net.features_of``). With ``settings.look``, each photo's candidate spots are also learned into the
    table's look (``dice_memory.learn_look``), against the statistics of the sets the fold trained on
    (``look_source.for_fold``; not ``fold``: the shipped reader at a table of a set it trained on, ``--folds all
    --sets SET``, the shipped statistics)."""
    import tempfile

    from companion.vision import dice_memory as memory_module
    from companion.vision import table_look
    from tools.dicetrain.features_net import features_of
    from tools.dicetrain.look_source import for_fold
    from tools.dicetrain.sets import few_shots

    scratch = tempfile.TemporaryDirectory(prefix="loso-memory-")  # removed at exit (a folder per run was left)
    _SCRATCH.append(scratch)
    net = features_of(learned.FACES_PATHS[0], Path(scratch.name) / "features.onnx")
    memory_module.FEATURES_PATH = net
    if fold and settings.look:
        table_look.SOURCE_PATH = for_fold(root, leave_out, Path(scratch.name) / "look.json")
    mem = memory_module.DiceMemory(network=memory_module.fingerprint(net))
    shots = few_shots(root, leave_out, n, seed)
    for k, path in enumerate(shots):
        img = load_image(path)
        h, w = img.shape[:2]
        truth = labels(path, w, h)
        if clutter:
            img, _ = cluttered(img, truth, SHOT_CLUTTER_SEED + k)
        (read, s, up, _), found, cands = learned.read_upright(img, settings, mem)  # as learned.read_dice_learned
        kept = cands if model is None else verifier.verify(read, cands, s, model)
        boxes, values = checked(truth, mapped_back(up, learned.last_steps(kept, s), (h, w)), careless)
        if settings.look:  # off as shipped (--set look=1); first: its trial reads with the memory before this roll
            mem = memory_module.learn_look(mem, img, boxes, values, settings, mapped_back(up, found, (h, w)).boxes)
        mem = memory_module.learn(mem, img, boxes, values, settings)
    wins, losses = mem.look.score(settings)
    said = (
        f"{leave_out}: memory of {len(mem)} views ({mem.dice} dice) and a look of {mem.look.crops} crops"
        f" from {len(shots)} checked photos; its trial: {len(mem.look.trial)} checked dice, the look right on"
        f" {wins} the classifiers as trained read wrong and wrong on {losses}: used {mem.look.ready(settings)}"
    )
    print(said, file=sys.stderr)
    return mem, shots


def render_labels(sc: WideScene) -> list[Label]:
    """A render's labels: its dice not mostly covered by another (``WideScene.hidden``), in box order."""
    return [
        Label(int(v), (float(b[0]), float(b[1]), float(b[2]), float(b[3])))
        for b, v in zip(sc.boxes[~sc.hidden], sc.values[~sc.hidden], strict=True)
    ]


RENDER_SEED = 8_000_000  # validation renders: seeds far from every training run's


def score_renders(
    n: int,
    thresholds: list[float | None],
    model: tuple[Path, ...] | None,
    seed0: int = RENDER_SEED,
    settings: ReaderSettings = DEFAULT_SETTINGS,
) -> dict[str, Scored]:
    """The same on ``n`` appearance-wide renders (``tools/synth/wide.py``, plain surfaces only, no photos: the
    holes, specks, coins, buttons, bricks and prints the development photos lack). A mostly covered die is no
    label, and a reading on one is not counted as false."""
    from tools.synth.wide import render_scene

    out: dict[str, Scored] = {}
    for k in range(n):
        sc = render_scene(seed0 + k)
        truth = render_labels(sc)
        hidden = sc.boxes[sc.hidden]
        cands = learned.read_candidates(sc.image, settings)
        if len(cands) and len(hidden):
            cands = cands[~detector.centres_in(cands.centres, hidden).any(axis=1)]
        for t in thresholds:
            det = cands if t is None or model is None else verifier.verify(sc.image, cands, at(t, settings), model)
            key = "none" if t is None else f"{t:g}"
            tally(out, key, truth, learned.last_steps(det, settings), (sc.things, sc.thing_kinds))
    return out


def figures(scores: list[ImageScore]) -> dict[str, Any]:
    s = total(scores)
    unwarned = getattr(scores, "unwarned", None)
    asked = getattr(scores, "asked", None)
    on: Counter[str] = getattr(scores, "false_on", Counter())
    lost: Counter[str] = getattr(scores, "lost_at", Counter())
    return {
        "false_on": dict(on.most_common()),
        "lost_at": {k: lost[k] for k in (NEVER_FOUND, NO_DIE, VERIFIER, LAST_STEPS, NOT_MATCHED) if lost[k]},
        "unwarned": unwarned,
        "unwarned_pct": None if unwarned is None else round(100 * unwarned / max(1, s.labelled), 2),
        "asked": asked,
        "images": s.images,
        "dice": s.labelled,
        "right": s.right,
        "accuracy": round(100 * s.accuracy, 2),
        "wrong": s.wrong,
        "missed": s.missed,
        "false": s.false,
        "false_pct": round(100 * s.false_rate, 2),
        "images_right": round(100 * s.perfect_share, 1),
    }


# which development sets each shipped detector trained on (the first on 80 % of two sets by image, ``data.split``;
# the second on all three sets' ``train`` parts, ``--parts --spare-held-out``): a fold without models of its own
# reads with the shipped detectors that never saw the set it leaves out
SHIPPED_DETECTORS_SAW = dict(zip(networks.MODEL_PATHS, (("felt-trays", "angled-webcam"), ALL_SETS), strict=True))


SECOND_DETECTOR = networks.MODEL_PATHS[-1].name  # the detector pair's second, dice_centernet_2.onnx
SHIPPED_PARTNERS = learned.FACES_PARTNERS


def partners_for(partners: tuple[Path, ...], left_out: str | None) -> tuple[Path, ...]:
    """The face classifiers' partners a fold reads with: none where a set is left out (they trained on all three
    sets' ``train`` parts, ``learned.FACES_PARTNERS``), all of them where none is."""
    return () if left_out else partners


def never_saw(paths: tuple[Path, ...], left_out: str | None) -> tuple[Path, ...]:
    """Of the detector ``paths``, those known to have never trained on ``left_out`` (all of them for no set left
    out, or when every one saw it or is not a shipped one)."""
    unseen = tuple(p for p in paths if left_out not in SHIPPED_DETECTORS_SAW.get(Path(p), ALL_SETS))
    return unseen if left_out and unseen else paths


def fold_partners(
    own: Path, detectors: tuple[Path, ...], partners: tuple[Path, ...]
) -> tuple[tuple[Path, ...], tuple[Path, ...]]:
    """The detectors and face-classifier partners a fold reads with when its folder ``own`` holds partners of its
    own, trained without the left-out set: ``dice_centernet_2.onnx`` (the detector pair's second, the shipped
    recipe on the fold's ``train`` parts) joins the fold's first detector, and the classifiers' partners (the
    shipped ``learned.FACES_PARTNERS`` names) are read from there when every one of them is there. So a fold reads
    as the shipped pairs do, with no network that saw its set. What is not there is left as it was."""
    second = own / SECOND_DETECTOR
    if second.is_file():
        detectors = (detectors[0], second)
    mine = tuple(own / p.name for p in SHIPPED_PARTNERS)
    if mine and all(p.is_file() for p in mine):
        partners = mine
    return detectors, partners


def use_detector(*paths: Path) -> None:
    """Read with the detector at ``paths`` (two or more: the mean of their outputs, as the shipped pair; the
    reader's modules each hold the names)."""
    learned.MODEL_PATHS = detector.MODEL_PATHS = tuple(paths)
    learned.MODEL_PATH = paths[0]


def add_reader_options(ap: argparse.ArgumentParser) -> None:
    """The options that change the reader being scored (this tool's and ``unseen.py``'s): ``--detector``,
    ``--faces``, ``--set``; ``reader_from`` applies them."""
    ap.add_argument(
        "--detector", nargs="+", default=None, help="another detector (ONNX; several: their mean) than the shipped pair"
    )
    ap.add_argument(
        "--faces", default=None, help="a folder with other face classifiers (dice_faces_stitched.onnx, dice_faces.onnx)"
    )
    ap.add_argument(
        "--set", action="append", default=[], metavar="NAME=VALUE", help="a reader setting changed (repeatable)"
    )


def reader_from(args: argparse.Namespace) -> ReaderSettings:
    """Read with ``add_reader_options``' detector and face classifiers from now on; the settings every reading is
    to be made with."""
    if args.detector:
        use_detector(*map(Path, args.detector))
    if args.faces:
        learned.FACES_PATHS = tuple(Path(args.faces) / p.name for p in learned.FACES_PATHS)
        partners = tuple(Path(args.faces) / p.name for p in learned.FACES_PARTNERS)
        learned.FACES_PARTNERS = partners if all(p.is_file() for p in partners) else ()
    return with_changes(DEFAULT_SETTINGS, args.set)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("root", help="folder holding the development sets")
    ap.add_argument("--models", default=None, help="folder of per-fold models (<set>/, all/)")
    ap.add_argument("--folds", default=",".join((*ALL_SETS, "all")))
    ap.add_argument("--thresholds", default="none,0.3,0.5,0.7,0.9")
    ap.add_argument("--parts", default="val,report", help="val, report, and val+clutter / report+clutter")
    ap.add_argument("--corrections", default=None, help="label corrections (JSON, see corrections.py)")
    ap.add_argument("--renders", type=int, default=0, help="also score this many validation renders per fold")
    add_reader_options(ap)
    ap.add_argument(
        "--fold-models",
        default=None,
        help="a folder of per-fold detector and classifiers (<set>/dice_centernet.onnx, <set>/dice_faces*.onnx): "
        "a fold with its own is leave-one-set-out for the whole reader (its classifier is also its second opinion)",
    )
    ap.add_argument(
        "--sets",
        default=",".join(ALL_SETS),
        help="the development sets the parts come from (one set: that set's figures alone, its val and test parts)",
    )
    ap.add_argument(
        "--steps", action="store_true", help="also say at which of the reader's steps each missed die was lost"
    )
    ap.add_argument(
        "--memory-shots",
        type=int,
        default=0,
        help="a family's first N rolls, checked: N photos of the left-out set's train part (with --folds all and one "
        "--sets, that set's) read one after another "
        "and checked as a player would, the reader remembering them (dice_memory.DiceMemory); the fold is reported on "
        "its other photos",
    )
    ap.add_argument("--memory-seed", type=int, default=0, help="which photos --memory-shots draws")
    ap.add_argument(
        "--careless",
        action="store_true",
        help="--memory-shots checked by a player who looks only at the dice drawn to be checked",
    )
    ap.add_argument(
        "--memory-clutter",
        action="store_true",
        help="--memory-shots with things that are not dice on their tables too (the player removes what is read there)",
    )
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    settings = reader_from(args)  # every reading is made with these
    thresholds: list[float | None] = [None if t == "none" else float(t) for t in args.thresholds.split(",")]
    corrections = None
    if args.corrections:
        from tools.dicetrain.corrections import load_corrections

        corrections = load_corrections(Path(args.corrections))
    results: dict[str, Any] = {}
    shipped = (learned.MODEL_PATHS, learned.FACES_PATHS, learned.LAYOUT_PATHS)
    partners = learned.FACES_PARTNERS
    shipped_verifiers = verifier.MODEL_PATHS
    for name in args.folds.split(","):
        leave_out = None if name == "all" else name
        use_detector(*never_saw(shipped[0], leave_out))
        learned.FACES_PATHS, learned.LAYOUT_PATHS = shipped[1:]
        learned.FACES_PARTNERS = partners_for(partners, leave_out)
        own = Path(args.fold_models or "/nonexistent") / name
        if (own / "dice_centernet.onnx").is_file() and (own / "dice_faces.onnx").is_file():
            faces = tuple(own / p.name if (own / p.name).is_file() else own / "dice_faces.onnx" for p in shipped[1])
            use_detector(own / "dice_centernet.onnx")
            learned.FACES_PATHS, learned.LAYOUT_PATHS = faces, faces
            print(f"{name}: the fold's own detector and classifiers ({own})", file=sys.stderr)
        before = (learned.MODEL_PATHS, learned.FACES_PARTNERS)
        pair, learned.FACES_PARTNERS = fold_partners(own, learned.MODEL_PATHS, learned.FACES_PARTNERS)
        use_detector(*pair)
        if (pair, learned.FACES_PARTNERS) != before:
            names = ", ".join(p.name for p in (*pair[1:], *learned.FACES_PARTNERS))
            print(f"{name}: with the fold's own partners from {own} ({names})", file=sys.stderr)
        parts = fold(args.root, leave_out, args.sets.split(","))
        model = None
        if args.models:
            model = tuple(sorted((Path(args.models) / name).glob("dice_verifier*.onnx"))) or None
            if model is None:
                print(f"{name}: no verifier in {Path(args.models) / name}; scored without one", file=sys.stderr)
        # where the reader asks the verifier itself (the memory's weak finds, the look's trial), it asks the fold's
        verifier.MODEL_PATHS = model or shipped_verifiers
        memory = None
        sets = args.sets.split(",")
        table = leave_out or (sets[0] if len(sets) == 1 else None)  # whose photos the family's rolls are
        if args.memory_shots and table:
            n, seed = args.memory_shots, args.memory_seed
            memory, shots = memory_from_shots(
                args.root, table, n, seed, model, settings, args.careless, args.memory_clutter, fold=bool(leave_out)
            )
            parts = {k: [p for p in v if p not in set(shots)] for k, v in parts.items()}
        for part in args.parts.split(",") + (["renders"] if args.renders else []):
            if part == "renders":
                scored = score_renders(args.renders, thresholds if model else [None], model, settings=settings)
            elif part.endswith("+clutter"):
                ts: list[float | None] = thresholds if model else [None]
                scored = score(
                    parts[part.split("+")[0]],
                    ts,
                    model,
                    corrections,
                    clutter=True,
                    settings=settings,
                    steps=args.steps,
                    memory=memory,
                )
            else:
                ts = thresholds if model else [None]
                scored = score(parts[part], ts, model, corrections, settings=settings, steps=args.steps, memory=memory)
            for key, sc in scored.items():
                fig = figures(sc)
                results.setdefault(name, {}).setdefault(part, {})[key] = fig
                if not args.json:
                    print(
                        f"{name:14} {part:6} verifier {key:14} {fig['images']:4} images {fig['dice']:5} dice "
                        f"{fig['accuracy']:6.2f}% right, {fig['wrong']:4} wrong, {fig['missed']:4} missed, "
                        f"{fig['false']:4} false ({fig['false_pct']:.2f}%), {fig['images_right']:5.1f}% images right, "
                        f"{fig['unwarned']} mistakes unflagged ({fig['unwarned_pct']}%), {fig['asked']} right flagged",
                        flush=True,
                    )
                    if fig["false_on"]:
                        on = ", ".join(f"{k} {n}" for k, n in fig["false_on"].items())
                        print(f"{'':14} {part:6} verifier {key:14} false dice on: {on}", flush=True)
                    if fig["lost_at"]:
                        lost = ", ".join(f"{k} {n}" for k, n in fig["lost_at"].items())
                        print(f"{'':14} {part:6} verifier {key:14} missed dice lost at: {lost}", flush=True)
    verifier.MODEL_PATHS = shipped_verifiers
    if args.json:
        print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    # run as the imported module: ``look_source`` imports it again while this run has the reader's networks
    # swapped for a fold's (``use_detector``), and a second copy of the module would be made from those
    from tools.dicetrain import loso

    raise SystemExit(loso.main())
