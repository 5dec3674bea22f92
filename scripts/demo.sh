#!/usr/bin/env bash
# Set everything up on a fresh Debian / Raspberry Pi OS machine and start the app as a demo:
# a simulated siren board (keys 1 to 6 press the stations) and a staged camera.
#
# With no display (a headless machine) the demo plays itself on a virtual screen and saves a
# screenshot of every screen to ./demo-screenshots instead.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/bootstrap.sh all

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    exec .venv/bin/robo-companion demo "$@"
fi
echo "== no display found: playing the demo on a virtual screen (Xvfb)"
out="$PWD/demo-screenshots"
xvfb-run -a -s "-screen 0 800x480x24" .venv/bin/robo-companion demo --autoplay --screenshots "$out" "$@"
echo "== the demo played a Robo Factory and a Robot Master game and set up its camera; screenshots are in $out"
