#!/usr/bin/env bash
# Proves that robo-companion installs and passes its non-UI tests on arm64 (the Pi's architecture):
# builds a Debian arm64 root with debootstrap, runs it on this x86 machine under qemu-user (binfmt),
# pip-installs the package from this checkout with the vision and hardware extras (arm64 wheels
# of numpy, OpenCV, pyserial, gpiozero) and runs pytest on tests/ without tests/ui.
#
# Slow (tens of minutes under emulation), so not part of CI. Needs root. Re-runnable: the root and
# its installed wheels are kept in --root-dir, and a second run only re-copies the repository,
# reinstalls the package and runs the tests again.
#
#   sudo scripts/arm64-check.sh [--suite bookworm|trixie] [--root-dir DIR] [--mirror URL]
#                               [--fresh] [--no-ui] [--no-installer] [--os-numpy]
#                               [-- PYTEST-ARGS...]
#
# --os-numpy installs Debian's python3-numpy in the root and pins the venv to it, as install.sh
# does on Raspberry Pi OS (picamera2 is built against the OS's numpy): on Bookworm that means
# numpy 1.24 and the newest OpenCV that supports it, instead of the newest of both.
# Then it runs systemd/install.sh for real inside the root (apt, the service account, the venv in
# /opt, the unit enabled), checks the installed command, runs the installer a second time
# (nothing must change) and uninstalls (the state directory must stay); --no-installer skips it.
#
# The ui extra (Kivy's arm64 wheel) is installed too, to prove it resolves, but the UI tests (which
# need a display) are not run; --no-ui leaves Kivy out. The Debian mirror defaults to the one this
# machine's apt uses.
set -euo pipefail

suite=bookworm
root_dir=/var/tmp/robo-companion-arm64
mirror=""
fresh=0
extras="vision,hardware,ui,dev"
run_installer=1
os_numpy=0
pytest_args=()

usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; }

while (($#)); do
    case "$1" in
        --suite) suite=$2; shift 2 ;;
        --root-dir) root_dir=$2; shift 2 ;;
        --mirror) mirror=$2; shift 2 ;;
        --fresh) fresh=1; shift ;;
        --no-ui) extras="vision,hardware,dev"; shift ;;
        --no-installer) run_installer=0; shift ;;
        --os-numpy) os_numpy=1; shift ;;
        -h|--help) usage; exit 0 ;;
        --) shift; pytest_args=("$@"); break ;;
        *) echo "arm64-check: unknown option $1" >&2; usage >&2; exit 2 ;;
    esac
done

repo=$(cd "$(dirname "$0")/.." && pwd)
started=$(date +%s)
log() { printf '[arm64-check %s +%ss] %s\n' "$(date -u +%H:%M:%S)" "$(($(date +%s) - started))" "$*"; }
die() { log "FAILED: $*"; exit 1; }

[[ $(id -u) -eq 0 ]] || die "run as root (debootstrap and chroot need it)"

# The mirror this machine already uses, so the script names no host of its own.
if [[ -z $mirror ]]; then
    mirror=$(grep -hoE '^(URIs:|deb) +[a-z]+://[^ ]+' /etc/apt/sources.list /etc/apt/sources.list.d/*.sources \
        2>/dev/null | grep -v -- '-security' | awk '{print $2}' | head -n1 || true)
    [[ -n $mirror ]] || die "no Debian mirror found in /etc/apt; pass --mirror URL"
fi

# --- 1. tools and binfmt --------------------------------------------------------------------------
need_apt=()
command -v debootstrap >/dev/null || need_apt+=(debootstrap)
[[ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P || -x /usr/bin/qemu-aarch64-static ]] \
    || need_apt+=(qemu-user-static)
command -v update-binfmts >/dev/null || need_apt+=(binfmt-support)
if ((${#need_apt[@]})); then
    log "installing ${need_apt[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/register ]]; then
    log "mounting binfmt_misc"
    mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc \
        || die "cannot mount binfmt_misc (the kernel or the sandbox forbids it): arm64 binaries cannot run here"
fi
if [[ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]]; then
    log "registering qemu-aarch64 with binfmt_misc"
    update-binfmts --enable qemu-aarch64 \
        || die "update-binfmts --enable qemu-aarch64 failed: arm64 binaries cannot run here"
fi
grep -q '^enabled' /proc/sys/fs/binfmt_misc/qemu-aarch64 || die "qemu-aarch64 binfmt entry is disabled"
# Without the F flag the interpreter must exist inside the root too.
binfmt_flags=$(sed -n 's/^flags: //p' /proc/sys/fs/binfmt_misc/qemu-aarch64)
log "binfmt qemu-aarch64 enabled (flags: $binfmt_flags), suite $suite, root $root_dir"

# --- 2. the arm64 root ----------------------------------------------------------------------------
mounted=()
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount -l "${mounted[i]}" 2>/dev/null || true
    done
}
trap cleanup EXIT

if ((fresh)) && [[ -d $root_dir ]]; then
    log "removing the old root (--fresh)"
    rm -rf --one-file-system "$root_dir"
fi
if [[ ! -e $root_dir/.debootstrap-done ]]; then
    rm -rf --one-file-system "$root_dir"
    mkdir -p "$root_dir"
    log "debootstrap --arch=arm64 $suite (this takes a while under emulation)"
    debootstrap --arch=arm64 --variant=minbase \
        --include=python3,python3-venv,python3-pip,ca-certificates,libgl1,libglib2.0-0 \
        "$suite" "$root_dir" "$mirror" >"$root_dir.debootstrap.log" 2>&1 \
        || { tail -n 20 "$root_dir.debootstrap.log"; die "debootstrap failed (log: $root_dir.debootstrap.log)"; }
    touch "$root_dir/.debootstrap-done"
fi
if [[ ! $binfmt_flags == *F* ]]; then
    install -D -m 0755 /usr/bin/qemu-aarch64-static "$root_dir/usr/bin/qemu-aarch64-static"
fi

bind() { mount --bind "$1" "$2"; mounted+=("$2"); }
mount -t proc proc "$root_dir/proc"; mounted+=("$root_dir/proc")
bind /sys "$root_dir/sys"
bind /dev "$root_dir/dev"
# The firmware tests run the board on a pseudo-terminal: the root needs its own devpts view.
bind /dev/pts "$root_dir/dev/pts"
cp -L /etc/resolv.conf "$root_dir/etc/resolv.conf"
# This machine's CA bundle, so pip in the root trusts what the host trusts (e.g. a proxy's CA).
host_ca=/etc/ssl/certs/ca-certificates.crt
if [[ -r $host_ca ]]; then
    cp -L "$host_ca" "$root_dir/etc/ssl/certs/host-ca-certificates.crt"
    pip_cert=/etc/ssl/certs/host-ca-certificates.crt
else
    pip_cert=/etc/ssl/certs/ca-certificates.crt
fi

in_root() { chroot "$root_dir" /usr/bin/env -i HOME=/root \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    LANG=C.UTF-8 PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=180 PIP_CERT="$pip_cert" "$@"; }

arch=$(in_root uname -m)
[[ $arch == aarch64 ]] || die "the root reports machine '$arch', expected aarch64"
log "inside the root: $(in_root python3 --version), uname -m = $arch"

# --- 3. the package -------------------------------------------------------------------------------
log "copying the repository into the root"
rm -rf "$root_dir/src/robo-companion"
mkdir -p "$root_dir/src/robo-companion"
tar -C "$repo" --exclude=.git --exclude=.venv --exclude='*.egg-info' --exclude=__pycache__ \
    --exclude=build --exclude=.mypy_cache --exclude=.pytest_cache --exclude=.ruff_cache -cf - . \
    | tar -C "$root_dir/src/robo-companion" -xf -

venv=/opt/venv
pip_constraints=()
if ((os_numpy)); then
    venv=/opt/venv-os-numpy
    if ! in_root python3 -c 'import numpy' 2>/dev/null; then
        log "installing Debian's python3-numpy into the root"
        in_root apt-get update -qq >/dev/null
        in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            python3-numpy >/dev/null || die "apt-get install python3-numpy failed in the root"
    fi
    os_numpy_version=$(in_root python3 -c 'import numpy; print(numpy.__version__)')
    echo "numpy==$os_numpy_version" >"$root_dir/opt/os-numpy-constraints.txt"
    pip_constraints=(--constraint /opt/os-numpy-constraints.txt)
    log "numpy pinned to Debian's $os_numpy_version (as install.sh does next to picamera2)"
fi
if [[ ! -x $root_dir$venv/bin/python ]]; then
    log "creating the venv $venv"
    in_root python3 -m venv --system-site-packages "$venv"
    in_root "$venv/bin/pip" install -q --upgrade pip
fi
log "pip install .[$extras] (arm64 wheels)"
in_root "$venv/bin/pip" install -q "${pip_constraints[@]}" "/src/robo-companion[$extras]" \
    || die "pip install of the package with extras [$extras] failed on arm64"
in_root "$venv/bin/pip" list --format=freeze 2>/dev/null \
    | grep -iE '^(numpy|opencv|pyserial|gpiozero|kivy|pillow|robo-companion)' | sed 's/^/    /'
in_root "$venv/bin/python" -c 'import platform, numpy, cv2; print("    imports OK on", platform.machine(), "numpy", numpy.__version__, "cv2", cv2.__version__)' \
    || die "numpy/cv2 do not import on arm64"

# --- 4. the tests ---------------------------------------------------------------------------------
log "running the non-UI tests"
set +e
# shellcheck disable=SC2016  # expanded by the shell inside the root
in_root /bin/sh -c 'cd /src/robo-companion && venv=$1 && shift && exec "$venv/bin/python" -m pytest \
    -q -p no:cacheprovider --ignore=tests/ui "$@"' sh "$venv" "${pytest_args[@]}"
status=$?
set -e
elapsed=$(($(date +%s) - started))
if ((status == 0)); then
    log "PASSED: non-UI tests pass on arm64 ($suite) in ${elapsed}s"
elif ((status == 5)); then
    log "PASSED (no tests collected): the package installs on arm64 ($suite) in ${elapsed}s"
    status=0
else
    log "FAILED: pytest exit $status on arm64 ($suite) after ${elapsed}s"
fi

# --- 5. the installer, for real, inside the root ------------------------------------------------
installer_check() {
    local out
    # Raspberry Pi OS always has systemd; the minimal root does not.
    if ! in_root sh -c 'command -v systemctl' >/dev/null; then
        log "installing systemd into the root (the installer enables the unit with systemctl)"
        in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            systemd >/dev/null || return 1
    fi
    log "installer: first run (apt, account, venv, pip, config, unit)"
    in_root bash /src/robo-companion/systemd/install.sh || return 1
    [[ -L $root_dir/etc/systemd/system/multi-user.target.wants/robo-companion.service ]] \
        || { log "installer: the unit is not enabled"; return 1; }
    in_root /opt/robo-companion/bin/robo-companion config check \
        --file /etc/robo-companion/config.toml || return 1
    log "installer: robo-companion doctor --service inside the root (no screen, camera, board)"
    set +e
    in_root /opt/robo-companion/bin/robo-companion doctor -- --service --timeout 3
    log "installer: doctor exit status $? (1 expected: no screen here)"
    set -e
    log "installer: second run (must change nothing)"
    out=$(in_root bash /src/robo-companion/systemd/install.sh) || return 1
    printf '%s\n' "$out" | sed 's/^/    /'
    grep -q '^Nothing to do' <<<"$out" || { log "installer: the second run changed something"; return 1; }
    log "installer: uninstall (the game history must stay)"
    mkdir -p "$root_dir/var/lib/robo-companion"
    echo "history" >"$root_dir/var/lib/robo-companion/keep-me"
    in_root bash /src/robo-companion/systemd/install.sh --uninstall || return 1
    [[ -f $root_dir/var/lib/robo-companion/keep-me && ! -e $root_dir/opt/robo-companion ]] \
        || { log "installer: uninstall removed the history or left /opt"; return 1; }
    rm -rf "$root_dir/var/lib/robo-companion"
}
if ((run_installer)); then
    if installer_check; then
        log "PASSED: install.sh installs, is idempotent and uninstalls on arm64 ($suite)"
    else
        log "FAILED: install.sh inside the arm64 root"
        status=1
    fi
    log "total ${elapsed}s for the tests, $(($(date +%s) - started))s with the installer"
fi
exit "$status"
