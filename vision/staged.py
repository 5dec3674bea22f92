"""The demo's camera: the simulated players lay things down with ``show_*``; ``read`` renders that
scene with the synthetic renderer and runs the real readers (calibrated, like a real table, on
rendered calibration images of the same components).

A scene is rendered once per ``show_*`` (on the first read after it); later reads return the same
picture, so reading a few times a second costs one reader pass, and a still scene settles (is
``stable``) after ``stability.frames`` reads.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from companion.config import Config
from companion.ports import Observation, ReadingKind
from vision import grid
from vision.calibration import Calibration, calibrate
from vision.camera import FrameCamera
from vision.synth import calibration_examples, draw
from vision.synth.scenes import Style, render_grid, render_order, render_tiles

_CALIBRATIONS: dict[Any, Calibration] = {}
_CAL_LOCK = threading.Lock()


def _calibration(config: Config, seed: int, style: Style, with_grid: bool) -> Calibration:
    """The staged components' calibration, learnt like a real table's from rendered pictures.

    Tiles and cards are learnt at once; the Robot Master cards (the slow part) only when a grid
    is first read. Both are kept for the process, so many cameras cost one calibration.
    """
    key = (tuple(config.game.colours), tuple(sorted(config.game.display.items())), seed)
    with _CAL_LOCK:
        cal = _CALIBRATIONS.get(key)
        if cal is None:
            rng = np.random.default_rng(seed + 1_000_003)
            examples = calibration_examples(style, config, rng, per_kind=3,
                                            kinds=("tiles", "order"))
            cal = calibrate(examples, config)
            _CALIBRATIONS[key] = cal
        if with_grid and not cal.grid.learnt:
            rng = np.random.default_rng(seed + 2_000_003)
            examples = calibration_examples(style, config, rng, per_kind=3, kinds=("grid",))
            cal.grid = grid.learn([(e.image, e.grid) for e in examples])
            cal.images += len(examples)
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
        self._seed = seed
        self._camera = FrameCamera(_StagedSource(self),
                                   _calibration(config, seed, self.style, with_grid=False))

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
        if kind == "grid" and not self._camera.calibration.grid.learnt:
            self._camera.set_calibration(
                _calibration(self.config, self._seed, self.style, with_grid=True))
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
            # a still scene gives the same picture every time: the sensor noise is already in
            # the rendering, and fresh noise on every read would only make borderline cells
            # flicker between read and declined, so a grid would never settle
            return base.copy()

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
