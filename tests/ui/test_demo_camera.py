"""The demo's staged camera (vision.staged) as the demo uses it: what the simulated players lay
down is read by the real readers, confidently enough that a clean table needs no confirmation,
and within a memory budget the touchscreen app can carry."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from companion.config import Config
from companion.ports import OrderObservation, TilesObservation
from companion.session import DEFAULT_CONFIDENCE

staged = pytest.importorskip("vision.staged", reason="the demo camera needs the vision extra")

pytestmark = pytest.mark.slow  # one calibration on rendered pictures, a few seconds


@pytest.fixture(scope="module")
def camera() -> staged.StagedCamera:
    return staged.StagedCamera(Config(), seed=0)


def _settle(camera: staged.StagedCamera, kind: str) -> object:
    for _ in range(8):
        obs = camera.read(kind)  # type: ignore[arg-type]
        if obs.stable:
            return obs
    raise AssertionError(f"the staged {kind} reading never settled")


@pytest.mark.parametrize("robot", ["red-green-yellow", "blue-blue-red", "yellow-red-green"])
def test_a_card_held_up_is_read_without_asking(camera: staged.StagedCamera, robot: str) -> None:
    camera.show_order(robot)
    obs = _settle(camera, "order")
    assert isinstance(obs, OrderObservation)
    assert obs.reading.robot == robot
    assert obs.reading.confidence >= DEFAULT_CONFIDENCE


def test_tiles_laid_on_the_boards_are_read_without_asking(camera: staged.StagedCamera) -> None:
    robots = {0: "red-green-blue", 2: "yellow-yellow-red", 4: "blue-red-green"}
    camera.show_tiles(robots)
    obs = _settle(camera, "tiles")
    assert isinstance(obs, TilesObservation)
    assert {seat: r.robot for seat, r in obs.robots.items()} == robots
    assert min(r.confidence for r in obs.robots.values()) >= DEFAULT_CONFIDENCE


def test_reads_share_one_read_only_picture(camera: staged.StagedCamera) -> None:
    camera.show_order("green-green-blue")
    camera.read("order")
    first = camera._frame()
    camera.read("order")
    assert camera._frame() is first  # no copy per read
    assert not first.flags.writeable  # so no reader may change it
    camera.show_tiles({1: "red-red-red"})
    camera.read("tiles")
    assert camera._frame() is not first  # the card's picture was let go, not kept beside


def test_drawing_a_scene_needs_a_few_mb_beyond_the_picture() -> None:
    """The synthetic renderer's whole-picture float copies cost about 60 MB a picture at
    1280x720, more than the app could carry; the staged camera draws band by band."""
    config = Config()
    style = staged.Style.random(np.random.default_rng(3), config.game.display)
    colours = list(config.game.colours)
    picture = 1280 * 720 * 3
    for draw in (
        lambda rng: staged.render_tiles(style, colours, {0: "red-red-red", 5: "blue-green-yellow"},
                                        rng, 1280, 720),
        lambda rng: staged.render_order(style, "red-blue-green", rng, 1280, 720),
        lambda rng: staged.render_grid(style, [[None, 1, None, None, None]] * 5, rng, 1280, 720),
    ):
        tracemalloc.start()
        try:
            image = draw(np.random.default_rng(11))
            _current, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert image.shape == (720, 1280, 3)
        assert peak < 4 * picture, peak / 2**20
