"""Robot Master grid, speed: the ways of computing the same numbers for less work give the same
answers as the ways before, bit for bit.

- ``_alone_doubted`` lays the two prints one way up after the other and stops at the first
  that favours the templates' value by the floor: the same answer as scoring every way and
  asking whether any finite score reaches it.
- ``_value_mean`` keeps each value's mean print (as :func:`templates._standard` levels) once per
  calibration: the same array as computing it again, and read-only (it is shared).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.grid_area import print_look
from tests.vision.test_grid_cleanvalue_dice import _card as _dice_card
from tests.vision.test_grid_wrong3_alone_doubted import _card as _numeral_card
from vision import grid
from vision.grid import empty, geometry, judge, pairs, templates
from vision.thresholds import section


def _every_way(look: grid.GridLook, window: np.ndarray, best: int, knn_value: int) -> bool:
    """``_alone_doubted`` as it was: every way up scored, then judged."""
    if knn_value in (best, grid.PRINT_ONLY) or knn_value < 0:
        return False
    ways = []
    for value in (best, knn_value):
        turned = pairs._lies_turned(look, window, value)
        ways.append([turned] if turned is not None else [False, True])
    scores = [grid.pair_score(look, window, best, knn_value, ways=(ta, tb))
              for ta in ways[0] for tb in ways[1]]
    finite = [s for s in scores if np.isfinite(s)]
    return bool(finite) and max(finite) < float(section("grid")["alone_pair_floor"])


def _look(card: Callable[[int, np.random.Generator, int], np.ndarray], values: list[int]
          ) -> grid.GridLook:
    rng = np.random.default_rng(41)
    greys: list[np.ndarray] = []
    grids: list[grid.Grid] = []
    for p in range(3):
        cards: dict[tuple[int, int], np.ndarray] = {}
        labels: grid.Grid = [[None] * 5 for _ in range(5)]
        for k, v in enumerate(values):
            r, c = divmod(k, 5)
            cards[(r, c)] = card(v, rng, (k + p) % 2)
            labels[r][c] = v
        greys.append(_area(cards))
        grids.append(labels)
    return print_look(greys, grids, 0)


@pytest.fixture(scope="module")
def looks() -> dict[str, tuple[grid.GridLook, list[np.ndarray]]]:
    """Dice cards (no way up: every way is laid) and numeral cards (a way up), each with
    windows of every value seen, some faint, some a pixel or two off their cells."""
    out = {}
    rng = np.random.default_rng(42)
    dice = _look(lambda v, r, t: _dice_card(v, r, turned=bool(t)), list(range(6)) * 2)
    windows = []
    for v in range(6):
        for dx, dy in ((0, 0), (2, -1), (-2, 2)):
            windows.append(geometry._window(_area({(2, 2): _dice_card(v, rng, dx, dy)}), 2, 2))
    out["dice"] = (dice, windows)
    numerals = _look(lambda v, r, t: _numeral_card(v, r), [1, 4, 1, 4, 0, 2, 3, 5, 1, 4])
    windows = []
    for v in (0, 1, 2, 3, 4, 5):
        for ink in (1.0, 0.5, 0.2):
            windows.append(geometry._window(_area({(1, 3): _numeral_card(v, rng, ink)}), 1, 3))
    out["numerals"] = (numerals, windows)
    return out


def test_alone_doubted_gives_what_every_way_up_gave(
        looks: dict[str, tuple[grid.GridLook, list[np.ndarray]]]) -> None:
    answers = []
    for look, windows in looks.values():
        for window in windows:
            for best, knn in itertools.permutations(range(6), 2):
                fast = judge._alone_doubted(look, window, best, knn)
                assert fast == _every_way(look, window, best, knn), (best, knn)
                answers.append(fast)
            assert not judge._alone_doubted(look, window, 2, grid.PRINT_ONLY)
    # both answers were given (the comparison means something either way)
    assert any(answers) and not all(answers)


def test_a_dice_card_is_laid_more_than_one_way(
        looks: dict[str, tuple[grid.GridLook, list[np.ndarray]]]) -> None:
    # the early stop matters only where more than one way is laid: dice prints have no way up
    look, windows = looks["dice"]
    assert any(pairs._lies_turned(look, w, v) is None for w in windows for v in range(1, 6))


def test_value_means_are_kept_once_and_the_same(
        looks: dict[str, tuple[grid.GridLook, list[np.ndarray]]]) -> None:
    for look, _ in looks.values():
        for value in range(6):
            for turned in (False, True):
                of_value = np.flatnonzero(look.template_values == value)
                kept = pairs._value_mean(look, value, turned)
                if not len(of_value) or (turned and len(of_value) < 2):
                    assert kept is None
                    continue
                assert kept is not None
                fresh = templates._standard(look.templates[of_value[1 if turned else 0]])
                assert kept.dtype == fresh.dtype and np.array_equal(kept, fresh)
                assert pairs._value_mean(look, value, turned) is kept
                assert not kept.flags.writeable
        # a calibration without a value's cards has no mean print for it
        assert pairs._value_mean(look, 7, False) is None


def _like_as_it_was(px: np.ndarray, ref: np.ndarray, tolerance: float) -> np.ndarray:
    cfg = section("grid")
    ref = np.broadcast_to(np.asarray(ref, np.float32).reshape(-1, 3), (len(px), 3))
    total = px.sum(axis=2) + 1.0
    ref_total = ref.sum(axis=1, keepdims=True) + 1.0
    hue_ok = np.abs(px / total[..., None] - (ref / ref_total)[:, None, :]).max(axis=2) \
        <= tolerance
    ratio = float(cfg["empty_brightness_ratio"])
    bright_ok = (total >= ref_total / ratio) & (total <= ref_total * ratio)
    return np.asarray((hue_ok & bright_ok).mean(axis=1))


def test_like_takes_the_same_largest_share_difference() -> None:
    # pixels half of one colour (with noise, some on the tolerance's edge) and half anything;
    # one reference colour or one per cell
    rng = np.random.default_rng(43)
    for t in range(300):
        n, k = int(rng.integers(1, 26)), int(rng.integers(2, 300))
        px = (rng.random((n, k, 3)) * 255).astype(np.float32)
        base = rng.random(3) * 255
        px[:, :k // 2] = np.round(base + rng.normal(0, 3, (n, k // 2, 3))).astype(np.float32)
        ref = (base if t % 2 else base + rng.normal(0, 3, (n, 3))).astype(np.float32)
        tolerance = float(rng.random() * 0.1)
        fast, slow = empty._like(px, ref, tolerance), _like_as_it_was(px, ref, tolerance)
        assert fast.dtype == slow.dtype and np.array_equal(fast, slow)
