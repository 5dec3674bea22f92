"""The demo's camera: the simulated players lay things down with ``show_*``; ``read`` renders that
scene with the synthetic renderer and runs the real readers (calibrated, like a real table, on
rendered calibration images of the same components).

A scene is rendered once per ``show_*`` (on the first read after it); later reads only add fresh
sensor noise, so reading a few times a second costs about one reader pass.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from companion.config import Config
from companion.ports import Observation, ReadingKind
from vision.calibration import Calibration, calibrate
from vision.camera import FrameCamera
from vision.synth import calibration_examples, draw
from vision.synth.scenes import Style, render_grid, render_order, render_tiles

_CALIBRATIONS: dict[Any, Calibration] = {}
_CAL_LOCK = threading.Lock()


def _calibration(config: Config, seed: int, style: Style) -> Calibration:
    key = (tuple(config.game.colours), tuple(sorted(config.game.display.items())), seed)
    with _CAL_LOCK:
        cal = _CALIBRATIONS.get(key)
        if cal is None:
            rng = np.random.default_rng(seed + 1_000_003)
            cal = calibrate(calibration_examples(style, config, rng, per_kind=3), config)
            _CALIBRATIONS[key] = cal
        return cal


class _StagedSource:
    name = "staged camera"

    def __init__(self, owner: StagedCamera) -> None:
        self._owner = owner

    def frame(self) -> np.ndarray:
        return self._owner._frame()

    def lock(self) -> None:
        pass

    def close(self) -> None:
        pass


class StagedCamera:
    """A :class:`companion.ports.Camera` over staged synthetic scenes."""

    def __init__(self, config: Config, seed: int = 0, width: int = 1280, height: int = 720
                 ) -> None:
        self.config = config
        self.width, self.height = width, height
        self._rng = np.random.default_rng(seed)
        self.style = Style.random(np.random.default_rng(seed), config.game.display)
        self._scene: dict[str, Any] = {}
        self._rendered: dict[str, np.ndarray] = {}
        self._empty: np.ndarray | None = None
        self._kind: str = "tiles"
        self._lock = threading.Lock()
        self._camera = FrameCamera(_StagedSource(self), _calibration(config, seed, self.style))

    # ------------------------------------------------------------------ staging
    def show_tiles(self, robots: dict[int, str]) -> None:
        """Lay each seat's three tiles on the lanes of ``robots[seat]`` (head-torso-legs)."""
        for robot in robots.values():
            self.config.palette.parse(robot)
        self._stage("tiles", dict(robots))

    def show_order(self, robot: str) -> None:
        """Hold the robot card ``robot`` up to the camera."""
        self.config.palette.parse(robot)
        self._stage("order", robot)

    def show_grid(self, cells: list[list[int | None]]) -> None:
        """Lay Robot Master cards on the play area (top row first, None = empty)."""
        if len(cells) != 5 or any(len(row) != 5 for row in cells):
            raise ValueError("a Robot Master grid is 5 rows of 5 cells")
        self._stage("grid", [list(row) for row in cells])

    def show_nothing(self) -> None:
        """Clear the table: every reading declines."""
        with self._lock:
            self._scene.clear()
            self._rendered.clear()

    def _stage(self, kind: str, what: Any) -> None:
        with self._lock:
            if self._scene.get(kind) != what:
                self._scene[kind] = what
                self._rendered.pop(kind, None)

    # ------------------------------------------------------------------ the port
    def read(self, kind: ReadingKind, *, secret: bool = False) -> Observation:
        self._kind = kind
        return self._camera.read(kind, secret=secret)

    def close(self) -> None:
        self._camera.close()

    # ------------------------------------------------------------------ rendering
    def _frame(self) -> np.ndarray:
        with self._lock:
            kind = self._kind
            base = self._rendered.get(kind)
            if base is None:
                base = self._render(kind)
                self._rendered[kind] = base
            noise = self._rng.normal(0, 1.5, base.shape).astype(np.float32)
        return np.clip(base + noise, 0, 255).astype(np.uint8)

    def _render(self, kind: str) -> np.ndarray:
        what = self._scene.get(kind)
        colours = list(self.config.game.colours)
        rng = np.random.default_rng(int(self._rng.integers(0, 2**31)))
        w, h = self.width, self.height
        if what is None:
            if self._empty is None:
                self._empty = draw.degrade(draw.table(w, h, rng), rng, hard=False)
            return self._empty
        if kind == "tiles":
            return render_tiles(self.style, colours, what, rng, w, h, hand=False)
        if kind == "order":
            return render_order(self.style, what, rng, w, h)
        return render_grid(self.style, what, rng, w, h, hand=False)
