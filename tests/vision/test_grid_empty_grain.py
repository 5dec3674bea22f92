"""Robot Master grid: an empty cell on a grained table (wood grain, plank seams) is surely empty
even where the grain runs stronger than on the table's median patch, because the grain varies
across one direction only; a card of the table's colour is not, because its print and outline
have edges every way (other art 9323, 3504, 9321, 9421: bare cells 1.02 to 1.23 times the
texture limit, declined; their texture along the grain at most 1.9 times the table's, cards'
4.6 times and more)."""

from __future__ import annotations

import cv2
import numpy as np

from vision import grid
from vision.grid import empty
from vision.grid import table as grid_table

PINE = np.array((120, 170, 215), np.float32)  # white-balanced pale wood (BGR)


def _wood(seed: int, strength: float = 0.04, waviness: float = 1.0,
          print_: str | None = None) -> np.ndarray:
    """A cell-sized patch of wood: wavy bands of grain running across (``strength``: how much
    the grain darkens and lightens the wood), a little noise; ``print_`` draws, in a darker
    shade of the wood itself, a card's pip or its outline over it."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:64, 0:48].astype(np.float32)
    phase = float(rng.uniform(0.0, 6.28))
    wave = np.sin(2 * np.pi * (y + waviness * np.sin(2 * np.pi * x / 37 + phase)) / 7.0 + phase)
    shade = 1.0 + strength * wave + rng.normal(0.0, 0.01, (64, 48))
    patch = PINE[None, None, :] * shade[..., None].astype(np.float32)
    if print_ == "pip":
        cv2.circle(patch, (24, 32), 8, tuple(float(v) for v in PINE * 0.75), -1)
    elif print_ == "outline":
        cv2.rectangle(patch, (14, 18), (34, 46), tuple(float(v) for v in PINE * 0.65), 2)
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _noise(seed: int, spread: float) -> np.ndarray:
    """A felt-like table: grain-free noise, the same every way."""
    rng = np.random.default_rng(seed)
    grey = cv2.GaussianBlur(rng.normal(0.0, 1.0, (64, 48)).astype(np.float32), (3, 3), 0.8)
    patch = PINE[None, None, :] * (1.0 + spread * grey)[..., None]
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _texture(cells: list[np.ndarray]) -> np.ndarray:
    return np.asarray(grid_table._stats(cells)[2])


def test_a_bare_cell_over_stronger_grain_is_surely_empty() -> None:
    table = [_wood(k) for k in range(16)]
    cells = [_wood(100 + k, strength=0.09) for k in range(3)]
    limit = empty._texture_limit(float(np.median(_texture(table))))
    assert (_texture(cells) > limit * 1.1).all()  # rougher than the texture limit allows
    assert set(grid.surely_empty(cells, [0, 1, 2], table)) == {0, 1, 2}


def test_a_card_of_the_tables_colour_on_grain_is_not_empty() -> None:
    table = [_wood(k) for k in range(16)]
    cells = [_wood(100, strength=0.09, print_="pip"), _wood(101, print_="outline"),
             _wood(102, strength=0.09, print_="outline")]
    limit = empty._texture_limit(float(np.median(_texture(table))))
    assert (_texture(cells) > limit).all()  # the new path is asked about each of them
    assert grid.surely_empty(cells, [0, 1, 2], table) == {}
    assert not empty._along_the_grain(cells, table).any()


def test_without_one_direction_a_rougher_cell_is_still_asked() -> None:
    # felt or mottled tables vary every way: texture along "the grain" tells nothing there
    table = [_noise(k, 0.05) for k in range(16)]
    rough = [_noise(100 + k, 0.12) for k in range(3)]
    limit = empty._texture_limit(float(np.median(_texture(table))))
    assert (_texture(rough) > limit).all()
    assert grid.surely_empty(rough, [0, 1, 2], table) == {}
    assert not empty._along_the_grain(rough, table).any()
