"""The cards' own outlines inside the area: per cell the card-sized box whose sides run along
the strongest edges near it, how much print each box shows, and the boxes' scores for every card
size (what :mod:`.registration` votes with).

Searched at ``OUTLINE_SCALE`` of the canonical size.
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.grid.geometry import _cell_size
from vision.thresholds import section

OUTLINE_SCALE = 0.5  # card outlines are searched at half the canonical size


def _windows(score: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """Each cell's search window of ``score`` (``rows``, ``cols``: (5, n) indices): (25, k)."""
    return np.asarray(score[rows][:, :, cols].transpose(0, 2, 1, 3).reshape(25, -1))


class _OutlineSearch(NamedTuple):
    """What :func:`card_outlines` and :func:`_outline_windows` search in: the area warped to
    half the canonical size with ``pad`` around, its colour gradients, the boxes' centres
    scored (the region ``r0:r1, c0:c1``; per cell its window's ``rows`` and ``cols`` there) and
    the card sizes that fit in the warp from there (half-size pixels)."""

    gx: np.ndarray
    gy: np.ndarray
    region: tuple[int, int, int, int]
    rows: np.ndarray
    cols: np.ndarray
    cx: np.ndarray
    cy: np.ndarray
    rx: int
    ry: int
    widths: list[int]
    heights: list[int]
    band: int
    pad: int

    def pair(self, a: np.ndarray, dy: int, dx: int) -> np.ndarray:
        # per colour, the step into the box across two opposite sides of the box centred at
        # each point of the region (the near side's step minus the far side's)
        r0, r1, c0, c1 = self.region
        return np.asarray(a[r0 - dy:r1 - dy, c0 - dx:c1 - dx] - a[r0 + dy:r1 + dy, c0 + dx:c1 + dx])


def _outline_search(image: np.ndarray, place: np.ndarray) -> _OutlineSearch:
    """The search :func:`card_outlines` describes, set up (at half the canonical size)."""
    cfg = section("grid")
    w, h = _cell_size()
    s = OUTLINE_SCALE
    pad = h // 2 + 4
    to_small = np.array([[s, 0, s * pad], [0, s, s * pad], [0, 0, 1]], np.float64) @ place
    size = (round((5 * w + 2 * pad) * s), round((5 * h + 2 * pad) * s))
    small = cv2.warpPerspective(image, to_small, size, flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE)
    # a card's side is a step in colour, the same way round all along its outline (paper
    # inside, table outside); summed over a band of the side's width, the two steps of a thin
    # line (a printed mat's cell lines) cancel, and so do the sides of a box on such lines
    f = small.astype(np.float32)
    gx = cv2.Sobel(f, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(f, cv2.CV_32F, 0, 1, ksize=3)
    widths = sorted({max(4, round(k * w * s / 2) * 2) for k in cfg["register_widths"]})
    heights = sorted({max(4, round(k * h * s / 2) * 2) for k in cfg["register_heights"]})
    reach = float(cfg["register_search"])
    rx, ry = round(reach * w * s), round(reach * h * s)
    cy = np.array([round((pad + (r + 0.5) * h) * s) for r in range(5)])
    cx = np.array([round((pad + (c + 0.5) * w) * s) for c in range(5)])
    rows = cy[:, None] + np.arange(-ry, ry + 1)[None, :]
    cols = cx[:, None] + np.arange(-rx, rx + 1)[None, :]
    # only the boxes centred in some cell's search window are scored (the region r0:r1,
    # c0:c1); sizes whose sides would reach outside the warp from there are not tried
    hh, ww = gx.shape[:2]
    r0, r1, c0, c1 = int(rows.min()), int(rows.max()) + 1, int(cols.min()), int(cols.max()) + 1
    widths = [k for k in widths if k // 2 <= min(c0, ww - c1)] or [min(c0, ww - c1) * 2]
    heights = [k for k in heights if k // 2 <= min(r0, hh - r1)] or [min(r0, hh - r1) * 2]
    return _OutlineSearch(gx, gy, (r0, r1, c0, c1), rows - r0, cols - c0, cx, cy, rx, ry,
                          widths, heights, int(cfg["register_band"]), pad)


def _strength(steps: np.ndarray) -> np.ndarray:
    # the colours' steps summed (a matrix transform: numpy's sum over three is slow); the
    # steps are a scratch array, made positive in place
    return np.asarray(cv2.transform(np.abs(steps, out=steps), np.ones((1, 3), np.float32)))


def card_outlines(image: np.ndarray, place: np.ndarray
                  ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
    """Where each cell's card outline lies: per cell (top row first) the centre of the
    card-sized box whose four sides run along the strongest edges near the cell (area pixels,
    as ``place`` maps the image), the mean edge strength along those sides, and the card size
    found (canonical pixels; one for the whole picture).

    The search is at half the canonical size, each box within ``register_search`` of a cell
    away from its cell's middle: far enough for an area a third of a cell off, not so far that
    a neighbour's card is taken for the cell's own. The card's width is chosen first (its left
    and right sides at a middling height), then its height (top and bottom at that width)."""
    o = _outline_search(image, place)
    s, pad, rows, cols, rx, ry = OUTLINE_SCALE, o.pad, o.rows, o.cols, o.rx, o.ry
    widths, heights, pair, strength = o.widths, o.heights, o.pair, _strength

    def fit(score: np.ndarray) -> float:
        # each cell's best box: the maximum over its window's rows, then over its columns
        # (the same maximum as over its window cut out, without the copy)
        return float(score[rows].max(axis=1)[:, cols].max(axis=2).ravel().sum())

    sides = cv2.boxFilter(o.gx, -1, (o.band, heights[len(heights) // 2]))
    cw = max(widths, key=lambda k: fit(strength(pair(sides, 0, k // 2))))
    across = pair(sides, 0, cw // 2)
    tops = cv2.boxFilter(o.gy, -1, (cw, o.band))

    def boxed(dy: int) -> np.ndarray:
        # the four sides' steps: the top and bottom's, the left and right's added in place
        steps = pair(tops, dy, 0)
        steps += across
        return steps

    scores = {ch: strength(boxed(ch // 2)) for ch in heights}
    ch = max(heights, key=lambda k: fit(scores[k]))
    win = _windows(scores[ch], rows, cols)
    at = win.argmax(axis=1)
    edge = win[np.arange(25), at].astype(np.float64) / 16
    k = np.arange(25)
    centres = np.stack([(o.cx[k % 5] - rx + at % (2 * rx + 1)) / s - pad,
                        (o.cy[k // 5] - ry + at // (2 * rx + 1)) / s - pad], axis=1)
    return centres, edge, (round(cw / s), round(ch / s))


def _card_printed(image: np.ndarray, place: np.ndarray, centres: np.ndarray,
                  size: tuple[int, int]) -> np.ndarray:
    """How much print each box found (:func:`card_outlines`: centres in area pixels, the card
    size) shows in its middle (the mean absolute Laplacian of grey over the box's middle half)
    against the bare table's (the median over the strip of table around the area, in pieces
    of the same size): a card carries its value's print, a box on a table's blotch or on the
    bare table beside a neighbour card does not."""
    w, h = _cell_size()
    pad = h // 2 + 4
    shift = np.array([[1, 0, pad], [0, 1, pad], [0, 0, 1]], np.float64)
    area = cv2.warpPerspective(image, shift @ place, (5 * w + 2 * pad, 5 * h + 2 * pad),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(area, cv2.COLOR_BGR2GRAY)
    lap = np.abs(cv2.Laplacian(grey.astype(np.float32), cv2.CV_32F, ksize=3))
    cw, ch = size
    qw, qh = max(2, cw // 4), max(2, ch // 4)
    hh, ww = lap.shape
    integral = cv2.integral(lap)

    def mean(x: float, y: float) -> float:
        x0, x1 = max(0, round(x) - qw), min(ww, round(x) + qw)
        y0, y1 = max(0, round(y) - qh), min(hh, round(y) + qh)
        if x1 <= x0 or y1 <= y0:
            return 0.0
        return float((integral[y1, x1] - integral[y0, x1] - integral[y1, x0] + integral[y0, x0])
                     / ((x1 - x0) * (y1 - y0)))

    # the table around the area: pieces along the pad's middle line (markers at the corners
    # are left out by the median)
    ring = [mean(pad + (k + 0.5) * w, pad / 2) for k in range(5)]
    ring += [mean(pad + (k + 0.5) * w, hh - pad / 2) for k in range(5)]
    ring += [mean(pad / 2, pad + (k + 0.5) * h) for k in range(5)]
    ring += [mean(ww - pad / 2, pad + (k + 0.5) * h) for k in range(5)]
    table = max(1e-3, float(np.median(ring)))
    return np.array([mean(x + pad, y + pad) / table for x, y in centres])


def _max_around(win: np.ndarray, ty: int, tx: int) -> np.ndarray:
    """Each of the stacked maps ``win`` (n, rows, columns; none negative) at every point the
    largest within ``ty`` rows and ``tx`` columns of it (a grey dilation of all maps at once:
    stacked one under the other, ``ty`` rows of zeros between)."""
    n, rows, cols = win.shape
    stacked = np.zeros((n, rows + 2 * ty, cols), np.float32)
    stacked[:, ty:ty + rows] = win
    grown = cv2.dilate(stacked.reshape(-1, cols), np.ones((2 * ty + 1, 2 * tx + 1), np.uint8),
                       borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return np.asarray(grown.reshape(n, rows + 2 * ty, cols)[:, ty:ty + rows])


def _outline_windows(image: np.ndarray, place: np.ndarray) -> list[np.ndarray]:
    """:func:`card_outlines`' box scores for every card size tried (not one chosen): per size,
    each cell's scores over its search window, (25, rows, columns), the window's middle at
    the cell's middle (mean edge steps, as ``card_outlines`` reports a box's strength)."""
    o = _outline_search(image, place)
    tops = {cw: cv2.boxFilter(o.gy, -1, (cw, o.band)) for cw in o.widths}
    out = []
    for ch in o.heights:
        across = cv2.boxFilter(o.gx, -1, (o.band, ch))
        for cw in o.widths:
            steps = o.pair(tops[cw], ch // 2, 0)
            steps += o.pair(across, 0, cw // 2)
            out.append(_windows(_strength(steps), o.rows, o.cols).reshape(
                25, 2 * o.ry + 1, 2 * o.rx + 1) / 16)
    return out
