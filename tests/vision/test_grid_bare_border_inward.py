"""Robot Master grid: a mat that ends inside the area's outer cells (third art g2476 g015: the
table along the lower fifth of a corner cell; g2546 g002, g011: the table and a marker's corner).
The strip along the area's edge lay in the bare cells' middles, and they were declined, with
every empty cell joined to them. Judged again with their crop moved a little towards the
area's middle, they are bare; a card there, or a cell not on the border, is judged as before."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_empty_table_shades import _card, _plain
from vision import grid
from vision.grid import reader
from vision.thresholds import section

CALIBRATION_MAT = np.array([(196, 205, 212), (190, 200, 208)], np.float32)
MAT = (194, 204, 211)
TABLE = (45, 38, 33)


def _area(cards: dict[int, np.ndarray]) -> np.ndarray:
    """The white-balanced area with 4 pixels around (reader._warp): 5 x 5 cells of mat, the
    mat ending 14 pixels (a fifth of a cell) short of the area's lower edge and 11 short of its
    right, the table beyond; ``cards`` laid on their cells."""
    h, w = 64, 48
    area = np.zeros((5 * h + 8, 5 * w + 8, 3), np.uint8)
    for i in range(25):
        r, c = divmod(i, 5)
        area[4 + r * h:4 + (r + 1) * h, 4 + c * w:4 + (c + 1) * w] = \
            cards.get(i, _plain(MAT, 300 + i))
    area[4 + 5 * h - 14:, :] = _plain(TABLE, 1)[0, 0]
    area[:, 4 + 5 * w - 11:] = _plain(TABLE, 2)[0, 0]
    return area


def _cells(area: np.ndarray) -> list[np.ndarray]:
    return [area[4 + r * 64:4 + (r + 1) * 64, 4 + c * 48:4 + (c + 1) * 48]
            for r in range(5) for c in range(5)]


def _read(area: np.ndarray, card_like: list[bool]) -> tuple[set[int], set[int]]:
    """The cells taken as bare as before, and those the moved crops add."""
    look = grid.GridLook(bare_mode="mat", bare=CALIBRATION_MAT, bare_texture=5.0)
    cells = _cells(area)
    sure = grid.surely_empty(cells, [i for i in range(25) if not card_like[i]], [], look)
    more = reader._bare_inward(area, cells, card_like, sure, [], look, None, None)
    return set(sure), set(more)


def test_bare_cells_along_the_mats_end_are_bare_judged_moved_in() -> None:
    cards = {12: _card(12), 22: _card(22)}
    before, more = _read(_area(cards), [i in cards for i in range(25)])
    # the lower row and the right column hold the table in their middle's outer strip
    edge = {4, 9, 14, 19, 20, 21, 23, 24}
    assert not before & edge
    assert more == edge
    assert 12 not in before | more and 22 not in before | more


def test_a_card_on_the_border_is_not_taken_for_bare() -> None:
    # a card in a border cell, not recognised as card-like, still shows its print moved in
    card = _card(21)
    _, more = _read(_area({21: card}), [False] * 25)
    assert 21 not in more


def test_without_the_rule_nothing_is_added(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dict(section("grid"))
    monkeypatch.setattr(reader, "section", lambda name: {**real, "bare_border_inward": 0.0}
                        if name == "grid" else section(name))
    _, more = _read(_area({}), [False] * 25)
    assert more == set()
