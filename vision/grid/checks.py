"""Bare cells on a table of two tones finer than a cell (a checked cloth): a cell is bare when
its middle shows the table's two tones as the table's own patches around the area show them.

:func:`vision.grid.empty.surely_empty` asks that nearly all of a cell's middle show the
table's one colour. On a checked cloth no colour covers more than about half of any patch, so
every bare cell was declined, and every grid with one (third art d2302, red and cream checks,
20 of 20 grids; g2501, navy and cream checks, 15 of 20).

Each patch and cell middle is split in two at its own grey (Otsu): the darker part's share,
how much brighter the lighter part is (a ratio, so the light falling off across the table
changes it little), each part's colour as shares of B, G and R, and the middle's texture. A
cell is bare when all of these lie within what the table's patches show. A card shows its
paper in bulk and a print in a small share, in other colours; a hand shows neither tone.

Declining is always allowed; this only adds cells to the bare ones.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.grid.table import _stats
from vision.thresholds import section


@dataclass(frozen=True)
class Tones:
    """Per region (patch or cell middle): the two tones its grey splits it into."""

    dark_share: np.ndarray  # (n,) the share of the darker tone's pixels
    contrast: np.ndarray  # (n,) the lighter tone's brightness over the darker's
    dark_hue: np.ndarray  # (n, 3) the darker tone's shares of B, G and R
    light_hue: np.ndarray  # (n, 3) the lighter tone's


def tones(px: np.ndarray) -> Tones:
    """:class:`Tones` of each region's pixels ``px`` ((n, k, 3), BGR)."""
    grey = px.sum(axis=2)
    n = len(px)
    share = np.zeros(n)
    contrast = np.ones(n)
    dark_hue = np.zeros((n, 3))
    light_hue = np.zeros((n, 3))
    for k in range(n):
        g8 = np.clip(grey[k] / 3.0, 0, 255).astype(np.uint8).reshape(1, -1)
        t, _ = cv2.threshold(g8, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        dark = g8.ravel() <= t
        if dark.all() or not dark.any():
            continue
        md, ml = px[k][dark].mean(axis=0), px[k][~dark].mean(axis=0)
        share[k] = dark.mean()
        contrast[k] = (ml.sum() + 1.0) / (md.sum() + 1.0)
        dark_hue[k] = md / (md.sum() + 1.0)
        light_hue[k] = ml / (ml.sum() + 1.0)
    return Tones(share, contrast, dark_hue, light_hue)


def _checked_patches(table: list[np.ndarray]
                     ) -> tuple[Tones, np.ndarray, np.ndarray] | None:
    """The tones and textures of a two-tone table's patches around the area (``table``,
    cell-sized), and which patches show both tones; None where the table is not of two tones
    finer than a cell."""
    cfg = section("grid")
    if not bool(cfg["checks"]) or len(table) < int(cfg["checks_min_patches"]):
        return None
    table_px, _, table_texture = _stats(table)
    t = tones(table_px)
    lo, hi = float(cfg["checks_both_tones"]), 1.0 - float(cfg["checks_both_tones"])
    # two tones in nearly every patch, clearly apart: checks finer than a cell (a check larger
    # than a cell leaves patches of one tone, a cell of one tone is the plain colour test's);
    # a patch or two may show something else beside the area (a card box)
    both = (t.dark_share >= lo) & (t.dark_share <= hi) \
        & (t.contrast >= float(cfg["checks_min_contrast"]))
    if both.mean() < float(cfg["checks_patches_share"]):
        return None
    return t, table_texture, both


def checked_table(table: list[np.ndarray]) -> bool:
    """Whether the table around the area (``table``, cell-sized patches) is of two tones finer
    than a cell (a checked cloth): it has no one colour, and its patches' median is a blend
    of its tones."""
    return _checked_patches(table) is not None


def patterned_bare(cells: list[np.ndarray], candidates: list[int],
                   table: list[np.ndarray]) -> dict[int, float]:
    """Of ``candidates`` (indices into ``cells``), the cells that show a two-tone table as its
    patches around the area (``table``, cell-sized) do, with a confidence; {} where the table
    is not of two tones finer than a cell."""
    cfg = section("grid")
    if not candidates:
        return {}
    checked = _checked_patches(table)
    if checked is None:
        return {}
    t, table_texture, both = checked
    q = float(cfg["checks_percentile"])

    def band(values: np.ndarray, slack: float, factor: float = 1.0) -> tuple[float, float]:
        a, b = np.percentile(values[both], [q, 100 - q])
        return float(a) / factor - slack, float(b) * factor + slack

    share_band = band(t.dark_share, float(cfg["checks_share_slack"]))
    contrast_band = band(t.contrast, 0.0, float(cfg["checks_contrast_factor"]))
    texture_band = band(table_texture, 0.0, float(cfg["checks_texture_factor"]))
    hue_tol = float(cfg["checks_hue_tolerance"])
    dark_hue = np.median(t.dark_hue[both], axis=0)
    light_hue = np.median(t.light_hue[both], axis=0)
    px, _, texture = _stats([cells[i] for i in candidates])
    c = tones(px)
    ok = (c.dark_share >= share_band[0]) & (c.dark_share <= share_band[1]) \
        & (c.contrast >= contrast_band[0]) & (c.contrast <= contrast_band[1]) \
        & (np.abs(c.dark_hue - dark_hue).max(axis=1) <= hue_tol) \
        & (np.abs(c.light_hue - light_hue).max(axis=1) <= hue_tol) \
        & (texture >= texture_band[0]) & (texture <= texture_band[1])
    # the confidence: how far inside the share's band the cell lies
    middle = (share_band[0] + share_band[1]) / 2
    half = max((share_band[1] - share_band[0]) / 2, 1e-6)
    conf = 0.5 + 0.5 * (1.0 - np.abs(c.dark_share - middle) / half)
    return {i: round(float(k), 3) for i, k, good in zip(candidates, conf, ok, strict=True) if good}
