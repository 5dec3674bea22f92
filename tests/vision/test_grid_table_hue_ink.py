"""Robot Master grid: prints in colour on a table (blind third art g2603h g007). Pale cards of
the table's own hue, a little brighter in a dim picture, showed in their middles only one or two
orange pips, no darker than the table's grain: they passed every test of the bare table (0.52 to
0.78), and the grid was read with three cards missing. A middle whose colour strays from its own
median over more than a sliver holds a print, on a table as on a mat (empty._hue_ink); on a table
the middle is blurred by a pixel first, so that a dim picture's noise, which strays in hue pixel by
pixel, is not taken for one."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_grid_bare_glare import _off
from vision import grid
from vision.grid import empty

TABLE = (169, 184, 196)  # a grey-brown table in dim light, white-balanced (BGR)
CARD = (186, 202, 216)  # the cards' paper: the table's hue, a tenth brighter
PIP = (70, 130, 225)  # an orange pip: brighter than 0.6 of the table, no ink by darkness


def _grainy(bgr: tuple[int, int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patch = np.full((64, 48, 3), bgr, np.float32) + rng.normal(0.0, 3.0, (64, 48, 3))
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _speckled(bgr: tuple[int, int, int], seed: int, share: float = 0.03) -> np.ndarray:
    """A dim picture's sensor noise: a little grain, and a few pixels far off in one channel."""
    rng = np.random.default_rng(seed)
    patch = np.full((64, 48, 3), bgr, np.float32) + rng.normal(0.0, 3.0, (64, 48, 3))
    hot = rng.random((64, 48)) < share
    channel = rng.integers(0, 3, (64, 48))
    patch[hot, channel[hot]] += 45.0 * rng.choice([-1.0, 1.0], (64, 48))[hot]
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _card(pips: list[tuple[int, int]], seed: int, radius: int = 4) -> np.ndarray:
    cell = _grainy(CARD, seed)
    for x, y in pips:
        cv2.circle(cell, (x, y), radius, PIP, -1, cv2.LINE_AA)
    return cell


def _ones_and_twos() -> list[np.ndarray]:
    """Two 1s and a 2 (g007: its pips smaller, or half out of the middle)."""
    return [_card([(24, 32)], 40), _card([(11, 13), (37, 51)], 41, radius=3),
            _card([(24, 32)], 42)]


def _sure(cells: list[np.ndarray], table: list[np.ndarray]) -> set[int]:
    return set(grid.surely_empty(cells, list(range(len(cells))), table))


def test_a_coloured_pip_on_a_card_of_the_tables_hue_is_a_print() -> None:
    table = [_grainy(TABLE, 100 + k) for k in range(12)]
    cards = _ones_and_twos()
    # the pips are no darker than the ink test asks
    assert np.asarray(PIP).sum() > 0.6 * np.asarray(TABLE).sum()
    bare = [_grainy(TABLE, k) for k in range(5)]
    assert _sure(bare + cards, table) == set(range(5))


def test_without_the_rule_the_cards_pass_for_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, table_hue_ink=False)
    table = [_grainy(TABLE, 100 + k) for k in range(12)]
    bare = [_grainy(TABLE, k) for k in range(5)]
    assert _sure(bare + _ones_and_twos(), table) == set(range(8))


def test_a_dim_pictures_noise_is_no_print() -> None:
    # a dark table, a few of its pixels far off in one channel: unblurred, its hue strays
    # over more than the sliver a print is asked to; blurred by a pixel, it does not
    dark = (52, 58, 64)
    table = [_speckled(dark, 200 + k) for k in range(12)]
    bare = [_speckled(dark, k) for k in range(6)]
    stats = grid.table._stats(bare)[0]
    assert (empty._hue_ink(stats) > 0.012).all()
    assert (empty._hue_ink(empty._blurred_middles(bare)) <= 0.012).all()
    assert _sure(bare, table) == set(range(6))
