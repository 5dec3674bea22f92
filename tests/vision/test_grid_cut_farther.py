"""Robot Master grid: a value not trusted only because another value fits best on the edge of
its window (the other's print may lie farther out than the window reaches) is looked for again
in a window reaching farther. A value whose print is absent has its best fit anywhere, often on
an edge where the card's outline gives it something to fit: such a value, far behind the best
and not compared at full size, left whole clean grids asked (own art 9304 g026, other art 9421
g017). One that is compared there and still fits best on the farther edge is trusted no more
than before."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.grid_area import fixed_match, ten_cards
from vision import grid
from vision.calibration import Calibration
from vision.grid import geometry, judge, templates
from vision.synth.scenes import Style
from vision.thresholds import section


def _fake_match(near: list[float], near_edge: int, far: list[float], far_edge: int | None,
                seen: list[tuple[int, int]]) -> Any:
    return fixed_match(near, near_edge, far, far_edge, seen)


@pytest.fixture(scope="module")
def picture(style: Style) -> tuple[np.ndarray, list[tuple[int, int]]]:
    return ten_cards(style)


SCORES = [0.55, 0.5, -1.0, 0.78, -1.0, -1.0]  # a 3 fits at 0.78; the 5 was not compared


def test_a_value_far_behind_on_the_edge_no_longer_leaves_the_card_asked(
        monkeypatch: pytest.MonkeyPatch, picture: tuple[np.ndarray, list[tuple[int, int]]],
        calibration: Calibration) -> None:
    image, cards = picture
    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(judge, "match_windows", _fake_match(SCORES, 5, SCORES, 5, seen))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    obs = grid.read_grid(image, calibration.grid)
    assert any(obs.cells[r][c] == 3 and obs.confidence[r][c] > 0 for r, c in cards)
    w, h = geometry._cell_size()
    extra = grid.SEARCH + int(section("grid")["cut_search_extra"])
    assert (h + 2 * extra, w + 2 * extra) in seen  # looked for again, farther


def test_a_value_compared_at_full_size_on_the_farther_edge_still_declines(
        monkeypatch: pytest.MonkeyPatch, picture: tuple[np.ndarray, list[tuple[int, int]]],
        calibration: Calibration) -> None:
    # the 5's print may still lie farther out: compared at full size (0.6) and on the edge of
    # the farther window too, it is trusted no less than before, and the cards are asked
    image, cards = picture
    far = [0.55, 0.5, -1.0, 0.78, -1.0, 0.6]
    monkeypatch.setattr(judge, "match_windows", _fake_match(SCORES, 5, far, 5, []))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    obs = grid.read_grid(image, calibration.grid)
    assert all(obs.confidence[r][c] == 0 for r, c in cards)


def test_a_value_that_fits_better_farther_out_wins_nothing(
        monkeypatch: pytest.MonkeyPatch, picture: tuple[np.ndarray, list[tuple[int, int]]],
        calibration: Calibration) -> None:
    # farther out the 5 fits best (its print was cut): the 3 read in the first window is not
    # read, and the 5 is not read from the second look either (it was never the one asked)
    image, cards = picture
    far = [0.55, 0.5, -1.0, 0.7, -1.0, 0.9]
    monkeypatch.setattr(judge, "match_windows", _fake_match(SCORES, 5, far, None, []))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    obs = grid.read_grid(image, calibration.grid)
    assert all(obs.confidence[r][c] == 0 for r, c in cards)
