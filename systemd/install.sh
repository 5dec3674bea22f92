#!/usr/bin/env bash
# Installs robo-companion on Raspberry Pi OS (Bookworm or Trixie) as a kiosk that starts at boot.
#
#   sudo systemd/install.sh              install, or update after `git pull` (safe to run again)
#   systemd/install.sh --dry-run         print every step, change nothing (no root needed)
#   sudo systemd/install.sh --uninstall  remove what the installer added; keep the game history
#                                        in /var/lib/robo-companion
#
# Options: --dry-run, --uninstall, --root DIR (put every file under DIR and pass --root to
# useradd/groupadd/systemctl: the test suite runs the installer this way, with apt-get, pip and
# friends replaced by recording stubs), -h/--help.
#
# What it does, in order: OS packages (python3-picamera2, python3-lgpio, the libraries Kivy's
# wheel loads), the groups and the service user robo-companion, a venv at /opt/robo-companion
# that sees the OS's picamera2 (--system-site-packages), pip install of this checkout with numpy
# pinned to the OS's numpy (picamera2 is compiled against it), /etc/robo-companion/config.toml
# (never overwritten), the siren board's udev rule, the systemd unit, enabled.
set -euo pipefail
# Whatever root's umask, the service account must be able to read what is installed.
umask 022
# `su` without `-` and some sudo setups leave the sbin folders (useradd, groupadd) off PATH.
PATH=$PATH:/usr/local/sbin:/usr/sbin:/sbin

readonly APP=robo-companion
readonly SERVICE_USER=robo-companion
readonly GROUPS_NEEDED=(video render input dialout gpio)
# OS packages. "a|b": the first one the OS knows (Trixie renamed some libraries for 64-bit time).
readonly PACKAGES_REQUIRED=(
    python3 python3-venv python3-pip ca-certificates
    # what Kivy's SDL2 wheel opens at run time for KMS/DRM, GLES, touch and sound
    libegl1 libgles2 libgl1 libgbm1 libdrm2 "libmtdev1t64|libmtdev1" "libasound2t64|libasound2"
)
# Only in Raspberry Pi OS's own repository: without them there is no Pi camera / header GPIO.
readonly PACKAGES_OPTIONAL=(python3-picamera2 python3-lgpio)

root=""
dry_run=0
action=install
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while (($#)); do
    case "$1" in
        --dry-run|-n) dry_run=1; shift ;;
        --uninstall) action=uninstall; shift ;;
        --root) [[ $# -ge 2 ]] || { echo "install.sh: --root needs a directory" >&2; exit 2; }
                root=$(cd "$2" && pwd) || exit 2; shift 2 ;;
        --root=*) root=$(cd "${1#--root=}" && pwd) || exit 2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done

# Paths as the running system sees them, and as this script writes them (under --root).
readonly VENV=/opt/$APP
readonly CONFIG_DIR=/etc/$APP
readonly STATE_DIR=/var/lib/$APP
readonly UNIT=/etc/systemd/system/$APP.service
readonly UDEV_RULE=/etc/udev/rules.d/99-robo-siren.rules
readonly STAMP=$VENV/.installed-from
r() { printf '%s%s' "$root" "$1"; }

changes=0
step() { printf '==> %s\n' "$*"; }
ok() { printf '    ok: %s\n' "$*"; }
note() { printf '    note: %s\n' "$*"; }
warn() { printf '    warning: %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }
# Every change goes through here, so --dry-run shows each one and does none of them.
run() {
    changes=$((changes + 1))
    local shown
    shown=$(printf '%q ' "$@")
    if ((dry_run)); then
        printf '    would run: %s\n' "${shown% }"
    else
        printf '    run: %s\n' "${shown% }"
        "$@"
    fi
}

# These commands honour --root themselves; apt-get, pip and udevadm act on this host.
root_opt=()
systemctl_root=(systemctl)
if [[ -n $root ]]; then
    root_opt=(--root "$root")
    systemctl_root=(systemctl --root="$root")
fi

os_codename() {
    local file
    file=$(r /etc/os-release)
    [[ -r $file ]] || { echo unknown; return; }
    # shellcheck disable=SC1090
    (. "$file" && echo "${VERSION_CODENAME:-unknown}")
}

has_group() { grep -q "^$1:" "$(r /etc/group)" 2>/dev/null; }
has_user() { grep -q "^$1:" "$(r /etc/passwd)" 2>/dev/null; }
user_in_group() {
    local line members
    line=$(grep "^$2:" "$(r /etc/group)" 2>/dev/null) || return 1
    members=${line##*:}
    [[ ,$members, == *,$1,* ]]
}

package_installed() {
    [[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true) == installed ]]
}
package_known() { apt-cache show "$1" >/dev/null 2>&1; }
# "a|b" -> the first alternative that is installed, else the first the OS offers, else "".
pick_package() {
    local alt
    local -a alts
    IFS='|' read -r -a alts <<<"$1"
    for alt in "${alts[@]}"; do package_installed "$alt" && { echo "$alt"; return; }; done
    for alt in "${alts[@]}"; do package_known "$alt" && { echo "$alt"; return; }; done
    echo ""
}

# Installs a file only when its content or mode differs, so a second run changes nothing.
install_file() {
    local mode=$1 from=$2 to=$3
    if [[ -f $(r "$to") ]] && cmp -s "$from" "$(r "$to")" \
        && [[ $(stat -c %a "$(r "$to")") == "$mode" ]]; then
        ok "$to is up to date"
        return 1
    fi
    run install -D -m "$mode" "$from" "$(r "$to")"
}

# What pip installs: the packages and the build metadata, not tests or docs.
readonly PACKAGE_PARTS=(companion hardware vision ui pyproject.toml README.md LICENSE)
package_parts() {
    local part
    for part in "${PACKAGE_PARTS[@]}"; do [[ -e $src/$part ]] && printf '%s\0' "$part"; done
    return 0
}
source_digest() {
    (cd "$src" && package_parts | xargs -0 -I{} find {} -type f -not -path '*/__pycache__/*' \
        -not -name '*.pyc' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum \
        | cut -d' ' -f1)
}

# --- install ----------------------------------------------------------------------------------
# Fills the global `missing` with the packages to install; with "report", warns about the
# Raspberry Pi OS packages this OS does not offer.
missing=()
resolve_packages() {
    local spec pkg report=${1:-}
    missing=()
    for spec in "${PACKAGES_REQUIRED[@]}"; do
        pkg=$(pick_package "$spec")
        # Nothing known by any name: the package lists are stale; apt-get update then decides.
        [[ -n $pkg ]] || pkg=${spec%%|*}
        package_installed "$pkg" || missing+=("$pkg")
    done
    for pkg in "${PACKAGES_OPTIONAL[@]}"; do
        if package_installed "$pkg"; then continue; fi
        if package_known "$pkg"; then
            missing+=("$pkg")
        elif [[ $report == report ]]; then
            local without="no siren board on the GPIO header (a USB board still works)"
            [[ $pkg == python3-picamera2 ]] && without="no Pi camera (a USB camera still works)"
            warn "$pkg is not offered by this OS (it comes from Raspberry Pi OS's repository):" \
                "skipped, so $without"
        fi
    done
}

apt_lists_empty() { ! compgen -G "$(r /var/lib/apt/lists)/*_Packages*" >/dev/null; }

do_packages() {
    step "OS packages"
    local codename updated=0
    codename=$(os_codename)
    case "$codename" in
        bookworm|trixie) ok "Raspberry Pi OS / Debian $codename" ;;
        *) warn "this is '$codename', not Bookworm or Trixie: continuing, but untested" ;;
    esac
    if apt_lists_empty; then
        # A fresh image: without package lists nothing can be found or installed.
        run apt-get update
        updated=1
    fi
    resolve_packages report
    if ((${#missing[@]} == 0)); then
        ok "all installed"
        return
    fi
    if ((updated == 0)); then
        run apt-get update
        # Fresh lists may offer names (Trixie's renamed libraries, the Pi packages) the old did not.
        ((dry_run)) || resolve_packages
    fi
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}

do_groups_and_user() {
    step "service user $SERVICE_USER and its groups (${GROUPS_NEEDED[*]})"
    local group before=$changes
    for group in "${GROUPS_NEEDED[@]}"; do
        # gpio exists only on Raspberry Pi OS; created elsewhere so the unit's
        # SupplementaryGroups= does not stop the service from starting.
        has_group "$group" || run groupadd "${root_opt[@]}" --system "$group"
    done
    if ! has_user "$SERVICE_USER"; then
        run useradd "${root_opt[@]}" --system --user-group --home-dir "$STATE_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "robo-companion kiosk" \
            --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
    else
        for group in "${GROUPS_NEEDED[@]}"; do
            user_in_group "$SERVICE_USER" "$group" \
                || run usermod "${root_opt[@]}" --append --groups "$group" "$SERVICE_USER"
        done
    fi
    ((changes > before)) || ok "user and groups in place"
}

do_venv() {
    step "Python environment $VENV (sees the OS's picamera2)"
    if [[ -x $(r "$VENV/bin/python") ]]; then
        ok "venv exists"
    else
        command -v python3 >/dev/null || die "python3 is missing; install the package python3"
        run python3 -m venv --system-site-packages "$(r "$VENV")"
    fi

    # picamera2 and its compiled helpers are built against the OS's numpy: the venv must use
    # exactly that numpy, or importing picamera2 fails with a numpy ABI error. pip then picks an
    # OpenCV that supports it.
    local numpy_version constraints digest
    numpy_version=""
    if package_installed python3-picamera2; then
        numpy_version=$(python3 -c 'import numpy; print(numpy.__version__)' 2>/dev/null || true)
    fi
    constraints="# written by install.sh: keep the OS's numpy (picamera2 is compiled against it)"$'\n'
    if [[ -n $numpy_version ]]; then
        constraints+="numpy==$numpy_version"$'\n'
        ok "numpy pinned to the OS's $numpy_version (picamera2 is built against it)"
    else
        note "no python3-picamera2 installed (yet): numpy is not pinned"
    fi
    digest="$(source_digest) $(printf '%s' "$constraints" | sha256sum | cut -d' ' -f1)"
    if [[ -f $(r "$STAMP") && $(cat "$(r "$STAMP")") == "$digest" ]]; then
        ok "robo-companion from this checkout is already installed"
        return
    fi
    if ((dry_run)); then
        printf '    would write: %s\n' "$VENV/constraints.txt"
    else
        printf '%s' "$constraints" >"$(r "$VENV/constraints.txt")"
    fi
    # pip builds in the source folder; a copy keeps root-owned build files out of your checkout.
    local stage=$src
    if ((dry_run == 0)); then
        stage=$(mktemp -d)
        # shellcheck disable=SC2064  # expand now: the folder is local to this function
        trap "rm -rf '$stage'" EXIT
        (cd "$src" && package_parts | xargs -0 cp -a -t "$stage")
    fi
    run "$(r "$VENV/bin/python")" -m pip install --disable-pip-version-check --upgrade \
        --upgrade-strategy only-if-needed --constraint "$(r "$VENV/constraints.txt")" "${stage}[all]"
    if ((dry_run)); then
        printf '    would write: %s\n' "$STAMP"
    else
        printf '%s\n' "$digest" >"$(r "$STAMP")"
    fi
    changes=$((changes + 1))
}

do_docs() {
    step "documentation in $VENV/share/doc"
    if [[ -f $src/docs/install.md ]]; then
        install_file 644 "$src/docs/install.md" "$VENV/share/doc/install.md" || true
    fi
}

do_config() {
    step "configuration $CONFIG_DIR/config.toml"
    if [[ -f $(r "$CONFIG_DIR/config.toml") ]]; then
        ok "kept as it is (the installer never overwrites your configuration)"
        return
    fi
    if ((dry_run)); then
        printf '    would write: %s (robo-companion config example, calibration in %s)\n' \
            "$CONFIG_DIR/config.toml" "$STATE_DIR"
        changes=$((changes + 1))
        return
    fi
    local tmp
    tmp=$(mktemp)
    # The service cannot write /etc (ProtectSystem=strict), so calibration goes to the state
    # directory with the game history: one folder to back up.
    "$(r "$VENV/bin/robo-companion")" config example \
        | sed "s|^calibration = \"\"  *#.*|calibration = \"$STATE_DIR/calibration.json\"   # written by the app|" \
        >"$tmp"
    run install -D -m 644 "$tmp" "$(r "$CONFIG_DIR/config.toml")"
    # A pristine copy: --uninstall removes the config only if you never changed it.
    run install -D -m 644 "$tmp" "$(r "$VENV/share/config.toml.installed")"
    rm -f "$tmp"
}

do_udev() {
    step "udev rule for the siren board ($UDEV_RULE)"
    local rule=$src/systemd/99-robo-siren.rules
    if [[ ! -f $rule ]]; then
        warn "systemd/99-robo-siren.rules is not in this checkout: skipped (the board is then" \
            "found by USB id, without the /dev/robo-siren name)"
        return
    fi
    if install_file 644 "$rule" "$UDEV_RULE"; then
        if [[ -z $root ]]; then
            # Without a running udevd (a chroot, an image build) the rule applies at next boot.
            if ! { run udevadm control --reload-rules \
                    && run udevadm trigger --subsystem-match=tty --action=add; }; then
                warn "udev did not reload; the rule applies after a reboot"
            fi
        fi
    fi
}

do_unit() {
    step "systemd unit $UNIT"
    local changed=0
    install_file 644 "$src/systemd/$APP.service" "$UNIT" && changed=1
    if ((changed)) && [[ -z $root ]]; then
        run systemctl daemon-reload || warn "systemd did not reload; reboot to pick up the unit"
    fi
    if "${systemctl_root[@]}" is-enabled --quiet "$APP.service" 2>/dev/null; then
        ok "enabled"
    else
        run "${systemctl_root[@]}" enable "$APP.service"
    fi
    if [[ -z $root ]] && ((changes)); then
        # An update takes effect now if the app is running; a first install starts at next boot
        # (or with systemctl start), so the installer never grabs the screen by surprise.
        run systemctl try-restart "$APP.service" \
            || warn "the app did not restart; see: journalctl -u $APP -b"
    fi
    if [[ -z $root ]] && systemctl is-enabled --quiet display-manager.service 2>/dev/null; then
        warn "a desktop starts at boot and holds the display: the kiosk needs the console." \
            "Switch with: sudo raspi-config nonint do_boot_behaviour B1 (then reboot)"
    fi
}

do_install() {
    do_packages
    do_groups_and_user
    do_venv
    do_docs
    do_config
    do_udev
    do_unit
}

# --- uninstall --------------------------------------------------------------------------------
do_uninstall() {
    step "stop and disable the service"
    if [[ -z $root ]] && systemctl is-active --quiet "$APP.service" 2>/dev/null; then
        run systemctl stop "$APP.service" || warn "the app did not stop; it stops at shutdown"
    fi
    if "${systemctl_root[@]}" is-enabled --quiet "$APP.service" 2>/dev/null; then
        run "${systemctl_root[@]}" disable "$APP.service"
    fi
    step "remove the unit and the udev rule"
    if [[ -e $(r "$UNIT") ]]; then
        run rm -f "$(r "$UNIT")"
        if [[ -z $root ]]; then
            run systemctl daemon-reload || warn "systemd did not reload; it forgets the unit at reboot"
        fi
    fi
    if [[ -e $(r "$UDEV_RULE") ]]; then
        run rm -f "$(r "$UDEV_RULE")"
        if [[ -z $root ]]; then
            run udevadm control --reload-rules || warn "udev did not reload; the rule goes at reboot"
        fi
    fi
    step "configuration"
    local config installed
    config=$(r "$CONFIG_DIR/config.toml")
    installed=$(r "$VENV/share/config.toml.installed")
    if [[ -f $config ]]; then
        if [[ -f $installed ]] && cmp -s "$config" "$installed"; then
            run rm -f "$config"
            run rmdir --ignore-fail-on-non-empty "$(r "$CONFIG_DIR")"
        else
            note "kept $CONFIG_DIR/config.toml: you changed it (delete it yourself if unwanted)"
        fi
    fi
    step "remove $VENV"
    if [[ -e $(r "$VENV") ]]; then run rm -rf "$(r "$VENV")"; fi
    step "remove the service user $SERVICE_USER"
    if has_user "$SERVICE_USER"; then run userdel "${root_opt[@]}" "$SERVICE_USER"; fi
    step "kept"
    note "$STATE_DIR (the game history, calibration): back it up or delete it yourself"
    note "OS packages and the groups ${GROUPS_NEEDED[*]}: other software may use them"
}

# --- main -------------------------------------------------------------------------------------
if [[ -z $root ]] && ((dry_run == 0)) && [[ $(id -u) -ne 0 ]]; then
    die "run as root (sudo $0), or try --dry-run to see the steps"
fi
((dry_run)) && printf 'Dry run: nothing is changed.\n'
[[ -n $root ]] && printf 'Installing under %s\n' "$root"

if [[ $action == install ]]; then
    do_install
    if ((changes == 0)); then
        printf 'Nothing to do: robo-companion is installed and up to date.\n'
    elif ((dry_run)); then
        printf 'Dry run done: %d step(s) would change the system.\n' "$changes"
    else
        printf 'Installed. It starts at the next boot, or now with: sudo systemctl start %s\n' "$APP"
        printf 'Check the hardware with: %s doctor\n' "$VENV/bin/$APP"
    fi
else
    do_uninstall
    if ((dry_run)); then
        printf 'Dry run done: %d step(s) would change the system.\n' "$changes"
    else
        printf 'Uninstalled. The game history is still in %s.\n' "$STATE_DIR"
    fi
fi
