"""Robot Master grid: bare cells under a lamp's hot spot on the table (third art g2529 g012,
e2408 g012, g2464 g014, g2502 g011, g2511 g006 and g019, t3 g020, g2456 g018: 8 clean grids
declined for such cells). The picture is white-balanced on the markers' paper, and the hot spot is
brighter than that paper: the cells under it reach 255 in their brighter channels (a warm wood's
green and red) while blue still follows the light, so their colour moves towards white, past every
tolerance of a shade. Such a cell shows the table's colour times a factor, clipped: "shaded", bare
when the nearest calibration example says empty too (empty._hot_shades). A cell clipped in every
channel (white paper clips so too), or whose unclipped channels do not follow the table, is not."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_bare_glare import _off
from tests.vision.test_grid_empty_table_shades import _card, _plain
from vision import grid
from vision.grid import empty

WOOD = (110, 159, 199)  # g2529's table near the hot spot, balanced (BGR)
HOT = (189, 255, 255)  # a bare cell under it (g2529 g012, cell 0): 1.72 times the wood's blue
WHITE = (255, 255, 255)  # clipped in every channel: paper or table, nothing tells
PALE = (120, 255, 255)  # green and red clipped, but 1.09 times the wood's blue cannot clip them


def test_the_table_under_more_light_clipped_is_a_hot_spot() -> None:
    medians = np.array([HOT, WHITE, PALE, WOOD, (140, 200, 255), (60, 255, 255)], np.float32)
    refs = np.broadcast_to(np.array(WOOD, np.float32), medians.shape)
    shades = empty._hot_shades(medians, refs, np.ones(len(medians), bool), None)
    # the hot cell; (140, 200, 255): 1.27 times the wood's blue and green, red clipped where
    # the wood's red times that is 251. Not: white, PALE, the wood itself (nothing clipped:
    # the usual tests judge it), a cell darker than the wood in blue
    assert set(shades) == {0, 4}


def _read() -> dict[int, float]:
    look = grid.GridLook(bare_mode="table", bare_texture=5.0)
    table = [_plain(WOOD, k) for k in range(18)]  # the hot spot misses the table around
    cells = [_plain(WOOD, 100), _plain(WOOD, 101), _plain(HOT, 102), _plain(WHITE, 103),
             _plain(PALE, 104), _card(105)]
    shaded: dict[int, float] = {}
    sure = grid.surely_empty(cells, list(range(6)), table, look, shaded=shaded)
    assert set(sure) == {0, 1}
    return shaded


def test_a_cell_in_a_hot_spot_is_shaded_and_paper_or_a_card_is_not() -> None:
    assert _read() == {2: 0.5}


def test_without_the_rule_the_hot_spot_is_not_shaded(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, table_hot=False)
    assert _read() == {}


def test_a_white_out_is_asked_of_the_hot_spot_witness_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a cell clipped white in every channel goes to the hot spot's edge witness
    # (reader._hot_bare, table_hot_white_out), never to the shades the nearest calibration
    # example alone may take: white paper clips so too
    look = grid.GridLook(bare_mode="table", bare_texture=5.0)
    table = [_plain(WOOD, k) for k in range(18)]
    cells = [_plain(WOOD, 100), _plain(WOOD, 101), _plain(WHITE, 103)]
    shaded: dict[int, float] = {}
    hot: dict[int, float] = {}
    grid.surely_empty(cells, [0, 1, 2], table, look, shaded=shaded, hot=hot)
    assert 2 in hot and 2 not in shaded
    _off(monkeypatch, table_hot_white_out=False)
    shaded.clear()
    hot.clear()
    grid.surely_empty(cells, [0, 1, 2], table, look, shaded=shaded, hot=hot)
    assert 2 not in hot and 2 not in shaded
