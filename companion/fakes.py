"""Small fakes of the ports, for tests and the demo (like gpiozero's MockFactory, they ship).

Each is a few lines and implements its Protocol from :mod:`companion.ports`.
"""

from __future__ import annotations

import queue
import random
from collections.abc import Iterable

from companion.ports import (
    CameraError,
    LightPattern,
    Observation,
    ReadingKind,
    SirenEvent,
    SirenPress,
    SirenStatus,
)


class RandomDice:
    """A fair d6 (seedable for repeatable demos)."""

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self) -> int:
        return self._rng.randint(1, 6)


class ScriptedDice:
    """Rolls the given numbers in order."""

    def __init__(self, rolls: Iterable[int]) -> None:
        self._rolls = list(rolls)

    def roll(self) -> int:
        if not self._rolls:
            raise RuntimeError("the scripted dice have no rolls left")
        return self._rolls.pop(0)


class FakeCamera:
    """Returns staged observations by kind; raises CameraError when nothing is staged."""

    def __init__(self) -> None:
        self.staged: dict[str, Observation] = {}
        self.reads: list[tuple[str, bool]] = []
        self.closed = False

    def stage(self, observation: Observation) -> None:
        self.staged[observation.kind] = observation

    def read(self, kind: ReadingKind, *, secret: bool = False) -> Observation:
        self.reads.append((kind, secret))
        if kind not in self.staged:
            raise CameraError("the fake camera has nothing staged")
        return self.staged[kind]

    def close(self) -> None:
        self.closed = True


class FakeSirenBoard:
    """Records what the host asked; ``press`` plays the board deciding on a press."""

    def __init__(self, stations: int = 6) -> None:
        self.stations = stations
        self.events: queue.Queue[SirenEvent] | None = None
        self.window = 0
        self.open_stations: tuple[int, ...] = ()
        self.lights: dict[int, LightPattern] = {}
        self.calls: list[tuple[str, object]] = []
        self.clock_us = 0
        self.seq = 0

    def start(self, events: queue.Queue[SirenEvent]) -> None:
        self.events = events
        events.put(SirenStatus(True, "fake board", "fake", "0", self.stations))

    def open_window(self, stations: tuple[int, ...]) -> int:
        self.window += 1
        self.open_stations = tuple(stations)
        self.calls.append(("open", tuple(stations)))
        return self.window

    def close_window(self) -> None:
        self.open_stations = ()
        self.calls.append(("close", None))

    def set_light(self, station: int, pattern: LightPattern) -> None:
        self.lights[station] = pattern
        self.calls.append(("light", (station, pattern)))

    def press(self, station: int) -> None:
        if self.events is None:
            raise RuntimeError("the fake board has not been started")
        self.clock_us += 1000
        self.seq += 1
        in_window = station in self.open_stations
        self.events.put(SirenPress(station, self.clock_us, in_window, self.window, self.seq))

    def close(self) -> None:
        self.calls.append(("close-board", None))
