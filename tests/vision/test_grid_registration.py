"""Robot Master grid: the area is registered on the cards' own outlines, so markers stuck down
farther out than in calibration, an area placed off true and a hidden corner marker under a
tilted camera still read every card; with too few cards the markers' homography is kept."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision import grid, markers
from vision.calibration import Calibration
from vision.grid import area, geometry
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid

Cells = list[list[int | None]]


def _exact(obs: object, cells: Cells) -> bool:
    return all(obs.confidence[r][c] > 0 and obs.cells[r][c] == cells[r][c]  # type: ignore[attr-defined]
               for r in range(5) for c in range(5))


def _cards_exact(obs: object, cells: Cells) -> bool:
    """Every card read with its value, and no empty cell read as a card (an empty cell may be
    asked: with a marker hidden every empty reading is, wrong readings round 5)."""
    return all((obs.confidence[r][c] > 0 and obs.cells[r][c] == cells[r][c])  # type: ignore[attr-defined]
               if cells[r][c] is not None else obs.cells[r][c] is None  # type: ignore[attr-defined]
               for r in range(5) for c in range(5))


def _scene(style: Style, calibration: Calibration, cells: Cells, rng: np.random.Generator
           ) -> tuple[np.ndarray, np.ndarray]:
    """A rendered grid and the area the markers and the learnt inset give it."""
    image = render_grid(style, cells, rng)
    corners, _ = grid.find_area(image)
    return image, area._area_homography(corners, calibration.grid.inset, 0)


def _centres(place: np.ndarray) -> np.ndarray:
    """Where the 25 cells' middles lie in the picture under ``place`` (image -> area)."""
    w, h = geometry._cell_size()
    mid = np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)
    return cv2.perspectiveTransform(mid.reshape(-1, 1, 2), np.linalg.inv(place)).reshape(-1, 2)


def test_markers_stuck_farther_out_than_in_calibration_still_read(
        style: Style, calibration: Calibration) -> None:
    # the learnt inset puts the outer columns a third of a cell off: the reader before this
    # declined 2 to 23 cells of each of these pictures
    far = dataclasses.replace(style, marker_offset=style.marker_offset + 0.8)
    rng = np.random.default_rng(71)
    for _ in range(5):
        cells = random_grid(rng, cards=int(rng.integers(10, 20)))
        image = render_grid(far, cells, rng)
        assert _exact(grid.read_grid(image, calibration.grid), cells)


def test_an_area_placed_off_true_is_brought_back_onto_its_cards(
        style: Style, calibration: Calibration) -> None:
    rng = np.random.default_rng(45)
    image, place = _scene(style, calibration, random_grid(rng, cards=16), rng)
    true, confirmed = grid.register(image, place)
    assert confirmed
    w, h = geometry._cell_size()
    # a quarter of a cell across, a sixth down, the area 4 % too wide (the outer column a
    # third of a cell off)
    off = np.array([[1.04, 0, w / 4], [0, 1.0, h / 6], [0, 0, 1]], np.float64) @ true
    again, confirmed = grid.register(image, off)
    assert confirmed
    cell_px = np.linalg.norm(_centres(true)[1] - _centres(true)[0])
    assert np.abs(_centres(again) - _centres(true)).max() < 0.08 * cell_px
    assert np.abs(_centres(off) - _centres(true)).max() > 0.25 * cell_px


def test_too_few_cards_keep_the_markers_area(style: Style, calibration: Calibration) -> None:
    # on a plain table (a printed mat's empty cells are a lattice of outlines themselves)
    rng = np.random.default_rng(46)
    cells: Cells = [[None] * 5 for _ in range(5)]
    cells[2][2] = 3
    cells[2][3] = 1
    image, place = _scene(dataclasses.replace(style, mat=False), calibration, cells, rng)
    again, confirmed = grid.register(image, place)
    assert not confirmed
    assert again is place


def test_a_hidden_corner_marker_is_completed_from_the_cards(
        style: Style, calibration: Calibration) -> None:
    # one marker under a hand: the fourth corner guessed as a parallelogram lies off the area
    # under the camera's perspective (the reader before this declined two cards of the third)
    rng = np.random.default_rng(72)
    for k in range(3):
        cells = random_grid(rng, cards=int(rng.integers(10, 20)))
        image = render_grid(style, cells, rng)
        found = markers.detect(image, markers.PLAY_AREA_IDS, lambda f: len(f) == 4)
        quad = found[43 + k]
        c = quad.mean(axis=0)
        r = int(np.abs(quad - c).max() * 1.8)
        below = image[min(image.shape[0] - 1, int(c[1]) + 2 * r), int(c[0])]
        cv2.circle(image, (int(c[0]), int(c[1])), r, tuple(int(x) for x in below), -1)
        assert len(markers.detect(image, markers.PLAY_AREA_IDS, lambda f: len(f) == 4)) == 3
        assert _cards_exact(grid.read_grid(image, calibration.grid), cells)


def test_cards_agreeing_on_an_area_far_off_the_markers_are_astray(
        style: Style, calibration: Calibration) -> None:
    # where the markers' area lies half a cell off its cards, no correction is trusted (the
    # lattice one cell over is as near), and the reading is to ask for every cell
    rng = np.random.default_rng(45)
    image, place = _scene(style, calibration, random_grid(rng, cards=16), rng)
    true, confirmed, astray = grid.register_checked(image, place)
    assert confirmed and not astray
    w, _ = geometry._cell_size()
    off = np.array([[1, 0, 0.5 * w], [0, 1, 0], [0, 0, 1]], np.float64) @ true
    kept, confirmed, astray = grid.register_checked(image, off)
    assert not confirmed and astray
    assert kept is off


def test_too_few_cards_are_not_astray(style: Style, calibration: Calibration) -> None:
    rng = np.random.default_rng(46)
    cells: Cells = [[None] * 5 for _ in range(5)]
    cells[2][2] = 3
    image, place = _scene(dataclasses.replace(style, mat=False), calibration, cells, rng)
    _, confirmed, astray = grid.register_checked(image, place)
    assert not confirmed and not astray
