"""The memory benchmark's account of where the memory is (``companion bench --only memory``, #21 item 16)."""

from __future__ import annotations

import sys

import pytest

from companion.ui.memory_bench import rss_by_mapping, rss_mb


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/smaps")
def test_the_biggest_mappings_are_named_and_add_up_to_no_more_than_the_rss() -> None:
    ballast = bytearray(64 * 1024 * 1024)  # 64 MB of anonymous memory, touched
    for i in range(0, len(ballast), 4096):
        ballast[i] = 1
    where = rss_by_mapping(most=5)
    assert 0 < len(where) <= 5
    assert list(where.values()) == sorted(where.values(), reverse=True)
    assert sum(where.values()) <= rss_mb() + 1
    # the ballast is anonymous memory (a big bytearray is its own mapping, or in the heap)
    assert where.get("[anon]", 0) + where.get("[heap]", 0) >= 60
    del ballast


def test_no_smaps_gives_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    import builtins

    real_open = builtins.open

    def refusing(path, *args, **kwargs):  # type: ignore[no-untyped-def]
        if str(path) == "/proc/self/smaps":
            raise FileNotFoundError(path)
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refusing)
    assert rss_by_mapping() == {}
