#!/usr/bin/env bash
# Prepare this checkout on a fresh Debian / Raspberry Pi OS machine that has only python3:
# the OS packages it needs (with apt, only those missing), a virtual environment in .venv and
# the package installed into it in editable mode with the extras asked for.
#
#   scripts/bootstrap.sh [EXTRAS]       EXTRAS defaults to "all,dev"
set -euo pipefail
cd "$(dirname "$0")/.."

extras="${1:-all,dev}"

# The OS's own Python, as on the Pi where the service runs it (Debian builds it with PGO/LTO; a
# hand-built interpreter earlier on PATH can be much slower). PYTHON=... overrides.
if [ -z "${PYTHON:-}" ]; then
    if [ -x /usr/bin/python3 ]; then PYTHON=/usr/bin/python3; else PYTHON=python3; fi
fi

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
want_pkg() {  # want_pkg PACKAGE: queue an apt package unless dpkg already has it
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" || missing+=("$1")
}

if command -v dpkg-query >/dev/null 2>&1; then
    "$PYTHON" -c 'import venv, ensurepip' 2>/dev/null || want_pkg python3-venv
    case ",$extras," in
        *,all,*|*,ui,*)
            # Kivy's wheels bring SDL2; they need GL/EGL from the OS, and Xvfb for tests and
            # headless demos.
            for pkg in libgl1 libegl1 libgl1-mesa-dri libmtdev1 xvfb xauth; do want_pkg "$pkg"; done
            ;;
    esac
    case ",$extras," in
        *,all,*|*,vision,*)
            for pkg in libglib2.0-0; do want_pkg "$pkg"; done
            ;;
    esac
    if [ "${#missing[@]}" -gt 0 ]; then
        echo "== installing OS packages: ${missing[*]}"
        as_root apt-get update -qq
        as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
    fi
fi

if [ ! -x .venv/bin/python ]; then
    echo "== creating .venv with $("$PYTHON" --version) ($PYTHON)"
    "$PYTHON" -m venv .venv
fi
echo "== installing robo-companion[$extras] into .venv"
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e ".[$extras]"
