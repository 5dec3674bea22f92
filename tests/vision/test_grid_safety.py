"""Robot Master grid: a hand over cards is declined, never read as an empty cell, and a card
lying turned in calibration does not blur its value's template."""

from __future__ import annotations

import numpy as np

from companion.config import Config
from vision import grid
from vision.calibration import Calibration
from vision.grid import geometry
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid


def test_a_hand_over_cards_is_never_read_as_an_empty_cell(style: Style, config: Config,
                                                         calibration: Calibration) -> None:
    rng = np.random.default_rng(41)
    for _ in range(4):
        cells = random_grid(rng)
        image = render_grid(style, cells, rng, hand=True)
        obs = grid.read_grid(image, calibration.grid)
        for r in range(5):
            for c in range(5):
                if obs.confidence[r][c] > 0:  # read, not declined: must be right
                    assert obs.cells[r][c] == cells[r][c], (r, c)


def test_a_cell_unlike_the_bare_surface_is_not_surely_empty() -> None:
    table = [np.full((64, 48, 3), (60, 110, 70), np.uint8) for _ in range(6)]
    plain = np.full((64, 48, 3), (62, 108, 72), np.uint8)
    skin = np.full((64, 48, 3), (120, 150, 210), np.uint8)
    assert set(grid.surely_empty([plain, skin], [0, 1], table)) == {0}


def test_a_mat_is_recognised_under_another_light_but_a_hand_is_not() -> None:
    # calibrated on a green mat; this picture's light makes it darker and bluer, and a
    # hand (skin) and a card lie on other cells
    look = grid.GridLook(bare_mode="mat", bare=np.array([[70, 110, 60]], np.float32),
                         bare_texture=2.0)
    mat = np.full((64, 48, 3), (60, 84, 44), np.uint8)
    skin = np.full((64, 48, 3), (95, 130, 190), np.uint8)
    card = np.full((64, 48, 3), (235, 240, 240), np.uint8)
    cells = [mat, mat.copy(), skin, card]
    assert set(grid.surely_empty(cells, [0, 1, 2, 3], [], look)) == {0, 1}


def test_one_plain_mat_cell_among_cards_is_held_against_the_calibration_mat() -> None:
    # every other cell holds a card: the lone mat cell is compared with the calibration's mat
    # (under this picture's own tolerances); a plain cell of another colour still is not empty
    look = grid.GridLook(bare_mode="mat",
                         bare=np.array([[70, 110, 60], [50, 80, 42]], np.float32),
                         bare_texture=2.0)
    mat = np.full((64, 48, 3), (54, 84, 46), np.uint8)
    card = np.full((64, 48, 3), (235, 240, 240), np.uint8)
    card[20:44, 18:30] = 20  # its print
    assert set(grid.surely_empty([mat, card, card], [0, 1, 2], [], look)) == {0}
    # a blue-grey sleeve: plain, near the mat's hue only loosely
    sleeve = np.full((64, 48, 3), (75, 90, 45), np.uint8)
    assert grid.surely_empty([sleeve, card, card], [0, 1, 2], [], look) == {}


def test_an_empty_cell_like_a_calibration_card_is_not_read_as_empty(
        style: Style, calibration: Calibration) -> None:
    # every cell the reader calls empty with confidence must be labelled empty
    rng = np.random.default_rng(43)
    for _ in range(3):
        cells = random_grid(rng)
        obs = grid.read_grid(render_grid(style, cells, rng), calibration.grid)
        for r in range(5):
            for c in range(5):
                if obs.confidence[r][c] > 0 and obs.cells[r][c] is None:
                    assert cells[r][c] is None, (r, c)


def test_turned_calibration_cards_are_turned_back_before_averaging(config: Config) -> None:
    # one value, two cards: the second lies turned; its template must match the first's
    g = np.full((300, 300), 200, np.uint8)
    w, h = geometry._cell_size()
    card = np.full((h, w), 200, np.uint8)
    card[8:20, 10:24] = 30  # a mark near the top: turned, it is near the bottom
    for c, piece in ((0, card), (1, np.rot90(card, 2))):
        y, x = grid.MARGIN, grid.MARGIN + c * w
        g[y:y + h, x:x + w] = piece
    cells: grid.Grid = [[None] * 5 for _ in range(5)]
    cells[0][0] = cells[0][1] = 2
    templates, values, _ = grid.learn_templates([g], [cells])
    mean = templates[0].astype(np.float32)
    first = geometry._template(g, 0, 0).astype(np.float32)
    assert values[0] == 2
    assert np.abs(mean - first).max() < 2.0


def test_a_soft_shadow_edge_is_no_texture_but_print_is() -> None:
    # a smooth table; one cell crossed by a shadow's soft edge (same colour, darker on one
    # side), another of the table's colour with thin dark print on it
    table = [np.full((64, 48, 3), (150, 90, 180), np.uint8) for _ in range(6)]
    ramp = np.clip((np.arange(48) - 14) / 20.0, 0, 1)[None, :, None]  # dark to light
    shaded = (np.array([150, 90, 180], np.float32) * (0.7 + 0.3 * ramp)
              * np.ones((64, 48, 3), np.float32)).astype(np.uint8)
    printed = table[0].copy()
    printed[24:40:4, 16:32] = (40, 25, 50)  # thin strokes cover well under a tenth of it
    assert set(grid.surely_empty([shaded, printed], [0, 1], table)) == {0}
