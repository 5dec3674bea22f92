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

from vision import grid
from vision.calibration import Calibration
from vision.grid import geometry, judge, templates
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid
from vision.thresholds import section


def _fake_match(near: list[float], near_edge: int, far: list[float], far_edge: int | None,
                seen: list[tuple[int, int]]) -> Any:
    """Fixed scores: ``near`` with ``near_edge`` on its edge for the usual windows, ``far``
    (``far_edge``) for windows reaching farther; ``seen`` records each call's window shape."""
    h = geometry._cell_size()[1] + 2 * grid.SEARCH

    def match(look: grid.GridLook, windows: list[np.ndarray],
              pair_gaps: np.ndarray | None = None, edges: np.ndarray | None = None
              ) -> np.ndarray:
        farther = windows[0].shape[0] > h
        seen.append(windows[0].shape)
        if pair_gaps is not None:
            pair_gaps[:] = np.nan
        if edges is not None:
            edges[:] = False
            edge = far_edge if farther else near_edge
            if edge is not None:
                edges[:, edge] = True
        return np.tile(np.array(far if farther else near), (len(windows), 1))
    return match


@pytest.fixture(scope="module")
def picture(style: Style) -> tuple[np.ndarray, list[tuple[int, int]]]:
    rng = np.random.default_rng(45)
    cells = random_grid(rng, cards=10)
    image = render_grid(style, cells, rng)
    return image, [(r, c) for r in range(5) for c in range(5) if cells[r][c] is not None]


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
