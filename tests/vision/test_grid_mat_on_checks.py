"""A mat on a checked cloth, and a mat washed out by a lamp (vision.grid.empty).

Blind third art g2644 (batch 23): a cream mat with printed cell lines on grey and white checks.
Calibration asks whether the empty cells show the table around the area. The checks' patches
have no one colour; their median is a pale grey, and the cream cells matched it, so the bare
surface was learnt as the table. Read, no empty cell then matched the checks, and all 20 grids
were declined. On a table of two tones finer than a cell (`checks.checked_table`), the cells
show the table only when they show its tones (`[grid]` `bare_checked_by_tones`).

Learnt as a mat, hard third art g2576h (a mat on blue and white checks, under a warm lamp) read
a 1 as the bare mat in g011: the card's white paper and the mat were one white where the light
washed them out, at 255, 255, 248. A middle clipped white is the mat only where the cell shows
no edge a card's numeral and pips bring (`mat_white_out`), and that was asked only of a middle
clipped in every channel; now of one clipped in two (`mat_white_out_channels`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision.calibration import calibrate
from vision.dataset import load_labelled
from vision.grid import GridLook, empty
from vision.grid.reader import read_grid_region

Picture = tuple[np.ndarray, list[list[int | None]]]


def _draw(seed: int, hard: bool, name: str, folder: Path) -> tuple[GridLook, Picture]:
    """The seed's grid calibration and its grid picture ``name``, drawn again as
    ``thirdart.build`` draws them."""
    from tests.vision.thirdart.build import as_sent, calibration, grid_truth, test_shot
    from tests.vision.thirdart.style import make_style

    style = make_style(seed)
    calibration(folder, style, np.random.default_rng([seed, 1]))
    examples = [e for e in load_labelled(folder, Config()) if e.kind == "grid"]
    look = calibrate(examples, Config()).grid
    shot = test_shot(style, seed, hard, name)
    flat = grid_truth(shot)
    return look, (as_sent(shot), [flat[r * 5:r * 5 + 5] for r in range(5)])


@pytest.fixture(scope="module")
def mat_on_checks(tmp_path_factory: pytest.TempPathFactory) -> tuple[GridLook, Picture, Path]:
    folder = Path(tmp_path_factory.mktemp("g2644"))
    look, picture = _draw(2644, False, "g001.jpg", folder)
    return look, picture, folder


@pytest.fixture(scope="module")
def washed_out_one(tmp_path_factory: pytest.TempPathFactory) -> tuple[GridLook, Picture]:
    return _draw(2576, True, "g011.jpg", Path(tmp_path_factory.mktemp("g2576h")))


def _patched(monkeypatch: pytest.MonkeyPatch, **values: object) -> None:
    set_thresholds(monkeypatch, empty, "grid", **values)


def _wrong(picture: Picture, look: GridLook) -> list[tuple[int, int]]:
    image, grid = picture
    observation, _ = read_grid_region(image, look)
    return [(r, c) for r in range(5) for c in range(5)
            if observation.confidence[r][c] > 0 and observation.cells[r][c] != grid[r][c]]


def _read_whole(picture: Picture, look: GridLook) -> bool:
    image, grid = picture
    observation, _ = read_grid_region(image, look)
    return all(observation.cells[r][c] == grid[r][c] and observation.confidence[r][c] > 0
               for r in range(5) for c in range(5))


def test_a_mat_on_checks_is_learnt_as_a_mat_and_read(
        mat_on_checks: tuple[GridLook, Picture, Path]) -> None:
    look, picture, _ = mat_on_checks
    assert look.bare_mode == "mat"
    assert _read_whole(picture, look)


def test_by_the_checks_median_it_was_taken_for_the_table(
        mat_on_checks: tuple[GridLook, Picture, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    _, picture, folder = mat_on_checks
    _patched(monkeypatch, bare_checked_by_tones=False)
    examples = [e for e in load_labelled(folder, Config()) if e.kind == "grid"]
    look = calibrate(examples, Config()).grid
    assert look.bare_mode == "table"
    assert not _read_whole(picture, look)


def test_a_washed_out_one_is_not_taken_for_the_mat(
        washed_out_one: tuple[GridLook, Picture]) -> None:
    look, picture = washed_out_one
    assert look.bare_mode == "mat"
    assert picture[1][0][1] == 1
    assert _wrong(picture, look) == []


def test_without_the_washed_out_rule_it_was(washed_out_one: tuple[GridLook, Picture],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    look, picture = washed_out_one
    _patched(monkeypatch, mat_white_out_channels=3)
    assert (0, 1) in _wrong(picture, look)


def test_a_white_out_left_a_little_warm_is_asked_for_edges_too() -> None:
    from tests.vision.test_grid_empty_table_shades import _plain
    from tests.vision.test_grid_mat_colour_ink import CALIBRATION_MAT, MAT, _white_card

    look = GridLook(bare_mode="mat", bare=CALIBRATION_MAT, bare_texture=11.0)
    warm = _white_card(21)
    warm[..., 2] = np.minimum(warm[..., 2], 248)  # the red a little under the clip (BGR)
    bare = _plain((255, 255, 248), 20)
    cells = [_plain(MAT, k) for k in range(6)] + [bare, warm]
    assert set(empty.surely_empty(cells, list(range(8)), [], look)) == set(range(7))
