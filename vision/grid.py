"""Reading the Robot Master play area: the card value (0..5) or nothing in each of 25 cells.

The play-area markers 42..45 (clockwise from top-left) give a homography, which the cards' own
outlines then correct (:func:`register`: markers are stuck down by hand, cards laid on a lattice
of their own); the 5x5 area is warped to canonical cells. Where the area lies inside the
markers, and what each value's card looks like, is learnt from the user's own labelled grids
during calibration: each cell is compared with the calibration's cells (shifted and turned
copies included) and takes the nearest example's value, but only when that example is clearly
nearer than any example of another value and near enough to be like anything seen at all (a
hand over the cell is not).
"""

from __future__ import annotations

import base64
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from companion.ports import GridObservation
from vision import markers
from vision.blas import one_blas_thread
from vision.errors import NoPlayAreaFound
from vision.thresholds import section

# readings must not depend on how many BLAS threads numpy happened to start with
one_blas_thread()

Region = tuple[int, int, int, int]
EMPTY = 6  # class index of an empty cell
PRINT_ONLY = -1  # a cell whose value only its print may tell (no nearest calibration card)
Grid = list[list[int | None]]
OUTLINE_SCALE = 0.5  # card outlines are searched at half the canonical size


def _cell_size() -> tuple[int, int]:
    cfg = section("grid")
    return int(cfg["cell_width"]), int(cfg["cell_height"])


def area_features(area: np.ndarray, margin: int = 4, dx: int = 0, dy: int = 0,
                  turned: bool = False) -> np.ndarray:
    """Features of the 25 cells of a rectified area, top row first: (25, n).

    Shape is a histogram of oriented gradients (8x8-pixel cells, 9 unsigned orientations,
    2x2-cell blocks each normalised; OpenCV 5 no longer ships one); colour is each cell's mean
    and spread on its own brightest paper. ``turned`` reads the cells turned by 180 degrees.
    """
    w, h = _cell_size()
    img = area[margin + dy:margin + dy + 5 * h, margin + dx:margin + dx + 5 * w]
    if turned:
        img = cv2.rotate(img, cv2.ROTATE_180)
    g = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=1)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=1)
    mag, ang = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    del g, gx, gy  # memory: a grid reading's numpy peak is this function's (0.3 MB an array)
    # unsigned orientation in 20-degree bins: 180..360 degrees fall in the bins of 0..180 (the
    # fraction past a bin's start is the same either way: subtracting 9 from 9..18 is exact)
    # (in place where an array is not needed again: each copy costs as much as the arithmetic)
    pos = np.multiply(ang, np.float32(1 / 20.0), out=ang)
    base = np.floor(pos)
    frac = np.subtract(pos, base, out=pos)
    hc, wc = h // 8, w // 8
    n = 5 * hc * 5 * wc * 9
    # each pixel votes into its two nearest orientations: the bins' indices come from a table
    # (cheaper than folding and fixing the wrap-around in place)
    # (the steps, 0..18, as bytes looked up in 256-entry tables by cv2.LUT: the same bins
    # as np.take on the 19-entry tables, for a third of its cost)
    at = base.astype(np.uint8)
    del base
    cell = _hog_cells(w, h)
    lo = cell + cv2.LUT(at, _BIN_LO_BYTES)
    hi = cell + cv2.LUT(at, _BIN_HI_BYTES)
    del at
    upper = np.multiply(mag, frac, out=frac)
    lower = np.subtract(mag, upper, out=mag)
    counts = (np.bincount(lo.ravel(), lower.ravel(), n)
              + np.bincount(hi.ravel(), upper.ravel(), n))
    cells = counts.astype(np.float32).reshape(5 * hc, 5 * wc, 9)
    hist = cells.reshape(5, hc, 5, wc, 9).transpose(0, 2, 1, 3, 4)  # (row, col, hc, wc, 9)
    # 2x2-cell blocks: the four neighbours side by side, in (row, column, orientation) order
    blocks = np.concatenate([hist[:, :, :-1, :-1], hist[:, :, :-1, 1:], hist[:, :, 1:, :-1],
                             hist[:, :, 1:, 1:]], axis=-1).reshape(5, 5, -1, 36)
    blocks /= np.linalg.norm(blocks, axis=-1, keepdims=True) + 1e-3
    shape = blocks.reshape(25, -1)
    shape /= np.linalg.norm(shape, axis=1, keepdims=True) + 1e-6
    # each cell's mean colour and the spread of its green: an area resize to 5x5 averages
    # exactly the cells' pixels (much cheaper than reducing over the pixels)
    f = img.astype(np.float32)
    mean = cv2.resize(f, (5, 5), interpolation=cv2.INTER_AREA).reshape(25, 3)
    square = cv2.resize(f[..., 1] * f[..., 1], (5, 5), interpolation=cv2.INTER_AREA).reshape(25)
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


@dataclass
class GridLook:
    """What calibration learnt about the user's play area and cards."""

    inset: tuple[float, float] = (0.0, 0.0)
    features: np.ndarray = field(default_factory=lambda: np.zeros((0, 1), np.float32))
    classes: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    max_distance: float = 0.0
    #: grey templates of each value's print (half the canonical cell, centre of the card)
    templates: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), np.uint8))
    template_values: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    #: where the values' prints differ (the card's common paper and border left out)
    template_masks: np.ndarray = field(default_factory=lambda: np.zeros((0, 1, 1), np.uint8))
    #: what an empty cell shows: ``table`` (the table around the area) or a printed ``mat``
    bare_mode: str = "table"
    #: the calibration's empty cells: their colour in each picture (BGR, white-balanced)
    bare: np.ndarray = field(default_factory=lambda: np.zeros((0, 3), np.float32))
    bare_texture: float = 0.0
    #: each value's card colour (the middle's median as :func:`_colour_key`; NaN when unseen)
    #: and how far calibration cards of that value strayed from it
    value_colours: np.ndarray = field(default_factory=lambda: np.zeros((0, 4), np.float32))
    value_spread: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float32))
    #: (6, 6): [a, b] the highest :func:`pair_score` of ``a`` over ``b`` that any calibration
    #: card of value ``b`` reached, its value's templates learnt without its picture (NaN where
    #: too few cards of either value were seen: no pairwise reading)
    pair_floor: np.ndarray = field(default_factory=lambda: np.full((6, 6), np.nan, np.float32))
    #: (6, 2): where each value's mean print (the way up :func:`learn_templates` stores it)
    #: lies on its card: its middle's (dy, dx) from the card's middle, the median over the
    #: calibration cards (NaN when unseen: no pairwise reading)
    print_offsets: np.ndarray = field(
        default_factory=lambda: np.full((6, 2), np.nan, np.float32))

    @property
    def learnt(self) -> bool:
        return len(self.classes) > 0 and len(self.template_values) > 0

    def to_json(self) -> dict[str, Any]:
        f16 = self.features.astype(np.float16)
        return {"inset": list(self.inset), "max_distance": self.max_distance,
                "shape": list(f16.shape), "classes": self.classes.tolist(),
                "features": base64.b64encode(f16.tobytes()).decode("ascii"),
                "template_shape": list(self.templates.shape),
                "template_values": self.template_values.tolist(),
                "templates": base64.b64encode(self.templates.tobytes()).decode("ascii"),
                "template_masks": base64.b64encode(self.template_masks.tobytes()).decode("ascii"),
                "template_scale": 1, "bare_mode": self.bare_mode, "bare": self.bare.tolist(),
                "bare_texture": self.bare_texture,
                "value_colours": self.value_colours.tolist(),
                "value_spread": self.value_spread.tolist(),
                # JSON has no NaN: an unlearnt pair is null
                "pair_floor": [[None if np.isnan(x) else float(x) for x in row]
                               for row in self.pair_floor.tolist()],
                "print_offsets": [[None if np.isnan(x) else float(x) for x in row]
                                  for row in self.print_offsets.tolist()]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GridLook:
        raw = base64.b64decode(data["features"])
        features = np.frombuffer(raw, np.float16).reshape(data["shape"]).astype(np.float32)
        templates = np.frombuffer(base64.b64decode(data["templates"]), np.uint8).reshape(
            data["template_shape"])
        masks = np.frombuffer(base64.b64decode(data["template_masks"]), np.uint8).reshape(
            data["template_shape"])
        if data.get("template_scale", 2) != 1 and len(templates):
            # stored by an older version at half the canonical size: brought to full size
            size = (templates.shape[2] * 2, templates.shape[1] * 2)
            templates = np.stack([cv2.resize(t, size) for t in templates])
            masks = np.stack([cv2.resize(m, size, interpolation=cv2.INTER_NEAREST)
                              for m in masks])
        return cls((float(data["inset"][0]), float(data["inset"][1])), features,
                   np.array(data["classes"], np.int64), float(data["max_distance"]),
                   templates.copy(), np.array(data["template_values"], np.int64), masks.copy(),
                   str(data.get("bare_mode", "table")),
                   np.array(data.get("bare", []), np.float32).reshape(-1, 3),
                   float(data.get("bare_texture", 0.0)),
                   np.array(data.get("value_colours", []), np.float32).reshape(-1, 4),
                   np.array(data.get("value_spread", []), np.float32),
                   # stored before the pairwise reading: none (as for an unseen pair)
                   np.array(data.get("pair_floor", [[None] * 6] * 6), np.float64)
                   .astype(np.float32),
                   # stored before the prints' offsets were learnt: no pairwise reading
                   np.array(data.get("print_offsets", [[None] * 2] * 6), np.float64)
                   .astype(np.float32))


def find_area(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The four play-area marker centres (4x2), clockwise from top-left, and the markers' white
    (BGR), the picture's reference for colours. With one marker hidden (a hand), the fourth
    corner is completed as a parallelogram."""
    found = _area_markers(image)
    centres = {m - markers.PLAY_AREA_IDS[0]: q.mean(axis=0) for m, q in found.items()}
    if len(centres) < 3:
        raise NoPlayAreaFound("the play area's corner markers are not in view")
    if len(centres) == 3:
        (missing,) = set(range(4)) - set(centres)
        opposite = (missing + 2) % 4
        centres[missing] = centres[(missing + 1) % 4] + centres[(missing + 3) % 4] \
            - centres[opposite]
    white = np.mean(markers.whites(image, list(found.values())), axis=0)
    return np.stack([centres[i] for i in range(4)]).astype(np.float32), white


#: per thread, where the play-area markers were found in the last picture (its size, and each
#: marker's id and corners in the order the whole picture's search gave them)
_last_seen = threading.local()


def _area_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """The play-area markers (id -> corners). The camera and the markers stuck down stay put
    between frames, so they are looked for first near where this thread's last picture of
    the same size showed all four (:func:`markers.detect_near`: the same corners, for a
    twentieth of a whole picture's search); only when that does not find all four is the
    whole picture searched. (Not seen so: a second marker of the same id put down elsewhere
    once the area was found, which the whole picture's search would drop as a duplicate.)"""
    size = image.shape[:2]
    last = getattr(_last_seen, "markers", None)
    if last is not None and last[0] == size:
        found = markers.detect_near(image, last[1], markers.PLAY_AREA_IDS)
        if len(found) == 4:
            _last_seen.markers = (size, list(found.items()))
            return found
    found = markers.detect(image, markers.PLAY_AREA_IDS, lambda f: len(f) == 4)
    if len(found) < 3:
        found = _area_markers_closer(image, found)
    _last_seen.markers = (size, list(found.items())) if len(found) == 4 else None
    return found


def _area_markers_closer(image: np.ndarray, found: dict[int, np.ndarray]
                         ) -> dict[int, np.ndarray]:
    """Where fewer than three play-area markers were found (no area: the picture would be
    asked whole), the picture searched again with each marker's bits read from
    ``area_retry_pixels_per_cell`` pixels a cell; the markers found either way (the first
    search's where both found one) when that gives all four, else ``found`` as it was.
    Markers 24-35 pixels a side, slightly soft, were found as candidates but their bits
    misread at 4 pixels a cell (other art 10511 g019, 10913 g010: two of four found, clean
    pictures). No bit is corrected either way, so no other id is read for one. Only all four
    count: a second look that still needs a corner guessed is a picture with a marker hidden
    (a hand) as well as misread ones, and there the reader went on to read a card under the
    hand's fingers wrong (own art h9812 g026, a 0 read as a 1 at confidence 0.12)."""
    ppc = int(section("grid")["area_retry_pixels_per_cell"])
    again = markers.detect(image, markers.PLAY_AREA_IDS, lambda f: len(f) == 4,
                           pixels_per_cell=ppc)
    both = {**again, **found}
    return both if len(both) == 4 else found


def _area_homography(corners: np.ndarray, inset: tuple[float, float], margin: int,
                     place: np.ndarray | None = None) -> np.ndarray:
    """Image pixels -> canonical area pixels (the area starts ``margin`` pixels in).
    ``place``: the area's own homography (image -> area pixels, no margin) when the cards
    have registered it (:func:`register`); corners and inset are then not used."""
    if place is not None:
        return np.asarray(np.array([[1, 0, margin], [0, 1, margin], [0, 0, 1]], np.float64) @ place)
    w, h = _cell_size()
    ax, ay = inset
    # the area inside the marker quad, in the quad's own 0..1 coordinates
    unit = np.array([[ax, ay], [1 - ax, ay], [1 - ax, 1 - ay], [ax, 1 - ay]], np.float32)
    H_quad = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), corners)
    area = cv2.perspectiveTransform(unit.reshape(-1, 1, 2), H_quad).reshape(4, 2)
    dst = np.array([[margin, margin], [margin + 5 * w, margin], [margin + 5 * w, margin + 5 * h],
                    [margin, margin + 5 * h]], np.float32)
    return cv2.getPerspectiveTransform(area.astype(np.float32), dst)


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


def _line_fit(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The least-squares line y = a x + b (as ``np.polyfit(x, y, 1)`` gives it, up to rounding:
    its general solver costs more than the whole fit)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    mx, my = float(x.mean()), float(y.mean())
    dx = x - mx
    spread = float((dx * dx).sum())
    if spread == 0.0:  # one x for all: the general solver's least-norm answer
        a, b = np.polyfit(x, y, 1)
        return float(a), float(b)
    a = float((dx * (y - my)).sum() / spread)
    return a, my - a * mx


def _lattice_consensus(src: np.ndarray, dst: np.ndarray, tol: float) -> np.ndarray:
    """Which boxes (centres ``src``, their cells' middles ``dst``) agree on one lattice: the
    most boxes one shift, turn and scale brings within ``tol`` of their cells' middles
    (RANSAC, two boxes a sample), then as many as one stretch and shift along each axis,
    fitted to those, brings there (again from the boxes it brings, while they grow).

    An affine map (three boxes a sample) fits any three boxes exactly, shear included, which a
    lattice of hand-laid cards does not have: boxes off real cards (on a neighbour card's
    edge, across two cards laid each a little askew) agreed on lattices of their own often
    enough that whole pictures were asked as "astray" that read right cell for cell at the
    markers' area (14 of 550 clean grids, 12 of them right there). A stretch per axis is what
    the cards' spacing adds to the markers' area, so it is fitted once the lattice is found.

    The area as it stands (the boxes already within ``tol`` of their cells' middles) is always
    one of the lattices tried, and is taken when it takes in more boxes than RANSAC's: its
    samples can miss it, and a stretch grown from a column of boxes on empty cells (each
    snapped to a neighbour card's edge) once took 12 boxes a third of a cell off where 14,
    the cards among them, lay in their cells' middles (own art 9742 g017)."""
    none = np.zeros(len(src), bool)
    if len(src) < 2:
        return none
    # (only which boxes agree is used, not the map: RANSAC's own refinement of it is skipped)
    _, inl = cv2.estimateAffinePartial2D(src, dst, method=cv2.RANSAC, ransacReprojThreshold=tol,
                                         refineIters=0)
    here = _stretch_grown(src, dst, tol, np.linalg.norm(src - dst, axis=1) <= tol)
    if inl is None:
        return here
    found = _stretch_grown(src, dst, tol, inl.ravel() > 0)
    return here if here.sum() > found.sum() else found


def _stretch_grown(src: np.ndarray, dst: np.ndarray, tol: float, ok: np.ndarray) -> np.ndarray:
    """:func:`_lattice_consensus`'s boxes ``ok`` taken in by a stretch and shift along each
    axis fitted to them, while they grow (at most three times)."""
    if ok.sum() < 2:
        return ok
    for _ in range(3):
        s, d = src[ok], dst[ok]
        if np.ptp(d, axis=0).min() <= 0:
            break  # one row or column: no spacing to fit along the other axis
        # per axis, the least-squares line from the box's to its cell's coordinate
        s_mean, d_mean = s.mean(axis=0), d.mean(axis=0)
        slope = ((s - s_mean) * (d - d_mean)).sum(axis=0) / ((s - s_mean) ** 2).sum(axis=0)
        fit = (src - s_mean) * slope + d_mean
        again = np.linalg.norm(fit - dst, axis=1) <= tol
        if again.sum() <= ok.sum():
            break
        ok = again
    return ok


def _lattice_fit(src: np.ndarray, dst: np.ndarray, spread: bool) -> np.ndarray | None:
    """The simplest correction (area pixels -> area pixels) that brings the cards found
    (``src``) to their cells' middles (``dst``) about as well as the outlines can tell: none,
    a stretch and shift along each axis, an affine map, or (``register_min_cards`` cards
    spanning three rows and columns: ``spread``) a homography. A map with more freedom is
    taken only when it leaves clearly less (``register_gain``) of the mismatch per degree of
    freedom left; None when none is needed (within ``register_noise`` of a cell)."""
    cfg = section("grid")
    w, _ = _cell_size()
    n = len(src)
    noise = (float(cfg["register_noise"]) * w) ** 2
    gain = float(cfg["register_gain"])

    def spread_of(fit: np.ndarray, freedom: int) -> float:
        return float(((fit - dst) ** 2).sum() / max(1, 2 * n - freedom))

    best: np.ndarray | None = None
    best_spread = spread_of(src, 0)
    if best_spread <= noise:
        return None
    ax, bx = _line_fit(src[:, 0], dst[:, 0])
    ay, by = _line_fit(src[:, 1], dst[:, 1])
    options: list[tuple[np.ndarray, int]] = [
        (np.array([[ax, 0, bx], [0, ay, by], [0, 0, 1]], np.float64), 4)]
    A, _ = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)
    if A is not None:
        options.append((np.vstack([A, [0, 0, 1]]), 6))
    if spread and n >= int(cfg["register_min_cards"]):
        H, _ = cv2.findHomography(src, dst, 0)
        if H is not None:
            options.append((H, 8))
    for M, freedom in options:
        fit = cv2.perspectiveTransform(src.reshape(-1, 1, 2), M).reshape(-1, 2)
        v = spread_of(fit, freedom)
        if v < best_spread * gain:
            best, best_spread = M, v
    return best


def register(image: np.ndarray, place: np.ndarray) -> tuple[np.ndarray, bool]:
    """:func:`register_checked` without telling whether the cards led astray."""
    out, confirmed, _ = register_checked(image, place)
    return out, confirmed


def register_checked(image: np.ndarray, place: np.ndarray) -> tuple[np.ndarray, bool, bool]:
    """The area's homography (image -> area pixels) corrected so the cards found
    (:func:`card_outlines`) lie in the middle of their cells: the markers alone place the area
    only as well as they were stuck down and the fourth corner guessed when one is hidden, and
    cards are laid on a lattice of their own. Cards whose outlines agree on one affine lattice
    (RANSAC, within ``register_tolerance`` of a cell) re-fit the area (:func:`_lattice_fit`);
    with fewer than four spanning two rows and columns, or a correction moving a cell's middle
    or the area's corner more than ``register_max_move`` of a cell, the markers' homography is
    kept. A correction that moved a cell more than ``register_again`` of a cell is looked at
    again from where it led (cards far off their cells are found only once nearer), up to
    ``register_passes`` times; it is kept only once a pass moves no cell more than that (the
    cards then agree with where it led), else the markers' homography is. Also whether the
    cards confirmed the area (re-fit it, or found it right as it was), and whether they said
    it is off but no correction could be trusted ("astray": the cards agree on a lattice more
    than ``register_max_move`` off the markers' area, or the corrections did not settle).

    Where the cards said astray, they are asked again with only the boxes that show a card's
    print in their middle (:func:`_card_printed`): boxes on a mottled table's blotches, or on
    the bare table beside a card, can agree on a lattice of their own; when the printed ones
    alone confirm an area within ``register_max_move`` of the markers', that is taken. Too few
    printed cards to tell, or printed cards astray too, leave the picture astray."""
    out, confirmed, astray = _register_checked(image, place, printed=False)
    if astray:
        again, confirmed_again, _ = _register_checked(image, place, printed=True)
        if confirmed_again:
            return again, True, False
        if _markers_hold(image, place):
            return place, True, False
    elif confirmed and _moved_far_but_held(image, place, out):
        return place, True, False
    return out, confirmed, astray


def _moved_far_but_held(image: np.ndarray, place: np.ndarray, out: np.ndarray) -> bool:
    """Whether a confirmed correction ``out`` moved a cell more than ``register_hold_move``
    of a cell while the markers' area ``place`` holds (:func:`_markers_hold`). Pale cards on a
    pale table (the paper the table's colour: 228,227,217 against 230,230,230) show almost no
    outline; the passes' boxes sit on the prints, a card size of 0.64-0.72 of a cell wins where
    the cards are 0.84, and the boxes agree on a lattice 0.39-0.45 of a cell off (other art
    10722: every template then scores about 0.6, at the markers' area 0.85-0.98). Cards truly
    that far off their cells do not hold the markers' area (other art 9201)."""
    if _move(place, out) <= float(section("grid")["register_hold_move"]):
        return False
    return _markers_hold(image, place)


def _markers_hold(image: np.ndarray, place: np.ndarray) -> bool:
    """Whether the cards lie where the markers put the area, judged without the passes: the
    card size is the one whose boxes, all 25 cells' together, best fit one lattice (each
    cell's box allowed ``register_tolerance`` of a cell from it), and every box strong enough
    to vote (at least four, spanning two rows and two columns) must score at its cell's
    middle (within ``register_tolerance``) at least ``register_hold_share`` of its best
    anywhere in its cell's search window, but ``register_hold_spare`` boxes when at least
    ``register_hold_votes`` vote.

    The passes take each cell's single best box at one card size chosen cell by cell's best,
    and both are brittle where the cards are narrow (own art's cards are 0.7 of a cell wide:
    sizes of 0.8-0.92 won and the boxes swung from side to side between passes) or their
    outlines faint against their print (cream cards on a lilac cloth): 16 of 280 clean
    pictures were asked whole as astray that read right at the markers' area. A card truly
    off its cell shows its best box off the middle and a weak one there (other art 9201,
    cards up to half a cell off: at most 0.45 of the best at the middle on its worst card)."""
    cfg = section("grid")
    w, h = _cell_size()
    windows = _outline_windows(image, place)
    tx, ty = (max(1, round(float(cfg["register_tolerance"]) * d * OUTLINE_SCALE))
              for d in (w, h))

    def lattice_fit(win: np.ndarray) -> float:
        # each cell's best box within the tolerance of every lattice position, summed
        return float(_max_around(win, ty, tx).sum(axis=0).max())

    win = max(windows, key=lattice_fit)
    best = win.reshape(25, -1).max(axis=1)
    ry, rx = (win.shape[1] - 1) // 2, (win.shape[2] - 1) // 2
    middle = win[:, ry - ty:ry + ty + 1, rx - tx:rx + tx + 1].reshape(25, -1).max(axis=1)
    strong = best >= float(cfg["register_edge_share"]) * best.max()
    strong &= best >= float(cfg["register_min_edge"])
    at = np.arange(25)[strong]
    if len(at) < 4 or len(set(at // 5)) < 2 or len(set(at % 5)) < 2:
        return False
    # (one box may stray when enough vote: a box on an empty cell snapped to a neighbour
    # card's edge has nothing at its own middle)
    spare = int(cfg["register_hold_spare"]) if len(at) >= int(cfg["register_hold_votes"]) else 0
    share = float(cfg["register_hold_share"])
    return int((middle[strong] < share * best[strong]).sum()) <= spare


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


def _register_checked(image: np.ndarray, place: np.ndarray, printed: bool
                      ) -> tuple[np.ndarray, bool, bool]:
    """:func:`register_checked`'s passes, every box voting or (``printed``) only the boxes
    that show a card's print."""
    cfg = section("grid")
    out = place
    moved_before = False
    for _ in range(int(cfg["register_passes"])):
        again, ok, moved = _register_once(image, out, printed, later=moved_before)
        if not ok:
            # too few cards to tell is no sign; cards agreeing on a lattice too far off is
            return place, False, moved > float(cfg["register_max_move"]) or moved_before
        out = again
        if _move(place, out) > float(cfg["register_max_move"]):
            # the passes together went farther than one may: maybe onto the lattice one cell
            # over (an area 0.6 of a cell off snapped to the cards one column on)
            return place, False, True
        if moved <= float(cfg["register_again"]):
            return out, True, False
        moved_before = True
    # the corrections did not settle (boxes on prints or shadows rather than the cards'
    # outlines lead the area astray, a pass at a time): the markers' area is kept
    return place, False, True


def _move(a: np.ndarray, b: np.ndarray) -> float:
    """How far (in cells) the cells' middles lie apart under two homographies (image -> area)
    of the same area."""
    w, h = _cell_size()
    pts = np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)
    there = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), b @ np.linalg.inv(a))
    return float((np.abs(there.reshape(-1, 2) - pts) / (w, h)).max())


def _register_once(image: np.ndarray, place: np.ndarray, printed: bool = False,
                   later: bool = False) -> tuple[np.ndarray, bool, float]:
    """One pass of :func:`register`: the corrected homography, whether the cards confirmed
    the area, and how far (in cells) the correction moved a cell's middle or corner (only the
    boxes showing a card's print voting, with ``printed``).

    A ``later`` pass (one looking again from where a correction led) also confirms the area
    when too few boxes agree to fit a lattice but every box strong enough to vote, at least
    three spanning two rows and two columns, lies within ``register_tolerance`` of its cell's
    middle: with three or four cards on the area, a box first found on an empty cell beside
    them drops out once the area is nearer, or a card's box lies just outside the lattice the
    others fit, and the cards found lie where the correction put them (other art 9324 g019,
    3503 g002: declined as astray before)."""
    cfg = section("grid")
    w, h = _cell_size()
    centres, strength, size = card_outlines(image, place)
    nominal = np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)
    strong = strength >= float(cfg["register_edge_share"]) * strength.max()
    strong &= strength >= float(cfg["register_min_edge"])
    if printed and strong.any():
        # print against the bare table's, and against the boxes' own (a box half on a card,
        # half on the table beside it, shows some)
        ink = _card_printed(image, place, centres, size)
        strong &= ink >= max(float(cfg["register_print"]),
                             float(cfg["register_print_share"]) * float(np.median(ink[strong])))
    src, dst = centres[strong], nominal[strong]
    rows, cols = np.arange(25)[strong] // 5, np.arange(25)[strong] % 5
    tol = float(cfg["register_tolerance"]) * w
    # (a later pass: the cards found all lie where the correction put them)
    there = (later and len(src) >= 3 and len(set(rows)) >= 2 and len(set(cols)) >= 2
             and bool((np.linalg.norm(src - dst, axis=1) <= tol).all()))
    if strong.sum() < 4:
        return place, there, 0.0
    ok = _lattice_consensus(src, dst, tol)
    if ok.sum() < 4 or len(set(rows[ok])) < 2 or len(set(cols[ok])) < 2:
        return place, there, 0.0
    correction = _lattice_fit(src[ok], dst[ok], len(set(rows[ok])) >= 3
                              and len(set(cols[ok])) >= 3)
    if correction is None:
        return place, True, 0.0  # the cards lie where the markers say
    # how far the correction moves each cell's centre and the area's corners
    corners = np.array([[0, 0], [5 * w, 0], [5 * w, 5 * h], [0, 5 * h]], np.float64)
    pts = np.concatenate([nominal, corners])
    moved = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(correction))
    move = float((np.abs(moved.reshape(-1, 2) - pts) / (w, h)).max())
    if move > float(cfg["register_max_move"]):
        return place, False, move
    return np.asarray(correction @ place), True, move


def rectify(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
            margin: int = 4, white: np.ndarray | None = None,
            place: np.ndarray | None = None) -> np.ndarray:
    """The 5x5 area warped to canonical cells, with ``margin`` pixels around (for shifts)."""
    w, h = _cell_size()
    H = _area_homography(corners, inset, margin, place)
    area = cv2.warpPerspective(image, H, (5 * w + 2 * margin, 5 * h + 2 * margin),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return area if white is None else balance(area, white)


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


def balance(area: np.ndarray, white: np.ndarray) -> np.ndarray:
    """White-balanced on the markers' paper: colours compare across pictures and lamps."""
    gain = 230.0 / np.maximum(np.asarray(white, np.float64), 8.0)
    # one lookup table per channel: cheaper than multiplying every pixel in floats
    lut = np.clip(np.arange(256)[:, None] * gain[None, :], 0, 255).astype(np.uint8)
    return np.asarray(cv2.LUT(area, lut.reshape(256, 1, 3)))


def table_patches(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
                  white: np.ndarray | None = None, big: np.ndarray | None = None,
                  place: np.ndarray | None = None
                  ) -> tuple[np.ndarray, np.ndarray, list[np.ndarray], np.ndarray]:
    """:func:`table_features`, the usual patches' pixels (white-balanced) and their centres
    (x, y in cells from the area's top-left corner). ``big``: the area already rectified with
    :func:`table_margin` around (and balanced)."""
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
    feats = area_features(mosaic)[:min(len(crops), 25)]
    crops = crops[:25]
    at = np.array(centres[:25], np.float32)
    if len(feats) < 4:
        return feats, np.zeros((0, feats.shape[1]), np.float32), crops, at
    # an arm reaching over the table is not the table: keep the patches that look like most;
    # the others are "something foreign", and a cell that looks like them is declined
    d = _distances(feats, feats)
    typical = np.median(d, axis=1)
    usual = typical <= np.median(typical) * float(section("grid")["table_outlier"])
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


def _like(px: np.ndarray, ref: np.ndarray, tolerance: float | None = None) -> np.ndarray:
    """Per cell (``px``: (n, k, 3)), the share of pixels showing the colour ``ref`` (BGR, one
    or one per cell): the same shares of B, G and R (a hand in shade is as dark as a green
    mat, not as green; within ``tolerance``, by default ``empty_hue_tolerance``) and a
    brightness within a ratio (the light falls off across the table)."""
    cfg = section("grid")
    if tolerance is None:
        tolerance = float(cfg["empty_hue_tolerance"])
    ref = np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3), (len(px), 3))
    total = px.sum(axis=2) + 1.0
    ref_total = ref.sum(axis=1, keepdims=True) + 1.0
    # (the largest of the three shares' differences taken pairwise, in place: the same
    # maximum as a reduction over an axis of three, which costs more per pixel than its work)
    hue = np.divide(px, total[..., None])
    np.subtract(hue, (ref / ref_total)[:, None, :], out=hue)
    np.abs(hue, out=hue)
    hue_ok = np.maximum(np.maximum(hue[..., 0], hue[..., 1]), hue[..., 2]) <= tolerance
    ratio = float(cfg["empty_brightness_ratio"])
    bright_ok = (total >= ref_total / ratio) & (total <= ref_total * ratio)
    return np.asarray((hue_ok & bright_ok).mean(axis=1))


def surely_empty(cells: list[np.ndarray], candidates: list[int], table: list[np.ndarray],
                 look: GridLook | None = None, table_at: np.ndarray | None = None,
                 stats: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
                 ) -> dict[int, float]:
    """Of ``candidates``, the cells that surely show the bare surface, with a confidence.

    The bare surface is this picture's table just outside the area (``table``: its usual
    patches, or those showing the calibration's surface when only some do: :func:`_bare_patches`)
    when the calibration's empty cells showed their picture's table, or else a mat
    printed under the area: its colour in this picture is what the cells that look like the
    calibration's mat (loosely: light and print runs shift it, as far again as it varied between
    the calibration pictures) have in common. A cell is surely
    empty only when nearly all its middle shows that colour and it has no more texture than
    the surface has; anything else (a hand, a sleeve, a card) makes it decline. With
    ``table_at`` (the patches' centres, in cells; the cells are the 25 of the area), each cell
    is compared with the table patches nearest to it: the light falls off across the table.
    ``stats``: :func:`_stats` of all ``cells`` when already known.
    """
    cfg = section("grid")
    share = float(cfg["empty_colour_share"])
    if not candidates:
        return {}
    if stats is None:
        px, medians, texture = _stats([cells[i] for i in candidates])
    else:  # :func:`_stats` of all the cells, computed already
        px, medians, texture = (a[candidates] for a in stats)
    mat = look is not None and look.bare_mode == "mat" and len(look.bare) > 0
    tolerance = None
    if not mat:
        if not table:
            return {}
        table_px, table_medians, table_texture = _stats(table)
        # a mat larger than the area: the patches around it show the mat in some places and
        # the table past its edge in others; the cells are held to the mat calibration saw
        keep = _bare_patches(table_medians, look)
        if keep is not None:
            table_px, table_medians, table_texture = (table_px[keep], table_medians[keep],
                                                      table_texture[keep])
            table = [table[k] for k in np.flatnonzero(keep)]
            if table_at is not None:
                table_at = table_at[keep]
        ref = np.median(table_medians, axis=0)
        # a striped or grained table shows more than one shade, and its lighter shades are
        # paler: the colour a cell must show is allowed the spread the table shows itself
        # (most pixels of a patch from the table's overall colour, in three patches of four:
        # stripes run everywhere, while an arm or a hand over the table's edge, pale skin on a
        # pale table, widens only the patches it reaches), within limits
        table_hue = table_px / (table_px.sum(axis=2, keepdims=True) + 1.0)
        # (the largest of the three shares' differences pairwise, as in :func:`_like`)
        gone = np.abs(table_hue - (ref / (ref.sum() + 1.0)))
        spread = np.maximum(np.maximum(gone[..., 0], gone[..., 1]), gone[..., 2])
        tolerance = float(np.clip(
            np.percentile(np.percentile(spread, 90, axis=1), 25)
            * float(cfg["empty_hue_spread_factor"]),
            float(cfg["empty_hue_tolerance"]), float(cfg["empty_hue_tolerance_max"])))
        texture_ref = float(np.median(table_texture))
        near = int(cfg["table_neighbours"])
        # the patches a cell is compared with must show the table's colour themselves: an arm
        # reaching over the area's edge fills the patches there, and a hand over the cells
        # next to them would look like its own "table"
        plain = _like(table_medians[:, None, :], ref, tolerance) >= 1.0
        if table_at is not None and plain.sum() > near:
            at = np.array([(i % 5 + 0.5, i // 5 + 0.5) for i in candidates], np.float32)
            dist = np.linalg.norm(at[:, None, :] - table_at[None, :, :], axis=2)
            dist[:, ~plain] = np.inf
            nearest = np.argsort(dist, axis=1)[:, :near]
            ref = np.median(table_medians[nearest], axis=1)
    else:
        assert look is not None
        # plain cells (uniform) near one of the calibration mat's colours
        plain = _like(px, medians) >= share
        hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
        bare_hue = look.bare / (look.bare.sum(axis=1, keepdims=True) + 1.0)
        ratio = (medians.sum(axis=1)[:, None] + 1.0) / (look.bare.sum(axis=1)[None, :] + 1.0)
        loose = float(cfg["mat_brightness_ratio"])
        # a mat whose colour varied between the calibration pictures (their lamps, a mat
        # swapped for another print of it) may stray as far again, each share on its own
        hue_tolerance = float(cfg["mat_hue_tolerance"]) + bare_hue.max(axis=0) \
            - bare_hue.min(axis=0)
        near = ((np.abs(hue[:, None, :] - bare_hue[None, :, :]) <= hue_tolerance).all(axis=2)
                & (ratio >= 1 / loose) & (ratio <= loose)).any(axis=1)
        # that loose tolerance (the calibration's mats differed: a green from 0.23 to 0.33
        # red share) let white cards greyed by a shadow pass for the mat, and a 1 (its paper
        # plain, its one pip too little ink) was then read as a cell as bare as they (own art
        # h10801 g056, 0.82): a plain cell nearer a card colour calibration saw than to the
        # calibration's mat nearest it, and rougher than that mat may be (its pip), is a card,
        # not this picture's mat. (A smooth grey surface a mat calibration never saw may still
        # stand in for the mat: it shows no print.)
        nearest_bare = look.bare[np.argmin(np.linalg.norm(
            _colour_key(medians)[:, None, :] - _colour_key(look.bare)[None, :, :], axis=2),
            axis=1)]
        near &= ~(_card_coloured(medians, nearest_bare, look)
                  & (texture > _texture_limit(look.bare_texture)))
        mats = np.flatnonzero(plain & near)
        if not len(mats):
            return {}
        if len(mats) == 1:
            # one plain cell has nothing in this picture to agree with (every other cell holds
            # a card): it is held against the calibration picture's mat it looks most like,
            # with the tolerances of this picture's own surface, and the calibration's texture
            lone = px[mats[0]][None]
            ref = look.bare[int(np.argmax([_like(lone, b)[0] for b in look.bare]))]
            texture_ref = look.bare_texture
            overall = ref
        else:
            # this picture's noise and blur set how smooth the mat looks here
            texture_ref = max(look.bare_texture, float(np.median(texture[mats])))
            overall = np.median(medians[mats], axis=0)
            # each cell against the mat cells nearest to it (never itself): the light falls
            # off across the area more than one colour allows
            at = np.array([(i % 5, i // 5) for i in candidates], np.float32)
            dist = np.linalg.norm(at[:, None, :] - at[None, mats, :], axis=2)
            dist[mats == np.arange(len(candidates))[:, None]] = np.inf
            nearest = np.argsort(dist, axis=1)[:, :min(int(cfg["table_neighbours"]),
                                                        len(mats) - 1)]
            ref = np.median(medians[mats][nearest], axis=1)
    like = _like(px, ref, tolerance)
    if ref.ndim == 2:
        # the surface here or overall: a shadow or a lamp's fall-off may favour either
        like = np.maximum(like, _like(px, overall if mat else np.median(table_medians, axis=0),
                                      tolerance))
    if not mat and look is not None and _too_noisy(texture_ref, look.bare_texture):
        return {}
    smooth = texture <= _texture_limit(texture_ref)
    if not mat and look is not None:
        smooth |= _as_smooth_as_calibration(texture, look)
    if not mat and ((like >= share) & ~smooth).any():
        # wood grain and plank seams are lines of one direction across the whole table: a
        # bare cell over a stronger stretch of grain is rougher than the table's median patch,
        # but only across the grain; a card's print and outline have edges every way
        rough = np.flatnonzero((like >= share) & ~smooth)
        smooth[rough] = _along_the_grain([cells[candidates[k]] for k in rough], table)
    ok = (like >= share) & smooth
    # where the surface's own spread widened the colour tolerance (a dim, noisy picture; a
    # striped table), a cell whose middle is nearer the colour of a card calibration saw than
    # the surface's is no proof of the bare surface, however its pixels pass: white cards on
    # a noisy lavender mat passed as empty (conf 0.52-0.73), and the cells' median colours,
    # averaged over the noise, still told paper from the mat. At the plain tolerance the
    # pixels themselves speak, and the medians of bare cloth or linen stray towards cream
    # paper now and then (five bare cells refused on held-out other art 9921 and 9993)
    if tolerance is not None and tolerance > float(cfg["empty_hue_tolerance"]) + 1e-6:
        coloured = _card_coloured(medians, ref, look)
        ok &= ~(coloured & ~_plainly_like(px, ref, share, texture, look, ok & coloured))
    # a card of the surface's own colour (cream on a cream table, in a noisy picture; cream
    # paper on a pale mat once white-balanced) passes on colour and texture, but its print is
    # darker than nearly all of the surface: an empty cell shows almost no such ink
    if not mat:
        ink_level = np.percentile(table_px.sum(axis=2), 1) * float(cfg["empty_ink_ratio"])
        ok &= (px.sum(axis=2) < ink_level).mean(axis=1) <= float(cfg["empty_ink_share"])
        ok &= ~_strays(medians, ref, ok)
    else:
        # on a mat, against the surface the cell is held to (the mat cells near it, or the
        # calibration's mat): a printed mat is plain where a cell's middle lies
        level = (ref.sum(axis=-1) if ref.ndim == 2 else np.full(len(candidates), ref.sum()))
        ink_level = level[:, None] * float(cfg["empty_ink_ratio"])
        ok &= (px.sum(axis=2) < ink_level).mean(axis=1) <= float(cfg["empty_ink_share"])
    return {i: round(min(1.0, (float(sh) - share) / (1 - share) * 0.5 + 0.5), 3)
            for i, sh, good in zip(candidates, like, ok, strict=True) if good}


def _as_smooth_as_calibration(texture: np.ndarray, look: GridLook) -> np.ndarray:
    """Per cell (its texture), whether it is no rougher than the texture limit calibration's
    bare cells set (their median texture, ``bare_texture``), on a table
    (``empty_texture_from_calibration``). The limit follows this picture's table around the
    area, and where that is smoother than the cells' own bare surface (a mat's plain margin
    around its printed cells; a stretch of table less grained than calibration's) bare cells
    as smooth as calibration's were refused: other art 10512 g020 (cells 9-11 against a
    margin's 1.8, calibration's bare cells 9.9), 9922 g013, 9995 g002. A card's print is many
    times rougher than a bare cell; the colour, ink and stray tests still apply."""
    if not bool(section("grid")["empty_texture_from_calibration"]) or look.bare_texture <= 0:
        return np.zeros(len(texture), bool)
    return np.asarray(texture <= _texture_limit(look.bare_texture), bool)


def _plainly_like(px: np.ndarray, ref: np.ndarray, share: float, texture: np.ndarray,
                  look: GridLook | None, asked: np.ndarray) -> np.ndarray:
    """Per cell (its middle's pixels and texture), whether its pixels speak for the surface
    on their own (``empty_card_colour_plain``): it shows the surface's colour (``ref``: one, or
    one per cell) at the plain tolerance (``empty_hue_tolerance``) and is no rougher than
    calibration's bare cells (the limit their median texture sets: no noise widened what it
    passes). Only the ``asked`` cells are looked at (the others are False). The card-colour
    rule is for tolerances the surface's own spread widened (a noisy picture: white cards on
    a lavender mat passed, 9931 g020, their noise 131-159 against calibration's 10.8); patches
    lying across a mat's edge onto the table beyond widen it too, and there smooth bare cells
    whose medians a lamp moved nearer the cards' pale grey were refused (other art 10913 g004:
    bare lavender cells at 5.5, calibration's at 9.1). Such cells are not asked it."""
    out = np.zeros(len(px), bool)
    if look is None or look.bare_texture <= 0 \
            or not bool(section("grid")["empty_card_colour_plain"]):
        return out
    ask = np.flatnonzero(asked & (texture <= _texture_limit(look.bare_texture)))
    if len(ask):
        refs = np.asarray(ref, np.float32).reshape(-1, 3)
        out[ask] = _like(px[ask], refs[ask] if len(refs) == len(px) else refs[0]) >= share
    return out


def _too_noisy(texture_ref: float, bare_texture: float) -> bool:
    """Whether the table around the area is too rough in this picture for a bare cell to be
    told from a card: rougher than ``empty_noise_texture`` (no clean picture's table measured
    over 59.4, a grained table) and ``empty_noise_ratio`` times the calibration's bare cells.

    A bare cell is known by being as smooth as the table. In a very dark picture brightened by
    white balance the sensor's noise is as strong as a card's print (other art h10631 g003: the
    table at 112, calibration's bare cells at 11.4; h10816 g006: 75.1 against 7.4), the texture
    limit widens with it, and cards passed for the table (three cards read empty at 0.51-0.70,
    a cream 1 at 0.66). There no cell is called empty: every cell a card does not claim is
    asked."""
    cfg = section("grid")
    return (texture_ref > float(cfg["empty_noise_texture"])
            and texture_ref > float(cfg["empty_noise_ratio"]) * bare_texture)


def _gradient_moments(cells: list[np.ndarray]) -> np.ndarray:
    """Of each cell's middle (all cells of one size), the mean of gx², gx·gy and gy² (n, 3) of
    the gradient :func:`_stats` measures its texture on (smooth shading taken away first)."""
    stack = np.stack(cells)
    n, h, w = stack.shape[:3]
    g = cv2.cvtColor(stack.reshape(n * h, w, 3), cv2.COLOR_BGR2GRAY).astype(np.float32)
    g -= cv2.GaussianBlur(g, (13, 13), 3.0)
    y, x = int(0.18 * h), int(0.18 * w)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3).reshape(n, h, w)[:, y:h - y, x:w - x]
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3).reshape(n, h, w)[:, y:h - y, x:w - x]
    gx, gy = gx.reshape(n, -1), gy.reshape(n, -1)
    return np.stack([(gx * gx).mean(axis=1), (gx * gy).mean(axis=1), (gy * gy).mean(axis=1)],
                    axis=1)


def _along_the_grain(cells: list[np.ndarray], table: list[np.ndarray]) -> np.ndarray:
    """Per cell, whether its texture is the table's grain: the table's patches (``table``)
    vary mostly across one direction (``empty_grain_coherence``: wood grain, plank seams,
    stripes), and along that grain the cell varies no more than ``empty_grain_factor`` times
    as much as the table's median patch does. Grain and seams run along the grain; a card's
    print (pips, a digit, its outline) has edges every way, so it varies along the grain too
    (7 to 40 times the table's median patch on the project's sets, bare cells up to 1.9)."""
    cfg = section("grid")
    if not cells or len(table) < 2:
        return np.zeros(len(cells), bool)
    patches = _gradient_moments(table)
    a, b, c = patches.mean(axis=0)
    spread, directions = np.linalg.eigh(np.array([[a, b], [b, c]], np.float64))
    coherence = (spread[1] - spread[0]) / max(float(spread[1] + spread[0]), 1e-9)
    if coherence < float(cfg["empty_grain_coherence"]):
        return np.zeros(len(cells), bool)  # no one direction: every texture is the table's way
    ex, ey = directions[:, 0]  # along the grain: the direction the table varies least

    def along(m: np.ndarray) -> np.ndarray:
        return np.asarray(np.sqrt(np.maximum(m[:, 0] * ex * ex + 2 * m[:, 1] * ex * ey
                                             + m[:, 2] * ey * ey, 0.0)))

    limit = float(np.median(along(patches))) * float(cfg["empty_grain_factor"])
    return np.asarray(along(_gradient_moments(cells)) <= limit, bool)


def _card_coloured(medians: np.ndarray, ref: np.ndarray, look: GridLook | None) -> np.ndarray:
    """Per cell (its median colour), whether it is nearer to some value's card colour seen
    in calibration (:func:`learn_value_colours`) than to the surface it is held to (``ref``:
    one colour, or one per cell), as :func:`_colour_key` compares colours, where that card
    colour lies well apart from the surface: at least ``empty_card_colour_apart`` of its
    calibration cards' spread (``value_spread``). Cards of (nearly) the surface's own colour
    never count, so cream paper on linen leaves the other tests to decide."""
    if look is None or len(look.value_colours) != 6 or not len(medians):
        return np.zeros(len(medians), bool)
    keys = _colour_key(medians)
    surface = _colour_key(np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3),
                                          medians.shape))
    seen = ~np.isnan(look.value_colours).any(axis=1)
    if not seen.any():
        return np.zeros(len(medians), bool)
    cards, spread = look.value_colours[seen], look.value_spread[seen]
    to_card = np.linalg.norm(cards[None, :, :] - keys[:, None, :], axis=2)
    apart = np.linalg.norm(cards[None, :, :] - surface[:, None, :], axis=2) \
        >= float(section("grid")["empty_card_colour_apart"]) * spread[None, :]
    nearer = to_card < np.linalg.norm(keys - surface, axis=1)[:, None]
    return np.asarray((nearer & apart).any(axis=1), bool)


def _strays(medians: np.ndarray, ref: np.ndarray, bare: np.ndarray) -> np.ndarray:
    """Per cell (its median colour), whether it strays from the bare table as a thing over
    it does, not as the light does. Grain and noise spread a bare cell's pixels around the
    table's colour (the per-pixel tolerance allows that), but the middle of them stays on it;
    a hand of nearly the table's colour (tan skin on pine, or on a pale mat once
    white-balanced) moves the whole cell, its median more than ``empty_median_hue`` from the
    table's (``ref``: one colour, or one per cell). A lamp or light falling off moves the
    other bare cells (``bare``: those that pass every other test) alike, so a cell stray from
    the table counts as bare still when it is within ``empty_median_hue`` of their median
    (of those of them not stray themselves, when there are two: cards passing for the table
    would pull the median towards their own colour); with fewer than two such cells to compare
    with, nothing tells a lamp from a hand."""
    limit = float(section("grid")["empty_median_hue"])
    hue = medians / (medians.sum(axis=1, keepdims=True) + 1.0)
    ref = np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3), medians.shape)
    ref_hue = ref / (ref.sum(axis=1, keepdims=True) + 1.0)
    stray = np.abs(hue - ref_hue).max(axis=1) > limit
    first = stray.copy()
    for k in np.flatnonzero(stray):
        peers = np.flatnonzero(bare)
        peers = peers[peers != k]
        # the peers that show the table's own colour, when there are two: cards of one colour
        # passing for the table beside bare cells would pull all the peers' median between the
        # two colours, near both (a lamp moves every bare cell, and then none is calm)
        calm = peers[~first[peers]]
        if len(calm) >= 2:
            peers = calm
        if len(peers) >= 2:
            stray[k] = bool(np.abs(hue[k] - np.median(hue[peers], axis=0)).max() > limit)
    return np.asarray(stray, bool)


def _bare_patches(medians: np.ndarray, look: GridLook | None) -> np.ndarray | None:
    """Of the table patches around the area (their median colours), those showing the
    surface the calibration's empty cells showed, when that is not what most patches show
    (a mat larger than the area: the patches reach past its edge onto the table in some
    pictures and not in others); None to keep them all. The surface is the group of at least
    ``table_neighbours`` + 1 patches of one colour (``_like``) nearest to a calibration
    picture's empty cells, and it must be near them loosely (``mat_hue_tolerance``,
    ``mat_brightness_ratio``: the lamps differ between pictures)."""
    cfg = section("grid")
    if look is None or not len(look.bare) or len(medians) <= int(cfg["table_neighbours"]):
        return None
    # each patch's group: the patches of its colour (row i: every patch against patch i)
    n = len(medians)
    groups = (_like(np.tile(medians, (n, 1))[:, None, :], np.repeat(medians, n, axis=0))
              >= 1.0).reshape(n, n)
    size = groups.sum(axis=1)
    keys = _colour_key(medians)
    bare_keys = _colour_key(look.bare)
    closeness = np.linalg.norm(keys[:, None, :] - bare_keys[None, :, :], axis=2).min(axis=1)
    closeness[size <= int(cfg["table_neighbours"])] = np.inf
    if not np.isfinite(closeness).any():
        return None
    best = int(np.argmin(closeness))
    keep = groups[best]
    if keep.sum() * 2 > len(medians):
        return None  # most patches show that surface already: their median is its colour
    ref = np.median(medians[keep], axis=0)
    hue = ref / (ref.sum() + 1.0)
    bare_hue = look.bare / (look.bare.sum(axis=1, keepdims=True) + 1.0)
    ratio = (ref.sum() + 1.0) / (look.bare.sum(axis=1) + 1.0)
    loose = float(cfg["mat_brightness_ratio"])
    near = (np.abs(hue[None, :] - bare_hue).max(axis=1) <= float(cfg["mat_hue_tolerance"])) \
        & (ratio >= 1 / loose) & (ratio <= loose)
    return keep if near.any() else None


def _texture_limit(texture_ref: float) -> float:
    cfg = section("grid")
    return texture_ref * float(cfg["empty_texture_factor"]) + float(cfg["empty_texture_floor"])


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


def learn_bare(cells_by_image: list[list[np.ndarray]], tables: list[list[np.ndarray]]
               ) -> tuple[str, np.ndarray, float]:
    """What the bare surface inside the area is: ``table`` when the calibration's empty
    cells show their own picture's table, else ``mat``; the mat's colour in each picture
    (BGR, white-balanced) and its texture."""
    share = float(section("grid")["empty_colour_share"])
    colours: list[np.ndarray] = []
    textures: list[float] = []
    table_like: list[bool] = []
    for cells, table in zip(cells_by_image, tables, strict=True):
        if not cells:
            continue
        px, _, texture = _stats(cells)
        colours.append(np.median(px.reshape(-1, 3), axis=0).astype(np.float32))
        textures.extend(float(t) for t in texture)
        if table:
            ref = np.median(_stats(table)[1], axis=0)
            table_like.append(bool(_like(px, ref).mean() >= share))
    if not colours:
        return "table", np.zeros((0, 3), np.float32), 0.0
    mode = "table" if table_like and np.mean(table_like) > 0.5 else "mat"
    return mode, np.array(colours, np.float32), float(np.median(textures))


def table_spread(table: np.ndarray) -> float:
    """How far apart this picture's table patches are from each other (nearest neighbours)."""
    if len(table) < 2:
        return 0.0
    d = _distances(table, table)
    np.fill_diagonal(d, np.inf)
    return float(np.median(d.min(axis=1)))


MARGIN = 8  # around the grey area the value templates are cut from (canonical pixels)
SEARCH = 6  # template search, canonical pixels each way
#: the first search is at half the canonical size; only values close to its best are refined
COARSE = 2


def grey_area(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
              place: np.ndarray | None = None) -> np.ndarray:
    """The area in grey at the canonical size, ``MARGIN`` pixels around."""
    return cv2.cvtColor(rectify(image, corners, inset, margin=MARGIN, place=place),
                        cv2.COLOR_BGR2GRAY)


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


def _template(g: np.ndarray, r: int, c: int) -> np.ndarray:
    w, h = _cell_size()
    ox, oy = int(0.15 * w), int(0.15 * h)
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


def _fft_size(n: int) -> int:
    """The smallest length from ``n`` up whose only prime factors are 2, 3 and 5 (a Fourier
    transform of such a length is quick; 38, twice 19, takes twice as long as 40)."""
    m = n
    while True:
        rest = m
        for p in (2, 3, 5):
            while rest % p == 0:
                rest //= p
        if rest == 1:
            return m
        m += 1


def _normalised(rows: np.ndarray) -> np.ndarray:
    rows = rows - rows.mean(axis=1, keepdims=True)
    return np.asarray(rows / (np.linalg.norm(rows, axis=1, keepdims=True) + 1e-6))


def _placements(spectra: np.ndarray, shape: tuple[int, int], rows: int, cols: int
                ) -> np.ndarray:
    """``np.fft.irfft2(spectra, s=shape)[..., :rows, :cols]``, the same numbers bit for bit,
    for about half the work: irfft2 is a complex inverse down the columns and then a real
    inverse along each row, each row on its own, so only the ``rows`` rows kept are turned
    back (of ``shape[0]``: 16 of 40 for the half-size windows)."""
    down = np.fft.ifft(spectra, shape[0], axis=-2)[..., :rows, :]
    return np.asarray(np.fft.irfft(down, shape[1], axis=-1)[..., :cols])


@dataclass
class _Bank:
    """Templates ready for correlation at one size: each zero-mean and of unit length over its
    mask and zero outside it (so a patch times it is the correlation's numerator), the masks
    (0/1), which mask each template has, and each mask's pixel count."""

    weights: np.ndarray  # (templates, pixels)
    masks: np.ndarray  # (masks, pixels)
    mask_of: np.ndarray  # (templates,)
    counts: np.ndarray  # (masks,)
    #: the masks' and templates' Fourier transforms (conjugated), by transform size
    spectra: dict[tuple[int, int], np.ndarray] = field(default_factory=dict)

    @staticmethod
    def of(templates: np.ndarray, masks: np.ndarray) -> _Bank:
        n = len(templates)
        flat_t = templates.reshape(n, -1).astype(np.float32)
        flat_m = masks.reshape(n, -1) > 127
        unique, mask_of = np.unique(flat_m, axis=0, return_inverse=True)
        weights = np.zeros_like(flat_t)
        for i in range(n):
            on = flat_m[i]
            weights[i, on] = _normalised(flat_t[i:i + 1, on])[0]
        return _Bank(weights, unique.astype(np.float32), mask_of.ravel(),
                     unique.sum(axis=1).astype(np.float32))

    def correlate_all(self, images: np.ndarray, size: tuple[int, int]
                      ) -> tuple[np.ndarray, int, int]:
        """Normalised correlation at every placement in each of several images of one size
        (n, H, W): (templates, n, rows, cols), rows and cols. Correlated through Fourier
        transforms: each image (and its square) is transformed once and multiplied with every
        template's and mask's transform, all images and templates in one batch (one
        ``matchTemplate`` call a template transformed the whole stack again each time). A
        placement never reaches past its image's edge, so the transforms' wrap-around never
        touches a placement's sum. Each image's own mean is taken away first: neither a
        template (zero-mean) nor a patch's spread sees it, and the sums stay small, so their
        rounding does too. A patch flatter than one grey level counts as that flat (no
        division by nothing)."""
        _, height, width = images.shape
        th, tw = size
        rows, cols = height - th + 1, width - tw + 1
        shape = (_fft_size(height), _fft_size(width))
        kernels = self.spectra.get(shape)
        if kernels is None:
            flat = np.zeros((len(self.masks) + len(self.weights), *shape), np.float32)
            flat[:, :th, :tw] = np.concatenate([self.masks, self.weights]).reshape(-1, th, tw)
            kernels = np.conj(np.fft.rfft2(flat))
            self.spectra[shape] = kernels
        nm = len(self.masks)
        f = np.asarray(images, np.float32)
        f = f - f.mean(axis=(1, 2), keepdims=True, dtype=np.float32)
        spectrum = np.fft.rfft2(np.stack([f, f * f]), s=shape)  # (2, n, ...)
        # per mask, the sums and the sums of squares under it at every placement
        under = _placements(spectrum[:, None] * kernels[None, :nm, None], shape, rows, cols)
        counts = self.counts[:, None, None, None]
        spread = np.sqrt(np.maximum(under[1] - under[0] * under[0] / counts, counts))
        products = _placements(spectrum[0][None] * kernels[nm:, None], shape, rows, cols)
        corr = np.divide(products, spread[self.mask_of], dtype=np.float32)
        return corr, rows, cols

    def correlate(self, patches: np.ndarray, groups: np.ndarray | None = None,
                  patch_groups: np.ndarray | None = None) -> np.ndarray:
        """Normalised correlation over each template's mask: (templates, patches). With
        ``groups`` (per template) and ``patch_groups`` (per patch), only templates and patches
        of one group are correlated (the others are -inf)."""
        sums = self.masks @ patches.T
        squares = self.masks @ (patches * patches).T
        spread = np.sqrt(np.maximum(squares - sums * sums / self.counts[:, None],
                                    self.counts[:, None]))
        if groups is None or patch_groups is None:
            return np.asarray((self.weights @ patches.T) / spread[self.mask_of])
        out = np.full((len(self.weights), len(patches)), -np.inf, np.float32)
        for g in np.unique(patch_groups):
            rows, cols = np.flatnonzero(groups == g), np.flatnonzero(patch_groups == g)
            # a group's patches side by side (as match_windows gives them) are taken as a
            # slice, not copied: the same rows, so the same products
            at: slice | np.ndarray = slice(int(cols[0]), int(cols[-1]) + 1) \
                if int(cols[-1]) - int(cols[0]) + 1 == len(cols) else cols
            out[np.ix_(rows, cols)] = (self.weights[rows] @ patches[at].T) \
                / spread[self.mask_of[rows]][:, at]
        return out


def _means(look: GridLook) -> np.ndarray:
    """Indices of each value's mean templates (upright, and turned when cards may lie turned)."""
    cached = look.__dict__.get("_means")
    if cached is None:
        cached = np.array(sorted({_mean_template(look, int(t))[0]
                                  for t in range(len(look.templates))}), np.int64)
        look.__dict__["_means"] = cached
    return np.asarray(cached)


def _banks(look: GridLook) -> tuple[_Bank, _Bank]:
    """The values' mean templates at half size (the search over every placement) and all
    templates at full size, computed once per calibration."""
    cached = look.__dict__.get("_banks")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    means = _means(look)
    half_t = np.stack([_half(t) for t in look.templates[means]])
    half_m = np.stack([_half(m) for m in look.template_masks[means]])
    banks = (_Bank.of(half_t, half_m), _Bank.of(look.templates, look.template_masks))
    look.__dict__["_banks"] = banks
    return banks


def match_values(look: GridLook, window: np.ndarray) -> np.ndarray:
    """Best normalised correlation of each value's templates anywhere in the window, counted
    only where the values' prints differ (the template's mask): (6,), -1 when unseen."""
    return np.asarray(match_windows(look, [window])[0])


def coarse_fit(look: GridLook, sets: list[list[np.ndarray]]) -> list[float]:
    """How well the values' mean prints fit each set of windows at half size: the mean over
    its windows of the best value's best correlation (which stretch of the area suits this
    picture). All sets are matched in one stack (each match call costs more than its pixels)."""
    n = len(sets[0]) if sets else 0
    if not len(look.templates) or not n:
        return [-1.0] * len(sets)
    th, tw = look.templates.shape[1:]
    coarse, _ = _banks(look)
    small = _halves([w for ws in sets for w in ws])
    corr, _, _ = coarse.correlate_all(small, (th // COARSE, tw // COARSE))
    best = corr.reshape(len(corr), len(small), -1).max(axis=2).max(axis=0)
    return [float(b) for b in best.reshape(len(sets), n).mean(axis=1)]


def match_windows(look: GridLook, windows: list[np.ndarray],
                  pair_gaps: np.ndarray | None = None, edges: np.ndarray | None = None
                  ) -> np.ndarray:
    """:func:`match_values` for several windows of one size at once: (n, 6).

    Every placement is tried at half size; the best two values, and any other within
    ``refine_margin`` of the best, are then correlated at full size around their best
    placements (small prints, a 3's pips inside a 5's, tell apart only there). The gap between
    the best two is so always between two full-size scores (a value left at -1 would make any
    gap look wide). ``pair_gaps`` (n,) is filled with the best two values' :func:`_pair_gap`
    (NaN where not both were compared at full size); ``edges`` (n, 6) with whether each value's
    best placement lies on the window's edge (the card may lie farther out than the window
    reaches: that value's score is too low to compare)."""
    n = len(windows)
    scores = np.full((n, 6), -1.0)
    if not len(look.templates) or not n:
        return scores
    th, tw = look.templates.shape[1:]
    if windows[0].shape[0] < th or windows[0].shape[1] < tw:
        return scores
    coarse, fine = _banks(look)
    small = _halves(windows)
    nt = len(look.templates)
    means = _means(look)
    corr, rows, cols = coarse.correlate_all(small, (th // COARSE, tw // COARSE))
    corr = corr.reshape(len(means), n, rows * cols)
    arg = corr.argmax(axis=2)  # (mean templates, windows)
    coarse_score = np.take_along_axis(corr, arg[..., None], axis=2)[..., 0]
    values = look.template_values
    mean_values = values[means]
    per_value = np.full((6, n), -1.0)
    for v in range(6):
        if (mean_values == v).any():
            per_value[v] = coarse_score[mean_values == v].max(axis=0)
    # refined: each value's print in the orientations within ``refine_margin`` of the best
    # fit, and the second best value's in its best orientation at least
    ranked = np.sort(per_value, axis=0)
    floor = np.minimum(ranked[-1] - float(section("grid")["refine_margin"]), ranked[-2])
    keep_mean = (coarse_score >= floor[None, :]) & (coarse_score > -1.0)
    if edges is not None:
        edges[:] = False
        on_edge = (arg // cols == 0) | (arg // cols == rows - 1) | (arg % cols == 0) \
            | (arg % cols == cols - 1)  # (mean templates, windows), at half size
        for m in range(len(means)):
            edges[:, mean_values[m]] |= on_edge[m]
    # full size: every template of each kept value around the best placement of its mean in
    # the same orientation (a card lying turned is found by the turned mean)
    mi, wi = np.nonzero(keep_mean)  # (mean template, window) pairs to refine
    if not len(mi):
        return scores
    at = np.stack([arg[mi, wi] // cols, arg[mi, wi] % cols], axis=1) * COARSE
    big = sliding_window_view(np.stack(windows).astype(np.float32), (th, tw), axis=(1, 2))
    steps = np.array([(dy, dx) for dy in (-1, 0, 1) for dx in (-1, 0, 1)])
    ys = np.clip(at[:, None, 0] + steps[None, :, 0], 0, big.shape[1] - 1)
    xs = np.clip(at[:, None, 1] + steps[None, :, 1], 0, big.shape[2] - 1)
    corr = np.empty((nt, len(mi), len(steps)), np.float32)
    chunk = int(section("grid")["refine_chunk"])
    for a in range(0, len(mi), chunk):
        # a few pairs at a time: the patches are copies (a full print each), and all of
        # them at once would take several megabytes
        b = min(a + chunk, len(mi))
        patches = big[wi[a:b, None], ys[a:b], xs[a:b]].reshape((b - a) * len(steps), -1)
        corr[:, a:b] = fine.correlate(patches, _mean_index(look),
                                      np.repeat(mi[a:b], len(steps))).reshape(nt, b - a,
                                                                              len(steps))
    refined = corr.max(axis=2)  # (templates, pairs); -inf where the orientation differs
    pair_best = refined.max(axis=0)
    np.maximum.at(scores, (wi, mean_values[mi]), pair_best)
    if pair_gaps is None and edges is None:
        return scores
    # where each refined value fits best: its best template and placement, per window
    t_best = refined.argmax(axis=0)
    s_best = corr[t_best, np.arange(len(mi))].argmax(axis=1)
    y_best, x_best = ys[np.arange(len(mi)), s_best], xs[np.arange(len(mi)), s_best]
    where: dict[tuple[int, int], tuple[float, int]] = {}
    for k in range(len(mi)):
        key = (int(wi[k]), int(mean_values[mi[k]]))
        if key not in where or pair_best[k] > where[key][0]:
            where[key] = (float(pair_best[k]), k)
    if edges is not None:
        # a refined value's edge is where it fits best at full size (a placement on the
        # edge of the coarse search may move in by one step)
        on_edge = (y_best == 0) | (y_best == big.shape[1] - 1) | (x_best == 0) \
            | (x_best == big.shape[2] - 1)
        for (w, v), (_, k) in where.items():
            edges[w, v] = bool(on_edge[k])
    # kept for :func:`print_strengths` (the window itself is kept too: its id is then its own)
    placed = _placed_memo()
    for (w, v), (_, k) in where.items():
        placed.setdefault(id(windows[w]), (windows[w], {}))[1][v] = (
            int(t_best[k]), int(y_best[k]), int(x_best[k]))
    if pair_gaps is not None:
        pair_gaps[:] = np.nan
        cfg = section("grid")
        top = np.sort(scores, axis=1)
        # the tie-break counts only where the templates' own gap does not already decide
        for w in np.flatnonzero((top[:, -1] - top[:, -2] < float(cfg["min_gap"]))
                                & (top[:, -1] >= float(cfg["min_correlation_alone"]))).tolist():
            va, vb = (int(x) for x in np.argsort(scores[w])[::-1][:2])
            if (w, va) in where and (w, vb) in where:
                ka, kb = where[(w, va)][1], where[(w, vb)][1]
                pair_gaps[w] = _pair_gap(look, big[w], (int(t_best[ka]), int(y_best[ka]),
                                                        int(x_best[ka])),
                                         (int(t_best[kb]), int(y_best[kb]), int(x_best[kb])))
    return scores


#: per thread, where :func:`match_windows` found each value's print fitting best in the windows
#: it was given since the last :func:`classify` began: id(window) -> (window, {value: (template,
#: row, column)})
_placed = threading.local()


def _placed_memo() -> dict[int, tuple[np.ndarray, dict[int, tuple[int, int, int]]]]:
    memo = getattr(_placed, "memo", None)
    if memo is None:
        memo = _placed.memo = {}
    return memo


def print_strengths(look: GridLook, windows: list[np.ndarray], values: list[int]) -> np.ndarray:
    """How strongly each window shows its value's print (n,): the least-squares slope of the
    window's grey levels on the value's mean print (in the orientation that fits best), over
    the print's mask, where the print fits best: where :func:`match_windows` found it when it
    matched this window, else looked for at half size, and then at full size around that.
    1 is the calibration cards' own contrast; a dim picture shows every print weaker alike, a
    card of a fainter print (a pale card's pale numeral taken for a dark card's white one)
    weaker than the rest of its picture."""
    out = np.zeros(len(windows))
    sizes: dict[tuple[int, ...], list[int]] = {}
    for n, window in enumerate(windows):
        sizes.setdefault(window.shape, []).append(n)
    for group in sizes.values():
        out[group] = _strengths([windows[n] for n in group], [values[n] for n in group], look)
    return out


def _strengths(windows: list[np.ndarray], values: list[int], look: GridLook) -> np.ndarray:
    """:func:`print_strengths` of windows of one size."""
    out = np.zeros(len(windows))
    if not windows or not len(look.templates):
        return out
    th, tw = look.templates.shape[1:]
    height, width = windows[0].shape
    means = _means(look)
    memo = _placed_memo()
    found = []  # (window, mean print, row, column)
    for n, (window, value) in enumerate(zip(windows, values, strict=True)):
        seen = memo.get(id(window))
        if seen is not None and seen[0] is window and value in seen[1]:
            t, y, x = seen[1][value]
            found.append((n, int(means[_mean_index(look)[t]]), y, x))
            continue
        small = _half(window).astype(np.float32)
        best, at = -2.0, None
        for mean in means[look.template_values[means] == value]:
            half = _half(look.templates[mean]).astype(np.float32)
            if small.shape[0] < half.shape[0] or small.shape[1] < half.shape[1]:
                continue
            _, score, _, (hx, hy) = cv2.minMaxLoc(
                cv2.matchTemplate(small, half, cv2.TM_CCOEFF_NORMED))
            if score > best:
                best, at = score, (n, int(mean), COARSE * hy, COARSE * hx)
        if at is not None:
            found.append(at)
    if not found:
        return out
    # the placements at full size around each one, every window's print pixels gathered at
    # once (offsets into the flattened windows; every mean print's mask has as many pixels)
    cells, prints, ys, xs = (np.array(c) for c in zip(*found, strict=True))
    step = np.array([-1, 0, 1])
    rows = np.clip(ys[:, None] + step, 0, height - th)
    cols = np.clip(xs[:, None] + step, 0, width - tw)
    starts = (rows[:, :, None] * width + cols[:, None, :]).reshape(len(found), -1)
    starts += (cells * (height * width))[:, None]
    ink = [_strength_print(look, int(m), width) for m in prints]
    pixels = np.stack([i[0] for i in ink])
    units = np.stack([i[1] for i in ink])
    flat = np.stack(windows).astype(np.float32).ravel()
    # (np.take: the same elements as indexing with the array, for less work)
    patches = np.take(flat, starts[:, :, None] + pixels[:, None, :])  # (found, 9, print pixels)
    patches -= patches.mean(axis=2, keepdims=True)
    along = np.einsum("fkp,fp->fk", patches, units)
    fit = along / np.maximum(np.linalg.norm(patches, axis=2), 1e-6)
    k = fit.argmax(axis=1)
    out[cells] = along[np.arange(len(found)), k] / np.array([i[2] for i in ink])
    return out


def _strength_print(look: GridLook, m: int, width: int) -> tuple[np.ndarray, np.ndarray, float]:
    """Mean print ``m`` for :func:`print_strengths`: its mask's pixels as offsets into a window
    ``width`` pixels wide, and its zero-mean ink there as a unit vector and its length
    (computed once per calibration and window width)."""
    cache: dict[tuple[int, int], tuple[np.ndarray, np.ndarray, float]] = \
        look.__dict__.setdefault("_strength_prints", {})
    if (m, width) not in cache:
        mask = look.template_masks[m] > 127
        rows, cols = np.nonzero(mask)
        ink = look.templates[m].astype(np.float32)[mask]
        ink -= ink.mean()
        norm = max(float(np.linalg.norm(ink)), 1e-6)
        cache[(m, width)] = (rows * width + cols, ink / norm, norm)
    return cache[(m, width)]


def _mean_index(look: GridLook) -> np.ndarray:
    """For each template, the position in :func:`_means` of its mean (same value and
    orientation)."""
    cached = look.__dict__.get("_mean_index")
    if cached is None:
        means = list(_means(look))
        cached = np.array([means.index(_mean_template(look, t)[0])
                           for t in range(len(look.templates))], np.int64)
        look.__dict__["_mean_index"] = cached
    return np.asarray(cached)


def _mean_template(look: GridLook, template: int) -> tuple[int, bool]:
    """The mean template of ``template``'s value in its orientation, and whether it is turned
    (:func:`learn_templates` stores each value's mean first, each followed by its turned copy
    when cards may lie turned)."""
    value = look.template_values[template]
    of_value = np.flatnonzero(look.template_values == value)
    turned = bool(section("grid")["turned"]) and int(np.flatnonzero(of_value == template)[0]) % 2
    return int(of_value[1] if turned else of_value[0]), bool(turned)


def _standard(image: np.ndarray) -> np.ndarray:
    """Grey levels as distances from the image's mean in its spreads (at least one grey level):
    a card's paper and print compare across lamps and exposures."""
    f = np.asarray(image, np.float32)
    return np.asarray((f - f.mean()) / max(float(f.std()), 1.0))


def _pair_mask(look: GridLook, a: int, b: int) -> np.ndarray:
    """Where the mean prints of values ``a`` and ``b`` (upright) differ clearly (bool): above
    ``pair_mask_share`` of their largest difference (a 5's middle pip where a 4 has paper)."""
    cache: dict[tuple[int, int], np.ndarray] = look.__dict__.setdefault("_pair_masks", {})
    key = (min(a, b), max(a, b))
    if key not in cache:
        ma = look.templates[_mean_template(look, int(np.flatnonzero(look.template_values
                                                                     == key[0])[0]))[0]]
        mb = look.templates[_mean_template(look, int(np.flatnonzero(look.template_values
                                                                     == key[1])[0]))[0]]
        diff = np.abs(_standard(ma) - _standard(mb))
        cut = float(section("grid")["pair_mask_share"]) * float(np.percentile(diff, 99.5))
        cache[key] = diff >= max(cut, 1e-3)
    return cache[key]


def _pair_gap(look: GridLook, views: np.ndarray, at_a: tuple[int, int, int],
              at_b: tuple[int, int, int]) -> float:
    """How much better value ``a``'s mean print fits than ``b``'s where the two differ (each at
    its own best placement and orientation), from -1 to 1: the tie-break between two close
    values (a 3's pips lie inside a 5's; a 4 is a 5 without its middle pip). Patch and print
    are compared as :func:`_standard` levels over the whole print, squared differences summed
    where the two values differ: plain paper there counts for the value with paper there (a
    correlation over those pixels alone would compare noise with noise)."""
    errors = []
    va, vb = int(look.template_values[at_a[0]]), int(look.template_values[at_b[0]])
    for t, y, x in (at_a, at_b):
        mean, turned = _mean_template(look, t)
        mask = _pair_mask(look, va, vb)
        if turned:
            mask = mask[::-1, ::-1]
        standard = look.__dict__.setdefault("_standard", {})
        if mean not in standard:
            standard[mean] = _standard(look.templates[mean])
        diff = _standard(views[y, x]) - standard[mean]
        errors.append(float((diff[mask] ** 2).mean()))
    return (errors[1] - errors[0]) / (errors[0] + errors[1] + 1e-6)


def _value_mean(look: GridLook, value: int, turned: bool) -> np.ndarray | None:
    """``value``'s mean print (:func:`learn_templates` stores it first, then turned), as
    :func:`_standard` levels; None when calibration saw no card of that value."""
    # (computed once per calibration: the close calls and their doubts ask for the same few
    # prints again and again, and each is the same function of the same template; kept
    # read-only, as every caller only reads it)
    cache: dict[tuple[int, bool], np.ndarray | None] = look.__dict__.setdefault("_value_means",
                                                                                  {})
    key = (int(value), bool(turned))
    if key not in cache:
        of_value = np.flatnonzero(look.template_values == value)
        if not len(of_value) or (turned and len(of_value) < 2):
            cache[key] = None
        else:
            mean = _standard(look.templates[of_value[1 if turned else 0]])
            mean.setflags(write=False)
            cache[key] = mean
    return cache[key]


def pair_score(look: GridLook, window: np.ndarray, a: int, b: int,
               ways: tuple[bool, bool] | None = None) -> float:
    """How much more the card in ``window`` looks like value ``a`` than ``b``, judged at one
    placement for both, from about -0.5 (``b``'s mean print) to 0.5 (``a``'s); NaN when a
    value's print or where it lies on its card was never learnt, the way up either value's
    print lies on this card is not clear (``pair_turn_gap``), or the two prints laid on one
    card fit it less than ``min_correlation_alone``.

    Each value's templates correlate best at their own placement, and a print shifted by a
    pip lines a 3's pips up with a 5's: compared each where it fits best, the two come out
    alike. Here the two values' prints are first laid on ONE card (each the way up it fits
    this card, shifted by where it lies on its card: ``print_offsets``), the card is found by
    what they share (their average), and there the patch is projected on their difference,
    over the pixels where the two differ clearly (``pair_mask_share``): a linear discriminant
    between just those two values.

    A value whose print looks the same either way up (dice pips) has no way up for the card to
    say: it is laid both ways (:func:`_pair_score_any_way_up`). ``ways``: lay the two prints
    this way up (turned or not, as stored) rather than as the card says."""
    turned_a, turned_b = ways if ways is not None else (_lies_turned(look, window, a),
                                                        _lies_turned(look, window, b))
    if turned_a is None or turned_b is None:
        return _pair_score_any_way_up(look, window, a, b, turned_a, turned_b)
    pair = _pair_prints(look, a, b, turned_a, turned_b)
    if pair is None or not len(pair[2]):
        return float("nan")
    common, mask, diff = pair
    res = cv2.matchTemplate(np.asarray(window, np.float32), common, cv2.TM_CCOEFF_NORMED)
    _, fit, _, (x, y) = cv2.minMaxLoc(res)
    if fit < float(section("grid")["min_correlation_alone"]):
        # the two prints laid on one card must fit this card as well as one value's print
        # must to be read alone: where they do not, they are not on one card as the offsets
        # say (two prints averaged a pip apart, or the other way up, fit cards at 0.5-0.55
        # and named the wrong value of the pair), or the card is not one of them
        return float("nan")
    patch = _standard(window[y:y + common.shape[0], x:x + common.shape[1]])
    return float(((patch[mask] - common[mask]) * diff).mean() / max(float((diff**2).mean()), 1e-6))


def _no_way_up(look: GridLook, value: int) -> bool:
    """Whether ``value``'s mean print looks the same either way up: its middle (all but
    ``SEARCH`` pixels along each side) laid on the print turned fits at least
    ``pair_symmetric_fit`` somewhere within ``2 * SEARCH`` pixels each way (a print off its
    template's middle lies as far on the other side of it turned). Dice pips: 0.93-0.99 on own
    art 10703; numerals far less (at most 0.86 on the sets measured, a slashed 0 apart)."""
    cache: dict[int, bool] = look.__dict__.setdefault("_no_way_up", {})
    if value not in cache:
        upright, turned = _value_mean(look, value, False), _value_mean(look, value, True)
        h, w = upright.shape if upright is not None else (0, 0)
        if upright is None or turned is None or h <= 2 * SEARCH or w <= 2 * SEARCH:
            cache[value] = False
        else:
            around = cv2.copyMakeBorder(turned, SEARCH, SEARCH, SEARCH, SEARCH,
                                        cv2.BORDER_REPLICATE)
            middle = np.ascontiguousarray(upright[SEARCH:h - SEARCH, SEARCH:w - SEARCH])
            fit = float(cv2.matchTemplate(around, middle, cv2.TM_CCOEFF_NORMED).max())
            cache[value] = fit >= float(section("grid")["pair_symmetric_fit"])
    return cache[value]


def _pair_score_any_way_up(look: GridLook, window: np.ndarray, a: int, b: int,
                           turned_a: bool | None, turned_b: bool | None) -> float:
    """:func:`pair_score` where the card does not say which way up a value's print lies
    (``turned_*`` None). A print that looks the same either way up (:func:`_no_way_up`: dice
    pips) still lies on its card where it lies, and turned on the other side of the card's
    middle: which of the two ways up to lay it is a guess, so every way is laid, and the score
    is the one nearest to nothing of those whose two prints fit the card as one (0 when they
    name different values: own art 9901 g005, a 3 said 3 by 0.38 one way and 5 by 0.32 the
    other). Any other print the card does not say the way up of: NaN (no score)."""
    ways_a = [turned_a] if turned_a is not None else [False, True] if _no_way_up(look, a) \
        else []
    ways_b = [turned_b] if turned_b is not None else [False, True] if _no_way_up(look, b) \
        else []
    scores = [pair_score(look, window, a, b, (x, y)) for x in ways_a for y in ways_b]
    fitting = [s for s in scores if np.isfinite(s)]
    if not fitting:
        return float("nan")
    low, high = min(fitting), max(fitting)
    return low if low > 0 else high if high < 0 else 0.0


def _lies_turned(look: GridLook, window: np.ndarray, value: int) -> bool | None:
    """Whether ``value``'s mean print fits the card in ``window`` best turned (as
    :func:`learn_templates` stores it: each value's prints are the way up its FIRST
    calibration card lay, so one value's "upright" may be another's turned); None when the
    print was never learnt or its two ways up fit within ``pair_turn_gap`` of each other
    (the card does not say which way up it lies)."""
    cfg = section("grid")
    if not cfg["turned"]:
        return False if _value_mean(look, value, False) is not None else None
    fits = []
    for turned in (False, True):
        mean = _value_mean(look, value, turned)
        if mean is None or window.shape[0] < mean.shape[0] or window.shape[1] < mean.shape[1]:
            return None
        res = cv2.matchTemplate(np.asarray(window, np.float32), mean, cv2.TM_CCOEFF_NORMED)
        fits.append(float(res.max()))
    if abs(fits[1] - fits[0]) < float(cfg["pair_turn_gap"]):
        return None
    return fits[1] > fits[0]


def _pair_prints(look: GridLook, a: int, b: int, turned_a: bool, turned_b: bool
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """For :func:`pair_score`: the two values' mean prints (each as stored or turned) laid on
    one card and averaged (what they share, as :func:`_standard` levels), where they differ
    clearly (above ``pair_mask_share`` of their largest difference, inside both prints) and
    ``a``'s minus ``b``'s there; None when a value or where it lies was never learnt.

    Calibration aligns each value's cards on that value's first card, which lay wherever it
    lay in its cell: two values' mean prints are so shifted against each other by their
    first cards' offsets, and averaged as they are, the print would show a 3 beside a 5.
    ``b``'s print is moved by the difference of where the two lie on their cards."""
    cache: dict[tuple[int, int, bool, bool], tuple[np.ndarray, np.ndarray, np.ndarray] | None] \
        = look.__dict__.setdefault("_pair_prints", {})
    key = (a, b, turned_a, turned_b)
    if key not in cache:
        cache[key] = None
        ma, mb = _value_mean(look, a, turned_a), _value_mean(look, b, turned_b)
        offsets = look.print_offsets
        if ma is None or mb is None or offsets.shape != (6, 2) \
                or not np.isfinite(offsets[[a, b]]).all():
            return None
        # a print turned about its middle lies on the other side of its card's middle
        dy, dx = (float(x) for x in offsets[b] * (-1 if turned_b else 1)
                  - offsets[a] * (-1 if turned_a else 1))
        # the offsets are medians of whole-pixel placements over cards laid each a little
        # differently: the last pixel or two is found by what the two prints share (within
        # ``pair_align_reach``, far less than a pip's spacing: a 3's pips are not moved
        # onto a 5's other pips), to a fraction of a pixel by a parabola through the best
        reach = max(1, round(float(section("grid")["pair_align_reach"])))
        h, w = mb.shape
        if h <= 4 * reach or w <= 4 * reach:
            return None
        # b's print laid where the offsets say; a's middle (``reach`` in from each side)
        # looked for on it, ``reach`` each way
        laid = cv2.warpAffine(mb, np.array([[1, 0, dx], [0, 1, dy]], np.float32), (w, h),
                              flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        res = cv2.matchTemplate(laid, np.ascontiguousarray(ma[reach:h - reach, reach:w - reach]),
                                cv2.TM_CCOEFF_NORMED)
        iy, ix = np.unravel_index(int(res.argmax()), res.shape)

        def vertex(lo: float, mid: float, hi: float) -> float:
            bend = lo - 2 * mid + hi
            return 0.0 if bend >= 0 else float(np.clip((lo - hi) / (2 * bend), -0.5, 0.5))

        fy = vertex(res[iy - 1, ix], res[iy, ix], res[iy + 1, ix]) \
            if 0 < iy < res.shape[0] - 1 else 0.0
        fx = vertex(res[iy, ix - 1], res[iy, ix], res[iy, ix + 1]) \
            if 0 < ix < res.shape[1] - 1 else 0.0
        # b's print moved by (dy, dx), then by what the search found (a's middle at (iy, ix)
        # of the laid print, where ``reach`` would be no move)
        move = np.array([[1, 0, dx + reach - ix - fx], [0, 1, dy + reach - iy - fy]], np.float32)
        mb = cv2.warpAffine(mb, move, (w, h), flags=cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)
        inside = cv2.warpAffine(np.ones((h, w), np.float32), move, (w, h),
                                flags=cv2.INTER_LINEAR, borderValue=0.0) > 0.999
        diff = ma - mb
        share = float(section("grid")["pair_mask_share"])
        mask = inside & (np.abs(diff) >= max(share * float(np.percentile(np.abs(diff[inside]),
                                                                         99.5)), 1e-3)) \
            if inside.any() else inside
        cache[key] = (((ma + mb) / 2).astype(np.float32), mask, diff[mask])
    return cache[key]


def learn_print_offsets(templates: np.ndarray, values: np.ndarray, greys: list[np.ndarray],
                        grids: list[Grid]) -> np.ndarray:
    """(6, 2): where each value's mean print (as ``templates`` store it) lies on its cards:
    the median over the calibration cards of that value of the print's middle, where it fits
    the card's window best (either way up), from the window's middle (registration puts the
    cards' middles on the cells' middles, give or take how each was laid), as (dy, dx) the
    way up it is stored. NaN for values not seen."""
    look = GridLook(templates=templates, template_values=values)
    found: dict[int, list[tuple[float, float]]] = {}
    for g, grid in zip(greys, grids, strict=True):
        for r in range(5):
            for c in range(5):
                v = grid[r][c]
                if v is None:
                    continue
                window = np.asarray(_window(g, r, c), np.float32)
                best: tuple[float, float, float] | None = None
                for turned in (False, True) if section("grid")["turned"] else (False,):
                    mean = _value_mean(look, int(v), turned)
                    if mean is None or window.shape[0] < mean.shape[0] \
                            or window.shape[1] < mean.shape[1]:
                        continue
                    res = cv2.matchTemplate(window, mean, cv2.TM_CCOEFF_NORMED)
                    _, fit, _, (x, y) = cv2.minMaxLoc(res)
                    side = -1.0 if turned else 1.0
                    at = (side * (y + (mean.shape[0] - window.shape[0]) / 2),
                          side * (x + (mean.shape[1] - window.shape[1]) / 2))
                    if best is None or fit > best[0]:
                        best = (fit, *at)
                if best is not None:
                    found.setdefault(int(v), []).append(best[1:])
    offsets = np.full((6, 2), np.nan, np.float32)
    for v, places in found.items():
        offsets[v] = np.median(np.array(places), axis=0)
    return offsets


def learn_pair_floor(greys: list[np.ndarray], grids: list[Grid]) -> np.ndarray:
    """(6, 6): [a, b] the highest :func:`pair_score` of ``a`` over ``b`` among the calibration
    cards of value ``b``, each scored against templates learnt from the other pictures (left
    one picture out: its own card in the mean would make it look surer than a new card). NaN
    where fewer than ``pair_min_cards`` cards of ``a`` or ``b`` were seen."""
    floor = np.full((6, 6), np.nan, np.float32)
    if len(greys) < 2:
        return floor
    counts = np.zeros(6, np.int64)
    for g in grids:
        for row in g:
            for v in row:
                if v is not None:
                    counts[int(v)] += 1
    seen = np.zeros((6, 6), np.int64)
    worst = np.full((6, 6), -np.inf)
    for i in range(len(greys)):
        rest_greys, rest_grids = greys[:i] + greys[i + 1:], grids[:i] + grids[i + 1:]
        templates, values, masks = learn_templates(rest_greys, rest_grids)
        left_out = GridLook(templates=templates, template_values=values, template_masks=masks,
                            print_offsets=learn_print_offsets(templates, values, rest_greys,
                                                              rest_grids))
        for r in range(5):
            for c in range(5):
                v = grids[i][r][c]
                if v is None:
                    continue
                window = _window(greys[i], r, c)
                for a in range(6):
                    if a == int(v):
                        continue
                    s = pair_score(left_out, window, a, int(v))
                    if np.isfinite(s):
                        worst[a, int(v)] = max(worst[a, int(v)], s)
                        seen[a, int(v)] += 1
    least = int(section("grid")["pair_min_cards"])
    enough = (counts[:, None] >= least) & (counts[None, :] >= least) & (seen > 0)
    floor[enough] = worst[enough]
    return floor


def learn_templates(greys: list[np.ndarray], grids: list[Grid]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per value: every calibration card's centre, aligned on the first one and averaged; also
    turned by 180 degrees when cards may lie turned."""
    cfg = section("grid")
    by_value: dict[int, list[tuple[np.ndarray, int, int]]] = {}
    for g, grid in zip(greys, grids, strict=True):
        for r in range(5):
            for c in range(5):
                v = grid[r][c]
                if v is not None:
                    by_value.setdefault(int(v), []).append((g, r, c))
    means: dict[int, np.ndarray] = {}
    singles: dict[int, list[np.ndarray]] = {}
    cache: dict[tuple[int, float], list[np.ndarray]] = {}

    def stretched(g: np.ndarray, scale: float) -> list[np.ndarray]:
        key = (id(g), scale)
        if key not in cache:
            cache[key] = scaled_windows(g, scale)
        return cache[key]

    for v, cells in sorted(by_value.items()):
        first = _template(*cells[0])
        aligned = [first.astype(np.float32)]
        for g, r, c in cells[1:]:
            # each card at the stretch that fits the first best (cards lie wider in their
            # cells in some pictures: averaged as they lie, the print would blur)
            views = [_window(g, r, c)] + [stretched(g, float(k))[r * 5 + c]
                                          for k in cfg["card_stretch"] if float(k) != 1.0]
            # a card lying turned is turned back first: averaged as it lies, it would blur
            # the value's print with its own upside-down copy (a 3 then looks like a 5)
            best_score, crop = -2.0, None
            for candidate in [x for window in views for x in
                              ([window, cv2.rotate(window, cv2.ROTATE_180)] if cfg["turned"]
                               else [window])]:
                res = cv2.matchTemplate(candidate, first, cv2.TM_CCOEFF_NORMED)
                _, score, _, (x, y) = cv2.minMaxLoc(res)
                if score > best_score:
                    best_score = score
                    crop = candidate[y:y + first.shape[0], x:x + first.shape[1]]
            if crop is not None and crop.shape == first.shape:
                aligned.append(crop.astype(np.float32))
        means[v] = np.clip(np.mean(aligned, axis=0), 0, 255).astype(np.uint8)
        # a few single cards too (every template costs a correlation per card and reading)
        singles[v] = [a.astype(np.uint8) for a in aligned[:int(cfg["template_singles"])]]
    if not means:
        return np.zeros((0, 1, 1), np.uint8), np.zeros(0, np.int64), np.zeros((0, 1, 1), np.uint8)
    # compare where the values differ: the spread across values, its upper part, grown a little
    stack = np.stack(list(means.values())).astype(np.float32)
    spread = stack.std(axis=0) if len(stack) > 1 else np.ones(stack.shape[1:], np.float32)
    cut = np.percentile(spread, float(cfg["template_mask_percentile"]))
    mask = cv2.dilate((spread >= cut).astype(np.uint8) * 255, np.ones((3, 3), np.uint8))
    templates, values, masks = [], [], []
    for v, mean in means.items():
        for t in [mean, *singles[v]]:
            templates.append(t)
            values.append(v)
            masks.append(mask)
            if cfg["turned"]:
                templates.append(cv2.rotate(t, cv2.ROTATE_180))
                values.append(v)
                masks.append(cv2.rotate(mask, cv2.ROTATE_180))
    return np.stack(templates), np.array(values), np.stack(masks)


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


def classify(look: GridLook, feats: np.ndarray, table: np.ndarray | None = None,
             windows: list[np.ndarray] | None = None, foreign: np.ndarray | None = None,
             settled: Callable[[list[bool]], set[int]] | None = None,
             colours: np.ndarray | None = None,
             stretched: Callable[[float], list[np.ndarray]] | None = None,
             farther: Callable[[float], list[np.ndarray]] | None = None,
             shifted: Callable[[list[int]], list[np.ndarray]] | None = None,
             ) -> tuple[list[int | None], list[float], list[bool]]:
    """Per cell: value (None = empty or declined), confidence (0 = declined) and whether it
    looks like a card at all (nearer to the calibration's cards than to any empty cell by
    ``card_guard``): such a cell is never read as empty.

    Card or empty: the nearest calibration cell (``table``: this picture's own table patches,
    more examples of an empty cell) must be clearly nearer than the nearest of the other kind,
    and near enough to be like anything seen at all. Which value: the value's templates must
    correlate best, by a clear gap, and the nearest calibration card must have that value too.
    ``settled`` is told which cells look like cards and names the cells already decided
    otherwise (surely empty): their values are not looked for. ``colours``: each cell's
    middle colour; where card colours tell the values, colour agreeing counts like the nearest
    calibration card agreeing. ``stretched(scale)``: the 25 windows with the area stretched
    across by ``scale``; the stretch (``card_stretch``) that lets the card cells' prints fit
    best is the one their values are read at. ``farther(scale)``: the same windows reaching
    ``cut_search_extra`` farther past their cells; a value not trusted only because another
    fits best on its window's edge is looked for again in them. ``shifted(cells)``: per cell,
    its features taken ``candidate_shift`` pixels off in each of 8 directions (n, 8, features).
    """
    cfg = section("grid")
    scale = 1.0  # the stretch the values are read at
    _placed_memo().clear()  # where this picture's prints fit (kept by match_windows)
    classes = look.classes
    d = _distances(feats, look.features, _feature_norms(look))
    if table is not None and len(table):
        classes = np.concatenate([classes, np.full(len(table), EMPTY)])
        d = np.concatenate([d, _distances(feats, table)], axis=1)
    d_foreign = (_distances(feats, foreign).min(axis=1) if foreign is not None and len(foreign)
                 else np.full(len(feats), np.inf))
    card = classes != EMPTY
    n_cal = len(look.classes)
    d_card = d[:, card].min(axis=1) if card.any() else np.full(len(d), np.inf)
    d_empty = d[:, ~card].min(axis=1) if (~card).any() else np.full(len(d), np.inf)
    card_like = [bool(x) for x in d_card < d_empty * float(cfg["card_guard"])]
    skip = settled(card_like) if settled is not None else set()
    values: list[int | None] = [None] * len(d)
    confidences = [0.0] * len(d)
    table_limit = table_spread(table) * float(cfg["table_factor"]) if table is not None else 0.0
    to_match: list[tuple[int, int, float]] = []
    astride: list[int] = []  # nearer to a card than to any empty cell, but too far from both
    for i, row in enumerate(d):
        if i in skip:
            continue
        dc, de = float(d_card[i]), float(d_empty[i])
        # the table outside the area speaks for an empty cell only when the cell is as close
        # to it as its patches are to each other (an arm the colour of the table is not)
        d_cal_empty = float(row[:n_cal][~card[:n_cal]].min()) if (~card[:n_cal]).any() \
            else np.inf
        d_table = float(row[n_cal:].min()) if len(row) > n_cal else np.inf
        if de < dc and d_table < d_cal_empty and d_table > table_limit:
            continue
        nearest = min(dc, de)
        occupancy = 1.0 - nearest / max(dc, de, 1e-6)
        # the table changes from picture to picture more than cards do: allow it more spread
        limit = look.max_distance * (float(cfg["empty_spread"]) if de < dc else 1.0)
        needed = cfg["min_empty_confidence"] if de < dc else cfg["min_confidence"]
        if nearest > limit or d_foreign[i] < nearest:
            if dc < de and nearest > limit and d_foreign[i] >= nearest:
                astride.append(i)
            continue
        if occupancy < needed:
            # nearer to a card than to any empty cell, but not clearly: a card that lies off
            # its cell's middle (or a layout unlike calibration's) looks half like the table
            # around it. Only its print may still say which card it is, clearly and alone
            # (PRINT_ONLY: no nearest calibration card to agree with).
            if dc < de and windows is not None and occupancy > 0:
                to_match.append((i, PRINT_ONLY, occupancy))
            continue
        if de < dc:
            confidences[i] = round(min(1.0, occupancy), 3)
            continue
        knn_value = int(classes[np.flatnonzero(card)[int(row[card].argmin())]])
        if windows is None:
            values[i], confidences[i] = knn_value, round(min(1.0, occupancy), 3)
            continue
        to_match.append((i, knn_value, occupancy))
    if to_match and stretched is not None and windows is not None:
        # the stretch is one for the whole picture: a few card cells spread over it tell it
        every = [i for i, v, _ in to_match if v != PRINT_ONLY] or [i for i, _, _ in to_match]
        cells = every[::max(1, len(every) // int(cfg["stretch_cells"]))][:int(cfg["stretch_cells"])]
        options = [windows] + [stretched(float(k)) for k in cfg["card_stretch"]
                               if float(k) != 1.0]
        fits = coarse_fit(look, [[ws[i] for i in cells] for ws in options])
        windows = options[int(np.argmax(fits))]  # the first (unstretched) on a tie
        scale = [1.0, *(float(k) for k in cfg["card_stretch"] if float(k) != 1.0)][
            int(np.argmax(fits))]
    if astride and shifted is not None and windows is not None:
        # a card lying off its cell by more than calibration's shifted copies allow for (other
        # art 3503, 9204, 9324: single cards 6 px across and up off the lattice the others lie
        # on, at 1.01-1.04 times the distance allowed, and a third of it once looked at where
        # they lie) is compared again from where it lies, the cell's features taken a little
        # way off in each direction; nearer than the distance allowed there, it is a card
        # whose print the templates must still read like any other's
        views = shifted(astride)
        for i, view in zip(astride, views, strict=True):
            near = _distances(view, look.features[card[:n_cal]])
            at = np.unravel_index(int(near.argmin()), near.shape)
            nearest, de = float(near[at]), float(d_empty[i])
            if nearest > look.max_distance or d_foreign[i] < nearest:
                continue
            occupancy = 1.0 - nearest / max(nearest, de, 1e-6)
            knn_value = int(look.classes[np.flatnonzero(card[:n_cal])[int(at[1])]])
            if occupancy >= cfg["min_confidence"]:
                to_match.append((i, knn_value, occupancy))
            elif occupancy > 0:
                to_match.append((i, PRINT_ONLY, occupancy))
    if to_match:
        pair_gaps = np.full(len(to_match), np.nan)
        edges = np.zeros((len(to_match), 6), bool)
        all_scores = match_windows(look, [windows[i] for i, _, _ in to_match],  # type: ignore[index]
                                   pair_gaps, edges)
    coloured = colours_confirm(look, colours) if colours is not None and to_match \
        else [None] * len(feats)

    def judged(scores: np.ndarray, pair_gap: float, edge: np.ndarray, knn_value: int, i: int,
               window: np.ndarray | None) -> tuple[int, float, bool, bool]:
        """The best value, its gap, whether the tests but the cut one pass, and that one."""
        order = np.argsort(scores)[::-1]
        best, gap = int(order[0]), float(scores[order[0]] - scores[order[1]])
        # a small gap is enough only when the nearest calibration card agrees
        agreed = best == knn_value and gap >= cfg["min_gap_agreed"]
        # ... or when the card's colour says that value and no other
        if coloured[i] == best and knn_value != PRINT_ONLY:
            agreed = agreed or gap >= cfg["min_gap_coloured"]
        # alone, the templates must be sure: a 3's pips lie inside a 5's, so the two correlate
        alone = gap >= cfg["min_gap"] and scores[best] >= cfg["min_correlation_alone"]
        # ... or the best two values' prints, compared where they differ, say so clearly (a 4
        # is a 5 without its middle pip: their templates correlate alike, the pip tells);
        # more clearly when the nearest calibration card names the other of the two, or when
        # there is no nearest card at all (PRINT_ONLY: the print alone speaks; a 3 half under
        # a lighter occluder, its middle pip hidden, was read as a 2 by 0.42, own art h10311)
        disputed = knn_value in (int(order[1]), PRINT_ONLY)
        # it weighs only the best two: when the nearest calibration card names a third value,
        # it does not answer that card (a 3 whose own print was not even among the best two,
        # read as 1 over 2 by 0.56 with the nearest card saying 3, own art h10352 g047)
        third = knn_value not in (best, int(order[1]), PRINT_ONLY)
        paired = bool(pair_gap >= cfg["min_pair_gap_disputed" if disputed
                                      else "min_pair_gap"]) \
            and scores[best] >= cfg["min_correlation_alone"] and not third
        # the nearest calibration card and the card's colour are two other witnesses: when
        # both name one other value, the print alone does not outvote them (a card lying
        # half out of its window shows a 3's top, which a 5's template fits)
        outvoted = knn_value != PRINT_ONLY and knn_value != best and coloured[i] == knn_value
        # a close call none of that settles: the two values' prints laid on the card decide
        # it (pair_decides); when the nearest calibration card names a third value, the best
        # must beat that value's print on the card too (the pairwise score weighs any two
        # values, not only the templates' best two: own art 9902 g023, a 5 over a 0 by 0.08,
        # the nearest card a 3's, the 5 ahead of both by 0.40)
        second = int(order[1])
        if not (alone or agreed or paired) and window is not None:
            s = close_pair_score(look, window, best, second, scores)
            paired = bool(s >= _pair_needed(look, best, second)) and (
                not third or (bool(cfg["pair_answers_third"])
                              and pair_beats(look, window, best, knn_value)))
            # ... and when the nearest calibration card names the second value, the two
            # prints laid on the card may decide for it: two witnesses against a near tie of
            # the templates (own art 9951 g020: three 5s a 3's template fitted 0.003-0.03
            # better, the pips saying 5 by 0.43-0.49). The score projects the card on the two
            # prints' difference, so -s is the second's lead; it must clear what reading the
            # second over the best would ask.
            if not paired and bool(cfg["pair_reads_second"]) and knn_value == second \
                    and coloured[i] in (None, second) \
                    and scores[second] >= cfg["min_correlation_alone"] \
                    and bool(-s >= _pair_needed(look, second, best)):
                best, paired, outvoted = second, True, False
            # ... and when the nearest calibration card names the best value too, the score
            # need only side with the two of them clearly (``agreed_pair_score``), not carry the
            # call alone (own art 10901: single 2s over 1 by 0.02-0.03, the nearest card a 2,
            # the prints leaning to the 2 by 0.12-0.19 against the 0.25 asked alone)
            if not paired and _agreed_close_call(look, s, best, second, knn_value, coloured[i]):
                paired = True

        # ... and where neither settles it, whether the print has a hole may, when the
        # nearest calibration card and the card's colour side with what the hole says (own
        # art 10608: tilted 0s and 5s on a table the 5s' colour fit alike, 0.78-0.86)
        if not (alone or agreed or paired) and window is not None \
                and coloured[i] in (None, knn_value) \
                and holes_read(look, window, scores, best, second, knn_value):
            best, paired, outvoted = knn_value, True, False
        # another value fitting best on the window's edge may lie farther out than the window
        # reaches (a card far off its cell, its print cut): its score says too little, and a
        # middling fit of the best value is not trusted over it (a 5 cut at the bottom of
        # its window fits a serif 3 better than a 5)
        cut = scores[best] < cfg["edge_min_correlation"] \
            and bool(np.delete(edge, best).any())
        passes = scores[best] >= cfg["min_correlation"] and (alone or agreed or paired) \
            and not outvoted
        # read on its templates alone while the nearest calibration card names another value:
        # the two values' prints laid on the card must not side with that card (a faint 4 in
        # low light fits a 1's nearly blank print better than its own, other art h10814)
        if passes and alone and not (agreed or paired) and window is not None \
                and _alone_doubted(look, window, best, knn_value):
            passes = False
        # ... and where those two prints cannot be laid on the card at all, each value's mean
        # print is laid alone: it must not side with that card either (a turned 5 half under a
        # hand read as 3 at 0.30, other art h11352 g010)
        if passes and alone and not (agreed or paired) and window is not None \
                and _unpaired_doubted(look, window, best, knn_value):
            passes = False
        # read on the nearest card's word over a close call of the templates: the two prints
        # laid on the card must not clearly say the second value instead (a dim 3 read as 5 at
        # 0.11, the prints saying 3 by 0.43, hard set g4/safety-923-hard g020)
        if passes and agreed and not (alone or paired) and window is not None \
                and bool(cfg["agreed_pair_veto"]) \
                and _agreed_contradicted(look, window, best, second, scores):
            passes = False
        return best, gap, bool(passes), bool(cut)

    # (cell, value, confidence, the window it was read in) passing each test
    readable: list[tuple[int, int, float, np.ndarray]] = []
    cut_off: list[tuple[int, int, float, int]] = []  # (cell, nearest card's value, occupancy, best)
    for k, ((i, knn_value, occupancy), scores) in enumerate(
            zip(to_match, all_scores if to_match else [], strict=True)):
        best, gap, passes, cut = judged(scores, float(pair_gaps[k]), edges[k], knn_value, i,
                                        None if windows is None else windows[i])
        if passes and not cut:
            readable.append((i, best, round(min(1.0, occupancy, gap * 2), 3),
                             windows[i]))  # type: ignore[index]
        elif passes:
            cut_off.append((i, knn_value, occupancy, best))
    if cut_off and farther is not None:
        # where another value fits best on the window's edge, its print may lie farther out
        # than the window reaches: looked for again in windows reaching farther, the cell is
        # read when the same value still fits best and passes the same tests, and no other
        # value compared at full size there (the second best, and any within
        # ``refine_margin`` of the best at half size) fits best on the farther window's edge.
        # (A value whose print is absent has its best fit anywhere, often on an edge where
        # the card's outline gives it something to fit: in 6 of 550 clean grids such a value,
        # far behind the best, left a card asked; a print cut by the first window shows more
        # of itself in the farther one and comes closer.)
        wide = farther(scale)
        views = [wide[i] for i, _, _, _ in cut_off]
        wide_gaps = np.full(len(cut_off), np.nan)
        wide_edges = np.zeros((len(cut_off), 6), bool)
        wide_scores = match_windows(look, views, wide_gaps, wide_edges)
        for k, (i, knn_value, occupancy, before) in enumerate(cut_off):
            best, gap, passes, cut = judged(wide_scores[k], float(wide_gaps[k]),
                                            wide_edges[k] & (wide_scores[k] > -1.0), knn_value, i,
                                            views[k])
            if passes and not cut and best == before:
                readable.append((i, best, round(min(1.0, occupancy, gap * 2), 3), views[k]))
    # a value's print must show about as strongly as the picture's other prints do: a pale
    # card's pale numeral fits a dark card's white one only weakly, yet clearly better than
    # the other values' prints (own art h9112 g005: three dim 3s read as 5, by 0.10-0.14, at
    # under half the strength of the picture's other cards). The picture's own cards are the
    # measure (its light and exposure dim them all alike); too few of them tell nothing.
    if len(readable) >= int(cfg["print_strength_cells"]):
        strengths = print_strengths(look, [view for *_, view in readable],
                                    [v for _, v, _, _ in readable])
        floor = float(cfg["min_print_strength"]) * float(np.median(strengths))
        readable = [r for r, s in zip(readable, strengths, strict=True) if s >= floor]
    for i, best, confidence, _ in readable:
        values[i], confidences[i] = best, confidence
    _placed_memo().clear()  # (lets the picture's windows go)
    return values, confidences, card_like


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


def pair_decides(look: GridLook, window: np.ndarray, best: int, second: int,
                 scores: np.ndarray) -> bool:
    """Whether a close call between the best two values is settled by :func:`pair_score`:
    only when the best value's templates correlate at least ``min_correlation_alone``, and the
    card looks more like ``best`` than ``second`` by ``min_pair_score`` and by
    ``pair_score_margin`` more than any calibration card of ``second`` ever did
    (``look.pair_floor``, learnt left one picture out; ``pair_score_unlearnt`` where too few
    calibration cards showed it)."""
    return bool(close_pair_score(look, window, best, second, scores)
                >= _pair_needed(look, best, second))


def close_pair_score(look: GridLook, window: np.ndarray, best: int, second: int,
                     scores: np.ndarray) -> float:
    """:func:`pair_score` of ``best`` over ``second`` for a close call (the two values'
    templates within ``min_gap``, the best's correlating at least ``min_correlation_alone``);
    NaN for any other cell, or where calibration learnt no floor at all (no pairwise step)."""
    cfg = section("grid")
    if scores[best] < cfg["min_correlation_alone"] \
            or scores[best] - scores[second] >= cfg["min_gap"] \
            or not np.isfinite(_pair_needed(look, best, second)):
        return float("nan")
    return pair_score(look, window, best, second)


def _pair_needed(look: GridLook, a: int, b: int) -> float:
    """The :func:`pair_score` of ``a`` over ``b`` that reads ``a``: ``min_pair_score``, and
    ``pair_score_margin`` more than any calibration card of ``b`` ever reached toward ``a``
    (``look.pair_floor``, learnt left one picture out). Where calibration showed too few cards
    of either value to learn that (``pair_min_cards``), ``pair_score_unlearnt``: more than
    any card of another value has reached on any set measured. NaN (never) when calibration
    learnt no floor at all."""
    cfg = section("grid")
    if look.pair_floor.shape != (6, 6) or not np.isfinite(look.pair_floor).any():
        return float("nan")  # a calibration stored before the pairwise step: never
    floor = float(look.pair_floor[a, b])
    if not np.isfinite(floor):
        return float(cfg["pair_score_unlearnt"])
    return max(float(cfg["min_pair_score"]), floor + float(cfg["pair_score_margin"]))


def _agreed_close_call(look: GridLook, score: float, best: int, second: int, knn_value: int,
                       colour: int | None) -> bool:
    """Whether a close call the templates' best value leads by less than ``min_gap_agreed``
    (and so by less than the nearest calibration card's agreement asks) is read on three
    witnesses together: the templates put ``best`` first, the nearest calibration card names
    ``best`` (``knn_value``), the card's colour names no other value, and the two prints laid on
    the card (``score``, :func:`close_pair_score`) favour ``best`` by ``agreed_pair_score`` and
    by ``pair_score_margin`` more than any calibration card of ``second`` ever reached toward
    ``best`` (``look.pair_floor``). Where no floor was learnt for the pair, never: the score
    alone then has no measure of what a card of ``second`` may reach."""
    if knn_value != best or colour not in (None, best) or not np.isfinite(score):
        return False
    cfg = section("grid")
    floor = float(look.pair_floor[best, second]) if look.pair_floor.shape == (6, 6) \
        else float("nan")
    if not np.isfinite(floor):
        return False
    return bool(score >= max(float(cfg["agreed_pair_score"]),
                             floor + float(cfg["pair_score_margin"])))


def _alone_doubted(look: GridLook, window: np.ndarray, best: int, knn_value: int) -> bool:
    """Whether a value its templates read alone (a clear gap over every other value) is put in
    doubt by the nearest calibration card naming another value: the two values' prints laid
    on the card (:func:`pair_score`) favour ``best`` by less than ``alone_pair_floor``.

    In a dim, noisy picture a faint print fits a print with less ink better than its own: a
    4's stroke fades into the paper and the 1's nearly blank card fits it by 0.11-0.13 (other
    art h10814 g002, g006, g010; confidence 0.22-0.26), while the nearest calibration card
    says 4 and the two prints compared where they differ lean to the 4 (-0.08 to -0.07). Right
    readings the nearest card disputes are told apart from the card's value by 0.3 or more.
    Where the two prints cannot be laid on the card either way up (NaN) the templates'
    reading stands."""
    if knn_value in (best, PRINT_ONLY) or knn_value < 0:
        return False
    # a value whose way up this card does not tell (its two ways fit within pair_turn_gap: the
    # faint 4 of h10814 g010, 0.65 and 0.62) is tried both ways, and the way best for ``best``
    # is kept: the reading is doubted only when no way up of the two prints favours it
    ways = []
    for value in (best, knn_value):
        turned = _lies_turned(look, window, value)
        ways.append([turned] if turned is not None else [False, True])
    # the ways are laid one after the other, and the first that favours ``best`` by the floor
    # settles it (the answer is the same as from all of them: doubted only when no finite
    # score reaches the floor; the others' scores would not be looked at)
    floor = float(section("grid")["alone_pair_floor"])
    finite = False
    for ta in ways[0]:
        for tb in ways[1]:
            s = pair_score(look, window, best, knn_value, ways=(ta, tb))
            if np.isfinite(s):
                if not s < floor:
                    return False
                finite = True
    return finite


def _print_holes(crop: np.ndarray) -> int:
    """How many closed holes the print in ``crop`` (grey, the print's own size or a little
    more) has: split in two by Otsu, the lesser part is the ink (white numerals on a coloured
    card or dark ones on pale paper alike), and every part of the rest that no edge of the
    crop reaches, that covers at least ``holes_min_area`` pixels and that one stroke of ink
    alone closes is a hole (a 0 has one, or two with a slash; a 3 or a 5 none; paper shut in
    between a numeral and a card's edge or a grid line is not). Turning or tilting the card
    does not change it."""
    cfg = section("grid")
    blurred = cv2.GaussianBlur(crop, (3, 3), 0)
    _, split = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = split > 0
    ink = bright if bright.mean() < 0.5 else ~bright
    n, paper, stats, _ = cv2.connectedComponentsWithStats((~ink).astype(np.uint8),
                                                          connectivity=4)
    _, strokes = cv2.connectedComponents(ink.astype(np.uint8), connectivity=8)
    h, w = crop.shape
    holes = 0
    for k in range(1, n):
        x, y, ww, hh, area = (int(a) for a in stats[k])
        if x == 0 or y == 0 or x + ww >= w or y + hh >= h or area < int(cfg["holes_min_area"]):
            continue
        part = (paper == k).astype(np.uint8)
        ring = cv2.dilate(part, np.ones((3, 3), np.uint8)) > part
        holes += int(np.unique(strokes[ring]).size == 1)
    return holes


def _value_holed(look: GridLook) -> np.ndarray:
    """(6,): per value, 1 when every calibration template of it (the mean print and the single
    cards, as stored) has a hole, 0 when none has, -1 when they disagree or the value was not
    seen (the witness then says nothing about that value)."""
    key = id(look.templates)
    memo: dict[int, tuple[np.ndarray, np.ndarray]] = getattr(_placed, "holed", None) or {}
    _placed.holed = memo
    if key in memo and memo[key][0] is look.templates:
        return memo[key][1]
    holed = np.full(6, -1, np.int64)
    for v in range(6):
        seen = {_print_holes(t) > 0 for t in look.templates[look.template_values == v]}
        if len(seen) == 1:
            holed[v] = int(seen.pop())
    memo.clear()
    memo[key] = (look.templates, holed)
    return holed


def holes_tell(look: GridLook, window: np.ndarray, a: int, b: int) -> int | None:
    """A second witness for a close call between values ``a`` and ``b`` whose prints differ in
    holes (calibration's templates of one all have a hole, of the other none:
    :func:`_value_holed`): which of the two the card's print is by whether it has a hole.
    The print is cut where the two values' templates fit it best (either way up), a few
    pixels wider (``holes_pad``). None when calibration does not tell the two apart by holes.

    Tilted numeral cards on a table their own colour fit 0, 3 and 5's templates alike
    (0.78-0.86, own art 10608), and the two prints laid on one card do not say which either;
    a 0's closed ring does."""
    holed = _value_holed(look)
    if holed[a] < 0 or holed[b] < 0 or holed[a] == holed[b]:
        return None
    th, tw = look.templates.shape[1:]
    if window.shape[0] < th or window.shape[1] < tw:
        return None
    best, x, y = -2.0, 0, 0
    for t in look.templates[np.isin(look.template_values, (a, b))]:
        _, fit, _, loc = cv2.minMaxLoc(cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED))
        if fit > best:
            best, x, y = fit, int(loc[0]), int(loc[1])
    pad = int(section("grid")["holes_pad"])
    crop = window[max(0, y - pad):y + th + pad, max(0, x - pad):x + tw + pad]
    has = int(_print_holes(crop) > 0)
    return a if has == holed[a] else b


def holes_read(look: GridLook, window: np.ndarray, scores: np.ndarray, best: int, second: int,
               knn_value: int) -> bool:
    """Whether a close call the templates and the two prints laid on the card left open is
    read as ``knn_value`` (the nearest calibration card's value, one of the best two) because
    the print's holes (:func:`holes_tell`) name that value too: the templates within
    ``min_gap`` of each other, the value's own correlating at least ``min_correlation_alone``,
    and no third value that holes cannot tell from it within ``min_gap_agreed`` of it (a 5
    whose templates rank 0 over 3 is not read as 3 for having no hole). The two prints laid
    on the card (:func:`pair_score`) must not lean to the other value by ``holes_pair_against``
    or more, nor be unable to say (NaN): a blurred 5 under a hand, its opening closed, showed
    a hole and its nearest calibration card said 0 (own art h10802 g002: templates 5 by 0.05,
    pairwise 5 by 0.21). Four witnesses agree; no bar is lowered."""
    cfg = section("grid")
    if not bool(cfg["holes_witness"]) or knn_value not in (best, second) \
            or scores[best] - scores[second] >= cfg["min_gap"] \
            or scores[knn_value] < cfg["min_correlation_alone"]:
        return False
    holed = _value_holed(look)
    for v in range(6):
        alike = holed[v] < 0 or holed[v] == holed[knn_value]
        if v not in (best, second) and alike \
                and scores[knn_value] - scores[v] < cfg["min_gap_agreed"]:
            return False
    if holes_tell(look, window, best, second) != knn_value:
        return False
    other = second if knn_value == best else best
    return bool(pair_score(look, window, knn_value, other) > -float(cfg["holes_pair_against"]))


def _agreed_contradicted(look: GridLook, window: np.ndarray, best: int, second: int,
                         scores: np.ndarray) -> bool:
    """Whether a close call the nearest calibration card settled for ``best`` is contradicted
    by the two values' prints laid on the card (:func:`close_pair_score`): they say ``second``
    by as much as reading ``second`` over ``best`` would ask (:func:`_pair_needed`).

    A dim 3 fitted the 5's templates 0.85 and its own 0.80, and the nearest calibration card
    said 5: read as 5 at 0.11, while the pips compared where the two prints differ said 3 by
    0.43, over the 0.25 asked (hard set /tmp/g4/safety-923-hard g020 (2, 0), main ecaa2a0).
    Two witnesses each way: declined, never read as the second."""
    s = close_pair_score(look, window, best, second, scores)
    return bool(np.isfinite(s)) and bool(-s >= _pair_needed(look, second, best))


def _mean_fit(look: GridLook, window: np.ndarray, value: int) -> float:
    """How well ``value``'s mean print fits the card in ``window`` (the best correlation of
    either way up, anywhere in the window); NaN when calibration saw no card of that value."""
    fits = []
    for turned in (False, True):
        mean = _value_mean(look, value, turned)
        if mean is None or window.shape[0] < mean.shape[0] or window.shape[1] < mean.shape[1]:
            continue
        res = cv2.matchTemplate(np.asarray(window, np.float32), mean, cv2.TM_CCOEFF_NORMED)
        fits.append(float(res.max()))
    return max(fits) if fits else float("nan")


def _unpaired_doubted(look: GridLook, window: np.ndarray, best: int, knn_value: int) -> bool:
    """Whether a value its templates read alone is put in doubt, where :func:`_alone_doubted`
    cannot judge: the nearest calibration card names another value, the two values' prints
    cannot be laid on one card (every :func:`pair_score` NaN, though calibration learnt where
    both lie on their cards), and that value's mean print, laid alone, fits the card at least
    ``unpaired_mean_lead`` better than ``best``'s does.

    The templates are single calibration cards' prints, and the best of six may fit a card
    half under a hand by chance: other art h11352 g010, a turned 5 whose right half lay under
    a hand, a 3's template fitting 0.75 (the 5's not among the best two), while the nearest
    calibration card said 5 and the 5's mean print fitted 0.66 against the 3's 0.57. Two
    witnesses (the nearest card and the mean prints) against one (the best template)."""
    if knn_value in (best, PRINT_ONLY) or knn_value < 0 or look.print_offsets.shape != (6, 2) \
            or not np.isfinite(look.print_offsets[[best, knn_value]]).all():
        return False  # (a calibration stored before the pairwise step: as before)
    ways = []
    for value in (best, knn_value):
        turned = _lies_turned(look, window, value)
        ways.append([turned] if turned is not None else [False, True])
    if any(np.isfinite(pair_score(look, window, best, knn_value, ways=(ta, tb)))
           for ta in ways[0] for tb in ways[1]):
        return False  # the two prints laid on the card judge it (_alone_doubted)
    lead = _mean_fit(look, window, knn_value) - _mean_fit(look, window, best)
    return bool(lead >= float(section("grid")["unpaired_mean_lead"]))


def pair_beats(look: GridLook, window: np.ndarray, a: int, b: int) -> bool:
    """Whether the card in ``window`` looks more like value ``a`` than ``b`` by
    :func:`pair_score`, as much as :func:`pair_decides` asks (whatever the two values'
    templates scored)."""
    return bool(pair_score(look, window, a, b) >= _pair_needed(look, a, b))


def read_grid_region(image: np.ndarray, look: GridLook) -> tuple[GridObservation, Region]:
    corners, white = find_area(image)
    values_t: tuple[tuple[int | None, ...], ...]
    conf_t: tuple[tuple[float, ...], ...]
    if not look.learnt:
        # without calibration nothing can be said about a cell; the app asks for every card
        empty = tuple(tuple(None for _ in range(5)) for _ in range(5))
        zero = tuple(tuple(0.0 for _ in range(5)) for _ in range(5))
        values_t, conf_t = empty, zero
    else:
        place, _, astray = register_checked(image, _area_homography(corners, look.inset, 0))
        raw, big, area, cells = _warp(image, corners, look.inset, white, place)
        w, h = _cell_size()
        m = table_margin()
        feats = area_features(area)
        g = cv2.cvtColor(raw[m - MARGIN:m + 5 * h + MARGIN, m - MARGIN:m + 5 * w + MARGIN],
                         cv2.COLOR_BGR2GRAY)
        windows = scaled_windows(g, 1.0)
        table, foreign, patches, table_at = table_patches(image, corners, look.inset, white,
                                                          big, place)
        sure: dict[int, float] = {}
        cell_stats = _stats(cells)

        def settled(card_like: list[bool]) -> set[int]:
            sure.update(surely_empty(cells, [i for i in range(25) if not card_like[i]],
                                     patches, look, table_at, cell_stats))
            return set(sure)

        extra = SEARCH + int(section("grid")["cut_search_extra"])

        def farther(scale: float) -> list[np.ndarray]:
            # the grey area with as much more around as the windows reach farther
            e = extra - SEARCH
            wide = cv2.cvtColor(raw[m - MARGIN - e:m + 5 * h + MARGIN + e,
                                    m - MARGIN - e:m + 5 * w + MARGIN + e], cv2.COLOR_BGR2GRAY)
            return scaled_windows(wide, scale, extra)

        def shifted(at: list[int]) -> list[np.ndarray]:
            return shifted_features(big, m, at)

        values, confs, _ = classify(look, feats, table, windows, foreign, settled,
                                    cell_stats[1], lambda scale: scaled_windows(g, scale),
                                    farther, shifted)
        for i in range(25):
            if i in sure:
                values[i], confs[i] = None, sure[i]
            elif values[i] is None:
                confs[i] = 0.0  # not surely the bare surface, not surely a card: ask
        for i in _cut_off(values, confs):
            confs[i] = 0.0
        for i in _beside_unread(values, confs, int(section("grid")["unread_reach"])):
            confs[i] = 0.0
        if astray:
            # the cards say the area is not where the markers put it, and no correction could
            # be trusted: a cell may hold half a card and half the surface, so every cell is
            # asked rather than read (a card half out of its cell read as an empty cell,
            # confidence 0.88, on a mat whose cards lay half a cell off its markers)
            confs = [0.0] * 25
        values_t = tuple(tuple(values[r * 5:(r + 1) * 5]) for r in range(5))
        conf_t = tuple(tuple(confs[r * 5:(r + 1) * 5]) for r in range(5))
    x0, y0 = np.maximum(corners.min(axis=0), 0)
    x1, y1 = corners.max(axis=0)
    return GridObservation(values_t, conf_t), (int(x0), int(y0), int(x1), int(y1))


def _warp(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
          white: np.ndarray, place: np.ndarray | None = None
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]:
    """One warp serves the cells, the value templates and the table around (the others are
    crops of it, the same homography shifted): the raw warp, it white-balanced, the area with
    4 pixels around and its 25 cells."""
    w, h = _cell_size()
    m = table_margin()
    raw = rectify(image, corners, inset, margin=m, place=place)
    big = balance(raw, white)
    area = big[m - 4:m + 5 * h + 4, m - 4:m + 5 * w + 4]
    cells = [area[4 + r * h:4 + (r + 1) * h, 4 + c * w:4 + (c + 1) * w]
             for r in range(5) for c in range(5)]
    return raw, big, area, cells


def _beside_unread(values: list[int | None], confs: list[float], reach: int) -> list[int]:
    """The cells read as empty that lie within ``reach`` cells (rows, columns or diagonals) of a
    cell the reader could not read, or of such an empty cell in turn.

    A hand or sleeve the colour of the table hides a card as the bare surface would: its cells
    pass every test of an empty cell (skin on pine, a grey-green sleeve on a grey mat, a dark arm
    on a dim green mat; confidence up to 1.00). What it leaves elsewhere is a card it only half
    covers, which the reader declines. So an empty reading next to a declined cell is asked, not
    given; a value read is never touched (a hand shows no card's print). In the app this costs
    nothing: an empty cell and a declined one both leave the grid as it was."""
    unread = [i for i in range(25) if values[i] is None and confs[i] == 0.0]
    asked: list[int] = []
    while unread:
        i = unread.pop()
        r, c = divmod(i, 5)
        for j in range(25):
            rj, cj = divmod(j, 5)
            if (values[j] is None and confs[j] > 0.0 and j not in asked
                    and max(abs(rj - r), abs(cj - c)) <= reach):
                asked.append(j)
                unread.append(j)
    return sorted(asked)


def _cut_off(values: list[int | None], confs: list[float]) -> list[int]:
    """The empty readings edge to edge with a card of a smaller group, when the cards read do
    not all touch.

    Cards are laid edge to edge with a card already down (RULINGS, Robot Master: placement), so
    the cards on the table always form one group. Read cards in two groups (counting a cell
    the reader declined as one that may hold a card) mean a card between them was read as an
    empty cell: an arm the table's colour lying along a row of cards hides them as the bare
    surface would, and where its edges only graze the cards beside it those are still read,
    leaving no declined cell for :func:`_beside_unread` to start from (own art h10806 g035:
    four cards of row 1 read as empty cells at 1.00, the cards above and below read). Only
    empty readings are asked, never a value; a picture read right is never cut in two."""
    held = [values[i] is not None or confs[i] == 0.0 for i in range(25)]
    group = [-1] * 25
    with_cards: set[int] = set()  # groups holding a card read (not declined cells alone)
    for start in range(25):
        if not held[start] or group[start] >= 0:
            continue
        group[start], todo = start, [start]
        while todo:
            i = todo.pop()
            if values[i] is not None:
                with_cards.add(start)
            r, c = divmod(i, 5)
            for rj, cj in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                j = rj * 5 + cj
                if 0 <= rj < 5 and 0 <= cj < 5 and held[j] and group[j] < 0:
                    group[j] = start
                    todo.append(j)
    if len(with_cards) < 2:
        return []
    # the hidden cards lie edge to edge with the smaller groups (whichever side of them the
    # arm lies): the empty readings touching those are asked (two groups alike: both)
    size = {g: group.count(g) for g in with_cards}
    largest = [g for g in with_cards if size[g] == max(size.values())]
    apart = {g for g in with_cards if len(largest) > 1 or g != largest[0]}
    asked = []
    for i in range(25):
        r, c = divmod(i, 5)
        if values[i] is None and confs[i] > 0.0 and any(
                0 <= rj < 5 and 0 <= cj < 5 and group[rj * 5 + cj] in apart
                and values[rj * 5 + cj] is not None
                for rj, cj in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))):
            asked.append(i)
    return asked


def _cells_and_table(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
                     white: np.ndarray, place: np.ndarray | None = None
                     ) -> tuple[list[np.ndarray], list[np.ndarray], np.ndarray]:
    """The 25 cells, the usual table patches around and the white-balanced area."""
    _, big, area, cells = _warp(image, corners, inset, white, place)
    _, _, patches, _ = table_patches(image, corners, inset, white, big, place)
    return cells, patches, area


def read_grid(image: np.ndarray, look: GridLook) -> GridObservation:
    """The cards on the play area. Raises :class:`NoPlayAreaFound` without its markers."""
    return read_grid_region(image, look)[0]


def _examples(areas: list[np.ndarray], grids: list[Grid], augment: bool
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    cfg = section("grid")
    shifts = [int(s) for s in cfg["shifts"]] if augment else [0]
    turns = [False, True] if augment and cfg["turned"] else [False]
    feats, classes, owner = [], [], []
    for n, (area, grid) in enumerate(zip(areas, grids, strict=True)):
        labels = [EMPTY if v is None else int(v) for row in grid for v in row]
        # shifted along one axis at a time: the cross costs half the full square of shifts
        moves = sorted({(dx, 0) for dx in shifts} | {(0, dy) for dy in shifts})
        for dx, dy in moves:
            for turned in turns:
                feats.append(area_features(area, 4, dx, dy, turned))
                classes.extend(labels[::-1] if turned else labels)
                owner.extend([n] * 25)
    return np.concatenate(feats), np.array(classes), np.array(owner)


def _unshifted_rows(pictures: int) -> np.ndarray:
    """Where each picture's unshifted, unturned cells lie among :func:`_examples`'s augmented
    rows (in the order of the unaugmented rows)."""
    cfg = section("grid")
    shifts = [int(s) for s in cfg["shifts"]]
    turns = [False, True] if cfg["turned"] else [False]
    moves = sorted({(dx, 0) for dx in shifts} | {(0, dy) for dy in shifts})
    block = moves.index((0, 0)) * len(turns)  # the unturned copy comes first
    per_picture = len(moves) * len(turns) * 25
    return np.concatenate([p * per_picture + block * 25 + np.arange(25)
                           for p in range(pictures)]) if pictures else np.zeros(0, np.intp)


#: a calibration picture, or a function that gives it (:func:`learn` then holds one at a time)
Picture = np.ndarray | Callable[[], np.ndarray]


def _picture(picture: Picture) -> np.ndarray:
    return picture() if callable(picture) else picture


def learn(examples: Sequence[tuple[Picture, Grid]]) -> GridLook:
    """Learn the area's inset and each value's look from labelled images (image, grid).

    Each picture is looked at once per pass and what is learnt from it kept, never more than
    one picture's working memory at a time: a picture given as a function (the demo's
    calibration keeps its pictures compressed) is called once per pass and let go after it.
    """
    cfg = section("grid")
    found = []
    for picture, grid in examples:
        try:
            corners, white = find_area(_picture(picture))
            found.append((picture, corners, white, grid))
        except NoPlayAreaFound:
            continue
    if not found:
        return GridLook()
    steps = np.arange(cfg["inset_from"], cfg["inset_to"] + 1e-6, cfg["inset_step"])
    labels = [EMPTY if v is None else int(v) for *_, g in found for row in g for v in row]
    classes = np.array(labels)
    owner = np.repeat(np.arange(len(found)), 25)

    def features(insets: list[tuple[float, float]]) -> list[np.ndarray]:
        # each inset's unshifted features of every picture's cells, a picture at a time
        by_inset: list[list[np.ndarray]] = [[] for _ in insets]
        for picture, corners, white, g in found:
            image = _picture(picture)
            for at, inset in zip(by_inset, insets, strict=True):
                at.append(_examples([rectify(image, corners, inset, white=white)], [g],
                                    augment=False)[0])
            del image
        return [np.concatenate(at) for at in by_inset]

    def score(feats: np.ndarray) -> float:
        # how well cells of one image are told apart by the other images' cells
        d = _distances(feats, feats)
        if len(found) > 1:
            d[owner[:, None] == owner[None, :]] = np.inf
        else:
            np.fill_diagonal(d, np.inf)
        same = np.where(classes[:, None] == classes[None, :], d, np.inf).min(axis=1)
        other = np.where(classes[:, None] != classes[None, :], d, np.inf).min(axis=1)
        ok = np.isfinite(same) & np.isfinite(other)
        if not ok.any():
            return 0.0
        return float(np.mean(other[ok] - same[ok]))

    def best(insets: list[tuple[float, float]]) -> float:
        # a few insets at a time: all thirteen insets' features of every picture are 5 MB
        scores = [score(f) for at in range(0, len(insets), 5)
                  for f in features(insets[at:at + 5])]
        # the first of the best, as max() over the steps picks it
        return float(steps[max(range(len(steps)), key=scores.__getitem__)])

    # x and y insets are searched one after the other, the first on a common guess
    ay = best([(a, a) for a in steps])
    ax = best([(a, ay) for a in steps])
    ay = best([(ax, a) for a in steps])
    grids = [g for *_, g in found]
    areas, greys, cells_by_image, empties, tables = [], [], [], [], []
    for picture, corners, white, g in found:
        image = _picture(picture)
        # the area as the picture's cards lie (the inset stays the fallback's, for readings
        # whose cards are too few to register the area)
        p = register(image, _area_homography(corners, (ax, ay), 0))[0]
        areas.append(rectify(image, corners, (ax, ay), white=white, place=p))
        greys.append(grey_area(image, corners, (ax, ay), p))
        cells, table, _ = _cells_and_table(image, corners, (ax, ay), white, p)
        del image
        # copies: the views would keep the picture's whole white-balanced warp
        cells = [c.copy() for c in cells]
        cells_by_image.append(cells)
        empties.append([cells[r * 5 + c] for r in range(5) for c in range(5) if g[r][c] is None])
        tables.append([t.copy() for t in table])
    feats, classes, _ = _examples(areas, grids, augment=True)
    plain, plain_classes, _ = _examples(areas, grids, augment=False)
    del areas
    # the spread of the calibration's own cells: each unshifted cell's distance to its
    # nearest other example of the same class (its own shifted and turned copies included)
    d = _distances(plain, feats)
    # the cell itself is left out by where it lies among the examples, not by a distance of
    # zero: float32 distances of a row to itself come out at 0.0005-0.001, not 0
    d[np.arange(len(plain)), _unshifted_rows(len(grids))] = np.inf
    same = np.where(plain_classes[:, None] == classes[None, :], d, np.inf).min(axis=1)
    spread = float(np.percentile(same[np.isfinite(same)], 95)) if np.isfinite(same).any() else 1.0
    del d, same
    templates, values, masks = learn_templates(greys, grids)
    mode, bare, texture = learn_bare(empties, tables)
    value_colours, value_spread = learn_value_colours(cells_by_image, grids)
    pair_floor = learn_pair_floor(greys, grids)
    print_offsets = learn_print_offsets(templates, values, greys, grids)
    return GridLook((ax, ay), feats, classes, spread * float(cfg["max_distance_factor"]),
                    templates, values, masks, mode, bare, texture, value_colours, value_spread,
                    pair_floor, print_offsets)
