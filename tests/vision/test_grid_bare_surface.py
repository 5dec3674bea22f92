"""Robot Master grid: empty cells on a bare surface that looks unlike what most of this
picture's surroundings show, or unlike each calibration picture's mat, are still empty
(other-art set 9202: a dark mat larger than the area, the table patches half on it and half on
the pine table; own-art sets: a mat whose colour varied between the calibration pictures), and
a hand is still not."""

from __future__ import annotations

import numpy as np

from vision import grid

PINE = (118, 155, 181)  # the table, white-balanced (BGR)
DARK_MAT = (60, 63, 68)  # a dark grey mat under the area, larger than it
SKIN = (60, 80, 120)  # a hand in shade


def _plain(bgr: tuple[int, int, int], seed: int) -> np.ndarray:
    """A cell-sized patch of one colour with a little sensor noise."""
    rng = np.random.default_rng(seed)
    patch = np.full((64, 48, 3), bgr, np.float32) + rng.normal(0.0, 1.5, (64, 48, 3))
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _patches_half_on_the_mat() -> tuple[list[np.ndarray], np.ndarray]:
    """Table patches around the area: those left and right of it on the mat (it reaches
    past the area there), those above and below it on the table."""
    table: list[np.ndarray] = []
    at: list[tuple[float, float]] = []
    for k in range(5):
        for x, y in ((k + 0.5, -0.8), (k + 0.5, 5.8), (-0.8, k + 0.5), (5.8, k + 0.5)):
            table.append(_plain(DARK_MAT if x < 0 or x > 5 else PINE, len(table)))
            at.append((x, y))
    return table, np.array(at, np.float32)


def test_empty_cells_show_the_calibrations_surface_when_half_the_patches_show_another() -> None:
    # calibration saw the mat around its areas (the mat is what "the table" was there)
    look = grid.GridLook(bare_mode="table",
                         bare=np.array([[59, 65, 74], [62, 70, 80]], np.float32),
                         bare_texture=4.0)
    table, at = _patches_half_on_the_mat()
    cells = [_plain(DARK_MAT, 100 + k) for k in range(3)] + [_plain(SKIN, 200)]
    sure = grid.surely_empty(cells, [0, 1, 2, 3], table, look, at)
    assert set(sure) == {0, 1, 2}  # the mat cells are empty; the hand is not


def test_the_calibrations_surface_must_be_seen_around_the_area() -> None:
    # the same patches, but calibration's empty cells showed a green cloth seen nowhere
    # here: the patches are taken as they come (their median), and the dark cells are asked
    look = grid.GridLook(bare_mode="table", bare=np.array([[60, 120, 50]], np.float32),
                         bare_texture=4.0)
    table, at = _patches_half_on_the_mat()
    cells = [_plain(DARK_MAT, 100 + k) for k in range(3)]
    assert grid.surely_empty(cells, [0, 1, 2], table, look, at) == {}


def test_a_mat_whose_colour_varied_in_calibration_may_vary_as_much_again() -> None:
    # calibration's mats: green, their blue share 0.25 to 0.29 between pictures (the lamps,
    # the print): this picture's mat has a blue share of 0.38, 0.09 from the nearest
    varied = np.array([[50, 90, 60], [58, 88, 54]], np.float32)
    mat = (76, 80, 44)
    cells = [_plain(mat, k) for k in range(4)] + [_plain(SKIN, 9)]
    look = grid.GridLook(bare_mode="mat", bare=varied, bare_texture=4.0)
    assert set(grid.surely_empty(cells, list(range(5)), [], look)) == {0, 1, 2, 3}
    # a mat that did not vary in calibration is held to the tolerance alone
    steady = grid.GridLook(bare_mode="mat", bare=varied[:1], bare_texture=4.0)
    assert grid.surely_empty(cells, list(range(5)), [], steady) == {}
