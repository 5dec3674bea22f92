"""Robot Master grid, a lone bare cell on a printed mat (every other cell holds a card): it is
held to the colour the mat shows between the cards in this very picture
(``mat_lone_gutters``), not only to the calibration picture's mat nearest to it.

Own art 6 g059, 14003 g059, 15001 g035: the generator changes the mat's colour per picture by
more than the plain tolerance; the lone bare cell showed calibration's nearest mat in 1-7% of
its pixels and was asked, while the gutters around every card showed its colour.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid
from vision.grid import empty

CALIBRATION_MAT = (65, 111, 61)  # the mat as calibration saw it (BGR, white-balanced)
MAT = (45, 95, 59)  # the same mat in this picture, under another lamp


def _look() -> grid.GridLook:
    return grid.GridLook(bare_mode="mat", bare=np.array([CALIBRATION_MAT], np.float32),
                         bare_texture=6.6)


def _plain(colour: tuple[int, int, int], rng: np.random.Generator) -> np.ndarray:
    noise = rng.normal(0, 1.2, (64, 48, 1))
    return np.clip(np.asarray(colour, np.float64) + noise, 0, 255).astype(np.uint8)


def _card(rng: np.random.Generator, gutter: int = 5) -> np.ndarray:
    """A white card with a dark numeral laid in its cell, the mat showing ``gutter`` pixels
    wide along the cell's edges."""
    cell = _plain(MAT, rng)
    cell[gutter:64 - gutter, gutter:48 - gutter] = (235, 235, 232)
    cell[22:42, 18:30] = (30, 30, 30)
    return cell


def _picture(lone: np.ndarray, rng: np.random.Generator, gutter: int = 5
             ) -> list[np.ndarray]:
    return [_card(rng, gutter) for _ in range(24)] + [lone]


def test_a_lone_bare_cell_is_held_to_the_mat_between_the_cards() -> None:
    rng = np.random.default_rng(1)
    cells = _picture(_plain(MAT, rng), rng)
    # (against calibration's mat alone the cell is not the surface)
    assert empty._like(np.asarray(cells[24][8:56, 8:40], np.float32).reshape(1, -1, 3),
                       np.asarray(CALIBRATION_MAT, np.float32))[0] < 0.9
    assert set(grid.surely_empty(cells, [24], [], _look())) == {24}


def test_without_the_rule_the_lone_cell_is_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    grid_section = dict(empty.section("grid"))
    grid_section["mat_lone_gutters"] = False
    monkeypatch.setattr("vision.grid.empty.section", lambda name: grid_section)
    rng = np.random.default_rng(1)
    assert grid.surely_empty(_picture(_plain(MAT, rng), rng), [24], [], _look()) == {}


def test_a_thing_of_another_colour_is_still_asked() -> None:
    # loosely the calibration's mat (an olive sleeve, within mat_hue_tolerance of it), but not
    # the mat between the cards: the gutters do not speak for it
    rng = np.random.default_rng(2)
    sleeve = (74, 101, 55)
    cells = _picture(_plain(sleeve, rng), rng)
    assert empty._mat_between_cards(cells, 24, np.asarray(sleeve, np.float32)) is None
    assert grid.surely_empty(cells, [24], [], _look()) == {}


def test_cards_filling_their_cells_show_no_mat_to_hold_to() -> None:
    # no gutter: the mat shows nowhere between the cards, so nothing speaks for the lone cell
    rng = np.random.default_rng(3)
    cells = _picture(_plain(MAT, rng), rng, gutter=0)
    assert grid.surely_empty(cells, [24], [], _look()) == {}
    assert empty._mat_between_cards(cells, 24, np.asarray(MAT, np.float32)) is None
