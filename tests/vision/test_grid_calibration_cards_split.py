"""Calibration keeps a registration correction only where it brings at least `[grid]`
`calibration_cards_centred` of the picture's labelled cards' boxes to their cells' middles
(learning._cards_split), and a look whose cards split a correction and bore out none past
`split_judge_move` takes no reading's correction that far (``GridLook.far_moves_split``).

Third art g2748: seven-segment orange digits in dark panels on pastel cards, on a grey gradient
table. The cards' faint outlines are outdone by the panels: the outline boxes lie a sixth of a
cell to either side of each card on both axes, four lattices about the cards' middles, and the
consensus settled on one of them with 22-41 % of the cards. Registration moved all four
calibration grid pictures 0.21-0.22 of a cell the same way (the labels judge cannot see a move
every picture shares), the templates and marks were learnt there, and the test pictures, left at
the markers' area or moved each its own way, were read against them: 18 of 20 clean grids
declined (g001: 20 cells asked), every one read exactly with the pictures at the markers' area.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.redrawn_grid import assert_every_cell_read
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.calibration import calibrate
from vision.dataset import load_labelled
from vision.grid import GridLook, learning
from vision.grid.look import Grid


@pytest.fixture(scope="module")
def panels(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GridLook, np.ndarray, Grid]:
    """g2748's calibration drawn again (its folder) and learnt, and its first grid picture."""
    from tests.vision.thirdart.build import as_sent, redrawn

    folder = Path(tmp_path_factory.mktemp("g2748"))
    shot = redrawn(folder, 2748, "g001.jpg", grids=True)
    look = calibrate(load_labelled(folder, Config()), Config()).grid
    return folder, look, as_sent(shot), shot.label["grid"]


def test_the_corrections_are_split(panels: tuple[Path, GridLook, np.ndarray, Grid]) -> None:
    _, look, _, _ = panels
    assert look.far_moves_split is True


def test_every_cell_is_read(panels: tuple[Path, GridLook, np.ndarray, Grid]) -> None:
    _, look, image, truth = panels
    assert_every_cell_read(look, image, truth)


def test_with_the_corrections_kept_the_cards_were_asked(
        panels: tuple[Path, GridLook, np.ndarray, Grid], monkeypatch: pytest.MonkeyPatch) -> None:
    folder, _, image, truth = panels
    set_thresholds(monkeypatch, learning, "grid", calibration_cards_centred=0.0)
    look = calibrate(load_labelled(folder, Config()), Config()).grid
    assert look.far_moves_split is False
    obs = grid.read_grid(image, look)
    cards = [(r, c) for r, row in enumerate(truth) for c, v in enumerate(row) if v is not None]
    read = [(r, c) for r, c in cards if obs.confidence[r][c] > 0]
    assert len(read) <= len(cards) // 2, read
    # declined, never read otherwise
    assert all(obs.cells[r][c] in (None, truth[r][c]) for r, c in cards)


def test_the_flag_survives_json() -> None:
    look = GridLook(far_moves_split=True)
    assert GridLook.from_json(json.loads(json.dumps(look.to_json()))).far_moves_split is True
    old = GridLook().to_json()
    del old["far_moves_split"]  # stored before calibration judged corrections by its cards
    assert GridLook.from_json(old).far_moves_split is False
