"""Robot Master grid values, the print's middle: on pip cards, a value whose calibration prints
have no ink at their middle (a 2, a 4) is declined where the card has a piece of ink there
(:mod:`vision.grid.middle`).

Hard own art 45021: pip cards, drawn in the test pictures larger than in calibration. A 5's
four outer pips then lie where a 4's template has its pips, and the 4's template fits a sharp 5
better than the 5's own (0.81 against 0.73); two 5s of g008 were read as 4. The middle pip is
there whatever the scale (the case itself is pinned in ``test_grid_hown45021``).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import grid_area
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.grid import geometry, middle

# where a die's pips lie, as shares of the card's width and height
_PIPS = {0: [], 1: [(0.5, 0.5)], 2: [(0.3, 0.3), (0.7, 0.7)],
         3: [(0.3, 0.3), (0.5, 0.5), (0.7, 0.7)],
         4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
         5: [(0.3, 0.3), (0.7, 0.3), (0.5, 0.5), (0.3, 0.7), (0.7, 0.7)]}


def _card(value: int, rng: np.random.Generator) -> np.ndarray:
    """A white die card filling its cell: its pips, or a ring for the 0."""
    w, h = geometry._cell_size()
    card = np.full((h, w), 225, np.uint8)
    cv2.rectangle(card, (1, 1), (w - 2, h - 2), 150, 2)
    if value == 0:
        cv2.circle(card, (w // 2, h // 2), 7, 60, 2, cv2.LINE_AA)
    for fx, fy in _PIPS[value]:
        cv2.circle(card, (round(w * fx), round(h * fy)), 4, 60, -1, cv2.LINE_AA)
    card = np.clip(card.astype(np.int16) + rng.integers(-4, 5, card.shape), 0, 255)
    return card.astype(np.uint8)


def _look() -> grid.GridLook:
    templates, values, masks = grid_area.learnt_templates(_card)
    return grid.GridLook(templates=templates, template_values=values, template_masks=masks)


def _window(value: int) -> np.ndarray:
    """The card's search window: the cell and ``grid.SEARCH`` pixels of table around it."""
    w, h = geometry._cell_size()
    window = np.full((h + 2 * grid.SEARCH, w + 2 * grid.SEARCH), 110, np.uint8)
    window[grid.SEARCH:grid.SEARCH + h, grid.SEARCH:grid.SEARCH + w] = _card(
        value, np.random.default_rng(11))
    return window


def test_calibration_learns_which_values_have_a_middle_pip() -> None:
    look = _look()
    assert middle._pips(look)
    assert list(middle.value_middles(look)) == [1, 1, 0, 1, 0, 1]


def test_a_5_read_as_4_is_doubted_and_a_4_read_as_4_is_not() -> None:
    look = _look()
    assert middle.middle_doubt(look, _window(5), 4)
    assert middle.middle_doubt(look, _window(3), 2)
    assert not middle.middle_doubt(look, _window(4), 4)
    assert not middle.middle_doubt(look, _window(5), 5)


def test_a_missing_middle_pip_is_not_asked() -> None:
    """A 5 whose middle the box missed says nothing: only ink where the value has none is."""
    assert not middle.middle_doubt(_look(), _window(4), 5)


def test_numerals_say_nothing() -> None:
    """Cards whose prints are numerals are not pips: the witness is silent on their look."""
    def numeral(value: int, rng: np.random.Generator) -> np.ndarray:
        w, h = geometry._cell_size()
        card = np.full((h, w), 225, np.uint8)
        cv2.putText(card, str(value), (w // 2 - 10, h // 2 + 12),
                    cv2.FONT_HERSHEY_SIMPLEX, 1.0, 40, 3, cv2.LINE_AA)
        return card
    templates, values, masks = grid_area.learnt_templates(numeral)
    look = grid.GridLook(templates=templates, template_values=values, template_masks=masks)
    assert not middle._pips(look)
    assert not any(middle.middle_doubt(look, _window(v), 4) for v in range(6))


def test_the_witness_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    set_thresholds(monkeypatch, middle, "grid", middle_witness=False)
    assert not middle.middle_doubt(_look(), _window(5), 4)
