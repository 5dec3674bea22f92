"""One entry point for the three readers: image + calibration -> observation and region."""

from __future__ import annotations

import numpy as np

from companion.ports import (
    GridObservation,
    Observation,
    OrderObservation,
    ReadingKind,
    RobotReading,
    TilesObservation,
)
from vision import grid, order, tiles
from vision.calibration import Calibration
from vision.errors import VisionError

Region = tuple[int, int, int, int]


def nothing(kind: ReadingKind) -> Observation:
    """The reading when nothing usable is in view: everything declined."""
    if kind == "tiles":
        return TilesObservation({})
    if kind == "order":
        return OrderObservation(RobotReading(None, 0.0))
    return GridObservation(tuple(tuple(None for _ in range(5)) for _ in range(5)),
                           tuple(tuple(0.0 for _ in range(5)) for _ in range(5)))


def read_region(image: np.ndarray, kind: ReadingKind, cal: Calibration
                ) -> tuple[Observation, Region | None]:
    """Read ``kind`` from an image; raises a :class:`VisionError` when nothing usable is found."""
    if kind == "tiles":
        return tiles.read_tiles_region(image, cal.tiles)
    if kind == "order":
        return order.read_order_region(image, cal.order)
    if kind == "grid":
        return grid.read_grid_region(image, cal.grid)
    raise ValueError(f"unknown reading kind {kind!r}")


def read(image: np.ndarray, kind: ReadingKind, cal: Calibration) -> Observation:
    """Like :func:`read_region` but declines (never raises) when nothing usable is found."""
    try:
        return read_region(image, kind, cal)[0]
    except VisionError:
        return nothing(kind)
