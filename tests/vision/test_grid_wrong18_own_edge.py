"""Robot Master grid: a value whose own print fits best on the edge of its window may be part of
a longer print that continues past the edge, and its fit says too little: under
``own_edge_min_correlation`` it is not trusted in that window but looked for again in a window
reaching farther, as a value fitting under ``edge_min_correlation`` with another value on the
edge is.

Other art 18016 g002, g004, g011: the area registered a fifth of a cell off, each 5 lay at the
bottom of its window with its lower row of pips cut off; the 3's print (the numeral over one row
of pips) fitted what showed at 0.81-0.84 on the window's bottom edge, the 5 ranked third at half
size and was never compared at full size, and the 3 led the 0's bare card by 0.10-0.11: five 5s
read as 3 at 0.08-0.14. Right 3s the templates fit on the edge as weakly (0.82-0.84) are read
again farther out."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.grid_area import fixed_match, ten_cards
from vision import grid
from vision.calibration import Calibration
from vision.grid import judge, templates
from vision.synth.scenes import Style


def _fake_match(near: list[float], near_edge: int | None, far: list[float],
                far_edge: int | None) -> Any:
    return fixed_match(near, near_edge, far, far_edge)


@pytest.fixture(scope="module")
def picture(style: Style) -> tuple[np.ndarray, list[tuple[int, int]]]:
    return ten_cards(style)


# 18016 g002 (1, 3) as main read it: the 3 at 0.83 on the edge, the 0 0.72, the 5 not compared
NEAR = [0.72, -1.0, -1.0, 0.83, -1.0, -1.0]


def test_a_value_on_its_own_edge_whose_card_is_another_farther_out_is_declined(
        monkeypatch: pytest.MonkeyPatch, picture: tuple[np.ndarray, list[tuple[int, int]]],
        calibration: Calibration) -> None:
    image, cards = picture
    far = [0.7, -1.0, -1.0, 0.7, -1.0, 0.9]  # farther out the 5's whole print shows
    monkeypatch.setattr(judge, "match_windows", _fake_match(NEAR, 3, far, None))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    obs = grid.read_grid(image, calibration.grid)
    # (on main the cards whose nearest calibration card is a 3 were read as 3 at 0.22)
    assert all(obs.confidence[r][c] == 0 for r, c in cards)


def test_a_value_on_its_own_edge_that_still_fits_best_farther_out_is_read(
        monkeypatch: pytest.MonkeyPatch, picture: tuple[np.ndarray, list[tuple[int, int]]],
        calibration: Calibration) -> None:
    image, cards = picture
    far = [0.7, -1.0, -1.0, 0.93, -1.0, -1.0]  # a 3 indeed, clear of the farther edge
    monkeypatch.setattr(judge, "match_windows", _fake_match(NEAR, 3, far, None))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    obs = grid.read_grid(image, calibration.grid)
    assert any(obs.cells[r][c] == 3 and obs.confidence[r][c] > 0 for r, c in cards)


def test_a_value_fitting_well_on_its_own_edge_is_read_there(
        monkeypatch: pytest.MonkeyPatch, picture: tuple[np.ndarray, list[tuple[int, int]]],
        calibration: Calibration) -> None:
    image, cards = picture
    near = [0.72, -1.0, -1.0, 0.93, -1.0, -1.0]
    far = [0.7, -1.0, -1.0, 0.8, -1.0, 0.9]  # (never looked at)
    monkeypatch.setattr(judge, "match_windows", _fake_match(near, 3, far, None))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    obs = grid.read_grid(image, calibration.grid)
    assert any(obs.cells[r][c] == 3 and obs.confidence[r][c] > 0 for r, c in cards)
