"""Robot Master grid: prints in colour on a pale mat, and a lamp's white-out over it (blind third
art g2586: pale cards with light blue pips on a cream mat printed with cell outlines). The ink
test asked for pixels darker than the mat, and a light blue pip is not: a 2 and a 3 whose
middles showed a pip or two passed every test as the mat in a full grid (0.72, 0.84), and a 1 in
a lamp's white-out, its paper and the mat both clipped white, was read as the mat at 0.90. A
middle whose colour strays from its own median over more than a sliver holds a print in colour
(empty._hue_ink), and a middle clipped white in every channel is the mat only where the cell
shows no edge a card's numeral and pips bring."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_grid_bare_glare import _off
from tests.vision.test_grid_empty_table_shades import _plain
from vision import grid
from vision.grid import empty

CALIBRATION_MAT = np.array([(203, 212, 219), (215, 226, 233)], np.float32)
MAT = (210, 220, 228)  # the cream mat, white-balanced (BGR)
CARD = (214, 224, 238)  # the cards' paper, a touch warmer
PIP = (215, 160, 70)  # a light blue pip: brighter than 0.6 of the mat, no ink by darkness


def _card(pips: list[tuple[int, int]], seed: int, paper: tuple[int, int, int] = CARD
          ) -> np.ndarray:
    cell = _plain(paper, seed)
    for x, y in pips:
        cv2.circle(cell, (x, y), 4, PIP, -1, cv2.LINE_AA)
    return cell


def _sure(cells: list[np.ndarray]) -> set[int]:
    look = grid.GridLook(bare_mode="mat", bare=CALIBRATION_MAT, bare_texture=11.0)
    return set(grid.surely_empty(cells, list(range(len(cells))), [], look))


def _full_grid() -> list[np.ndarray]:
    """Eight cells of cards, no bare mat among them (g2586 g016: a full grid): the cells that
    look like the mat are cards, and the mat's texture is taken from them."""
    pips = [[(24, 32)], [(18, 24), (30, 40)], [(16, 22), (24, 32), (32, 42)],
            [(16, 22), (32, 22), (16, 42), (32, 42)]]
    return [_card(pips[k % 4], 30 + k) for k in range(8)]


def test_a_light_pip_in_the_middle_is_a_print() -> None:
    cells = _full_grid()
    # the pips are no darker than the ink test asks
    assert np.asarray(PIP).sum() > 0.6 * np.asarray(MAT).sum()
    assert (empty._hue_ink(np.stack([c[12:52, 9:39].reshape(-1, 3) for c in cells]))
            > 0.012).all()
    assert _sure(cells) == set()
    # bare mat cells among them still are the mat
    assert _sure([_plain(MAT, k) for k in range(6)] + cells[:2]) == set(range(6))


def _white_card(seed: int) -> np.ndarray:
    """A white card in a lamp's white-out: its paper clips as the mat does; its numeral in the
    corner and its one pip, light blue, are all that show."""
    cell = _plain((255, 255, 255), seed)
    cv2.putText(cell, "1", (6, 14), cv2.FONT_HERSHEY_SIMPLEX, 0.35, (90, 40, 60), 1, cv2.LINE_AA)
    cv2.circle(cell, (24, 32), 2, (250, 225, 190), -1, cv2.LINE_AA)
    return cell


def test_a_white_out_is_the_mat_only_without_a_cards_edges() -> None:
    cells = [_plain(MAT, k) for k in range(6)] + [_plain((255, 255, 255), 20), _white_card(21)]
    assert _sure(cells) == set(range(7))


def test_without_the_rules_cards_pass_for_the_mat(monkeypatch: pytest.MonkeyPatch) -> None:
    _off(monkeypatch, mat_hue_ink=False, mat_white_out=False)
    assert _sure(_full_grid())
    cells = [_plain(MAT, k) for k in range(6)] + [_plain((255, 255, 255), 20), _white_card(21)]
    assert _sure(cells) == set(range(8))
