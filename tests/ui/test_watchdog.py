"""sd_notify: messages reach $NOTIFY_SOCKET; without it nothing happens."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from companion.ui.watchdog import notify


def test_notify_sends_to_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "notify.sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        assert notify("WATCHDOG=1")
        assert server.recv(100) == b"WATCHDOG=1"


def test_notify_without_systemd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify("READY=1")


def test_notify_dead_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone.sock"))
    assert not notify("READY=1")
