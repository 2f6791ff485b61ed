#!/usr/bin/env bash
# Remove the Table Companion kiosk installed by systemd/install.sh: sudo systemd/uninstall.sh [--purge]
# Stops and disables the service, removes its unit file and /opt/table-companion. Saved games, calibration
# and settings in /var/lib/table-companion (and the companion user) stay unless --purge is given.
set -euo pipefail

usage() {
    echo "usage: sudo $0 [--purge]"
    echo "  --purge  also delete /var/lib/table-companion (saved games, calibration, settings) and the companion user"
}

purge=no
case "${1:-}" in
    "") ;;
    --purge) purge=yes ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
esac

# TABLE_COMPANION_ROOT: a directory standing in for / (the tests use it); empty on a real uninstall.
root=${TABLE_COMPANION_ROOT:-}
unit=table-companion.service
user=companion
state=/var/lib/table-companion

[ "$(id -u)" = 0 ] || { echo "run as root: sudo $0 $*" >&2; exit 1; }

systemctl disable --now "$unit" 2>/dev/null || true
rm -f "$root/etc/systemd/system/$unit"
rm -rf "$root/etc/systemd/system/$unit.d"  # the installer's drop-ins (network camera, no V3D)
systemctl daemon-reload
systemctl reset-failed "$unit" 2>/dev/null || true
rm -rf "$root/opt/table-companion"

if [ "$purge" = yes ]; then
    rm -rf "$root$state"
    if id "$user" >/dev/null 2>&1; then userdel "$user"; fi
    echo "Table Companion removed, with its saved games, calibration and settings."
else
    echo "Table Companion removed. Your saved games, calibration and settings are kept in $state"
    echo "(delete them too with: sudo $0 --purge)."
fi
