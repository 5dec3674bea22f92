"""Robot Master grid: bare cells in a window's reflection across a glass table. Calibration takes
such glass for a mat (its bare cells matched no one colour of the patches around), and a band of
cells lies brighter or darker than the mat cells nearest them by more than the brightness ratio,
hue and texture alike (third art t1, d2301, d2310, g2483: 24 grids declined). The band crosses
the table around the area too: a smooth, inkless cell showing a patch's colour is "shaded",
bare when the nearest calibration example says empty too; a card or a hand is not."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_empty_table_shades import _card, _plain
from vision import grid
from vision.grid import empty
from vision.thresholds import section

GLASS = (46, 40, 34)  # smoked glass (BGR, white-balanced)
BAND = (104, 94, 84)  # the same glass in the window's reflection
SKIN = (80, 100, 150)


def _look() -> grid.GridLook:
    # calibration saw the glass under the area, out of the band
    return grid.GridLook(bare_mode="mat", bare=np.array([GLASS, GLASS], np.float32),
                         bare_texture=5.0)


def _read() -> tuple[dict[int, float], dict[int, float]]:
    # the band crosses a third of the patches around the area
    table = [_plain(BAND if k % 3 == 0 else GLASS, k) for k in range(18)]
    cells = [_plain(GLASS, 100), _plain(GLASS, 101), _plain(GLASS, 102),
             _plain(BAND, 103), _plain(SKIN, 104), _card(105)]
    shaded: dict[int, float] = {}
    sure = grid.surely_empty(cells, list(range(6)), table, _look(), shaded=shaded)
    return sure, shaded


def test_a_cell_in_the_band_is_shaded_and_a_hand_or_card_is_not() -> None:
    sure, shaded = _read()
    assert set(sure) == {0, 1, 2}  # the glass as calibration saw it
    assert set(shaded) == {3}
    assert 0.5 <= shaded[3] <= 1.0


def test_without_the_rule_the_band_is_not_shaded(monkeypatch: pytest.MonkeyPatch) -> None:
    # (the glare rule off too: the band is also the glass plus white light, which that rule
    # shades on its own, see test_grid_bare_glare.py)
    real = dict(section("grid"))
    monkeypatch.setattr(empty, "section",
                        lambda name: {**real, "mat_table_shades": False, "mat_glare": False}
                        if name == "grid" else section(name))
    assert _read()[1] == {}
