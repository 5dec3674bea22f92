"""Robot Master grid, clean area round: bare cells refused on clean pictures.

- **Texture against calibration's bare cells.** The texture limit a bare cell is held to
  follows this picture's table around the area. Where that is smoother than the cells' own
  bare surface (other art 10512 g020: a mat's plain margin at 1.8 around printed cells at
  9-11; calibration's bare cells at 9.9), bare cells were refused and the grid asked. A cell
  no rougher than calibration's bare cells were (the limit they set) is now as smooth as a
  bare cell; a card's print is many times rougher.
- **The card-colour rule where the pixels speak.** That rule (a cell whose median is nearer a
  card colour than the surface's is no bare cell) is for colour tolerances the surface's
  spread widened, where the pixels no longer tell paper from the mat. Patches lying across a
  mat's edge widen it too (other art 10913 g004: smooth bare lavender cells, a lamp moving
  their medians nearer the cards' pale grey). A cell whose middle shows the surface's colour
  at the plain tolerance is no longer asked it."""

from __future__ import annotations

import numpy as np

from vision import grid
from vision.grid import colours, empty
from vision.grid import table as grid_table

MAT = np.array((201, 214, 222), np.float32)  # a cream mat, white-balanced (BGR)


def _patch(colour: np.ndarray, sigma: float, seed: int, digit: bool = False) -> np.ndarray:
    rng = np.random.default_rng(seed)
    patch = colour[None, None, :] + rng.normal(0.0, sigma, (64, 48, 1)).astype(np.float32)
    if digit:
        patch[18:46, 18:30] = colour * 0.97  # a card of the mat's own colour ...
        patch[22:42, 22:26] = (60, 50, 60)  # ... with a digit's stroke
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _look(bare_texture: float) -> grid.GridLook:
    look = grid.GridLook()
    look.bare_mode = "table"
    look.bare = np.array([MAT], np.float32)
    look.bare_texture = bare_texture
    return look


def test_cells_as_rough_as_calibrations_bare_cells_are_empty() -> None:
    table = [_patch(MAT, 0.4, k) for k in range(16)]  # the mat's plain margin: very smooth
    cells = [_patch(MAT, 2.5, 100 + k) for k in range(6)]
    textures = grid_table._stats(cells)[2]
    limit_here = empty._texture_limit(float(np.median(grid_table._stats(table)[2])))
    assert (textures > limit_here).all(), "rougher than this picture's table allows"
    sure = grid.surely_empty(cells, list(range(6)), table, _look(float(np.median(textures))))
    assert set(sure) == set(range(6))


def test_cards_and_rougher_cells_are_still_refused() -> None:
    table = [_patch(MAT, 0.4, k) for k in range(16)]
    cells = [_patch(MAT, 2.5, 100)] + [_patch(MAT, 2.5, 200 + k, digit=True) for k in range(3)] \
        + [_patch(MAT, 9.0, 300 + k) for k in range(2)]
    look = _look(float(grid_table._stats(cells[:1])[2][0]))
    sure = grid.surely_empty(cells, list(range(6)), table, look)
    assert set(sure) == {0}
    # without a calibration texture (an old calibration file), this picture's table decides
    assert not grid.surely_empty(cells, list(range(6)), table, _look(0.0))


LAVENDER = np.array((225, 205, 215), np.float32)
PAPER = np.array((228, 238, 238), np.float32)


def _striped(seed: int) -> np.ndarray:
    # a lavender cloth of two shades woven: its spread widens the colour tolerance
    rng = np.random.default_rng(seed)
    patch = np.empty((64, 48, 3), np.float32)
    # (in blocks of two pixels each way: the middles' colours are sampled 1 in 2)
    shade = ((np.arange(64)[:, None] // 2) + (np.arange(48)[None, :] // 2)) % 2 == 0
    weave = np.array((22.0, -22.0, 0.0), np.float32)
    patch[shade] = LAVENDER + weave
    patch[~shade] = LAVENDER - weave
    patch += rng.normal(0.0, 1.0, patch.shape[:2])[..., None]
    return np.asarray(np.clip(patch, 0, 255).astype(np.uint8))


def _paper_look() -> grid.GridLook:
    look = _look(30.0)
    look.bare = np.array([LAVENDER], np.float32)
    look.value_colours = np.tile(colours._colour_key(PAPER)[0], (6, 1)).astype(np.float32)
    look.value_spread = np.full(6, 3.0, np.float32)
    return look


def test_plain_cells_nearer_paper_are_judged_by_their_pixels() -> None:
    table = [_striped(k) for k in range(16)]
    ref = np.median(grid_table._stats(table)[1], axis=0)  # the colour the cells are held to
    lit = ref + 0.6 * (PAPER - ref)  # a lamp: the bare cloth's median moved towards grey
    cells = [_patch(lit, 1.0, 100 + k) for k in range(4)]
    look = _paper_look()
    px, medians, _ = grid_table._stats(cells)
    assert empty._like(px, ref, 0.07).mean() > 0  # (the tolerance is widened: stripes)
    assert empty._card_coloured(medians, ref, look).all(), "nearer the cards' colour"
    assert (empty._like(px, ref) >= 0.9).all(), "at the plain tolerance, the surface's colour"
    sure = grid.surely_empty(cells, list(range(4)), table, look)
    assert set(sure) == set(range(4))


def test_noisy_cells_nearer_paper_are_still_refused() -> None:
    table = [_striped(k) for k in range(16)]
    # white cards in a noisy picture: their colour at the plain tolerance too, but far
    # rougher than calibration's bare cells (the noise, which widened what they pass)
    cells = [_patch(PAPER, 30.0, 100 + k) for k in range(4)]
    assert not grid.surely_empty(cells, list(range(4)), table, _paper_look())


def test_keys_are_in_the_thresholds_file() -> None:
    from vision.thresholds import section
    cfg = section("grid")
    assert bool(cfg["empty_texture_from_calibration"])
    assert bool(cfg["empty_card_colour_plain"])
