"""Robot Master grid, corner looks: a card laid a little turned in its cell is read by its marks
turned back (`marks_turns`). The marks are laid box by box without turning; on third art g2487
g019 every card lay 3-4 degrees off the area, its boxes fitting 0.47-0.66 upright and 0.86-0.94
turned back.

The cards drawn here carry small, sharp numerals: turned 4-5 degrees their boxes still fit
0.80-0.84 upright, which a corner look now takes (``marks_min_box_fit_corners``, 0.78), and
rightly (the last test). The turn is shown with the boxes held to ``marks_min_box_fit`` (0.85),
where these cards are not taken upright, as g2487's were not under either bar."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_grid_marks import _corner_card, _window
from tests.vision.test_grid_marks import look as look  # (a fixture: the corner look)
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.grid import marks

HELD = 0.85  # the boxes' fit the turn is shown at (the middle looks' marks_min_box_fit)


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> None:
    set_thresholds(monkeypatch, marks, "grid", marks_min_box_fit_corners=HELD)


def _laid_turned(value: int, degrees: float) -> np.ndarray:
    card = _corner_card(value, np.random.default_rng(value))
    turn = cv2.getRotationMatrix2D((24, 32), degrees, 1.0)
    return _window(cv2.warpAffine(card, turn, (48, 64), borderValue=90))


@pytest.mark.parametrize("value", [2, 3])
@pytest.mark.usefixtures("held")
def test_a_card_laid_turned_is_read_turned_back(look: grid.GridLook, value: int) -> None:
    window = _laid_turned(value, 4.0)
    assert marks._taken(look, marks.read_marks(look, window)) is None  # upright: not taken
    reading = marks.marks_read(look, window)
    assert reading is not None and reading.value == value


def test_without_turns_it_is_not_read(monkeypatch: pytest.MonkeyPatch,
                                      look: grid.GridLook) -> None:
    set_thresholds(monkeypatch, marks, "grid", marks_turns=[], marks_min_box_fit_corners=HELD)
    assert marks.marks_read(look, _laid_turned(2, 4.0)) is None


@pytest.mark.usefixtures("held")
def test_a_card_turned_too_far_or_blank_reads_nothing(look: grid.GridLook) -> None:
    assert marks.marks_read(look, _laid_turned(5, 5.0)) is None
    blank = _window(_corner_card(None, np.random.default_rng(9)))
    assert marks.marks_read(look, blank) is None


@pytest.mark.parametrize(("value", "degrees"), [(2, 4.0), (3, 4.0), (3, 5.0), (5, 4.0), (5, 5.0)])
def test_on_a_corner_look_the_same_cards_are_read_right_upright(
        look: grid.GridLook, value: int, degrees: float) -> None:
    window = _laid_turned(value, degrees)
    upright = marks._taken(look, marks.read_marks(look, window))
    assert upright is not None and upright.value == value
    assert upright.box_fit < HELD
    reading = marks.marks_read(look, window)
    assert reading is not None and reading.value == value


def test_a_blank_card_reads_nothing_at_the_corner_bar(look: grid.GridLook) -> None:
    # (at HELD: test_a_card_turned_too_far_or_blank_reads_nothing)
    blank = _window(_corner_card(None, np.random.default_rng(9)))
    assert marks.marks_read(look, blank) is None
