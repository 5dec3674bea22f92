"""Card colours: where values are told by colour (colour-coded cards), each value's card colour
learnt in calibration confirms the print's reading; colours compare as shares of B, G and R
(lamps and shade change the level more than the shares).
"""

from __future__ import annotations

import numpy as np

from vision.grid.look import Grid, GridLook
from vision.grid.table import _stats
from vision.thresholds import section


def _colour_key(bgr: np.ndarray) -> np.ndarray:
    """Colours compared as shares of B, G and R (lamps and shade change the level more than
    the shares) and a little brightness: (n, 4)."""
    bgr = np.asarray(bgr, np.float32).reshape(-1, 3)
    total = bgr.sum(axis=1, keepdims=True) + 1.0
    return np.concatenate([bgr / total * 300.0, total * 0.05], axis=1)


def learn_value_colours(cells_by_image: list[list[np.ndarray]], grids: list[Grid]
                        ) -> tuple[np.ndarray, np.ndarray]:
    """Each value's card colour (6, 3; NaN when no card of it was seen) and spread (6,): where
    values are told by colour (colour-coded cards), colour confirms the print's reading."""
    floor = float(section("grid")["colour_spread_floor"])
    seen: dict[int, list[np.ndarray]] = {}
    for cells, grid in zip(cells_by_image, grids, strict=True):
        _, medians, _ = _stats(cells)
        for i, m in enumerate(medians):
            v = grid[i // 5][i % 5]
            if v is not None:
                seen.setdefault(int(v), []).append(m)
    colours = np.full((6, 4), np.nan, np.float32)
    spread = np.full(6, np.inf, np.float32)
    for v, ms in seen.items():
        arr = _colour_key(np.array(ms, np.float32))
        colours[v] = arr.mean(axis=0)
        spread[v] = float(np.sqrt(((arr - colours[v]) ** 2).sum(axis=1).mean())) + floor
    return colours, spread


def colour_confirms(look: GridLook, colour: np.ndarray) -> int | None:
    """The value whose card colour this cell's middle shows, when colour alone tells it: near
    that value's colour (within ``colour_match`` spreads) and ``colour_apart`` spreads nearer
    to it than to any other value's; None otherwise (cards of one colour never confirm)."""
    return colours_confirm(look, np.asarray(colour).reshape(1, 3))[0]


def colours_confirm(look: GridLook, colours: np.ndarray) -> list[int | None]:
    """:func:`colour_confirms` for several cells' colours (n, 3) at once."""
    if len(look.value_colours) != 6:
        return [None] * len(colours)
    cfg = section("grid")
    keys = _colour_key(colours)
    z = np.linalg.norm(look.value_colours[None, :, :] - keys[:, None, :], axis=2) \
        / look.value_spread[None, :]
    z = np.where(np.isnan(z), np.inf, z)
    order = np.sort(z, axis=1)
    best = np.argmin(z, axis=1)
    ok = (order[:, 0] <= float(cfg["colour_match"])) \
        & (order[:, 1] >= order[:, 0] + float(cfg["colour_apart"]))
    return [int(b) if good else None for b, good in zip(best, ok, strict=True)]
