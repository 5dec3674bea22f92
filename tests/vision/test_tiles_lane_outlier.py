"""The lane size learnt in calibration leaves out a part whose lane area is over
``lane_area_outlier`` times the calibration parts' median (tiles.calibration_lane, `[tiles]`
`lane_area_outlier`).

Blind third art g2679 (batch 27): boards with no corner markers on green felt. In calibration
one part lay on a green lane at its board's edge, where the lane joins the felt: it measured
128.6 against a median of 18.1 (next largest 29.8). The lane-size bar learnt from it, 2.6 times
that, let tiles put aside on the felt pass for parts on green lanes (250-310): t012's seat 5,
all three tiles on the felt, was read green-green-green, and t004's seat 2 with its torso there.
Over the 309 sets measured every other set's largest area lay within 3.5 times its median.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import tiles
from vision.calibration import Calibration, calibrate
from vision.dataset import load_labelled

ON_THE_FELT = 5


@pytest.fixture(scope="module")
def on_felt(tmp_path_factory: pytest.TempPathFactory
            ) -> tuple[list, np.ndarray, dict[str, str]]:
    """g2679's tile calibration pictures and its twelfth tiles picture, drawn again as
    ``thirdart.build`` draws them."""
    from tests.vision.thirdart.build import as_sent, redrawn

    folder = Path(tmp_path_factory.mktemp("g2679"))
    shot = redrawn(folder, 2679, "t012.jpg")
    examples = [e for e in load_labelled(folder, Config()) if e.kind == "tiles"]
    return examples, as_sent(shot), dict(shot.label["robots"])


def _read(image: np.ndarray, calibration: Calibration) -> dict[int, str | None]:
    return {seat: r.robot for seat, r in tiles.read_tiles(image, calibration.tiles).robots.items()}


def test_tiles_put_aside_on_the_felt_are_no_robot(
        on_felt: tuple[list, np.ndarray, dict[str, str]]) -> None:
    examples, image, robots = on_felt
    assert ON_THE_FELT not in {int(seat) for seat in robots}
    read = _read(image, calibrate(examples, Config()))
    assert read.get(ON_THE_FELT) is None
    for seat, robot in robots.items():
        assert read[int(seat)] == robot


def test_with_every_calibration_part_the_felt_passed_for_a_lane(
        on_felt: tuple[list, np.ndarray, dict[str, str]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    examples, image, _ = on_felt
    set_thresholds(monkeypatch, tiles, "tiles", lane_area_outlier=0.0)
    assert _read(image, calibrate(examples, Config())).get(ON_THE_FELT) == "green-green-green"


def test_the_lane_learnt_leaves_out_only_a_far_outlier(monkeypatch: pytest.MonkeyPatch) -> None:
    usual = [12.0, 15.0, 18.0, 18.1, 20.0, 24.0, 29.8]
    assert tiles.calibration_lane(usual) == 29.8
    assert tiles.calibration_lane([*usual, 128.6]) == 29.8
    # as far out as the sets measured reach (3.5 times the median) is kept
    assert tiles.calibration_lane([10.0, 10.0, 11.0, 35.0]) == 35.0
    assert tiles.calibration_lane([]) is None
    set_thresholds(monkeypatch, tiles, "tiles", lane_area_outlier=0.0)
    assert tiles.calibration_lane([*usual, 128.6]) == 128.6
