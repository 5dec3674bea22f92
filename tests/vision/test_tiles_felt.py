"""Part tiles put aside on a green felt table, beside boards without corner markers, were read as
a seat's robot, green-green-green (other art h10817 t012 and t020): the rings around each tile
show only the felt, and the "tile on no board" rule needs the boards' corner markers. Where no
board shows its corner markers, a part is now read only when its colour's region around the
tile is about a lane's size: a lane is a strip of the board, bounded by the next lanes and the
board's margin; a table of its colour runs on all round (other art h10817: lanes at most 1.1 of
the largest calibration lane, the set-aside tiles 3.4 and 6.3 times it)."""

from __future__ import annotations

import cv2
import numpy as np

from vision import markers, tiles
from vision.colour import ColourModel
from vision.synth import draw
from vision.thresholds import section

NAMES = ["red", "green", "blue", "yellow"]
DISPLAY = {"red": "#d03030", "green": "#30a040", "blue": "#3060d0", "yellow": "#f0d040"}
# lane colours as BGR shares of the tile's white (what ring_samples gives)
LANES = {"red": (0.2, 0.2, 0.85), "green": (0.35, 0.65, 0.2), "blue": (0.85, 0.45, 0.2),
         "yellow": (0.3, 0.8, 0.9)}
PAPER = (0.93, 0.93, 0.9)
SIDE = 24.0  # marker side in pixels
TABLE = (0.3, 0.3, 0.3)  # a grey table: none of the colours


def _look() -> tiles.TilesLook:
    rng = np.random.default_rng(12)
    samples = {n: np.array(c) + rng.normal(0, 0.02, (400, 3)) for n, c in LANES.items()}
    model = ColourModel.fit(samples, ColourModel.default(NAMES, DISPLAY))
    paper = np.array(PAPER) + rng.normal(0, 0.02, (800, 3))
    return tiles.TilesLook([1.5, 1.6, 1.7],
                           model.with_background(np.concatenate([*samples.values(), paper])))


def _bgr(shares: tuple[float, float, float]) -> tuple[int, int, int]:
    b, g, r = (round(255 * s) for s in shares)
    return b, g, r


def _paste_tile(img: np.ndarray, marker_id: int, centre: tuple[float, float]) -> None:
    marker = cv2.cvtColor(draw.marker_patch(marker_id, 8), cv2.COLOR_GRAY2BGR)
    patch = np.full((58, 58, 3), _bgr(PAPER), np.uint8)
    patch[5:53, 5:53] = marker
    k = SIDE / 48
    draw.paste(img, patch, draw.place(58 * k, 58 * k, centre[0], centre[1], 0.0) @ draw.scale(k))


def _board(img: np.ndarray, x0: int, y0: int) -> list[tuple[float, float]]:
    """A personal board without corner markers at (x0, y0): a grey margin round four lanes,
    each 3 marker sides wide and 8 long (red, green, blue, yellow, left to right); the middle
    of each lane."""
    lane_w, lane_h, margin = int(3 * SIDE), int(8 * SIDE), int(0.7 * SIDE)
    img[y0:y0 + lane_h + 2 * margin, x0:x0 + 4 * lane_w + 2 * margin] = _bgr((0.55, 0.55, 0.55))
    middles = []
    for k, name in enumerate(NAMES):
        left = x0 + margin + k * lane_w
        img[y0 + margin:y0 + margin + lane_h, left:left + lane_w] = _bgr(LANES[name])
        middles.append((left + lane_w / 2, y0 + margin + lane_h / 2))
    return middles


def _scene(table: tuple[float, float, float], aside: bool) -> np.ndarray:
    """Seat 0's tiles on the board's green, red and blue lanes, or (``aside``) put in a column
    on the table left of the board."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = _bgr(table)
    middles = _board(img, 500, 200)
    for part, lane in enumerate((1, 0, 2)):
        x, y = middles[lane]
        if aside:
            x, y = 300.0, 250.0 + 2.2 * SIDE * part
        _paste_tile(img, markers.tile_id(0, part), (x, y))
    return img


def test_a_lane_is_told_from_a_table_of_its_colour_by_its_size() -> None:
    look = _look()
    on_board = _scene(TABLE, aside=False)
    found = tiles.find_tiles(on_board)
    lane = tiles.lane_area(on_board, found[markers.tile_id(0, 0)], look, NAMES.index("green"))
    # a lane 3 by 8 marker sides, less the tile
    assert 15 <= lane <= 24, lane
    felt = _scene(LANES["green"], aside=True)
    found = tiles.find_tiles(felt)
    table = tiles.lane_area(felt, found[markers.tile_id(0, 0)], look, NAMES.index("green"))
    assert table > 5 * lane, table


def test_tiles_put_aside_on_green_felt_are_declined() -> None:
    look = _look()
    felt = _scene(LANES["green"], aside=True)
    # the rings alone read each tile green, sure of it, as they did on h10817
    found = tiles.find_tiles(felt)
    assert all(tiles.read_part(felt, found[markers.tile_id(0, p)], look)[0] == "green"
               for p in range(3))
    on_board = _scene(TABLE, aside=False)
    found = tiles.find_tiles(on_board)
    look.lane_area = max(tiles.lane_area(on_board, found[markers.tile_id(0, p)], look, colour)
                         for p, colour in enumerate((1, 0, 2)))
    robot = tiles.read_tiles(felt, look).robots[0]
    assert robot.robot is None
    # the same tiles on the board's lanes, the table felt too, are read
    on_felt_board = _scene(LANES["green"], aside=False)
    assert tiles.read_tiles(on_felt_board, look).robots[0].robot == "green-red-blue"
    assert tiles.read_tiles(on_board, look).robots[0].robot == "green-red-blue"


def test_the_lane_size_is_learnt_and_kept() -> None:
    look = _look()
    on_board = _scene(TABLE, aside=False)
    learnt = tiles.learn([(on_board, {0: "green-red-blue"})], look.model)
    assert learnt.lane_area is not None and 15 <= learnt.lane_area <= 24
    again = tiles.TilesLook.from_json(learnt.to_json())
    assert again.lane_area == round(learnt.lane_area, 3)
    # a calibration made before this round has none: nothing is asked of the lanes
    old = learnt.to_json()
    del old["lane_area"]
    assert tiles.TilesLook.from_json(old).lane_area is None
    assert section("tiles")["lane_area_factor"] < 5
