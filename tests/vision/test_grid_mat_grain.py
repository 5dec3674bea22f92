"""On a surface calibration took for a mat, a bare cell refused only for its texture is the mat
still where that texture runs along the grain the picture's smooth mat cells show (`[grid]`
`mat_grain`), as on a table (`empty._along_the_grain`).

Third art g2647 (batch 23): wood whose bare cells in calibration all showed one board, so its
grain was learnt as a mat. A plank seam runs through the middle of cell (4, 4) of g005, whose
texture (53) passed the mat's limit (50.5); it was asked, and the cells above it with it.
A pip on that cell varies along the grain as well as across it, and stays asked.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.redrawn_grid import assert_every_cell_read, redrawn_grid
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.grid import empty
from vision.grid.area import find_area_seen
from vision.grid.look import GridLook
from vision.grid.reader import _cells_and_table

SEAM = 24  # cell (4, 4), a plank seam through its middle
Seamed = tuple[GridLook, np.ndarray, list[list[int | None]]]


@pytest.fixture(scope="module")
def seamed(tmp_path_factory: pytest.TempPathFactory) -> Seamed:
    """g2647's calibration, learnt again, and its fifth grid picture, drawn again."""
    return redrawn_grid(Path(tmp_path_factory.mktemp("g2647")), 2647, "g005.jpg")


def _cells(seamed: Seamed) -> tuple[list[np.ndarray], list[np.ndarray], list[int]]:
    """The picture's 25 cells and table patches at the markers' area, and its bare cells."""
    look, image, truth = seamed
    corners, white, _ = find_area_seen(image)
    cells, patches, _ = _cells_and_table(image, corners, look.inset, white)
    return cells, patches, [i for i in range(25) if truth[i // 5][i % 5] is None]


def test_every_cell_is_read(seamed: Seamed) -> None:
    look, image, truth = seamed
    assert look.bare_mode == "mat"
    assert_every_cell_read(look, image, truth)


def test_without_the_rule_the_seamed_cell_is_asked(seamed: Seamed,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, _ = seamed
    set_thresholds(monkeypatch, empty, "grid", mat_grain=False)
    obs = grid.read_grid(image, look)
    assert obs.confidence[4][4] <= 0
    assert obs.cells[4][4] is None  # asked, never read as a card


def test_the_seam_is_rougher_than_the_mat_allows_but_runs_along_its_grain(
        seamed: Seamed, monkeypatch: pytest.MonkeyPatch) -> None:
    look, _, _ = seamed
    cells, patches, bare = _cells(seamed)
    assert SEAM in bare
    assert SEAM in empty.surely_empty(cells, bare, patches, look)
    set_thresholds(monkeypatch, empty, "grid", mat_grain=False)
    assert SEAM not in empty.surely_empty(cells, bare, patches, look)


def test_a_pip_on_the_seamed_cell_is_not_the_mat(seamed: Seamed,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    look, _, _ = seamed
    cells, patches, bare = _cells(seamed)
    pipped = [cell.copy() for cell in cells]
    cell = pipped[SEAM]
    h, w = cell.shape[:2]
    shade = np.median(cell.reshape(-1, 3), axis=0) * 0.8  # a pip in a darker shade of the mat
    cv2.circle(cell, (w // 2, h // 2), h // 8, tuple(float(v) for v in shade), -1)
    assert SEAM not in empty.surely_empty(pipped, bare, patches, look)
    # what refuses it is the direction: with any texture taken for grain, it would pass
    set_thresholds(monkeypatch, empty, "grid", empty_grain_factor=1e9)
    assert SEAM in empty.surely_empty(pipped, bare, patches, look)
