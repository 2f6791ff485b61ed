"""What runs the dice networks: onnxruntime where it is installed (one thread, deterministic), else OpenCV's
``dnn``; ``COMPANION_DNN=opencv`` or ``onnxruntime`` picks one. Each network file is loaded once
(``load_net``); a damaged one is a :class:`ModelLoadError`, a missing one ``FileNotFoundError``."""

from __future__ import annotations

import importlib
import logging
import os
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)
_missing_logged: set[str] = set()  # what error_once said already


def error_once(logger: logging.Logger, error: object, message: str) -> None:
    """Log ``message`` as an error the first time ``error`` comes to ``logger`` (by its words): a model file missing
    or damaged is said once by each module that reads on without it, not on every frame."""
    key = f"{logger.name}: {error}"
    if key not in _missing_logged:
        _missing_logged.add(key)
        logger.error("%s", message)


_damaged: dict[tuple[str, bool, str], ModelLoadError] = {}  # load_net's files that could not be loaded

MODELS = Path(__file__).parent / "models"
# The detector is a pair since 2026-12-06: the mean of two networks' outputs (docs/dice-reader.md, "eleventh
# session"); the first is the training tools' default output and starting point.
MODEL_PATHS = (MODELS / "dice_centernet.onnx", MODELS / "dice_centernet_2.onnx")
MODEL_PATH = MODEL_PATHS[0]


class ModelLoadError(RuntimeError):
    """A network file is there but cannot be loaded (damaged, or not an ONNX file)."""


class Net(Protocol):
    """A loaded network: input batch (N, C, H, W) float32 -> its one output as float32."""

    def run(self, x: np.ndarray) -> np.ndarray: ...


class OrtNet:
    """A network run by onnxruntime on one thread (deterministic; about twice as fast as OpenCV's ``dnn`` on these
    small depthwise networks)."""

    def __init__(self, path: str | bytes, ort: Any) -> None:
        options = ort.SessionOptions()
        options.intra_op_num_threads = 1
        options.inter_op_num_threads = 1
        options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
        options.enable_cpu_mem_arena = False  # its arena kept ~15 MB more at peak for no speed gain here
        self.session = ort.InferenceSession(path, options, providers=["CPUExecutionProvider"])
        self.input = self.session.get_inputs()[0].name
        self.output = self.session.get_outputs()[0].name

    def run(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.session.run([self.output], {self.input: x})[0], dtype=np.float32)

    def outputs(self, x: np.ndarray, names: list[str]) -> list[np.ndarray]:
        return [np.asarray(o, dtype=np.float32) for o in self.session.run(names, {self.input: x})]


class OpenCvNet:
    """A network run by OpenCV's ``dnn`` on its CPU backend. ``classic``: on OpenCV 5, its classic engine (a
    quarter faster than the new one for the small batches of crops; the new one is faster for the detector)."""

    def __init__(self, path: str | bytes, classic: bool = False) -> None:
        engine = getattr(cv2.dnn, "ENGINE_CLASSIC", None) if classic else None
        src: Any = np.frombuffer(path, np.uint8) if isinstance(path, bytes) else path  # a file's bytes or its path
        self.net = cv2.dnn.readNetFromONNX(src) if engine is None else cv2.dnn.readNetFromONNX(src, engine)
        self.net.setPreferableBackend(cv2.dnn.DNN_BACKEND_OPENCV)
        self.net.setPreferableTarget(cv2.dnn.DNN_TARGET_CPU)
        self._lock = threading.Lock()  # setInput then forward: one caller at a time (the camera thread and the
        # dice memory's learning share the loaded networks; onnxruntime's sessions need no such lock)

    def run(self, x: np.ndarray) -> np.ndarray:
        with self._lock:
            self.net.setInput(x)
            return np.asarray(self.net.forward(), dtype=np.float32)

    def outputs(self, x: np.ndarray, names: list[str]) -> list[np.ndarray]:
        with self._lock:
            self.net.setInput(x)
            return [np.asarray(o, dtype=np.float32) for o in self.net.forward(names)]


class MeanNet:
    """Several networks with one input and output shape run as one: the mean of their outputs (the detector
    pair: its heat maps, log sizes and offsets are each averaged)."""

    def __init__(self, nets: list[Net]) -> None:
        self.nets = nets

    def run(self, x: np.ndarray) -> np.ndarray:
        out = self.nets[0].run(x)
        for net in self.nets[1:]:
            out = out + net.run(x)
        return np.asarray(out / len(self.nets), dtype=np.float32)


Adapt = Callable[[Path, Net, "str | None"], Net]  # a loaded network -> the one to read with (table_look.adapter)


def load_mean(
    paths: Sequence[Path],
    classic: bool = False,
    runner: str | None = None,
    first_only: bool = False,
    adapt: Adapt | None = None,
) -> Net:
    """The networks of ``paths`` run as one, the mean of their outputs (``MeanNet``; one alone is itself). A file
    that is missing or damaged is logged once and the others read without it; with none that loads, the first
    one's error (``FileNotFoundError`` or :class:`ModelLoadError`). ``first_only``: the first of them that loads,
    alone. ``classic``, ``runner``: ``load_net``'s. ``adapt``: each loaded network is replaced by what it gives
    (the table's look, ``table_look.adapter``)."""
    nets: list[Net] = []
    names: list[str] = []
    failed: list[FileNotFoundError | ModelLoadError] = []
    for path in paths:
        if first_only and nets:
            break
        try:
            net = load_net(str(path), classic, runner)
            nets.append(adapt(Path(path), net, runner) if adapt is not None else net)
            names.append(Path(path).name)
        except (FileNotFoundError, ModelLoadError) as err:
            failed.append(err)
    if not nets:
        raise failed[0] if failed else FileNotFoundError("no dice model named")
    for said in map(str, failed):
        error_once(log, said, f"{said}; read with {', '.join(names)} without it")
    return nets[0] if len(nets) == 1 else MeanNet(nets)


BACKENDS = ("onnxruntime", "opencv")


def onnxruntime() -> Any | None:
    """The onnxruntime module, or None where it is not installed (no wheel for 32-bit Raspberry Pi OS) or its
    library does not load."""
    try:
        return importlib.import_module("onnxruntime")
    except (ImportError, OSError):
        return None


def backend() -> str:
    """Which runs the networks: ``COMPANION_DNN`` if set (``onnxruntime`` or ``opencv``), else onnxruntime where
    it is installed, else OpenCV. Any other ``COMPANION_DNN`` is logged as an error and the default is used (the
    dice are still read)."""
    chosen = os.environ.get("COMPANION_DNN", "").strip().lower()
    if chosen and chosen not in BACKENDS:
        log.error("COMPANION_DNN=%r is not one of %s; using the default", chosen, ", ".join(BACKENDS))
        chosen = ""
    return chosen or ("onnxruntime" if onnxruntime() is not None else "opencv")


def load_net(path: str | Path = str(MODEL_PATH), classic: bool = False, runner: str | None = None) -> Net:
    """The ONNX network at ``path``, loaded once (``loaded``), run by ``runner`` (default: ``backend()``);
    ``classic`` is passed on to ``OpenCvNet`` (onnxruntime has no such choice). However a call is written, one file
    on one runner is loaded once; a damaged one (:class:`ModelLoadError`) is tried once, a missing one every time."""
    runner = runner or backend()
    key = (str(path), bool(classic) and runner == "opencv", runner)
    if key in _damaged:  # tried once: a damaged file is not parsed again every frame (a restart tries again)
        raise _damaged[key]
    try:
        return loaded(*key)
    except ModelLoadError as err:
        _damaged[key] = err
        raise


@lru_cache(maxsize=16)  # the detector and the classifiers, per runner (a smaller cache would reload them every frame)
def loaded(path: str, classic: bool, runner: str) -> Net:
    """``load_net``'s cache, keyed by its arguments made plain (a damaged file, :class:`ModelLoadError`, and a
    missing one, ``FileNotFoundError``, are not kept: the next call tries again)."""
    if not Path(path).is_file():
        raise FileNotFoundError(f"dice model {path} is missing (train it with tools/dicetrain/train.py)")
    ort = onnxruntime() if runner == "onnxruntime" else None
    if runner == "onnxruntime" and ort is None:
        raise RuntimeError("COMPANION_DNN=onnxruntime but onnxruntime is not installed (pip install onnxruntime)")
    try:
        return OrtNet(path, ort) if ort is not None else OpenCvNet(path, classic)
    except Exception as err:  # onnxruntime and OpenCV each raise their own types for a damaged file
        raise ModelLoadError(f"dice model {path} could not be loaded ({type(err).__name__}: {err})") from err


def load_bytes(data: bytes, runner: str | None = None) -> Net:
    """A network from an ONNX file's bytes (an adapted copy, ``table_look``; not cached here), run by ``runner``
    (default ``backend()``); :class:`ModelLoadError` when the bytes cannot be loaded."""
    runner = runner or backend()
    ort = onnxruntime() if runner == "onnxruntime" else None
    try:
        return OrtNet(data, ort) if ort is not None else OpenCvNet(data, True)
    except Exception as err:  # onnxruntime and OpenCV each raise their own types
        raise ModelLoadError(f"an adapted dice model could not be loaded ({type(err).__name__}: {err})") from err


def run_outputs(data: bytes, x: np.ndarray, names: list[str], runner: str | None = None) -> list[np.ndarray]:
    """The network in ``data`` (its ``names`` made outputs, ``onnx_bytes.with_outputs``) run once on ``x``: the
    tensors ``names``."""
    net = load_bytes(data, runner)
    return net.outputs(x, names)  # type: ignore[attr-defined,no-any-return]
