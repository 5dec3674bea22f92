"""Robot Master grid, bare-surface round: on a table, the patches around the area a cell's
colour is taken from must show the table's colour with their medians at the plain tolerance
(``table_patches_plain_tolerance``), however far the table's noise widened the tolerance for
pixels.

Other art 12011 (gate 8): a dark felt mat larger than the area, its noise widening the colour
tolerance to 0.07; the patches along one side reached past the mat's edge onto a blue cloth,
whose medians lay 0.043-0.068 from the felt's colour, so they passed for the table. The bare
cells along that side were held to the cloth, were nearer a card's colour (a pink 0) than to
it, and were declined, and their neighbours with them: 7 of 20 clean grids asked.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid
from vision.thresholds import section

FELT = np.array((89, 94, 100), np.float32)  # white-balanced (BGR), as in other art 12011
CLOTH = np.array((128, 106, 98), np.float32)  # the blue cloth past the felt's edge
PINK = np.array((236, 137, 232), np.float32)  # a colour-coded 0, as calibration saw it


def _patch(colour: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # felt in a dim picture: noise in every channel (it widens the tolerance to its maximum)
    patch = colour[None, None, :] + rng.normal(0.0, 10.0, (64, 48, 3)).astype(np.float32)
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _look() -> grid.GridLook:
    look = grid.GridLook()
    look.bare_mode = "table"
    look.bare = np.array([FELT], np.float32)
    look.bare_texture = float(grid.table._stats([_patch(FELT, 900)])[2][0])
    # the card colours calibration learnt on other art 12011 (colour keys) and their spreads
    look.value_colours = np.array([[91.5, 84.9, 123.1, 27.3], [73.2, 113.2, 113.1, 30.9],
                                   [83.5, 137.9, 78.1, 26.2], [115.4, 115.0, 69.1, 31.2],
                                   [138.1, 82.6, 78.7, 26.1], [115.5, 67.6, 116.4, 30.7]],
                                  np.float32)
    look.value_spread = np.array([4.2, 4.2, 4.3, 4.3, 4.5, 4.3], np.float32)
    return look


def _scene() -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """25 bare felt cells but a pink 0 in (0, 2); 18 patches around the area, the five above
    it on the cloth."""
    cells = [_patch(FELT, k) for k in range(25)]
    cells[2] = _patch(PINK, 50)
    table: list[np.ndarray] = []
    at: list[tuple[float, float]] = []
    for k in range(5):
        table.append(_patch(CLOTH, 100 + k))
        at.append((k + 0.5, -0.8))
        table.append(_patch(FELT, 200 + k))
        at.append((k + 0.5, 5.8))
        if k < 4:
            table.append(_patch(FELT, 300 + k))
            at.append((-0.8, k + 0.5))
            table.append(_patch(FELT, 400 + k))
            at.append((5.8, k + 0.5))
    return cells, table, np.array(at, np.float32)


def _sure(monkeypatch: pytest.MonkeyPatch, on: bool) -> dict[int, float]:
    monkeypatch.setitem(section("grid"), "table_patches_plain_tolerance", on)
    cells, table, at = _scene()
    return grid.surely_empty(cells, list(range(25)), table, _look(), at)


def test_bare_cells_beside_the_table_past_a_mats_edge_are_empty(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sure = _sure(monkeypatch, True)
    assert set(sure) == set(range(25)) - {2}
    # before: the cells of row 0 held to the cloth above them alone were refused
    before = _sure(monkeypatch, False)
    assert not {1, 3} & set(before)


def test_a_card_beside_the_table_past_a_mats_edge_is_still_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert 2 not in _sure(monkeypatch, True)


MINT = np.array((199, 244, 201), np.float32)  # a printed mat (other art 12154), white-balanced
PURPLE = np.array((211, 149, 228), np.float32)  # the cloth past its ends


def _pale(colour: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patch = colour[None, None, :] + rng.normal(0.0, 22.0, (64, 48, 3)).astype(np.float32)
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def test_patches_of_two_surfaces_half_and_half_are_taken_as_before(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The patches' median between a mat's sides and the cloth past its ends (half and half):
    none shows it at the plain tolerance, and each cell takes the patches nearest to it, as
    before (other art 12154 g001: a bare cell at the mat's side was declined without this)."""
    table: list[np.ndarray] = []
    at: list[tuple[float, float]] = []
    for k in range(5):
        sides = [(-0.8, k + 0.5)] + ([(5.8, k + 0.5)] if k < 4 else [])
        ends = [(k + 0.5, -0.8)] + ([(k + 0.5, 5.8)] if k < 4 else [])
        for colour, where in ((MINT, sides), (PURPLE, ends)):
            for xy in where:
                table.append(_pale(colour, len(table)))
                at.append(xy)
    cells = [_pale(MINT, 500 + k) for k in range(25)]
    found = []
    for on in (True, False):
        monkeypatch.setitem(section("grid"), "table_patches_plain_tolerance", on)
        # (no calibration look: the patches are all the table there is)
        found.append(grid.surely_empty(cells, list(range(25)), table, None,
                                       np.array(at, np.float32)))
    assert found[0] == found[1]
    assert {10, 14} <= set(found[0])  # the middle of each side, beside the mat's patches
