"""The three readers on synthetic scenes: right or declined, never confidently wrong."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from companion.ports import GridObservation, OrderObservation, TilesObservation
from vision import grid, order, tiles
from vision.calibration import Calibration
from vision.dataset import Example
from vision.errors import NoCardFound, NoPlayAreaFound, NoTilesFound
from vision.evaluate import judge
from vision.read import read
from vision.synth import make_example
from vision.synth.scenes import Style, render_tiles


def _run(kind: str, n: int, style: Style, config: Config, cal: Calibration, seed: int,
         hard: bool = False) -> tuple[int, int, int]:
    rng = np.random.default_rng(seed)
    exact = wrong = abstained = 0
    for i in range(n):
        example = make_example(kind, f"{i}.png", style, config, rng, hard)
        obs = read(example.image, kind, cal)  # type: ignore[arg-type]
        w, a = judge(example, obs)
        wrong += w
        abstained += a
        exact += not w and not a
    return exact, wrong, abstained


@pytest.mark.parametrize("kind", ["tiles", "order", "grid"])
def test_clean_scenes_are_read_and_never_wrong(kind: str, style: Style, config: Config,
                                               calibration: Calibration) -> None:
    exact, wrong, _ = _run(kind, 6, style, config, calibration, seed=600)
    assert wrong == 0
    assert exact >= 3, f"only {exact} of 6 {kind} scenes read exactly"


def test_tiles_reading_names_each_seat(style: Style, config: Config,
                                       calibration: Calibration) -> None:
    rng = np.random.default_rng(7)
    robots = {0: "red-green-blue", 4: "yellow-yellow-green"}
    image = render_tiles(style, list(config.game.colours), robots, rng)
    obs = tiles.read_tiles(image, calibration.tiles)
    assert isinstance(obs, TilesObservation)
    assert set(obs.robots) == {0, 4}
    for seat, reading in obs.robots.items():
        assert reading.robot in (robots[seat], None)
        if reading.robot is not None:
            assert 0 < reading.confidence <= 1
            assert len(reading.parts) == 3


def test_hard_scenes_decline_rather_than_guess_tiles_and_orders(
        style: Style, config: Config, calibration: Calibration) -> None:
    for kind in ("tiles", "order"):
        _, wrong, _ = _run(kind, 5, style, config, calibration, seed=610, hard=True)
        assert wrong == 0, kind


def test_an_empty_table_raises_named_errors(calibration: Calibration) -> None:
    blank = np.full((360, 640, 3), 120, np.uint8)
    with pytest.raises(NoTilesFound):
        tiles.read_tiles(blank, calibration.tiles)
    with pytest.raises(NoCardFound):
        order.read_order(blank, calibration.order)
    with pytest.raises(NoPlayAreaFound):
        grid.read_grid(blank, calibration.grid)


def test_read_declines_everything_when_nothing_is_in_view(calibration: Calibration) -> None:
    blank = np.full((360, 640, 3), 120, np.uint8)
    assert read(blank, "tiles", calibration) == TilesObservation({})
    obs = read(blank, "order", calibration)
    assert isinstance(obs, OrderObservation) and obs.reading.robot is None
    g = read(blank, "grid", calibration)
    assert isinstance(g, GridObservation)
    assert all(c is None for row in g.cells for c in row)
    assert all(c == 0.0 for row in g.confidence for c in row)


def test_an_uncalibrated_grid_declines_every_cell(style: Style, config: Config) -> None:
    cal = Calibration.default(config)
    example = make_example("grid", "g.png", style, config, np.random.default_rng(3))
    obs = read(example.image, "grid", cal)
    assert isinstance(obs, GridObservation)
    assert all(c == 0.0 for row in obs.confidence for c in row)


def test_judge_counts_a_robot_for_an_unlisted_seat_as_wrong() -> None:
    from companion.ports import RobotReading

    example = Example("t", "tiles", np.zeros((1, 1, 3), np.uint8), robots={0: "red-red-red"})
    obs = TilesObservation({0: RobotReading("red-red-red", 0.9),
                            3: RobotReading("blue-red-red", 0.9)})
    assert judge(example, obs) == (True, False)
    obs = TilesObservation({0: RobotReading(None, 0.0)})
    assert judge(example, obs) == (False, True)
