"""A card every other rule declined, on a look whose marks lie inside its middle, is read by its
marks at `[grid]` `marks_inside_fuller_lead` when the value they name holds about as much ink as
the runner-up or more (marks.sparser); a sparser value still needs `marks_inside_min_lead`.

Fading (blur, glare) takes ink away and never adds any, so a faded card reads as a value with
less ink: hard g2648h's faded 4 read as 1 (test_grid_marks_inside_lead) was such a reading.

Blind third art g2815 (seven-segment digits, sharp, on a dark table): every value's templates
fit each card within 0.05, and the marks read the cards. In g006 the turned 4 in the middle
row's second cell led the 1 by 0.30 in its marks, short of 0.33, and the cells around it were
asked with it. A 4 holds more ink than a 1: it is now read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.vision.redrawn_grid import assert_cell_asked, assert_every_cell_read, redrawn_grid
from tests.vision.thresholds_patch import set_thresholds
from vision.grid import GridLook, judge
from vision.grid.look import Grid
from vision.grid.marks import sparser, value_ink

CELL = (2, 1)

#: seven segments (a-g) drawn on a 12x20 panel: where each lights
SEGMENTS = {"a": (slice(1, 3), slice(2, 10)), "b": (slice(2, 10), slice(9, 11)),
            "c": (slice(10, 18), slice(9, 11)), "d": (slice(17, 19), slice(2, 10)),
            "e": (slice(10, 18), slice(1, 3)), "f": (slice(2, 10), slice(1, 3)),
            "g": (slice(9, 11), slice(2, 10))}
DIGITS = {0: "abcdef", 1: "bc", 2: "abdeg", 3: "abcdg", 4: "bcfg", 5: "acdfg"}


def _look(ink: float, panel: float) -> GridLook:
    """A look whose marks are seven-segment digits of level ``ink`` on a ``panel``."""
    means = np.full((6, 20, 12), panel, np.uint8)
    for value, lit in DIGITS.items():
        for segment in lit:
            means[value][SEGMENTS[segment]] = ink
    differ = (means.max(axis=0) != means.min(axis=0)).astype(np.uint8) * 255
    return GridLook(mark_means=means, mark_values=np.arange(6), mark_boxes=np.array(
        [[0, 20, 0, 12]], np.int32), mark_mask=differ)


@pytest.mark.parametrize(("ink", "panel"), [(220, 30), (20, 240)])
def test_sparser_is_a_value_with_much_less_ink(ink: float, panel: float) -> None:
    # bright segments on a dark panel, and dark ones on paper: the ink's way is the print's
    look = _look(ink, panel)
    held = value_ink(look)
    assert held[1] < held[4] < held[3] < held[0]
    assert sparser(look, 1, 4) and sparser(look, 1, 0) and sparser(look, 1, 3)
    assert not sparser(look, 4, 1) and not sparser(look, 0, 1)
    # 2, 3 and 5 light five segments each: none is sparser than another
    assert not any(sparser(look, a, b) for a in (2, 3, 5) for b in (2, 3, 5) if a != b)
    # a value the look never learnt asks the stricter lead, and so does a look whose means
    # show no ink to weigh (every value alike: no marks)
    assert sparser(look, 1, 7)
    blank = GridLook(mark_means=np.full((6, 20, 12), panel, np.uint8), mark_values=np.arange(6),
                     mark_boxes=np.array([[0, 20, 0, 12]], np.int32),
                     mark_mask=np.zeros((20, 12), np.uint8))
    assert sparser(blank, 4, 1)


@pytest.fixture(scope="module")
def dark_table(tmp_path_factory: pytest.TempPathFactory) -> tuple[GridLook, np.ndarray, Grid]:
    """g2815's calibration learnt again and its sixth grid picture, drawn again."""
    return redrawn_grid(Path(tmp_path_factory.mktemp("g2815")), 2815, "g006.jpg")


def test_every_cell_is_read(dark_table: tuple[GridLook, np.ndarray, Grid]) -> None:
    look, image, truth = dark_table
    assert truth[CELL[0]][CELL[1]] == 4
    assert_every_cell_read(look, image, truth)


def test_at_the_lead_sparser_values_need_the_four_was_asked(
        dark_table: tuple[GridLook, np.ndarray, Grid], monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, _ = dark_table
    set_thresholds(monkeypatch, judge, "grid",
                   marks_inside_fuller_lead=float(judge.section("grid")["marks_inside_min_lead"]))
    assert_cell_asked(look, image, CELL, 4)
