"""Turned templates where calibration's turned cards lay (:func:`templates._turned_shifts`).

Blind other art 59016: the cards lay 0.12-0.16 of a cell up their cells in every picture, off
the markers' lattice (the inset is the same on both sides: it moves no card along an axis). A
value's turned templates were its upright ones turned about their own middle, which put a turned
card's print twice that from where turned cards show it, past the reading's search: a turned 3
fitted its own templates 0.72 and a 5's 0.81, and three grids read it as 5, the nearest
calibration card agreeing. Cut where calibration's turned cards lay, the turned templates fit it.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from tests.vision.otherart import redraw
from tests.vision.redrawn_grid import assert_every_cell_read
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.calibration import calibrate
from vision.dataset import Example
from vision.grid import GridLook, templates
from vision.grid.look import Grid
from vision.grid.templates import _turned_shifts


def _cards(offset: tuple[int, int], first: tuple[int, int], ways: list[bool]
           ) -> list[tuple[int, int, bool]]:
    """Where cards lying ``offset`` off their cells align on a first card lying ``first`` off
    its own: o - f upright, -o - f turned."""
    (ox, oy), (fx, fy) = offset, first
    return [((-ox if t else ox) - fx, (-oy if t else oy) - fy, t) for t in ways]


def test_the_shift_puts_each_value_s_turned_print_where_its_turned_cards_lay() -> None:
    # two values seen both ways, the cards 7 px down; the 3's first card 2 px off the rest
    at = {3: _cards((0, 7), (0, 9), [False, True, True]),
          5: _cards((0, 7), (0, 7), [False, False, True]),
          1: _cards((0, 7), (0, 7), [False, False])}
    shifts = _turned_shifts(at)
    # turned cards of each value align at -o - f on its first card
    assert shifts == {3: (0, -16), 5: (0, -14), 1: (0, -14)}


def test_no_shift_on_a_lattice_near_the_markers_or_without_cards_both_ways() -> None:
    near = {3: _cards((0, 3), (0, 3), [False, True]), 5: _cards((0, 3), (0, 3), [False, True])}
    assert _turned_shifts(near) == {}  # 2 o = 6 px: the search reaches that far
    one_way = {3: _cards((0, 8), (0, 8), [False, False]),
               5: _cards((0, 8), (0, 8), [True, True])}
    assert _turned_shifts(one_way) == {}  # no value seen both ways: no lattice measured
    lone = {3: _cards((0, 8), (0, 8), [False, True]), 5: _cards((0, 8), (0, 8), [True])}
    assert _turned_shifts(lone) == {}  # one value both ways is too little to go on


@pytest.fixture(scope="module")
def g006() -> tuple[list[Example], np.ndarray, Grid]:
    """Other art 59016's grid calibration pictures and its test picture g006 as stored."""
    config = Config()
    look, examples = redraw.calibration(59016, config, kinds=("grid",))
    image, label = redraw.test_picture(look, 59016, "g006.jpg")
    return examples, image, label["grid"]


def _learnt(examples: list[Example]) -> GridLook:
    return calibrate(examples, Config()).grid


def test_the_turned_3_is_read_as_3(g006: tuple[list[Example], np.ndarray, Grid]) -> None:
    examples, image, labels = g006
    assert labels[1][0] == 3
    assert_every_cell_read(_learnt(examples), image, labels)


def test_turned_about_their_own_middle_the_templates_read_it_as_5(
        g006: tuple[list[Example], np.ndarray, Grid], monkeypatch: pytest.MonkeyPatch) -> None:
    examples, image, labels = g006
    set_thresholds(monkeypatch, templates, "grid", turned_shift_min=10_000)
    obs = grid.read_grid(image, _learnt(examples))
    assert labels[1][0] == 3 and obs.cells[1][0] == 5 and obs.confidence[1][0] > 0
