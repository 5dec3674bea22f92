"""Shared synthetic material for the vision tests: one style, one calibration, small datasets.

Everything is rendered from fixed seeds, so results are the same on every run.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from vision.calibration import Calibration, calibrate
from vision.synth import calibration_examples, write_dataset
from vision.synth.scenes import Style


@pytest.fixture(scope="session")
def config() -> Config:
    return Config()


@pytest.fixture(scope="session")
def style(config: Config) -> Style:
    return Style.random(np.random.default_rng(6), config.game.display)


@pytest.fixture(scope="session")
def calibration(config: Config, style: Style) -> Calibration:
    rng = np.random.default_rng(60)
    return calibrate(calibration_examples(style, config, rng, per_kind=4), config)


@pytest.fixture(scope="session")
def dataset(tmp_path_factory: pytest.TempPathFactory, config: Config) -> Path:
    out = tmp_path_factory.mktemp("dataset")
    write_dataset(out, config, n=6, seed=6)
    return out
