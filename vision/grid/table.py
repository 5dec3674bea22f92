"""The bare table just outside the play area, sampled in cell-sized patches in this very picture
(the table changes from picture to picture; cards do not), and the measures of a cell's middle
(pixels, median colour, texture) that compare cells with it.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid.area import _area_homography, rectify
from vision.grid.features import _distances, area_features
from vision.grid.geometry import _cell_size
from vision.thresholds import section


def table_features(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
                   white: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Features of table patches just outside the play area, cell-sized: what an empty cell
    looks like in this very picture (the table changes from picture to picture; cards do not)."""
    feats, foreign, _, _ = table_patches(image, corners, inset, white)
    return feats, foreign


def table_margin() -> int:
    """How far around the area :func:`table_patches` looks (canonical pixels)."""
    w, h = _cell_size()
    return round((1 + float(section("grid")["table_gap"])) * max(w, h)) + 4


def table_patches(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
                  white: np.ndarray | None = None, big: np.ndarray | None = None,
                  place: np.ndarray | None = None,
                  unusual: list[np.ndarray] | None = None
                  ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], np.ndarray]:
    """:func:`table_features`, the usual patches' pixels (white-balanced) and their centres
    (x, y in cells from the area's top-left corner). ``big``: the area already rectified with
    :func:`table_margin` around (and balanced). ``unusual``: when given, the pixels of the
    patches left out as foreign are added to it."""
    w, h = _cell_size()
    gap = float(section("grid")["table_gap"])
    m = table_margin()
    if big is None:
        big = rectify(image, corners, inset, margin=m, white=white, place=place)
    ih, iw = image.shape[:2]
    H_inv = np.linalg.inv(_area_homography(corners, inset, m, place))
    crops = []
    centres: list[tuple[float, float]] = []
    gx, gy = int((1 + gap) * w), int((1 + gap) * h)
    spots = [(x, y) for k in range(5)
             for x, y in ((m + k * w, m - gy), (m + k * w, m + 5 * h + gy - h),
                          (m - gx, m + k * h), (m + 5 * w + gx - w, m + k * h))]
    # every patch's corners in the picture in one call (each point is transformed on its own:
    # the same numbers as a call per patch)
    quads = np.array([[[x, y], [x + w, y], [x + w, y + h], [x, y + h]] for x, y in spots],
                     np.float32)
    src = cv2.perspectiveTransform(quads.reshape(-1, 1, 2), H_inv).reshape(-1, 4, 2)
    off = (src < 0).any(axis=(1, 2)) | (src[:, :, 0] >= iw).any(axis=1) \
        | (src[:, :, 1] >= ih).any(axis=1)
    for (x, y), out in zip(spots, off.tolist(), strict=True):
        if out:
            continue  # off the picture
        crops.append(big[y:y + h, x:x + w])
        centres.append(((x - m) / w + 0.5, (y - m) / h + 0.5))
    if not crops:
        return (np.zeros((0, 0), np.float32), np.zeros((0, 0), np.float32), [],
                np.zeros((0, 2), np.float32))
    mosaic = np.zeros((5 * h + 8, 5 * w + 8, 3), np.uint8)
    for i, crop in enumerate(crops[:25]):
        r, c = divmod(i, 5)
        mosaic[4 + r * h:4 + (r + 1) * h, 4 + c * w:4 + (c + 1) * w] = crop
    # (only the mosaic's rows the patches fill: the same features as all 25 cells' first)
    used = min(len(crops), 25)
    feats = area_features(mosaic, rows=-(-used // 5))[:used]
    crops = crops[:25]
    at = np.array(centres[:25], np.float32)
    if len(feats) < 4:
        return feats, np.zeros((0, feats.shape[1]), np.float32), crops, at
    # an arm reaching over the table is not the table: keep the patches that look like most;
    # the others are "something foreign", and a cell that looks like them is declined
    d = _distances(feats, feats)
    typical = np.median(d, axis=1)
    usual = typical <= np.median(typical) * float(section("grid")["table_outlier"])
    if unusual is not None:
        unusual.extend(c for c, u in zip(crops, usual, strict=True) if not u)
    return (feats[usual], feats[~usual], [c for c, u in zip(crops, usual, strict=True) if u],
            at[usual])


def _stats(cells: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Of each cell's middle (all cells of one size): its pixels (n, k, 3), their median
    colour (n, 3) and the texture (mean absolute Sobel gradient in grey, smooth shading taken
    away first), all at once."""
    if not cells:
        return np.zeros((0, 0, 3), np.float32), np.zeros((0, 3), np.float32), np.zeros(0)
    stack = np.stack(cells)
    n, h, w = stack.shape[:3]
    y, x = int(0.18 * h), int(0.18 * w)
    # every other pixel each way: the colour statistics are as good at a quarter of the work
    inner = stack[:, y:h - y:2, x:w - x:2]
    px = inner.reshape(n, -1, 3).astype(np.float32)
    # the cells one above the other: the gradient of a middle sees its own cell's pixels only
    g = cv2.cvtColor(stack.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).astype(np.float32)
    # the soft edge of a shadow or a lamp's fall-off is no texture: what a blur of a few
    # pixels keeps is taken away (print, a hand's outline and noise stay); the blur reaches
    # less far than the middle lies inside its cell, so cells do not mix
    g -= cv2.GaussianBlur(g, (13, 13), 3.0)
    grad = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3))
    grad += np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3))
    grad = grad.reshape(n, h, w)
    texture = grad[:, y:h - y, x:w - x].reshape(n, -1).mean(axis=1)
    return px, np.median(px, axis=1).astype(np.float32), texture


def table_spread(table: np.ndarray) -> float:
    """How far apart this picture's table patches are from each other (nearest neighbours)."""
    if len(table) < 2:
        return 0.0
    d = _distances(table, table)
    np.fill_diagonal(d, np.inf)
    return float(np.median(d.min(axis=1)))
