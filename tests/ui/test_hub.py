"""The hardware→UI queue: order kept, handlers per kind, threads never block."""

from __future__ import annotations

import threading

from companion.ui.hub import Hub


def test_items_are_delivered_in_order_to_their_handlers() -> None:
    woken: list[int] = []
    hub = Hub(wake=lambda: woken.append(1))
    got: list[tuple[str, int]] = []
    hub.on("button", lambda p: got.append(("button", p)))
    hub.on("camera", lambda p: got.append(("camera", p)))
    hub.put("button", 1)
    hub.put("camera", 2)
    hub.put("button", 3)
    hub.put("unheard", 4)
    assert got == []  # nothing runs on the producer's thread
    assert hub.drain() == 4
    assert got == [("button", 1), ("camera", 2), ("button", 3)]
    assert len(woken) == 4


def test_many_threads_put_without_loss() -> None:
    hub = Hub()
    got: list[int] = []
    hub.on("n", got.append)
    threads = [threading.Thread(target=lambda k=k: [hub.put("n", k * 100 + i) for i in range(100)]) for k in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    hub.drain()
    assert sorted(got) == list(range(500))


def test_full_queue_drops_instead_of_blocking() -> None:
    hub = Hub(max_items=3)
    for i in range(5):
        hub.put("n", i)
    assert hub.dropped == 2
