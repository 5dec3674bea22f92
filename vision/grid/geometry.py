"""Sizes in the canonical area: a cell (from the ``[grid]`` thresholds), the margin around the
area, and each cell's search window for the value templates (also stretched across, and at half
size for the coarse search).

Kept apart because every stage measures in these pixels: finding the area, registration, the
table patches and the templates must agree to the pixel.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.thresholds import section


def _cell_size() -> tuple[int, int]:
    cfg = section("grid")
    return int(cfg["cell_width"]), int(cfg["cell_height"])


MARGIN = 8  # around the grey area the value templates are cut from (canonical pixels)
SEARCH = 6  # template search, canonical pixels each way
#: the first search is at half the canonical size; only values close to its best are refined
COARSE = 2
#: the share of a cell left out on each side of the middle the value templates are cut from
TEMPLATE_INSET = 0.15


def _window(g: np.ndarray, r: int, c: int, extra: int = SEARCH, margin: int = MARGIN
            ) -> np.ndarray:
    w, h = _cell_size()
    y, x = margin + r * h - extra, margin + c * w - extra
    return g[max(0, y):y + h + 2 * extra, max(0, x):x + w + 2 * extra]


def scaled_windows(g: np.ndarray, scale: float, extra: int = SEARCH) -> list[np.ndarray]:
    """The 25 cells' search windows with the area stretched across by ``scale`` about each
    cell's centre: how wide the cards lie in their cells changes from picture to picture (the
    cells' proportions follow how the cards were laid out), their height much less. ``extra``:
    how far (canonical pixels) each window reaches past its cell; ``g`` has ``MARGIN`` pixels
    more than that around the area when ``extra`` is more than ``SEARCH``."""
    margin = MARGIN + max(0, extra - SEARCH)
    if scale == 1.0:
        return [_window(g, r, c, extra, margin) for r in range(5) for c in range(5)]
    w, h = _cell_size()
    pad = extra + 2
    wide = cv2.resize(g, (round(g.shape[1] * scale), g.shape[0]), interpolation=cv2.INTER_AREA
                      if scale < 1 else cv2.INTER_LINEAR)
    wide = cv2.copyMakeBorder(wide, 0, 0, pad, pad, cv2.BORDER_REPLICATE)
    out = []
    for r in range(5):
        y = margin + r * h - extra
        for c in range(5):
            x = round((margin + (c + 0.5) * w) * scale - w / 2) - extra + pad
            out.append(wide[y:y + h + 2 * extra, x:x + w + 2 * extra])
    return out


def _template_inset() -> tuple[int, int]:
    """How far (x, y, canonical pixels) a cell's template lies inside the cell."""
    w, h = _cell_size()
    return int(TEMPLATE_INSET * w), int(TEMPLATE_INSET * h)


def template_in_window() -> tuple[int, int]:
    """Where (x, y) a cell's template lies in the cell's search window (:func:`_window`): a
    card lying in the middle of its cell aligns there."""
    ox, oy = _template_inset()
    return SEARCH + ox, SEARCH + oy


def _template(g: np.ndarray, r: int, c: int) -> np.ndarray:
    w, h = _cell_size()
    ox, oy = _template_inset()
    y, x = MARGIN + r * h + oy, MARGIN + c * w + ox
    return g[y:y + h - 2 * oy, x:x + w - 2 * ox]


def _half(image: np.ndarray) -> np.ndarray:
    return cv2.resize(image, (image.shape[1] // COARSE, image.shape[0] // COARSE),
                      interpolation=cv2.INTER_AREA)


def _halves(windows: list[np.ndarray]) -> np.ndarray:
    """:func:`_half` of several windows of one size, as one float32 stack (n, h, w): resized
    in one piece, one above the other (each block of COARSE x COARSE pixels lies in one window
    when the windows' sides divide by COARSE, so the result is the same)."""
    stack = np.stack(windows)
    n, height, width = stack.shape
    if height % COARSE or width % COARSE:
        return np.stack([_half(w) for w in windows]).astype(np.float32)
    small = cv2.resize(stack.reshape(n * height, width),
                       (width // COARSE, n * height // COARSE), interpolation=cv2.INTER_AREA)
    return np.asarray(small.reshape(n, height // COARSE, width // COARSE), np.float32)
