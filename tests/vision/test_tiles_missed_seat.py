"""A seat none of whose tiles the whole picture reads: the detector's undecoded squares of a
tile's size are looked at closer (other art 11513 t001, seat 0's three markers misread)."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.test_tiles_closer_look import CENTRES, _board, _tile
from vision import markers, tiles

#: seat 1's tiles, on a second board left of seat 0's
LEFT = tuple((x - 430.0, y) for x, y in CENTRES)


def _two_seats(side: float = 20, sigma: float = 1.5, angle: float = 10) -> np.ndarray:
    """Seat 0's tiles sharp on one board; seat 1's small and out of focus on another."""
    img = _board()
    for part, centre in enumerate(CENTRES):
        _tile(img, part, 32, 5, centre)
    return seat_one(img, side, sigma, angle)


def seat_one(img: np.ndarray, side: float, sigma: float, angle: float) -> np.ndarray:
    """``img`` with seat 1's board left of seat 0's and its tiles on it, small and out of
    focus."""
    cv2.rectangle(img, (100, 250), (400, 470), (200, 120, 40), -1)
    layer = img.copy()
    for part, centre in enumerate(LEFT):
        _tile(layer, markers.tile_id(1, part), side, angle, centre)
    blurred = cv2.GaussianBlur(layer, (0, 0), sigma)
    img[240:480, 90:410] = blurred[240:480, 90:410]
    return img


def test_a_seat_whose_tiles_the_whole_picture_misread_is_found() -> None:
    img = _two_seats()
    rejected: list[np.ndarray] = []
    # the whole picture reads none of seat 1's tiles (else this test shows nothing), but sees
    # their squares
    assert sorted(markers.detect(img, markers.TILE_IDS, rejected=rejected)) == [0, 1, 2]
    assert rejected
    found = tiles.find_tiles(img)
    assert sorted(found) == [0, 1, 2, 3, 4, 5]
    for part, centre in enumerate(LEFT):
        assert np.linalg.norm(found[3 + part].mean(axis=0) - np.array(centre)) < 2.0


def test_only_seats_with_no_tile_found_are_looked_for_so() -> None:
    img = _two_seats()
    # a square of a tile's size elsewhere, blank: an outline the detector cannot decode
    cv2.rectangle(img, (900, 560), (930, 590), (0, 0, 0), -1)
    cv2.rectangle(img, (905, 565), (925, 585), (245, 245, 245), -1)
    found = tiles.find_tiles(img)
    assert sorted(found) == [0, 1, 2, 3, 4, 5]


def test_squares_far_from_a_tiles_size_are_not_looked_at() -> None:
    img = _two_seats()
    found = markers.detect(img, markers.TILE_IDS)
    x, y = LEFT[0]

    def square(half: float) -> np.ndarray:
        return np.array([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                         [x - half, y + half]], np.float32)
    # a square of the found tiles' size around seat 1's first tile: looked at, found
    assert sorted(tiles._missed_seats(img, found, {}, [square(16)], set())) == [3]
    # three times that size (a board's corner, a card): not looked at
    assert tiles._missed_seats(img, found, {}, [square(48)], set()) == {}
    # an id seen twice in the picture is not taken
    assert tiles._missed_seats(img, found, {}, [square(16)], {3}) == {}
