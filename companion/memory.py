"""Handing the C heap's free pages back to the system (#21 item 16, #20 item 5).

glibc keeps freed heap memory for later use, and every thread that allocates may get a heap (an "arena") of its
own: the camera thread, onnxruntime's and Kivy's. Over a long evening the app's resident memory then ratchets up
though Python frees what it no longer needs. Two remedies, both no-ops where the C library is not glibc:
``limit_arenas`` at start (before threads are made) and ``release_memory`` at quiet moments (the home screen
shown, between the images ``companion dice read`` reads)."""

from __future__ import annotations

import ctypes
import ctypes.util
from typing import Any

M_ARENA_MAX = -8  # glibc's mallopt parameter

_libc: Any = None


def _glibc() -> Any:
    """The C library when it is glibc (it has ``malloc_trim`` and ``mallopt``), else False. Cached."""
    global _libc
    if _libc is None:
        name = ctypes.util.find_library("c")
        try:
            lib = ctypes.CDLL(name) if name else None
        except OSError:
            lib = None
        _libc = lib if lib is not None and hasattr(lib, "malloc_trim") and hasattr(lib, "mallopt") else False
    return _libc


def release_memory() -> bool:
    """Give the heap's free pages back to the system. True where that was done (glibc)."""
    lib = _glibc()
    if not lib:
        return False
    lib.malloc_trim(0)
    return True


def limit_arenas(arenas: int = 2) -> bool:
    """At most ``arenas`` malloc heaps for all threads made from now on (glibc's default is 8 per core: memory a
    thread freed stays in its own heap). True where that was set."""
    lib = _glibc()
    return bool(lib) and bool(lib.mallopt(M_ARENA_MAX, int(arenas)))


def tidy_memory() -> bool:
    """Collect Python's garbage cycles (screens left, frames read), then give the freed pages back
    (``release_memory``). For quiet moments: a full collection takes tens of milliseconds."""
    import gc

    gc.collect()
    return release_memory()
