"""A generated set's grid calibration learnt again and one of its grid pictures, drawn again from
the set's seed (third art: ``thirdart.build``; own art: :func:`vision.synth.write_dataset`): the
tests that pin a case from a generated set read it as the set's own evaluation did, without the
set on disk."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.config import Config
from vision import grid
from vision.calibration import calibrate
from vision.dataset import Example, load_labelled
from vision.grid.look import Grid, GridLook


def redrawn_grid(folder: Path, seed: int, name: str) -> tuple[GridLook, np.ndarray, Grid]:
    """Set ``seed``'s calibration written to ``folder`` and learnt, its grid picture ``name`` as
    the camera sent it, and that picture's labelled grid."""
    from tests.vision.thirdart.build import as_sent, redrawn

    shot = redrawn(folder, seed, name, grids=True)
    look = calibrate(load_labelled(folder, Config()), Config()).grid
    return look, as_sent(shot), shot.label["grid"]


def redrawn_own_grid(folder: Path, seed: int, name: str, hard: bool = False
                     ) -> tuple[GridLook, Example]:
    """Own-art set ``seed``'s calibration learnt and its test picture ``name`` (``g002.png``),
    the set written to ``folder`` up to that picture: the set's random stream draws its first
    pictures alike whatever the set's length."""
    from vision.synth import write_dataset

    config = Config()
    write_dataset(folder, config, n=int(name[1:4]) + 1, hard=hard, seed=seed)
    look = calibrate(load_labelled(folder / "calibration", config), config).grid
    shots = {ex.name: ex for ex in load_labelled(folder / "test", config)}
    return look, shots[name]


def assert_every_cell_read(look: GridLook, image: np.ndarray, truth: Grid) -> None:
    """Every cell of ``image`` read, and read as labelled: no card and no bare cell asked."""
    obs = grid.read_grid(image, look)
    for r, row in enumerate(truth):
        for c, value in enumerate(row):
            assert obs.cells[r][c] == value and obs.confidence[r][c] > 0, (r, c)


def assert_cell_asked(look: GridLook, image: np.ndarray, cell: tuple[int, int],
                      value: int) -> None:
    """The card at ``cell`` of ``image`` (labelled ``value``) asked: not read as another value,
    and not read at all (no confidence)."""
    obs = grid.read_grid(image, look)
    r, c = cell
    assert obs.cells[r][c] in (None, value) and obs.confidence[r][c] == 0.0, (cell, obs.cells[r][c])
