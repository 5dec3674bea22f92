"""Value marks: each value's whole card, compared only where the values' cards differ, box by
box (:func:`learn_marks`, :func:`read_marks`).

The templates (:mod:`.templates`) are cut from the middle of each card, where most Robot Master
designs print their value. Some tell the value only elsewhere: a numeral in two corners with the
same robot on every card, or a seven-segment digit whose lit segments are all that changes. On
such cards every value's template fits alike (third art t1, b2101, c2204: all six within
0.04-0.12) and the close-call rules decline the card, rightly: the templates cannot tell.

Marks are learnt from the same calibration cards, whole: every card of a value lined up on that
value's most central card (the way up its print lies, see :func:`_way_mask`) and averaged. Where
those means differ (their spread across values, its upper part) are the marks; each group of
them is a box (a corner numeral, the digit). A card is read by laying the cards' common print
on it (either way up) and then each value's mean, box by box, a few pixels each way on its own
(a card laid a little wider than calibration's moves its corners apart): in each box the card
and the value's mean are compared as distances from their own mean in their own spreads, over
the marks. The value whose boxes differ least is the reading; its lead is how much less.

Only a card every other rule declined is asked (:mod:`.judge`): marks add readings, they never
change one.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from vision.grid.geometry import SEARCH, TEMPLATE_INSET, _window
from vision.grid.look import Grid, GridLook
from vision.grid.pairs import _window_memo
from vision.grid.templates import _standard
from vision.thresholds import section


@dataclass(frozen=True)
class Marks:
    """What :func:`learn_marks` learnt (stored in :class:`GridLook`)."""

    means: np.ndarray  # (n, h, w) uint8: each value's whole card, one cell's size
    values: np.ndarray  # (n,) the value of each mean
    boxes: np.ndarray  # (k, 4) int32: y0, y1, x0, x1 of each group of marks
    mask: np.ndarray  # (h, w) uint8: 255 where the values' means differ
    #: (m, h, w) uint8: every calibration card the means were made of, lined up on its value's
    #: mean (see :func:`_singles_doubt`), and (m,) the value of each
    singles: np.ndarray
    single_values: np.ndarray


@dataclass(frozen=True)
class MarksReading:
    """The value whose marks fit a card best (:func:`read_marks`)."""

    value: int
    #: how much less the best value's marks differ from the card than the runner-up's, as a
    #: share of both (0: a tie, 1: the best's fit exactly)
    lead: float
    #: how well the cards' common print fits the card where it was laid
    fit: float
    #: whether it fitted best on the window's edge (the card may lie farther out)
    edge: bool
    #: the worst of the best value's boxes, as a correlation
    box_fit: float
    #: whether every box, compared alone, names the same value (both corners of a card)
    boxes_agree: bool = True
    #: the size the card lies at, calibration's cards 1
    size: float = 1.0
    #: the value whose marks differed next least (-1: not known) and the way up the card was
    #: read (0 as it lies in its window, 1 turned by 180 degrees)
    runner_up: int = -1
    way: int = 0
    #: the least, over the boxes of the way read, by which the value's print fits the card
    #: better than the runner-up's (correlations; 1.0: not known)
    fit_margin: float = 1.0


def _way_mask(card: np.ndarray) -> np.ndarray | None:
    """Where ``card`` (one cell's crop) differs from itself turned by 180 degrees, the turned copy
    laid on it where it fits best: the print that tells which way up the card lies (a
    seven-segment 3 against an E), not the card's outline. None where nothing differs (dice
    pips).

    The turned copy is looked for up to half the crop each way: a card lying off the crop's
    middle lies twice as far off turned (third art c2203: the 3s' first card lay 10 pixels low
    and its turned copy, looked for 8 pixels each way, was laid on the window's corner, so the
    mask held the horizontal segments a 3 and an E share)."""
    a = cv2.GaussianBlur(_standard(card), (0, 0), 1.0)
    s = max(a.shape) // 2
    wide = cv2.copyMakeBorder(cv2.rotate(a, cv2.ROTATE_180), s, s, s, s, cv2.BORDER_REPLICATE)
    _, _, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(wide, a, cv2.TM_CCOEFF_NORMED))
    diff = np.abs(a - wide[y:y + a.shape[0], x:x + a.shape[1]])
    # only inside the card, away from its edge (an edge lit unevenly differs from itself
    # turned more than a small print does), and where the turned copy is the card, not the
    # border it was widened by
    y0, y1, x0, x1 = _card_box(card)
    inside = np.zeros(diff.shape, bool)
    inside[y0 + 2:y1 - 2, x0 + 2:x1 - 2] = True
    h, w = a.shape
    inside[:max(0, s - y), :] = False
    inside[max(0, h + s - y):, :] = False
    inside[:, :max(0, s - x)] = False
    inside[:, max(0, w + s - x):] = False
    diff[~inside] = 0
    if not (diff > 0).any():
        return None
    mask = diff >= float(section("grid")["marks_mask_share"]) * float(
        np.percentile(diff[diff > 0], 99.5))
    return mask if int(mask.sum()) >= 4 else None


def _lay(window: np.ndarray, card: np.ndarray, way: np.ndarray | None, pad: int = 0,
         inside: tuple[int, int, int, int] | None = None
         ) -> tuple[np.ndarray, float, bool, tuple[float, float] | None]:
    """``window`` (a cell with ``SEARCH`` pixels around) lined up on ``card``: the crop of it
    either way up where ``card`` fits best, the way chosen where the two ways differ
    (``way``, see :func:`_way_mask`); with that fit, whether it lay on the window's edge, and
    (with ``way``) how much the crop differs from ``card`` there, the way chosen and the other
    (mean squared difference of their :func:`_standard` levels).
    ``pad``: the window is widened by this many pixels each way (its edge repeated) before
    ``card`` is looked for in it: a card lying off its cell's middle lies twice as far off
    turned, past where ``card`` (cut around a card lying so) is looked for. ``inside``: only
    this part of ``card`` (y0, y1, x0, x1: the card itself, :func:`_card_box`) is fitted, over
    the same places: what lies around a card in its crop (a checked cloth, the next card)
    changes from card to card."""
    best: tuple[float, np.ndarray, float, bool] | None = None
    scores: list[float] = []
    h, w = card.shape
    y0, y1, x0, x1 = inside if inside is not None else (0, h, 0, w)
    template = np.ascontiguousarray(card[y0:y1, x0:x1])
    for candidate in (window, cv2.rotate(window, cv2.ROTATE_180)):
        if pad:
            candidate = cv2.copyMakeBorder(candidate, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        # (the places ``card`` itself would be fitted at, whole: its part lies that far in)
        res = cv2.matchTemplate(candidate, template, cv2.TM_CCOEFF_NORMED)[
            y0:y0 + candidate.shape[0] - h + 1, x0:x0 + candidate.shape[1] - w + 1]
        _, fit, _, (x, y) = cv2.minMaxLoc(res)
        crop = candidate[y:y + h, x:x + w]
        score = -float(((_standard(crop) - _standard(card))[way] ** 2).mean()) \
            if way is not None else float(fit)
        edge = x in (0, res.shape[1] - 1) or y in (0, res.shape[0] - 1)
        scores.append(score)
        if best is None or score > best[0]:
            best = (score, crop, float(fit), edge)
    assert best is not None
    ways = (-max(scores), -min(scores)) if way is not None else None
    return best[1], best[2], best[3], ways


def _way_unclear(differs: tuple[float, float] | None, cfg: dict[str, Any]) -> bool:
    """Whether a card lined up on its value's mean (``differs``: how much it differs from the
    mean where the value's two ways up differ, laid the way chosen and the other, see
    :func:`_lay`) lay neither way: it differs by more than ``marks_learn_way_error`` the way
    chosen, and the other way by less than that over ``marks_learn_way_share``.

    A card lying far off its cell is cut by its window's edge when turned, so the way that is
    right fits it badly, while the wrong way fits its whole card well: a seven-segment 4 and a
    4 turned (an "h") share all but two segments (third art g2615: five of eleven 4s so laid
    the wrong way, 0.98-1.14 from the mean against 1.04-1.53 the other way, and the 4s' mean
    showed both, an "H"). Cards laid right differed by 0.01-0.35, and 1.0 or more the other
    way. A value that looks the same either way up (a seven-segment 0, 2 or 5) differs little
    either way, and is never unclear. Over 162 sets this read 8 more grids and changed no
    other reading: 7 of g2502's (one 2 left out, 1.13 and 2.04) and one of g2569's."""
    if differs is None:
        return False
    chosen, other = differs
    return chosen > float(cfg["marks_learn_way_error"]) and \
        chosen > float(cfg["marks_learn_way_share"]) * other


def _card_box(common: np.ndarray, past: bool = False) -> tuple[int, int, int, int]:
    """Inside the card in ``common`` (a cell's crop of the cards averaged): its sides are the
    steps across in the outer thirds each way that most of the rows (columns) share, moved in
    by two pixels; y0, y1, x0, x1. A card's side runs along nearly all of it; a robot printed
    on it, however crisp, along part only (third art f2432: a grey robot on a white card on a
    pale table, whose outline stepped more than the card's edge and was taken for it).
    ``past``: a side the card runs past (see below) is put at the print nearest it."""
    g = cv2.GaussianBlur(np.asarray(common, np.float32), (0, 0), 1.0)
    h, w = g.shape
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0))[h // 6:h - h // 6]
    gy = np.abs(cv2.Sobel(g, cv2.CV_32F, 0, 1))[:, w // 6:w - w // 6]
    cfg = section("grid")

    def sides(share: float) -> tuple[list[int], list[float]]:
        across = np.percentile(gx, 100.0 * share, axis=0)
        down = np.percentile(gy, 100.0 * share, axis=1)
        at = [int(np.argmax(down[:h // 3])), 2 * h // 3 + int(np.argmax(down[2 * h // 3:])),
              int(np.argmax(across[:w // 3])), 2 * w // 3 + int(np.argmax(across[2 * w // 3:]))]
        return at, [float(down[at[0]]), float(down[at[1]]), float(across[at[2]]),
                    float(across[at[3]])]

    # (the quarter of the rows stepping least: 0 for a step along less than three quarters
    # of the card; the outer sixths left out, where a rounded corner bends the side away)
    at, steps = sides(float(cfg["marks_side_share"]))
    # a side stepping next to nothing against the card's strongest is no side: the card runs
    # past the crop there, and the strongest step left in that third was anything at all
    # (third art c2203: 1.1 against 139, the box's side in the middle of the seven-segment
    # digits, so the 1s and 3s told apart by their other half were declined). The box stops
    # there at the strongest step a quarter of the rows reach (marks_side_partial_share): the
    # edge of what is printed nearest (the digits' panel), short of the crop's edge
    least = float(cfg["marks_side_missing"]) * max(steps)
    if past and min(steps) < least:
        partial, _ = sides(float(cfg["marks_side_partial_share"]))
        at = [p if s < least else a for a, p, s in zip(at, partial, steps, strict=True)]
    top, bottom, left, right = at
    return top + 2, bottom - 1, left + 2, right - 1


def _same_way(mean: np.ndarray, others: np.ndarray) -> np.ndarray:
    """``mean`` or ``mean`` turned by 180 degrees, whichever fits ``others`` (the other values'
    means averaged) better, moved to where it fits best: each value's cards were lined up on
    their own first card, and a pixel between two values' means is enough for the robot they
    share to outweigh the numerals that tell them apart (third art f2432)."""
    best: tuple[float, np.ndarray] | None = None
    s = 2 * SEARCH + 4  # (a card lying SEARCH off the crop's middle lies twice that off turned)
    for candidate in (mean, cv2.rotate(mean, cv2.ROTATE_180)):
        wide = cv2.copyMakeBorder(candidate, s, s, s, s, cv2.BORDER_REPLICATE)
        _, fit, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(wide, others, cv2.TM_CCOEFF_NORMED))
        moved = np.ascontiguousarray(wide[y:y + mean.shape[0], x:x + mean.shape[1]])
        if best is None or fit > best[0] + 1e-3:
            best = (float(fit), moved)
    assert best is not None
    return best[1]


def learn_marks(greys: list[np.ndarray], grids: list[Grid]) -> Marks | None:
    """Each value's whole card and where the values differ, from the calibration cards; None
    with fewer than two values seen."""
    cfg = section("grid")
    cards = [(int(v), np.asarray(_window(g, r, c), np.float32))
             for g, grid in zip(greys, grids, strict=True)
             for r, row in enumerate(grid) for c, v in enumerate(row) if v is not None]
    seen = sorted({v for v, _ in cards})
    if len(seen) < 2:
        return None
    s = SEARCH
    # the cards as they lie in their cells, averaged: how a card sits there; the card nearest
    # that is the frame every value is cut in (a card half out of its cell would cut every
    # mean short on one side)
    middle = np.mean([w[s:-s, s:-s] for _, w in cards], axis=0).astype(np.float32)
    central = [float(cv2.matchTemplate(w[s:-s, s:-s], middle, cv2.TM_CCOEFF_NORMED).max())
               for _, w in cards]
    frame = cards[int(np.argmax(central))][1][s:-s, s:-s]
    refs: dict[int, np.ndarray] = {}
    for v in seen:
        own = [k for k, (value, _) in enumerate(cards) if value == v]
        first = cards[max(own, key=lambda k: central[k])][1]
        refs[v] = _lay(first, frame, None)[0].astype(np.float32)
    least = float(cfg["marks_align_fit"])
    means = dict(refs)
    for last in (False, True):
        # each card lined up on its value's mean so far (first: its most central card), the
        # way up that value's print says; a card fitting badly or on its window's edge (it
        # lies farther off its cell than the window reaches) is left out
        kept: dict[int, list[np.ndarray]] = {v: [] for v in seen}
        ways = {v: _way_mask(means[v]) for v in seen}
        insides = {v: _card_box(means[v]) for v in seen}
        for v, w in cards:
            crop, fit, edge, differs = _lay(w, means[v], ways[v], int(cfg["marks_learn_pad"]))
            if fit < least and bool(cfg["marks_align_inside"]):
                # a card fitting short of that is fitted again on the card alone: on a checked
                # cloth the checks around a card in its crop held the whole crop's fit to
                # a median of 0.61-0.79, and each value's mean was 1-5 cards (third art d2302)
                crop, fit, edge, differs = _lay(w, means[v], ways[v],
                                                int(cfg["marks_learn_pad"]), insides[v])
            # (and, in the last pass, a card laid neither way clearly: the first pass lines the
            # cards up on one card, whose own noise makes a value that looks the same either
            # way up seem to differ both ways, third art g2507's 5s about 1.0 each way)
            if fit >= least and not edge and not (last and _way_unclear(differs, cfg)):
                kept[v].append(crop.astype(np.float32))
        means = {v: (np.mean(kept[v], axis=0).astype(np.float32) if kept[v] else means[v])
                 for v in seen}
    # every value's mean the same way up as the others': a value whose print looks much the
    # same either way up may have been cut around a card lying turned (other art 23015: the 4s
    # and 5s stored upside down beside upright 0-3s, so the marks mixed a numeral's place with
    # the pips' and read a 5 as 3)
    for v in seen:
        others = np.mean([means[u] for u in seen if u != v], axis=0).astype(np.float32)
        means[v] = _same_way(means[v], others)
    # ... and every card kept, lined up on its value's mean as it now lies (see _singles_doubt)
    singles = [(v, _same_way(crop, means[v])) for v in seen for crop in kept[v]]
    # where the values' means differ, on the card: around it, each value's mean shows the
    # table or the next card wherever that value's cards happened to lie in calibration
    stack = np.stack([_standard(m) for m in means.values()])
    spread = stack.std(axis=0)
    # (a side the card runs past is put at the print nearest it here only: the cards lined up
    # on such a box while learning moved g2502's means a pixel, and a 4 its marks had read as
    # 1 by 0.07 was then read so by 0.20, past the 0.18 asked: a wrong grid)
    y0, y1, x0, x1 = _card_box(np.mean(list(means.values()), axis=0), past=True)
    on_card = np.zeros(spread.shape, bool)
    on_card[y0:y1, x0:x1] = True
    if not on_card.any():
        return None
    mask = on_card & (spread >= float(cfg["marks_mask_share"])
                      * float(np.percentile(spread[on_card], 99.5)))
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((3, 3), np.uint8))
    n, _, stats, _ = cv2.connectedComponentsWithStats(grown)
    if n < 2:
        return None
    largest = int(stats[1:, cv2.CC_STAT_AREA].max())
    pad = int(cfg["marks_box_pad"])
    # (each box kept on the card: a box reaching over its edge compares where the card's edge
    # and the table lie, which move from card to card; third art e2409's lower corner box
    # fitted the right value 0.83-0.84 that way)
    boxes = [(max(y0, y - pad), min(y1, y + bh + pad), max(x0, x - pad), min(x1, x + bw + pad))
             for x, y, bw, bh, area in stats[1:]
             if area >= float(cfg["marks_box_share"]) * largest]
    # a box where the values' means differ only by a pixel's shift is a line every card
    # shares, lying a pixel apart in two values' means (the dark panel's sides around a
    # seven-segment digit: third art f2426, g2480); compared alone it names whichever value
    # its card lies a pixel nearer to, so every card failed the boxes' agreement
    if len(boxes) > 1:
        apart = [_apart_unshifted(stack, mask, box) for box in boxes]
        least = float(cfg["marks_box_apart_share"]) * max(apart)
        boxes = [box for box, a in zip(boxes, apart, strict=True) if a >= least]
    return Marks(np.stack([np.clip(m, 0, 255).astype(np.uint8) for m in means.values()]),
                 np.array(seen, np.int64), np.array(boxes, np.int32).reshape(-1, 4),
                 (mask * 255).astype(np.uint8),
                 np.stack([np.clip(c, 0, 255).astype(np.uint8) for _, c in singles])
                 if singles else np.zeros((0, 1, 1), np.uint8),
                 np.array([v for v, _ in singles], np.int64))


def _apart_unshifted(stack: np.ndarray, mask: np.ndarray, box: tuple[int, int, int, int]
                     ) -> float:
    """How far apart the values' means (``stack``: :func:`_standard` levels) lie in ``box``
    over the marks (``mask``), a pixel's shift forgiven: per pixel, how far one value's level
    lies outside the range another's takes within a pixel of it; the mean over the box, for
    the two values that differ most there. A numeral's or a lit segment's box differs whole;
    an edge both values show, a pixel apart, differs not at all."""
    y0, y1, x0, x1 = box
    marks = mask[y0:y1, x0:x1]
    if not marks.any():
        return 0.0
    part = stack[:, y0:y1, x0:x1]
    kernel = np.ones((3, 3), np.uint8)
    high = np.stack([cv2.dilate(p, kernel) for p in part])
    low = np.stack([cv2.erode(p, kernel) for p in part])
    # (value a's range against value b's level, for every pair at once)
    out = np.maximum(part[None] - high[:, None], low[:, None] - part[None])
    return float(np.clip(out, 0.0, None)[:, :, marks].mean(axis=2).max())


def _at_size(look: GridLook, size: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[tuple[int, int, int, int]]]:
    """The value marks scaled by ``size``: the means (float32), their average (the cards'
    common print), the marks and the boxes (computed once per calibration and size)."""
    cache: dict[float, tuple[np.ndarray, np.ndarray, np.ndarray,
                             list[tuple[int, int, int, int]]]] = \
        look.__dict__.setdefault("_marks_at_size", {})
    if size not in cache:
        means = look.mark_means.astype(np.float32)
        if size != 1.0:
            means = np.stack([cv2.resize(m, None, fx=size, fy=size,
                                         interpolation=cv2.INTER_AREA) for m in means])
        mask = cv2.resize(look.mark_mask, (means.shape[2], means.shape[1]),
                          interpolation=cv2.INTER_NEAREST) > 127
        boxes = [(round(y0 * size), round(y1 * size), round(x0 * size), round(x1 * size))
                 for y0, y1, x0, x1 in look.mark_boxes.tolist()]
        cache[size] = (means, means.mean(axis=0), mask, boxes)
    return cache[size]


def _parts(look: GridLook, size: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per box at ``size``: every value's mean there as :func:`_unit_prints` and as
    :func:`_standard` levels over the marks, one row per value in ``look.mark_values``' order
    (computed once per calibration and size)."""
    cache: dict[float, list[tuple[np.ndarray, np.ndarray]]] = \
        look.__dict__.setdefault("_marks_parts", {})
    if size not in cache:
        means, _, mask, boxes = _at_size(look, size)
        cache[size] = [(_unit_prints(means[:, y0:y1, x0:x1]),
                        np.stack([_standard(m[y0:y1, x0:x1])[mask[y0:y1, x0:x1]]
                                  for m in means]))
                       for y0, y1, x0, x1 in boxes]
    return cache[size]


def _unit_prints(prints: np.ndarray) -> np.ndarray:
    """Prints (k, h, w) as rows (k, h * w) that give :func:`_box_laid` a correlation as one
    product: each about its mean, divided by its length and by the square root of its pixels
    (the places it is laid on are divided by their spread only)."""
    flat = prints.reshape(len(prints), -1).astype(np.float64)
    centred = flat - flat.mean(axis=1, keepdims=True)
    length = np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-6)
    return np.asarray(centred / length / np.sqrt(flat.shape[1]))


def _box_laid(candidate: np.ndarray, x: int, y: int, box: tuple[int, int, int, int],
              prints: np.ndarray, levels: np.ndarray, marks: np.ndarray, reach: int
              ) -> tuple[np.ndarray, np.ndarray] | None:
    """One box of several prints (``prints``: :func:`_unit_prints`, one row each; ``levels``:
    each as :func:`_standard` levels over the ``marks``) laid on the card in ``candidate``
    whose common print lies at ``x``, ``y``: each is looked for up to ``reach`` pixels each way
    from its place there, where it correlates best (as ``cv2.matchTemplate``'s
    TM_CCOEFF_NORMED, every place at once). Per print: how it differs from the card there (the
    mean squared difference of the two as :func:`_standard` levels over the marks) and how it
    fits (the correlation). None where the box cannot be laid there."""
    y0, y1, x0, x1 = box
    ya, xa = max(0, y + y0 - reach), max(0, x + x0 - reach)
    near = candidate[ya:min(candidate.shape[0], y + y1 + reach),
                     xa:min(candidate.shape[1], x + x1 + reach)]
    if near.shape[0] < y1 - y0 or near.shape[1] < x1 - x0:
        return None
    places = np.lib.stride_tricks.sliding_window_view(near, (y1 - y0, x1 - x0))
    places = places.reshape(-1, (y1 - y0) * (x1 - x0)).astype(np.float64)
    centred = places - places.mean(axis=1, keepdims=True)
    fits = (centred / np.maximum(centred.std(axis=1, keepdims=True), 1e-6)) @ prints.T
    at = fits.argmax(axis=0)  # each print's place (the first of equals, as cv2.minMaxLoc)
    laid = centred[at]
    standard = laid / np.maximum(laid.std(axis=1, keepdims=True), 1.0)
    errors = ((standard[:, marks.ravel()] - levels) ** 2).mean(axis=1)
    return errors, fits[at, np.arange(len(at))]


def _both_ways(window: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``window`` as the marks are read on it (float32), as it lies and turned by 180 degrees,
    each widened by ``marks_read_pad`` pixels, its edge repeated: a card lying off its cell's
    middle lies twice as far off turned, past where its common print, cut around cards lying
    so, would be looked for (see :func:`_lay`)."""
    pad = int(section("grid")["marks_read_pad"])
    w = np.asarray(window, np.float32)

    def widened(c: np.ndarray) -> np.ndarray:
        return np.asarray(cv2.copyMakeBorder(c, pad, pad, pad, pad, cv2.BORDER_REPLICATE),
                          np.float32)

    return widened(w), widened(cv2.rotate(w, cv2.ROTATE_180))


def read_marks(look: GridLook, window: np.ndarray) -> MarksReading | None:
    """:func:`_read_marks`, asked once per window while a picture is read
    (:func:`vision.grid.pairs.picture_memo`)."""
    memo = _window_memo(look, window)
    if memo is None:
        return _read_marks(look, window)
    if "marks" not in memo:
        memo["marks"] = _read_marks(look, window)
    return memo["marks"]  # type: ignore[no-any-return]


def _read_marks(look: GridLook, window: np.ndarray) -> MarksReading | None:
    """The value whose marks fit the card in ``window`` best; None without marks learnt or
    with a box that cannot be laid on the card.

    The card may lie smaller or larger than calibration's (a layout with wider gaps between
    the cards, a camera nearer the table): the size (``marks_sizes``) at which the cards'
    common print fits it best, either way up, is the one its marks are read at."""
    if not len(look.mark_values) or not len(look.mark_boxes):
        return None
    reach = int(section("grid")["marks_reach"])
    ecc_reach = int(section("grid")["marks_ecc_reach"])
    ways = _both_ways(window)
    found: tuple[float, float] | None = None  # (fit, size)
    for size in sorted({1.0, *(float(k) for k in section("grid")["marks_sizes"])}):
        common = _at_size(look, size)[1]
        if window.shape[0] < common.shape[0] or window.shape[1] < common.shape[1]:
            continue
        fit = max(float(cv2.matchTemplate(c, common, cv2.TM_CCOEFF_NORMED).max())
                  for c in ways)
        if found is None or fit > found[0]:
            found = (fit, size)
    if found is None:
        return None
    size = found[1]
    _, common, mask, boxes = _at_size(look, size)
    parts = _parts(look, size)
    # per value: the least difference either way up, with that way's fit, edge, worst box and
    # each box's own difference; and per way, every value's boxes' differences and fits
    best: dict[int, tuple[float, float, bool, float, int]] = {}
    per_way: list[dict[int, tuple[list[float], list[float]]]] = []
    for way, candidate in enumerate(ways):
        res = cv2.matchTemplate(candidate, common, cv2.TM_CCOEFF_NORMED)
        _, fit, _, (x, y) = cv2.minMaxLoc(res)
        edge = x in (0, res.shape[1] - 1) or y in (0, res.shape[0] - 1)
        box_reach = reach
        # where the marks lie in the card's middle (a seven-segment digit, a central numeral)
        # the card is first laid on the common print, its turn included, and every value's box
        # is looked for only a pixel or so from there (:func:`_aligned`). Corner numerals are
        # not: a card laid a little larger than calibration's moves its corners apart, and each
        # box must find its own (laid first, the third art's clean corner sets read 6 grids
        # more and 6 fewer with the boxes' usual reach; 9 more and 24 fewer with a pixel's)
        aligned = _aligned(candidate, common, x, y) if marks_inside(look) else None
        if aligned is not None:
            candidate, x, y, box_reach = aligned, ecc_reach, ecc_reach, ecc_reach
        per_way.append({})
        laid_boxes = []  # per box: every value's difference and fit
        for box, (prints, levels) in zip(boxes, parts, strict=True):
            marks = mask[box[0]:box[1], box[2]:box[3]]
            if not marks.any():
                continue
            box_read = _box_laid(candidate, x, y, box, prints, levels, marks, box_reach)
            if box_read is None:
                return None
            laid_boxes.append(box_read)
        if not laid_boxes:
            return None
        for k, value in enumerate(look.mark_values.tolist()):
            errors = [float(e[k]) for e, _ in laid_boxes]
            fits = [float(f[k]) for _, f in laid_boxes]
            per_way[way][value] = (errors, fits)
            error = float(np.mean(errors))
            if value not in best or error < best[value][0]:
                best[value] = (error, float(fit), edge, min(fits), way)
    ranked = sorted(best, key=lambda v: best[v][0])
    first, second = best[ranked[0]][0], best[ranked[1]][0]
    _, fit, edge, box_fit, way = best[ranked[0]]
    # every box alone names the value read, the card laid the way it was read: by how little
    # its marks differ and by how well its print fits (a sparse mark fits inside a fuller
    # one: third art d2302, a 4 whose lower corner was blurred in its mean read as 1, the 1's
    # boxes differing least and fitting 0.85, the 4's upper box fitting 0.92)
    laid = per_way[way]
    agree = all(min(laid, key=lambda v: laid[v][0][b]) == ranked[0]
                and max(laid, key=lambda v: laid[v][1][b]) == ranked[0]
                for b in range(len(laid[ranked[0]][0])))
    margin = min(laid[ranked[0]][1][b] - laid[ranked[1]][1][b]
                 for b in range(len(laid[ranked[0]][1])))
    return MarksReading(int(ranked[0]), (second - first) / max(first + second, 1e-6), fit, edge,
                        box_fit, agree, size, int(ranked[1]), way, float(margin))


def marks_read(look: GridLook, window: np.ndarray, turns: bool = True) -> MarksReading | None:
    """:func:`read_marks` when its reading may be taken: the common print fits at least
    ``marks_min_fit`` off the window's edge, every box of the value at least
    ``marks_min_box_fit`` (``marks_min_box_fit_corners`` on a corner look) and names it alone
    too, and it leads by
    ``marks_min_lead`` and by more than
    ``marks_floor_factor`` times the most a wrong value led on calibration's own cards
    (``GridLook.mark_floor``); else None. ``turns``: a card not taken upright is read again
    turned a few degrees (:func:`_turned_read`)."""
    cfg = section("grid")
    if not bool(cfg["marks"]) or not every_value_marked(look):
        return None
    reading = _taken(look, read_marks(look, window), window)
    if reading is None and turns and cfg["marks_turns"]:
        reading = _turned_read(look, window)
    return reading


def every_value_marked(look: GridLook) -> bool:
    """Whether calibration learnt the marks of every value: a card of a value it never saw
    would be read as another."""
    return sorted(look.mark_values.tolist()) == list(range(6))


def _taken(look: GridLook, reading: MarksReading | None, window: np.ndarray | None = None
           ) -> MarksReading | None:
    """``reading`` of the card in ``window`` when :func:`marks_read` may take it (laid well,
    leading enough and, given the ``window``, no single calibration card saying otherwise)."""
    if reading is None or not _laid_well(look, reading):
        return None
    cfg = section("grid")
    if _blurred_alike(look, reading):
        return None
    floor = float(look.mark_floor) if np.isfinite(look.mark_floor) else np.inf
    needed = max(float(cfg["marks_min_lead"]), floor * float(cfg["marks_floor_factor"]))
    if reading.lead < needed:
        # short of the floor's lead (never of marks_min_lead's): taken only where the single
        # calibration cards name the value clearly (see _singles_confirm)
        if window is None or reading.lead < float(cfg["marks_min_lead"]) or \
                not _singles_confirm(look, window, reading):
            return None
        return reading
    if window is not None and _singles_doubt(look, window, reading):
        return None
    return reading


def _blurred_alike(look: GridLook, reading: MarksReading) -> bool:
    """Whether, on a corner look (:func:`marks_inside` False), ``reading`` is a near tie that
    blur makes: the value's print fits the card in some box by less than
    ``marks_blur_fit_margin`` better than the runner-up's, and its marks lead by less than
    ``marks_blur_lead``. A blurred numeral is a blob that every value's print fits alike,
    the rounder ones best.

    Blind hard third art hg2846 (dim light, blur, noise, 1280x720): 5s read as 0 by their marks
    in g009 (0.175, every box naming 0, the 0's print fitting 0.008 better than the 5's in one
    box) and g004 (0.203, 0.022 better). Over the 30 corner sets on disk, of the 6,772
    readings the marks took right in the cells' windows, 39 are such near ties (g2831 13,
    hg2846 10, g2596 9); their grids: those two hard pictures no longer wrong, two of g2831's
    20 declined that were read."""
    if marks_inside(look):
        return False
    cfg = section("grid")
    return reading.fit_margin < float(cfg["marks_blur_fit_margin"]) \
        and reading.lead < float(cfg["marks_blur_lead"])


def _singles_doubt(look: GridLook, window: np.ndarray, reading: MarksReading) -> bool:
    """Whether, on a corner look (:func:`marks_inside` False), some single calibration card of
    the marks' runner-up differs from the card in ``window`` by less than
    ``marks_singles_ratio`` of the least any single card of the value read does, box by box as
    the means are laid (``marks_singles_doubt``).

    A value's mean is as sharp as its calibration cards lay alike: cards laid by hand, a few
    degrees turned and a pixel or two apart, blur it, and a card's thin numeral then fits a
    sharper mean's bolder stroke better (third art g2674 g002: a 4 read as 1 at 0.19, the 4s'
    mean a smudge against the 1s' crisp stroke; the nearest single 4 differed 0.13, the nearest
    single 1 0.29). On the 32 corner sets here the marks confirmed 1,311 close calls, that one
    wrong: the runner-up's nearest single card differed at least as much as the value's own on
    every right one, 0.46 of it on the wrong one."""
    nearest = _singles_asked(look, window, reading, "marks_singles_doubt")
    if nearest is None:
        return False
    own, other = nearest
    return bool(np.isfinite(own) and other < float(section("grid")["marks_singles_ratio"]) * own)


def _singles_confirm(look: GridLook, window: np.ndarray, reading: MarksReading) -> bool:
    """Whether, on a corner look, the nearest single calibration card of the value read differs
    from the card in ``window`` by less than ``marks_singles_confirm_ratio`` of the nearest
    single card of the runner-up (``marks_singles_confirm``): a reading that leads by
    ``marks_min_lead`` but not by the floor calibration asks (``GridLook.mark_floor``) is then
    taken.

    The floor is the most a wrong value's marks led on calibration's own cards, each picture
    left out; where a value's cards lay a little turned, its mean is blurred and the floor is
    set by that value's own near misses (third art g2596, serif 3s: floor 0.183, so 0.275 asked,
    the 3s read by 0.09-0.33). Their single cards still tell: on the 32 corner sets, of the 81
    readings laid well that led by 0.15 but not by the floor, 80 were right; the value's nearest
    single card differed at most 0.72 of the runner-up's on those, 0.5 or less on 68; the wrong
    one 2.7 times."""
    nearest = _singles_asked(look, window, reading, "marks_singles_confirm")
    if nearest is None:
        return False
    own, other = nearest
    return bool(np.isfinite(other)
                and own < float(section("grid")["marks_singles_confirm_ratio"]) * other)


def _singles_asked(look: GridLook, window: np.ndarray, reading: MarksReading, switch: str
                   ) -> tuple[float, float] | None:
    """:func:`_nearest_singles`, where the rule ``switch`` names is on, the look is a corner
    look (:func:`marks_inside` False) that kept its single calibration cards, and the reading
    knows its runner-up; else None (not asked)."""
    if not bool(section("grid")[switch]) or reading.runner_up < 0 or marks_inside(look) \
            or not len(look.mark_single_values):
        return None
    return _nearest_singles(look, window, reading)


def _nearest_singles(look: GridLook, window: np.ndarray, reading: MarksReading
                     ) -> tuple[float, float]:
    """How little the single calibration cards of the value read and of the runner-up differ
    from the card in ``window``, each the least over that value's cards (inf: none): each
    card's box laid where it fits best within ``marks_reach`` of its place on the cards' common
    print, its difference measured as :func:`_box_laid` measures a mean's, averaged over the
    boxes."""
    cfg = section("grid")
    _, common, _, boxes = _at_size(look, reading.size)
    reach = int(cfg["marks_reach"])
    candidate = _both_ways(window)[reading.way]  # (laid the way up the card was read)
    if candidate.shape[0] < common.shape[0] or candidate.shape[1] < common.shape[1]:
        return np.inf, np.inf
    _, _, _, (x, y) = cv2.minMaxLoc(cv2.matchTemplate(candidate, common, cv2.TM_CCOEFF_NORMED))
    values, per_box = _single_parts(look, reading.size)
    errors = np.zeros(len(values), np.float64)
    counted = 0
    for box, (prints, levels, marks) in zip(boxes, per_box, strict=True):
        if not marks.any():
            continue
        laid = _box_laid(candidate, x, y, box, prints, levels, marks, reach)
        if laid is None:
            return np.inf, np.inf
        errors += laid[0]
        counted += 1
    if not counted:
        return np.inf, np.inf
    errors /= counted

    def least(value: int) -> float:
        own = errors[values == value]
        return float(own.min()) if len(own) else float(np.inf)

    return least(reading.value), least(reading.runner_up)


def _single_parts(look: GridLook, size: float
                  ) -> tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]:
    """The single calibration cards at ``size``: their values, and per box every card's print
    there as :func:`_unit_prints` (cards, pixels) and as :func:`_standard` levels over the marks
    (cards, marks), and the marks (computed once per calibration and size)."""
    cache: dict[float, tuple[np.ndarray, list[tuple[np.ndarray, np.ndarray, np.ndarray]]]] = \
        look.__dict__.setdefault("_marks_single_parts", {})
    if size not in cache:
        _, _, mask, boxes = _at_size(look, size)
        singles = look.mark_singles.astype(np.float32)
        if size != 1.0:
            singles = np.stack([cv2.resize(c, None, fx=size, fy=size,
                                           interpolation=cv2.INTER_AREA) for c in singles])
        per_box = []
        for y0, y1, x0, x1 in boxes:
            marks = mask[y0:y1, x0:x1]
            levels = np.stack([_standard(c[y0:y1, x0:x1])[marks] for c in singles])
            per_box.append((_unit_prints(singles[:, y0:y1, x0:x1]), levels, marks))
        cache[size] = (look.mark_single_values.astype(np.int64), per_box)
    return cache[size]


def _turned_read(look: GridLook, window: np.ndarray) -> MarksReading | None:
    """The marks read on ``window`` turned a few degrees (``marks_turns``), once per window
    while a picture is read: cards laid by hand lie a little turned in their cells, and the
    marks are laid box by box without turning (third art g2487 g019: every card 3-4 degrees
    off the area, its boxes fitting 0.47-0.66 upright and 0.86-0.94 turned back). Taken only
    when the same value is taken at two turns next to each other and no turn takes another."""
    memo = _window_memo(look, window)
    if memo is not None and "marks_turned" in memo:
        return memo["marks_turned"]  # type: ignore[no-any-return]
    turns = sorted(float(a) for a in section("grid")["marks_turns"])
    w = np.asarray(window, np.float32)
    h, wd = w.shape
    taken: list[tuple[float, MarksReading]] = []
    for angle in turns:
        turned = cv2.warpAffine(w, cv2.getRotationMatrix2D((wd / 2, h / 2), angle, 1.0),
                                (wd, h), borderMode=cv2.BORDER_REPLICATE)
        reading = _taken(look, _read_marks(look, turned), turned)
        if reading is not None:
            taken.append((angle, reading))
    result = None
    step = min((b - a for a, b in itertools.pairwise(turns)), default=0.0)
    if len({r.value for _, r in taken}) == 1 and any(
            b[0] - a[0] <= step + 1e-6 for a, b in itertools.pairwise(taken)):
        result = max((r for _, r in taken), key=lambda r: r.lead)
    if memo is not None:
        memo["marks_turned"] = result
    return result


def marks_outside(look: GridLook) -> float:
    """The share of the marks that lie outside the card's middle: the card's box in the cards'
    common print (:func:`_card_box`, as the marks were cut in :func:`learn_marks`), less
    ``TEMPLATE_INSET`` of it on each side, as the value templates are cut from a cell
    (:func:`vision.grid.geometry._template`). Where most do (corner numerals), the templates
    and every rule built on them see the same middle on every card.

    Measured on the card, not the cell: a card lying small in its cell brings its corners into
    the cell's middle. Blind third art g2831 (cards 0.67 of the cell wide, small corner
    numerals): 0.17 of its marks lay outside the cell's middle, under ``marks_outside_share``
    as then set (0.2) and over every central set's 0.13, and its cards were read as central
    marks are, laid on the common print and each box looked for a pixel from there. Its
    numerals, farther from the robot on a card a little larger, were compared a few pixels off
    (a 3 laid half out of its box read as 1 and 3 alike), and 17 of 20 grids were declined.
    Outside the card's middle: 0.96 of g2831's marks; the corner sets' 0.86 and over, the
    central and seven-segment sets' 0.36 at most."""
    cache = look.__dict__
    if "_marks_outside" not in cache:
        mask = look.mark_mask > 127
        share = 0.0
        if mask.any() and mask.shape == (look.mark_means.shape[1], look.mark_means.shape[2]):
            y0, y1, x0, x1 = _card_box(look.mark_means.astype(np.float32).mean(axis=0),
                                       past=True)
            oy, ox = int(TEMPLATE_INSET * (y1 - y0)), int(TEMPLATE_INSET * (x1 - x0))
            inside = np.zeros(mask.shape, bool)
            inside[y0 + oy:y1 - oy, x0 + ox:x1 - ox] = True
            share = float((mask & ~inside).sum() / mask.sum())
        cache["_marks_outside"] = share
    return float(cache["_marks_outside"])


def value_ink(look: GridLook) -> dict[int, float]:
    """How much ink each value's marks hold: over the marks (where the values' means differ),
    how far each value's mean lies from its box's background (the median of the cards' common
    print there) in the ink's direction (the way the common print departs from it over the
    marks: bright segments on a dark panel, a dark numeral on paper). Computed once per look.

    Fading (blur, a lamp's glare) takes ink away and never adds any: a card whose print fades
    reads as a value with less ink, never as one with more (see :func:`sparser`)."""
    cache = look.__dict__
    if "_value_ink" not in cache:
        means = look.mark_means.astype(np.float32)
        mask = look.mark_mask > 127
        common = means.mean(axis=0) if len(means) else np.zeros(mask.shape, np.float32)
        ink = np.zeros(len(means))
        for y0, y1, x0, x1 in look.mark_boxes.tolist():
            marks = mask[y0:y1, x0:x1]
            if not marks.any():
                continue
            background = float(np.median(common[y0:y1, x0:x1]))
            way = 1.0 if float(common[y0:y1, x0:x1][marks].mean()) >= background else -1.0
            ink += np.clip(way * (means[:, y0:y1, x0:x1][:, marks] - background), 0,
                           None).sum(axis=1)
        cache["_value_ink"] = {int(v): float(k) for v, k in
                               zip(look.mark_values.tolist(), ink, strict=True)}
    return dict(cache["_value_ink"])


def sparser(look: GridLook, value: int, other: int) -> bool:
    """Whether ``value``'s marks hold less than ``marks_sparser_share`` of ``other``'s ink
    (:func:`value_ink`): a card of ``other`` whose print faded may read as ``value`` (a
    seven-segment 1's segments lie within a 4's). A value the look never learnt, or a
    runner-up with no ink measured: True (the stricter)."""
    ink = value_ink(look)
    if value not in ink or other not in ink or ink[other] <= 0.0:
        return True
    return ink[value] < float(section("grid")["marks_sparser_share"]) * ink[other]


def marks_inside(look: GridLook) -> bool:
    """Whether the values' marks lie mostly inside the templates' middle
    (``marks_outside_share``): a seven-segment digit, a central numeral."""
    return marks_outside(look) < float(section("grid")["marks_outside_share"])


def _aligned(candidate: np.ndarray, common: np.ndarray, x: int, y: int) -> np.ndarray | None:
    """``candidate`` (a window, either way up) warped so that the card lying at ``x``, ``y``
    (where the cards' common print fits best, moved only) lies on ``common``, its turn
    included (``marks_ecc``: a turn and a shift fitted by enhanced correlation,
    cv2.findTransformECC), with ``marks_ecc_reach`` pixels of the window around it; None where
    off or where the fit does not converge.

    Each value's box was looked for a few pixels around where the common print lay, on its
    own: on a card lying a little turned or larger than calibration's, a wrong value's box
    then found a place where its segments met the card's as well as the right one's (third art
    e2402: 21 of 287 cards asked read best as another value, a 3 as 5 by 0.02; laid on the
    common print first, 2, leading by 0.03 and 0.005). The fit may not stretch the card:
    stretched (an affine fit), c2203's 1s were read as 3 by 0.29-0.43."""
    cfg = section("grid")
    if not bool(cfg["marks_ecc"]):
        return None
    r = int(cfg["marks_ecc_reach"])
    h, w = common.shape
    template = cv2.copyMakeBorder(common, r, r, r, r, cv2.BORDER_REPLICATE)
    criteria = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT,
                int(cfg["marks_ecc_iterations"]), float(cfg["marks_ecc_eps"]))
    warp = np.array([[1, 0, x - r], [0, 1, y - r]], np.float32)
    try:
        # (a 3-pixel smoothing before the fit, not the default 5: a card is 48 pixels wide
        # here and its marks thin; the typing stubs know only the call without it)
        _, warp = cv2.findTransformECC(template, candidate, warp,  # type: ignore[call-overload]
                                       cv2.MOTION_EUCLIDEAN, criteria, None, 3)
    except cv2.error:
        return None  # (did not converge: the card is read as it lay)
    return np.asarray(cv2.warpAffine(candidate, warp, (w + 2 * r, h + 2 * r),
                                     flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                     borderMode=cv2.BORDER_REPLICATE), np.float32)


def _laid_well(look: GridLook, reading: MarksReading) -> bool:
    """Whether the card was found whole and the value's boxes fit it well and agree
    (:func:`marks_read`'s tests but the lead). The boxes' fit asked is
    ``marks_min_box_fit`` where the marks lie inside the middle (:func:`marks_inside`) and
    ``marks_min_box_fit_corners`` where they lie in the corners."""
    cfg = section("grid")
    box_fit = cfg["marks_min_box_fit"] if marks_inside(look) else cfg["marks_min_box_fit_corners"]
    return not reading.edge and reading.fit >= float(cfg["marks_min_fit"]) \
        and reading.box_fit >= float(box_fit) and reading.boxes_agree


def learn_mark_floor(greys: list[np.ndarray], grids: list[Grid]) -> float:
    """The most a wrong value led (:func:`read_marks`) on a calibration card that passed the
    fit tests, its marks learnt without its picture (its own card in the mean would make it
    look surer than a new card); 0 where none led; NaN with fewer than three pictures (too few
    to leave one out: no marks reading)."""
    if len(greys) < 3:
        return float("nan")
    worst = 0.0
    for i in range(len(greys)):
        marks = learn_marks(greys[:i] + greys[i + 1:], grids[:i] + grids[i + 1:])
        if marks is None:
            return float("nan")
        left_out = GridLook(mark_means=marks.means, mark_values=marks.values,
                            mark_boxes=marks.boxes, mark_mask=marks.mask)
        for r, row in enumerate(grids[i]):
            for c, v in enumerate(row):
                if v is None:
                    continue
                if int(v) not in marks.values.tolist():
                    continue  # (a value only this picture shows: nothing to tell it from)
                reading = read_marks(left_out, _window(greys[i], r, c))
                if reading is None or reading.value == int(v) or not _laid_well(left_out, reading):
                    continue
                worst = max(worst, reading.lead)
    return worst
