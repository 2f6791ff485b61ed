"""The kiosk unit file: systemd accepts it, and it keeps the properties the Pi install relies on."""

from __future__ import annotations

import configparser
import shutil
import subprocess
from pathlib import Path

import pytest

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "table-companion.service"


def unit() -> configparser.RawConfigParser:
    parser = configparser.RawConfigParser(strict=False)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read(UNIT)
    return parser


def test_kiosk_properties() -> None:
    service = unit()["Service"]
    assert service["Type"] == "notify"
    assert int(service["WatchdogSec"]) >= 10  # the UI pings every 5 s
    assert service["Restart"] == "on-failure"
    assert service["User"] != "root"
    for group in ("gpio", "video", "render", "input"):
        assert group in service["SupplementaryGroups"].split()
    assert service["NoNewPrivileges"] == "yes"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_accepts_the_unit(tmp_path: Path) -> None:
    copy = tmp_path / UNIT.name
    # ExecStart points into the Pi install; verify needs an executable there.
    copy.write_text(
        "\n".join(
            "ExecStart=/bin/true" if line.startswith("ExecStart=") else line for line in UNIT.read_text().splitlines()
        )
        + "\n"
    )
    proc = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_installer_is_valid_bash() -> None:
    proc = subprocess.run(["bash", "-n", str(UNIT.parent / "install.sh")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
