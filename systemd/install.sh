#!/usr/bin/env bash
# Install Table Companion as a kiosk service on Raspberry Pi OS (64-bit, Bookworm or Trixie).
# Run from a clone of the repository: sudo systemd/install.sh
set -euo pipefail
[ "$(id -u)" = 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
src=$(cd "$(dirname "$0")/.." && pwd)
dest=/opt/table-companion
arch=$(uname -m)
[ "$arch" = aarch64 ] || [ "$arch" = x86_64 ] || { echo "needs a 64-bit OS (Kivy has no 32-bit ARM wheel); found $arch" >&2; exit 1; }
. /etc/os-release
apt-get update -qq
apt-get install -y -qq python3-venv python3-picamera2 python3-lgpio libmtdev1 libgl1 libegl1 libegl-mesa0 \
    libgl1-mesa-dri libgles2 rsync
id companion >/dev/null 2>&1 || useradd --system --create-home --home-dir /var/lib/table-companion companion
for g in gpio video render input audio; do getent group "$g" >/dev/null && usermod -aG "$g" companion; done
mkdir -p "$dest"
rsync -a --delete --exclude .venv --exclude .git "$src"/ "$dest"/
# picamera2 comes from apt: the venv sees system packages. On Bookworm the apt camera stack is built on
# numpy 1.24, so keep numpy and OpenCV on versions built for it; on Trixie apt numpy is 2.x.
python3 -m venv --system-site-packages "$dest/.venv"
if [ "${VERSION_CODENAME:-}" = bookworm ]; then
    "$dest/.venv/bin/pip" install -q "numpy<2" "opencv-python-headless<4.12" -e "$dest[pi]"
else
    "$dest/.venv/bin/pip" install -q -e "$dest[pi]"
fi
install -m 644 "$src/systemd/table-companion.service" /etc/systemd/system/table-companion.service
chown -R companion:companion /var/lib/table-companion
systemctl daemon-reload
systemctl enable --now table-companion.service
echo "Table Companion installed; logs: journalctl -u table-companion -f"
