"""Helpers for the siren tests: a simulated board, the driver on its pty, the queue."""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from typing import Any

from companion.config import SirenConfig
from companion.ports import SirenEvent, SirenPress, SirenStatus
from hardware.serial_board import SerialBoard
from hardware.simulator import SimulatedBoard


def wait_for(predicate: Callable[[], Any], what: str, limit: float = 120.0) -> Any:
    """Poll until ``predicate()`` is truthy.

    The limit only stops a hung test: it is far beyond what any slow machine needs.
    """
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.002)
    raise AssertionError(f"gave up waiting for {what}")


class Table:
    """A simulated board, the serial driver on its pty, and the session's queue."""

    def __init__(self, simulator: SimulatedBoard, heartbeat_s: float = 0.2) -> None:
        self.simulator = simulator
        self.config = SirenConfig(backend="serial", port=simulator.port, heartbeat_s=heartbeat_s)
        self.events: queue.Queue[SirenEvent] = queue.Queue()
        self.presses: list[SirenPress] = []
        self.statuses: list[SirenStatus] = []
        self.driver = SerialBoard(self.config)

    def start(self) -> None:
        self.driver.start(self.events)
        self.wait_connected()

    def drain(self) -> None:
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                return
            if isinstance(event, SirenPress):
                self.presses.append(event)
            else:
                self.statuses.append(event)

    def wait_connected(self) -> None:
        def connected() -> bool:
            self.drain()
            return bool(self.statuses) and self.statuses[-1].connected and self.driver.connected

        wait_for(connected, "the driver to connect")

    def wait_presses(self, count: int) -> list[SirenPress]:
        def enough() -> bool:
            self.drain()
            return len(self.presses) >= count

        wait_for(enough, f"{count} presses")
        return self.presses

    def wait_board(self, predicate: Callable[[], Any], what: str) -> Any:
        return wait_for(predicate, what)

    def restart_host(self) -> None:
        """The Pi's program dies and starts again: a new driver, knowing nothing."""
        self.driver.close()
        self.driver = SerialBoard(self.config)
        self.statuses.clear()
        self.driver.start(self.events)
        self.wait_connected()
