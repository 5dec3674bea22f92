"""Ports: what the core needs from the camera, the siren board and the dice.

Adapters live in ``hardware`` and ``vision``; the core only sees these small types. Readings and
board events are plain frozen dataclasses so they can cross a thread boundary through a queue.

Threading contract: an adapter's own threads never call into the session. They put
:class:`SirenEvent` / :data:`Observation` objects on a ``queue.Queue`` handed to them by the
wiring (``companion.wiring``); the UI thread drains the queue on its clock.
"""

from __future__ import annotations

import queue
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal, Protocol, runtime_checkable

ReadingKind = Literal["tiles", "order", "grid"]


# ---------------------------------------------------------------------------- camera readings


@dataclass(frozen=True)
class RobotReading:
    """One robot as the camera read it.

    ``robot`` is ``head-torso-legs`` in the configured colour names, or ``None`` when the reader
    declined (then the app asks). ``confidence`` is 0..1; ``parts`` gives each part's confidence.
    """

    robot: str | None
    confidence: float
    parts: tuple[float, float, float] = (0.0, 0.0, 0.0)


@dataclass(frozen=True)
class TilesObservation:
    """The robots on the personal boards, by seat (0..5, clockwise).

    Only seats whose three part tiles lie on lanes appear. ``stable`` is True when the reading
    held over several frames with nothing moving over the region.
    """

    robots: dict[int, RobotReading]
    stable: bool = True
    kind: Literal["tiles"] = "tiles"


@dataclass(frozen=True)
class OrderObservation:
    """One robot card held to the camera (the order card or a card handed in to buy a tile)."""

    reading: RobotReading
    stable: bool = True
    kind: Literal["order"] = "order"


@dataclass(frozen=True)
class GridObservation:
    """The Robot Master cards in the 5x5 frame, top row (row 5) first; None = empty or declined.

    ``confidence`` has the same shape; an empty cell read with confidence means "surely empty".
    """

    cells: tuple[tuple[int | None, ...], ...]
    confidence: tuple[tuple[float, ...], ...]
    stable: bool = True
    kind: Literal["grid"] = "grid"


Observation = TilesObservation | OrderObservation | GridObservation


class CameraError(Exception):
    """The camera cannot be used (missing, unplugged, no frames). The message is for people."""


@runtime_checkable
class Camera(Protocol):
    """A camera that reads what lies on the table.

    ``read`` grabs the newest frame and returns a reading of the kind asked for. With
    ``secret=True`` no frame may leave the adapter and nothing beyond "card read" is logged.
    Raises :class:`CameraError` when no frame can be had.
    """

    def read(self, kind: ReadingKind, *, secret: bool = False) -> Observation: ...

    def close(self) -> None: ...


# ---------------------------------------------------------------------------- siren board


class LightPattern(StrEnum):
    OFF = "off"
    ON = "on"
    BLINK = "blink"
    PULSE = "pulse"
    COUNTDOWN = "countdown"


@dataclass(frozen=True)
class SirenPress:
    """A siren button pressed at ``station`` (== seat).

    ``board_us`` is the board's own microsecond timestamp. ``in_window`` is the board's verdict:
    True when the press came while the Eureka window ``window`` was open for that station, False
    when it came late or no window was open. ``seq`` is the board's sequence number.
    """

    station: int
    board_us: int
    in_window: bool
    window: int = 0
    seq: int = 0
    kind: Literal["press"] = "press"


@dataclass(frozen=True)
class SirenStatus:
    """The board connected, disconnected, or failed; ``message`` is plain words for the screen."""

    connected: bool
    message: str = ""
    board_id: str = ""
    firmware: str = ""
    stations: int = 0
    kind: Literal["status"] = "status"


SirenEvent = SirenPress | SirenStatus


class SirenBoardError(Exception):
    """The siren board cannot be used. The message is for people."""


@runtime_checkable
class SirenBoard(Protocol):
    """The stations (one button and light per seat).

    ``start`` begins delivering :data:`SirenEvent` objects to ``events`` from the adapter's own
    thread. ``open_window`` opens a Eureka window for ``stations`` and returns its id; the board
    decides whether each press came before ``close_window``.
    """

    def start(self, events: queue.Queue[SirenEvent]) -> None: ...

    def open_window(self, stations: tuple[int, ...]) -> int: ...

    def close_window(self) -> None: ...

    def set_light(self, station: int, pattern: LightPattern) -> None: ...

    def close(self) -> None: ...


# ---------------------------------------------------------------------------- dice


@runtime_checkable
class Dice(Protocol):
    """A d6. The app may roll it, or a physical roll is entered by touch."""

    def roll(self) -> int: ...
