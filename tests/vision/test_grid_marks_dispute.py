"""Blind third art g2507 g016: seven-segment digits whose marks are read inside the middle. Two
5s read as 3: the templates 0.06-0.07 ahead for the 3, the pair gap 0.51-0.62 saying 3, the
nearest calibration card a 5's and the card's marks 5 by 0.76-0.83 (:func:`judge._marks_dispute`).

``missed_disputed`` declined them while calibration missed its own cards (``template_miss``
0.031-0.038); once calibration registered its cards better (7e28dba) it missed none, and the two
5s were read as 3 again until the marks were asked. Declined by the close-call rules, they are
read by their marks, as every card those rules decline on this look is.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.redrawn_grid import assert_every_cell_read, redrawn_grid
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.grid import GridLook, judge
from vision.grid.look import Grid


@pytest.fixture(scope="module")
def g016(tmp_path_factory: pytest.TempPathFactory) -> tuple[GridLook, np.ndarray, Grid]:
    """g2507's calibration drawn again and learnt, and its test picture g016 as sent."""
    return redrawn_grid(tmp_path_factory.mktemp("g2507"), 2507, "g016.jpg")


def _wrong(look: GridLook, image: np.ndarray, labels: Grid) -> list[tuple[int, int]]:
    obs = grid.read_grid(image, look)
    return [(r, c) for r in range(5) for c in range(5)
            if obs.confidence[r][c] > 0 and obs.cells[r][c] != labels[r][c]]


def test_the_5s_the_marks_name_are_not_read_as_3(
        g016: tuple[GridLook, np.ndarray, Grid], monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, labels = g016
    # the look misses none of calibration's cards: the earlier rule does not speak here
    assert float(look.template_miss) == 0.0
    assert _wrong(look, image, labels) == []
    # declined by the close-call rules, the two 5s are read by their marks (the marks read cards
    # every rule declined on this look): the picture reads exactly
    assert_every_cell_read(look, image, labels)
    # (and without the marks asked, as before: the two 5s read as 3)
    set_thresholds(monkeypatch, judge, "grid", marks_dispute_paired=False)
    wrong = _wrong(look, image, labels)
    assert wrong == [(0, 0), (3, 2)]
    assert all(labels[r][c] == 5 for r, c in wrong)
