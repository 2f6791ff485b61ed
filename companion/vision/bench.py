"""The vision benchmark for ``companion bench``: reading speed per 640x480 frame on one core, and the peak memory
of a ``companion dice read`` run."""

from __future__ import annotations

import os
import subprocess
import sys
import time
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
    from companion.vision.pipeline import read_dice

    paths = (
        [Path(p) for p in images]
        if images
        else [p for d in sorted(SAMPLES.iterdir()) if d.is_dir() for p in image_paths(d / "images")]
    )
    frames = [cv2.resize(load_image(p), (640, 480), interpolation=cv2.INTER_AREA) for p in paths]
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        read_dice(frames[0])  # warm-up
        wall, cpu = [], []
        by_folder: dict[str, list[float]] = {}
        for _ in range(repeats):
            for p, f in zip(paths, frames, strict=True):
                w0, c0 = time.perf_counter(), time.process_time()
                read_dice(f)
                cpu.append((time.process_time() - c0) * 1000)
                wall.append((time.perf_counter() - w0) * 1000)
                by_folder.setdefault(p.parent.parent.name, []).append(wall[-1])
    finally:
        cv2.setNumThreads(threads)
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "dice", "read", "--json", *map(str, paths)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    return {
        "images": len(frames),
        "networks_run_by": backend(),
        "median_ms": round(float(np.median(wall)), 2),
        "median_cpu_ms": round(float(np.median(cpu)), 2),
        "p90_ms": round(float(np.percentile(wall, 90)), 2),
        "median_ms_by_set": {k: round(float(np.median(v)), 2) for k, v in sorted(by_folder.items())},
        "read_peak_mb": round(usage.ru_maxrss / 1024, 1),
        "read_exit": os.waitstatus_to_exitcode(status),
    }
