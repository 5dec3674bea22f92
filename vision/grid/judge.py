"""Judging each cell: the nearest calibration example, the templates' scores, the pairwise score
and colour together give a value with a confidence or a decline (:func:`classify`), and the
close-call rules that decide when a pairwise score may settle two values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from vision.grid.colours import colours_confirm
from vision.grid.features import _distances, _feature_norms
from vision.grid.look import EMPTY, PRINT_ONLY, GridLook
from vision.grid.marks import MarksReading, marks_inside, marks_read, read_marks, sparser
from vision.grid.middle import middle_doubt, value_middles
from vision.grid.pairs import _lies_turned, _value_mean, pair_score, picture_memo
from vision.grid.table import table_spread
from vision.grid.templates import (
    _placed_memo,
    coarse_fit,
    every_template,
    fit_at,
    match_windows,
    per_look,
    print_ink,
    print_strengths,
)
from vision.thresholds import section


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
    # (the close calls and their doubts ask the same pairwise questions of one window more
    # than once: each is answered once while this picture is read)
    with picture_memo():
        return _classify(look, feats, table, windows, foreign, settled, colours, stretched,
                         farther, shifted)


def _classify(look: GridLook, feats: np.ndarray, table: np.ndarray | None = None,
              windows: list[np.ndarray] | None = None, foreign: np.ndarray | None = None,
              settled: Callable[[list[bool]], set[int]] | None = None,
              colours: np.ndarray | None = None,
              stretched: Callable[[float], list[np.ndarray]] | None = None,
              farther: Callable[[float], list[np.ndarray]] | None = None,
              shifted: Callable[[list[int]], list[np.ndarray]] | None = None,
              ) -> tuple[list[int | None], list[float], list[bool]]:
    """:func:`classify`, while the picture's pairwise answers are kept."""
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
    to_cards = d[:, card]
    d_card = to_cards.min(axis=1) if card.any() else np.full(len(d), np.inf)
    d_empty = d[:, ~card].min(axis=1) if (~card).any() else np.full(len(d), np.inf)
    # per cell, once for all cells (the same minima and first nearest, row by row): the
    # nearest empty calibration cell, the nearest table patch and the nearest card's value
    cal_empty = ~card[:n_cal]
    d_cal_empties = (d[:, :n_cal][:, cal_empty].min(axis=1) if cal_empty.any()
                     else np.full(len(d), np.inf))
    d_tables = d[:, n_cal:].min(axis=1) if d.shape[1] > n_cal else np.full(len(d), np.inf)
    knn_values = (classes[np.flatnonzero(card)[to_cards.argmin(axis=1)]] if card.any()
                  else np.full(len(d), EMPTY))
    card_like = [bool(x) for x in d_card < d_empty * float(cfg["card_guard"])]
    skip = settled(card_like) if settled is not None else set()
    values: list[int | None] = [None] * len(d)
    confidences = [0.0] * len(d)
    table_limit = table_spread(table) * float(cfg["table_factor"]) if table is not None else 0.0
    to_match: list[tuple[int, int, float]] = []
    astride: list[int] = []  # nearer to a card than to any empty cell, but too far from both
    for i in range(len(d)):
        if i in skip:
            continue
        dc, de = float(d_card[i]), float(d_empty[i])
        # the table outside the area speaks for an empty cell only when the cell is as close
        # to it as its patches are to each other (an arm the colour of the table is not)
        d_cal_empty, d_table = float(d_cal_empties[i]), float(d_tables[i])
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
        knn_value = int(knn_values[i])
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
        # a small gap is enough only when the nearest calibration card agrees, and the card's
        # colour names no other value (own art 41003 g053 (4, 0): a 3 read as 5 by 0.057, the
        # nearest card a 5, the card's colour a 3's)
        agreed = best == knn_value and gap >= cfg["min_gap_agreed"] and not (
            bool(cfg["agreed_colour_against"]) and coloured[i] not in (None, best))
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
            # where the card does not say which way up a value's print lies, the two prints
            # are laid every way they fit as one, and the score nearest to nothing stands (own
            # 16002 g041 (4, 3): a 1 over 3 by 0.09, the 3's way up unclear, no score at all)
            if not np.isfinite(s) and bool(cfg["pair_unclear_ways"]):
                s = _close_pair_any_way(look, window, best, second, scores)
            paired = bool(s >= _pair_needed(look, best, second)) and (
                not third or (bool(cfg["pair_answers_third"])
                              and pair_beats(look, window, best, knn_value))
                or _third_left_behind(look, window, scores, best, knn_value))
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
            # ... and on pip cards, when the nearest calibration card names the second value
            # and the card has ink at its print's middle where the best value's templates have
            # none (:func:`middle_doubt`) and the second's all have some, the prints laid on the
            # card need only side with the second as clearly as an agreed close call asks: three
            # witnesses against a slim lead of the templates (own art 49002 g020: five tilted 5s
            # behind a 4 by 0.02-0.03, the nearest card a 5, the prints saying 5 by 0.15-0.22
            # against the 0.25 reading the second alone asks, the 4 ruled out by its middle)
            if not paired and bool(cfg["middle_reads_second"]) and knn_value == second \
                    and np.isfinite(s) and scores[second] >= cfg["min_correlation_alone"] \
                    and value_middles(look)[second] == 1 and middle_doubt(look, window, best) \
                    and _agreed_close_call(look, -s, second, best, second, coloured[i]):
                best, paired, outvoted = second, True, False

        # ... and where neither settles it, whether the print has a hole may, when the
        # nearest calibration card and the card's colour side with what the hole says (own
        # art 10608: tilted 0s and 5s on a table the 5s' colour fit alike, 0.78-0.86)
        if not (alone or agreed or paired) and window is not None \
                and coloured[i] in (None, knn_value) \
                and holes_read(look, window, scores, best, second, knn_value):
            best, paired, outvoted = knn_value, True, False
        # the pairwise step weighs only two values: where the templates leave a third within
        # ``pair_third_gap`` of the best, the card fits three or more values' prints alike
        # and no pairwise answer between two of them settles it (third art t1, corner numerals
        # 13 px tall: every value's templates within 0.04-0.11 of each other, 5s read as 3 and
        # others at 0.001-0.07, the third 0.010-0.045 behind; t8, seven-segment digits: a 3
        # as 2 and a 0 as 1, the third 0.02 behind; no family cell the pairwise step reads
        # right has a third nearer than 0.056 but one, own 13003 g005 (1, 3), 0.024)
        if paired and not (alone or agreed):
            settled_pairs[i] = (best, second)
        if paired and not (alone or agreed) and _third_alike(scores, order):
            paired = False
        # ... and where every value's templates fit within ``pair_all_alike`` of the best, the
        # print rules no value out at all: neither the pairwise step nor the nearest card's
        # word settles a close call among six (third art b2102, corner numerals only: 3s and
        # 5s read each way at 0.05-0.11, the third 0.051-0.065 behind, just past
        # ``pair_third_gap``, but all six within 0.083-0.114; the family's readings so
        # settled have them 0.133 and more apart)
        if (paired or agreed) and not alone and _all_alike(scores):
            paired = agreed = False
        # ... and on a look whose calibration cards' own value's templates fell behind the best
        # two (``look.template_miss``), a close call between the best two is declined while a
        # third value fits within that of the best: the card may be that third, which neither
        # the pairwise step nor the nearest card weighs (blind third art g2448, seven-segment
        # digits on cards lying a fifth of a cell off: a 5 and a 4 read as 3 over 1 at
        # 0.02-0.04, their own values 0.15 and 0.21 behind; its calibration cards fell up to
        # 0.24 behind, those of the 16 family sets measured never but one card of oa13543)
        if (paired or agreed) and not alone and _missed_third(look, scores, order) \
                and not (window is not None and _thirds_answered(look, window, scores, best)):
            paired = agreed = False
        # ... and on such a look, a close call the pairwise step read while the nearest
        # calibration card names the runner-up is declined: the templates and the prints laid
        # on the card are the look's least trusted witnesses, the nearest card the other (blind
        # third art g2507 g016, seven-segment digits, template_miss 0.031: three 5s read as 3
        # by 0.05-0.09, the pair gap 0.61-0.68 or the prints 0.37 saying 3, the nearest card
        # a 5's; the family's such readings, all right, were on looks that missed none)
        # ... and on a look whose marks are read inside the middle (seven-segment digits), such
        # a close call is declined where the card's marks name the runner-up too: the nearest
        # card and the marks against the pairwise step (blind third art g2507 g016: two 5s read
        # as 3, the templates 0.06-0.07 ahead, the pair gap 0.51-0.62 saying 3, the prints laid
        # on the card 0.09-0.12, the nearest card a 5's and the marks 5 by 0.76-0.83. Declined
        # by ``missed_disputed`` until calibration's cards were registered better and its
        # look no longer missed any, 7e28dba)
        if paired and not (alone or agreed) and knn_value == int(order[1]) \
                and best == int(order[0]) and (
                    _missed_disputed(look)
                    or (window is not None and _marks_dispute(look, window, knn_value))):
            paired = False
        # another value fitting best on the window's edge may lie farther out than the window
        # reaches (a card far off its cell, its print cut): its score says too little, and a
        # middling fit of the best value is not trusted over it (a 5 cut at the bottom of
        # its window fits a serif 3 better than a 5)
        cut = scores[best] < cfg["edge_min_correlation"] \
            and bool(np.delete(edge, best).any())
        # ... and more when the templates alone name the best value, neither the nearest
        # calibration card nor the card's colour saying it: another value fitting best on the
        # edge is then the likelier card (own art 45002 g011: a green 1 lying a third of a cell
        # off, read as 2 at 0.81 alone, the 1 on the edge at 0.66, the nearest card a 0)
        cut = cut or (knn_value != best and coloured[i] != best
                      and scores[best] < cfg["edge_unsupported_min_correlation"]
                      and bool(np.delete(edge, best).any()))
        # ... and the best value's own print fitting best on the edge may be the part of a
        # longer print that shows (a 5 cut at its lower row of pips shows a 3's numeral over
        # one row): under ``own_edge_min_correlation`` it too is looked for farther out (other
        # art 18016 g002, g004, g011: five 5s read as 3 at 0.08-0.14, the 3 fitting 0.81-0.84
        # on the window's bottom edge, the 5 never compared at full size)
        cut = cut or (bool(edge[best]) and scores[best] < cfg["own_edge_min_correlation"])
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
        # ... and where the nearest calibration card names a third value, the templates'
        # runner-up is asked too: the two prints laid on the card must favour the best over it
        # (a quarter-turned 3 whose end lay under a finger, read as 2 at 0.20 with the nearest
        # card a 5's and the prints saying 3 by 0.19, other art h12162 g010)
        if passes and alone and not (agreed or paired) and window is not None \
                and bool(cfg["alone_asks_runner_up"]) \
                and _runner_up_doubted(look, window, best, second, knn_value):
            passes = False
        # read on the nearest card's word over a close call of the templates: the two prints
        # laid on the card must not clearly say the second value instead (a dim 3 read as 5 at
        # 0.11, the prints saying 3 by 0.43, hard set g4/safety-923-hard g020)
        if passes and agreed and not (alone or paired) and window is not None \
                and bool(cfg["agreed_pair_veto"]) \
                and _agreed_contradicted(look, window, best, second, scores):
            passes = False
        # ... nor side, however slightly, with a third value the templates put close behind
        # (a blurred 3 lying off its cell, read as 2 at 0.09 on the nearest card's word: the 3's
        # templates 0.08 behind, the 2's and 3's prints laid on the card leaning to the 3,
        # own art h19021 g053); a near tie that no witness but the nearest card settles
        if passes and agreed and not (alone or paired) and window is not None \
                and _third_leans_away(look, window, best, second, scores):
            passes = False
        return best, gap, bool(passes), bool(cut)

    # (cell, value, confidence, the window it was read in) passing each test
    readable: list[tuple[int, int, float, np.ndarray]] = []
    # read cells whose best value's templates fit under ``min_correlation_read``: declined once
    # the print strengths below are measured (as many prints measured as before: a reading
    # only ever taken away)
    weak: set[int] = set()
    # (cell, nearest card's value, occupancy, best, which values fitted best on the edge)
    # (and whether its tests passed there: see below)
    cut_off: list[tuple[int, int, float, int, np.ndarray, bool]] = []
    wider: list[np.ndarray] | None = None  # the windows reaching farther, once asked for
    # per cell: the best two values whose close call the pairwise step settled for the best,
    # before a third value's nearness (or the look's missed cards) declined it
    settled_pairs: dict[int, tuple[int, int]] = {}
    for k, ((i, knn_value, occupancy), scores) in enumerate(
            zip(to_match, all_scores if to_match else [], strict=True)):
        best, gap, passes, cut = judged(scores, float(pair_gaps[k]), edges[k], knn_value, i,
                                        None if windows is None else windows[i])
        doubted = passes and not cut and windows is not None \
            and _marks_doubt(look, windows[i], best, scores)
        read_in = None if windows is None else windows[i]
        if doubted and farther is not None and read_in is not None \
                and _marks_on_edge(look, read_in):
            # the card's marks name another value or cannot confirm it; where its print lies
            # past the window's edge, they are asked again farther out (third art e2409: a 1
            # lying off its cell, its close call confirmed there)
            if wider is None:
                wider = farther(scale)
            read_in = wider[i]
            doubted = _marks_doubt(look, read_in, best, scores)
        marked = None
        if doubted and read_in is not None and bool(cfg["marks_settle_doubted"]):
            # the card's marks name another value as surely as they read a card every rule
            # declined (:func:`_marked`): they are the witness that sees the corners, and the
            # templates that read the close call cannot (third art d2310 g003: a 3 read as 5 by
            # its templates at 0.02, its marks saying 3 by 0.73, every box fitting 0.96)
            marked = _marked(look, read_in, scores, coloured[i])
        if marked is not None and read_in is not None:
            readable.append((i, marked.value, round(min(1.0, occupancy, marked.lead * 2), 3),
                             read_in))
            if _marks_weak(cfg, scores, marked.value, i in astride):
                weak.add(i)
        elif doubted:
            pass  # declined: the card's marks name another value or cannot confirm it
        elif passes and not cut and read_in is not None:
            readable.append((i, best, round(min(1.0, occupancy, gap * 2), 3), read_in))
            if scores[best] < _least_fit(cfg, i in astride):
                weak.add(i)
        elif passes or (cut and bool(edges[k][best]) and bool(cfg["own_edge_unsettled"])):
            # (and a cell whose tests did not pass while its best value's own print fits best
            # on the window's edge: that print is cut there, its fit understated against a
            # runner-up whose print lies whole inside; the farther window judges it anew)
            cut_off.append((i, knn_value, occupancy, best, edges[k], passes))
        elif windows is not None:
            # declined by every rule above: the values' marks may still tell (corner numerals
            # only, seven-segment digits: cards whose middles fit every value's template alike)
            pair = settled_pairs.get(i)
            marked = _marked(look, windows[i], scores, coloured[i], pair)
            view = windows[i]
            if marked is None and farther is not None and _marks_on_edge(look, windows[i]):
                # ... looked for farther out where the card lies past the window's edge (the
                # area registered a little off the cards: third art t7, d2305, d2306, most
                # declined seven-segment cards)
                if wider is None:
                    wider = farther(scale)
                view = wider[i]
                marked = _marked(look, view, scores, coloured[i], pair)
            if marked is not None:
                readable.append((i, marked.value, round(min(1.0, occupancy, marked.lead * 2), 3),
                                 view))
                if _marks_weak(cfg, scores, marked.value, i in astride):
                    weak.add(i)
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
        views = [wide[i] for i, *_ in cut_off]
        wide_gaps = np.full(len(cut_off), np.nan)
        wide_edges = np.zeros((len(cut_off), 6), bool)
        wide_scores = match_windows(look, views, wide_gaps, wide_edges)
        for k, (i, knn_value, occupancy, before, first_edge, first_passed) in enumerate(cut_off):
            best, gap, passes, cut = judged(wide_scores[k], float(wide_gaps[k]),
                                            wide_edges[k] & (wide_scores[k] > -1.0), knn_value, i,
                                            views[k])
            # ... and where the nearest calibration card names another value, one that fitted
            # best on the first window's edge (the card may be that value, its print out of
            # reach), the value read must fit well there (``farther_min_correlation``) unless the
            # card's colour names it: a print lying far out of both windows is never compared at
            # full size in either, and a middling fit of a sparse print (a 1's numeral and one
            # pip) then wins alone (other art 13011 g011: two turned 3s on an area registered a
            # fifth of a cell off, read as 1 at 0.716 and 0.711, the nearest card a 5, which
            # fitted best on the first window's edge; right readings so read fitted 0.74-0.77,
            # their nearest card's value not on the edge)
            if passes and not cut and best == before and knn_value != best \
                    and 0 <= knn_value < len(first_edge) and bool(first_edge[knn_value]) \
                    and coloured[i] != best \
                    and wide_scores[k][best] < cfg["farther_min_correlation"]:
                passes = False
            # ... and where the first window's tests did not pass at all, its best says little:
            # another value whose own print fitted best on that window's edge (cut there) may be
            # read in the farther one when it fits there at least ``unsettled_other_fit`` (other
            # art 13011 g019: a 5 lying high in its cell, a 3 ahead at 0.69 in the first window
            # with every print but the 1's on its edge, the 5 fitting 0.95 farther out)
            if not first_passed and best != before and bool(first_edge[best]) \
                    and wide_scores[k][best] >= cfg["unsettled_other_fit"]:
                before = best
            if passes and not cut and best == before \
                    and not _marks_doubt(look, views[k], best, wide_scores[k]):
                readable.append((i, best, round(min(1.0, occupancy, gap * 2), 3), views[k]))
                if wide_scores[k][best] < _least_fit(cfg, i in astride):
                    weak.add(i)
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
    # on pip cards, a value whose calibration cards have no ink at their print's middle (a 2,
    # a 4) is not read where the card has some (:mod:`.middle`; hard own art h45021 g008: two
    # clear 5s on cards larger than calibration's read as 4, the 4's template fitting 0.81
    # against the 5's 0.73)
    readable = [r for r in readable if not middle_doubt(look, r[3], r[1])]
    for i, best, confidence, _ in readable:
        if i not in weak:
            values[i], confidences[i] = best, confidence
    _placed_memo().clear()  # (lets the picture's windows go)
    return values, confidences, card_like


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


def _close_pair_any_way(look: GridLook, window: np.ndarray, best: int, second: int,
                        scores: np.ndarray) -> float:
    """:func:`close_pair_score` where the card does not say which way up ``best``'s or
    ``second``'s print lies (:func:`_lies_turned` None): each such print is laid both ways, and
    of the scores whose two prints fit the card as one the one nearest to nothing is kept (0
    when they name different values), as :func:`pairs._pair_score_any_way_up` does for prints
    that look alike either way up. Laid the wrong way, a card's own value's print names the
    other value, so a score clear of zero every way it fits is the card's. NaN where no way
    fits, or for any cell :func:`close_pair_score` does not score."""
    cfg = section("grid")
    if scores[best] < cfg["min_correlation_alone"] \
            or scores[best] - scores[second] >= cfg["min_gap"] \
            or not np.isfinite(_pair_needed(look, best, second)):
        return float("nan")
    ways = []
    for value in (best, second):
        turned = _lies_turned(look, window, value)
        ways.append([turned] if turned is not None else [False, True])
    if len(ways[0]) == len(ways[1]) == 1:
        return float("nan")  # both ways up known: laid as pair_score laid them, no fit
    fitting = [s for ta in ways[0] for tb in ways[1]
               if np.isfinite(s := pair_score(look, window, best, second, ways=(ta, tb)))]
    if not fitting:
        return float("nan")
    low, high = min(fitting), max(fitting)
    return low if low > 0 else high if high < 0 else 0.0


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
    return bool(_laid_doubts(look, window, best, knn_value))


def _laid_doubts(look: GridLook, window: np.ndarray, best: int, other: int) -> bool | None:
    """Whether the prints of ``best`` and ``other`` laid on the card (:func:`pair_score`) favour
    ``best`` by less than ``alone_pair_floor`` every way they can be laid; None when they cannot
    be laid any way (every score NaN).

    A value whose way up this card does not tell (its two ways fit within pair_turn_gap: the
    faint 4 of h10814 g010, 0.65 and 0.62) is tried both ways, and the way best for ``best`` is
    kept: the reading is doubted only when no way up of the two prints favours it."""
    ways = []
    for value in (best, other):
        turned = _lies_turned(look, window, value)
        ways.append([turned] if turned is not None else [False, True])
    # the ways are laid one after the other, and the first that favours ``best`` by the floor
    # settles it (the answer is the same as from all of them: doubted only when no finite
    # score reaches the floor; the others' scores would not be looked at)
    floor = float(section("grid")["alone_pair_floor"])
    finite = False
    for ta in ways[0]:
        for tb in ways[1]:
            s = pair_score(look, window, best, other, ways=(ta, tb))
            if np.isfinite(s):
                if not s < floor:
                    return False
                finite = True
    return True if finite else None


def _runner_up_doubted(look: GridLook, window: np.ndarray, best: int, second: int,
                       knn_value: int) -> bool:
    """Whether a value its templates read alone, while the nearest calibration card names a
    third value (neither ``best`` nor the templates' runner-up ``second``), is put in doubt by
    the runner-up: the two prints laid on the card (:func:`pair_score`, each value tried both
    ways up where the card does not tell) favour ``best`` over ``second`` by less than
    ``alone_pair_floor`` every way they can be laid. :func:`_alone_doubted` asks the same of the
    nearest card's value; where that card names a third value, the runner-up is the value the
    print itself came closest to, and the nearest card does not vouch for the best either.
    Where the two prints cannot be laid on the card (every way NaN), each value's mean print is
    laid alone, as :func:`_unpaired_doubted` does: the runner-up's must not fit the card
    ``unpaired_mean_lead`` better than the best's (own art h12304 g035 (1, 3): a 3 read as 1 at
    0.24, templates 0.73 and 0.59, the nearest card a 5's, no pair score, the mean prints 0.574
    for the 3 and 0.571 for the 1).

    Other art h12162 g010 (2, 2): a quarter-turned 3 in a dim picture, a dark finger over its
    end (the card's edge and the mat beyond it, which the 3's templates hold), read as 2 at
    0.20 (the 2's templates 0.73, the 3's 0.53); the nearest calibration card was a 5 (the 2
    and 5 prints laid on the card: NaN every way), and the 2 and 3 laid on the card said 3 by
    0.19."""
    if knn_value in (best, second, PRINT_ONLY) or knn_value < 0:
        return False
    doubted = _laid_doubts(look, window, best, second)
    if doubted is not None:
        return doubted
    if look.print_offsets.shape != (6, 2) \
            or not np.isfinite(look.print_offsets[[best, second]]).all():
        return False  # (a calibration stored before the pairwise step: as before)
    lead = _mean_fit(look, window, second) - _mean_fit(look, window, best)
    return bool(lead >= float(section("grid")["unpaired_mean_lead"]))


def _print_holes(crop: np.ndarray) -> int:
    """How many closed holes the print in ``crop`` (grey, the print's own size or a little
    more) has: split in two by Otsu, the lesser part is the ink (white numerals on a coloured
    card or dark ones on pale paper alike), and every part of the rest that no edge of the
    crop reaches, that covers at least ``holes_min_area`` pixels and that one stroke of ink
    alone closes is a hole (a 0 has one, or two with a slash; a 3 or a 5 none; paper shut in
    between a numeral and a card's edge or a grid line is not). Turning or tilting the card
    does not change it."""
    cfg = section("grid")
    ink = print_ink(crop)
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
    """(6,): per value, 1 when every calibration template of it has a hole, 0 when none has,
    -1 when they disagree or the value was not seen (:func:`every_template`)."""
    return per_look(look, "holed", lambda lk: every_template(lk, lambda t: _print_holes(t) > 0))


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
    x, y = fit_at(look, window, (a, b))
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


def _third_left_behind(look: GridLook, window: np.ndarray, scores: np.ndarray, best: int,
                       knn_value: int) -> bool:
    """Whether the nearest calibration card's value, a third one beside a close call the two
    prints laid on the card settled for ``best``, is answered though ``best`` does not beat its
    print by what :func:`pair_beats` asks: the templates put it ``third_behind_gap`` or more
    behind ``best`` (at least ``min_gap``: against that value the templates read ``best``
    alone), and the two prints laid on the card favour ``best`` by ``min_pair_score``, the bare
    bar, without the margin over that pair's learnt floor (``pair_score_margin`` above what any
    calibration card of the third value reached toward ``best``).

    That floor measures how far the prints may lean the wrong way between two values the
    templates cannot tell apart; where the templates leave the third value clearly behind, two
    witnesses already answer it. Own 16002 g008 (3, 2): a 1 over 2 by 0.08 (templates 0.88, the
    1's and 2's prints saying 1 by 0.38), the nearest card a 0's, 0.18 behind, the 1's and 0's
    prints saying 1 by 0.29, under what pair_beats asked. A print that cannot be laid with the
    third (NaN) or favours the best weakly still declines (h10352 g047's case: the card the
    nearest card's value, its templates not among the best two)."""
    cfg = section("grid")
    gap = float(cfg["third_behind_gap"])
    if gap < 0 or knn_value in (best, PRINT_ONLY) or knn_value < 0 \
            or scores[best] - scores[knn_value] < max(gap, float(cfg["min_gap"])):
        return False
    lead = pair_score(look, window, best, knn_value)
    return bool(np.isfinite(lead)) and bool(lead >= float(cfg["min_pair_score"]))


def _third_alike(scores: np.ndarray, order: np.ndarray) -> bool:
    """Whether a third value's templates (neither of the best two in ``order``, the values by
    their ``scores``, best first) fit within ``pair_third_gap`` of the best's: a close call
    among three or more values, which the pairwise step (it weighs the best two only: the
    pair gap, :func:`close_pair_score`, the second read on the nearest card's word, the
    agreed close call, the print's holes) does not settle. Negative: never."""
    gap = float(section("grid")["pair_third_gap"])
    if gap < 0 or len(order) < 3:
        return False
    return bool(scores[order[0]] - scores[order[2]] < gap)


def _all_alike(scores: np.ndarray) -> bool:
    """Whether every value's templates fit within ``pair_all_alike`` of the best's (a value
    not compared at full size scores far behind and keeps this False): the card's print fits
    all six values alike and rules none out. Negative: never."""
    spread = float(section("grid")["pair_all_alike"])
    if spread < 0 or len(scores) < 2:
        return False
    return bool(float(np.max(scores)) - float(np.min(scores)) < spread)


def _marked(look: GridLook, window: np.ndarray, scores: np.ndarray, coloured: int | None,
            pair: tuple[int, int] | None = None) -> MarksReading | None:
    """The value the card's marks tell (:func:`marks_read`; upright only where they lie mostly
    inside the templates' middle, ``marks_outside_share``), where the other witnesses do not
    speak against it: the value's templates fit the card at least ``min_correlation`` (it is
    a card of that look at all) and within ``marks_templates_within`` of the best value's,
    and the card's colour names no other value. (The nearest
    calibration card is not asked: on such cards it is as blind to the value as the
    templates.)"""
    cfg = section("grid")
    inside = marks_inside(look)
    if inside and not _marks_read_inside(look):
        return None
    # (where the marks lie inside the middle, only upright: turned a few degrees, a digit's
    # segments slide into another's; third art e2402 g010, a 2 taken as 3 turned)
    marked = marks_read(look, window, turns=not inside)
    if marked is None:
        return None
    # ... leading by ``marks_inside_min_lead`` there: on the seven-segment sets, each card laid
    # on the common print first (marks._aligned), 3 of 5,032 cards asked and laid well were
    # read best as another value, leading by 0.12 at most (g2502, two 4s read as 1; e2402, a 3
    # as 2); 4,966 of the 5,029 right ones led by 0.18 or more. (Before the cards were laid so,
    # three wrong ones led by 0.16-0.18, e2402 g002 and g014, g2530 g017, and the lead asked
    # was 0.25)
    # ... or by ``marks_inside_paired_lead`` where the pairwise step had settled the same two
    # values the same way (``pair``: the templates' best two, the best read over the second by
    # the two prints laid on the card) and only a third value's nearness declined it
    # (_third_alike, _missed_third, _missed_disputed): the marks weigh all six values, and name
    # the templates' best over the templates' runner-up too. Third art g2687 (seven-segment):
    # five 4s read over 1 by the templates (0.002-0.03), by the prints (0.40-0.48, or the pair
    # gap 0.42-0.64) and by the marks (0.21-0.33), declined for a 5 or 3 within 0.04. The faded
    # 4s read as 1 by their marks on hard g2648h (0.276, 0.308) had prints saying 1 by 0.012
    # and -0.011: never settled.
    # ... or by ``marks_inside_fuller_lead`` where the value read holds about as much ink as
    # the runner-up or more (:func:`marks.sparser`): fading takes ink away, so a faded card
    # reads as a sparser value, never a fuller one. g2648h's faded 4 read as 1 (0.276) is a
    # sparser reading and still asks the full lead; blind third art g2815 (seven-segment
    # digits, sharp, on a dark table) declined 3s over 2 or 5 and 4s over 1 led by 0.24-0.31,
    # which every other rule left to the marks: the marks were right on each
    needed = float(cfg["marks_inside_min_lead"])
    if pair is not None and (marked.value, marked.runner_up) == pair:
        needed = min(needed, float(cfg["marks_inside_paired_lead"]))
    if marked.runner_up >= 0 and not sparser(look, marked.value, marked.runner_up):
        needed = min(needed, float(cfg["marks_inside_fuller_lead"]))
    if inside and marked.lead < needed:
        return None
    # a value whose templates were not compared at full size (-1: more than refine_margin
    # behind the best at half size) is not held to its templates' score: on a corner look
    # every value's middle is the same robot, and the half-size fits only order them by the
    # calibration cards' colours (43 such cards on the third art's corner sets, the marks right
    # on every one: e2404 g007, four 4s; f2429, g2451, g2490)
    # (on a corner look only: where the marks lie inside the middle, the templates see them,
    # and a value they left that far behind is ruled out)
    unrefined = not inside and scores[marked.value] <= -1.0 \
        and bool(cfg["marks_unrefined_value"])
    if not unrefined and (scores[marked.value] < float(cfg["min_correlation"])
                          or not _templates_allow(scores, marked.value, inside)):
        return None
    if coloured is not None and coloured != marked.value:
        return None
    return marked


def _marks_read_inside(look: GridLook) -> bool:
    """Whether the marks read cards every rule declined on a look whose marks lie mostly inside
    the templates' middle (``marks_inside_read``): only where they read none of calibration's
    own cards wrong, each left out of the means (``mark_floor`` at most ``marks_inside_floor``).

    Such cards are declined when their middles fit every value's template alike (the dark panel
    every seven-segment digit shares), and their marks, learnt each the way up its value's print
    lies, read them: the third art's 17 seven-segment sets, 0 -> 243 of 340 clean grids, none
    wrong. (The 3s' mean was once an 8, 3s and turned 3s averaged, and e2402 read 7 grids wrong
    so: the way-up learning, looking farther for turned cards, keeps them apart.) Where a
    value's mean still mixed both ways up (blind batch 10 g2530 before that: the 3s' mean an 8
    again, its cards lying low in their cells), a 2 was read as 3, and calibration had shown
    it: a wrong value led by 0.105 on its own cards. Every seven-segment set the marks read
    right showed 0. (c2203 showed 0.18 until each card was laid on the common print before its
    marks were compared, marks._aligned: now 0, and 6 of its 20 grids are read.)"""
    cfg = section("grid")
    return bool(cfg["marks_inside_read"]) \
        and float(look.mark_floor) <= float(cfg["marks_inside_floor"])


def _missed_third(look: GridLook, scores: np.ndarray, order: np.ndarray) -> bool:
    """Whether a value behind the best two fits within ``look.template_miss`` of the best, on a
    look whose close calls the marks do not check (:func:`_marks_check`): calibration saw
    cards whose own value fell that far behind the best two."""
    miss = float(look.template_miss)
    if miss <= 0.0 or len(order) < 3 or _marks_check(look):
        return False
    return float(scores[order[0]] - scores[order[2]]) < miss


def _thirds_answered(look: GridLook, window: np.ndarray, scores: np.ndarray, best: int) -> bool:
    """Whether the card's prints answer every value :func:`_missed_third` weighs (``best``'s
    templates within ``look.template_miss`` of them, other than ``best``): ``best`` beats
    each one's print laid on the card as :func:`pair_beats` asks, ``missed_third_pairs``
    on. The rule declines for a value neither the pairwise step nor the nearest card weighed;
    weighed, and left behind by the prints, it no longer is one (own art 55001 g002, g026:
    turned 5s over 4 by 0.003-0.01, the prints saying 5 over 4 clearly, a 3 0.07-0.09 behind
    on a look whose calibration cards fell 0.14 behind; g032's turned 5 stays asked)."""
    if not bool(section("grid")["missed_third_pairs"]):
        return False
    miss = float(look.template_miss)
    near = [v for v in range(len(scores))
            if v != best and scores[v] > -1.0 and scores[best] - scores[v] < miss]
    return bool(near) and all(pair_beats(look, window, best, v) for v in near)


def _missed_disputed(look: GridLook) -> bool:
    """Whether a close call the nearest calibration card disputes is declined on this look
    (``missed_disputed``): calibration missed its own cards (``look.template_miss``), and the
    marks do not check its close calls (:func:`_marks_check`)."""
    return bool(section("grid")["missed_disputed"]) and float(look.template_miss) > 0.0 \
        and not _marks_check(look)


def _marks_dispute(look: GridLook, window: np.ndarray, value: int) -> bool:
    """Whether the card's marks name ``value`` (:func:`marks_read`, upright), on a look whose
    marks lie inside the middle and are read there (:func:`_marks_read_inside`),
    ``marks_dispute_paired`` on."""
    if not bool(section("grid")["marks_dispute_paired"]) or not marks_inside(look) \
            or not _marks_read_inside(look):
        return False
    marked = marks_read(look, window, turns=False)
    return marked is not None and marked.value == value


def _marks_check(look: GridLook) -> bool:
    """Whether the card's marks check the templates' close calls (:func:`_marks_doubt`): on
    looks whose marks lie mostly outside the templates' middle (``marks_outside_share``)."""
    return bool(section("grid")["marks"]) and len(look.mark_values) > 0 \
        and not marks_inside(look)


def _marks_doubt(look: GridLook, window: np.ndarray, best: int, scores: np.ndarray) -> bool:
    """Whether a close call (the templates' lead under ``marks_doubt_gap``) on a card whose
    marks lie mostly outside the templates' middle (``marks_outside_share``) is read while the
    card's marks (:func:`marks_read`) name another value or cannot confirm it. Where the value
    is printed only in the corners, the close-call rules' witnesses (the pairwise prints, the
    nearest calibration card) see the same middle on every card and can agree on a wrong value
    (blind third art d2302, d2310, d2314: corner-numeral cards read wrong at 0.03-0.22 in 13
    of 60 grids)."""
    cfg = section("grid")
    gap = float(np.sort(scores)[-1] - np.sort(scores)[-2])
    # only where the values' marks lie mostly outside the templates' middle (corner numerals):
    # elsewhere the templates see the print themselves, and no close call they read on any set
    # here was wrong that the marks would have doubted (asking them cost a reading a close
    # call: the grid's median time 24 -> 41 ms on the benchmark's own art)
    if gap >= float(cfg["marks_doubt_gap"]) or not _marks_check(look):
        return False
    marked = marks_read(look, window)
    if marked is None:
        # ... and a close call the marks cannot confirm is not read either: the rules that read
        # it saw the same middle on every card
        return True
    # (the marks' word declines the call whatever the templates say: blind third art e2404,
    # e2406, corner cards read wrong at 0.01-0.2, the marks naming the right value, its
    # templates 0.12 and more behind)
    return marked.value != best


def _marks_on_edge(look: GridLook, window: np.ndarray) -> bool:
    """Whether the cards' common print fits ``window`` best on its edge (:func:`read_marks`):
    the card may lie farther out than the window reaches."""
    cfg = section("grid")
    if not bool(cfg["marks"]) or not len(look.mark_values) \
            or (marks_inside(look) and not _marks_read_inside(look)):
        return False  # (the marks read no card there: see _marked)
    reading = read_marks(look, window)
    return reading is not None and reading.edge


def _templates_allow(scores: np.ndarray, value: int, inside: bool) -> bool:
    """Whether ``value``'s templates fit within ``marks_templates_within`` of the best's: the
    marks speak where the templates cannot tell the values apart, not against a print the
    templates see clearly (other art 23015, central numerals with pips: a 5 whose marks read
    3 at 0.45, its own templates well ahead). Where the marks lie mostly outside the
    templates' middle (corner numerals: ``inside`` False), the templates see the same robot
    on every card and may fall farther behind (``marks_templates_within_corners``: third art
    e2406 and g2483, every 3's templates 0.12-0.13 behind the best, its marks naming it by
    0.33-0.56 with every box fitting 0.90-0.95)."""
    key = "marks_templates_within" if inside else "marks_templates_within_corners"
    return float(scores.max() - scores[value]) < float(section("grid")[key])


def _marks_weak(cfg: dict[str, Any], scores: np.ndarray, value: int, astride: bool) -> bool:
    """Whether a value the marks read is taken away by its templates' fit (:func:`_least_fit`).
    A value the templates did not compare at full size (-1, ``marks_unrefined_value``) has no
    such fit to ask: on a corner look the marks' own fits stand for it (e2404 g007: six 4s and
    3s read by their marks, then declined as weak at -1)."""
    if scores[value] <= -1.0 and bool(cfg["marks_unrefined_value"]):
        return False
    return bool(scores[value] < _least_fit(cfg, astride))


def _least_fit(cfg: dict[str, Any], astride: bool) -> float:
    """How well a value read must fit its templates to be kept: ``min_correlation_read``, and
    ``astride_min_correlation`` for a cell found farther than ``max_distance`` from every
    calibration card where it lies and compared again from a shifted place. That the cell looks
    like no calibration card where it lies is a doubt of its own: a card off its cell, or
    something over it. Hard own art h20021 g038 (1, 3): a 2 under a dark finger, nearest a 3's
    calibration card once shifted, read as 3 at 0.24, the 3's templates fitting 0.73; the
    cells so read right on clean sets fitted 0.83 and more."""
    least = float(cfg["min_correlation_read"])
    return max(least, float(cfg["astride_min_correlation"])) if astride else least


def _third_leans_away(look: GridLook, window: np.ndarray, best: int, second: int,
                      scores: np.ndarray) -> bool:
    """Whether a close call read on the nearest calibration card's word has a third value
    (neither ``best`` nor ``second``) within ``agreed_third_margin`` of the best's templates
    whose print, laid on the card with the best's (:func:`pair_score`), fits it better at all.

    The veto on the second value (:func:`_agreed_contradicted`) asks the prints to say it
    clearly; a third value close behind is asked less, because the nearest card's word is the
    only witness left between three near values (own art h19021 g053 (3, 1): a blurred 3 off its
    cell's middle read as 2, templates 2: 0.78, 1: 0.74, 3: 0.70, the nearest card a 2's, the
    2's and 3's prints saying 3 by 0.03)."""
    margin = float(section("grid")["agreed_third_margin"])
    for value in np.flatnonzero(scores >= scores[best] - margin):
        if int(value) in (best, second):
            continue
        lead = pair_score(look, window, best, int(value))
        if np.isfinite(lead) and lead < 0:
            return True
    return False


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
