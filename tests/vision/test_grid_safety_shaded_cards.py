"""Robot Master grid on a printed mat: white cards in a deep shadow are not the mat.

Held-out own art, hard set 10801, g056: a green mat whose colour differed between the
calibration pictures (red share 0.23 to 0.33), so the mat's hue tolerance is loose. A shadow
across the area greyed the white cards; the two bare cells lay in its darkest part, too dark to
be the mat. The plain grey card cells then passed for this picture's mat, and a 1 among them (its
paper plain, its one pip too little ink) was read as a cell as bare as they: confidence 0.82.
A plain cell nearer to a card colour calibration saw than to the calibration's mat nearest it,
and rougher than the calibration's mat may be (its print, the picture's noise: 24-54 there
against a limit of 15.7), is not taken for the mat.
"""

from __future__ import annotations

import numpy as np

from vision import grid
from vision.grid import empty, table

# as measured in that picture and its calibration (white-balanced BGR)
CALIBRATION_MATS = np.array([(65, 94, 70), (66, 104, 77), (57, 80, 41), (46, 93, 63)],
                            np.float32)
SHADED_PAPER = (113, 107, 109)
DEEP_SHADOW_MAT = (25, 44, 27)
WHITE_CARD_KEY = (101.6, 97.2, 100.7, 31.5)  # the calibration cards' colour, as _colour_key


def _patch(bgr: tuple[int, int, int] | np.ndarray, seed: int, pip: bool = False,
           noise: float = 3.0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patch = np.asarray(bgr, np.float32)[None, None, :] + rng.normal(0.0, noise, (64, 48, 3))
    if pip:  # a 1: one small dark red pip in the middle, the rest plain paper
        yy, xx = np.mgrid[0:64, 0:48]
        patch[(yy - 32) ** 2 + (xx - 24) ** 2 <= 9] = (30, 30, 110)
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _paper(seed: int, pip: bool = False) -> np.ndarray:
    # the shaded paper as rough as that picture's card cells (texture 24-54 there): the
    # picture's noise is stronger on the paper than on the dark mat (4.6-6.2 there)
    return _patch(SHADED_PAPER, seed, pip, noise=8.0)


def _look() -> grid.GridLook:
    look = grid.GridLook(bare_mode="mat", bare=CALIBRATION_MATS.copy(), bare_texture=7.3)
    look.value_colours = np.tile(np.array(WHITE_CARD_KEY, np.float32), (6, 1))
    look.value_spread = np.full(6, 6.5, np.float32)
    return look


def test_shaded_white_cards_do_not_pass_for_the_mat() -> None:
    # cell 0: the 1; cells 1-6: cards whose middles show plain paper; 7, 8: the bare cells in
    # the shadow's darkest part
    cells = [_paper(0, pip=True)] \
        + [_paper(k) for k in range(1, 7)] \
        + [_patch(DEEP_SHADOW_MAT, k) for k in (7, 8)]
    sure = grid.surely_empty(cells, list(range(9)), [], _look())
    assert 0 not in sure, "the 1 was called an empty cell"
    assert not set(sure) & set(range(7)), "a card was called an empty cell"


def test_the_mat_itself_is_still_empty_beside_shaded_cards() -> None:
    mat = tuple(int(v) for v in CALIBRATION_MATS[1] * 0.8)
    cells = [_paper(0, pip=True)] \
        + [_paper(k) for k in range(1, 4)] \
        + [_patch(mat, k) for k in range(4, 8)]
    sure = grid.surely_empty(cells, list(range(8)), [], _look())
    assert set(sure) == {4, 5, 6, 7}


def test_the_shaded_cards_are_rougher_than_the_mat_may_be() -> None:
    # what tells them from a smooth grey surface standing in for the mat (a picture without it)
    _, _, texture = table._stats([_paper(k, pip=k == 0) for k in range(4)])
    assert (texture > empty._texture_limit(_look().bare_texture)).all()
