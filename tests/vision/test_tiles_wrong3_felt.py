"""Part tiles put aside on a felt table of a lane's colour, beside boards without corner markers:
a tile on a lane lies between other lanes, a tile on the felt sees its colour all round and no
other, and is declined (other art h10817 t012, t020: three tiles on green felt were read as a
seat's green-green-green robot)."""

from __future__ import annotations

import cv2
import numpy as np

from vision import tiles
from vision.colour import ColourModel
from vision.synth import draw
from vision.thresholds import section

NAMES = ["red", "green", "blue", "yellow"]
DISPLAY = {"red": "#d03030", "green": "#30a040", "blue": "#3060d0", "yellow": "#f0d040"}
# lane colours as BGR shares of the tile's white (what ring_samples gives)
LANES = {"red": (0.2, 0.2, 0.85), "green": (0.35, 0.65, 0.2), "blue": (0.85, 0.45, 0.2),
         "yellow": (0.3, 0.8, 0.9)}
PAPER = (0.93, 0.93, 0.9)
SIDE = 30.0  # marker side in pixels


def _look() -> tiles.TilesLook:
    rng = np.random.default_rng(12)
    samples = {n: np.array(c) + rng.normal(0, 0.02, (400, 3)) for n, c in LANES.items()}
    model = ColourModel.fit(samples, ColourModel.default(NAMES, DISPLAY))
    paper = np.array(PAPER) + rng.normal(0, 0.02, (800, 3))
    return tiles.TilesLook([1.2, 1.3, 1.4],
                           model.with_background(np.concatenate([*samples.values(), paper])))


def _bgr(shares: tuple[float, float, float]) -> tuple[int, int, int]:
    b, g, r = (round(255 * s) for s in shares)
    return b, g, r


def _seat_on(img: np.ndarray, x: float) -> None:
    """Seat 0's three tiles (two marker sides of paper each) in a column at ``x``."""
    for part in range(3):
        marker = cv2.cvtColor(draw.marker_patch(part, 8), cv2.COLOR_GRAY2BGR)
        patch = np.full((96, 96, 3), _bgr(PAPER), np.uint8)
        patch[24:72, 24:72] = marker
        k = SIDE / 48
        draw.paste(img, patch, draw.place(96 * k, 96 * k, x, 130.0 + part * 3.5 * SIDE, 0.0)
                   @ draw.scale(k))


def _noisy(img: np.ndarray) -> np.ndarray:
    rng = np.random.default_rng(14)
    return np.asarray(np.clip(img + rng.normal(0, 3, img.shape), 0, 255).astype(np.uint8))


def test_tiles_put_aside_on_a_felt_of_a_lanes_colour_are_declined() -> None:
    img = np.zeros((600, 800, 3), np.uint8)
    img[:] = _bgr(LANES["green"])
    _seat_on(img, 400.0)
    img = _noisy(img)
    look = _look()
    # the rings alone read green (what main read) ...
    found = tiles.find_tiles(img)
    assert sorted(found) == [0, 1, 2]
    assert all(tiles.read_part(img, found[m], look)[0] == "green" for m in range(3))
    # ... but no other lane lies beside them: the seat is declined
    robot = tiles.read_tiles(img, look).robots[0]
    assert robot.robot is None and robot.parts == (0.0, 0.0, 0.0)


def test_tiles_on_a_green_lane_between_other_lanes_are_read() -> None:
    # a board of four lanes, each 3 marker sides wide (about the widest measured: 1.55 tiles
    # of two sides), the tiles down the middle of the green one
    img = np.zeros((600, 800, 3), np.uint8)
    img[:] = _bgr(LANES["green"])  # the same green felt around the board
    lane = 3 * SIDE
    for k, name in enumerate(["yellow", "green", "blue", "red"]):
        x0 = round(400.0 - lane / 2 + (k - 1) * lane)
        cv2.rectangle(img, (x0, 60), (round(x0 + lane) - 2, 540), _bgr(LANES[name]), -1)
    _seat_on(img, 400.0)
    img = _noisy(img)
    assert tiles.read_tiles(img, _look()).robots[0].robot == "green-green-green"


def test_the_radii_are_in_the_thresholds_file() -> None:
    cfg = section("tiles")
    assert float(cfg["beside_to"]) == 2.5 and int(cfg["beside_rays"]) == 1
