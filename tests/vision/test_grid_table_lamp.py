"""Robot Master grid: a lamp's bright patch on a wooden table inside the area (blind third art
g2609 g014, g2604 g018; g2581 g020). The table patches round the area, which the lamp does not
reach, set the colour a bare cell must show, and the lit cells lay past their brightness ratio;
the wood grain's contrast grew with the light, past the texture limit too. On a mat, a lamp's
band is stepped over from a bare cell beside it (empty._lamp_steps); on a table the same steps
now take such cells, their texture judged as if at the table's own light, where their median
shows the table's hue."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_bare_glare import _off
from vision import grid
from vision.grid import empty
from vision.grid.table import _stats

WOOD = np.array((40.0, 60.0, 90.0))  # a dark orange-brown table, white-balanced (BGR)
# the lamp's fall-off along a row of bare cells: each within mat_lamp_brighter of the last
LIGHT = (1.0, 1.25, 1.55, 1.9, 2.3)


def _wood(seed: int, light: float = 1.0, hue: np.ndarray = WOOD) -> np.ndarray:
    """The table under ``light`` times the lamp: the grain (one shade across the channels)
    brightens with it."""
    rng = np.random.default_rng(seed)
    grain = rng.normal(0.0, 5.0, (64, 48, 1)) + rng.normal(0.0, 1.0, (64, 48, 3))
    patch = (hue + grain) * light
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _sure(cells: list[np.ndarray]) -> set[int]:
    table = [_wood(100 + k) for k in range(16)]
    return set(grid.surely_empty(cells, list(range(len(cells))), table))


def test_a_lamps_patch_is_stepped_over_from_the_bare_cells_beside_it() -> None:
    cells = [_wood(k, light) for k, light in enumerate(LIGHT)]
    # the case: the brightest cells are past the table's brightness ratio and rougher than
    # its texture limit
    texture = _stats(cells)[2]
    table_texture = float(np.median(_stats([_wood(100 + k) for k in range(16)])[2]))
    assert texture[4] > empty._texture_limit(table_texture)
    assert _sure(cells) == set(range(5))


def test_without_the_rule_the_lit_cells_are_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, table_lamp_steps=False)
    cells = [_wood(k, light) for k, light in enumerate(LIGHT)]
    assert _sure(cells) == {0, 1}


def test_a_lit_cell_of_another_hue_is_not_stepped_to() -> None:
    # a hand's skin, a little pinker than the wood (its shares 0.03 off, within the pixels'
    # tolerance of 0.04), under the lamp beside a bare cell: the step asks the table's hue of
    # its median, within empty_median_hue (0.025)
    skin = np.array((46.0, 60.0, 84.0))
    cells = [_wood(k, light) for k, light in enumerate(LIGHT[:3])] + [_wood(3, 1.9, skin)]
    assert 3 not in _sure(cells)
