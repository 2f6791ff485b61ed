"""The vision benchmark for ``companion bench``: reading speed per 640x480 frame on one core, and the peak memory
of a ``companion dice read`` run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any


def bench_vision(images: list[str] | None = None, repeats: int = 3) -> dict[str, Any]:
    """Median ms per 640x480 image on one core (wall and CPU time of ``read_dice``, OpenCV limited to one
    thread; onnxruntime, where it runs the networks, always uses one), and the peak resident memory (MB) of
    ``companion dice read --json`` over the same photos in a fresh process. Uses the shipped sample photos (both
    sets, resized to 640x480) unless ``images`` are given."""
    import cv2
    import numpy as np

    from companion.vision.dataset import SAMPLES, image_paths, load_image
    from companion.vision.learned import backend

    paths = (
        [Path(p) for p in images]
        if images
        else [p for d in sorted(SAMPLES.iterdir()) if d.is_dir() for p in image_paths(d / "images")]
    )
    frames = [cv2.resize(load_image(p), (640, 480), interpolation=cv2.INTER_AREA) for p in paths]
    wall, cpu = timed_reads(frames, repeats)
    reads = first_reads(frames)
    remembering = full_memory(frames, reads=reads)
    mem_wall, _ = timed_reads(frames, repeats, remembering)
    adapting = full_memory(frames, adapted_anyway(remembering.learned), reads)
    look_wall, _ = timed_reads(frames, repeats, adapting)
    by_folder: dict[str, list[float]] = {}
    for p, ms in zip(paths * repeats, wall, strict=True):
        by_folder.setdefault(p.parent.parent.name, []).append(ms)
    peak_mb, status = read_peak(paths)
    big = big_frame(paths, repeats)
    phones = phone_photos(paths)
    return {
        "images": len(frames),
        "networks_run_by": backend(),
        "median_ms": round(float(np.median(wall)), 2),
        "median_cpu_ms": round(float(np.median(cpu)), 2),
        "p90_ms": round(float(np.percentile(wall, 90)), 2),
        "median_ms_by_set": {k: round(float(np.median(v)), 2) for k, v in sorted(by_folder.items())},
        "with_memory_median_ms": round(float(np.median(mem_wall)), 2),
        "with_memory_p90_ms": round(float(np.percentile(mem_wall, 90)), 2),
        "with_memory_look_dice": remembering.memory.look.dice,  # the used dice the table's look was learned from
        "with_memory_look_used": remembering.memory.look.ready(remembering.learned),  # False on the samples' tables
        # read with the look forced on (the classifiers adapted, the trial waived): what a new kind of dice costs
        "with_look_median_ms": round(float(np.median(look_wall)), 2),
        "with_look_p90_ms": round(float(np.percentile(look_wall, 90)), 2),
        "with_look_used": adapting.memory.look.ready(adapting.learned),
        "read_peak_mb": peak_mb,
        "read_exit": status,
        **big,
        **phones,
    }


# Run in the child: ``companion dice read`` that says its own peak resident memory (VmHWM, of its own memory map)
# on stderr at exit. The child's ``ru_maxrss`` would not do: Linux carries it over from the parent across fork
# and exec, so it read the benchmark's own size (149 MB reported where the read itself peaked at 117 MB).
_PEAK_SAYER = """
import atexit, runpy, sys
def say_peak():
    with open("/proc/self/status") as status:
        kb = next(line for line in status if line.startswith("VmHWM")).split()[1]
    sys.stderr.write(f"VmHWM {kb}\\n")
atexit.register(say_peak)
sys.argv = ["companion", *sys.argv[1:]]
runpy.run_module("companion.cli", run_name="__main__")
"""


def adapted_anyway(settings: Any) -> Any:
    """``settings`` with the table's look used on any table from the first used die on: the sample photos are of
    sets the classifiers trained on, which the shipped reader reads unadapted (``look_far``), and no trial
    (``table_look.forced``) is waited for."""
    from companion.vision.table_look import forced

    return forced(replace(settings, look=True, look_min=1, look_far=0.0))


def first_reads(frames: list[Any]) -> list[Any]:
    """Each frame as the shipped reader reads it without a memory: the rolls ``full_memory`` takes as checked."""
    from companion.vision.pipeline import read_dice

    return [read_dice(frame) for frame in frames]


def full_memory(frames: list[Any], settings: Any = None, reads: list[Any] | None = None) -> Any:
    """A profile whose memory of the table's dice is full (``ReaderSettings.memory_cap`` views): the dice read on
    ``frames`` (``reads``, as ``first_reads`` reads them, where already read), learned once and repeated as a
    player's used rolls of the same dice would be (the reading then asks it every time), and the table's look
    learned from the frames where ``settings`` (default: the shipped reader's) turn it on."""
    from companion.vision.dice_memory import DiceMemory, fingerprint, learn, learn_look
    from companion.vision.pipeline import DEFAULT_PROFILE

    settings = settings or DEFAULT_PROFILE.learned
    once = DiceMemory(network=fingerprint())
    for frame, det in zip(frames, reads or first_reads(frames), strict=True):
        values = [int(v) for v in det.values]
        if settings.look:  # first: its trial reads with the memory before this roll
            once = learn_look(once, frame, det.boxes, values, settings)
        once = learn(once, frame, det.boxes, values)
    if not len(once):  # no dice read at all: views of the frames' corners stand in
        once = learn(once, frames[0], [(0, 0, 32, 32)] * 16, [0] * 16)
    cap = DEFAULT_PROFILE.learned.memory_cap
    memory = once
    while len(memory) < cap:
        memory = memory.with_views(once.features, once.values, cap)
    return replace(DEFAULT_PROFILE, memory=memory, learned=settings)


def timed_reads(frames: list[Any], repeats: int, profile: Any = None) -> tuple[list[float], list[float]]:
    """Wall and CPU ms of ``read_dice`` on each frame (with ``profile``), ``repeats`` passes over them in order,
    OpenCV on one thread, after one warm-up read (the networks load on the first)."""
    import cv2

    from companion.vision.pipeline import read_dice

    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    wall: list[float] = []
    cpu: list[float] = []
    try:
        read_dice(frames[0], profile)
        for _ in range(repeats):
            for frame in frames:
                w0, c0 = time.perf_counter(), time.process_time()
                read_dice(frame, profile)
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
    finally:
        cv2.setNumThreads(threads)
    return wall, cpu


def read_peak(paths: list[Path]) -> tuple[float, int]:
    """Peak resident memory (MB) and exit status of ``companion dice read --json PATHS`` in a fresh process
    (where there is no /proc, the child's ``ru_maxrss``: at least the benchmark's own size)."""
    args = ["dice", "read", "--json", *map(str, paths)]
    if not Path("/proc/self/status").exists():
        proc = subprocess.Popen([sys.executable, "-m", "companion.cli", *args], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        return round(usage.ru_maxrss / 1024, 1), os.waitstatus_to_exitcode(status)
    done = subprocess.run(
        [sys.executable, "-c", _PEAK_SAYER, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    said = [line.split()[1] for line in done.stderr.splitlines() if line.startswith("VmHWM ")]
    return (round(int(said[-1]) / 1024, 1) if said else -1.0), done.returncode


def big_frame(paths: list[Path], repeats: int) -> dict[str, Any]:
    """A big sharp frame of small dice, as from a phone: the first felt-tray photo (else the first photo) tiled
    3x3 (1920 px for a 640 px photo; the detector looks at it up to 1280 px, in tiles). Median ms on one core and
    the peak memory of ``companion dice read`` on it."""
    import tempfile

    import cv2
    import numpy as np

    from companion.vision.dataset import load_image

    first = next((p for p in paths if p.parent.parent.name == "felt-trays"), paths[0])
    frame = np.tile(load_image(first), (3, 3, 1))
    ms, _ = timed_reads([frame], repeats)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "big.png"
        cv2.imwrite(str(path), frame)
        peak_mb, status = read_peak([path])
    return {
        "big_frame_px": [int(frame.shape[1]), int(frame.shape[0])],
        "big_frame_ms": round(float(np.median(ms)), 1),
        "big_frame_read_peak_mb": peak_mb,
        "big_frame_read_exit": status,
    }


PHONE_SIZES = ((4032, 3024), (3024, 4032), (4000, 3000), (2560, 1920), (8000, 6000), (1600, 1200))


def phone_photos(paths: list[Path]) -> dict[str, Any]:
    """Peak memory of ``companion dice read`` over a folder of phone-sized photos of different sizes (12 MP, 48 MP
    and smaller; the sample photos blown up, with sensor grain, saved as JPEG): the target is 200 MB on any
    folder (issue #20)."""
    import tempfile

    import cv2
    import numpy as np

    from companion.vision.dataset import load_image

    rng = np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        for i, (w, h) in enumerate(PHONE_SIZES):
            img = cv2.resize(load_image(paths[i % len(paths)]), (w, h), interpolation=cv2.INTER_CUBIC)
            noise = np.asarray(rng.normal(0, 5, img.shape), dtype=np.float32)
            img = np.clip(img + noise, 0, 255).astype(np.uint8)
            cv2.imwrite(str(Path(tmp) / f"phone{i}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 90])
            del img
        peak_mb, status = read_peak(sorted(Path(tmp).glob("*.jpg")))
    return {"phone_photos": len(PHONE_SIZES), "phone_photos_read_peak_mb": peak_mb, "phone_photos_read_exit": status}
