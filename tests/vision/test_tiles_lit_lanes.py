"""The tiles26 round: lanes lit brighter than in calibration, and markers the looks left.

Third art g2475, g2477, g2487 and t2: bright yellow lanes beside tiles whose white print the
camera clips. The lane's red clips first and its green catches up, so its chromaticity moves
towards green (green share 0.47-0.48 against the learnt 0.39-0.40) and the rings class it as
background or none: the seat was declined. A part the rings and rays leave unread is now read
again as the colours would look lit ``tiles.brighter_gains`` times brighter, clipped at the
print's white (:func:`vision.tiles.brighter`), only when every gain that reads a colour reads
the same one, and the lane checks then judge the lane in the same colours.

Third art g2446 t008, b2105 t003, g2476 t009: no look found any tile, so nothing said what
size one is: every undecoded square up to ``tiles.alone_side`` of the picture is looked at.

Third art g2475 t016, e2403 t007, t6 t020: a seat's markers read by none of the picture's
passes, the undecoded squares seen round them the tiles' paper (1.42-1.68 of the tiles' side,
above ``tiles.missed_side``): such squares are looked at closer after the first look
(``tiles.missed_side_paper``).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_tiles_closer_look import _board as _closer_board
from tests.vision.test_tiles_closer_look import _tile
from tests.vision.test_tiles_felt import DISPLAY, LANES, NAMES, PAPER, _bgr, _board, _paste_tile
from tests.vision.test_tiles_missed_seat import LEFT, _two_seats, seat_one
from vision import markers, tiles
from vision.colour import ColourModel, features
from vision.thresholds import section

#: a saturated yellow lane, as third art's (BGR shares of the tile's white: little blue) ...
YELLOW = (0.05, 0.62, 0.93)
#: ... lit 1.7 times brighter, its red and green clipped at the print's white
LEMON = tuple(float(v) for v in np.clip(1.7 * np.array(YELLOW), 0.0, 1.0))


def _look() -> tiles.TilesLook:
    """Calibration on the lanes of test_tiles_felt, the yellow one :data:`YELLOW`."""
    rng = np.random.default_rng(12)
    lanes = {**LANES, "yellow": YELLOW}
    samples = {n: np.array(c) + rng.normal(0, 0.02, (400, 3)) for n, c in lanes.items()}
    model = ColourModel.fit(samples, ColourModel.default(NAMES, DISPLAY))
    paper = np.array(PAPER) + rng.normal(0, 0.02, (800, 3))
    return tiles.TilesLook([1.5, 1.6, 1.7],
                           model.with_background(np.concatenate([*samples.values(), paper])))


def _lemon_scene(aside: bool = False) -> np.ndarray:
    """Seat 0's tiles on a board's yellow (lit brighter), red and blue lanes, or (``aside``)
    the yellow tile on a table of the brighter yellow beside the board."""
    img = np.zeros((720, 1280, 3), np.uint8)
    img[:] = _bgr(LEMON if aside else (0.3, 0.3, 0.3))
    middles = _board(img, 500, 200)
    x0, x1 = round(middles[3][0] - 36), round(middles[3][0] + 36)
    if not aside:
        img[220:400, x0:x1] = _bgr(LEMON)
    for part, lane in enumerate((3, 0, 2)):
        x, y = middles[lane]
        if aside and part == 0:
            x, y = 300.0, 300.0
        _paste_tile(img, markers.tile_id(0, part), (x, y))
    return img


def test_brighter_moves_a_clipped_yellow_towards_green() -> None:
    look = _look()
    yellow = NAMES.index("yellow")
    lit = tiles.brighter(look.model, 1.7)
    # the learnt yellow, lit and clipped, is where the brighter lane's colour lies
    want = features(np.array([LEMON], np.float32))[0]
    assert np.abs(lit.means[yellow] - want).max() < 0.02
    assert lit.means[yellow][1] > look.model.means[yellow][1] + 0.03
    # the spreads and the background stay
    assert np.array_equal(lit.covs, look.model.covs)
    assert np.array_equal(lit.background_means, look.model.background_means)
    # gain 1 is the model itself, up to the round trip through BGR
    assert np.abs(tiles.brighter(look.model, 1.0).means - look.model.means).max() < 1e-4


def test_a_lane_lit_brighter_than_calibration_is_read() -> None:
    look = _look()
    img = _lemon_scene()
    found = tiles.find_tiles(img)
    quad = found[markers.tile_id(0, 0)]
    # the rings and rays alone leave the brighter lane unread (else this test shows nothing)
    assert tiles.read_part(img, quad, look)[0] is None
    colour, _, lit = tiles.read_part_lit(img, quad, look)
    assert colour == "yellow" and lit is not look
    assert tiles.read_tiles(img, look).robots[0].robot == "yellow-red-blue"
    # a part the rings read is read as before, with the calibration's look
    red = found[markers.tile_id(0, 1)]
    assert tiles.read_part_lit(img, red, look)[::2] == ("red", look)


def test_a_table_of_the_brighter_colour_is_still_no_lane() -> None:
    look = _look()
    on_board = _lemon_scene()
    found = tiles.find_tiles(on_board)
    look.lane_area = max(tiles.lane_area(on_board, found[markers.tile_id(0, p)], look, c)
                         for p, c in ((1, 0), (2, 2)))
    img = _lemon_scene(aside=True)
    quad = tiles.find_tiles(img)[markers.tile_id(0, 0)]
    assert tiles.read_part_lit(img, quad, look)[0] == "yellow"
    # the lane-size check judges the table in the brighter look: it runs on all round
    assert tiles.read_tiles(img, look).robots[0].robot is None


def test_a_tiles_paper_square_is_looked_at_after_the_first_look() -> None:
    img = _two_seats()
    found = markers.detect(img, markers.TILE_IDS)
    side = float(np.median([markers.side(q) for q in found.values()]))
    lo, hi = (float(x) for x in section("tiles")["missed_side"])
    paper = float(section("tiles")["missed_side_paper"])
    half = (hi + paper) / 4 * side  # a square between the two tops
    x, y = LEFT[0]
    square = np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                       [x - half, y + half]], np.float32)
    assert tiles._missed_seats(img, found, {}, [square], set()) == {}
    assert sorted(tiles._missed_seats(img, found, {}, [square], set(), paper=True)) == [3]
    # a square the first look takes is not looked at again
    small = (square - np.array([x, y], np.float32)) * (lo + hi) / (hi + paper) \
        + np.array([x, y], np.float32)
    assert sorted(tiles._missed_seats(img, found, {}, [small], set())) == [3]
    assert tiles._missed_seats(img, found, {}, [small], set(), paper=True) == {}


def _alone(side: float = 18, sigma: float = 1.5, angle: float = 10) -> np.ndarray:
    """Only seat 1's tiles in view, small and out of focus (:func:`_two_seats` without seat 0)."""
    return seat_one(_closer_board(), side, sigma, angle)


def test_a_picture_no_look_found_a_tile_in_has_its_squares_looked_at() -> None:
    img = _alone()
    rejected: list[np.ndarray] = []
    # the whole picture reads no tile (else this test shows nothing), but sees their squares
    assert markers.detect(img, markers.TILE_IDS, rejected=rejected) == {}
    assert rejected
    found = tiles.find_tiles(img)
    # before the round: none (NoTilesFound); the third tile is the softest (no look reads it)
    assert {3, 4} <= set(found) <= {3, 4, 5}
    for m, quad in found.items():
        assert np.linalg.norm(quad.mean(axis=0) - np.array(LEFT[m - 3])) < 2.0
    # squares larger than tiles.alone_side of the picture are not looked at
    assert tiles._no_tile_found(img, {}, [q * 40 for q in rejected], set()) == {}


#: seat 1's board corner markers, round the board of :func:`_two_seats`' seat 1
BOARD_1 = ((80.0, 230.0), (420.0, 230.0), (420.0, 490.0), (80.0, 490.0))


def test_a_board_showing_its_corners_has_its_seats_tiles_looked_for_inside() -> None:
    img = _two_seats()
    for c, centre in enumerate(BOARD_1):
        _tile(img, markers.board_corner_id(1, c), 24, 0, centre)
    everything = markers.detect(img, range(markers.BOARD_IDS.stop))
    found = {m: q for m, q in everything.items() if m in markers.TILE_IDS}
    corners = {m: q for m, q in everything.items() if m in markers.BOARD_IDS}
    # seat 1's tiles unread, its board's four corners read (else this test shows nothing)
    assert sorted(found) == [0, 1, 2]
    assert sorted(corners) == [markers.board_corner_id(1, c) for c in range(4)]
    more = tiles._boards_without_tiles(img, found, corners, set())
    assert more and set(more) <= {3, 4, 5}
    for m, quad in more.items():
        assert np.linalg.norm(quad.mean(axis=0) - np.array(LEFT[m - 3])) < 2.0
    # the seat so found is completed as any other
    assert sorted(tiles.find_tiles(img)) == [0, 1, 2, 3, 4, 5]
    # not for a seat showing a tile (its closer look finds the others), nor for a board
    # showing two corners (where it lies is not known), nor for an id seen twice
    assert tiles._boards_without_tiles(img, {**found, 3: more[3]}, corners, set()) == {}
    two = {m: q for m, q in corners.items() if m in (22, 23)}
    assert tiles._boards_without_tiles(img, found, two, set()) == {}
    assert 4 not in tiles._boards_without_tiles(img, found, corners, {4})


def test_a_seats_far_tile_is_looked_for_farther_after_the_first_look(
        monkeypatch: pytest.MonkeyPatch) -> None:
    img = _closer_board()
    cv2.rectangle(img, (500, 250), (1200, 470), (200, 120, 40), -1)
    for part, centre in enumerate(((560.0, 300.0), (680.0, 360.0))):
        _tile(img, part, 32, 5, centre)
    # the legs 13 marker sides right of the torso: beyond tiles.closer_pad, within closer_pad_far
    at = (680.0 + 13 * 32, 400.0)
    layer = img.copy()
    _tile(layer, 2, 16, 20, at)
    blurred = cv2.GaussianBlur(layer, (0, 0), 1.3)
    img[340:460, 1030:1160] = blurred[340:460, 1030:1160]
    assert 2 not in markers.detect(img, markers.TILE_IDS)
    found = tiles.find_tiles(img)
    assert sorted(found) == [0, 1, 2]
    assert np.linalg.norm(found[2].mean(axis=0) - np.array(at)) < 2.0
    # the look at closer_pad alone does not reach it
    cfg = section("tiles")
    monkeypatch.setitem(cfg, "closer_pad_far", cfg["closer_pad"])
    assert sorted(tiles.find_tiles(img)) == [0, 1]


def test_a_colour_lit_towards_another_is_not_read_as_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Own art hown20021 t045: a teal green lane, its rings mostly background, read blue at gain
    1.5 (a blue lit brighter clips its blue, and its green share grows towards the teal's)."""
    look = _look()
    img = _lemon_scene()
    quad = tiles.find_tiles(img)[markers.tile_id(0, 1)]  # the torso, on the red lane
    red, blue = NAMES.index("red"), NAMES.index("blue")

    def towards_red(model: ColourModel, gain: float) -> ColourModel:
        # a brighter look in which blue has moved onto the red lane's colour
        means = model.means.copy()
        means[blue] = model.means[red]
        means[red] = model.means[NAMES.index("green")]
        return ColourModel(model.names, means, model.covs, model.background_means,
                           model.background_covs)

    def unread(image: np.ndarray, q: np.ndarray, lk: tiles.TilesLook,
               wb: object = None) -> tuple[str | None, float]:
        # the calibration's look leaves the part unread; a brighter one reads what it classes
        if lk is look:
            return None, 0.0
        return lk.model.names[lk.model.vote(tiles.ring_samples(img, q, lk.radii, 36)
                                            .reshape(-1, 3))[0]], 0.9

    monkeypatch.setattr(tiles, "brighter", towards_red)
    monkeypatch.setattr(tiles, "read_part", unread)
    # the brighter look reads blue, but the pixels it counts lie nearest red: not read
    assert tiles.read_part_lit(img, quad, look)[0] is None
    monkeypatch.setitem(section("tiles"), "brighter_nearest", 0.0)
    assert tiles.read_part_lit(img, quad, look)[0] == "blue"
