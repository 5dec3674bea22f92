"""A lane colour is learnt from the ring pixels about as saturated as the lane, not from the grey
margin round a tile at its lane's end (tiles._vivid_share, `[tiles]` `lane_vivid_share`).

Blind other art 63012 (gate 58): several calibration tiles labelled red lay at the end of their
red lane, so their rings showed the board's beige margin over half their pixels, and blur
blended the two into every step between. The learnt red took the margin in with its own bulk
(its spread in blue share 0.067, green's 0.013), claimed the margin round every tile in the test
pictures, and three pictures were read wrong: t002's seat 0 red-green-red for red-green-green (a
legs tile on its green lane's edge), t013's torsos green read red.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import markers, tiles
from vision.calibration import calibrate
from vision.colour import features
from vision.tiles import TilesLook

SEED = 63012
PICTURES = ("t002",)


@pytest.fixture(scope="module")
def lane_ends() -> tuple[list[Any], dict[str, tuple[np.ndarray, dict[str, Any]]]]:
    """63012's tile calibration pictures and its clean tile picture t002, drawn again
    as the generator drew them."""
    from tests.vision.otherart.redraw import calibration, test_picture

    look, examples = calibration(SEED, Config(), kinds=("tiles",))
    return examples, {name: test_picture(look, SEED, f"{name}.png") for name in PICTURES}


def _learnt(examples: list[Any]) -> TilesLook:
    return calibrate(examples, Config()).tiles


def _read(image: np.ndarray, look: TilesLook) -> dict[int, str | None]:
    return {int(seat): r.robot for seat, r in tiles.read_tiles(image, look).robots.items()}


def _red_spread(look: TilesLook) -> float:
    red = look.model.names.index("red")
    return float(np.sqrt(look.model.covs[red][0, 0]))


def test_the_red_rings_show_the_grey_margin(
        lane_ends: tuple[list[Any], dict[str, tuple[np.ndarray, dict[str, Any]]]]) -> None:
    examples, _ = lane_ends
    look = _learnt(examples)
    greys = 0
    for example in examples:
        found = tiles.find_tiles(example.image)
        for seat, robot in example.robots.items():
            for part, colour in enumerate(robot.split("-")):
                quad = found.get(markers.tile_id(int(seat), part))
                if colour != "red" or quad is None:
                    continue
                ring = tiles.ring_samples(example.image, quad, look.radii, 36).reshape(-1, 3)
                hi = ring.max(axis=1)
                greys += int(((hi - ring.min(axis=1)) / np.maximum(hi, 1e-3) < 0.2).sum() > 0.4
                             * len(ring))
    assert greys >= 2  # at least two red tiles' rings mostly the margin


def test_the_lanes_are_read_right(
        lane_ends: tuple[list[Any], dict[str, tuple[np.ndarray, dict[str, Any]]]]) -> None:
    examples, pictures = lane_ends
    look = _learnt(examples)
    # the red learnt about as tight as the other colours: the margin is not in it
    green = look.model.names.index("green")
    assert _red_spread(look) < 2 * float(np.sqrt(look.model.covs[green][0, 0]))
    margin = np.array([[0.75, 0.81, 0.855]])  # the margin round t002's tiles, white-balanced
    assert look.model.classify(margin)[0] != look.model.names.index("red")
    assert float(features(margin)[0, 0]) > 0.3
    for image, label in pictures.values():
        robots = {int(seat): robot for seat, robot in label["robots"].items()}
        read = _read(image, look)
        for seat, robot in read.items():
            assert robot in (None, robots.get(seat)), (seat, robot)
        assert all(read.get(seat) == robot for seat, robot in robots.items()), read


def test_learnt_from_every_ring_pixel_the_red_took_the_margin(
        lane_ends: tuple[list[Any], dict[str, tuple[np.ndarray, dict[str, Any]]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    examples, pictures = lane_ends
    set_thresholds(monkeypatch, tiles, "tiles", lane_vivid_share=0.0)
    look = _learnt(examples)
    assert _red_spread(look) > 0.05
    image, label = pictures["t002"]
    read = _read(image, look)
    assert label["robots"]["0"] == "red-green-green"
    assert read[0] == "red-green-red"
