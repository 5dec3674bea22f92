"""A table's bare cell under a lamp's white-out, clipped white in every channel, is asked of the
hot-spot witness (`[grid]` `table_hot_white_out`; empty._white_outs, reader._hot_bare): its
colour tells nothing, but a card there would still show its print and outline, and the witness
asks the whole cell for those. It is never a shade of the table on the nearest calibration
example's word alone. Table patches around the area clipped white in every channel
are the lamp, not a hand reaching in, for that witness (`hot_bare_white_foreign`).

Third art g2673 (batch 26): a lamp whites out the bottom left of the area. In g003, cells (3, 0),
(4, 0) and (4, 1) are bare and clipped at 246-255 in every channel; they were asked, and the bare
cells beside them with them. (3, 0) lies nearest a patch of the table at 249, 255, 255, which was
left out as foreign.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import cv2
import numpy as np
import pytest

from tests.vision.redrawn_grid import assert_every_cell_read, redrawn_grid
from tests.vision.thresholds_patch import set_thresholds
from vision import grid
from vision.grid import empty, reader
from vision.grid.look import GridLook

WHITE_OUT = [(3, 0), (4, 0), (4, 1)]
Lamp = tuple[GridLook, np.ndarray, list[list[int | None]]]


@pytest.fixture(scope="module")
def lamp(tmp_path_factory: pytest.TempPathFactory) -> Lamp:
    """g2673's calibration, learnt again, and its third grid picture, drawn again."""
    return redrawn_grid(Path(tmp_path_factory.mktemp("g2673")), 2673, "g003.jpg")


def test_every_cell_is_read(lamp: Lamp) -> None:
    look, image, truth = lamp
    assert look.bare_mode == "table"
    for r, c in WHITE_OUT:
        assert truth[r][c] is None
    assert_every_cell_read(look, image, truth)


@pytest.mark.parametrize(("module", "switch"), [
    (empty, "table_hot_white_out"),  # without the rule
    (reader, "hot_bare_witness"),  # without the edge witness: it rests on that alone
])
def test_without_the_rule_or_its_witness_the_white_out_is_asked(
        lamp: Lamp, monkeypatch: pytest.MonkeyPatch, module: ModuleType, switch: str) -> None:
    look, image, _ = lamp
    set_thresholds(monkeypatch, module, "grid", **{switch: False})
    obs = grid.read_grid(image, look)
    for r, c in WHITE_OUT:
        assert obs.confidence[r][c] <= 0 and obs.cells[r][c] is None, (r, c)


def test_the_lamp_around_the_area_is_no_hand_over_it(lamp: Lamp,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    look, image, _ = lamp
    set_thresholds(monkeypatch, reader, "grid", hot_bare_white_foreign=False)
    obs = grid.read_grid(image, look)
    assert obs.confidence[3][0] <= 0 and obs.cells[3][0] is None


def test_a_card_print_in_the_white_out_is_never_read_bare(lamp: Lamp) -> None:
    look, image, _ = lamp
    printed = image.copy()
    # a dark numeral where cell (4, 0) lies in this picture (its middle at about 492, 564)
    cv2.putText(printed, "5", (480, 578), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (60, 60, 60), 3)
    obs = grid.read_grid(printed, look)
    assert obs.confidence[4][0] <= 0 or obs.cells[4][0] is not None
