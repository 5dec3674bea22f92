"""Robot Master grid: a card lying off its cell by more than calibration's shifted copies allow
for (other art 3503, 9204, 9324: single cards some 6 px across and up off the lattice the
others lie on, at 1.01-1.04 times the distance allowed from every calibration card, and a third
of it once looked at where they lie) is compared again from a little way off in each direction,
and read when its print reads; a cell like no calibration card from anywhere near stays asked."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import learnt_templates
from tests.vision.test_grid_wrong_faint_print import _area, _card
from vision import grid
from vision.grid import geometry
from vision.thresholds import section


@pytest.fixture(scope="module")
def look() -> grid.GridLook:
    """Pip-card templates; one calibration card of each value, its features one row."""
    templates, values, masks = learnt_templates(_card)
    features = np.concatenate([np.eye(6, dtype=np.float32), np.zeros((1, 6), np.float32)])
    return grid.GridLook(features=features, classes=np.array([0, 1, 2, 3, 4, 5, grid.EMPTY]),
                         max_distance=0.5, templates=templates, template_values=values,
                         template_masks=masks)


def _classify(look: grid.GridLook, shifted_near: bool) -> tuple[int | None, float]:
    """A 2 in cell (1, 1) whose features lie 0.6 from the 2's calibration card (0.5 allowed)
    and 1.17 from the empty cell's; taken a little way off, ``shifted_near`` brings one view to
    0.1 of the 2's."""
    rng = np.random.default_rng(9)
    g = _area({(1, 1): _card(2, rng)})
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    feats = np.zeros((25, 6), np.float32)
    feats[6] = np.eye(6, dtype=np.float32)[2] + np.array([0, 0, 0, 0, 0, 0.6], np.float32)
    asked: list[list[int]] = []

    def shifted(cells: list[int]) -> list[np.ndarray]:
        asked.append(cells)
        views = np.tile(feats[cells[0]], (8, 1))
        if shifted_near:
            views[3] = np.eye(6, dtype=np.float32)[2] * 0.9
        return [views for _ in cells]

    values, confidences, _ = grid.classify(look, feats, windows=windows,
                                           settled=lambda _: set(range(25)) - {6},
                                           shifted=shifted)
    assert asked == [[6]]
    return values[6], confidences[6]


def test_a_card_off_its_cell_is_compared_from_where_it_lies(look: grid.GridLook) -> None:
    value, confidence = _classify(look, shifted_near=True)
    assert value == 2 and confidence > 0


def test_a_cell_like_no_card_from_anywhere_near_stays_asked(look: grid.GridLook) -> None:
    assert _classify(look, shifted_near=False)[1] == 0


def test_shifted_features_are_the_cells_features_taken_off_by_that_much() -> None:
    rng = np.random.default_rng(4)
    w, h = geometry._cell_size()
    m = 20
    big = rng.integers(0, 255, (5 * h + 2 * m, 5 * w + 2 * m, 3)).astype(np.uint8)
    big = np.asarray(cv2.GaussianBlur(big, (0, 0), 2.0))  # a picture's smooth changes
    reach = int(section("grid")["candidate_shift"])
    (views,) = grid.shifted_features(big, m, [12])
    moves = [(dx, dy) for dy in (-reach, 0, reach) for dx in (-reach, 0, reach) if dx or dy]
    unshifted = grid.area_features(big, m)[12]
    for view, (dx, dy) in zip(views, moves, strict=True):
        whole = grid.area_features(big, m, dx, dy)[12]
        # only the gradients along the cell's border differ (on this noise, a fifth of what
        # the shift itself moves the features; the colour is the same)
        off = float(np.linalg.norm(view - whole))
        assert off < 0.25 * float(np.linalg.norm(whole - unshifted)), (dx, dy, off)
        assert np.allclose(view[-4:], whole[-4:], atol=1e-4)

