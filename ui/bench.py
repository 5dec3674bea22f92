"""``robo-companion bench ui``: cold start to first frame, idle CPU while waiting, peak memory
during the autoplay. Prints one JSON object.

Each figure comes from a fresh child process (a Kivy app runs once per process), all on one X
display: the current one, or an Xvfb started for the bench. ``--quick`` uses the core's fake
camera instead of the demo's staged camera (which runs the real vision readers).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

IDLE_SECONDS = 10.0


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="robo-companion bench ui", description=__doc__)
    p.add_argument("--quick", action="store_true", help="the fake camera, not the staged one")
    p.add_argument("--runs", type=int, default=3, help="cold starts to take the median of")
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        return _child(args.child)
    if not os.environ.get("DISPLAY"):
        xvfb = shutil.which("xvfb-run")
        if xvfb is None:
            print("robo-companion: the UI bench needs an X display or xvfb-run", file=sys.stderr)
            return 3
        command = [
            xvfb,
            "-a",
            "-s",
            "-screen 0 800x480x24",
            sys.executable,
            "-m",
            "ui.bench",
            *argv,
        ]
        return subprocess.run(command, check=False).returncode
    with tempfile.TemporaryDirectory(prefix="robo-bench-") as state:
        env = {**os.environ, "ROBO_COMPANION_STATE": state}
        env.pop("ROBO_COMPANION_CONFIG", None)
        if args.quick:
            env["ROBO_COMPANION_CAMERA"] = "none"
        starts = [_cold_start(env) for _ in range(max(1, args.runs))]
        idle = _run_child("idle", env)
        peak_mb, autoplay_s = _autoplay_memory(env)
    result: dict[str, Any] = {
        "bench": "ui",
        "camera": "fake" if args.quick else "staged (real readers)",
        "cold_start_to_first_frame_s": round(statistics.median(starts), 2),
        "cold_start_runs_s": [round(s, 2) for s in starts],
        "idle_cpu_percent_home": idle["home"],
        "idle_cpu_percent_home_ui_thread": idle["home_ui_thread"],
        "idle_cpu_percent_waiting_for_order_card": idle["order"],
        "idle_cpu_percent_waiting_for_order_card_ui_thread": idle["order_ui_thread"],
        "peak_memory_autoplay_mb": peak_mb,
        "autoplay_s": autoplay_s,
    }
    print(json.dumps(result))
    return 0


def _cold_start(env: dict[str, str]) -> float:
    began = time.time()
    data = _run_child("first-frame", env)
    return float(data["first_frame"]) - began


def _run_child(what: str, env: dict[str, str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "ui.bench", "--child", what],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    for line in done.stdout.splitlines():
        if line.startswith("{"):
            return dict(json.loads(line))
    raise RuntimeError(f"the {what} child failed: {done.stderr.strip()[-500:]}")


def _autoplay_memory(env: dict[str, str]) -> tuple[float, float]:
    began = time.monotonic()
    child = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "demo", "--autoplay"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _pid, status, usage = os.wait4(child.pid, 0)
    took = time.monotonic() - began
    if os.waitstatus_to_exitcode(status) != 0:
        err = child.stderr.read().decode(errors="replace")[-500:] if child.stderr else ""
        raise RuntimeError(f"the autoplay failed: {err}")
    return round(usage.ru_maxrss / 1024, 1), round(took, 1)  # ru_maxrss is in KiB on Linux


def _child(what: str) -> int:
    from companion import config as config_module
    from ui.launch import build_wired, prepare_kivy

    config = config_module.load()
    prepare_kivy(False)
    from kivy.clock import Clock

    from ui.app import CompanionApp

    result: dict[str, Any] = {}

    def wire(journal: Any) -> Any:
        return build_wired(config, demo=True, journal=journal)

    def first_frame() -> None:
        result["first_frame"] = time.time()
        if what == "first-frame":
            Clock.schedule_once(lambda _dt: app.stop(), 0)

    app = CompanionApp(config, wire, demo=True, on_first_frame=first_frame)
    if what == "idle":
        state: dict[str, Any] = {}

        def cpu() -> float:
            usage = resource.getrusage(resource.RUSAGE_SELF)
            return usage.ru_utime + usage.ru_stime

        def measure(name: str, then: Any) -> None:
            began_cpu, began, began_ui = cpu(), time.monotonic(), time.thread_time()

            def done(_dt: float) -> None:
                took = time.monotonic() - began
                result[name] = round(100 * (cpu() - began_cpu) / took, 1)
                # the UI thread alone: the demo's simulated siren board and camera run on
                # threads of their own in the same process
                result[name + "_ui_thread"] = round(100 * (time.thread_time() - began_ui) / took, 1)
                then()

            Clock.schedule_once(done, IDLE_SECONDS)

        def start_game() -> None:
            from companion.tables.robo_factory import RoboFactorySetup

            app.begin_game(RoboFactorySetup(("Ann", "Bob", "Cid"), "Ann"))
            Clock.schedule_once(lambda _dt: measure("order", app.stop), 3)

        def when_ready(_dt: float) -> None:
            if not app.ready:
                return
            state["event"].cancel()
            Clock.schedule_once(lambda _dt: measure("home", start_game), 3)

        state["event"] = Clock.schedule_interval(when_ready, 0.2)
    app.run()
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
