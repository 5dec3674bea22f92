"""``robo-companion siren ...``: flash, check, simulate and watch the siren board.

    robo-companion siren flash [--port P] [--dry-run]   copy the firmware to the Pico (mpremote)
    robo-companion siren check                          is the board there and answering?
    robo-companion siren simulate [--stations N]        run the simulator; print its serial port
    robo-companion siren monitor [--simulated]          print every press and status as it comes

Errors are one plain line on stderr; the exit status is 0 on success, 1 when the board is not
there or not usable, 2 for a bad command line or configuration.
"""

from __future__ import annotations

import argparse
import importlib.util
import queue
import shlex
import subprocess
import sys
import time
from pathlib import Path

from companion.config import SirenConfig
from companion.errors import ConfigError

FIRMWARE_DIR = Path(__file__).parent / "firmware"
BOOT_FILE = FIRMWARE_DIR / "boot" / "main.py"


def _siren_config() -> SirenConfig:
    from companion import config

    return config.load().siren


def _fail(message: str, status: int = 1) -> int:
    print(f"robo-companion siren: {message}", file=sys.stderr)
    return status


def firmware_files() -> list[Path]:
    """The modules copied to the board's ``/siren`` folder."""
    return sorted(p for p in FIRMWARE_DIR.glob("*.py"))


def flash_command(port: str) -> list[str]:
    """The mpremote command that installs the firmware on the board at ``port``."""
    make_dir = "import os\ntry: os.mkdir('siren')\nexcept OSError: pass"
    return [
        sys.executable, "-m", "mpremote", "connect", port,
        "exec", make_dir,
        "+", "fs", "cp", *(str(p) for p in firmware_files()), ":siren/",
        "+", "fs", "cp", str(BOOT_FILE), ":main.py",
        "+", "reset",
    ]


def cmd_flash(args: argparse.Namespace, config: SirenConfig) -> int:
    from hardware.serial_board import SerialBoard, find_ports

    if importlib.util.find_spec("mpremote") is None:
        return _fail("flashing needs mpremote, which is not installed; install it with "
                     "pip install 'robo-companion[hardware]'.")
    if args.port:
        port = args.port
    else:
        ports = find_ports(config)
        if not ports:
            return _fail(
                "no siren board found to flash. Put MicroPython on the Pico first (hold BOOTSEL "
                "while plugging it in and copy the MicroPython .uf2 file to it), plug it in with "
                "a USB data cable, then run this again, or name the port with --port."
            )
        port = ports[0]
    command = flash_command(port)
    if args.dry_run:
        print(shlex.join(command))
        return 0
    # A board running our firmware ignores Ctrl-C (its serial line is binary), so ask it
    # through the protocol to return to the MicroPython prompt first. A blank board has no
    # firmware to stop; that is fine.
    driver = SerialBoard(config)
    try:
        driver.connect_once(port, timeout=1.5)
        driver.stop_firmware()
        time.sleep(0.3)
    except Exception:  # the board may be blank or busy: mpremote will tell
        pass
    finally:
        driver.close()
    print(f"Flashing the siren firmware to {port} ...")
    try:
        result = subprocess.run(command, check=False)
    except OSError as exc:
        return _fail(f"mpremote could not be started ({exc}).")
    if result.returncode != 0:
        return _fail(
            f"mpremote failed (exit status {result.returncode}). If the board keeps running old "
            "firmware, hold station 0's button while plugging it in (safe mode) and flash again."
        )
    print("Done: the board restarts with the new firmware. Check it with "
          "'robo-companion siren check'.")
    return 0


def cmd_check(args: argparse.Namespace, config: SirenConfig) -> int:
    from hardware import probe

    result = probe(config, timeout=args.timeout)
    print(result.message)
    return 0 if result.ok else 1


def cmd_simulate(args: argparse.Namespace, config: SirenConfig) -> int:
    from hardware.simulator import SimulatedBoard

    with SimulatedBoard(args.stations, link=args.link) as simulator:
        print(f"Simulated siren board on {simulator.path}, also reachable as {simulator.port}")
        print(f"Point the app at it with siren.backend = \"serial\" and siren.port = "
              f"\"{simulator.port}\".", flush=True)
        interactive = sys.stdin.isatty()
        if interactive:
            print(f"Type 1..{args.stations} and Enter to press a station's button, q to quit.",
                  flush=True)
        try:
            if not interactive:
                while True:
                    time.sleep(3600)
            for line in sys.stdin:
                for key in line.strip():
                    if key in "qQ":
                        return 0
                    if key.isdigit() and 1 <= int(key) <= args.stations:
                        simulator.press(int(key) - 1)
                        print(f"pressed station {int(key) - 1}", flush=True)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_monitor(args: argparse.Namespace, config: SirenConfig) -> int:
    from companion.ports import SirenEvent, SirenPress
    from hardware import make_board

    if args.simulated:
        config = SirenConfig(backend="simulated", heartbeat_s=config.heartbeat_s)
    elif config.backend in ("auto", "none"):
        config = SirenConfig(backend="serial", port=config.port, usb_ids=config.usb_ids,
                             baudrate=config.baudrate, heartbeat_s=config.heartbeat_s)
    board = make_board(config)
    if board is None:
        return _fail("no siren board is configured.")
    events: queue.Queue[SirenEvent] = queue.Queue()
    board.start(events)
    seen = 0
    deadline = time.monotonic() + args.seconds if args.seconds else None
    try:
        if args.simulated and args.demo:
            simulator = getattr(board, "simulator", None)
            if simulator is not None:
                for station in range(min(args.demo, simulator.stations)):
                    simulator.press(station)
        while deadline is None or time.monotonic() < deadline:
            try:
                event = events.get(timeout=0.2)
            except queue.Empty:
                continue
            if isinstance(event, SirenPress):
                seen += 1
                verdict = "in window" if event.in_window else (
                    "late" if event.window else "no window")
                print(f"press   station {event.station}  board {event.board_us} us  "
                      f"{verdict} {event.window}  seq {event.seq}", flush=True)
                if args.count and seen >= args.count:
                    break
            else:
                state = "connected" if event.connected else "disconnected"
                extra = f" ({event.board_id}, firmware {event.firmware})" if event.board_id else ""
                print(f"status  {state}{extra}: {event.message}", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        board.close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="robo-companion siren",
                                     description="the siren board: flash, check, simulate, watch")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("flash", help="copy the firmware to the board with mpremote")
    p.add_argument("--port", help="the board's serial port (default: find it)")
    p.add_argument("--dry-run", action="store_true", help="print the mpremote command only")
    p = sub.add_parser("check", help="look for the board and shake hands with it")
    p.add_argument("--timeout", type=float, default=2.0)
    p = sub.add_parser("simulate", help="run the simulated board on a pseudo-terminal")
    p.add_argument("--stations", type=int, default=6, choices=range(1, 7))
    p.add_argument("--link", help="also make this symlink to the pty (like /dev/robo-siren)")
    p = sub.add_parser("monitor", help="print presses and status changes")
    p.add_argument("--simulated", action="store_true", help="watch a simulated board")
    p.add_argument("--count", type=int, default=0, help="stop after this many presses")
    p.add_argument("--seconds", type=float, default=0.0, help="stop after this long")
    p.add_argument("--demo", type=int, default=0, help=argparse.SUPPRESS)
    return parser


def main(argv: list[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        config = _siren_config()
    except ConfigError as exc:
        return _fail(str(exc), 2)
    handlers = {"flash": cmd_flash, "check": cmd_check, "simulate": cmd_simulate,
                "monitor": cmd_monitor}
    try:
        return handlers[args.action](args, config)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # the user gets one plain line, never a traceback
        from companion.ports import SirenBoardError

        if isinstance(exc, SirenBoardError | OSError):
            return _fail(str(exc))
        raise
