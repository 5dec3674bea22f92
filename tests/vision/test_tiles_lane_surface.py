"""A table of another colour that the colour model classes as a lane's (a sage or olive table
taken for yellow: own art 35 t006, t009, t015, t021, t033, t036 and 10202 t015) joined a yellow
lane through the board's thin margin, so the lane measured 4.6 to 14.7 calibration lanes and
right tiles were declined. The lane's region now holds only the samples of the colour the rings
themselves show (``tiles.lane_same_d2``): a felt of a lane's colour is the rings' own surface
and still runs on all round a tile put aside on it."""

from __future__ import annotations

import numpy as np

from tests.vision.test_tiles_felt import LANES, NAMES, SIDE, TABLE, _bgr, _look, _paste_tile, _scene
from vision import markers, tiles
from vision.colour import features

# classed yellow (nearest, within the reject distance), 12.6 from the yellow lane in its spread
OLIVE = (0.4, 0.75, 0.7)


def _thin_board_scene(table: tuple[float, float, float]) -> np.ndarray:
    """Seat 0's tiles on the yellow, red and blue lanes of a board without corner markers whose
    margin is a tenth of a marker side (the yellow lane runs to the board's right edge)."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = _bgr(table)
    x0, y0 = 400, 200
    lane_w, lane_h, margin = int(3 * SIDE), int(8 * SIDE), max(1, int(0.1 * SIDE))
    img[y0:y0 + lane_h + 2 * margin, x0:x0 + 4 * lane_w + 2 * margin] = _bgr((0.55, 0.55, 0.55))
    middles = []
    for k, name in enumerate(NAMES):
        left = x0 + margin + k * lane_w
        img[y0 + margin:y0 + margin + lane_h, left:left + lane_w] = _bgr(LANES[name])
        middles.append((left + lane_w / 2, y0 + margin + lane_h / 2))
    for part, lane in enumerate((3, 0, 2)):
        _paste_tile(img, markers.tile_id(0, part), middles[lane])
    return img


def _calibrated() -> tiles.TilesLook:
    look = _look()
    on_board = _scene(TABLE, aside=False)
    found = tiles.find_tiles(on_board)
    look.lane_area = max(tiles.lane_area(on_board, found[markers.tile_id(0, p)], look, colour)
                         for p, colour in enumerate((1, 0, 2)))
    return look


def test_the_olive_table_is_classed_yellow_but_is_not_the_lanes_colour() -> None:
    look = _look()
    px = np.array([OLIVE], np.float32)
    assert look.model.classify(px)[0] == NAMES.index("yellow")
    yellow = NAMES.index("yellow")
    d = features(px)[0] - features(np.array([LANES["yellow"]], np.float32))[0]
    assert float(d @ np.linalg.inv(look.model.covs[yellow]) @ d) > 2 * 5.0


def test_a_lane_on_a_table_classed_its_colour_is_a_lane() -> None:
    look = _calibrated()
    assert look.lane_area is not None
    scene = _thin_board_scene(OLIVE)
    found = tiles.find_tiles(scene)
    quad = found[markers.tile_id(0, 0)]
    assert tiles.read_part(scene, quad, look)[0] == "yellow"
    area = tiles.lane_area(scene, quad, look, NAMES.index("yellow"))
    # the yellow lane alone (3 by 8 marker sides, less the tile), not the table round the board
    assert area <= 1.3 * look.lane_area, (area, look.lane_area)
    # on main the table joined the lane and the seat was declined
    assert tiles.read_tiles(scene, look).robots[0].robot == "yellow-red-blue"
    # the same board on a grey table reads the same
    assert tiles.read_tiles(_thin_board_scene(TABLE), look).robots[0].robot == "yellow-red-blue"


def test_felt_of_a_lanes_colour_is_still_declined() -> None:
    look = _calibrated()
    for colour in ("green", "yellow"):
        felt = _scene(LANES[colour], aside=True)
        found = tiles.find_tiles(felt)
        quad = found[markers.tile_id(0, 0)]
        assert tiles.read_part(felt, quad, look)[0] == colour
        assert look.lane_area is not None
        assert tiles.lane_area(felt, quad, look, NAMES.index(colour)) > 5 * look.lane_area
        assert tiles.read_tiles(felt, look).robots[0].robot is None


def test_lane_within_decides_as_lane_area() -> None:
    look = _calibrated()
    scenes = [_thin_board_scene(OLIVE), _scene(LANES["green"], aside=True),
              _scene(LANES["yellow"], aside=True), _scene(OLIVE, aside=True)]
    for scene in scenes:
        for quad in tiles.find_tiles(scene).values():
            for colour in range(len(NAMES)):
                area = tiles.lane_area(scene, quad, look, colour)
                for bar in (0.0, area, np.nextafter(area, -1.0), 2.6 * 20.0, 0.3 * 20.0):
                    assert tiles.lane_within(scene, quad, look, colour, float(bar)) == \
                        (tiles.lane_area(scene, quad, look, colour, limit=float(bar)) <= bar)
