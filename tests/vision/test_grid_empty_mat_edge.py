"""Robot Master grid, empty cells on a printed mat: a cell refused only for its texture is
measured again on its middle alone (``empty_middle_own_texture``), so a mat's printed line or
the table past the mat's edge just outside the middle does not make a bare cell rough, while
anything inside the middle still does.

Own art 11503 g014: the area lay 6 px wider than the mat on its empty left side; the mat's
edge line ran 1-3 px outside the middles of column 0, whose texture (14.8-17.9) the smoothing
carried past the limit (16.3), and the whole of columns 0-1 was asked.
"""

from __future__ import annotations

import numpy as np

from vision import grid
from vision.grid import empty
from vision.grid.table import _stats

MAT = (50, 95, 52)  # a green mat, white-balanced (BGR)


def _look() -> grid.GridLook:
    return grid.GridLook(bare_mode="mat", bare=np.array([MAT], np.float32), bare_texture=7.6)


def _mat_cell(rng: np.random.Generator) -> np.ndarray:
    noise = rng.normal(0, 1.2, (64, 48, 1))
    return np.clip(np.asarray(MAT, np.float64) + noise, 0, 255).astype(np.uint8)


def _edge_cell(rng: np.random.Generator) -> np.ndarray:
    """A bare mat cell whose left 5 px show the table past the mat's edge, then the mat's
    white edge line (2 px), just outside the middle (which starts 8 px in)."""
    cell = _mat_cell(rng)
    cell[:, :5] = (150, 150, 155)
    cell[:, 5:7] = (230, 230, 230)
    return cell


def test_a_line_just_outside_the_middle_leaves_a_bare_cell_empty() -> None:
    rng = np.random.default_rng(5)
    cells = [_mat_cell(rng) for _ in range(6)] + [_edge_cell(rng)]
    # (the smoothing carries the line into the middle: rougher than the limit there)
    texture = _stats(cells)[2]
    assert texture[6] > empty._texture_limit(7.6)
    assert empty._middle_texture([cells[6]])[0] < empty._texture_limit(7.6)
    assert 6 in grid.surely_empty(cells, list(range(7)), [], _look())


def test_a_line_inside_the_middle_still_refuses_the_cell() -> None:
    rng = np.random.default_rng(6)
    inside = _mat_cell(rng)
    inside[:, 10:12] = (230, 230, 230)  # a line just inside the middle (which starts 8 px in)
    through = _mat_cell(rng)
    through[:, 20:22] = (230, 230, 230)  # a line through the middle
    cells = [_mat_cell(rng) for _ in range(6)] + [inside, through]
    assert empty._middle_texture([inside])[0] > empty._texture_limit(7.6)
    assert not {6, 7} & set(grid.surely_empty(cells, list(range(8)), [], _look()))
