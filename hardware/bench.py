"""``robo-companion bench siren``: presses through the simulator, the pty and the driver.

Presses ``--presses`` buttons on the simulated board (the real firmware logic), round the
stations, every ``--interval-ms``, and times each from the moment the simulated thumb closes the
contact to the moment the driver puts its :class:`~companion.ports.SirenPress` on the session's
queue (what the session does next runs on its own clock). Prints one JSON object::

    {"presses", "delivered", "lost", "duplicated", "p50_ms", "p99_ms", "max_ms"}

The simulated board runs in a child process, as a real board is a device of its own; the
press and delivery times are read from the same system-wide monotonic clock. The session's side
drains the queue as the app does (``CompanionService.poll`` on the UI clock, every 0.1 s): the
timing ends when the press is in the queue, so the drain's pace does not enter it, but a
consumer blocked in ``get()`` would be woken by every press and compete with the driver.

The simulated board's press buffer and interrupt queue are enlarged (4096 and 1024) for this
rate, a thousand presses a second on a shared machine. The debounce lockout is shortened to
1 ms (``--lockout-ms``) so that 10,000 presses take seconds, not minutes; the lockout does not
touch the path being timed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import queue
import select
import struct
import subprocess
import sys
import threading
import time
import tty

from companion.config import SirenConfig
from companion.ports import SirenEvent, SirenPress, SirenStatus

POLL_S = 0.1  # how often the session drains the queue: ui/app.py polls the service every 0.1 s


class _TimedQueue(queue.Queue[SirenEvent]):
    """The session's queue, noting when each press (by number) first lands in it."""

    def __init__(self, arrived: dict[int, float]) -> None:
        super().__init__()
        self.arrived = arrived

    def put(self, item: SirenEvent, block: bool = True, timeout: float | None = None) -> None:
        if isinstance(item, SirenPress):
            self.arrived.setdefault(item.seq, time.perf_counter())
        super().put(item, block, timeout)


def _percentile(sorted_values: list[float], fraction: float) -> float:
    if not sorted_values:
        return 0.0
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def run(presses: int, stations: int, interval_ms: float, lockout_ms: float) -> dict[str, object]:
    """The board runs in a child process (it is another device, with its own CPU); the driver
    and the session's queue run here. Both read the same system-wide monotonic clock."""
    from hardware.serial_board import SerialBoard

    child = subprocess.Popen(
        [sys.executable, "-m", "hardware.bench", "--board-side", "--presses", str(presses),
         "--stations", str(stations), "--interval-ms", str(interval_ms),
         "--lockout-ms", str(lockout_ms)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    assert child.stdin is not None and child.stdout is not None
    port = child.stdout.readline().strip()
    driver = SerialBoard(SirenConfig(backend="serial"), port=port)
    arrived: dict[int, float] = {}
    events: queue.Queue[SirenEvent] = _TimedQueue(arrived)
    duplicated = 0
    delivered = 0
    seen: dict[int, int] = {}
    done = threading.Event()
    connected = threading.Event()

    def take(event: SirenEvent) -> None:
        nonlocal duplicated, delivered
        if isinstance(event, SirenStatus):
            if event.connected:
                connected.set()
            return
        assert isinstance(event, SirenPress)
        delivered += 1
        seen[event.seq] = seen.get(event.seq, 0) + 1
        if seen[event.seq] > 1:
            duplicated += 1

    def consume() -> None:
        # The session's side as the app runs it: CompanionService.poll() drains the queue with
        # get_nowait() from the UI clock every POLL_S, so no thread sleeps on the queue and a
        # put() wakes nobody. (A thread blocked in get() would be woken by every press and
        # take the interpreter lock from the driver's reader thread, press after press.)
        while True:
            finished = done.wait(POLL_S)
            while True:
                try:
                    take(events.get_nowait())
                except queue.Empty:
                    break
            if finished:
                return  # after one last drain: a late repeat would still be counted

    consumer = threading.Thread(target=consume, name="bench-session", daemon=True)
    consumer.start()
    driver.start(events)
    pressed_at: list[float] = []
    first_seq = 1
    try:
        if not connected.wait(10):
            raise SystemExit("robo-companion: the simulated siren board did not connect")
        info = driver.info
        assert info is not None
        first_seq = info.next_press
        child.stdin.write("go\n")
        child.stdin.flush()
        pressed_at = json.loads(child.stdout.readline())
        deadline = time.perf_counter() + 10
        while len(seen) < presses and time.perf_counter() < deadline:
            time.sleep(0.01)
        time.sleep(0.3)  # let any late repeat show itself
    finally:
        done.set()
        consumer.join(2)
        driver.close()
        with contextlib.suppress(OSError):
            child.stdin.write("quit\n")
            child.stdin.flush()
        try:
            child.wait(10)
        except subprocess.TimeoutExpired:
            child.kill()
    latencies = []
    for i, t in enumerate(pressed_at):
        got = arrived.get((first_seq + i) & 0xFFFFFFFF)
        if got is not None:
            latencies.append((got - t) * 1000)
    latencies.sort()
    return {
        "presses": presses,
        "delivered": delivered,
        "lost": presses - len(latencies),
        "duplicated": duplicated,
        "p50_ms": round(_percentile(latencies, 0.50), 3),
        "p99_ms": round(_percentile(latencies, 0.99), 3),
        "max_ms": round(latencies[-1], 3) if latencies else 0.0,
    }


def board_side(presses: int, stations: int, interval_ms: float, lockout_ms: float) -> int:
    """The child: a simulated board that presses its own buttons on cue, timing each press."""
    from hardware.simulator import SimulatedBoard

    # Buffers sized for this rate and for a shared machine's scheduling stalls (see SimulatedBoard).
    with SimulatedBoard(stations, lockout_ms=lockout_ms, pending_max=4096,
                        edge_slots=1024) as simulator:
        print(simulator.port, flush=True)
        if sys.stdin.readline().strip() != "go":
            return 1
        pressed_at: list[float] = []
        last = [-1.0] * stations
        rest = max(interval_ms / 1000, 2.5 * lockout_ms / 1000 / stations)
        due = time.perf_counter()
        for i in range(presses):
            station = i % stations
            # Never catch up in a burst: a station pressed again inside its lockout would be
            # (rightly) debounced away, which is not what is being measured here.
            due = max(due, last[station] + 2.5 * lockout_ms / 1000)
            delay = due - time.perf_counter()
            if delay > 0:
                time.sleep(delay)
            now = time.perf_counter()
            pressed_at.append(now)
            last[station] = now
            simulator.press(station)
            due = now + rest
        print(json.dumps(pressed_at), flush=True)
        sys.stdin.readline()  # "quit": keep the board up until the driver has everything
    return 0


def pty_floor(presses: int, interval_ms: float) -> dict[str, float]:
    """The pseudo-terminal alone, as a yardstick for :func:`run` on the same machine.

    A child process writes its clock to a pty every ``interval_ms`` and this process times each
    arrival: the same hop as a PRESS frame's (the kernel's pty work item, then a woken reader),
    with no firmware, no driver and no other thread. On a machine whose CPUs are shared this
    hop alone has a tail of milliseconds, which no code above it can remove.
    """
    master, slave = os.openpty()
    tty.setraw(slave)
    child = subprocess.Popen(
        [sys.executable, "-m", "hardware.bench", "--pty-writer", str(master),
         "--presses", str(presses), "--interval-ms", str(interval_ms)],
        pass_fds=(master,),
    )
    os.close(master)
    latencies: list[float] = []
    pending = b""
    try:
        while len(latencies) < presses:
            if not select.select([slave], [], [], 10)[0]:
                break
            now = time.perf_counter()
            try:
                pending += os.read(slave, 4096)
            except OSError:
                break  # the writer is gone
            while len(pending) >= 8:
                (sent,) = struct.unpack("d", pending[:8])
                pending = pending[8:]
                latencies.append((now - sent) * 1000)
    finally:
        child.wait(10)
        os.close(slave)
    latencies.sort()
    return {
        "p50_ms": round(_percentile(latencies, 0.50), 3),
        "p99_ms": round(_percentile(latencies, 0.99), 3),
        "max_ms": round(latencies[-1], 3) if latencies else 0.0,
    }


def pty_writer(fd: int, presses: int, interval_ms: float) -> int:
    """The child of :func:`pty_floor`: its clock to the pty every ``interval_ms``."""
    due = time.perf_counter()
    for _ in range(presses):
        delay = due - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        now = time.perf_counter()
        os.write(fd, struct.pack("d", now))
        due = now + interval_ms / 1000
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="robo-companion bench siren",
                                     description="time presses from the board to the session")
    parser.add_argument("--presses", type=int, default=10_000)
    parser.add_argument("--stations", type=int, default=6, choices=range(1, 7))
    parser.add_argument("--interval-ms", type=float, default=1.0,
                        help="time between presses (default 1 ms)")
    parser.add_argument("--lockout-ms", type=float, default=1.0)
    parser.add_argument("--pty-floor", action="store_true",
                        help="afterwards, time the bare pseudo-terminal hop the same way and "
                             "print it (and the load average) on stderr")
    parser.add_argument("--board-side", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--pty-writer", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.board_side:
        return board_side(args.presses, args.stations, args.interval_ms, args.lockout_ms)
    if args.pty_writer is not None:
        return pty_writer(args.pty_writer, args.presses, args.interval_ms)
    if args.interval_ms * args.stations < 2 * args.lockout_ms:
        parser.error("each station must rest two lockouts between presses: raise --interval-ms")
    result = run(args.presses, args.stations, args.interval_ms, args.lockout_ms)
    print(json.dumps(result), flush=True)
    if args.pty_floor:
        load = os.getloadavg()[0]
        floor = pty_floor(args.presses, args.interval_ms)
        print(f"load average {load:.2f}; the pty alone (no firmware, no driver): "
              f"p50 {floor['p50_ms']} ms, p99 {floor['p99_ms']} ms, max {floor['max_ms']} ms",
              file=sys.stderr)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
