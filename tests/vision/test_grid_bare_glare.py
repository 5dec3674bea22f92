"""Robot Master grid: bare cells under a reflection across a dark glass table taken for a mat
(third art g2531: a band of light over the area's top row, its bare cells 3-4 times as bright as
the mat and their colour moved towards grey, past every tolerance of a shade or a lamp). Such a
cell shows the mat's colour times a factor plus white light: "shaded", bare when the nearest
calibration example says empty too (empty._glare_shades); white paper or a card is not."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_empty_table_shades import _card, _plain
from vision import grid
from vision.grid import empty
from vision.thresholds import section

GLASS = (57, 49, 44)  # g2531's dark glass as calibration learnt it (BGR)
GLARE = (156, 147, 137)  # a bare cell under the reflection (g2531 g004, cell 0)
WHITE = (255, 255, 255)  # white paper clipped by the exposure


def _off(monkeypatch: pytest.MonkeyPatch, **change: object) -> None:
    real = dict(section("grid"))
    monkeypatch.setattr(empty, "section",
                        lambda name: {**real, **change} if name == "grid" else section(name))


def test_the_mat_plus_white_light_is_glare_and_paper_is_not() -> None:
    medians = np.array([GLARE, GLASS, WHITE, (200, 150, 100), (90, 150, 200)], np.float32)
    shades = empty._glare_shades(medians, np.array(GLASS, np.float32), np.ones(5, bool))
    # the glare cell: 1.43 times the glass plus 74 grey levels, within 2.2; the glass itself
    # adds no white light (the usual tests judge it); clipped paper is 0 times the glass; a
    # coloured card is no multiple of it
    assert set(shades) == {0}
    # a grey mat is unchanged by white light: nothing is told by it
    grey = np.array((60, 60, 60), np.float32)
    assert empty._glare_shades(medians, grey, np.ones(5, bool)) == {}


def _read() -> tuple[dict[int, float], dict[int, float]]:
    look = grid.GridLook(bare_mode="mat", bare=np.array([GLASS, GLASS], np.float32),
                         bare_texture=5.0)
    table = [_plain(GLASS, k) for k in range(18)]  # the reflection misses the table around
    cells = [_plain(GLASS, 100), _plain(GLASS, 101), _plain(GLASS, 102),
             _plain(GLARE, 103), _plain(WHITE, 104), _card(105)]
    shaded: dict[int, float] = {}
    sure = grid.surely_empty(cells, list(range(6)), table, look, shaded=shaded)
    return sure, shaded


def test_a_cell_under_the_glare_is_shaded_and_paper_or_a_card_is_not() -> None:
    sure, shaded = _read()
    assert set(sure) == {0, 1, 2}
    assert shaded == {3: 0.5}


def test_without_the_rule_the_glare_is_not_shaded(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, mat_glare=False)
    assert _read()[1] == {}
