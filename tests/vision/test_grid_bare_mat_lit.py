"""Robot Master grid: a bare mat cell lit otherwise than the mat cells nearest it, with cards on
every side (third art d2305 g002: the mat's corner cell 172 grey levels against 289 for the mat
cells nearest, in a corner's vignette; g2545 g002, e2404 g005). The lamp steps take such a cell
only from a bare cell beside it that passed; with none, it is now a shade of the mat ("shaded":
bare when the nearest calibration example says empty too). A cell off the mat's hue, a card, or
one with ink is not."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_bare_glare import _off
from tests.vision.test_grid_empty_table_shades import _card, _plain
from vision import grid

# d2305's mat as calibration learnt it in four pictures (BGR), and in the picture read
CALIBRATION_MAT = np.array([(86, 70, 73), (67, 51, 51), (126, 99, 101), (85, 66, 66)],
                           np.float32)
MAT = (118, 92, 94)
VIGNETTE = (68, 51, 53)  # cell 20 of d2305 g002: 0.59 times the mat cells near it
GREEN = (68, 90, 53)  # as dark, another hue


def _read() -> dict[int, float]:
    look = grid.GridLook(bare_mode="mat", bare=CALIBRATION_MAT, bare_texture=5.0)
    inked = _plain(VIGNETTE, 106)
    inked[28:36, 20:28] = (10, 8, 8)
    # the top row bare, the corner cell 20 bare with cards at 15, 16 and 21 (not asked), then a
    # cell of another hue, a card and an inked dark cell elsewhere
    cells = [_plain(MAT, k) for k in range(5)] + [_plain(VIGNETTE, 100)] + \
        [_plain(GREEN, 101), _card(102), inked]
    at = [0, 1, 2, 3, 4, 20, 9, 14, 24]
    area: list[np.ndarray] = [_plain(MAT, 200 + i) for i in range(25)]
    for i, cell in zip(at, cells, strict=True):
        area[i] = cell
    shaded: dict[int, float] = {}
    sure = grid.surely_empty(area, at, [], look, shaded=shaded)
    assert set(sure) == {0, 1, 2, 3, 4}
    return shaded


def test_a_mat_cell_in_a_vignette_with_cards_round_it_is_shaded() -> None:
    assert _read() == {20: 0.5}


def test_without_the_rule_it_is_not(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, mat_lit_shades=False)
    assert _read() == {}
