"""Where no board shows its corner markers, the lane-size bar is lowered by a quarter of the
share of the lane window that lies out of the picture (tiles._on_a_lane, `[tiles]`
`lane_out_of_view`).

Blind other art 44016 t017 (gate 39): seat 3's head tile was put aside on green felt at the
picture's top edge, above its board, whose yellow and blue lanes held the torso and the legs.
The felt reads as the lanes' green, and its region around the tile measured 0.965 of the bar:
the window reaches past the picture's top, and the felt there was not measured. The seat was
read green-yellow-blue. With 0.58 of the window in view the bar is lowered to 0.895 of itself.
Over 23,692 parts read right on a lane with no corner markers in view (209 sets), none showed
more than 0.935 of the lowered bar.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import markers, tiles
from vision.calibration import Calibration, calibrate
from vision.thresholds import section

ASIDE_SEAT = 3
READ_SEATS = {0: "red-red-yellow", 1: "blue-green-yellow", 4: "green-blue-yellow",
              5: "blue-blue-red"}


@pytest.fixture(scope="module")
def head_at_the_edge() -> tuple[np.ndarray, dict[str, str], Calibration]:
    """Other art seed 44016's seventeenth tiles picture (PNG) and that seed's calibration,
    drawn again in the generator's order."""
    from tests.vision.otherart import redraw

    config = Config()
    look, examples = redraw.calibration(44016, config)
    image, label = redraw.test_picture(look, 44016, "t017.png")
    return image, dict(label["robots"]), calibrate(examples, config)


def _read(image: np.ndarray, calibration: Calibration) -> dict[int, str | None]:
    return {seat: r.robot for seat, r in tiles.read_tiles(image, calibration.tiles).robots.items()}


def test_a_head_put_aside_at_the_edge_is_no_robot(
        head_at_the_edge: tuple[np.ndarray, dict[str, str], Calibration]) -> None:
    image, robots, calibration = head_at_the_edge
    assert robots == {str(seat): robot for seat, robot in READ_SEATS.items()}
    found, corners = tiles.find_markers(image)
    assert not corners, "this art's boards carry no corner markers"
    assert {markers.tile_id(ASIDE_SEAT, p) for p in range(3)} <= set(found)
    read = _read(image, calibration)
    assert read[ASIDE_SEAT] is None
    for seat, robot in READ_SEATS.items():
        assert read[seat] == robot, seat


def test_without_the_lowering_the_seat_was_read(
        head_at_the_edge: tuple[np.ndarray, dict[str, str], Calibration],
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, _, calibration = head_at_the_edge
    set_thresholds(monkeypatch, tiles, "tiles", lane_out_of_view=0.0)
    read = _read(image, calibration)
    assert read[ASIDE_SEAT] == "green-yellow-blue"
    for seat, robot in READ_SEATS.items():
        assert read[seat] == robot, seat


def test_the_head_window_reaches_out_of_the_picture(
        head_at_the_edge: tuple[np.ndarray, dict[str, str], Calibration]) -> None:
    image, _, calibration = head_at_the_edge
    look = calibration.tiles
    assert look.lane_area is not None
    head = tiles.find_markers(image)[0][markers.tile_id(ASIDE_SEAT, 0)]
    green = look.model.names.index("green")
    bar = float(section("tiles")["lane_area_factor"]) * look.lane_area
    area = tiles.lane_area(image, head, look, green)
    assert 0.9 * bar < area <= bar, "under the bar as measured, only just"
    assert tiles.lane_within(image, head, look, green, bar)
    assert not tiles.lane_within(image, head, look, green, bar, out_of_view=0.25)


def test_a_window_wholly_in_view_keeps_its_bar(
        head_at_the_edge: tuple[np.ndarray, dict[str, str], Calibration]) -> None:
    image, _, calibration = head_at_the_edge
    look = calibration.tiles
    found, _ = tiles.find_markers(image)
    # seat 0's head and torso lie on lanes whose windows are wholly in the picture: the same
    # answer at any weight, for bars on either side of the lane's area
    for part, colour in ((0, "red"), (1, "red")):
        quad = found[markers.tile_id(0, part)]
        index = look.model.names.index(colour)
        area = tiles.lane_area(image, quad, look, index)
        for bar in (0.5 * area, 2.0 * area):
            assert tiles.lane_within(image, quad, look, index, bar) == \
                tiles.lane_within(image, quad, look, index, bar, out_of_view=0.9) == (area <= bar)
