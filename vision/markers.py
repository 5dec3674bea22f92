"""ArUco markers (DICT_4X4_50): detection, white references and marker-local geometry.

Ids per DESIGN.md: ``3*seat + part`` for the 18 part tiles, ``18 + 4*seat + corner`` for board
corners, 42..45 for the Robot Master play area (clockwise from top-left).
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Collection, Sequence
from typing import Any

import cv2
import numpy as np

from vision.thresholds import section

TILE_IDS = range(18)
BOARD_IDS = range(18, 42)
PLAY_AREA_IDS = (42, 43, 44, 45)
#: marker-local corners (the marker spans -0.5..0.5), in ArUco's corner order
LOCAL_CORNERS = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float32)

_local = threading.local()


def tile_id(seat: int, part: int) -> int:
    return 3 * seat + part


def board_corner_id(seat: int, corner: int) -> int:
    return 18 + 4 * seat + corner


def _detector(window: int, pixels_per_cell: int = 4, refine: bool = True,
              margin: float | None = None) -> cv2.aruco.ArucoDetector:
    # one detector per thread, window, bit sampling, corner refinement and cell margin: the
    # camera's thread and the UI thread may both read
    cache: dict[tuple[int, int, bool, float | None], cv2.aruco.ArucoDetector] = (
        getattr(_local, "detectors", None) or {})
    _local.detectors = cache
    det = cache.get((window, pixels_per_cell, refine, margin))
    if det is None:
        cfg = section("markers")
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = (cv2.aruco.CORNER_REFINE_SUBPIX if refine
                                         else cv2.aruco.CORNER_REFINE_NONE)
        params.adaptiveThreshWinSizeMin = window
        params.adaptiveThreshWinSizeMax = window
        params.adaptiveThreshConstant = float(cfg["threshold_constant"])
        params.minDistanceToBorder = int(cfg["min_distance_to_border"])
        params.perspectiveRemovePixelPerCell = pixels_per_cell
        # no error correction (the library's default is 0.6): with DICT_4X4_50 one corrected
        # bit could turn a smudged tile into another seat's
        params.errorCorrectionRate = 0.0
        if margin is not None:
            # the share of each cell's side left out on every side when its bit is read
            params.perspectiveRemoveIgnoredMarginPerCell = margin
        det = cv2.aruco.ArucoDetector(dictionary, params)
        cache[(window, pixels_per_cell, refine, margin)] = det
    return det


#: the detector's defaults for corner refinement (read once: made anew each call, they cost more
#: than the refinement)
_REFINE_PARAMS = cv2.aruco.DetectorParameters()


def _refine(grey_image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """A marker's corners refined as the detector refines them (``CORNER_REFINE_SUBPIX``):
    ``cornerSubPix`` with a window of ``relativeCornerRefinmentWinSize`` of the marker's cell
    (at least 1, at most ``cornerRefinementWinSize``), in float32 as OpenCV computes it."""
    params = _REFINE_PARAMS
    sides = np.sqrt(((quad - quad[[1, 2, 3, 0]]) ** 2).sum(axis=1, dtype=np.float32))
    cell = np.float32(np.float32(sides[0] + sides[1] + sides[2] + sides[3])
                      / np.float32(4 * (4 + 2 * params.markerBorderBits)))
    win = round(float(np.float32(params.relativeCornerRefinmentWinSize) * cell))
    win = min(max(1, win), params.cornerRefinementWinSize)
    criteria = (cv2.TERM_CRITERIA_MAX_ITER | cv2.TERM_CRITERIA_EPS,
                params.cornerRefinementMaxIterations, params.cornerRefinementMinAccuracy)
    out = cv2.cornerSubPix(grey_image, np.ascontiguousarray(quad.reshape(-1, 1, 2), np.float32),
                           (win, win), (-1, -1), criteria)
    return np.asarray(out.reshape(4, 2), np.float32)


def _extent(quad: np.ndarray) -> tuple[float, float, float, float, float]:
    """A quad's bounding box (x0, y0, x1, y1) and its longest side, in plain floats (a few
    numpy calls on four points cost more than the arithmetic)."""
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = quad.tolist()
    xs, ys = (ax, bx, cx, dx), (ay, by, cy, dy)
    length = max(math.hypot(bx - ax, by - ay), math.hypot(cx - bx, cy - by),
                 math.hypot(dx - cx, dy - cy), math.hypot(ax - dx, ay - dy))
    return min(xs), min(ys), max(xs), max(ys), length


def _set_min_perimeter(det: cv2.aruco.ArucoDetector, rate: float) -> None:
    params = det.getDetectorParameters()
    if params.minMarkerPerimeterRate != rate:
        params.minMarkerPerimeterRate = rate
        det.setDetectorParameters(params)


def _once(corners: Sequence[Any], ids: np.ndarray | None,
          wanted: Collection[int] | None, twice: set[int]) -> dict[int, np.ndarray]:
    """The wanted ids seen exactly once (those seen more often are added to ``twice``)."""
    seen: dict[int, np.ndarray] = {}
    if ids is None:
        return seen
    for quad, mid in zip(corners, ids.ravel(), strict=True):
        m = int(mid)
        if wanted is not None and m not in wanted:
            continue
        if m in seen:
            twice.add(m)
        seen[m] = quad.reshape(4, 2).astype(np.float32)
    return {m: q for m, q in seen.items() if m not in twice}


def grey(image: np.ndarray) -> np.ndarray:
    return image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def detect(image: np.ndarray, wanted: Collection[int] | None = None,
           complete: Callable[[dict[int, np.ndarray]], bool] | None = None,
           twice: set[int] | None = None, pixels_per_cell: int = 4,
           rejected: list[np.ndarray] | None = None) -> dict[int, np.ndarray]:
    """Marker id -> its 4 corners (float32, 4x2).

    Detection runs with one threshold window after another (``markers.windows``) until
    ``complete(found)`` holds: one pass is enough for a clean picture, and each pass costs as
    much as the rest of a reading. Ids seen twice in one pass are dropped from that pass (and
    added to ``twice`` when given): a duplicate means a second set or a false detection, and
    guessing between them could read the wrong tile. ``pixels_per_cell``: how many pixels of
    each marker cell its bit is read from (more read small, soft markers' bits better, at more
    cost). ``rejected``, when given, gathers the square outlines the passes run could not
    decode (4x2 corners each): where a marker the threshold or the bit sampling spoilt may lie.
    """
    g = grey(image)
    found: dict[int, np.ndarray] = {}
    seen_twice: set[int] = set() if twice is None else twice
    cfg = section("markers")
    # candidates smaller than the smallest marker we promise to read are not worth decoding
    rate = 4.0 * float(cfg["min_side_px"]) / max(g.shape)
    for window in cfg["windows"]:
        det = _detector(int(window), pixels_per_cell)
        _set_min_perimeter(det, rate)
        corners, ids, missed = det.detectMarkers(g)
        if rejected is not None:
            rejected.extend(q.reshape(4, 2).astype(np.float32) for q in missed)
        this_pass: set[int] = set()
        for m, quad in _once(corners, ids, wanted, this_pass).items():
            found.setdefault(m, quad)
        seen_twice |= this_pass
        if found and (complete is None or complete(found)):
            break
    return found


def detect_near(image: np.ndarray, quads: Sequence[tuple[int, np.ndarray]],
                wanted: Collection[int]) -> dict[int, np.ndarray]:
    """The ``wanted`` markers looked for only in boxes around ``quads`` (id and corners where
    markers were seen before, in this picture's pixels): marker id -> its 4 corners, in the
    order of ``quads``; {} unless every one of ``quads`` is found again, each well inside
    its box.

    Each box is searched as :func:`detect` searches the whole picture (the same threshold
    windows in turn, the same smallest perimeter in pixels, full resolution), for a fraction
    of the work: a whole picture's threshold and contours cost most of a detection. The
    adaptive threshold looks only half a window around each pixel, so a marker lying at least
    half the largest window plus ``near_guard`` of its side inside its box's edges (those
    within the picture) is found with the same corners as in the whole picture, up to float
    rounding (the grid reader's test pins it); one nearer an edge (it has moved) may have its
    outline cut, so then nothing is taken. Boxes reach ``near_move`` of a side (at least
    ``near_move_px``) farther than that. An id seen twice in the boxes (not the same marker
    found in two overlapping boxes) counts as not found. What lies outside the boxes is not
    looked at: a duplicate id elsewhere goes unseen here."""
    cfg = section("markers")
    height, width = image.shape[:2]
    # detect's smallest perimeter in pixels, as OpenCV rounds it for the whole picture
    smallest = int(4.0 * float(cfg["min_side_px"]) / max(height, width) * max(height, width))
    half_window = max(int(w) for w in cfg["windows"]) // 2 + 1
    share, move, move_px = (float(cfg["near_guard"]), float(cfg["near_move"]),
                            float(cfg["near_move_px"]))
    boxes = []
    for _, quad in quads:
        qx0, qy0, qx1, qy1, length = _extent(quad)
        reach = half_window + share * length + max(move * length, move_px)
        x0, y0 = max(math.floor(qx0 - reach), 0), max(math.floor(qy0 - reach), 0)
        x1, y1 = min(math.ceil(qx1 + reach) + 1, width), min(math.ceil(qy1 + reach) + 1, height)
        if x1 - x0 < 8 or y1 - y0 < 8:
            return {}
        # each box turned grey on its own (the same pixels as the whole picture's grey)
        boxes.append((x0, y0, x1, y1, grey(image[y0:y1, x0:x1])))
    # the boxes' grey where they lie in the picture: corners are refined there, in the
    # picture's own coordinates (cornerSubPix's rounding, and with it whether a corner in a
    # faint spot moves at all, depends on where the point lies). Nothing outside a box is read
    # (a corner lies deep inside its box), so one canvas per thread and size serves every
    # picture: clearing a new one each time costs more than the search in the boxes
    canvas = getattr(_local, "canvas", None)
    if canvas is None or canvas.shape != (height, width):
        canvas = np.zeros((height, width), np.uint8)
        _local.canvas = canvas
    for x0, y0, x1, y1, crop in boxes:
        canvas[y0:y1, x0:x1] = crop

    def inside(quad: np.ndarray, x0: int, y0: int, x1: int, y1: int) -> bool:
        # the picture's own edges are the same edges in a box
        qx0, qy0, qx1, qy1, length = _extent(quad)
        g = half_window + share * length
        return ((x0 == 0 or qx0 - x0 >= g) and (y0 == 0 or qy0 - y0 >= g)
                and (x1 == width or x1 - 1 - qx1 >= g) and (y1 == height or y1 - 1 - qy1 >= g))

    found: dict[int, np.ndarray] = {}
    for window in cfg["windows"]:
        det = _detector(int(window), refine=False)
        # every sighting of a wanted id in this pass: its corners and whether well inside
        seen: dict[int, list[tuple[np.ndarray, bool]]] = {}
        for x0, y0, x1, y1, crop in boxes:
            # the same smallest perimeter in pixels (OpenCV truncates rate x size)
            _set_min_perimeter(det, (smallest + 0.5) / max(crop.shape))
            corners, ids, _ = det.detectMarkers(crop)
            if ids is None:
                continue
            for quad, mid in zip(corners, ids.ravel(), strict=True):
                m = int(mid)
                if m in wanted:
                    at = quad.reshape(4, 2) + np.array([x0, y0], np.float32)
                    seen.setdefault(m, []).append((at, inside(at, x0, y0, x1, y1)))
        for m, sightings in seen.items():
            if any(float(np.abs(at - sightings[0][0]).max()) > 1.0 for at, _ in sightings[1:]):
                return {}  # two markers of one id
            well = [at for at, ok in sightings if ok]
            if not well:
                return {}  # moved towards its box's edge: the whole picture is searched
            if m not in found:
                found[m] = _refine(canvas, well[0])
        if all(m in found for m, _ in quads):
            return {m: found[m] for m, _ in quads}
    return {}


def detect_closer(image: np.ndarray, box: tuple[int, int, int, int], wanted: Collection[int],
                  side: float, margins: Sequence[float | None] = (None,)
                  ) -> dict[int, np.ndarray]:
    """Markers looked for again in one box of the picture (x0, y0, x1, y1), where other
    markers say they must be: marker id -> its 4 corners in picture pixels.

    The box is enlarged so that markers of about ``side`` pixels span ``closer_side_px``, and
    each bit is read from the middle of its cell (``closer_pixels_per_cell``): a small
    marker's outline then clears the smallest perimeter worth decoding, and a blurred bit,
    which bleeds into its neighbours along the cell's edges, is still read right. Only
    ``wanted`` ids count, and one seen twice in the box is dropped. Error correction stays off,
    so this pass cannot read a marker the whole picture read as another id. ``margins``: the
    share of each cell's side left out on every side when its bit is read (None: OpenCV's
    0.13), one after the other, each with every threshold window, until every wanted id is
    found (an id seen twice in any of them stays dropped).
    """
    g = grey(image)
    x0, y0 = max(int(box[0]), 0), max(int(box[1]), 0)
    x1, y1 = min(int(box[2]), g.shape[1]), min(int(box[3]), g.shape[0])
    if x1 - x0 < 8 or y1 - y0 < 8 or not wanted:
        return {}
    cfg = section("markers")
    scale = float(np.clip(float(cfg["closer_side_px"]) / max(side, 1.0), 1.0,
                          float(cfg["closer_max_scale"])))
    crop = g[y0:y1, x0:x1]
    if scale > 1.0:
        crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
    rate = 4.0 * float(cfg["min_side_px"]) * scale / max(crop.shape)
    found: dict[int, np.ndarray] = {}
    twice: set[int] = set()
    for margin in margins:
        for window in cfg["windows"]:
            det = _detector(int(window), int(cfg["closer_pixels_per_cell"]), margin=margin)
            _set_min_perimeter(det, rate)
            corners, ids, _ = det.detectMarkers(crop)
            for m, quad in _once(corners, ids, wanted, twice).items():
                found.setdefault(m, quad / scale + np.array([x0, y0], np.float32))
            for m in twice:
                found.pop(m, None)
            if all(m in found or m in twice for m in wanted):
                return found
    return found


def look_at_squares(image: np.ndarray, sized: Sequence[np.ndarray], known: Sequence[np.ndarray],
                    wanted: Collection[int], reach: float, most: int, least_spread: float
                    ) -> dict[int, np.ndarray]:
    """Square outlines the detector saw but could not decode (``sized``: 4x2 corners each, of
    the size the wanted markers should be), each looked at again closer
    (:func:`detect_closer`, a box reaching ``reach`` of its side from its centre) for the
    ``wanted`` ids: marker id -> its corners. Squares lying on a marker ``known`` are passed
    over, and an id read in two places is dropped.

    Where there are more than ``most`` such squares, the table itself is squares (a checked
    cloth), and only those whose middle's grey spreads at least ``least_spread`` (a standard
    deviation, :func:`inner_spread`) are looked at: a marker's bits are black and white, a
    check is one colour (third art g2501: 1,470 squares a picture, each looked at closer,
    5-8 s a picture here and minutes on a Pi, none a marker; their middles spread 1-3 grey
    levels). Where there are few, every one is looked around: a blank square beside a marker
    leads to it (f2432 t014, g2477 t008, spread 2-3)."""
    looked: list[np.ndarray] = []
    more: dict[int, np.ndarray] = {}
    dropped: set[int] = set()
    if len(sized) > most:
        g = grey(image)
        sized = [q for q in sized if inner_spread(g, q) >= least_spread]
    for quad in sized:
        size = side(quad)
        centre = quad.mean(axis=0)
        if any(cv2.pointPolygonTest(k.reshape(-1, 1, 2), (float(centre[0]), float(centre[1])),
                                    False) >= 0 for k in known):
            continue
        # the passes see one square again and again: looked at once
        if any(float(np.linalg.norm(centre - c)) < 0.5 * size for c in looked):
            continue
        looked.append(centre)
        x0, y0 = centre - reach * size
        x1, y1 = centre + reach * size
        box = (math.floor(x0), math.floor(y0), math.ceil(x1), math.ceil(y1))
        for m, q in detect_closer(image, box, wanted, size).items():
            if m in more and float(np.linalg.norm(q.mean(axis=0) - more[m].mean(axis=0))) > \
                    0.5 * size:
                dropped.add(m)
            more.setdefault(m, q)
    return {m: q for m, q in more.items() if m not in dropped}


def inner_spread(grey_image: np.ndarray, quad: np.ndarray) -> float:
    """How much ``grey_image`` varies (its standard deviation) over the middle of the square
    outline ``quad`` (its inner 5/8, inside where a marker's black border lies)."""
    n = 32
    to = cv2.getPerspectiveTransform(np.asarray(quad, np.float32),
                                     np.array([[0, 0], [n - 1, 0], [n - 1, n - 1], [0, n - 1]],
                                              np.float32))
    square = cv2.warpPerspective(grey_image, to, (n, n), flags=cv2.INTER_LINEAR)
    return float(square[6:n - 6, 6:n - 6].std())


def side(quad: np.ndarray) -> float:
    """Mean side length in pixels."""
    return float(np.mean(np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)))


def sides(quads: list[np.ndarray]) -> np.ndarray:
    """:func:`side` of each of ``quads`` at once (a checked cloth leaves thousands of
    undecoded squares a picture, and one call each cost a third of its tiles reading)."""
    if not quads:
        return np.zeros(0)
    q = np.stack([np.asarray(x).reshape(4, 2) for x in quads])
    return np.asarray(np.linalg.norm(q - np.roll(q, 1, axis=1), axis=2).mean(axis=1))


def local_to_image(quad: np.ndarray) -> np.ndarray:
    """Homography from marker-local coordinates (marker = -0.5..0.5) to image pixels."""
    return cv2.getPerspectiveTransform(LOCAL_CORNERS, quad.astype(np.float32))


def _print_pixels(image: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """The pixels of a marker's print (its border left out), BGR float32: (400, 3)."""
    H = cv2.getPerspectiveTransform(
        np.array([[0, 0], [24, 0], [24, 24], [0, 24]], np.float32), quad.astype(np.float32))
    patch = cv2.warpPerspective(image, H, (24, 24), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP)
    return np.asarray(patch[2:22, 2:22].reshape(-1, 3).astype(np.float32))


def _percentiles(pixels: np.ndarray, qs: tuple[float, ...]) -> list[np.ndarray]:
    """``[np.percentile(pixels, q, axis=0) for q in qs]`` bit for bit, from one partial sort:
    numpy's default ("linear") method for a whole-number ``q`` (a weak scalar, so the result
    keeps the pixels' dtype): the values at the floor and the ceiling of ``(n - 1) * q / 100``,
    ``a + (b - a) * t`` below a weight t of 0.5, ``b - (b - a) * (1 - t)`` from it. Each
    np.percentile call costs far more than its 400 pixels. tests/vision/test_tiles_lane_speed.py
    holds the two equal."""
    n = len(pixels)
    spots = [((n - 1) * (q / 100), q) for q in qs]
    kth = sorted({min(math.floor(v) + k, n - 1) for v, _ in spots for k in (0, 1)})
    part = np.partition(pixels, kth, axis=0)
    out = []
    for v, _ in spots:
        lo = math.floor(v)
        if v >= n - 1:
            out.append(part[n - 1].copy())
            continue
        t = float(v - lo)
        a, b = part[lo], part[lo + 1]
        diff = b - a
        out.append(b - diff * (1 - t) if t >= 0.5 else a + diff * t)
    return out


def white_black(image: np.ndarray, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The white and black of a marker's own print (BGR), the local reference for colours: the
    92nd and 8th percentiles of its pixels (:func:`_percentiles`, as np.percentile gives them)."""
    white, black = _percentiles(_print_pixels(image, quad), (92, 8))
    return white, black


def whites(image: np.ndarray, quads: Sequence[np.ndarray]) -> np.ndarray:
    """The white of each marker's print, as :func:`white_black` gives it: (n, 3). One
    percentile over all the markers at once (each call costs far more than its 400 pixels;
    the values are the same, bit for bit)."""
    if not quads:
        return np.zeros((0, 3), np.float32)
    return np.asarray(np.percentile(np.stack([_print_pixels(image, q) for q in quads]), 92,
                                    axis=1))


def normalise(samples: np.ndarray, white: np.ndarray, black: np.ndarray) -> np.ndarray:
    """Colours white-balanced against a local white and black: 0 = black print, 1 = white."""
    span = np.maximum(white - black, 8.0)
    return np.asarray((samples.astype(np.float32) - black) / span)
