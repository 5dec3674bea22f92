"""Finding the play area: the corner markers 42..45 (looked for near where the last picture
showed them, again more finely when too few were found), the homography they give, and the area
warped to canonical cells and white-balanced on the markers' paper.

Raises :class:`vision.errors.NoPlayAreaFound` when the markers are not in view.
"""

from __future__ import annotations

import math
import threading

import cv2
import numpy as np

from vision import markers
from vision.errors import NoPlayAreaFound
from vision.grid.geometry import MARGIN, _cell_size
from vision.thresholds import section


def find_area(image: np.ndarray, three_again: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """The four play-area marker centres (4x2), clockwise from top-left, and the markers' white
    (BGR), the picture's reference for colours. With one marker hidden (a hand), the fourth
    corner is completed as a parallelogram. ``three_again``: see :func:`_area_markers`."""
    corners, white, _ = find_area_seen(image, three_again)
    return corners, white


def find_area_seen(image: np.ndarray, three_again: bool = True
                   ) -> tuple[np.ndarray, np.ndarray, bool]:
    """:func:`find_area`, and whether one marker is hidden: not found, and where its corner
    is completed the picture shows nothing of a marker's size (:func:`_marker_shown`)."""
    found = _area_markers(image, three_again)
    centres = {m - markers.PLAY_AREA_IDS[0]: q.mean(axis=0) for m, q in found.items()}
    if len(centres) < 3:
        raise NoPlayAreaFound("the play area's corner markers are not in view")
    hidden = False
    white = np.mean(markers.whites(image, list(found.values())), axis=0)
    if len(centres) == 3:
        (missing,) = set(range(4)) - set(centres)
        centres[missing] = _fourth_corner(centres, missing)
        side = float(np.mean([markers.side(q) for q in found.values()]))
        hidden = not _marker_shown(image, centres[missing], side, white)
    return np.stack([centres[i] for i in range(4)]).astype(np.float32), white, hidden


def _fourth_corner(centres: dict[int, np.ndarray], missing: int) -> np.ndarray:
    """Where three corners (``centres``, 0..3 clockwise from top-left) put the ``missing``
    one: a parallelogram's fourth corner (under perspective a side or two off)."""
    return np.asarray(centres[(missing + 1) % 4] + centres[(missing + 3) % 4]
                      - centres[(missing + 2) % 4])


def _marker_shown(image: np.ndarray, centre: np.ndarray, side: float,
                  white: np.ndarray) -> bool:
    """Whether the picture shows a marker near ``centre`` (where a marker not found would lie;
    ``side``: the found markers' mean side, ``white`` their paper): within
    ``marker_shown_reach`` sides of it, a dark patch (at most ``marker_shown_dark`` of the
    paper's brightness) whose extent both ways is ``marker_shown_size`` sides, in a ring of
    paper: of the pixels just around it (a sixth of a side wide), at least
    ``marker_shown_ring`` are at least ``marker_shown_bright`` of the paper's brightness. A
    marker whose bits could not be read (small, soft or lit unevenly: 4 of gate 7's 180 clean
    grids; blurred in a dim picture, its border's ring 0.55-0.59 bright, own art h12301 g008,
    h12302 g050) shows its black square in its white border so; an arm or a hand lying over it
    does not, and neither do a dark mat's cells between pale grid lines. A corner out of the
    picture counts as shown (nothing there hides it). The corner is completed as a
    parallelogram, off by up to two sides under perspective."""
    cfg = section("grid")
    h, w = image.shape[:2]
    reach = int(float(cfg["marker_shown_reach"]) * side)
    x0, y0 = max(0, int(centre[0]) - reach), max(0, int(centre[1]) - reach)
    x1, y1 = min(w, int(centre[0]) + reach), min(h, int(centre[1]) + reach)
    if not (0 <= centre[0] < w and 0 <= centre[1] < h) or x1 <= x0 or y1 <= y0:
        return True
    level = image[y0:y1, x0:x1].astype(np.float32).sum(axis=2) / max(float(white.sum()), 1.0)
    low, high = (float(f) * side for f in cfg["marker_shown_size"])
    dark = (level <= float(cfg["marker_shown_dark"])).astype(np.uint8)
    bright = level >= float(cfg["marker_shown_bright"])
    n, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    pad = max(2, round(side / 6))
    for k in range(1, n):
        x, y, across, down = (int(v) for v in stats[k, :4])
        if not (low <= across <= high and low <= down <= high):
            continue
        box = (slice(max(0, y - pad), y + down + pad), slice(max(0, x - pad), x + across + pad))
        square = labels[box] == k
        ring = cv2.dilate(square.astype(np.uint8), np.ones((2 * pad + 1, 2 * pad + 1),
                                                           np.uint8)) > 0
        ring &= ~square
        if ring.any() and float(bright[box][ring].mean()) >= float(cfg["marker_shown_ring"]):
            return True
    return False


#: per thread, where the play-area markers were found in the last picture (its size, and each
#: marker's id and corners in the order the whole picture's search gave them)
_last_seen = threading.local()


def _area_markers(image: np.ndarray, three_again: bool = True) -> dict[int, np.ndarray]:
    """The play-area markers (id -> corners). The camera and the markers stuck down stay put
    between frames, so they are looked for first near where this thread's last picture of
    the same size showed all four (:func:`markers.detect_near`: the same corners, for a
    twentieth of a whole picture's search); only when that does not find all four is the
    whole picture searched. (Not seen so: a second marker of the same id put down elsewhere
    once the area was found, which the whole picture's search would drop as a duplicate.)
    ``three_again``: with three found, look again for the fourth (:func:`_area_markers_closer`,
    ``area_retry_three``); calibration asks it only with ``area_retry_three_learn``."""
    size = image.shape[:2]
    last = getattr(_last_seen, "markers", None)
    if last is not None and last[0] == size:
        found = markers.detect_near(image, last[1], markers.PLAY_AREA_IDS)
        if len(found) == 4:
            _last_seen.markers = (size, list(found.items()))
            return found
    rejected: list[np.ndarray] = []
    found = markers.detect(image, markers.PLAY_AREA_IDS, lambda f: len(f) == 4,
                           rejected=rejected)
    # (three found: a fourth corner completed under a steep camera may lie a cell off; see
    # _area_markers_closer)
    if len(found) < 3 or (len(found) == 3 and three_again
                          and bool(section("grid")["area_retry_three"])):
        found = _area_markers_closer(image, found, rejected)
    _last_seen.markers = (size, list(found.items())) if len(found) == 4 else None
    return found


def _area_markers_closer(image: np.ndarray, found: dict[int, np.ndarray],
                         rejected: list[np.ndarray]) -> dict[int, np.ndarray]:
    """Where fewer than three play-area markers were found (no area: the picture would be
    asked whole), the picture searched again with each marker's bits read from
    ``area_retry_pixels_per_cell`` pixels a cell; the markers found either way (the first
    search's where both found one) when that gives all four, else ``found`` as it was.
    Markers 24-35 pixels a side, slightly soft, were found as candidates but their bits
    misread at 4 pixels a cell (other art 10511 g019, 10913 g010: two of four found, clean
    pictures). No bit is corrected either way, so no other id is read for one. Only all four
    count: a second look that still needs a corner guessed is a picture with a marker hidden
    (a hand) as well as misread ones, and there the reader went on to read a card under the
    hand's fingers wrong (own art h9812 g026, a 0 read as a 1 at confidence 0.12).

    With ``area_retry_three`` the second look is taken where three were found too: the fourth
    corner, completed as a parallelogram, is off by up to two sides under a steep camera, the
    area then a cell off its cards (other art 9201 g009, g011, g018: 23-26 pixel markers at
    1920x1080, the fourth read at 8 pixels a cell; the whole grid asked astray before).

    Those still missing then are looked for in the squares the first search could not decode
    (:func:`_area_squares`, ``area_squares``), and a last one missing where the other three
    put it (:func:`_area_fourth`, ``area_fourth``), the same four needed."""
    cfg = section("grid")
    ppc = int(cfg["area_retry_pixels_per_cell"])
    again = markers.detect(image, markers.PLAY_AREA_IDS, lambda f: len(f) == 4,
                           pixels_per_cell=ppc)
    both = {**again, **found}
    if len(both) < 4 and both and rejected and bool(cfg["area_squares"]):
        both.update(_area_squares(image, both, rejected))
    if len(both) == 3 and bool(cfg["area_fourth"]):
        both.update(_area_fourth(image, both))
    return both if len(both) == 4 else found


def _area_squares(image: np.ndarray, found: dict[int, np.ndarray],
                  rejected: list[np.ndarray]) -> dict[int, np.ndarray]:
    """The play-area markers still missing, looked for in the square outlines the whole
    picture's search saw but could not decode (``rejected``) that are about the size of the
    markers found (``area_squares_side``, times their median side), each enlarged in a box of
    its own (:func:`markers.look_at_squares`). Markers 26-30 pixels a side, sharp and in
    view, were seen as squares by every pass and read by none, at 4 or 8 pixels a cell (third
    art e2403 g014, g2446 g007, e2409 g005, g2445 g008: two of four found, the whole grid
    asked); enlarged to ``markers.closer_side_px`` a side, their bits read."""
    cfg = section("grid")
    side = float(np.median(markers.sides(list(found.values()))))
    lo, hi = (float(x) * side for x in cfg["area_squares_side"])
    lengths = markers.sides(rejected)
    sized = [q for q, n in zip(rejected, lengths.tolist(), strict=True) if lo <= n <= hi]
    wanted = [m for m in markers.PLAY_AREA_IDS if m not in found]
    return markers.look_at_squares(image, sized, list(found.values()), wanted,
                                   float(cfg["area_squares_reach"]),
                                   int(cfg["area_squares_most"]),
                                   float(cfg["area_squares_spread"]))


def _area_fourth(image: np.ndarray, found: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    """The one play-area marker still missing where three are found, looked for enlarged
    (:func:`markers.detect_closer`) in a box reaching ``area_fourth_reach`` of the markers'
    median side around where the three put it (a parallelogram's fourth corner: under
    perspective a side or two off), its bits read as usual and then from the middle of each
    cell only (``area_fourth_margin``). Third art g2505 g013, g2514 g014, g2552 g009: the
    fourth marker, 26-30 pixels a side and in view, lay 20-34 pixels from where the three
    put it, its outline not seen as a square by the whole picture's search, and was read
    only from its cells' middles. A hand over it leaves it unread, and the picture then goes
    on as before with three."""
    cfg = section("grid")
    centres = {m - markers.PLAY_AREA_IDS[0]: q.mean(axis=0) for m, q in found.items()}
    (missing,) = set(range(4)) - set(centres)
    guess = _fourth_corner(centres, missing)
    side = float(np.median(markers.sides(list(found.values()))))
    reach = float(cfg["area_fourth_reach"]) * side
    box = (math.floor(guess[0] - reach), math.floor(guess[1] - reach),
           math.ceil(guess[0] + reach), math.ceil(guess[1] + reach))
    wanted = [markers.PLAY_AREA_IDS[missing]]
    return markers.detect_closer(image, box, wanted, side,
                                 (None, float(cfg["area_fourth_margin"])))


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


def rectify(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
            margin: int = 4, white: np.ndarray | None = None,
            place: np.ndarray | None = None) -> np.ndarray:
    """The 5x5 area warped to canonical cells, with ``margin`` pixels around (for shifts)."""
    w, h = _cell_size()
    H = _area_homography(corners, inset, margin, place)
    area = cv2.warpPerspective(image, H, (5 * w + 2 * margin, 5 * h + 2 * margin),
                               flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return area if white is None else balance(area, white)


def balance(area: np.ndarray, white: np.ndarray) -> np.ndarray:
    """White-balanced on the markers' paper: colours compare across pictures and lamps."""
    gain = 230.0 / np.maximum(np.asarray(white, np.float64), 8.0)
    # one lookup table per channel: cheaper than multiplying every pixel in floats
    lut = np.clip(np.arange(256)[:, None] * gain[None, :], 0, 255).astype(np.uint8)
    return np.asarray(cv2.LUT(area, lut.reshape(256, 1, 3)))


def grey_area(image: np.ndarray, corners: np.ndarray, inset: tuple[float, float],
              place: np.ndarray | None = None, mode: str = "grey") -> np.ndarray:
    """The area in grey at the canonical size, ``MARGIN`` pixels around (``mode``: as
    :func:`print_grey`)."""
    return print_grey(rectify(image, corners, inset, margin=MARGIN, place=place), mode)


def print_grey(bgr: np.ndarray, mode: str = "grey") -> np.ndarray:
    """The grey the value templates are learnt and matched in: ``"grey"`` the usual luminance;
    ``"min"`` the darkest of the three channels, where a white print on a pale coloured card
    (a yellow card: its blue is low, the print's is not) stands out as clearly as on a dark
    one (see ``GridLook.print_grey``)."""
    if mode == "min":
        return np.asarray(cv2.min(cv2.min(bgr[:, :, 0], bgr[:, :, 1]), bgr[:, :, 2]))
    return np.asarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY))
