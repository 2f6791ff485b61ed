"""The kiosk unit file: systemd accepts it, and it keeps the properties the Pi install relies on."""

from __future__ import annotations

import configparser
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
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


# --- the Pi audit: working directory, network cameras, installer and uninstaller -------------------------------

SYSTEMD = UNIT.parent
INSTALL = SYSTEMD / "install.sh"
UNINSTALL = SYSTEMD / "uninstall.sh"
# Real tools the scripts may use under the tests' PATH; anything else (apt-get, pip, useradd...) is missing there,
# so a script that went further than a test expects stops at "command not found" instead of touching this machine.
TOOLS = ("cat", "dirname", "install", "mktemp", "rm", "mkdir", "chmod", "sh")


def environment() -> dict[str, str]:
    """The unit's Environment= lines (configparser keeps only the last of a repeated key)."""
    env: dict[str, str] = {}
    for line in UNIT.read_text().splitlines():
        if line.startswith("Environment="):
            key, _, value = line.removeprefix("Environment=").partition("=")
            env[key] = value
    return env


def test_working_directory_is_writable_by_the_service() -> None:
    """lgpio makes its notify pipe in the current directory at import: a read-only one leaves no GPIO."""
    service = unit()["Service"]
    workdir = Path(service["WorkingDirectory"])
    writable = [Path("/var/lib") / d for d in service.get("StateDirectory", "").split()]
    writable += [Path(p.lstrip("-")) for p in service.get("ReadWritePaths", "").split()]
    assert any(workdir == w or w in workdir.parents for w in writable), (workdir, writable)
    assert not workdir.is_relative_to("/opt")


def test_network_camera_streams_are_allowed() -> None:
    """camera.source = "webcam:URL" (rtsp/http stream) needs IP sockets."""
    families = unit()["Service"].get("RestrictAddressFamilies", "").split()
    if families:  # no restriction at all would allow them too
        assert {"AF_INET", "AF_INET6", "AF_UNIX"} <= set(families)


def test_scripts_are_valid_bash() -> None:
    for script in (INSTALL, UNINSTALL):
        proc = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_scripts_pass_shellcheck() -> None:
    proc = subprocess.run(["shellcheck", str(INSTALL), str(UNINSTALL)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stdout


def fake_bin(tmp_path: Path, stubs: dict[str, str]) -> Path:
    """A PATH directory with the real TOOLS and shell stubs that log their arguments to ``calls``."""
    bin_dir = Path(tempfile.mkdtemp(prefix="bin", dir=tmp_path))
    for tool in TOOLS:
        real = shutil.which(tool)
        assert real, tool
        (bin_dir / tool).symlink_to(real)
    for name, body in stubs.items():
        stub = bin_dir / name
        stub.write_text(f'#!/bin/sh\necho "{name} $*" >> "{tmp_path}/calls"\n{body}\n')
        stub.chmod(0o755)
    return bin_dir


def calls(tmp_path: Path) -> list[str]:
    log = tmp_path / "calls"
    return log.read_text().splitlines() if log.exists() else []


def run_function(tmp_path: Path, stubs: dict[str, str], code: str) -> subprocess.CompletedProcess[str]:
    """Source install.sh (which then only defines its functions) and run ``code`` with the stubbed PATH."""
    bash = shutil.which("bash") or "/bin/bash"
    env = {"PATH": str(fake_bin(tmp_path, stubs)), "LC_ALL": "C"}
    script = f'set -euo pipefail; source "{INSTALL}"; {code}'
    return subprocess.run([bash, "-c", script, "test"], env=env, capture_output=True, text=True, timeout=30)


@pytest.mark.parametrize(
    ("kernel", "packages", "ok"),
    [
        ("aarch64", "arm64", True),
        ("x86_64", "amd64", True),
        ("aarch64", "armhf", False),  # 32-bit Pi OS with the 64-bit kernel: uname alone says aarch64
        ("armv7l", "armhf", False),
    ],
)
def test_installer_needs_a_64_bit_userland(tmp_path: Path, kernel: str, packages: str, ok: bool) -> None:
    stubs = {"uname": f"echo {kernel}", "dpkg": f"echo {packages}"}
    proc = run_function(tmp_path, stubs, "check_arch && echo ARCH-OK")
    assert ("ARCH-OK" in proc.stdout) is ok, proc.stdout + proc.stderr
    if not ok:
        assert "64-bit Raspberry Pi OS" in proc.stderr
    if packages == "armhf" and kernel == "aarch64":
        assert "32-bit edition" in proc.stderr


def systemctl_stub(unit_active: bool, desktop_active: bool, default: str = "multi-user.target") -> dict[str, str]:
    return {
        "systemctl": f"""case "$*" in
  "is-active --quiet table-companion.service") exit {0 if unit_active else 3} ;;
  "is-active --quiet display-manager.service") exit {0 if desktop_active else 3} ;;
  "get-default") echo {default} ;;
  "cat display-manager.service") exit {0 if desktop_active or default == "graphical.target" else 1} ;;
esac
exit 0"""
    }


def test_installer_restarts_a_running_service_so_an_update_takes_effect(tmp_path: Path) -> None:
    proc = run_function(tmp_path, systemctl_stub(unit_active=True, desktop_active=False), "start_service")
    assert proc.returncode == 0, proc.stderr
    assert "systemctl restart table-companion.service" in calls(tmp_path)
    assert "systemctl enable table-companion.service" in calls(tmp_path)
    assert "updated and restarted" in proc.stdout


def test_installer_starts_a_stopped_service(tmp_path: Path) -> None:
    proc = run_function(tmp_path, systemctl_stub(unit_active=False, desktop_active=False), "start_service")
    assert proc.returncode == 0, proc.stderr
    assert "systemctl restart table-companion.service" in calls(tmp_path)
    assert "set-default" not in proc.stdout


@pytest.mark.parametrize(("desktop_active", "default"), [(True, "multi-user.target"), (False, "graphical.target")])
def test_installer_explains_a_desktop_in_the_way_and_changes_nothing(
    tmp_path: Path, desktop_active: bool, default: str
) -> None:
    stubs = systemctl_stub(unit_active=False, desktop_active=desktop_active, default=default)
    proc = run_function(tmp_path, stubs, "start_service")
    assert proc.returncode == 0, proc.stderr
    assert "sudo systemctl set-default multi-user.target" in proc.stdout
    assert "raspi-config" in proc.stdout
    assert "enabled but not started" in proc.stdout
    made = calls(tmp_path)
    assert "systemctl enable table-companion.service" in made
    assert not [c for c in made if "set-default" in c or "restart" in c or " start" in c or "stop" in c], made


def test_installer_config_path_is_the_one_the_kiosk_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from companion import paths

    monkeypatch.delenv("COMPANION_HOME", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", environment()["XDG_CONFIG_HOME"])
    proc = run_function(tmp_path, {}, 'echo "$config_file"')
    assert proc.stdout.strip() == str(paths.config_file())


def test_installer_writes_a_fullscreen_config_once(tmp_path: Path) -> None:
    import getpass

    from companion import config

    target = tmp_path / "state" / "config" / "table-companion" / "config.toml"
    code = f'config_file="{target}"; user="{getpass.getuser()}"; write_default_config'
    proc = run_function(tmp_path, {}, code)
    assert proc.returncode == 0, proc.stderr
    loaded = config.load(target)
    assert loaded.problems == []
    assert loaded.get("display", "fullscreen") is True
    # A player's own settings are never overwritten by a later run (an update).
    target.write_text("[display]\nfullscreen = false\n")
    proc = run_function(tmp_path, {}, code)
    assert proc.returncode == 0, proc.stderr
    assert target.read_text() == "[display]\nfullscreen = false\n"
    assert "Keeping the existing settings" in proc.stdout


def fake_install(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    root = tmp_path / "root"
    for d in ("etc/systemd/system", "opt/table-companion/.venv/bin", "var/lib/table-companion/data/table-companion"):
        (root / d).mkdir(parents=True)
    (root / "etc/systemd/system/table-companion.service").write_text("[Service]\n")
    (root / "var/lib/table-companion/data/table-companion/journal.sqlite3").write_bytes(b"games")
    env = {"TABLE_COMPANION_ROOT": str(root), "LC_ALL": "C"}
    env["PATH"] = str(
        fake_bin(tmp_path, {"id": '[ "$1" = -u ] && echo 0; exit 0', "systemctl": "exit 0", "userdel": "exit 0"})
    )
    return root, env


def uninstall(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    bash = shutil.which("bash") or "/bin/bash"
    return subprocess.run([bash, str(UNINSTALL), *args], env=env, capture_output=True, text=True, timeout=30)


def test_uninstall_keeps_the_games(tmp_path: Path) -> None:
    root, env = fake_install(tmp_path)
    proc = uninstall(env)
    assert proc.returncode == 0, proc.stderr
    assert "systemctl disable --now table-companion.service" in calls(tmp_path)
    assert not (root / "etc/systemd/system/table-companion.service").exists()
    assert not (root / "opt/table-companion").exists()
    assert (root / "var/lib/table-companion/data/table-companion/journal.sqlite3").read_bytes() == b"games"
    assert not [c for c in calls(tmp_path) if c.startswith("userdel")]
    assert "--purge" in proc.stdout


def test_uninstall_purge_removes_the_data_and_the_user(tmp_path: Path) -> None:
    root, env = fake_install(tmp_path)
    proc = uninstall(env, "--purge")
    assert proc.returncode == 0, proc.stderr
    assert not (root / "var/lib/table-companion").exists()
    assert not (root / "opt/table-companion").exists()
    assert "userdel companion" in calls(tmp_path)


def test_uninstall_rejects_unknown_options(tmp_path: Path) -> None:
    root, env = fake_install(tmp_path)
    proc = uninstall(env, "--purg")
    assert proc.returncode == 2
    assert (root / "opt/table-companion").exists()
    assert calls(tmp_path) == []


# -- the state tree belongs to the service user: the root installer never follows a link planted in it (#22.10) --


def _owner(path: Path) -> int:
    return path.lstat().st_uid


@pytest.fixture
def open_tmp() -> Iterator[Path]:
    """A folder the service user (here: nobody) can reach, unlike pytest's own, which only root may enter."""
    folder = Path(tempfile.mkdtemp(prefix="companion-state-"))
    folder.chmod(0o755)
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_state(step: str, state: Path, user: str = "nobody") -> subprocess.CompletedProcess[str]:
    """Source install.sh and run ``step`` on the state tree ``state`` for ``user``, with the system's tools."""
    bash = shutil.which("bash") or "/bin/bash"
    config = state / "config" / "table-companion" / "config.toml"
    script = f'set -euo pipefail; source "{INSTALL}"; state="{state}"; config_file="{config}"; user="{user}"; {step}'
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"}
    return subprocess.run([bash, "-c", script, "test"], env=env, capture_output=True, text=True, timeout=30)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="changing owners needs root, as the installer has")


@needs_root
@pytest.mark.parametrize("planted", ["config", "data/journal.sqlite3", "."])
def test_installer_refuses_a_symlink_in_the_state_tree_and_gives_nothing_away(open_tmp: Path, planted: str) -> None:
    tmp_path = open_tmp
    secret = tmp_path / "root-owned"
    secret.mkdir()
    (secret / "shadow").write_text("root's")
    os.chown(secret, 0, 0)
    state = tmp_path / "state"
    if planted == ".":
        state.symlink_to(secret, target_is_directory=True)
    else:
        (state / planted).parent.mkdir(parents=True, exist_ok=True)
        (state / planted).symlink_to(secret if planted == "config" else secret / "shadow")
    proc = run_state("prepare_state && write_default_config", state)
    assert proc.returncode != 0
    assert "symbolic link" in proc.stderr and str(state) in proc.stderr
    assert _owner(secret) == 0 and _owner(secret / "shadow") == 0
    assert sorted(p.name for p in secret.iterdir()) == ["shadow"]  # nothing made in there


@needs_root
def test_installer_gives_a_clean_state_tree_to_the_service_user(open_tmp: Path) -> None:
    import pwd

    nobody = pwd.getpwnam("nobody").pw_uid
    state = open_tmp / "state"
    (state / "data").mkdir(parents=True)
    (state / "data" / "journal.sqlite3").write_text("games")
    proc = run_state("prepare_state && write_default_config", state)
    assert proc.returncode == 0, proc.stderr
    config = state / "config" / "table-companion" / "config.toml"
    for path in (state, state / "data" / "journal.sqlite3", state / "config", config.parent, config):
        assert _owner(path) == nobody, path
    assert "fullscreen = true" in config.read_text()


@needs_root
def test_the_config_is_written_as_the_service_user_so_a_link_made_meanwhile_reaches_nothing(open_tmp: Path) -> None:
    tmp_path = open_tmp
    """A link planted after the check (a race) is followed, if at all, with the service user's rights only."""
    secret = tmp_path / "root-owned"
    secret.mkdir(mode=0o755)
    state = tmp_path / "state"
    state.mkdir()
    (state / "config").symlink_to(secret, target_is_directory=True)
    proc = run_state("write_default_config", state)
    assert proc.returncode != 0
    assert list(secret.iterdir()) == [] and _owner(secret) == 0


# -- hardening (#22 item 13): the score, the devices the table needs, the drop-ins, W^X ------------------------

REPO = UNIT.parents[1]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_the_unit_is_hardened_and_still_reaches_every_device_the_table_needs() -> None:
    proc = subprocess.run(
        ["systemd-analyze", "security", "--offline=yes", "--no-pager", str(UNIT)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    line = next(x for x in proc.stdout.splitlines() if "Overall exposure level" in x)
    score = float(line.split(":")[1].split()[0])
    assert score <= 1.5, line  # was 3.6
    service = unit()["Service"]
    assert service["DevicePolicy"] == "closed"
    text = UNIT.read_text()
    for device in ("drm", "video4linux", "media", "dma_heap", "gpiochip", "input", "alsa"):
        assert f"DeviceAllow=char-{device} rw" in text, device  # display, camera, GPIO, touch, sound
    assert "ProcSubset" not in unit()["Service"]  # gpiozero reads /proc/device-tree or /proc/cpuinfo for the board


def run_dropins(tmp_path: Path, *, config: str, render_driver: str | None) -> subprocess.CompletedProcess[str]:
    drm = tmp_path / "drm"
    if render_driver is not None:
        (drm / "renderD128" / "device").mkdir(parents=True)
        (tmp_path / "drivers" / render_driver).mkdir(parents=True)
        (drm / "renderD128" / "device" / "driver").symlink_to(tmp_path / "drivers" / render_driver)
    config_file = tmp_path / "config.toml"
    config_file.write_text(config)
    dropins = tmp_path / "table-companion.service.d"
    script = (
        f'set -euo pipefail; source "{INSTALL}"; dest="{REPO}"; config_file="{config_file}"; '
        f'dropin_dir="{dropins}"; drm_sys="{drm}"; write_dropins'
    )
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"}
    return subprocess.run(["bash", "-c", script, "test"], env=env, capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not (REPO / ".venv" / "bin" / "python").exists(), reason="needs the repository's .venv")
@pytest.mark.parametrize(
    ("source", "network"),
    [("webcam:rtsp://10.0.0.9/tray", True), ("webcam:0", False), ("pi", False), ("webcam:/dev/video2", False)],
)
def test_a_network_camera_lifts_the_ip_ban_and_nothing_else_does(tmp_path: Path, source: str, network: bool) -> None:
    proc = run_dropins(tmp_path, config=f'[camera]\nsource = "{source}"\n', render_driver="v3d")
    assert proc.returncode == 0, proc.stderr
    dropin = tmp_path / "table-companion.service.d" / "network-camera.conf"
    assert dropin.exists() is network
    if network:
        assert "IPAddressDeny=\n" in dropin.read_text()
    assert not (tmp_path / "table-companion.service.d" / "no-v3d.conf").exists()


@pytest.mark.parametrize("driver", [None, "vc4"])
def test_without_the_v3d_gpu_driver_write_execute_memory_is_allowed_for_llvmpipe(
    tmp_path: Path, driver: str | None
) -> None:
    proc = run_dropins(tmp_path, config="", render_driver=driver)
    assert proc.returncode == 0, proc.stderr
    dropin = tmp_path / "table-companion.service.d" / "no-v3d.conf"
    assert "MemoryDenyWriteExecute=no" in dropin.read_text()
    assert "vc4-kms-v3d" in proc.stdout


MDWE = """
import ctypes, os, sys
if ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0) != 0:  # PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN
    sys.exit(77)
os.execv(sys.argv[1], sys.argv[1:])
"""


def _under_wx(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """``companion ARGS`` with no memory ever both writable and executable (the kernel's PR_SET_MDWE, what
    MemoryDenyWriteExecute= asks for); skips where the kernel has no PR_SET_MDWE (before 6.3)."""
    import sys

    full = dict(os.environ, COMPANION_HOME=str(tmp_path), KIVY_HOME=str(tmp_path / "kivy"), **(env or {}))
    full.pop("DISPLAY", None)
    proc = subprocess.run(
        [sys.executable, "-c", MDWE, sys.executable, "-m", "companion", *args],
        env=full,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if proc.returncode == 77:
        pytest.skip("this kernel has no PR_SET_MDWE")
    return proc


def test_the_dice_reader_runs_with_memory_deny_write_execute(tmp_path: Path) -> None:
    photo = next((REPO / "companion" / "vision" / "samples" / "felt-trays" / "images").glob("*.jpg"))
    proc = _under_wx(tmp_path, "dice", "read", str(photo))  # onnxruntime, OpenCV, numpy
    assert proc.returncode == 0 and "sum" in proc.stdout, proc.stderr[-2000:]


@pytest.mark.ui  # draws the app's first screen offscreen (a subprocess)
def test_the_app_draws_with_memory_deny_write_execute(tmp_path: Path) -> None:
    """Kivy, SDL and Python draw the first screen under W^X. Mesa here renders in software: llvmpipe needs W+X
    memory for its JIT (the installer's no-v3d.conf), so softpipe stands in for the Pi's V3D, which needs none."""
    out = tmp_path / "shot.png"
    proc = _under_wx(tmp_path, "--sim", "--screenshot", str(out), env={"GALLIUM_DRIVER": "softpipe"})
    assert proc.returncode == 0 and out.exists(), proc.stderr[-2000:]


PI_PROBE = """
import glob, json, os
seen = {}
for name, pattern in (("display", "/dev/dri/card*"), ("render", "/dev/dri/renderD*"), ("input", "/dev/input/event*"),
                      ("sound", "/dev/snd/control*"), ("gpio", "/dev/gpiochip*"), ("camera", "/dev/media*")):
    paths = sorted(glob.glob(pattern))
    try:
        os.close(os.open(paths[0], os.O_RDWR | os.O_NONBLOCK))
        seen[name] = "ok"
    except (IndexError, OSError) as err:
        seen[name] = repr(err)
try:
    from gpiozero import Button
    from gpiozero.pins.lgpio import LGPIOFactory
    Button(17, pin_factory=LGPIOFactory()).close()
    seen["gpiozero"] = "ok"
except Exception as err:
    seen["gpiozero"] = repr(err)
try:
    from picamera2 import Picamera2
    cam = Picamera2(); cam.configure(cam.create_preview_configuration(main={"size": (640, 480), "format": "RGB888"}))
    cam.start(); frame = cam.capture_array(); cam.stop(); cam.close()
    seen["picamera2"] = "ok" if frame.shape[:2] == (480, 640) else str(frame.shape)
except Exception as err:
    seen["picamera2"] = repr(err)
print(json.dumps(seen))
"""
SANDBOX_SKIP = {"Type", "NotifyAccess", "ExecStart", "Restart", "RestartSec", "WatchdogSec", "TimeoutStartSec"}


@pytest.mark.skipif(os.environ.get("COMPANION_PI_TESTS") != "1", reason="set COMPANION_PI_TESTS=1 on a Raspberry Pi")
def test_on_the_pi_the_hardened_service_reaches_display_camera_gpio_touch_and_sound() -> None:
    """Run as root on an installed Pi (sudo systemd/install.sh first, the service stopped so the camera is free):
    a probe in a transient service with every [Service] setting of the unit opens each device the table uses."""
    props: list[str] = []
    for line in UNIT.read_text().splitlines():
        key, sep, value = line.partition("=")
        if sep and not line.startswith(("#", "[")) and key not in SANDBOX_SKIP:
            props += ["-p", f"{key}={value}"]
    proc = subprocess.run(
        ["systemd-run", "--wait", "--pipe", "--quiet", *props, "/opt/table-companion/.venv/bin/python", "-c", PI_PROBE],
        capture_output=True,
        text=True,
        timeout=120,
    )
    import json

    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert all(result == "ok" for result in seen.values()), seen
