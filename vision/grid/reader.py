"""Reading a picture: find the area, register it, warp once, test the empty cells, judge the
others and apply the group rules (:func:`read_grid`, :func:`read_grid_region`).
"""

from __future__ import annotations

import numpy as np

from companion.ports import GridObservation
from vision.grid.area import _area_homography, balance, find_area_seen, print_grey, rectify
from vision.grid.checks import patterned_bare
from vision.grid.empty import cell_edges, lit_otherwise, surely_empty
from vision.grid.features import _distances, area_features, shifted_features
from vision.grid.geometry import MARGIN, SEARCH, _cell_size, scaled_windows
from vision.grid.groups import _beside_hand, _beside_unread, _cut_off, _under_a_hidden_marker
from vision.grid.judge import _marks_on_edge, classify
from vision.grid.look import GridLook
from vision.grid.marks import every_value_marked
from vision.grid.outlines import card_outlines
from vision.grid.registration import _move, register_checked
from vision.grid.table import _stats, table_margin, table_patches
from vision.grid.templates import coarse_best
from vision.thresholds import section

Region = tuple[int, int, int, int]


def read_grid_region(image: np.ndarray, look: GridLook) -> tuple[GridObservation, Region]:
    corners, white, hidden = find_area_seen(image)
    values_t: tuple[tuple[int | None, ...], ...]
    conf_t: tuple[tuple[float, ...], ...]
    if not look.learnt:
        # without calibration nothing can be said about a cell; the app asks for every card
        empty = tuple(tuple(None for _ in range(5)) for _ in range(5))
        zero = tuple(tuple(0.0 for _ in range(5)) for _ in range(5))
        values_t, conf_t = empty, zero
    else:
        markers = _area_homography(corners, look.inset, 0)
        place, _, astray = register_checked(image, markers)
        if not astray and _move(markers, place) > _taken_up_to(look):
            # calibration's labels refuted every correction this far its cards' outlines made
            # (pale cards on a pale mat, seven-segment digits in dark boxes: the boxes sit on
            # the prints), or its labelled cards' boxes split one and bore out none this far
            # (boxes a sixth of a cell to either side of seven-segment cards: see
            # learning._cards_split); the templates were learnt at the markers' area, where
            # its cards lay (third art g2752 g015: moved 0.25 of a cell, 7 cells asked there)
            place = markers
        warped = _warp(image, corners, look.inset, white, place)
        # the correction the prints judge dropped, and its warp (see below)
        dropped: tuple[np.ndarray, Warped] | None = None
        if not astray and _move(markers, place) > float(section("grid")["prints_judge_move"]):
            # a far correction is weighed by the values' prints too (see _prints_prefer)
            at_markers = _warp(image, corners, look.inset, white, markers)
            if _prints_prefer(look, at_markers[0], warped[0]) \
                    or _marks_prefer(look, at_markers[0], warped[0]):
                dropped = (place, warped)
                place, warped = markers, at_markers
        if astray and bool(section("grid")["prints_hold_astray"]) \
                and _prints_hold(look, image, corners, white, markers, warped[0]):
            astray = False  # (the area read is the markers' already: see _prints_hold)
        values, confs = _read_placed(image, look, corners, white, hidden, place, warped, astray)
        if dropped is not None and bool(section("grid")["prints_judge_rereads"]) \
                and min(confs) <= 0.0:
            # the prints fit calibration's cards best where the markers put the area, and the
            # cards lie whole in their windows there; but the cells' middles, where an empty
            # cell is judged, may lie off the surface's own lattice, which the correction
            # found (own art 46001 g053: the area 0.2 of a cell wider than the mat, a grid
            # line through the outer columns' middles and a card's edge in one: that cell
            # asked, and every empty cell with it; the prints fitted 0.88 there, 0.78 at the
            # correction, which read the grid exactly). Where the markers' area leaves a cell
            # asked, the correction is read too, and taken when it reads every cell and names
            # each cell the markers' area read the same way (:func:`_reread_agrees`)
            again = _read_placed(image, look, corners, white, hidden, *dropped, astray)
            if _reread_agrees(again, (values, confs)):
                values, confs = again
        values_t = tuple(tuple(values[r * 5:(r + 1) * 5]) for r in range(5))
        conf_t = tuple(tuple(confs[r * 5:(r + 1) * 5]) for r in range(5))
    x0, y0 = np.maximum(corners.min(axis=0), 0)
    x1, y1 = corners.max(axis=0)
    return GridObservation(values_t, conf_t), (int(x0), int(y0), int(x1), int(y1))


#: one placement's warp (:func:`_warp`): the raw warp, it white-balanced, the area, its cells
Warped = tuple[np.ndarray, np.ndarray, np.ndarray, list[np.ndarray]]


def _read_placed(image: np.ndarray, look: GridLook, corners: np.ndarray, white: np.ndarray,
                 hidden: bool, place: np.ndarray, warped: Warped, astray: bool
                 ) -> tuple[list[int | None], list[float]]:
    """Each cell's value and confidence (0: asked), the area placed at ``place`` and warped
    as ``warped``: the empty cells tested, the others judged and the group rules applied.
    ``corners``, ``white`` and ``hidden``: the play area's markers, their paper's white and
    whether one was hidden (:func:`find_area_seen`); ``astray``: the cards said the area is not
    where the markers put it."""
    raw, big, area, cells = warped
    w, h = _cell_size()
    m = table_margin()
    feats = area_features(area)
    g = _print_area(raw, look)
    windows = scaled_windows(g, 1.0)
    unusual: list[np.ndarray] = []  # the patches left out as foreign
    table, foreign, patches, table_at = table_patches(image, corners, look.inset, white,
                                                      big, place, unusual)
    # of those, the ones showing the table's colour under other light (a shadow's edge
    # across the table) are shades of the table, not something foreign over it (on a
    # table: a printed mat's cells are held to the mat, not to the table around)
    lit = lit_otherwise(unusual, patches) if look.bare_mode != "mat" \
        else np.zeros(len(unusual), bool)
    lit_shades = _stats([p for p, k in zip(unusual, lit, strict=True) if k])[1]
    # the patches a lamp clips white in every channel are foreign by colour, but no hand
    # reaching in: a cell of the lamp's hot spot is not held against them (_hot_bare)
    clipped = _clipped_white(unusual)
    foreign_hot = foreign[~lit & ~clipped]
    if lit.any():
        foreign = foreign[~lit]
    sure: dict[int, float] = {}
    shaded: dict[int, float] = {}  # bare by a shade of the table around: see below
    hot: dict[int, float] = {}  # of those, the cells of a lamp's hot spot
    cell_stats = _stats(cells)

    def settled(card_like: list[bool]) -> set[int]:
        sure.update(surely_empty(cells, [i for i in range(25) if not card_like[i]],
                                 patches, look, table_at, cell_stats, shaded,
                                 lit_shades, hot))
        if look.bare_mode != "mat":
            # a table of two tones finer than a cell (a checked cloth) shows no one colour
            # over a bare cell's middle; its two tones in the table's share tell it instead
            rest = [i for i in range(25) if not card_like[i] and i not in sure]
            sure.update(patterned_bare(cells, rest, patches))
        sure.update(_bare_inward(area, cells, card_like, sure, patches, look, table_at,
                                 lit_shades))
        return set(sure)

    extra = SEARCH + int(section("grid")["cut_search_extra"])

    def farther(scale: float) -> list[np.ndarray]:
        # the grey area with as much more around as the windows reach farther
        e = extra - SEARCH
        wide = print_grey(raw[m - MARGIN - e:m + 5 * h + MARGIN + e,
                              m - MARGIN - e:m + 5 * w + MARGIN + e], look.print_grey)
        return scaled_windows(wide, scale, extra)

    def shifted(at: list[int]) -> list[np.ndarray]:
        return shifted_features(big, m, at)

    values, confs, card_like = classify(look, feats, table, windows, foreign, settled,
                                        cell_stats[1], lambda scale: scaled_windows(g, scale),
                                        farther, shifted)
    for i in range(25):
        if i in sure:
            values[i], confs[i] = None, sure[i]
        elif i in shaded and values[i] is None and confs[i] > 0:
            # a cell whose colour the table shows only in some patches around the area
            # (grain, a shadow's edge) is bare when the nearest calibration example says
            # empty too (classify's confidence for an empty cell; a card or an unread cell
            # has a value or none): two witnesses, neither enough alone
            confs[i] = min(shaded[i], confs[i])
        elif i in hot and values[i] is None and _hot_bare(look, feats[i], cells[i],
                                                           card_like[i], foreign_hot):
            confs[i] = hot[i]
        elif values[i] is None:
            confs[i] = 0.0  # not surely the bare surface, not surely a card: ask
    if bool(section("grid")["hand_asks_beside"]):
        for i in _beside_hand(values, confs, card_like, int(section("grid")["unread_reach"])):
            confs[i] = 0.0
    for i in _cut_off(values, confs):
        confs[i] = 0.0
    for i in _beside_unread(values, confs, int(section("grid")["unread_reach"])):
        confs[i] = 0.0
    if hidden and bool(section("grid")["hidden_marker_asks_empty"]):
        for i in _under_a_hidden_marker(values, confs):
            confs[i] = 0.0
    if astray and bool(section("grid")["astray_few_cards_hold"]) \
            and _few_cards_hold(image, place, values, confs):
        astray = False
    if astray:
        # the cards say the area is not where the markers put it, and no correction could
        # be trusted: a cell may hold half a card and half the surface, so every cell is
        # asked rather than read (a card half out of its cell read as an empty cell,
        # confidence 0.88, on a mat whose cards lay half a cell off its markers)
        confs = [0.0] * 25
    return values, confs


def _reread_agrees(again: tuple[list[int | None], list[float]],
                   first: tuple[list[int | None], list[float]]) -> bool:
    """Whether a reading at the correction the prints judge dropped (``again``) reads every
    cell, and reads each cell the markers' area read (``first``: confidence above 0) as the
    same value or as empty alike. Two placements of one picture that agree where both speak,
    the second leaving nothing asked."""
    values, confs = again
    if min(confs) <= 0.0:
        return False
    return all(values[i] == first[0][i] for i in range(25) if first[1][i] > 0.0)


def _taken_up_to(look: GridLook) -> float:
    """How far (in cells) a reading's registration correction may move the area on ``look``:
    ``calibration_labels_judge_move`` where calibration's labels refuted every far correction
    (``far_moves_refuted``), ``split_judge_move`` where its cards' boxes split one
    (``far_moves_split``), else any distance."""
    cfg = section("grid")
    limits = [float(cfg["calibration_labels_judge_move"])] if look.far_moves_refuted else []
    if look.far_moves_split:
        limits.append(float(cfg["split_judge_move"]))
    return min(limits, default=np.inf)


def _few_cards_hold(image: np.ndarray, place: np.ndarray, values: list[int | None],
                    confs: list[float]) -> bool:
    """Whether a picture the boxes said was astray holds one to three cards, each read and
    each with its outline's box within ``register_tolerance`` of its cell's middle where the
    markers put it (``place``).

    A table or mat with a lattice of its own (a checked cloth's squares, a mat printed with
    cell outlines) gives a box on every cell, and those agree on a lattice a little off the
    markers' area. With four cards or more the boxes showing print fit the cards' own lattice
    (``registration.register_checked``); with fewer nothing can, and the whole grid was asked
    although its cards lay in their cells' middles (third art g2584 g004: one card on a checked
    cloth). A card off its cell shows its box off the middle, and a card half in a cell is not
    read as one. (On a mat printed with cell outlines, g2568 g006 and g020, the box size the
    picture's boxes chose is the printed cells', and the cards' boxes lie 0.22 of a cell off:
    those stay asked.)"""
    cfg = section("grid")
    cards = [i for i in range(25) if values[i] is not None and confs[i] > 0]
    if not 1 <= len(cards) <= 3:
        return False
    w, h = _cell_size()
    centres, strength, _ = card_outlines(image, place)
    for i in cards:
        middle = ((i % 5 + 0.5) * w, (i // 5 + 0.5) * h)
        off = np.abs(centres[i] - middle) / (w, h)
        if strength[i] < float(cfg["register_min_edge"]) \
                or (off > float(cfg["register_tolerance"])).any():
            return False
    return True


def _clipped_white(patches: list[np.ndarray]) -> np.ndarray:
    """Per patch, whether its median is white in every channel, within ``table_hot_slack``
    of the clip (``table_hot_clip``), where ``hot_bare_white_foreign`` lets such patches be
    passed over as foreign: a lamp's white-out leaves a channel a few levels under the clip
    here and there (third art g2673 g003: 249, 255, 255 beside patches at 255)."""
    cfg = section("grid")
    if not patches or not bool(cfg["hot_bare_white_foreign"]):
        return np.zeros(len(patches), bool)
    white = float(cfg["table_hot_clip"]) - float(cfg["table_hot_slack"])
    return np.asarray((_stats(patches)[1] >= white).all(axis=1), bool)


def _hot_bare(look: GridLook, feats: np.ndarray, cell: np.ndarray, card_like: bool,
              foreign: np.ndarray | None) -> bool:
    """The second witness for a cell of a lamp's hot spot (``empty._hot_shades``) where the
    nearest calibration example gave none: the light that clips the table moves the cell's
    features away from every example calibration saw, empty or card, about equally (third art
    g2575 g005: 0.79-0.88 from the nearest empty cell, 0.85-0.96 from the nearest card, where
    an empty reading asks a lead of a fifth). The cell is bare where, besides, it is not
    nearer the cards than the empty examples (``card_like``), nor nearer something foreign
    over the table around the area than to any example (a hand reaching in), and the whole
    cell shows no edge a card would bring: its outline and print, wherever they lie
    (``hot_bare_edges``; the bare cells so refused at 76-133, every card at 151 or more).

    A white-out's cell (``empty._white_outs``: clipped in every channel) has this witness only,
    whatever the nearest calibration example said: over 393 sets the cells it took showed
    edges up to 105, and the 4 cards that reached it 159-185 (all in hard pictures, refused)."""
    cfg = section("grid")
    if not bool(cfg["hot_bare_witness"]) or card_like:
        return False
    if foreign is not None and len(foreign) and float(_distances(feats[None], foreign).min()) \
            < float(_distances(feats[None], look.features).min()):
        return False
    return cell_edges(cell) <= float(cfg["hot_bare_edges"])


def _bare_inward(area: np.ndarray, cells: list[np.ndarray], card_like: list[bool],
                 sure: dict[int, float], patches: list[np.ndarray], look: GridLook,
                 table_at: np.ndarray | None, lit: np.ndarray | None) -> dict[int, float]:
    """The cells on the area's border not taken as bare, judged again with their crop moved
    ``bare_border_inward`` of a cell towards the area's middle (``area``: the white-balanced
    area with 4 pixels around, :func:`_warp`), so that their middle leaves out the strip along
    the area's edge.

    A mat smaller than the area, or laid a little off it, ends inside the outer cells: the
    table past its edge, or a marker's corner, lies in the strip of the cell's middle nearest
    the area's edge, and the bare cell's colour and texture are no longer the mat's alone
    (third art g2476 g015: the table along the lower fifth of a corner cell; g2546 g002 and
    g011: the table and a marker's corner). Moved in, the middle still spans two thirds of the
    cell across the area and what a card in the cell prints there."""
    share = float(section("grid")["bare_border_inward"])
    if share <= 0:
        return {}
    w, h = _cell_size()
    dy, dx = round(share * h), round(share * w)
    rest = [i for i in range(25) if not card_like[i] and i not in sure
            and (i // 5 in (0, 4) or i % 5 in (0, 4))]
    if not rest:
        return {}
    moved = list(cells)
    for i in rest:
        r, c = divmod(i, 5)
        y = 4 + r * h + (dy if r == 0 else -dy if r == 4 else 0)
        x = 4 + c * w + (dx if c == 0 else -dx if c == 4 else 0)
        moved[i] = area[y:y + h, x:x + w]
    found = surely_empty(moved, [i for i in range(25) if not card_like[i]], patches, look,
                         table_at, None, None, lit)
    return {i: conf for i, conf in found.items() if i in rest}


def _print_area(raw: np.ndarray, look: GridLook) -> np.ndarray:
    """The grey the value templates are matched in: the area of the raw warp (:func:`_warp`)
    with ``MARGIN`` pixels around."""
    w, h = _cell_size()
    m = table_margin()
    return print_grey(raw[m - MARGIN:m + 5 * h + MARGIN, m - MARGIN:m + 5 * w + MARGIN],
                      look.print_grey)


def _prints_prefer(look: GridLook, raw_a: np.ndarray, raw_b: np.ndarray) -> bool:
    """Whether the values' prints fit the cards in the area warped as ``raw_a`` clearly better
    than in ``raw_b`` (two placements of one area, :func:`_warp`): over the cells where some
    value's mean print fits at least ``prints_judge_cell_fit`` in either (the cards: a bare
    cell fits no print that well), at least ``prints_judge_cells`` of them, the best value's
    fit (:func:`coarse_best`) is ``prints_judge_margin`` higher on average.

    Registration votes with the cards' outlines, and on pale cards with an inner frame and
    rows of pips the boxes can agree on a lattice a third of a cell off, each box across the
    lower half of one card and the upper of the next: a confirmed correction moving the area
    0.36-0.39 of a cell up cut every card's lower print off (other art 18016 g002, g003, g004,
    g011, g017: prints fitting 0.73-0.78 on average there and 0.90-0.93 at the markers' area,
    where every one of them reads exactly). A right correction lets the prints fit better
    (other art 18013: 0.02-0.06 better than at the markers' area, which read two of them
    wrong). The prints see where the cards lie without the outlines: a card cut by its
    cell's window fits no value's print as well as a whole one. (Asked only past
    ``prints_judge_move``: nearer, a print stays whole in its window at either area, and the
    fits weigh the cards' scale, calibration's, rather than where they lie; from a fifth of
    a cell, pale framed cards 0.26-0.28 of a cell off fitted 0.70-0.78 there against 0.86-0.89
    at the markers' area, other art 13543 g009, g018.)"""
    cfg = section("grid")
    fa = coarse_best(look, scaled_windows(_print_area(raw_a, look), 1.0))
    fb = coarse_best(look, scaled_windows(_print_area(raw_b, look), 1.0))
    cards = np.maximum(fa, fb) >= float(cfg["prints_judge_cell_fit"])
    if int(cards.sum()) < int(cfg["prints_judge_cells"]):
        return False
    return bool(float(fa[cards].mean() - fb[cards].mean()) >= float(cfg["prints_judge_margin"]))


def _marks_prefer(look: GridLook, raw_a: np.ndarray, raw_b: np.ndarray) -> bool:
    """Whether, on a look whose values' marks are learnt, the cards lie in their cells' windows
    in the area warped as ``raw_a`` and off them in ``raw_b`` (two placements of one area): of
    the cells some value's mean print fits at least ``prints_judge_cell_fit`` in either (the
    cards), ``raw_b`` puts at least ``marks_judge_edges`` with the cards' common print fitting
    best on its window's edge, and ``raw_a`` at most ``marks_judge_edge_share`` of as many.

    On seven-segment digits in dark boxes and on central numerals the outlines' boxes can sit
    on the prints and agree on a lattice a fifth to a quarter of a cell off the cards; every
    value's templates fit the dark box alike there and on the cards, so the prints cannot tell
    (:func:`_prints_prefer`), and the cards read by their marks were asked as lying past their
    windows (third art g2569 g002, g005, g010, g019: corrections of 0.21-0.26 of a cell, 6-13
    cards on the edge there, 0-1 at the markers' area, where every one of them reads exactly).
    Over the development sets no correction that far put fewer cards on the edge than the
    markers' area did."""
    cfg = section("grid")
    if not bool(cfg["marks_judge_move"]) or not every_value_marked(look):
        return False
    wa = scaled_windows(_print_area(raw_a, look), 1.0)
    wb = scaled_windows(_print_area(raw_b, look), 1.0)
    fits = np.maximum(coarse_best(look, wa), coarse_best(look, wb))
    cards = np.flatnonzero(fits >= float(cfg["prints_judge_cell_fit"]))
    on_b = sum(_marks_on_edge(look, wb[i]) for i in cards)
    if on_b < int(cfg["marks_judge_edges"]):
        return False
    on_a = sum(_marks_on_edge(look, wa[i]) for i in cards)
    return on_a <= float(cfg["marks_judge_edge_share"]) * on_b


def _prints_hold(look: GridLook, image: np.ndarray, corners: np.ndarray, white: np.ndarray,
                 markers: np.ndarray, raw: np.ndarray) -> bool:
    """Whether the cards lie where the markers put the area by the values' prints, where their
    outlines said astray (``markers``: the markers' area, ``raw`` its warp): over the cells some
    value's mean print fits at least ``prints_judge_cell_fit`` here or with the area moved
    (at least ``prints_judge_cells`` of them), the best value's fit (:func:`coarse_best`) is
    ``prints_hold_fit`` on average here, and moving the area a quarter or half a cell along
    either axis (``prints_hold_moves``) lets them fit no better by ``prints_judge_margin``.
    (With ``prints_hold_cells_here``, the cells weighed are those a print fits that well here,
    not moved: see below.)

    Astray asks the whole picture because a card lying half out of its cell, the area half a
    cell off its cards, may read as an empty cell (other art 9201); its print is then cut, and
    half a cell over it is whole, which the moved areas see. On pale cards with an inner frame
    and rows of pips the outlines agree on lattices of their own and say astray where every
    print is whole at the markers' area and every cell reads exactly there (other art 13543
    g008, g011, g015, g017; 18016 g010, g016, g018; 14013 g004; 15012 g011, g015: prints
    0.82-0.93 on average, no move better by more than 0.01). The picture is then read as any
    other, cell by cell.

    It is the moves that tell cards off their cells, not how well the prints fit here: where
    a value's mean print is a blend (seven-segment digits, pips, cards laid either way up) it
    fits a card 0.55-0.75, and a cell that fits only moved (a neighbour's card seen from beside
    it) pulls the average down (third art t2 g005 0.79, g2476 g002 0.63, with no move better:
    asked whole at 0.8, read exactly here). ``prints_hold_fit`` is only a floor."""
    cfg = section("grid")
    w, h = _cell_size()
    fits = [coarse_best(look, scaled_windows(_print_area(raw, look), 1.0))]
    for k in cfg["prints_hold_moves"]:
        for dx, dy in ((k, 0.0), (-k, 0.0), (0.0, k), (0.0, -k)):
            moved = np.array([[1.0, 0, -dx * w], [0, 1.0, -dy * h], [0, 0, 1.0]]) @ markers
            at = _warp(image, corners, look.inset, white, moved)[0]
            fits.append(coarse_best(look, scaled_windows(_print_area(at, look), 1.0)))
    every = np.array(fits)
    # (a bare cell beside a card, moved half a cell towards it, holds that card's print whole
    # in its window: weighed, such cells made the half-cell moves look better where every card
    # lay in its cell, third art g2635. Cards truly off their cells still fit here, and better
    # moved: other art 9201)
    weighed = every[0] if bool(cfg["prints_hold_cells_here"]) else every.max(axis=0)
    cards = weighed >= float(cfg["prints_judge_cell_fit"])
    if int(cards.sum()) < int(cfg["prints_judge_cells"]):
        return False
    here = float(every[0, cards].mean())
    if here < float(cfg["prints_hold_fit"]):
        return False
    margin = float(cfg["prints_judge_margin"])
    return all(float(f[cards].mean()) - here < margin for f in every[1:])


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
