"""Where the cards' outlines said astray, the prints judge the markers' area over the cells a
print fits there (`[grid]` `prints_hold_cells_here`; reader._prints_hold), not over every cell
some print fits with the area moved.

Third art g2635: cards on a cloth checked in squares finer than a cell. The squares' outlines
agree on a lattice of their own, so every picture with bare cells among the cards was asked
whole (5 of 20 grids), though every card lay in its cell. Moved half a cell towards a card, a
bare cell's window holds that card's print whole (0.75-0.98, against 0.2-0.4 at the markers'
area), and over those cells the half-cell moves looked 0.05-0.16 better than the markers' area,
where every card fitted 0.89-0.98.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.calibration import calibrate
from vision.dataset import load_labelled
from vision.grid import learning, reader
from vision.grid.look import GridLook


@pytest.fixture(scope="module")
def checked_cloth(tmp_path_factory: pytest.TempPathFactory
                  ) -> tuple[GridLook, np.ndarray, list[list[int | None]]]:
    """g2635's calibration, learnt again, and its first grid picture (ten cards, the rest of
    the area bare), drawn again as ``thirdart.build`` draws them."""
    from tests.vision.thirdart.build import as_sent, redrawn

    folder = Path(tmp_path_factory.mktemp("g2635"))
    shot = redrawn(folder, 2635, "g001.jpg", grids=True)
    # (learnt with the corrections its cards' boxes split kept, as when the case was found:
    # learning._cards_split now drops them, and the grid is then read without this rule too)
    with pytest.MonkeyPatch.context() as mp:
        set_thresholds(mp, learning, "grid", calibration_cards_centred=0.0)
        look = calibrate(load_labelled(folder, Config()), Config()).grid
    return look, as_sent(shot), shot.label["grid"]


def test_the_cards_are_read_where_the_markers_put_them(
        checked_cloth: tuple[GridLook, np.ndarray, list[list[int | None]]]) -> None:
    look, image, truth = checked_cloth
    assert sum(v is not None for row in truth for v in row) == 10
    obs = grid.read_grid(image, look)
    assert [list(row) for row in obs.cells] == truth
    assert all(c > 0 for row in obs.confidence for c in row)


def test_weighing_the_bare_cells_moved_asks_the_whole_grid(
        checked_cloth: tuple[GridLook, np.ndarray, list[list[int | None]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, _ = checked_cloth
    set_thresholds(monkeypatch, reader, "grid", prints_hold_cells_here=False)
    obs = grid.read_grid(image, look)
    assert all(c == 0 for row in obs.confidence for c in row)
