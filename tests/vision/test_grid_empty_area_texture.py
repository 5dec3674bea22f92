"""Robot Master grid, a smooth printed mat of the table's own colour on a grained wooden table
(third art t2 g012): calibration's bare cells matched the table's colour, so the cells were held
to the table around the area, and its grain and plank seams (texture 41.4) set the texture limit
(70.2) for a mat whose bare cells measured 0.2-8.2 (calibration's: 11.0). A 2 and a 3 on pale
cards washed out by window light, their paper the mat's colour, passed at 29.7 and 50.4 and were
read as empty cells (0.85, 0.72). The limit now follows the bare surface inside the area where
that is smoother (``empty_texture_area``): the median texture of the cells showing its colour,
or calibration's bare cells' where rougher.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid
from vision.grid import empty
from vision.grid.table import _stats

CREAM = (206, 228, 240)  # the mat and the table around, white-balanced (BGR)
PIP = (40, 120, 235)  # orange pips: too light to count as ink


def _look() -> grid.GridLook:
    return grid.GridLook(bare_mode="table", bare=np.array([CREAM], np.float32),
                         bare_texture=11.0)


def _wood(rng: np.random.Generator) -> np.ndarray:
    """A patch of the table: the cream with grain every way and a plank seam."""
    grain = rng.normal(0, 6.0, (64, 48, 1))
    patch = np.asarray(CREAM, np.float64) + grain
    patch[rng.integers(8, 56), :] -= 30.0  # a seam
    return np.clip(patch, 0, 255).astype(np.uint8)


def _mat(rng: np.random.Generator) -> np.ndarray:
    noise = rng.normal(0, 1.5, (64, 48, 1))
    return np.clip(np.asarray(CREAM, np.float64) + noise, 0, 255).astype(np.uint8)


def _card(rng: np.random.Generator, pips: int) -> np.ndarray:
    """A pale card of the mat's colour: a few small orange pips on it."""
    cell = _mat(rng)
    for k in range(pips):
        y, x = 20 + 10 * k, 17 + 6 * k
        cell[y:y + 6, x:x + 6] = PIP
    return cell


def _picture(rng: np.random.Generator) -> tuple[list[np.ndarray], list[np.ndarray]]:
    table = [_wood(rng) for _ in range(16)]
    cells = [_mat(rng) for _ in range(6)] + [_card(rng, 2), _card(rng, 3)]
    return cells, table


def test_cards_on_a_smooth_mat_in_a_grained_table_are_not_surely_empty() -> None:
    cells, table = _picture(np.random.default_rng(3))
    # the scene is the case: the table far rougher than the mat, the cards rougher than the
    # mat and smoother than the table's limit, their pixels the surface's colour
    texture = _stats(cells)[2]
    table_texture = float(np.median(_stats(table)[2]))
    assert texture[:6].max() < 11.0 < texture[6:].min()
    assert texture[6:].max() < empty._texture_limit(table_texture)
    sure = grid.surely_empty(cells, list(range(8)), table, _look())
    assert not {6, 7} & set(sure), "a card was called empty"
    assert set(range(6)) <= set(sure), "the bare mat cells are still surely empty"


def test_without_the_rule_the_cards_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    grid_section = dict(empty.section("grid"))
    grid_section["empty_texture_area"] = False
    monkeypatch.setattr("vision.grid.empty.section", lambda name: grid_section)
    cells, table = _picture(np.random.default_rng(3))
    # the orange pips are a print in colour too (``table_hue_ink``, blind g2603h): that test
    # alone refuses the cards as well ...
    assert not {6, 7} & set(grid.surely_empty(cells, list(range(8)), table, _look()))
    # ... and without either, they pass for the mat
    grid_section["table_hue_ink"] = False
    assert {6, 7} <= set(grid.surely_empty(cells, list(range(8)), table, _look()))


def test_cells_showing_the_grained_table_keep_its_limit() -> None:
    # a table without a mat: the bare cells are as rough as the patches around, and their
    # median (or the table's, where lower) sets the limit, not calibration's smoother cells
    rng = np.random.default_rng(4)
    table = [_wood(rng) for _ in range(16)]
    cells = [_wood(rng) for _ in range(6)]
    texture = _stats(cells)[2]
    table_texture = float(np.median(_stats(table)[2]))
    kept = empty._area_texture(table_texture, texture, np.ones(6, bool), _look())
    assert kept == min(table_texture, float(np.median(texture))) > 2 * 11.0


def test_too_few_cells_showing_the_colour_leave_the_limit() -> None:
    assert empty._area_texture(41.4, np.array([3.0, 50.0]), np.ones(2, bool), _look()) == 41.4
    assert empty._area_texture(41.4, np.array([3.0, 5.0, 8.0, 50.0]), np.ones(4, bool),
                               _look()) == 11.0
    assert empty._area_texture(41.4, np.array([30.0, 50.0, 60.0]), np.ones(3, bool),
                               _look()) == 41.4
