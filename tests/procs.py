"""The real ``companion`` command run as a subprocess, for fault tests: its result, and its peak memory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def companion(*args: str, home: Path, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``companion ARGS...`` with ``COMPANION_HOME=home``."""
    env = dict(os.environ, COMPANION_HOME=str(home))
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], env=env, capture_output=True, text=True, timeout=timeout
    )


def no_traceback(proc: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in proc.stderr and 'File "' not in proc.stderr, proc.stderr[-3000:]


def peak_mb(*args: str, home: Path, timeout: float = 300) -> tuple[subprocess.CompletedProcess[str], float]:
    """``companion ARGS...`` in a fresh wrapper whose only child it is: the result and the child's peak RSS in MB
    (``ru_maxrss`` of the wrapper's children: the test process's own size is not carried into it)."""
    wrapper = (
        "import resource, subprocess, sys\n"
        "p = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "sys.stderr.write(p.stderr); sys.stdout.write(p.stdout)\n"
        "print('PEAK', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, file=sys.stderr)\n"
        "sys.exit(p.returncode)\n"
    )
    env = dict(os.environ, COMPANION_HOME=str(home))
    proc = subprocess.run(
        [sys.executable, "-c", wrapper, sys.executable, "-m", "companion", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    lines = proc.stderr.strip().splitlines()
    peak = float(lines[-1].split()[1])
    proc.stderr = "\n".join(lines[:-1])
    return proc, peak
