"""companion/memory.py: freed heap pages go back to the system (#21 item 16)."""

from __future__ import annotations

import ctypes
import ctypes.util

import pytest

from companion import memory
from companion.ui.memory_bench import rss_mb

glibc = pytest.mark.skipif(not memory._glibc(), reason="malloc_trim is glibc's")


@glibc
def test_freed_heap_pages_go_back_to_the_system() -> None:
    """50 MB of small blocks freed behind one still held stay resident (glibc cannot shrink its heap past the held
    block) until ``release_memory`` hands the free pages back."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"))
    libc.malloc.restype = ctypes.c_void_p
    libc.free.argtypes = [ctypes.c_void_p]
    blocks = [libc.malloc(1000) for _ in range(50_000)]
    for block in blocks:
        ctypes.memset(block, 1, 1000)  # touched: resident
    held = libc.malloc(1000)
    for block in blocks:
        libc.free(block)
    before = rss_mb()
    assert memory.release_memory() is True
    after = rss_mb()
    libc.free(held)
    assert before - after > 30, (before, after)


@glibc
def test_arenas_can_be_limited() -> None:
    assert memory.limit_arenas(2) is True


def test_without_glibc_nothing_is_done(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memory, "_libc", False)
    assert memory.release_memory() is False
    assert memory.limit_arenas() is False
    assert memory.tidy_memory() is False
