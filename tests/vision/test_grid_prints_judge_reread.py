"""Own art 46001 g002: the prints judge dropped a right correction, and the markers' area left
the outer columns' middles on the mat's grid lines (:func:`vision.grid.reader._reread_agrees`).

Registration moved the area a little over 0.2 of a cell (``prints_judge_move``); the values'
prints fit calibration's cards better at the markers' area, where every card lies whole in
its window, so the correction was dropped. But there the cells' middles lie off the mat's
lattice: a grid line runs through the outer columns' middles and empty cells there are asked,
and every empty cell beside them with them. The correction reads the grid exactly, and agrees
with every cell the markers' area read.
"""

from __future__ import annotations

import pytest

from tests.vision.redrawn_grid import redrawn_own_grid
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.dataset import Example
from vision.grid import reader


@pytest.fixture(scope="module")
def own46001(tmp_path_factory: pytest.TempPathFactory) -> tuple[grid.GridLook, Example]:
    """The set's calibration, learnt, and its test picture g002.png."""
    return redrawn_own_grid(tmp_path_factory.mktemp("own46001"), 46001, "g002.png")


def _reading(look: grid.GridLook, example: Example) -> tuple[int, int]:
    """(cells read otherwise than labelled, cells asked)."""
    obs = grid.read_grid(example.image, look)
    cells = [(r, c) for r in range(5) for c in range(5)]
    wrong = sum(1 for r, c in cells
                if obs.confidence[r][c] > 0 and obs.cells[r][c] != example.grid[r][c])
    return wrong, sum(1 for r, c in cells if obs.confidence[r][c] <= 0)


def test_the_dropped_correction_is_read_where_the_markers_area_asks(
        own46001: tuple[grid.GridLook, Example], monkeypatch: pytest.MonkeyPatch) -> None:
    look, g002 = own46001
    taken: list[bool] = []
    agrees = reader._reread_agrees

    def spy(again: tuple[list[int | None], list[float]],
            first: tuple[list[int | None], list[float]]) -> bool:
        taken.append(agrees(again, first))
        return taken[-1]

    monkeypatch.setattr(reader, "_reread_agrees", spy)
    assert _reading(look, g002) == (0, 0)
    assert taken == [True]
    # (and as before, read at the markers' area only: no cell wrong, some asked)
    set_thresholds(monkeypatch, reader, "grid", prints_judge_rereads=False)
    wrong, asked = _reading(look, g002)
    assert wrong == 0 and asked > 0


def test_a_reread_that_leaves_a_cell_asked_or_names_a_cell_otherwise_is_not_taken() -> None:
    first: tuple[list[int | None], list[float]] = ([None] * 25, [0.0] * 25)
    first[0][3], first[1][3] = 1, 0.4
    first[1][0] = 0.9  # an empty cell read
    again: tuple[list[int | None], list[float]] = (list(first[0]), [0.5] * 25)
    assert reader._reread_agrees(again, first)
    asks = (again[0], [0.5] * 24 + [0.0])
    assert not reader._reread_agrees(asks, first)
    other = (list(again[0]), again[1])
    other[0][3] = 4  # the card the markers' area read as 1
    assert not reader._reread_agrees(other, first)
    card = (list(again[0]), again[1])
    card[0][0] = 2  # a card where the markers' area read the empty surface
    assert not reader._reread_agrees(card, first)
    # a cell the markers' area asked may be read anything
    free = (list(again[0]), again[1])
    free[0][7] = 5
    assert reader._reread_agrees(free, first)
