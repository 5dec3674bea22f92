"""Robot Master grid, two ways a card was read as an empty cell with confidence (other-art
set, seed 9201: cream cards on a pale printed mat whose cards lay half a cell off its markers):
a card of the mat's own colour is told by its print, and where the cards say the area is off
but no correction can be trusted, every cell is asked (when registration says so: see
test_grid_registration.py)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import grid
from vision.calibration import Calibration
from vision.grid import geometry, reader, registration
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid

MAT = (226.0, 228.0, 250.0)  # a pale mat, white-balanced (BGR)


def _cell(ink: float = 0.0) -> np.ndarray:
    w, h = geometry._cell_size()
    cell = np.empty((h, w, 3), np.uint8)
    cell[:] = np.array(MAT, np.uint8)
    if ink:
        # a block of dark print in the cell's middle, a few pixels of the middle's area
        side = round(np.sqrt(ink) * min(w, h) * 0.64)
        y, x = h // 2 - side // 2, w // 2 - side // 2
        cell[y:y + side, x:x + side] = (40, 60, 40)
        # out of focus: soft edges leave little texture
        cell = cv2.GaussianBlur(cell, (0, 0), 4.0)
    return cell


def test_a_card_the_colour_of_the_mat_is_not_an_empty_cell() -> None:
    look = grid.GridLook(bare_mode="mat", bare=np.array([MAT], np.float32), bare_texture=4.0)
    cells = [_cell() for _ in range(25)]
    cells[12] = _cell(ink=0.1)
    sure = grid.surely_empty(cells, list(range(25)), [], look)
    assert 0 in sure and 24 in sure  # the plain mat cells are empty
    assert 12 not in sure  # 6 % dark print: a card, or at least not surely the mat


def test_an_area_astray_asks_for_every_cell(style: Style, calibration: Calibration,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(47)
    cells = random_grid(rng, cards=12)
    image = render_grid(style, cells, rng)
    obs = grid.read_grid(image, calibration.grid)
    assert any(c > 0 for row in obs.confidence for c in row)
    monkeypatch.setattr(reader, "register_checked",
                        lambda img, place: (place, False, True))
    monkeypatch.setattr(registration, "register_checked", reader.register_checked)
    # (the values' prints do not vouch for the markers' area either: where they do, the
    # picture is read cell by cell, tests/vision/test_grid_prints_judge.py)
    monkeypatch.setattr(reader, "_prints_hold", lambda *args: False)
    obs = grid.read_grid(image, calibration.grid)
    assert all(c == 0.0 for row in obs.confidence for c in row)
