"""The rays beside a tile decide its lane only where the tile's marker prints its white at least
`[tiles]` `ray_min_white` bright (tiles.read_part).

Blind hard other art 52023 (gate 47): low light on a dark brown table, the markers' white 51-63
of 255. Normalising by so dim a white multiplies the sensor's noise, and the table learnt as
background shows specks of the green lanes' colour: on nearly every ray from a tile put aside
beside the boards two such specks lie in a row, the rays' test. Five pictures were read wrong:
seats whose tiles lay on the table read green-green-green, and in t011 a red lane, its rings
split 0.50 green to 0.46 red, read green with the rays' word.

Since the lane colours are learnt from their vivid ring pixels only (test_tiles_vivid_lanes),
the green learnt here is tighter and these two pictures read no tile put aside as green with the
rays trusted in the dark either. The counterfactual learns the colours as they were then learnt
(``lane_vivid_share`` 0), to show what the rays' bar guards against.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import markers, tiles
from vision.calibration import calibrate
from vision.dataset import Example
from vision.tiles import TilesLook

SEED = 52023


Pictures = dict[str, tuple[np.ndarray, dict[str, Any]]]


@pytest.fixture(scope="module")
def dark_table_drawn() -> tuple[list[Example], Pictures]:
    """52023's tile calibration pictures and its hard tile pictures t005 and t011, drawn again
    as the generator drew them."""
    from tests.vision.otherart.redraw import calibration, test_picture

    look, examples = calibration(SEED, Config())
    return examples, {name: test_picture(look, SEED, f"{name}.jpg", hard=True)
                      for name in ("t005", "t011")}


@pytest.fixture(scope="module")
def dark_table(dark_table_drawn: tuple[list[Example], Pictures]) -> tuple[TilesLook, Pictures]:
    """52023's tile calibration learnt again, and its pictures."""
    examples, pictures = dark_table_drawn
    return calibrate(examples, Config()).tiles, pictures


def test_the_markers_print_a_dim_white(
        dark_table: tuple[TilesLook, dict[str, tuple[np.ndarray, dict[str, Any]]]]) -> None:
    _, pictures = dark_table
    for image, _ in pictures.values():
        found, _ = tiles.find_markers(image)
        whites = [float(np.mean(markers.white_black(image, q)[0])) for q in found.values()]
        assert whites and max(whites) < float(tiles.section("tiles")["ray_min_white"])


def test_no_seat_is_read_wrong(
        dark_table: tuple[TilesLook, dict[str, tuple[np.ndarray, dict[str, Any]]]]) -> None:
    look, pictures = dark_table
    for image, label in pictures.values():
        robots = label.get("robots", {})
        for seat, reading in tiles.read_tiles(image, look).robots.items():
            assert reading.robot in (None, robots.get(str(seat), robots.get(seat))), (seat, reading)


def test_with_the_rays_trusted_in_the_dark_the_tiles_put_aside_read_green(
        dark_table_drawn: tuple[list[Example], Pictures],
        monkeypatch: pytest.MonkeyPatch) -> None:
    examples, pictures = dark_table_drawn
    image, label = pictures["t005"]
    assert not label.get("robots")
    # the colours learnt from every ring pixel, as when the case was found
    set_thresholds(monkeypatch, tiles, "tiles", lane_vivid_share=0.0, ray_min_white=0.0)
    look = calibrate(examples, Config()).tiles
    read = {seat: r.robot for seat, r in tiles.read_tiles(image, look).robots.items()}
    assert "green-green-green" in read.values(), read
