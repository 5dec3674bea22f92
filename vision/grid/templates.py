"""Value templates: each value's print learnt from the calibration cards
(:func:`learn_templates`), matched against each cell's window at half size and refined at full
size (:func:`match_windows`), the tie-break between two close values where their prints differ
(:func:`_pair_gap`), and how strongly a window shows its value's print.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import cv2
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from vision.grid.correlation import _Bank
from vision.grid.geometry import (
    COARSE,
    _half,
    _halves,
    _template,
    _window,
    scaled_windows,
    template_in_window,
)
from vision.grid.look import Grid, GridLook
from vision.thresholds import section


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


def coarse_best(look: GridLook, windows: list[np.ndarray]) -> np.ndarray:
    """Per window (all of one size), the best value's mean print's best correlation anywhere
    in it at half size, as :func:`coarse_fit` averages it: (n,), -1 where nothing was learnt."""
    if not len(look.templates) or not windows:
        return np.full(len(windows), -1.0)
    th, tw = look.templates.shape[1:]
    coarse, _ = _banks(look)
    small = _halves(windows)
    corr, _, _ = coarse.correlate_all(small, (th // COARSE, tw // COARSE))
    return np.asarray(corr.reshape(len(corr), len(small), -1).max(axis=2).max(axis=0),
                      np.float64)


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


def _central_first(by_value: dict[int, list[tuple[np.ndarray, int, int]]], gap: float
                   ) -> dict[int, list[tuple[np.ndarray, int, int]]]:
    """Each value's calibration cards (grey picture, row, column), the one lying most as
    every card lies in its cell put first where the first found lies less like that by more
    than ``gap``: the first card's centre is what the value's other cards are aligned on, and
    one lying off its cell's middle cut every card of its value across its edge (third art
    g2509: the first 2 lay 0.17 of a cell left of its middle, 0.35-0.39 like the cells' mean
    against 0.79-0.87 for the most central 2; the 2s' mean showed the table past a card's
    right edge and one pip and a half, and 3s and 1s fitted it better than their own, read as
    2 at up to 0.39). As the marks choose their frame (:func:`vision.grid.marks.learn_marks`):
    the cells' mean, and each card's likeness to it. (Where the first card lies about as
    centrally as the best, it stays first: the readings learnt on it were measured.)"""
    cells = [(g, r, c) for found in by_value.values() for g, r, c in found]
    if len(cells) < 2:
        return by_value
    middle = np.mean([_window(g, r, c, 0) for g, r, c in cells], axis=0).astype(np.float32)

    def likeness(g: np.ndarray, r: int, c: int) -> float:
        return float(cv2.matchTemplate(_window(g, r, c, 0).astype(np.float32), middle,
                                       cv2.TM_CCOEFF_NORMED).max())

    out = {}
    for v, found in by_value.items():
        alike = [likeness(*f) for f in found]
        best = int(np.argmax(alike))
        out[v] = [found[best], *found[:best], *found[best + 1:]] \
            if alike[0] < alike[best] - gap else found
    return out


def learn_templates(greys: list[np.ndarray], grids: list[Grid]
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per value: every calibration card's centre, aligned on the first one and averaged; also
    turned by 180 degrees when cards may lie turned (about the card's middle, not the
    template's, where the cards lie off the markers' lattice: :func:`_turned_shifts`)."""
    cfg = section("grid")
    by_value: dict[int, list[tuple[np.ndarray, int, int]]] = {}
    for g, grid in zip(greys, grids, strict=True):
        for r in range(5):
            for c in range(5):
                v = grid[r][c]
                if v is not None:
                    by_value.setdefault(int(v), []).append((g, r, c))
    if bool(cfg["template_central_first"]):
        by_value = _central_first(by_value, float(cfg["template_central_gap"]))
    means: dict[int, np.ndarray] = {}
    singles: dict[int, list[np.ndarray]] = {}
    cache: dict[tuple[int, float], list[np.ndarray]] = {}
    # per value, each aligned card's view (turned back where it lay turned) and where the
    # first card's print lies in it; and how far off the window's middle each card other than
    # the first aligned, and whether turned (see _turned_shifts)
    placed: dict[int, list[tuple[np.ndarray, int, int]]] = {}
    aligned_at: dict[int, list[tuple[int, int, bool]]] = {}
    middle = template_in_window()

    def stretched(g: np.ndarray, scale: float) -> list[np.ndarray]:
        key = (id(g), scale)
        if key not in cache:
            cache[key] = scaled_windows(g, scale)
        return cache[key]

    for v, cells in sorted(by_value.items()):
        first = _template(*cells[0])
        aligned = [first.astype(np.float32)]
        placed[v] = [(_window(*cells[0]), *middle)]
        aligned_at[v] = []
        for g, r, c in cells[1:]:
            # each card at the stretch that fits the first best (cards lie wider in their
            # cells in some pictures: averaged as they lie, the print would blur)
            views = [_window(g, r, c)] + [stretched(g, float(k))[r * 5 + c]
                                          for k in cfg["card_stretch"] if float(k) != 1.0]
            # a card lying turned is turned back first: averaged as it lies, it would blur
            # the value's print with its own upside-down copy (a 3 then looks like a 5)
            best_score, crop, at = -2.0, None, None
            for candidate, turned in [x for window in views for x in
                                      ([(window, False),
                                        (cv2.rotate(window, cv2.ROTATE_180), True)]
                                       if cfg["turned"] else [(window, False)])]:
                res = cv2.matchTemplate(candidate, first, cv2.TM_CCOEFF_NORMED)
                _, score, _, (x, y) = cv2.minMaxLoc(res)
                if score > best_score:
                    best_score = score
                    crop = candidate[y:y + first.shape[0], x:x + first.shape[1]]
                    at = (candidate, x, y, turned)
            if crop is not None and crop.shape == first.shape and at is not None:
                aligned.append(crop.astype(np.float32))
                placed[v].append(at[:3])
                # (a window cut short at the area's edge has its middle elsewhere)
                if at[0].shape == placed[v][0][0].shape:
                    aligned_at[v].append((at[1] - middle[0], at[2] - middle[1], at[3]))
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
    shifts = _turned_shifts(aligned_at)
    templates, values, masks = [], [], []
    for v, mean in means.items():
        shift = shifts.get(v, (0, 0))
        turned_copies = _turned_copies(placed[v], first_shape=mean.shape, shift=shift,
                                       singles=len(singles[v]))
        for k, t in enumerate([mean, *singles[v]]):
            templates.append(t)
            values.append(v)
            masks.append(mask)
            if cfg["turned"]:
                templates.append(cv2.rotate(t, cv2.ROTATE_180) if turned_copies is None
                                 else turned_copies[k])
                values.append(v)
                # (rolled, not cut: every value's mask keeps as many pixels, which the print
                # strengths' gathering counts on; what rolls round is the mask's bare edge)
                masks.append(cv2.rotate(np.roll(mask, shift[::-1], axis=(0, 1)),
                                        cv2.ROTATE_180))
    return np.stack(templates), np.array(values), np.stack(masks)


def _turned_shifts(aligned_at: dict[int, list[tuple[int, int, bool]]]
                   ) -> dict[int, tuple[int, int]]:
    """Per value, how far (x, y, canonical pixels) its turned templates must lie from its
    upright ones turned about the template's own middle, so that they lie where calibration's
    turned cards lay: a card turned on the table turns about its own middle, which lies off
    the cell's middle where the cards lie off the markers' lattice (other art 59016: cards
    0.12-0.16 of a cell up in every picture; turned templates so cut put the print twice that
    from where turned cards showed it, past the reading's search, and turned 3s were read as
    5). ``aligned_at``: per value, where each calibration card but the first aligned on the
    first card, off the window's middle, and whether turned.

    A card k lying o_k off its cell's middle aligns at o_k - f upright and at -o_k - f turned,
    f the first card's own offset. Each value seen both ways gives the cards' common offset o
    (half its upright median less its turned median); their median is the lattice's. Asked
    only where 2 o reaches ``turned_shift_min`` on an axis (the turned templates then miss
    turned cards by that much), and then per value -o - f, f from each of its cards given o.
    """
    cfg = section("grid")
    both = [v for v, at in aligned_at.items()
            if any(t for *_, t in at) and not all(t for *_, t in at)]
    if len(both) < int(cfg["turned_shift_values"]):
        return {}

    def median(points: list[tuple[int, int, bool]], axis: int) -> float:
        return float(np.median([p[axis] for p in points]))

    lattice = [float(np.median([(median([p for p in aligned_at[v] if not p[2]], k)
                                 - median([p for p in aligned_at[v] if p[2]], k)) / 2
                                for v in both])) for k in (0, 1)]
    if 2 * max(abs(x) for x in lattice) < float(cfg["turned_shift_min"]):
        return {}
    out = {}
    for v, at in aligned_at.items():
        shift = []
        for k in (0, 1):
            # each card's word on the first card's offset f, given the lattice's o
            firsts = [(-lattice[k] if turned else lattice[k]) - p[k] for *p, turned in at]
            f = float(np.median(firsts)) if firsts else lattice[k]
            shift.append(round(-lattice[k] - f))
        out[v] = (shift[0], shift[1])
    return out


def _turned_copies(placed: list[tuple[np.ndarray, int, int]], first_shape: tuple[int, ...],
                   shift: tuple[int, int], singles: int) -> list[np.ndarray] | None:
    """A value's turned templates (the mean's, then each single card's) cut ``shift`` off
    where its upright ones were cut (:func:`_turned_shifts`), each card's view turned; None
    where no shift is asked (each upright template is then turned as it is)."""
    if shift == (0, 0):
        return None
    th, tw = first_shape[:2]
    sx, sy = shift
    pad = max(abs(sx), abs(sy))
    crops = []
    for view, x, y in placed:
        big = cv2.copyMakeBorder(view, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
        crop = big[pad + y - sy:pad + y - sy + th, pad + x - sx:pad + x - sx + tw]
        crops.append(cv2.rotate(crop, cv2.ROTATE_180).astype(np.float32))
    mean = np.clip(np.mean(crops, axis=0), 0, 255).astype(np.uint8)
    return [mean, *[c.astype(np.uint8) for c in crops[:singles]]]


def print_ink(crop: np.ndarray) -> np.ndarray:
    """The ink of the print in ``crop`` (grey), as a boolean mask: split in two by Otsu, the
    lesser part (white numerals on a coloured card or dark ones on pale paper alike)."""
    blurred = cv2.GaussianBlur(crop, (3, 3), 0)
    _, split = cv2.threshold(blurred, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = split > 0
    return bright if bright.mean() < 0.5 else ~bright


def fit_at(look: GridLook, window: np.ndarray, values: tuple[int, ...]) -> tuple[int, int]:
    """Where (x, y) in ``window`` the templates of ``values`` fit best (the print's box's
    top-left corner): the holes and the middle witnesses cut the print there. One value's
    placement :func:`match_windows` already found in this window is taken as it found it."""
    seen = _placed_memo().get(id(window))
    if len(values) == 1 and seen is not None and seen[0] is window and values[0] in seen[1]:
        _, y, x = seen[1][values[0]]
        return x, y
    best, x, y = -2.0, 0, 0
    for t in look.templates[np.isin(look.template_values, values)]:
        _, fit, _, loc = cv2.minMaxLoc(cv2.matchTemplate(window, t, cv2.TM_CCOEFF_NORMED))
        if fit > best:
            best, x, y = fit, int(loc[0]), int(loc[1])
    return x, y


def every_template(look: GridLook, has: Callable[[np.ndarray], bool]) -> np.ndarray:
    """(6,): per value, 1 when ``has`` holds of every calibration template of it (the mean
    print and the single cards, as stored), 0 when of none, -1 when they disagree or the value
    was not seen (a witness built on ``has`` then says nothing about that value)."""
    told = np.full(6, -1, np.int64)
    for v in range(6):
        seen = {bool(has(t)) for t in look.templates[look.template_values == v]}
        if len(seen) == 1:
            told[v] = int(seen.pop())
    return told


def per_look(look: GridLook, name: str, learn: Callable[[GridLook], np.ndarray]) -> np.ndarray:
    """``learn(look)``, kept per thread under ``name`` while the look's templates are the same
    (a witness's per-value answers: learnt once, asked for every card read)."""
    memo: dict[int, tuple[np.ndarray, np.ndarray]] = getattr(_placed, name, None) or {}
    setattr(_placed, name, memo)
    key = id(look.templates)
    if key in memo and memo[key][0] is look.templates:
        return memo[key][1]
    memo.clear()
    memo[key] = (look.templates, learn(look))
    return memo[key][1]
