#!/usr/bin/env bash
# Set everything up on a fresh Debian / Raspberry Pi OS machine and run every check:
# lint (ruff), types (mypy), and the whole test suite (pytest, UI tests under Xvfb).
#
#   scripts/test.sh [PYTEST ARGS...]
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh all,dev
# Tools some tests drive: systemd-analyze (the unit), shellcheck (the installer).
scripts/bootstrap-os.sh systemd shellcheck

echo "== ruff"
.venv/bin/ruff check .
echo "== mypy (strict on the core)"
.venv/bin/mypy --strict companion
echo "== mypy (adapters and UI)"
.venv/bin/mypy hardware vision ui

echo "== pytest"
# Kivy needs an X display for the app tests; Xvfb gives one on a headless machine.
if [ -z "${DISPLAY:-}" ] && command -v xvfb-run >/dev/null 2>&1; then
    exec xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python -m pytest "$@"
fi
exec .venv/bin/python -m pytest "$@"
