"""vision: the camera adapter of robo-companion.

Public API (everything else is internal):

- ``make_camera(config) -> Camera | None``: the configured camera (Pi camera, USB camera or a
  replay), calibrated from ``Config.calibration_path``; None when ``camera.source = "none"`` or
  ``auto`` finds no camera; raises :class:`companion.ports.CameraError` (plain words) when a
  configured camera is missing. The returned object also has ``frame()`` (set-up preview and
  calibration only), ``set_calibration(cal)`` and ``lock_exposure()``.
- ``probe(config) -> (ok, message)`` for ``doctor``; never raises.
- ``vision.staged.StagedCamera(config, seed=0)``: the demo's camera; ``show_tiles(robots)``,
  ``show_order(robot)``, ``show_grid(cells)``, ``show_nothing()``.
- Guided calibration for the UI: ``vision.guided.GuidedCalibration(config, camera)`` with
  ``.steps`` / ``.current`` (each a ``GuidedStep`` whose ``.prompt`` is the sentence to show),
  ``.progress -> (done, total)``, ``.capture() -> (ok: bool, message: str)``, ``.skip()`` and
  ``.finish() -> str`` (learns, stores at ``Config.calibration_path``, returns a summary; raises
  ``vision.errors.CalibrationError`` when no picture was taken).
- Pure readers: ``vision.read.read(image, kind, calibration) -> Observation`` and, raising named
  errors (``vision.errors.NoTilesFound``, ``NoCardFound``, ``NoPlayAreaFound``),
  ``vision.tiles.read_tiles``, ``vision.order.read_order``, ``vision.grid.read_grid``.
- Commands: ``vision.cli.main`` (vision eval/calibrate/synth), ``vision.markers_cli.main``
  (markers print), ``vision.bench.main`` (bench vision).

Nothing here opens a camera at import time, and cv2/numpy/picamera2 are imported only when one of
these is called.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

# The readers multiply small matrices; BLAS threads cost far more than they save there (16 ms
# instead of 0.7 ms per Robot Master card on a busy 2-core machine) and take cores from the UI.
# This only takes effect when numpy is first imported after this package, as in the CLI and app;
# the readers also set it at run time (vision/blas.py), so scripts and tests read the same.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

if TYPE_CHECKING:
    from companion.config import Config
    from companion.ports import Camera

__all__ = ["make_camera", "probe"]


def make_camera(config: Config) -> Camera | None:
    from vision.camera import make_camera as _make

    return _make(config)


def probe(config: Config) -> tuple[bool, str]:
    try:
        from vision.camera import probe as _probe
    except ImportError as exc:  # OpenCV or numpy missing: say which, do not crash doctor
        return False, f"vision needs {exc.name or 'OpenCV'}: pip install 'robo-companion[vision]'"
    return _probe(config)
