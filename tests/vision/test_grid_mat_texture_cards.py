"""On a mat, the texture a bare cell may show in a picture is set by the smoother end of the
cells that look like the mat (`[grid]` `mat_texture_percentile`), and not by them at all where
even that end is far rougher than calibration's mat (`mat_texture_ratio`; empty.surely_empty).

Blind third art g2700 (batch 29): white cards with green pips on a cream mat as pale as their
paper, so the cards pass the mat's colour test. A 1 shows little more than its paper in a cell's
middle: one small pip, too little ink to count.
- g010: of the 14 cells that looked like the mat, 5 were bare (texture 13-17) and 9 cards (38-94);
  their median, 50.8, let the 1s at (0, 0) and (4, 3) pass as bare mat (confidence 1.0, 0.81).
- g003: every cell holds a card; the four that looked like the mat were all 1s (4.4-5 times
  calibration's bare texture) and set the bar themselves: (0, 4) was read as bare at 0.87.
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
from vision.grid import empty
from vision.grid.look import GridLook

ONES = {"g010.jpg": [(0, 0), (4, 3)], "g003.jpg": [(0, 4)]}


@pytest.fixture(scope="module")
def pale_mat(tmp_path_factory: pytest.TempPathFactory
             ) -> tuple[GridLook, dict[str, tuple[np.ndarray, list[list[int | None]]]]]:
    """g2700's calibration, learnt again, and its tenth and third grid pictures, drawn again as
    ``thirdart.build`` draws them."""
    from tests.vision.thirdart.build import as_sent, redrawn
    from tests.vision.thirdart.build import test_shot as drawn
    from tests.vision.thirdart.style import make_style

    folder = Path(tmp_path_factory.mktemp("g2700"))
    shot = redrawn(folder, 2700, "g010.jpg", grids=True)
    look = calibrate(load_labelled(folder, Config()), Config()).grid
    other = drawn(make_style(2700), 2700, False, "g003.jpg")
    return look, {name: (as_sent(s), s.label["grid"])
                  for name, s in (("g010.jpg", shot), ("g003.jpg", other))}


def _ones_read_bare(look: GridLook, image: np.ndarray, cells: list[tuple[int, int]]
                    ) -> list[tuple[int, int]]:
    obs = grid.read_grid(image, look)
    return [(r, c) for r, c in cells if obs.cells[r][c] is None and obs.confidence[r][c] > 0]


@pytest.mark.parametrize("name", sorted(ONES))
def test_no_card_is_read_as_the_bare_mat(
        pale_mat: tuple[GridLook, dict[str, tuple[np.ndarray, list[list[int | None]]]]],
        name: str) -> None:
    look, pictures = pale_mat
    image, truth = pictures[name]
    assert all(truth[r][c] == 1 for r, c in ONES[name])
    obs = grid.read_grid(image, look)
    for r, row in enumerate(truth):
        for c, value in enumerate(row):
            if value is not None and obs.confidence[r][c] > 0:
                assert obs.cells[r][c] == value, (r, c)


def test_the_median_let_the_ones_pass_for_the_mat(
        pale_mat: tuple[GridLook, dict[str, tuple[np.ndarray, list[list[int | None]]]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    look, pictures = pale_mat
    set_thresholds(monkeypatch, empty, "grid", mat_texture_percentile=50,
                   mat_texture_ratio=1e9)
    image, _ = pictures["g010.jpg"]
    assert _ones_read_bare(look, image, ONES["g010.jpg"])


def test_a_full_area_of_ones_set_its_own_bar(
        pale_mat: tuple[GridLook, dict[str, tuple[np.ndarray, list[list[int | None]]]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    look, pictures = pale_mat
    image, _ = pictures["g003.jpg"]
    set_thresholds(monkeypatch, empty, "grid", mat_texture_ratio=1e9)
    assert _ones_read_bare(look, image, ONES["g003.jpg"])
