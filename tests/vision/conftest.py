"""Shared synthetic material for the vision tests: one style, one calibration, small datasets.

Everything is rendered from fixed seeds, so results are the same on every run.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import Config
from vision.calibration import Calibration, calibrate
from vision.grid import Grid, geometry
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
def own_grids(config: Config, style: Style) -> list[tuple[np.ndarray, Grid]]:
    """The own art's three grid calibration pictures and their labels (the calibration
    fixture's style and seed, three of each kind)."""
    examples = calibration_examples(style, config, np.random.default_rng(60), per_kind=3)
    return [(e.image, e.grid) for e in examples if e.kind == "grid" and e.grid is not None]


@pytest.fixture(scope="session")
def dataset(tmp_path_factory: pytest.TempPathFactory, config: Config) -> Path:
    out = tmp_path_factory.mktemp("dataset")
    write_dataset(out, config, n=6, seed=6)
    return out


def _plain_orientation_votes(img: np.ndarray) -> np.ndarray:
    """The 25 cells' orientation votes (8-pixel cells, 9 bins) in a 5x5-cell picture, counted
    as :func:`vision.grid.area_features` counted them before it worked in place and took its
    bins from a table (the angle folded onto 0..180 degrees, the wrap-around bin fixed by
    masks): the reference the cheaper ways must equal bit for bit."""
    w, h = geometry._cell_size()
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    mag, ang = cv2.cartToPolar(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1),
                               cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1), angleInDegrees=True)
    pos = ang * np.float32(1 / 20.0)
    pos -= np.float32(9.0) * (pos >= 9.0)
    base = np.floor(pos)
    frac = pos - base
    lo = base.astype(np.int32)
    lo[lo >= 9] = 0
    hi = lo + 1
    hi[hi == 9] = 0
    rows = np.arange(5 * h, dtype=np.int32)[:, None] // 8
    cols = np.arange(5 * w, dtype=np.int32)[None, :] // 8
    cell = (rows * (5 * (w // 8)) + cols) * 9
    n = 5 * (h // 8) * 5 * (w // 8) * 9
    upper = mag * frac
    return np.asarray(np.bincount((cell + lo).ravel(), (mag - upper).ravel(), n)
                      + np.bincount((cell + hi).ravel(), upper.ravel(), n))


@pytest.fixture(scope="session")
def plain_votes() -> Callable[[np.ndarray], np.ndarray]:
    """:func:`_plain_orientation_votes`, for tests that compare a cheaper computation with it."""
    return _plain_orientation_votes


@pytest.fixture(scope="session")
def table_style(config: Config) -> tuple[Style, Calibration]:
    """Own art on a bare table (no mat; style seed 1) and its calibration."""
    style = Style.random(np.random.default_rng(1), config.game.display)
    assert not style.mat
    return style, calibrate(calibration_examples(style, config, np.random.default_rng(60),
                                                 per_kind=4), config)
