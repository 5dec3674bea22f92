"""A Robot Master play area drawn straight in the canonical frame, for the grid reader's tests:
grey cells (cards laid in them) inside the reader's template margin."""

from __future__ import annotations

import numpy as np

from vision import grid


def area(cards: dict[tuple[int, int], np.ndarray]) -> np.ndarray:
    """The grey area (5x5 cells and ``grid.MARGIN`` around, level 90) with each card (a
    cell-sized grey image) laid in its (row, column)."""
    w, h = grid._cell_size()
    g = np.full((5 * h + 2 * grid.MARGIN, 5 * w + 2 * grid.MARGIN), 90, np.uint8)
    for (r, c), card in cards.items():
        y, x = grid.MARGIN + r * h, grid.MARGIN + c * w
        g[y:y + h, x:x + w] = card
    return g
