"""Tiles of a seat the whole picture read none of are looked for again closer around the square
outlines the detector could not decode (:func:`vision.tiles._missed_seats`). Where there are
more such squares than a table's markers (``tiles.missed_most``: a checked cloth), only those
whose middle shows bits are: a marker's middle is black and white, a check one colour
(``tiles.missed_inner_spread``). Third art g2501 (fine navy and white checks) had 1,470 such
squares of a tile's size in a picture, each looked at closer: 5-8 s a tiles picture here,
minutes on a Pi, and none of them a marker. Where there are few, each is looked around: a blank
square beside a marker led to it (third art f2432 t014, g2477 t008)."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.test_tiles_closer_look import _board, _tile
from vision import markers, tiles
from vision.thresholds import section

SIDE = 40.0


def _square(centre: tuple[float, float], side: float = SIDE) -> np.ndarray:
    x, y = centre
    h = side / 2
    return np.array([[x - h, y - h], [x + h, y - h], [x + h, y + h], [x - h, y + h]],
                    np.float32)


def _picture() -> tuple[np.ndarray, dict[int, np.ndarray], np.ndarray, list[np.ndarray]]:
    """Seat 0's tiles read; seat 1's first tile not read (its outline among the rejected), and
    56 one-colour squares of a tile's size on the table beside (a checked cloth's)."""
    img = _board()
    found = {m: _tile(img, m, SIDE, 0, c)
             for m, c in zip((0, 1, 2), ((560.0, 300.0), (680.0, 360.0), (740.0, 420.0)),
                             strict=True)}
    marker = _tile(img, 3, SIDE, 0, (300.0, 300.0))
    checks = []
    for k in range(56):
        centre = (860.0 + 55 * (k % 7), 60.0 + 55 * (k // 7))
        cv2.rectangle(img, (int(centre[0] - SIDE / 2), int(centre[1] - SIDE / 2)),
                      (int(centre[0] + SIDE / 2), int(centre[1] + SIDE / 2)), (40, 30, 20), -1)
        checks.append(_square(centre))
    return img, found, marker, checks


def _looked_at(monkeypatch: pytest.MonkeyPatch, img: np.ndarray, found: dict[int, np.ndarray],
               rejected: list[np.ndarray]) -> list[tuple[int, int, int, int]]:
    boxes: list[tuple[int, int, int, int]] = []
    real = markers.detect_closer

    def detect_closer(image: np.ndarray, box: tuple[int, int, int, int], *args: Any
                      ) -> dict[int, np.ndarray]:
        boxes.append(box)
        return real(image, box, *args)

    monkeypatch.setattr(markers, "detect_closer", detect_closer)
    tiles._missed_seats(img, found, {}, rejected, set())
    return boxes


def test_a_marker_shows_bits_a_check_does_not() -> None:
    img, _, marker, checks = _picture()
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    least = float(section("tiles")["missed_inner_spread"])
    assert markers.inner_spread(grey, marker) >= 3 * least
    assert all(markers.inner_spread(grey, q) < least / 3 for q in checks)


def test_only_the_squares_showing_bits_are_looked_at_closer(
        monkeypatch: pytest.MonkeyPatch) -> None:
    img, found, marker, checks = _picture()
    assert len(checks) > int(section("tiles")["missed_most"])
    boxes = _looked_at(monkeypatch, img, found, [*checks, marker])
    assert len(boxes) == 1
    x0, y0, x1, y1 = boxes[0]
    assert x0 < 300 < x1 and y0 < 300 < y1
    # with the test off, every check is looked at too
    monkeypatch.setitem(section("tiles"), "missed_inner_spread", 0.0)
    assert len(_looked_at(monkeypatch, img, found, [*checks, marker])) == len(checks) + 1


def test_a_few_squares_are_each_looked_around(monkeypatch: pytest.MonkeyPatch) -> None:
    img, found, marker, checks = _picture()
    assert len(_looked_at(monkeypatch, img, found, [*checks[:5], marker])) == 6


def test_the_squares_sides_measured_at_once_are_each_ones_side() -> None:
    # (the filter above compares them with the tiles' size: the same numbers, to the bit)
    rng = np.random.default_rng(7)
    quads = [rng.uniform(0, 900, (4, 2)).astype(np.float32) for _ in range(300)]
    assert markers.sides(quads).tolist() == [markers.side(q) for q in quads]
    assert markers.sides([]).shape == (0,)
