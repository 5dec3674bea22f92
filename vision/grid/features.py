"""The features the nearest-example reading compares: per cell a histogram of oriented gradients
and the cell's colour (:func:`area_features`), the same taken a few pixels off
(:func:`shifted_features`), and distances between features.

One stage on its own because both calibration (its examples) and reading (every cell) compute
them, and the empty-cell test compares the table's patches with them too.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid.geometry import _cell_size
from vision.grid.look import GridLook
from vision.thresholds import section


def area_features(area: np.ndarray, margin: int = 4, dx: int = 0, dy: int = 0,
                  turned: bool = False, rows: int = 5) -> np.ndarray:
    """Features of the 25 cells of a rectified area, top row first: (25, n).

    Shape is a histogram of oriented gradients (8x8-pixel cells, 9 unsigned orientations,
    2x2-cell blocks each normalised; OpenCV 5 no longer ships one); colour is each cell's mean
    and spread on its own brightest paper. ``turned`` reads the cells turned by 180 degrees.
    ``rows`` (not turned): only the top rows of cells, (5 * rows, n), the same numbers as the
    first 5 * rows of all 25 (the table patches fill four rows of their mosaic: the fifth's
    features were worked out and thrown away).
    """
    w, h = _cell_size()
    img = area[margin + dy:margin + dy + 5 * h, margin + dx:margin + dx + 5 * w]
    if turned:
        img = cv2.rotate(img, cv2.ROTATE_180)
    elif rows < 5:
        # the gradient of a row's last pixel line looks one line down: that line is kept for
        # the gradients (then dropped), so the rows' gradients are the whole area's
        img = img[:rows * h + 1]
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    del g, gx, gy  # memory: a grid reading's numpy peak is this function's (0.3 MB an array)
    if not turned and rows < 5:
        img, mag, ang = img[:rows * h], mag[:rows * h], ang[:rows * h]
    # unsigned orientation in 20-degree bins: 180..360 degrees fall in the bins of 0..180 (the
    # fraction past a bin's start is the same either way: subtracting 9 from 9..18 is exact)
    # (in place where an array is not needed again: each copy costs as much as the arithmetic)
    pos = np.multiply(ang, np.float32(1 / 20.0), out=ang)
    # (no angle is negative: the step as a byte, truncated, is its floor, and the fraction
    # past it the same float as past np.floor's, for one pass less)
    at = pos.astype(np.uint8)
    frac = np.subtract(pos, at, out=pos)
    hc, wc = h // 8, w // 8
    rows = 5 if turned else rows
    n = rows * hc * 5 * wc * 9
    # each pixel votes into its two nearest orientations: the bins' indices come from a table
    # (cheaper than folding and fixing the wrap-around in place)
    # (the steps, 0..18, as bytes looked up in 256-entry tables by cv2.LUT: the same bins
    # as np.take on the 19-entry tables, for a third of its cost)
    cell = _hog_cells(w, h)[:rows * h]
    lo = cell + cv2.LUT(at, _BIN_LO_BYTES)
    hi = cell + cv2.LUT(at, _BIN_HI_BYTES)
    del at
    upper = np.multiply(mag, frac, out=frac)
    lower = np.subtract(mag, upper, out=mag)
    counts = (np.bincount(lo.ravel(), lower.ravel(), n)
              + np.bincount(hi.ravel(), upper.ravel(), n))
    cells = counts.astype(np.float32).reshape(rows * hc, 5 * wc, 9)
    hist = cells.reshape(rows, hc, 5, wc, 9).transpose(0, 2, 1, 3, 4)  # (row, col, hc, wc, 9)
    # 2x2-cell blocks: the four neighbours side by side, in (row, column, orientation) order
    blocks = np.concatenate([hist[:, :, :-1, :-1], hist[:, :, :-1, 1:], hist[:, :, 1:, :-1],
                             hist[:, :, 1:, 1:]], axis=-1).reshape(rows, 5, -1, 36)
    blocks /= np.linalg.norm(blocks, axis=-1, keepdims=True) + 1e-3
    shape = blocks.reshape(5 * rows, -1)
    shape /= np.linalg.norm(shape, axis=1, keepdims=True) + 1e-6
    # each cell's mean colour and the spread of its green: an area resize to 5x5 averages
    # exactly the cells' pixels (much cheaper than reducing over the pixels)
    f = img.astype(np.float32)
    mean = cv2.resize(f, (5, rows), interpolation=cv2.INTER_AREA).reshape(5 * rows, 3)
    square = cv2.resize(f[..., 1] * f[..., 1], (5, rows),
                        interpolation=cv2.INTER_AREA).reshape(5 * rows)
    std = np.sqrt(np.maximum(square - mean[:, 1] ** 2, 0.0))
    # the area is white-balanced on the markers: 230 is their paper
    colour = np.concatenate([mean / 230.0, std[:, None] / 230.0], axis=1)
    weight = float(section("grid")["colour_weight"])
    return np.concatenate([shape, colour * weight / 4], axis=1).astype(np.float32)


_HOG_CELLS: dict[tuple[int, int], np.ndarray] = {}
#: an angle's 20-degree step (0..18: 360 degrees is step 18) -> its lower and upper bin (0..8)
_BIN_LO = np.arange(19, dtype=np.intp) % 9
_BIN_HI = (_BIN_LO + 1) % 9
#: the same as cv2.LUT tables (256 entries; past 18 never looked up)
_BIN_LO_BYTES = np.concatenate([_BIN_LO, np.zeros(256 - 19, np.intp)]).astype(np.uint8)
_BIN_HI_BYTES = np.concatenate([_BIN_HI, np.zeros(256 - 19, np.intp)]).astype(np.uint8)


def _hog_cells(w: int, h: int) -> np.ndarray:
    """Per pixel of an area of 5x5 cells (``w`` x ``h``), the first of its 8x8-pixel cell's 9
    orientation bins (made once per cell size)."""
    cell = _HOG_CELLS.get((w, h))
    if cell is None:
        rows = np.arange(5 * h, dtype=np.intp)[:, None] // 8
        cols = np.arange(5 * w, dtype=np.intp)[None, :] // 8
        cell = (rows * (5 * (w // 8)) + cols) * 9
        _HOG_CELLS[(w, h)] = cell
    return cell


def _distances(a: np.ndarray, b: np.ndarray, b_norms: np.ndarray | None = None) -> np.ndarray:
    """Euclidean distances (len(a), len(b)); ``b_norms``: the squared lengths of ``b``'s rows
    when known (the calibration's examples: computed once)."""
    b2 = (b**2).sum(1) if b_norms is None else b_norms
    return np.asarray(np.sqrt(np.maximum((a**2).sum(1)[:, None] + b2[None, :] - 2 * a @ b.T, 0)))


def _feature_norms(look: GridLook) -> np.ndarray:
    cached = look.__dict__.get("_norms")
    if cached is None:
        cached = (look.features**2).sum(1)
        look.__dict__["_norms"] = cached
    return np.asarray(cached)


def shifted_features(big: np.ndarray, margin: int, cells: list[int]) -> list[np.ndarray]:
    """Per cell (index, top row first) of the white-balanced area ``big`` (``margin`` pixels
    around), its features (as :func:`area_features`) taken ``candidate_shift`` canonical pixels
    off in each of 8 directions: (8, features) a cell. The cells' shifted copies are laid out
    side by side as the 25 cells of one area (a cell's features are its own pixels'; only
    the one-pixel gradient along its border sees the next copy rather than the picture)."""
    w, h = _cell_size()
    reach = int(section("grid")["candidate_shift"])
    moves = [(dx, dy) for dy in (-reach, 0, reach) for dx in (-reach, 0, reach) if dx or dy]
    crops = []
    for i in cells:
        r, c = divmod(i, 5)
        for dx, dy in moves:
            y, x = margin + r * h + dy, margin + c * w + dx
            crops.append(big[y:y + h, x:x + w])
    out = []
    for a in range(0, len(crops), 25):
        chunk = crops[a:a + 25]
        tiles = chunk + [chunk[0]] * (25 - len(chunk))
        mosaic = np.vstack([np.hstack(tiles[r * 5:(r + 1) * 5]) for r in range(5)])
        mosaic = cv2.copyMakeBorder(mosaic, 4, 4, 4, 4, cv2.BORDER_REPLICATE)
        out.append(area_features(mosaic)[:len(chunk)])
    feats = np.concatenate(out) if out else np.zeros((0, 1), np.float32)
    return [feats[k * len(moves):(k + 1) * len(moves)] for k in range(len(cells))]
