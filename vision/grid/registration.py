"""Registration: the markers are stuck down by hand and cards laid on a lattice of their own, so
the homography the markers give is corrected until the cards found lie in the middle of their
cells (a lattice fitted by consensus: a shift, a stretch, an affine map, or a full homography),
and it says when the cards led it astray (:func:`register_checked`).
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid.geometry import _cell_size
from vision.grid.outlines import (
    OUTLINE_SCALE,
    _card_printed,
    _max_around,
    _outline_windows,
    card_outlines,
)
from vision.thresholds import section


def _middles() -> np.ndarray:
    """The 25 cells' middles in area pixels, row by row."""
    w, h = _cell_size()
    return np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)


def _voting(strength: np.ndarray) -> np.ndarray:
    """Which cells' outline boxes (their edge ``strength``) are strong enough to vote on where
    the area lies: ``register_edge_share`` of the strongest, and ``register_min_edge``."""
    cfg = section("grid")
    strong: np.ndarray = strength >= float(cfg["register_edge_share"]) * strength.max()
    return strong & (strength >= float(cfg["register_min_edge"]))


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
    alone confirm an area within ``register_max_move`` of the markers', that is taken (unless,
    as for the first passes' correction, the markers' area holds where it does not:
    :func:`_moved_far_but_held`, ``register_hold_printed``). Too few printed cards to tell,
    or printed cards astray too, leave the picture astray."""
    cfg = section("grid")
    out, confirmed, astray = _register_checked(image, place, printed=False)
    if astray:
        again, confirmed_again, _ = _register_checked(image, place, printed=True)
        if confirmed_again:
            # (weighed against the markers' area as the first passes' correction is)
            if bool(cfg["register_hold_printed"]) and _moved_far_but_held(image, place, again):
                return place, True, False
            return again, True, False
        if _markers_hold(image, place, beside=bool(cfg["register_hold_beside_astray"])):
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
    that far off their cells do not hold the markers' area (other art 9201).

    A correction moving a cell less far, but more than ``register_hold_check_move``, gives
    way too when the markers' area holds and the corrected
    area does not: the same test then says the cards lie where the markers put them, not
    where the correction does. Boxes narrower than the cards (0.72 by 0.78 of a cell against
    cards 0.88 by 0.86: numeral cards with an inner frame, in a blurred, noisy picture) split
    between two lattices a quarter of a cell apart, and the passes settled on the wrong one,
    0.27 of a cell off (other art 11515 g004: every card then lay too far from calibration's
    to be read, the whole grid asked). Cards truly off their cells hold the corrected area."""
    cfg = section("grid")
    move = _move(place, out)
    if move > float(cfg["register_hold_move"]):
        return _markers_hold(image, place, beside=bool(cfg["register_hold_beside"]))
    if move <= float(cfg["register_hold_check_move"]):
        return False
    # (the corrected area first: where it holds, as a right correction's does, one test is
    # enough)
    return not _markers_hold(image, out) and _markers_hold(
        image, place, beside=bool(cfg["register_hold_beside_near"]))


def _markers_hold(image: np.ndarray, place: np.ndarray, beside: bool = False) -> bool:
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
    cards up to half a cell off: at most 0.45 of the best at the middle on its worst card).

    ``beside`` (asked only of a correction moving the area farther than
    ``register_hold_move``): a box weak at its middle whose best lies toward a neighbouring
    cell (at least ``register_hold_beside_off`` of a cell off, along the axis it lies farther
    along) whose own box is strong and scores at its middle ``register_hold_beside_share`` of
    its best is that neighbour's card seen from beside it, not a card off its cell (two cards
    cannot lie in one place), and is not counted against the markers' area. (Cards all a
    little off at the markers' area hold only loosely: other art 9205 g016, neighbours at
    0.71-0.88, boxes 0.2-0.33 of a cell off.)

    Other art 13749 g007: six cards in an upright T on a printed mat, all six holding at
    the markers' area (0.98-1.0), two empty cells below the bottom row snapped to those cards'
    edges 0.4 of a cell up (0.21, 0.22); the markers' area failed by one box, the passes' area
    0.41 of a cell off held (its worst card 0.59), and three 5s were read as 3 there."""
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
    failed = strong & (middle < share * best)
    if beside and failed.any():
        held = strong & (middle >= float(cfg["register_hold_beside_share"]) * best)
        off = float(cfg["register_hold_beside_off"]) * OUTLINE_SCALE
        for i in np.flatnonzero(failed).tolist():
            dy, dx = np.unravel_index(int(win[i].argmax()), win[i].shape)
            dy, dx = int(dy) - ry, int(dx) - rx
            r, c = divmod(i, 5)
            if abs(dy) > ty and abs(dy) * tx >= abs(dx) * ty and abs(dy) >= off * h:
                r += int(np.sign(dy))
            elif abs(dx) > tx and abs(dx) * ty > abs(dy) * tx and abs(dx) >= off * w:
                c += int(np.sign(dx))
            else:
                continue
            if 0 <= r < 5 and 0 <= c < 5 and held[r * 5 + c]:
                failed[i] = False
    return int(failed.sum()) <= spare


def cards_centred(image: np.ndarray, place: np.ndarray, out: np.ndarray, cards: np.ndarray
                  ) -> float | None:
    """The share of the labelled cards' boxes (``cards``: per cell, whether it holds a card),
    as the area ``place`` finds them and strong enough to vote there (as :func:`_register_once`
    counts them), that the correction to the area ``out`` brings within ``register_tolerance``
    of a cell of their cells' middles; None when fewer than four vote (too few to tell).

    A right correction brings the cards' boxes to their middles together: over the development
    sets' calibration pictures the corrections kept brought 0.62-1.0 of them there (those of
    cards centred where the markers put them 0.22-0.45). On cards whose
    faint outline is outdone by a strong print inside (seven-segment digits in dark panels on
    pastel cards, on a grey table) the boxes lie a sixth of a cell to either side of each card on
    each axis, four lattices about the cards' middles, and the consensus settles on one of them
    with a fifth to two fifths of the cards: the correction moves the area a fifth of a cell off
    cards that lay centred where the markers put them (third art g2748: 0.22-0.41)."""
    w, _ = _cell_size()
    centres, strength, _ = card_outlines(image, place)
    strong = _voting(strength) & np.asarray(cards, bool)
    if strong.sum() < 4:
        return None
    nominal = _middles()
    there = cv2.perspectiveTransform(centres[strong].reshape(-1, 1, 2),
                                     out @ np.linalg.inv(place)).reshape(-1, 2)
    off = np.linalg.norm(there - nominal[strong], axis=1)
    return float(np.mean(off <= float(section("grid")["register_tolerance"]) * w))


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
    pts = _middles()
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
    nominal = _middles()
    strong = _voting(strength)
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
