"""Stable readings: a reading is committed only when it held over several consecutive frames
with nothing moving (a hand) over the region it came from."""

from __future__ import annotations

from collections import deque
from typing import Any

import cv2
import numpy as np

from companion.ports import GridObservation, Observation, OrderObservation, TilesObservation
from vision.thresholds import section

Region = tuple[int, int, int, int]
WORK_WIDTH = 160


def key(obs: Observation) -> Any:
    """What must stay the same from frame to frame (readings, not confidences)."""
    if isinstance(obs, TilesObservation):
        return ("tiles", tuple(sorted((s, r.robot) for s, r in obs.robots.items())))
    if isinstance(obs, OrderObservation):
        return ("order", obs.reading.robot)
    if isinstance(obs, GridObservation):
        return ("grid", obs.cells, tuple(tuple(c > 0 for c in row) for row in obs.confidence))
    raise TypeError(type(obs))


def thumbnail(frame: np.ndarray) -> np.ndarray:
    """The frame in grey, WORK_WIDTH wide: what movement and change are judged on."""
    h, w = frame.shape[:2]
    k = WORK_WIDTH / w
    grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    return cv2.resize(grey, (WORK_WIDTH, max(1, int(h * k))), interpolation=cv2.INTER_AREA)


class Stability:
    def __init__(self, frames: int | None = None, motion: float | None = None) -> None:
        cfg = section("stability")
        self.frames = int(frames if frames is not None else cfg["frames"])
        self.motion = float(motion if motion is not None else cfg["motion"])
        self._history: deque[tuple[Any, bool]] = deque(maxlen=self.frames)
        self._previous: np.ndarray | None = None

    def reset(self) -> None:
        self._history.clear()
        self._previous = None

    def update(self, obs: Observation, frame: np.ndarray, region: Region | None,
               small: np.ndarray | None = None) -> bool:
        """Add one frame's reading; True when the last ``frames`` readings agree and nothing
        moved over the region between them. ``small`` is the frame's :func:`thumbnail` when the
        caller has it already."""
        h, w = frame.shape[:2]
        k = WORK_WIDTH / w
        if small is None:
            small = thumbnail(frame)
        still = True
        if self._previous is not None and self._previous.shape == small.shape:
            x0, y0, x1, y1 = region if region is not None else (0, 0, w, h)
            xs = slice(max(0, int(x0 * k)), max(int(x0 * k) + 1, int(x1 * k)))
            ys = slice(max(0, int(y0 * k)), max(int(y0 * k) + 1, int(y1 * k)))
            diff = cv2.absdiff(small[ys, xs], self._previous[ys, xs])
            still = float(diff.mean()) <= self.motion if diff.size else True
        self._previous = small
        self._history.append((key(obs), still))
        if len(self._history) < self.frames:
            return False
        first = self._history[0][0]
        # the first frame's own "still" compares with a frame before the window: ignore it
        return all(k_ == first for k_, _ in self._history) and all(
            s for _, s in list(self._history)[1:])
