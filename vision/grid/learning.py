"""Calibration: learn the area's inset, the nearest-example features, the templates, the
pairwise floors and offsets, card colours and the bare surface from the user's own labelled
grids (:func:`learn`), one picture's working memory at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import cv2
import numpy as np

from vision.errors import NoPlayAreaFound
from vision.grid.area import _area_homography, find_area, grey_area, rectify
from vision.grid.colours import learn_value_colours
from vision.grid.empty import learn_bare
from vision.grid.features import _distances, area_features
from vision.grid.geometry import _cell_size
from vision.grid.look import EMPTY, Grid, GridLook
from vision.grid.marks import learn_mark_floor, learn_marks
from vision.grid.pairs import learn_left_out, learn_print_offsets
from vision.grid.reader import _cells_and_table
from vision.grid.registration import _move, cards_centred, register
from vision.grid.templates import learn_templates
from vision.thresholds import section


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


def registered_first(confirmed: list[bool]) -> list[int]:
    """The order the calibration pictures are learnt from for the values' prints
    (:func:`learn_templates`, :func:`learn_pair_floor`): the pictures whose cards registered the
    area (``confirmed``: re-fit it or found it right as it was) first, each group in the
    pictures' own order.

    Each value's templates are cut in the frame of its first card, and the others aligned on
    it. In a picture the cards did not confirm, the area is the markers' alone, and markers
    stuck down off the area's corners put the cards up to a quarter of a cell off their cells:
    a first card from there carries its own edge and the surface beside it into every template
    of its value (other art 14011, blind gate 10: its first picture's cards lay 0.2 of a cell
    down and across, the 5s' templates were cut from its 5 and centred 5s fitted them 0.56-0.58,
    a 3's 0.66-0.71; 15 of 20 clean grids declined a 5 and the empty cells beside it). With
    ``template_reference_registered`` off, the pictures' own order."""
    if not bool(section("grid")["template_reference_registered"]):
        return list(range(len(confirmed)))
    return sorted(range(len(confirmed)), key=lambda i: not confirmed[i])


def _picture(picture: Picture) -> np.ndarray:
    return picture() if callable(picture) else picture


def _implied_inset(corners: np.ndarray, place: np.ndarray) -> tuple[float, float]:
    """The inset (as :func:`_area_homography` takes it: a share of the marker quad's sides)
    at which the area ``place`` (image -> area pixels) lies inside the quad of the marker
    centres ``corners``, each axis's two sides averaged (the inset is the same on both)."""
    w, h = _cell_size()
    quad = cv2.getPerspectiveTransform(
        np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32), corners.astype(np.float32))
    area = np.array([[0, 0], [5 * w, 0], [5 * w, 5 * h], [0, 5 * h]], np.float64)
    to_quad = np.linalg.inv(quad) @ np.linalg.inv(place)
    q = cv2.perspectiveTransform(area.reshape(-1, 1, 2), to_quad).reshape(4, 2)
    ax = (q[0, 0] + q[3, 0] + (1 - q[1, 0]) + (1 - q[2, 0])) / 4
    ay = (q[0, 1] + q[1, 1] + (1 - q[2, 1]) + (1 - q[3, 1])) / 4
    return float(ax), float(ay)


def _registered_inset(found: Sequence[tuple[Picture, np.ndarray]],
                      inset: tuple[float, float]) -> tuple[float, float]:
    """The area's inset refined by where the calibration pictures' cards lie: each picture
    is registered from ``inset`` (the one the features chose, in steps of ``inset_step``), and
    where at least ``inset_registered_min`` pictures' cards confirmed their area, the inset
    is the median of the insets those areas lie at (:func:`_implied_inset`), when they agree
    within ``inset_registered_spread`` of it on each axis, on an axis where that median lies
    more than ``inset_registered_off`` (half a step) from ``inset``. Else ``inset`` as it was:
    where the features' step is the one nearest to the cards, the reading stays as it was (a
    shift of a few thousandths of the quad moves the registration's first boxes, and with
    them which lattice the passes settle on, as often one way as the other).

    A step of 0.03 of the quad is a fifth of a cell at the area's edge where the markers lie
    far out: other art 15012 (gate 11) learnt 0.13 by 0.10 where its four calibration
    pictures' cards said 0.097-0.115 by 0.075-0.083 (the generator's 0.105 by 0.08), so the
    markers' area was 5-9 % smaller than the cards' lattice. In its test pictures the edge
    cards' boxes lay 0.2 of a cell out, the markers' area did not hold and the passes, on the
    cards' inner frames, did not settle: 5 of 20 clean grids declined (3 whole, as astray),
    every one read exactly at the markers' area."""
    cfg = section("grid")
    if not bool(cfg["inset_registered"]):
        return inset
    said = []
    for picture, corners in found:
        place, held = register(_picture(picture), _area_homography(corners, inset, 0))
        if held:
            said.append(_implied_inset(corners, place))
    if len(said) < int(cfg["inset_registered_min"]):
        return inset
    at = np.median(np.array(said), axis=0)
    if np.abs(np.array(said) - at).max() > float(cfg["inset_registered_spread"]):
        return inset
    # an axis the features placed as near as their step allows keeps their inset
    off = float(cfg["inset_registered_off"])
    ax, ay = (float(a) if abs(float(a) - b) > off else b for a, b in zip(at, inset, strict=True))
    return ax, ay


def _cards_split(image: np.ndarray, markers: np.ndarray, place: np.ndarray, grid: Grid) -> bool:
    """Whether the correction ``place`` of a calibration picture's markers' area ``markers``
    brings fewer than ``calibration_cards_centred`` of its labelled cards' boxes to their cells'
    middles (:func:`cards_centred`): the labels say which boxes are cards, and the cards lie
    on one lattice. The boxes that agreed on the correction were a minority of the cards, the
    others on lattices of their own about the cards' middles (third art g2748, seven-segment
    digits in dark panels: four grid pictures moved 0.21-0.22 of a cell, the same way, onto
    22-41 % of their cards; templates and marks learnt there, and 18 of 20 clean test grids were
    declined, every one read exactly with the pictures at the markers' area). The labels
    judge (``calibration_labels_judge_move``) cannot see it where every picture moved alike."""
    floor = float(section("grid")["calibration_cards_centred"])
    # (the markers' area itself, passed back as another matrix, moves no cell: nothing to judge)
    if floor <= 0 or _move(markers, place) < 1e-3:
        return False
    cards = np.array([v is not None for row in grid for v in row])
    share = cards_centred(image, markers, place, cards)
    return share is not None and share < floor


def _placements(found: Sequence[tuple[Picture, np.ndarray, np.ndarray, Grid]],
                inset: tuple[float, float]) -> tuple[list[tuple[np.ndarray, bool]], bool, bool]:
    """Each calibration picture's area as its cards lie (:func:`register`; the inset stays the
    fallback's, for readings whose cards are too few to register the area) and whether its
    cards confirmed it; whether the labels refuted a far correction and bore out none
    (``GridLook.far_moves_refuted``); and whether the labelled cards' boxes split a correction
    (:func:`_cards_split`, which leaves the picture at the markers' area) and bore out none
    moving a cell more than ``split_judge_move`` (``GridLook.far_moves_split``).

    A correction moving a cell more than ``calibration_labels_judge_move`` of a cell is kept only
    where the labels agree: the picture's cells, labelled, are told apart by the other pictures'
    cells (each at its own area) at least as well there as at the markers' area. On pale cards
    on a pale mat the outline boxes sit on the numerals, and one of blind third art g2505's four
    grid pictures was moved 0.45 of a cell, the cards confirming it; its cards, registered, came
    first and cut every value's templates across two cards, and test pictures moved alike were
    read to fit them (six cards read as 0 in one grid)."""
    cfg = section("grid")
    judge = float(cfg["calibration_labels_judge_move"])
    placed: list[tuple[np.ndarray, bool]] = []
    feats: list[np.ndarray] = []  # each picture's cells at its area, unaugmented
    at_markers: dict[int, np.ndarray] = {}  # ... and at the markers' area, where moved far
    far = float(cfg["split_judge_move"])
    split_any, kept_far = False, False  # any correction split; any past ``far`` kept
    for k, (picture, corners, white, g) in enumerate(found):
        image = _picture(picture)
        markers = _area_homography(corners, inset, 0)
        p, held = register(image, markers)
        if _cards_split(image, markers, p, g):
            split_any = True
            p, held = markers, False
        kept_far = kept_far or _move(markers, p) > far
        placed.append((p, held))
        feats.append(_examples([rectify(image, corners, inset, white=white, place=p)], [g],
                               augment=False)[0])
        if judge >= 0 and _move(markers, p) > judge:
            at_markers[k] = _examples([rectify(image, corners, inset, white=white)], [g],
                                      augment=False)[0]
        del image
    split = split_any and not kept_far
    if not at_markers or len(found) < 2:
        return placed, False, split
    labels = [np.array([EMPTY if v is None else int(v) for row in g for v in row])
              for *_, g in found]

    def told_apart(k: int, mine: np.ndarray) -> float:
        # how much nearer each labelled cell lies to the other pictures' cells of its own
        # class than to their cells of any other class (as the inset is chosen)
        others = [j for j in range(len(found)) if j != k]
        ref, ref_classes = np.concatenate([feats[j] for j in others]), \
            np.concatenate([labels[j] for j in others])
        d = _distances(mine, ref)
        same = np.where(labels[k][:, None] == ref_classes[None, :], d, np.inf).min(axis=1)
        other = np.where(labels[k][:, None] != ref_classes[None, :], d, np.inf).min(axis=1)
        ok = np.isfinite(same) & np.isfinite(other)
        return float(np.mean(other[ok] - same[ok])) if ok.any() else 0.0

    refuted = [k for k, plain in at_markers.items()
               if told_apart(k, plain) >= told_apart(k, feats[k])]
    for k in refuted:
        placed[k] = (_area_homography(found[k][1], inset, 0), False)
    return placed, len(refuted) == len(at_markers), split


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
            corners, white = find_area(_picture(picture),
                                       bool(cfg["area_retry_three_learn"]))
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
    ax, ay = _registered_inset([(picture, corners) for picture, corners, *_ in found], (ax, ay))
    grids = [g for *_, g in found]
    placed, far_refuted, far_split = _placements(found, (ax, ay))
    areas, greys, mins, cells_by_image, empties, tables = [], [], [], [], [], []
    confirmed: list[bool] = []
    for (picture, corners, white, g), (p, held) in zip(found, placed, strict=True):
        image = _picture(picture)
        confirmed.append(held)
        areas.append(rectify(image, corners, (ax, ay), white=white, place=p))
        greys.append(grey_area(image, corners, (ax, ay), p))
        mins.append(grey_area(image, corners, (ax, ay), p, "min"))
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
    # the values' prints are cut in the frame of each value's first card: the cards of the
    # pictures their own outlines registered come first (registered_first)
    first = registered_first(confirmed)
    by_greys, by_grids = [greys[i] for i in first], [grids[i] for i in first]
    templates, values, masks = learn_templates(by_greys, by_grids)
    mode = "grey"
    strengths = _print_strengths(templates, values, masks)
    if _print_contrast_weak(strengths):
        by_mins = [mins[i] for i in first]
        in_min = learn_templates(by_mins, by_grids)
        if min(_print_strengths(*in_min), default=0.0) >= min(strengths) * float(
                cfg["print_grey_gain"]):
            mode, by_greys = "min", by_mins
            templates, values, masks = in_min
    del mins
    bare_mode, bare, texture = learn_bare(empties, tables)
    value_colours, value_spread = learn_value_colours(cells_by_image, grids)
    pair_floor, template_miss = learn_left_out(by_greys, by_grids)
    print_offsets = learn_print_offsets(templates, values, by_greys, by_grids)
    look = GridLook((ax, ay), feats, classes, spread * float(cfg["max_distance_factor"]),
                    templates, values, masks, bare_mode, bare, texture, value_colours,
                    value_spread, pair_floor, print_offsets, mode)
    look.template_miss = template_miss
    look.far_moves_refuted = far_refuted
    look.far_moves_split = far_split
    marks = learn_marks(by_greys, by_grids)
    if marks is not None:
        look.mark_means, look.mark_values = marks.means, marks.values
        look.mark_boxes, look.mark_mask = marks.boxes, marks.mask
        look.mark_singles, look.mark_single_values = marks.singles, marks.single_values
        look.mark_floor = learn_mark_floor(by_greys, by_grids)
    return look


def _print_strengths(templates: np.ndarray, values: np.ndarray, masks: np.ndarray
                     ) -> list[float]:
    """Per value seen, how strongly its mean print shows: the spread of the mean template's
    grey where the values' prints differ (``template_masks``)."""
    out = []
    for v in sorted(set(values.tolist())):
        k = int(np.flatnonzero(values == v)[0])  # the value's mean, the way up it was learnt
        out.append(float(templates[k][masks[k] > 0].astype(np.float32).std()))
    return out


def _print_contrast_weak(strengths: list[float]) -> bool:
    """Whether some value's print shows far more weakly than the others' do in grey: a white
    numeral on a pale yellow card, whose grey is nearly the print's (own art 14001: the 3's
    print 0.66 of the values' median; its cards' prints fitted their templates 0.67-0.80, the
    5's often better, and every grid with a 3 near the empty cells was declined); ``strengths``
    as :func:`_print_strengths` gives them."""
    if len(strengths) < 3:
        return False
    return min(strengths) < float(section("grid")["print_grey_weak"]) * float(
        np.median(strengths))
