#!/usr/bin/env bash
# Install or update Table Companion as a kiosk service on Raspberry Pi OS (64-bit, Bookworm or Trixie).
# Run from a clone of the repository: sudo systemd/install.sh  (run it again after `git pull` to update).
# Remove it with systemd/uninstall.sh.
set -euo pipefail

dest=/opt/table-companion
state=/var/lib/table-companion
unit=table-companion.service
user=companion
# The app reads $XDG_CONFIG_HOME/table-companion/config.toml; the unit sets XDG_CONFIG_HOME=$state/config.
config_file=$state/config/table-companion/config.toml
# Drop-ins lifting the unit's hardening where this table's own setup needs it (rewritten on every run).
dropin_dir=/etc/systemd/system/$unit.d
drm_sys=/sys/class/drm

# Kivy has no 32-bit ARM build. A 32-bit Raspberry Pi OS often runs the 64-bit kernel, so `uname -m` says
# aarch64 there: the packages' architecture (dpkg) is what decides.
check_arch() {
    local kernel userland
    kernel=$(uname -m)
    userland=$(dpkg --print-architecture 2>/dev/null || echo unknown)
    case "$kernel/$userland" in
        aarch64/arm64 | x86_64/amd64) return 0 ;;
    esac
    {
        echo "Table Companion needs the 64-bit Raspberry Pi OS (Kivy has no 32-bit ARM build)."
        if [ "$userland" = armhf ] || [ "$userland" = armel ]; then
            echo "This system is the 32-bit edition (packages: $userland), even though its kernel is $kernel."
        else
            echo "This system's packages are '$userland' (kernel: $kernel)."
        fi
        echo "Write 'Raspberry Pi OS (64-bit)' to the SD card with Raspberry Pi Imager, then run this installer again."
    } >&2
    return 1
}

# True when a desktop holds the display now or will at boot: the kiosk draws through KMS/DRM and cannot then.
desktop_in_the_way() {
    systemctl is-active --quiet display-manager.service && return 0
    [ "$(systemctl get-default 2>/dev/null)" = graphical.target ] &&
        systemctl cat display-manager.service >/dev/null 2>&1
}

desktop_notice() {
    cat <<'EOF'

NOTE: this Pi runs a desktop (or starts one at boot). The kiosk draws straight to the screen through
KMS/DRM and cannot while the desktop holds the display. To use the kiosk, boot to the console instead:
    sudo systemctl set-default multi-user.target && sudo reboot
or: sudo raspi-config -> System Options -> Boot / Auto Login -> Console, then reboot.
To go back to the desktop later: sudo systemctl set-default graphical.target && sudo reboot
(This installer does not change how the Pi boots.)

EOF
}

# The state tree (/var/lib/table-companion) belongs to the service user, so a compromised app could plant a
# symbolic link there for the next root run of this installer to follow (giving it a root-owned folder, say).
# The app never makes links: refuse any, and give the tree to the user without ever following one (chown -h).
prepare_state() {
    if [ -L "$state" ]; then
        echo "Refusing to install: $state is a symbolic link (it must be a plain folder; remove the link first)." >&2
        return 1
    fi
    mkdir -p "$state"
    local links
    links=$(find "$state" -type l -print | head -n 5)
    if [ -n "$links" ]; then
        {
            echo "Refusing to install: symbolic links in $state (the app never makes any, so something else did:"
            echo "remove them, then run this installer again):"
            echo "$links"
        } >&2
        return 1
    fi
    chown -hR "$user:" "$state"  # the user and its own group
}

# Inside the state tree everything is done as the service user: a link planted there after the check above
# reaches, at most, what that user could reach anyway.
as_service_user() {
    if [ "$EUID" -ne 0 ] || [ "$user" = root ]; then
        "$@"
    else
        runuser -u "$user" -- "$@"
    fi
}

# A first kiosk config (fullscreen); an existing file, the player's settings, is never touched.
write_default_config() {
    if [ -e "$config_file" ] || [ -L "$config_file" ]; then
        echo "Keeping the existing settings in $config_file"
        return 0
    fi
    as_service_user mkdir -p -m 755 "$(dirname "$config_file")"
    # shellcheck disable=SC2016 # $1 is expanded by the inner shell, the service user's
    as_service_user sh -c 'umask 022; set -o noclobber; cat > "$1"' sh "$config_file" <<'EOF'
# Table Companion settings for the kiosk, written once by systemd/install.sh (it never overwrites this
# file). Every key is optional; see "Configuration" in the README. Restart to apply:
#     sudo systemctl restart table-companion
[display]
fullscreen = true
EOF
    echo "Wrote the kiosk settings to $config_file"
}

# camera.source as the app reads it (its own parser; "auto" when there is no config or no venv yet).
camera_source() {
    "$dest/.venv/bin/python" -c 'import sys; from pathlib import Path; from companion import config
print(config.load(Path(sys.argv[1])).get("camera", "source"))' "$config_file" 2>/dev/null || echo auto
}

# True when a GPU render node is driven by V3D (Pi 4 and 5 with the usual vc4-kms-v3d overlay): Mesa renders
# there, not with llvmpipe, whose JIT needs writable and executable memory.
gpu_renders() {
    local driver link
    for driver in "$drm_sys"/renderD*/device/driver; do
        link=$(readlink "$driver" 2>/dev/null) || continue
        case "${link##*/}" in v3d) return 0 ;; esac
    done
    return 1
}

write_dropins() {
    mkdir -p "$dropin_dir"
    local source
    source=$(camera_source)
    case "$source" in
        webcam:*://*)
            printf '%s\n' '# Written by systemd/install.sh: camera.source is a network stream, so IP traffic is allowed.' \
                '[Service]' 'IPAddressDeny=' >"$dropin_dir/network-camera.conf"
            echo "camera.source is a network stream: the service may use the network."
            ;;
        *) rm -f "$dropin_dir/network-camera.conf" ;;
    esac
    if gpu_renders; then
        rm -f "$dropin_dir/no-v3d.conf"
    else
        printf '%s\n' '# Written by systemd/install.sh: no V3D GPU driver, so Mesa renders with llvmpipe, which needs' \
            '# writable and executable memory for its JIT.' '[Service]' 'MemoryDenyWriteExecute=no' \
            >"$dropin_dir/no-v3d.conf"
        echo "No V3D GPU render node found: the display is drawn in software (slower); enable dtoverlay=vc4-kms-v3d."
    fi
}

# Enable at boot; start it, or restart it when it runs already so that an update takes effect.
start_service() {
    local desktop=no
    if desktop_in_the_way; then
        desktop=yes
        desktop_notice
    fi
    systemctl enable "$unit"
    if systemctl is-active --quiet "$unit"; then
        systemctl restart "$unit"
        echo "Table Companion updated and restarted."
    elif [ "$desktop" = yes ]; then
        echo "Table Companion is installed and enabled but not started: it starts at boot once the Pi boots to the console."
    else
        systemctl reset-failed "$unit" 2>/dev/null || true
        systemctl restart "$unit"
        echo "Table Companion installed and started."
    fi
}

main() {
    [ "$(id -u)" = 0 ] || { echo "run as root: sudo $0" >&2; exit 1; }
    check_arch
    local src
    src=$(cd "$(dirname "$0")/.." && pwd)
    # shellcheck source=/dev/null
    . /etc/os-release
    apt-get update -qq
    apt-get install -y -qq python3-venv python3-picamera2 python3-lgpio libmtdev1 libgl1 libegl1 libegl-mesa0 \
        libgl1-mesa-dri libgles2 rsync fontconfig fonts-noto-cjk
    id "$user" >/dev/null 2>&1 || useradd --system --create-home --home-dir "$state" "$user"
    for g in gpio video render input audio; do
        if getent group "$g" >/dev/null; then usermod -aG "$g" "$user"; fi
    done
    mkdir -p "$dest"
    rsync -a --delete --exclude .venv --exclude .git "$src"/ "$dest"/
    # picamera2 comes from apt: the venv sees system packages. On Bookworm the apt camera stack is built on
    # numpy 1.24, so keep numpy, OpenCV and matplotlib (3.11 needs numpy 1.25) on versions built for it; on
    # Trixie apt numpy is 2.x.
    python3 -m venv --system-site-packages "$dest/.venv"
    if [ "${VERSION_CODENAME:-}" = bookworm ]; then
        "$dest/.venv/bin/pip" install -q "numpy<2" "opencv-python-headless<4.12" "matplotlib<3.11" -e "${dest}[pi]"
    else
        "$dest/.venv/bin/pip" install -q -e "${dest}[pi]"
    fi
    install -m 644 "$src/systemd/$unit" "/etc/systemd/system/$unit"
    prepare_state
    write_default_config
    write_dropins
    systemctl daemon-reload
    start_service
    echo "Logs: journalctl -u table-companion -f"
}

# Run when executed; when sourced (the tests), only define the functions.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    main "$@"
fi
