"""The table's look (issue #20): the face classifiers adapted, without a single label, to how a table's dice
come out on its camera.

A face classifier trained on some kinds of dice and tables reads a kind it never saw with its inner numbers
shifted: neon marbled dice under a warm lamp give each channel of each layer another mean and spread than the
training photos' dice did, and the classifier calls them "no die" or counts their veins as pips. Every roll a
player uses on the dice screen shows the table's candidate spots (the detector's finds: dice and whatever else
it took for one) as this camera sees them, and which of them are dice. :class:`TableLook` keeps, for each
classifier, each convolution's per-channel mean and spread over those crops, dice and other spots apart;
:func:`adapted` gives the classifier with each convolution's output mapped (scale and shift per channel, folded
into its weights) so that over the table's crops, mixed in the training photos' share of dice, it has the mean
and spread it had over the photos of the training set the table is most like (:func:`nearest`; ``SOURCE_PATH``,
made by ``tools/dicetrain/look_source.py``). Layers are matched in order, each measured with the ones before it
already adapted (:func:`learn`).

Off as shipped (``ReaderSettings.look``; docs/dice-reader.md, "twentieth session"). On, the look is used only once
``look_min`` used dice were seen; only on a table unlike every training set (:func:`choice`, ``look_far``): a table
the classifiers know reads as they were trained (mapped, such tables read worse); and only while the player's
checked rolls say it reads better (:attr:`TableLook.trial`: each checked roll read by the whole reader as trained
and as adapted to the look as it stood before that roll, ``dice_memory.try_look``, scored by the scoring rule; the
adapted reader must be ahead on ``look_margin`` of the last ``look_trial`` marks and by ``look_z`` times the root of
the marks they differ on, :meth:`TableLook.ready`). On the leave-one-set-out folds the look reads the felt-trays
fold's dice 1.0-2.0 points better and the grey-mixed fold's 4.3-7.0 points worse; the trial keeps it out of both
(a gain of two dice in a hundred is under what a hundred checked dice can show). Only the face classifiers
adapt: the die verifier, which guards against invented dice, let carpet weave and cloth prints through when adapted
the same way. The statistics stand for the last ``look_cap`` dice and as many other spots (older ones weigh less
as new ones come).

A look is a value (frozen): the dice memory (``dice_memory.DiceMemory.look``) carries it, saves it and forgets
it with the remembered dice. Standard library and numpy; the networks are read and rewritten as bytes
(``onnx_bytes``) and run by ``networks``.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from companion.vision import onnx_bytes
from companion.vision.networks import Net, load_bytes, run_outputs
from companion.vision.reader_settings import DEFAULT_SETTINGS, ReaderSettings

log = logging.getLogger(__name__)

SOURCE_PATH = Path(__file__).parent / "models" / "dice_faces_look.json"
SCHEMA = 1
EPS = 1e-5
TRAINED_RIGHT, ADAPTED_RIGHT = 1, 2  # a checked die in the trial (TableLook.trial): who read it right


class LookError(ValueError):
    """A look or a source file that cannot be used; the message says why."""


@dataclass(frozen=True)
class LayerStats:
    """Per-channel mean and spread of one convolution's output, over ``weight`` crops."""

    mean: np.ndarray
    std: np.ndarray
    weight: float = 0.0

    def merged(self, mean: np.ndarray, var: np.ndarray, n: float, cap: float) -> LayerStats:
        """These statistics with ``n`` more crops of per-channel ``mean`` and variance ``var``; the old ones
        weigh at most ``cap - n`` crops."""
        old = min(self.weight, max(cap - n, 0.0)) if len(self.mean) == len(mean) else 0.0
        total = old + n
        if total <= 0:
            return self
        m = (old * self.mean + n * mean) / total if old else mean
        v_old = self.std.astype(np.float64) ** 2 if old else 0.0
        v = (old * (v_old + (self.mean - m) ** 2) + n * (var + (mean - m) ** 2)) / total if old else var
        return LayerStats(m.astype(np.float32), np.sqrt(np.maximum(v, 0.0)).astype(np.float32), float(total))


def mixture(dice: LayerStats, spots: LayerStats, share: float) -> LayerStats:
    """The statistics of crops of which ``share`` are dice (``dice``) and the rest other spots (``spots``); one
    alone where the other has no crops yet."""
    if not spots.weight:
        return dice
    if not dice.weight:
        return spots
    mean = share * dice.mean + (1 - share) * spots.mean
    var = share * (dice.std**2 + (dice.mean - mean) ** 2) + (1 - share) * (spots.std**2 + (spots.mean - mean) ** 2)
    return LayerStats(mean.astype(np.float32), np.sqrt(var).astype(np.float32), dice.weight + spots.weight)


EMPTY = LayerStats(np.zeros(0, np.float32), np.zeros(0, np.float32))


@dataclass(frozen=True)
class Source:
    """What one classifier's convolutions gave over the crops of one training set's photos: per layer mean and
    spread; ``sha256`` of the network file they belong to; ``die_share``: the share of those crops that were
    dice; ``name``: the set."""

    sha256: str
    layers: tuple[LayerStats, ...]
    die_share: float = 0.5
    name: str = ""


def load_sources(path: Path | None = None) -> dict[str, tuple[Source, ...]]:
    """The training photos' statistics per network file name, one per training set (``SOURCE_PATH``);
    ``LookError`` when the file is missing or broken."""
    path = path or SOURCE_PATH
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("schema") != SCHEMA:
            raise LookError(f"{path}: not a source file of this version")
        out = {}
        for name, entry in data["networks"].items():
            out[str(name)] = tuple(
                Source(
                    str(entry["sha256"]),
                    tuple(
                        LayerStats(np.asarray(layer["mean"], np.float32), np.asarray(layer["std"], np.float32), 1.0)
                        for layer in one["layers"]
                    ),
                    float(one["die_share"]),
                    str(set_name),
                )
                for set_name, one in entry["sets"].items()
            )
            if not out[str(name)]:
                raise LookError(f"{path}: no training set for {name}")
        return out
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        raise LookError(f"{path}: {err}") from None


Layer = tuple[LayerStats, LayerStats]  # one convolution's statistics over the table's dice, and over its other spots


@dataclass(frozen=True, eq=False)
class TableLook:
    """Per classifier file name: each convolution's statistics over the table's crops, kept apart for the dice
    the player used and the other candidate spots (``Layer``), and the SHA-256 of the file they were measured
    with; ``crops``: how many crops it has seen (capped by ``look_cap``)."""

    layers: dict[str, tuple[Layer, ...]] = field(default_factory=dict)
    shas: dict[str, str] = field(default_factory=dict)
    crops: int = 0
    dice: int = 0  # of them, dice the player used (capped by ``look_cap``)
    trial: tuple[int, ...] = ()  # the checked dice read both ways, oldest first: TRAINED_RIGHT | ADAPTED_RIGHT bits

    def usable(self, settings: ReaderSettings = DEFAULT_SETTINGS) -> bool:
        """Whether the classifiers can be adapted to it: ``settings.look`` on and at least ``look_min`` used dice
        seen (the trial then reads each checked roll both ways, ``dice_memory.learn_look``)."""
        return settings.look and self.dice >= settings.look_min and bool(self.layers)

    def score(self, settings: ReaderSettings = DEFAULT_SETTINGS) -> tuple[int, int]:
        """Over the trial's last ``look_trial`` marks: how many the adapted reader had right where the reader as
        trained had them wrong, and the other way round."""
        last = self.trial[-settings.look_trial :] if settings.look_trial > 0 else ()
        return sum(1 for t in last if t == ADAPTED_RIGHT), sum(1 for t in last if t == TRAINED_RIGHT)

    def winning(self, settings: ReaderSettings = DEFAULT_SETTINGS) -> bool:
        """Whether the checked rolls say the look reads this table better: the adapted reader right on at least
        ``look_margin`` more of the trial's dice than the reader as trained, and on at least ``look_z`` times the
        square root of the dice only one of them read right more (a sign test: 6 won and 4 lost is chance)."""
        wins, losses = self.score(settings)
        ahead = wins - losses
        return ahead >= settings.look_margin and ahead >= settings.look_z * math.sqrt(wins + losses)

    def ready(self, settings: ReaderSettings = DEFAULT_SETTINGS) -> bool:
        """Whether the reader reads with the classifiers adapted to it: ``usable`` and ``winning``. A table the
        look reads worse (the grey-mixed fold's ring-faced dice called "no die") stays unadapted, and a table whose
        later rolls stop bearing it out goes back to unadapted."""
        return self.usable(settings) and self.winning(settings)

    def tried(self, trained: Sequence[bool], adapted: Sequence[bool], cap: int) -> TableLook:
        """This look with a checked roll's marks added to the trial (``dice_memory.trial_marks``): per mark,
        whether the reader as trained and as adapted had it right; the last ``cap`` are kept."""
        new = tuple(TRAINED_RIGHT * bool(t) | ADAPTED_RIGHT * bool(a) for t, a in zip(trained, adapted, strict=True))
        return replace(self, trial=(self.trial + new)[-cap:] if cap > 0 else ())

    @cached_property
    def key(self) -> str:
        """Names this look's numbers (adapted networks are kept per key; worked out once per look)."""
        h = hashlib.sha256()
        for name in sorted(self.layers):
            h.update(name.encode())
            for layer in self.layers[name]:
                for stats in layer:
                    h.update(stats.mean.tobytes())
                    h.update(stats.std.tobytes())
                    h.update(np.float64(stats.weight).tobytes())
        return h.hexdigest()[:16]

    def to_json(self) -> dict[str, Any]:
        def one(stats: LayerStats) -> dict[str, Any]:
            return {
                "mean": [round(float(x), 5) for x in stats.mean],
                "std": [round(float(x), 5) for x in stats.std],
                "weight": round(stats.weight, 3),
            }

        return {
            "crops": self.crops,
            "dice": self.dice,
            "trial": list(self.trial),
            "networks": {
                name: {
                    "sha256": self.shas.get(name, ""),
                    "layers": [{"dice": one(dice), "spots": one(spots)} for dice, spots in layers],
                }
                for name, layers in self.layers.items()
            },
        }

    @classmethod
    def from_json(cls, data: Any) -> TableLook:
        """The look ``to_json`` wrote; ``LookError`` when it is not one."""
        if data is None:
            return cls()

        def one(entry: Any) -> LayerStats:
            mean = np.asarray(entry["mean"], np.float32)
            std = np.asarray(entry["std"], np.float32)
            finite = np.isfinite(mean).all() and np.isfinite(std).all()
            if mean.ndim != 1 or mean.shape != std.shape or not finite or (std < 0).any():
                raise ValueError("a layer's numbers are damaged")
            return LayerStats(mean, std, float(entry["weight"]))

        try:
            layers: dict[str, tuple[Layer, ...]] = {}
            shas: dict[str, str] = {}
            for name, entry in data["networks"].items():
                layers[str(name)] = tuple((one(layer["dice"]), one(layer["spots"])) for layer in entry["layers"])
                shas[str(name)] = str(entry["sha256"])
            trial = tuple(int(t) for t in data.get("trial", ()))
            if any(t < 0 or t > TRAINED_RIGHT | ADAPTED_RIGHT for t in trial):
                raise ValueError("the trial's marks are damaged")
            return cls(layers, shas, int(data["crops"]), int(data["dice"]), trial)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise LookError(f"the table's look is damaged ({err})") from None


@dataclass(frozen=True)
class _Network:
    data: bytes
    info: onnx_bytes.OnnxInfo
    convs: tuple[onnx_bytes.Node, ...]
    sha256: str


_networks: dict[str, _Network] = {}
_sources: dict[str, dict[str, tuple[Source, ...]]] = {}
_lock = threading.Lock()


def network(path: Path) -> _Network:
    """A classifier file's bytes and convolutions (read once); ``LookError`` when it cannot be adapted."""
    key = str(path)
    with _lock:
        net = _networks.get(key)
    if net is None:
        try:
            data = Path(path).read_bytes()
            info = onnx_bytes.parse(data)
        except (OSError, onnx_bytes.OnnxFormatError) as err:
            raise LookError(f"{path}: {err}") from None
        convs = tuple(n for n in info.nodes if n.op == "Conv")
        if not convs or any(len(c.inputs) < 3 for c in convs):
            raise LookError(f"{path}: no convolutions with a bias to adapt")
        net = _Network(data, info, convs, hashlib.sha256(data).hexdigest())
        with _lock:
            _networks[key] = net
    return net


def sources() -> dict[str, tuple[Source, ...]]:
    """``load_sources()`` of the current ``SOURCE_PATH``, read once."""
    key = str(SOURCE_PATH)
    with _lock:
        found = _sources.get(key)
    if found is None:
        found = load_sources(SOURCE_PATH)
        with _lock:
            _sources[key] = found
    return found


def _mapping(source: LayerStats, table: LayerStats, strength: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Scale and shift per channel that give the table's numbers the source's mean and spread (``strength``
    under 1: that share of the way)."""
    scale = source.std / (table.std + EPS)
    shift = source.mean - table.mean * scale
    return (1.0 + strength * (scale - 1.0)).astype(np.float32), (strength * shift).astype(np.float32)


def _with_layers(net: _Network, maps: Sequence[tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """The weight changes that put ``maps`` (scale, shift per channel) after the first ``len(maps)`` convolutions."""
    changes = {}
    for conv, (scale, shift) in zip(net.convs, maps, strict=False):
        w = onnx_bytes.weight(net.data, net.info, conv.inputs[1])
        b = onnx_bytes.weight(net.data, net.info, conv.inputs[2])
        changes[conv.inputs[1]] = w * scale.reshape(-1, *([1] * (w.ndim - 1)))
        changes[conv.inputs[2]] = b * scale + shift
    return changes


def centres_in(boxes: np.ndarray, dice: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` (N, 4) have their centre inside one of the boxes ``dice`` (M, 4): the candidate spots
    that are dice the player used (or labelled dice, ``tools/dicetrain/look_source.py``)."""
    b = np.asarray(boxes, np.float32).reshape(-1, 4)
    d = np.asarray(dice, np.float32).reshape(-1, 4)
    if not len(b) or not len(d):
        return np.zeros(len(b), bool)
    cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    across = (cx[:, None] >= d[None, :, 0]) & (cx[:, None] <= d[None, :, 2])
    down = (cy[:, None] >= d[None, :, 1]) & (cy[:, None] <= d[None, :, 3])
    return np.asarray((across & down).any(axis=1), bool)


def _table(layer: Layer, source: Source) -> LayerStats:
    """The table's statistics of one convolution with dice and other spots in the training photos' shares."""
    return mixture(layer[0], layer[1], source.die_share)


def distance(source: Source, first: Layer) -> float:
    """How unlike a training set's photos the table is, by the first convolution's numbers (which no adaptation
    changes): the mean over its channels of the squared gap in means (in the set's spreads) and of the squared
    log ratio of spreads. A set's own photos give ~0.003, another set's 0.3-2.7."""
    s, t = source.layers[0], _table(first, source)
    if len(s.mean) != len(t.mean):
        return float("inf")
    z = (t.mean - s.mean) / (s.std + EPS)
    r = np.log((t.std + EPS) / (s.std + EPS))
    return float(np.mean(z**2 + r**2))


def nearest(candidates: Sequence[Source], first: Layer) -> Source:
    """The training set whose photos' first convolution is most like the table's (``first``)."""
    return min(candidates, key=lambda source: distance(source, first))


def choice(candidates: Sequence[Source], first: Layer, settings: ReaderSettings = DEFAULT_SETTINGS) -> Source | None:
    """The training set a table's look is mapped onto: the nearest (``nearest``), or None where the table is
    like one the classifier trained on (nearer than ``look_far``): that one reads unadapted. Mapped onto the
    mean of all the sets' numbers, or onto its own set's from a few photos, such tables read worse
    (docs/dice-reader.md, eighteenth session)."""
    source = nearest(candidates, first)
    return None if distance(source, first) < settings.look_far else source


def learn(
    look: TableLook,
    crops: np.ndarray,
    dice: np.ndarray,
    paths: Sequence[Path],
    settings: ReaderSettings = DEFAULT_SETTINGS,
    runner: str | None = None,
) -> TableLook:
    """``look`` with a roll's candidate crops (N, 3, S, S; the face classifiers' input) added, ``dice`` (N,) saying
    which are dice the player used: for each classifier of ``paths`` that has training statistics, each
    convolution in turn is measured over the crops with the ones before it adapted, and its statistics merged
    (dice and other spots apart: mixed in the training photos' shares, a table with more or fewer things that are
    no die than the photos had is not taken for another look). Classifiers without training statistics are left
    out (logged); ``LookError`` when none can be measured."""
    crops = np.asarray(crops, np.float32)
    dice = np.asarray(dice, bool).reshape(-1)
    if not len(crops):
        return look
    if len(dice) != len(crops):
        raise LookError(f"{len(crops)} crops but {len(dice)} dice marks")
    known = sources()
    layers = dict(look.layers)
    shas = dict(look.shas)
    cap = float(max(settings.look_cap, 1))
    learned_any = False
    for path in dict.fromkeys(Path(p) for p in paths):
        candidates = known.get(path.name, ())
        try:
            net = network(path)
        except LookError as err:
            log.warning("%s", err)
            continue
        if not candidates or any(c.sha256 != net.sha256 or len(c.layers) != len(net.convs) for c in candidates):
            log.warning("%s: no training statistics for this file; it reads unadapted", path)
            continue
        chosen: Source | None = None
        old = layers.get(path.name, ()) if shas.get(path.name) == net.sha256 else ()
        new: list[Layer] = []
        maps: list[tuple[np.ndarray, np.ndarray]] = []
        for k, conv in enumerate(net.convs):
            probe = onnx_bytes.with_weights(net.data, net.info, _with_layers(net, maps)) if maps else net.data
            probe = onnx_bytes.with_outputs(probe, net.info, [conv.outputs[0]])  # same-size weights: same offsets
            z = run_outputs(probe, crops, [conv.outputs[0]], runner)[0].astype(np.float64)
            before = old[k] if k < len(old) else (EMPTY, EMPTY)
            merged = []
            for part, kept in ((dice, before[0]), (~dice, before[1])):
                if part.any():
                    zp = z[part]
                    kept = kept.merged(zp.mean(axis=(0, 2, 3)), zp.var(axis=(0, 2, 3)), float(part.sum()), cap)
                merged.append(kept)
            layer = (merged[0], merged[1])
            new.append(layer)
            if k == 0:
                chosen = choice(candidates, layer, settings)
            if chosen is not None:  # the next layer is measured as the adapted classifier would compute it
                maps.append(_mapping(chosen.layers[k], _table(layer, chosen), settings.look_strength))
        layers[path.name] = tuple(new)
        shas[path.name] = net.sha256
        learned_any = True
    if not learned_any:
        raise LookError("no face classifier could learn the table's look")
    return TableLook(
        layers,
        shas,
        int(min(look.crops + len(crops), 2 * cap)),
        int(min(look.dice + int(dice.sum()), cap)),
        look.trial if shas == look.shas else (),  # a trial of other networks says nothing of these
    )


_adapted: dict[tuple[str, str], tuple[str, Net]] = {}  # (file, runner) -> (look key, adapted network)


def forced(settings: ReaderSettings) -> ReaderSettings:
    """``settings`` under which a usable look (``TableLook.usable``) is read with whatever its trial says: the
    trial's own reading adapted (``dice_memory.try_look``), and the benchmark's and the folds' look forced on."""
    behind = -float(abs(settings.look_trial) + 1)  # no trial of look_trial marks is this far behind
    return replace(settings, look_margin=int(behind), look_z=behind)


def adapted(
    path: Path, look: TableLook | None, settings: ReaderSettings = DEFAULT_SETTINGS, runner: str | None = None
) -> Net | None:
    """The classifier at ``path`` adapted to ``look``, or None where it is not (no look, too few crops, no
    statistics for this file, or measured with another file). The last adapted network per file is kept. (Whether
    the reader reads with it is the trial's word, ``TableLook.ready``.)"""
    if look is None or not look.usable(settings):
        return None
    stats = look.layers.get(Path(path).name)
    if not stats:
        return None
    try:
        net = network(Path(path))
        candidates = sources().get(Path(path).name, ())
    except LookError as err:
        log.warning("%s", err)
        return None
    measured_with = look.shas.get(Path(path).name)
    if not candidates or any(c.sha256 != net.sha256 for c in candidates) or measured_with != net.sha256:
        return None
    source = choice(candidates, stats[0], settings)
    if source is None:
        return None
    cache_key = (str(path), runner or "")
    key = f"{look.key}:{settings.look_strength}:{settings.look_far}"
    with _lock:
        kept = _adapted.get(cache_key)
    if kept is not None and kept[0] == key:
        return kept[1]
    maps = [_mapping(s, _table(t, source), settings.look_strength) for s, t in zip(source.layers, stats, strict=True)]
    made = load_bytes(onnx_bytes.with_weights(net.data, net.info, _with_layers(net, maps)), runner)
    with _lock:
        _adapted[cache_key] = (key, made)
    return made


def adapter(
    look: TableLook | None, settings: ReaderSettings = DEFAULT_SETTINGS
) -> Callable[[Path, Net, str | None], Net]:
    """For ``networks.load_mean``: each classifier replaced by its adapted copy where ``look`` adapts it."""

    def adapt(path: Path, net: Net, runner: str | None) -> Net:
        try:
            return adapted(path, look, settings, runner) or net
        except Exception as err:  # a network that cannot be rebuilt reads as it was
            log.error("the table's look not applied to %s: %s", path, err)
            return net

    return adapt
