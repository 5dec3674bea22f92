"""Guided calibration as the UI drives it: prompts, captures, retries, finish."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import CameraConfig, Config
from vision.calibration import Calibration
from vision.guided import NO_SEAT, GuidedCalibration
from vision.synth.scenes import Style, render_order, render_tiles


class _Pictures:
    """A camera that shows whatever picture the test puts in front of it."""

    def __init__(self) -> None:
        self.picture = np.full((360, 640, 3), 128, np.uint8)
        self.calibration: Calibration | None = None
        self.locked = False

    def frame(self) -> np.ndarray:
        return self.picture

    def set_calibration(self, cal: Calibration) -> None:
        self.calibration = cal

    def lock_exposure(self) -> None:
        self.locked = True


def test_guided_calibration_stores_what_it_learnt(tmp_path: Path, style: Style) -> None:
    config = Config(camera=CameraConfig(calibration=str(tmp_path / "cal.json")))
    colours = list(config.game.colours)
    camera = _Pictures()
    guide = GuidedCalibration(config, camera)
    assert guide.progress == (0, 11)
    rng = np.random.default_rng(5)

    # a blank table: the step is not taken, and the reason is given in plain words
    ok, message = guide.capture()
    assert not ok and message == NO_SEAT

    for _ in range(2):
        step = guide.current
        assert step is not None and step.kind == "tiles" and step.lanes is not None
        robot = "-".join(colours[k] for k in step.lanes)
        assert colours[step.lanes[0]] in step.prompt
        camera.picture = render_tiles(style, colours, {0: robot, 3: robot}, rng)
        assert guide.capture() == (True, "")
    guide.skip()
    guide.skip()
    for _ in range(2):
        step = guide.current
        assert step is not None and step.kind == "order" and step.robot in step.prompt
        camera.picture = render_order(style, step.robot, rng)
        ok, message = guide.capture()
        assert ok, message
    while guide.current is not None:
        guide.skip()
    summary = guide.finish()
    assert "calibrated on 4 images" in summary
    assert (tmp_path / "cal.json").is_file()
    assert camera.calibration is not None and camera.locked


def test_finishing_without_pictures_is_refused(tmp_path: Path) -> None:
    from vision.errors import CalibrationError

    config = Config(camera=CameraConfig(calibration=str(tmp_path / "cal.json")))
    guide = GuidedCalibration(config, _Pictures())
    with pytest.raises(CalibrationError):
        guide.finish()
