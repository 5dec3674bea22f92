"""Robot Master grid, a shadow's edge across the table: the table patches around the area left
out as foreign that show the table's colour under other light (``table_lit_otherwise``) are
shades of the table, not something foreign over it.

Own art 34 g017 (the lit bottom row 1.7 times as bright as the shaded patches kept) and gate
14's own 19001 g035 (the shaded bottom rows at 0.57 of the lit patches kept) declined every bare
cell there: the patches under the cells' own light had been left out as foreign, the cells
failed the brightness ratio against the others, and a cell looking like those patches was
taken for something foreign.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from tests.vision.test_grid_empty_table_shades import _reads_every_cell
from vision import grid
from vision.calibration import Calibration
from vision.grid import Grid, empty, reader
from vision.synth import calibration_examples
from vision.synth.scenes import Style

TABLE = (170, 153, 236)  # a pink table, lit (BGR, white-balanced)
SHADE = (104, 93, 144)  # the same in a shadow: 0.61 as bright, the same shares
TAN_HAND = (92, 92, 157)  # skin nearly the table's colour (0.038 off its shares), as dark


def _plain(bgr: tuple[int, int, int], seed: int, noise: float = 2.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patch = np.full((64, 48, 3), bgr, np.float32) + rng.normal(0.0, noise, (64, 48, 3))
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def test_only_the_table_under_other_light_is_lit_otherwise() -> None:
    usual = [_plain(TABLE, k) for k in range(11)]
    rough = _plain(SHADE, 21)
    rough[::4] = 20  # lines across it: rougher than the table
    unusual = [_plain(SHADE, 20), _plain(TAN_HAND, 22), rough]
    assert list(empty.lit_otherwise(unusual, usual)) == [True, False, False]


def test_a_shaded_bare_cell_is_shaded_with_the_lit_patches_only() -> None:
    table = [_plain(TABLE, k) for k in range(11)]
    cells = [_plain(TABLE, 100), _plain(SHADE, 101), _plain(TAN_HAND, 102)]
    shaded: dict[int, float] = {}
    assert set(grid.surely_empty(cells, [0, 1, 2], table, shaded=shaded)) == {0}
    assert shaded == {}  # no patch kept shows the shade
    lit = empty._stats([_plain(SHADE, 20)])[1]
    shaded = {}
    assert set(grid.surely_empty(cells, [0, 1, 2], table, shaded=shaded, lit=lit)) == {0}
    assert set(shaded) == {1}  # the hand shows a colour no patch shows


def test_without_the_rule_nothing_is_lit_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    grid_section = dict(empty.section("grid"))
    grid_section["table_lit_otherwise"] = False
    monkeypatch.setattr("vision.grid.empty.section", lambda name: grid_section)
    usual = [_plain(TABLE, k) for k in range(11)]
    assert not empty.lit_otherwise([_plain(SHADE, 20)], usual).any()


def _shadowed(config: Config, style: Style) -> tuple[np.ndarray, Grid]:
    """A grid picture (11 bare cells) whose lower 35% lies in a shadow, 0.6 as bright: the
    shadow's edge runs across the area and the table beside it."""
    examples = [e for e in calibration_examples(style, config, np.random.default_rng(61),
                                                per_kind=3) if e.kind == "grid"]
    image, labels = examples[2].image, examples[2].grid
    assert labels is not None
    shadowed = image.astype(np.float32)
    shadowed[int(0.65 * image.shape[0]):] *= 0.6
    return shadowed.astype(np.uint8), labels


def test_bare_cells_in_a_shadow_read_empty(
        config: Config, table_style: tuple[Style, Calibration]) -> None:
    """Every cell reads right, none declined (on main a5d4c3d the 11 bare cells were all
    declined)."""
    style, calibration = table_style
    _reads_every_cell(calibration, *_shadowed(config, style))


def test_without_the_rule_the_shadow_is_declined(
        monkeypatch: pytest.MonkeyPatch, config: Config,
        table_style: tuple[Style, Calibration]) -> None:
    style, calibration = table_style
    image, labels = _shadowed(config, style)
    grid_section = dict(empty.section("grid"))
    grid_section["table_lit_otherwise"] = False
    monkeypatch.setattr("vision.grid.empty.section", lambda name: grid_section)
    obs, _ = reader.read_grid_region(image, calibration.grid)
    declined = sum(c == 0 for row in obs.confidence for c in row)
    assert declined > 0
    for r in range(5):  # and nothing is read wrong
        for c in range(5):
            if obs.confidence[r][c] > 0:
                assert obs.cells[r][c] == labels[r][c]
