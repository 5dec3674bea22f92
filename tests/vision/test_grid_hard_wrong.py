"""Robot Master grid: a hand of nearly the table's colour over a card is not an empty cell
(other art h9332 g012: tan skin over a 1 and a 0 on a pine table read as empty cells at 0.97
and 0.93; h9502 g018: over a 2 on a pale mat, 1.0). Its pixels lie within what the grain
spreads the table's, and it shows no ink and less texture than the grain; but its whole middle
is shifted off the table's colour, which no bare cell's is, unless the light shifts them all."""

from __future__ import annotations

import numpy as np

from vision import grid

LIGHT_PINE = (146, 191, 219)  # the table's pale wood, white-balanced (BGR)
DARK_PINE = (112, 148, 192)  # its darker grain
TAN_HAND = (118, 139, 187)  # skin near the grain's colour, smooth


def _pine(seed: int, lamp: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """A cell-sized patch of grained pine: diagonal bands of the darker grain, a little noise;
    ``lamp`` tints it (a warmer lamp over one part of the table)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:64, 0:48]
    band = ((x + y + seed * 7) // 9) % 3 == 0
    patch = np.where(band[..., None], np.array(DARK_PINE, np.float32),
                     np.array(LIGHT_PINE, np.float32))
    patch = patch * np.array(lamp, np.float32) + rng.normal(0.0, 2.0, (64, 48, 3))
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _plain(bgr: tuple[int, int, int], seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patch = np.full((64, 48, 3), bgr, np.float32) + rng.normal(0.0, 2.0, (64, 48, 3))
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def test_a_hand_of_the_tables_colour_over_a_card_is_not_an_empty_cell() -> None:
    table = [_pine(k) for k in range(16)]
    cells = [_pine(100 + k) for k in range(3)] + [_plain(TAN_HAND, 200)]
    sure = grid.surely_empty(cells, [0, 1, 2, 3], table)
    assert set(sure) == {0, 1, 2}  # the bare pine cells are empty; the hand is asked


def test_a_lamp_that_shifts_every_bare_cell_alike_leaves_them_empty() -> None:
    # a plain table; the cells lie under a warmer lamp than the table around the area: each
    # one's middle strays from the table's as far as the hand's does, but they all stray alike
    table = [_plain(LIGHT_PINE, k) for k in range(16)]
    warm = (0.9, 0.95, 1.05)
    b, g, r = (round(c * f) for c, f in zip(LIGHT_PINE, warm, strict=True))
    tinted = (b, g, r)
    hue = np.array(tinted, np.float32)
    shift = np.abs(hue / hue.sum() - np.array(LIGHT_PINE) / sum(LIGHT_PINE)).max()
    assert shift > 0.025  # as far off the table's colour as the hand is
    cells = [_plain(tinted, 100 + k) for k in range(4)]
    assert set(grid.surely_empty(cells, [0, 1, 2, 3], table)) == {0, 1, 2, 3}
    # one such cell among bare cells of the table's own colour is the odd one: asked
    cells = [_plain(LIGHT_PINE, 100 + k) for k in range(3)]
    cells.append(_plain(tinted, 200))
    assert set(grid.surely_empty(cells, [0, 1, 2, 3], table)) == {0, 1, 2}


def test_a_lone_cell_off_the_tables_colour_has_nothing_to_agree_with() -> None:
    table = [_pine(k) for k in range(16)]
    assert grid.surely_empty([_plain(TAN_HAND, 200)], [0], table) == {}
