"""Own art 49002 g020: five tilted 5s on pip cards, the 4's templates a little ahead of the 5's
(0.02-0.03), the nearest calibration card a 5, the prints laid on each card saying 5 by
0.15-0.22 (under the 0.25 reading the second value alone asks), and the card's middle pip
ruling the 4 out (:func:`vision.grid.middle.middle_doubt`). Three witnesses against a slim lead
of the templates read the 5 (``middle_reads_second``)."""

from __future__ import annotations

import pytest

from tests.vision.redrawn_grid import assert_every_cell_read, redrawn_own_grid
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.dataset import Example
from vision.grid import judge


@pytest.fixture(scope="module")
def own49002(tmp_path_factory: pytest.TempPathFactory) -> tuple[grid.GridLook, Example]:
    """The set's calibration, learnt, and its test picture g020.png."""
    return redrawn_own_grid(tmp_path_factory.mktemp("own49002"), 49002, "g020.png")


def _fives(look: grid.GridLook, example: Example) -> list[tuple[int | None, bool]]:
    """Each labelled 5's reading: (value, whether read at all)."""
    obs = grid.read_grid(example.image, look)
    return [(obs.cells[r][c], obs.confidence[r][c] > 0)
            for r in range(5) for c in range(5) if example.grid[r][c] == 5]


def test_tilted_5s_the_4_leads_by_a_little_are_read_on_three_witnesses(
        own49002: tuple[grid.GridLook, Example], monkeypatch: pytest.MonkeyPatch) -> None:
    look, g020 = own49002
    assert_every_cell_read(look, g020.image, g020.grid)
    # (and without the rule, as before: every 5 asked, none read as another value)
    set_thresholds(monkeypatch, judge, "grid", middle_reads_second=False)
    fives = _fives(look, g020)
    assert len(fives) == 5 and not any(read for _, read in fives)
