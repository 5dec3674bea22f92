"""The pairwise score: the two values' mean prints laid on one card at one placement
(:func:`pair_score`), either way up, with where each print lies on its card and the highest
score calibration's own cards reached (both learnt left one picture out).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import cv2
import numpy as np

from vision.grid.geometry import SEARCH, _window
from vision.grid.look import Grid, GridLook
from vision.grid.templates import _standard, learn_templates, match_values
from vision.thresholds import section


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


#: per thread, while :func:`judge.classify` reads a picture (:func:`picture_memo`): what
#: :func:`pair_score` and :func:`_lies_turned` answered for each of its windows, by the window's
#: id (the window is kept with its answers, so no other array takes its id meanwhile); None
#: outside a reading
_picture = threading.local()


@contextmanager
def picture_memo() -> Iterator[None]:
    """While a picture is read: :func:`pair_score` and :func:`_lies_turned` answer each
    question about one window once (the close calls and their two doubts ask the same ones:
    a doubted lone reading's pairwise scores and both values' ways up were all worked out again
    by the second doubt). Each answer is the same function of the same window and calibration,
    so the readings are the same; forgotten when the reading ends, however it ends."""
    _picture.memo = {}
    try:
        yield
    finally:
        _picture.memo = None


def _window_memo(look: GridLook, window: np.ndarray) -> dict[Any, Any] | None:
    """The answers kept for ``window`` in this reading (None outside one)."""
    memo: dict[int, tuple[np.ndarray, GridLook, dict[Any, Any]]] | None = getattr(
        _picture, "memo", None)
    if memo is None:
        return None
    kept = memo.get(id(window))
    if kept is None or kept[0] is not window or kept[1] is not look:
        kept = memo[id(window)] = (window, look, {})
    return kept[2]


def pair_score(look: GridLook, window: np.ndarray, a: int, b: int,
               ways: tuple[bool, bool] | None = None) -> float:
    """:func:`_pair_score`, each question asked once while a picture is read
    (:func:`picture_memo`)."""
    memo = _window_memo(look, window)
    if memo is None:
        return _pair_score(look, window, a, b, ways)
    key = ("pair", int(a), int(b), None if ways is None else (bool(ways[0]), bool(ways[1])))
    if key not in memo:
        memo[key] = _pair_score(look, window, a, b, ways)
    return float(memo[key])


def _pair_score(look: GridLook, window: np.ndarray, a: int, b: int,
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
    """:func:`_lies_turned_now`, each question asked once while a picture is read
    (:func:`picture_memo`)."""
    memo = _window_memo(look, window)
    if memo is None:
        return _lies_turned_now(look, window, value)
    key = ("turned", int(value))
    if key not in memo:
        memo[key] = _lies_turned_now(look, window, value)
    answer: bool | None = memo[key]
    return answer


def _lies_turned_now(look: GridLook, window: np.ndarray, value: int) -> bool | None:
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
    return learn_left_out(greys, grids)[0]


def learn_left_out(greys: list[np.ndarray], grids: list[Grid]) -> tuple[np.ndarray, float]:
    """What the calibration cards say of the templates, each card read with templates learnt
    from the other pictures: :func:`learn_pair_floor`'s floor, and how far behind the best
    value's templates a card's own value's fitted when it was not even among the best two, the
    most (0 where fewer than ``template_miss_cards`` cards were: see ``GridLook.template_miss``)."""
    floor = np.full((6, 6), np.nan, np.float32)
    if len(greys) < 2:
        return floor, 0.0
    counts = np.zeros(6, np.int64)
    for g in grids:
        for row in g:
            for v in row:
                if v is not None:
                    counts[int(v)] += 1
    seen = np.zeros((6, 6), np.int64)
    worst = np.full((6, 6), -np.inf)
    missed: list[float] = []
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
                scores = match_values(left_out, window)
                if scores[int(v)] > -1.0 and (scores > scores[int(v)]).sum() >= 2:
                    missed.append(float(scores.max() - scores[int(v)]))
    least = int(section("grid")["pair_min_cards"])
    enough = (counts[:, None] >= least) & (counts[None, :] >= least) & (seen > 0)
    floor[enough] = worst[enough]
    miss = max(missed) if len(missed) >= int(section("grid")["template_miss_cards"]) else 0.0
    return floor, miss
