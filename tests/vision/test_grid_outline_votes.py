"""Robot Master grid: boxes on a table's blotches do not lead the registration astray.

A mottled table's card-sized blotches are boxed as cards by ``card_outlines``; on a plain
synthetic table with dark card-sized patches in the empty cells the reader before this said
the area is astray (every cell asked) though the cards lie where the markers say. Boxes that
show a card's print confirm the area; the safety net for a truly astray area is
tests/vision/test_grid_registration.py and tests/vision/test_grid_safety_mat.py."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from vision import grid
from vision.calibration import Calibration
from vision.grid import area, geometry, outlines
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid

Cells = list[list[int | None]]


def _blotched(style: Style, calibration: Calibration, seed: int, cards: int
              ) -> tuple[np.ndarray, np.ndarray, Cells]:
    """A grid on a plain table with a dark card-sized patch in every empty cell, and the
    area the markers and the learnt inset give it."""
    rng = np.random.default_rng(seed)
    cells = random_grid(rng, cards=cards)
    image = render_grid(dataclasses.replace(style, mat=False), cells, rng)
    corners, _ = grid.find_area(image)
    place = area._area_homography(corners, calibration.grid.inset, 0)
    to_image = np.linalg.inv(place)
    w, h = geometry._cell_size()
    out = image.copy()
    for r in range(5):
        for c in range(5):
            if cells[r][c] is not None:
                continue
            x0, y0 = (c + 0.08) * w, (r + 0.05) * h
            quad = np.array([[x0, y0], [x0 + 0.84 * w, y0], [x0 + 0.84 * w, y0 + 0.9 * h],
                             [x0, y0 + 0.9 * h]], np.float64)
            pts = cv2.perspectiveTransform(quad.reshape(-1, 1, 2), to_image).reshape(-1, 2)
            tone = tuple(int(v * 0.75) for v in image[int(pts[0, 1]), int(pts[0, 0])])
            cv2.fillConvexPoly(out, np.round(pts).astype(np.int32), tone)
    return cv2.GaussianBlur(out, (3, 3), 0), place, cells


def test_blotches_on_the_table_do_not_make_the_area_astray(
        style: Style, calibration: Calibration) -> None:
    image, place, cells = _blotched(style, calibration, 46, 8)
    _, confirmed, astray = grid.register_checked(image, place)
    assert confirmed and not astray
    obs = grid.read_grid(image, calibration.grid)
    assert all(obs.confidence[r][c] > 0 and obs.cells[r][c] == cells[r][c]
               for r in range(5) for c in range(5))


def test_blotches_show_no_print_and_cards_do(style: Style, calibration: Calibration) -> None:
    image, place, cells = _blotched(style, calibration, 46, 8)
    centres, _, size = grid.card_outlines(image, place)
    ink = outlines._card_printed(image, place, centres, size)
    card = np.array([cells[i // 5][i % 5] is not None for i in range(25)])
    assert ink[card].min() > ink[~card].max()
