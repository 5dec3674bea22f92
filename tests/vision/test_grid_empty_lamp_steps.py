"""Robot Master grid, lamp steps round: on a surface calibration took for a mat, a plain cell of
the mat's hue that the nearest mat cells' median refused on brightness alone is bare when a
cell beside it passed (or stepped so in turn), its median of that cell's hue and its
brightness from ``mat_lamp_darker`` to ``mat_lamp_brighter`` times that cell's.

Third art t1 and d2301: a lamp's bright band across a dark table, the surface from 45 to 180
in one picture and halving from one row of cells to the next at the band's edge; the bare cells
were held to nearest mat cells across the band (brightness ratio past 1.6, their mottling read
as ink) and declined, and every empty reading beside them with them.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid
from vision.grid import empty

SHARES = np.array([0.36, 0.33, 0.31])  # a grey-brown table (BGR shares)
CALIBRATION_MAT = (104, 94, 86)  # the surface as calibration saw it (BGR, white-balanced)
LEVELS = [150, 260, 450, 290, 160]  # B+G+R of the bare surface, row by row: a lamp's band


def _look() -> grid.GridLook:
    return grid.GridLook(bare_mode="mat", bare=np.array([CALIBRATION_MAT], np.float32),
                         bare_texture=11.5)


def _plain(bgr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    noise = rng.normal(0, 0.04 * float(np.sum(bgr)) / 3, (64, 48, 1))
    return np.clip(bgr + noise, 0, 255).astype(np.uint8)


def _bare(row: int, rng: np.random.Generator) -> np.ndarray:
    return _plain(SHARES * LEVELS[row], rng)


def _picture(rng: np.random.Generator) -> list[np.ndarray]:
    return [_bare(i // 5, rng) for i in range(25)]


def _without_the_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    grid_section = dict(empty.section("grid"))
    grid_section["mat_lamp_steps"] = False
    monkeypatch.setattr("vision.grid.empty.section", lambda name: grid_section)


def test_bare_cells_across_a_lamps_band_are_surely_empty() -> None:
    cells = _picture(np.random.default_rng(5))
    sure = grid.surely_empty(cells, list(range(25)), [], _look())
    assert set(sure) == set(range(25))
    assert all(0.5 <= c <= 1.0 for c in sure.values())


def test_without_the_rule_the_dark_rows_are_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    _without_the_rule(monkeypatch)
    cells = _picture(np.random.default_rng(5))
    sure = grid.surely_empty(cells, list(range(25)), [], _look())
    # the dark top row and the band's ends, held to mat cells across the band, are refused
    assert not set(sure) & {0, 1, 2, 3, 4, 10, 14, 20, 24}
    assert {6, 7, 8, 16, 17, 18} <= set(sure)


def test_a_card_a_sleeve_and_a_hand_beside_the_band_are_still_asked() -> None:
    rng = np.random.default_rng(6)
    cells = _picture(rng)
    # a pale card with a dark print across its middle, in the dark top row
    card = _plain(np.array([200.0, 215.0, 225.0]), rng)
    card[24:40, 12:36] = (40, 30, 30)
    cells[2] = card
    # a grey sleeve of the table's hue, far darker than the surface beside it (0.35 of it)
    cells[22] = _plain(SHARES * LEVELS[4] * 0.35, rng)
    # a tan hand at the bright band's level, of another hue than the table
    cells[12] = _plain(np.array([0.30, 0.33, 0.37]) * LEVELS[2], rng)
    sure = grid.surely_empty(cells, list(range(25)), [], _look())
    assert not {2, 12, 22} & set(sure)
    # (the bare cells around them still step from the band's middle)
    assert {0, 1, 3, 4, 20, 21, 23, 24} <= set(sure)


def test_a_cell_no_bare_cell_touches_is_asked() -> None:
    rng = np.random.default_rng(7)
    cells = _picture(rng)
    card = _plain(np.array([200.0, 215.0, 225.0]), rng)
    card[24:40, 12:36] = (40, 30, 30)
    # the top-left corner cell with cards on its three neighbours: nothing steps to it
    for i in (1, 5, 6):
        cells[i] = card
    sure = grid.surely_empty(cells, list(range(25)), [], _look())
    assert 0 not in sure
    assert not {1, 5, 6} & set(sure)
