"""Beside a dim marker, where no board shows its corner markers, a part is read only when its
colour's region fills the surface the rings show (tiles.lane_solid, `[tiles]` `lane_solid`,
`lane_solid_white`).

Hard other art 54022 t020: low light (the picture's mean 16 of 255, the markers' white 44-47) on
a green felt table. Seat 5's three tiles lie put aside on the felt beside the left board, and
the seat was read green-green-green at 0.98 where no robot was laid. The felt is within the
green lanes' reach even in the calibration's light (so it was never learnt as background, and
`lane_apart` holds: 7.7-11.2), and the rings read it green at 0.98-1.0. Normalised by so dim a
white, the noise classes the felt green and background by turns: its specks join only 10-59
square marker sides of it to the rings, under the lane-size bar of 126, while the felt near the
green (the surface the rings show) is 66-112. The colour's region fills 0.16-0.52 of that
surface round the tiles put aside, and 0.99-1.0 round seat 4's tiles on the lanes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import markers, tiles
from vision.calibration import calibrate
from vision.thresholds import section
from vision.tiles import TilesLook

SEED = 54022
TABLE_SEAT, LANE_SEAT = 5, 4


@pytest.fixture(scope="module")
def green_table() -> tuple[TilesLook, np.ndarray, dict[str, Any]]:
    """54022's tile calibration learnt again and its hard tile picture t020, drawn again as the
    generator drew it."""
    from tests.vision.otherart.redraw import calibration, test_picture

    look, examples = calibration(SEED, Config())
    tiles_look = calibrate(examples, Config()).tiles
    image, label = test_picture(look, SEED, "t020.png", hard=True)
    return tiles_look, image, label


def test_the_tiles_lie_beside_dim_markers_with_no_board_corners(
        green_table: tuple[TilesLook, np.ndarray, dict[str, Any]]) -> None:
    _, image, label = green_table
    assert not label.get("robots")
    found, corners = tiles.find_markers(image)
    assert not corners, "this art's boards carry no corner markers"
    ids = [markers.tile_id(TABLE_SEAT, p) for p in range(3)]
    assert set(ids) <= set(found)
    bar = float(section("tiles")["lane_solid_white"])
    assert all(float(np.mean(markers.white_black(image, found[m])[0])) < bar for m in ids)


def test_no_seat_is_read(green_table: tuple[TilesLook, np.ndarray, dict[str, Any]]) -> None:
    look, image, _ = green_table
    read = tiles.read_tiles(image, look).robots
    assert all(reading.robot is None for reading in read.values()), read


def test_the_felt_fills_little_of_its_surface_and_a_lane_all(
        green_table: tuple[TilesLook, np.ndarray, dict[str, Any]]) -> None:
    look, image, _ = green_table
    found, _ = tiles.find_markers(image)
    least = float(section("tiles")["lane_solid"])
    for part in range(3):
        quad = found[markers.tile_id(TABLE_SEAT, part)]
        assert tiles.read_part(image, quad, look)[0] == "green"
        assert tiles.lane_solid(image, quad, look, "green") < least
    # seat 4's head on the blue lane and legs on the green lane of the right board
    for part, colour in ((0, "blue"), (2, "green")):
        quad = found[markers.tile_id(LANE_SEAT, part)]
        assert tiles.read_part(image, quad, look)[0] == colour
        assert tiles.lane_solid(image, quad, look, colour) >= least


def test_without_the_rule_the_tiles_put_aside_read_green(
        green_table: tuple[TilesLook, np.ndarray, dict[str, Any]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, _ = green_table
    set_thresholds(monkeypatch, tiles, "tiles", lane_solid=0.0)
    read = tiles.read_tiles(image, look).robots
    assert read[TABLE_SEAT].robot == "green-green-green", read
