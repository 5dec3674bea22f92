"""Board corner markers the whole picture misses, and the closer looks' bit reading.

Third art g2503 t002: seat 2's board showed one corner marker of four to the whole picture (the
picture stops looking once every seat's tiles are found, and corner markers are as small and
soft as the tiles'), so no board was known there and its three tiles, on their lanes, were
declined as off every board. Third art g2501 t001: marker 12 (a lone black cell among white
ones) blurred, read white from the middle 0.74 of each cell at every scale, right from the
middle 0.4 (``tiles.closer_margin``).
"""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_tiles_closer_look import _board, _table_scene, _tile
from vision import markers, tiles
from vision.calibration import Calibration
from vision.synth.scenes import Style

X0, Y0, LANE_W, LANE_H = 400, 200, 90, 300
#: the board's corner markers' centres, clockwise from top-left
AT = [(X0 - 30.0, Y0 - 30.0), (X0 + 4 * LANE_W + 30.0, Y0 - 30.0),
      (X0 + 4 * LANE_W + 30.0, Y0 + LANE_H + 30.0), (X0 - 30.0, Y0 + LANE_H + 30.0)]


def _scene(style: Style, poor: list[int], sigma: float = 1.3) -> np.ndarray:
    """Seat 0's tiles on its board (red, blue, yellow lanes), the board's corner markers ``poor``
    small and out of focus (``sigma``); seat 1's tiles put aside on a table of the green lane's
    colour (the closer-look tests' scene, its corners drawn here)."""
    img = _table_scene(style, corners=False)
    for c, centre in enumerate(AT):
        if c not in poor:
            _tile(img, markers.board_corner_id(0, c), 36, 0, centre)
            continue
        layer = img.copy()
        _tile(layer, markers.board_corner_id(0, c), 20, 15, centre)
        blurred = cv2.GaussianBlur(layer, (0, 0), sigma)
        near = np.zeros(img.shape[:2], np.uint8)
        cv2.circle(near, (int(centre[0]), int(centre[1])), 30, 255, -1)
        img[near > 0] = blurred[near > 0]
    return img


def test_a_board_showing_too_few_corners_has_the_others_looked_for(
        style: Style, calibration: Calibration) -> None:
    img = _scene(style, poor=[1, 2, 3])
    ids = [markers.board_corner_id(0, c) for c in range(4)]
    # the whole picture sees too few corners to know where the board lies (else this test
    # shows nothing) ...
    seen = markers.detect(img, markers.BOARD_IDS)
    assert 1 <= len([m for m in ids if m in seen]) < 3
    assert tiles.boards(seen) == []
    # ... the closer look around it and the seat's tiles finds the other three, where they are
    _, corners = tiles.find_markers(img)
    assert sorted(corners) == ids
    for c, m in enumerate(ids):
        assert np.linalg.norm(corners[m].mean(axis=0) - np.array(AT[c])) < 2.0
    reading = tiles.read_tiles(img, calibration.tiles)
    # the seat on its board is read; the tiles put aside on the green table stay declined
    assert reading.robots[0].robot == "red-blue-yellow"
    assert reading.robots[1].robot is None


def test_a_board_showing_no_corner_is_looked_for_around_its_tiles_where_others_show_them(
        style: Style, calibration: Calibration) -> None:
    img = _scene(style, poor=[0, 1, 2, 3], sigma=1.4)
    # another board's corner elsewhere in view: boards in this picture carry corner markers
    _tile(img, markers.board_corner_id(3, 0), 36, 0, (1150.0, 620.0))
    assert not set(markers.detect(img, markers.BOARD_IDS)) & {18, 19, 20, 21}
    _, corners = tiles.find_markers(img)
    assert {18, 19, 20, 21} <= set(corners)
    assert tiles.read_tiles(img, calibration.tiles).robots[0].robot == "red-blue-yellow"


def test_no_corner_is_looked_for_where_no_board_shows_one() -> None:
    img = _board()
    for part, centre in enumerate(((560.0, 300.0), (680.0, 360.0), (740.0, 420.0))):
        _tile(img, part, 32, 5, centre)
    # a board corner marker, small and blurred, near the tiles: boards without corner markers
    # are the common case, and nothing says this one is a board's
    layer = img.copy()
    _tile(layer, markers.board_corner_id(0, 0), 20, 15, (470.0, 230.0))
    img[200:260, 440:500] = cv2.GaussianBlur(layer, (0, 0), 1.5)[200:260, 440:500]
    assert not set(markers.detect(img, markers.BOARD_IDS))
    assert tiles.find_markers(img)[1] == {}


def test_the_closer_look_reads_a_lone_black_cell_from_the_middle_of_its_cell() -> None:
    img = _board()
    layer = img.copy()
    # marker 12: one black cell with white cells on its four sides; small and blurred, the
    # white bleeds into it
    _tile(layer, 12, 20, 10, (650.0, 360.0))
    img = cv2.GaussianBlur(layer, (0, 0), 1.3)
    box = (550, 260, 750, 460)
    assert 12 not in markers.detect(img, markers.TILE_IDS)
    # OpenCV's own margin (0.13 of a cell on each side) reads the cell white ...
    assert markers.detect_closer(img, box, [12], 20.0) == {}
    # ... the tiles' closer looks read it from the middle of the cell
    assert sorted(tiles._closer(img, box, [12], 20.0)) == [12]


def test_the_closer_looks_margin_reads_no_marker_as_another() -> None:
    # every id, small and blurred to unreadable: found or not, never another id
    for m in range(markers.BOARD_IDS.stop):
        for sigma in (1.0, 2.0):
            img = _board()
            layer = img.copy()
            _tile(layer, m, 18, 17, (650.0, 360.0))
            img = cv2.GaussianBlur(layer, (0, 0), sigma)
            found = tiles._closer(img, (550, 260, 750, 460),
                                  list(range(markers.BOARD_IDS.stop)), 18.0)
            assert set(found) <= {m}


def _with_a_corner_marker(style: Style, times: float) -> tuple[np.ndarray, float]:
    """The table scene with no corner markers on its board, and one board corner marker
    (seat 0's first) printed ``times`` the tiles' marker side on the board's margin; the
    tiles' median side."""
    img = _table_scene(style, corners=False)
    found, corners = tiles.find_markers(img)
    assert corners == {}
    side = float(np.median([markers.side(q) for q in found.values()]))
    _tile(img, markers.board_corner_id(0, 0), times * side, 0, (X0 + 2 * LANE_W, Y0 - 32.0))
    return img, side


def test_a_corner_marker_far_larger_than_the_tiles_is_no_corner(
        style: Style, calibration: Calibration) -> None:
    # third art g2789 t002: a corner id decoded in a board's printed name, 2.4 times the tiles'
    # side, on boards that carry no corner markers
    img, side = _with_a_corner_marker(style, 2.4)
    seen = markers.detect(img, markers.BOARD_IDS)
    assert list(seen) == [markers.board_corner_id(0, 0)]
    assert markers.side(seen[markers.board_corner_id(0, 0)]) > 2.2 * side
    assert tiles.find_markers(img)[1] == {}
    reading = tiles.read_tiles(img, calibration.tiles)
    # the seat on its board is read; the tiles put aside on the green table stay declined
    assert reading.robots[0].robot == "red-blue-yellow"
    assert reading.robots[1].robot is None


def test_a_corner_marker_of_the_tiles_size_stays_a_corner(
        style: Style, calibration: Calibration) -> None:
    # the same corner at the tiles' size is a board's: the boards carry corners, and with no
    # board known from them the tiles lie on none (declined, as before)
    img, _ = _with_a_corner_marker(style, 1.0)
    assert list(tiles.find_markers(img)[1]) == [markers.board_corner_id(0, 0)]
    assert tiles.read_tiles(img, calibration.tiles).robots[0].robot is None
