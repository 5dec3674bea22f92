"""Memory of the Robot Master calibration and of the demo's pictures (docs/ui.md, "Memory"):
the same results, less at once."""

from __future__ import annotations

import tracemalloc
import weakref
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from companion.config import Config
from vision import grid, staged
from vision.synth import random_grid
from vision.synth.scenes import Style

pytestmark = pytest.mark.slow  # learns twice on three rendered pictures: several seconds

WIDTH, HEIGHT = 1280, 720


@pytest.fixture(scope="module")
def shots() -> list[tuple[np.ndarray, grid.Grid]]:
    """Three calibration pictures of the demo's play area, as its JPEG bytes."""
    config = Config()
    style = Style.random(np.random.default_rng(4), config.game.display)
    rng = np.random.default_rng(7)
    out = []
    for cards in (13, 17, 21):
        cells = random_grid(rng, cards=cards)
        out.append((staged.render_grid(style, cells, rng, WIDTH, HEIGHT, compressed=True),
                    cells))
    return out


def test_learning_from_pictures_given_by_functions_is_learning_from_the_pictures(
        shots: list[tuple[np.ndarray, grid.Grid]]) -> None:
    """One picture at a time: each function's picture is let go before the next is asked for,
    and what is learnt is the same, bit for bit, as from the pictures themselves."""
    alive: list[int] = []
    most = [0]

    def given(shot: np.ndarray) -> Callable[[], np.ndarray]:
        def picture() -> np.ndarray:
            image = staged._develop(shot)
            alive.append(1)
            most[0] = max(most[0], len(alive))
            weakref.finalize(image, alive.pop)
            return image
        return picture

    lazily = grid.learn([(given(shot), cells) for shot, cells in shots])
    assert lazily.learnt
    assert most[0] == 1
    assert not alive
    at_once = grid.learn([(staged._develop(shot), cells) for shot, cells in shots])
    assert lazily.to_json() == at_once.to_json()
    assert np.array_equal(lazily.features, at_once.features)  # to_json keeps float16 only


def test_learning_from_compressed_pictures_holds_little_beside_them(
        shots: list[tuple[np.ndarray, grid.Grid]]) -> None:
    """Learning once held its three pictures (8 MB at 1280x720) and, at its highest, 15 MB of
    its own beside them; from JPEG bytes it holds one picture at a time (12 to 13 MB in all)."""
    picture = WIDTH * HEIGHT * 3
    examples = [(lambda shot=shot: staged._develop(shot), cells) for shot, cells in shots]
    tracemalloc.start()
    try:
        look = grid.learn(examples)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert look.learnt
    assert peak < 6 * picture, peak / 2**20


def test_a_compressed_scene_decodes_to_the_scene() -> None:
    config = Config()
    style = Style.random(np.random.default_rng(0), config.game.display)
    cells = random_grid(np.random.default_rng(1), cards=15)
    shot = staged.render_grid(style, cells, np.random.default_rng(2), WIDTH, HEIGHT,
                              compressed=True)
    assert shot.ndim == 1 and shot.nbytes < WIDTH * HEIGHT * 3 // 4
    picture = staged.render_grid(style, cells, np.random.default_rng(2), WIDTH, HEIGHT)
    assert np.array_equal(staged._develop(shot), picture)


@pytest.mark.parametrize("height", [20, 48, 100, 720])
@pytest.mark.parametrize("sigma", [0.31, 0.5, 0.66, 0.8])
def test_the_camera_blur_band_by_band_is_opencvs_blur(height: int, sigma: float) -> None:
    rng = np.random.default_rng(height)
    image = rng.integers(0, 256, (height, 97, 3), dtype=np.uint8)
    # smooth areas and hard edges both: a fixed-point blur rounds differently on each
    image[: height // 2, :40] = 128
    expected = cv2.GaussianBlur(image, (0, 0), sigma)
    staged._blur(image, sigma)
    assert np.array_equal(image, expected)
