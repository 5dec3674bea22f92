"""A card whose close call the pairwise step settled, declined only for a third value near the
best two, is read by its marks inside its middle at `[grid]` `marks_inside_paired_lead` when they
name the same two values the same way (judge._marked's ``pair``).

Third art g2687 (seven-segment digits): every value's templates fit each card 0.9 or more. The 4
in g005's top row led the 1 by 0.03 in the templates, by 0.40 when the two prints were laid on
the card (the pairwise step), and by 0.33 in the marks; a 5 lay 0.04 behind, so the close call
was declined (a third value near: _third_alike), and the marks' lead fell short of the 0.33 asked
of marks alone. The faded 4s hard g2648h read as 1 by their marks (test_grid_marks_inside_lead)
had prints that said 1 by 0.01 or 4 by 0.01: never settled, so they still need 0.33.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.redrawn_grid import assert_cell_asked, assert_every_cell_read, redrawn_grid
from tests.vision.thresholds_patch import set_thresholds
from vision.grid import GridLook, judge, learning
from vision.grid.look import Grid

CELL = (0, 2)


@pytest.fixture(scope="module")
def segments(tmp_path_factory: pytest.TempPathFactory) -> tuple[GridLook, np.ndarray, Grid]:
    """g2687's calibration learnt again and its fifth grid picture, drawn again, the corrections
    its cards' boxes split kept, as when the case was found (learning._cards_split now drops
    them, and the 4 is then read at either lead)."""
    with pytest.MonkeyPatch.context() as mp:
        set_thresholds(mp, learning, "grid", calibration_cards_centred=0.0)
        return redrawn_grid(Path(tmp_path_factory.mktemp("g2687")), 2687, "g005.jpg")


def test_every_cell_is_read(segments: tuple[GridLook, np.ndarray, Grid]) -> None:
    look, image, truth = segments
    assert truth[CELL[0]][CELL[1]] == 4
    assert_every_cell_read(look, image, truth)


def test_at_the_lead_marks_alone_need_the_four_was_asked(
        segments: tuple[GridLook, np.ndarray, Grid], monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, _ = segments
    # (a 4 holds more ink than a 1, so marks_inside_fuller_lead reads it too: both are set to
    # the lead marks alone need, to show what this rule reads)
    least = float(judge.section("grid")["marks_inside_min_lead"])
    set_thresholds(monkeypatch, judge, "grid", marks_inside_paired_lead=least,
                   marks_inside_fuller_lead=least)
    assert_cell_asked(look, image, CELL, 4)
