"""Where no board shows its corner markers, a part is read only when the ring's pixels of its
colour stand apart from the table learnt as background (tiles.apart_from_table, `[tiles]`
`lane_apart`).

Blind other art 40011 t017 (gate 35): seat 4's three tiles were put aside in a column at the
picture's edge, on teal felt, beside a board with no tiles. Each tile's ring read the lanes'
green at full confidence, and the seat was read green-green-green. The felt is classed green
only in specks next to the tiles and background between them, so the green region is smaller
than a lane (3.6-13 square marker sides against a learnt 24) and the lane-size rule cannot see
it; the tiles lie in a column, so no other lane's colour lies between them. What tells the felt
from a lane is how near its specks lie to the background: the -2 log-likelihoods of green and
of the likeliest background differ by 0.88-0.93 at the median, against at least 2.32 for every
part on a lane read right over 204 sets.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import markers, tiles
from vision.calibration import Calibration, calibrate
from vision.colour import ColourModel
from vision.thresholds import section

FELT_SEAT, BOARD_SEAT = 4, 0


@pytest.fixture(scope="module")
def put_aside_on_felt() -> tuple[np.ndarray, dict[str, str], Calibration]:
    """Other art seed 40011's seventeenth tiles picture and that seed's calibration, drawn
    again in the generator's order (the sixteen rounds of tiles, order and grid pictures before
    it drawn too: each takes from the same random stream)."""
    from tests.vision.otherart import redraw

    config = Config()
    look, examples = redraw.calibration(40011, config)
    image, label = redraw.test_picture(look, 40011, "t017.jpg")
    return image, dict(label["robots"]), calibrate(examples, config)


def _without_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    set_thresholds(monkeypatch, tiles, "tiles", lane_apart=-math.inf)


def test_tiles_put_aside_on_felt_are_no_robot(
        put_aside_on_felt: tuple[np.ndarray, dict[str, str], Calibration]) -> None:
    image, robots, calibration = put_aside_on_felt
    assert robots == {str(BOARD_SEAT): "red-yellow-red"}
    found, corners = tiles.find_markers(image)
    assert not corners, "this art's boards carry no corner markers"
    assert {markers.tile_id(FELT_SEAT, p) for p in range(3)} <= set(found)
    read = tiles.read_tiles(image, calibration.tiles).robots
    assert read[FELT_SEAT].robot is None
    assert read[BOARD_SEAT].robot == "red-yellow-red"


def test_without_the_rule_the_felt_was_read_as_a_robot(
        put_aside_on_felt: tuple[np.ndarray, dict[str, str], Calibration],
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, _, calibration = put_aside_on_felt
    _without_the_rule(monkeypatch)
    read = tiles.read_tiles(image, calibration.tiles).robots
    assert read[FELT_SEAT].robot == "green-green-green"
    assert read[BOARD_SEAT].robot == "red-yellow-red"


def test_the_felt_lies_near_the_background_and_the_lanes_do_not(
        put_aside_on_felt: tuple[np.ndarray, dict[str, str], Calibration]) -> None:
    image, _, calibration = put_aside_on_felt
    found, _ = tiles.find_markers(image)
    least = float(section("tiles")["lane_apart"])
    look = calibration.tiles
    for seat, colours in ((FELT_SEAT, ["green"] * 3), (BOARD_SEAT, ["red", "yellow", "red"])):
        for part, colour in enumerate(colours):
            apart = tiles.apart_from_table(image, found[markers.tile_id(seat, part)], look,
                                           colour)
            assert (apart < least) == (seat == FELT_SEAT), (seat, part, apart)


def test_background_lead_weighs_as_classify_does() -> None:
    names = ["red", "green"]
    model = ColourModel(names, np.array([[0.0, 0.0, 0.0], [10.0, 0.0, 0.0]], np.float32),
                        np.stack([np.eye(3, dtype=np.float32)] * 2))
    pixels = np.array([[0.2, 0.4, 0.6]], np.float32)
    assert np.isinf(model.background_lead(pixels, 0)).all(), "no background learnt"
    # a background cluster where the pixel lies, the colour half a spread away: the pixel is
    # likelier background by a quarter, and classify calls it background
    from vision.colour import BACKGROUND, features
    f = features(pixels)[0]
    near = ColourModel(names, np.array([f + np.array([0.5, 0.0, 0.0]), f + 10.0], np.float32),
                       np.stack([np.eye(3, dtype=np.float32)] * 2),
                       np.array([f], np.float32), np.eye(3, dtype=np.float32)[None])
    assert float(near.background_lead(pixels, 0)[0]) == pytest.approx(-0.25, abs=1e-4)
    assert near.classify(pixels)[0] == BACKGROUND
