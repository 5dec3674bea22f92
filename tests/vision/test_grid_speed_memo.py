"""Robot Master grid, speed (fourth round): the ways of computing the same numbers for less work
give the same answers as the ways before, bit for bit.

- While a picture is read (``pairs.picture_memo``, entered by ``classify``), each pairwise
  question (:func:`pairs.pair_score`, :func:`pairs._lies_turned`) about one window is answered
  once: the same answers as asked afresh, the window kept with them (no other array can take
  its id), and nothing kept once the reading ends, however it ends.
- ``area_features(..., rows=r)``: the top ``r`` rows of cells only, the same numbers as the first
  ``5 r`` of all 25 (the table patches' mosaic fills four rows); the orientation step by
  truncation is np.floor's.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.test_grid_cleanvalue_dice import _card as _dice_card
from tests.vision.test_grid_speed_caches import _look
from tests.vision.test_grid_wrong3_alone_doubted import _card as _numeral_card
from vision import grid
from vision.grid import features, geometry, judge, pairs, table
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid


@pytest.fixture(scope="module")
def looks() -> dict[str, tuple[grid.GridLook, list[np.ndarray]]]:
    """Dice cards (no way up: every way is laid) and numeral cards (a way up), with windows of
    every value, some faint, some a pixel or two off their cells."""
    rng = np.random.default_rng(12204)
    out = {}
    dice = _look(lambda v, r, t: _dice_card(v, r, turned=bool(t)), list(range(6)) * 2)
    out["dice"] = (dice, [geometry._window(_area({(2, 2): _dice_card(v, rng, dx, dy)}), 2, 2)
                          for v in range(6) for dx, dy in ((0, 0), (2, -1))])
    numerals = _look(lambda v, r, t: _numeral_card(v, r), [1, 4, 1, 4, 0, 2, 3, 5, 1, 4])
    out["numerals"] = (numerals, [geometry._window(_area({(1, 3): _numeral_card(v, rng, ink)}),
                                                   1, 3)
                                  for v in range(6) for ink in (1.0, 0.3)])
    return out


def _same(a: float | bool | None, b: float | bool | None) -> bool:
    if isinstance(a, float) and isinstance(b, float):
        return (np.isnan(a) and np.isnan(b)) or a == b
    return a == b


def _questions(look: grid.GridLook, window: np.ndarray) -> list[float | bool | None]:
    """Every pairwise question the judging asks of one window, in one order."""
    out: list[float | bool | None] = [pairs._lies_turned(look, window, v) for v in range(6)]
    for a, b in itertools.permutations(range(6), 2):
        out.append(pairs.pair_score(look, window, a, b))
        out += [pairs.pair_score(look, window, a, b, (x, y)) for x in (False, True)
                for y in (False, True)]
    for best, knn in itertools.permutations(range(6), 2):
        out.append(judge._alone_doubted(look, window, best, knn))
        out.append(judge._unpaired_doubted(look, window, best, knn))
    return out


def test_kept_answers_are_the_answers_asked_afresh(
        looks: dict[str, tuple[grid.GridLook, list[np.ndarray]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[int, int]] = []
    score, turned = pairs._pair_score, pairs._lies_turned_now

    def counted_score(look: grid.GridLook, window: np.ndarray, a: int, b: int,
                      ways: tuple[bool, bool] | None = None) -> float:
        asked.append((id(window), 0))
        return score(look, window, a, b, ways)

    def counted_turned(look: grid.GridLook, window: np.ndarray, value: int) -> bool | None:
        asked.append((id(window), 1))
        return turned(look, window, value)

    for look, windows in looks.values():
        afresh = [_questions(look, w) for w in windows]
        monkeypatch.setattr(pairs, "_pair_score", counted_score)
        monkeypatch.setattr(pairs, "_lies_turned_now", counted_turned)
        with pairs.picture_memo():
            kept = [_questions(look, w) for w in windows]
            once = len(asked)
            again = [_questions(look, w) for w in windows]
            assert len(asked) == once  # the second round asked nothing anew
        monkeypatch.undo()
        for a, b, c in zip(afresh, kept, again, strict=True):
            assert all(_same(x, y) and _same(x, z) for x, y, z in zip(a, b, c, strict=True))
        # the kept answers are not all of one kind (the comparison means something)
        flat = [x for a in afresh for x in a]
        assert any(isinstance(x, float) and np.isnan(x) for x in flat)
        assert any(isinstance(x, float) and np.isfinite(x) for x in flat)
        assert True in flat and False in flat and None in flat


def test_a_window_is_kept_with_its_answers_and_forgotten_after_the_reading(
        looks: dict[str, tuple[grid.GridLook, list[np.ndarray]]]) -> None:
    look, windows = looks["numerals"]
    assert pairs._window_memo(look, windows[0]) is None  # outside a reading: nothing kept
    with pairs.picture_memo():
        copy = windows[0].copy()  # the same pixels, another array: asked on its own
        pairs.pair_score(look, copy, 3, 5)
        memo = pairs._picture.memo
        assert memo[id(copy)][0] is copy  # its id cannot go to another array meanwhile
        assert id(windows[0]) not in memo
        pairs.pair_score(look, windows[0], 3, 5)
        assert len(memo) == 2
    assert pairs._picture.memo is None
    with pytest.raises(RuntimeError), pairs.picture_memo():
        pairs.pair_score(look, windows[0], 3, 5)
        raise RuntimeError("a reading that failed")
    assert pairs._picture.memo is None


def test_classify_keeps_answers_only_while_it_reads(
        looks: dict[str, tuple[grid.GridLook, list[np.ndarray]]],
        monkeypatch: pytest.MonkeyPatch) -> None:
    look, _ = looks["numerals"]
    during: list[object] = []

    def judging(*args: object, **kwargs: object) -> object:
        during.append(pairs._picture.memo)
        raise RuntimeError("stop")

    monkeypatch.setattr(judge, "_classify", judging)
    with pytest.raises(RuntimeError):
        judge.classify(look, np.zeros((25, look.features.shape[1]), np.float32))
    assert during == [{}] and pairs._picture.memo is None


def _areas(rng: np.random.Generator) -> list[np.ndarray]:
    w, h = geometry._cell_size()
    shape = (5 * h + 8, 5 * w + 8, 3)
    noise = rng.integers(0, 256, shape, dtype=np.uint8)
    smooth = cv2.GaussianBlur(noise, (21, 21), 5.0)
    cards = _area({(r, c): _numeral_card((r + c) % 6, rng) for r in range(5) for c in range(5)
                   if (r * 5 + c) % 3})
    cards = np.repeat(cards[..., None], 3, axis=2) if cards.ndim == 2 else cards
    # the table mosaic: the bottom row's cells left black
    mosaic = noise.copy()
    mosaic[4 + 4 * h:] = 0
    return [noise, smooth, mosaic, cv2.resize(cards, (shape[1], shape[0]))]


def test_features_of_the_top_rows_are_those_of_all_cells() -> None:
    for area in _areas(np.random.default_rng(12205)):
        every = features.area_features(area)
        for rows in range(1, 6):
            top = features.area_features(area, rows=rows)
            assert top.dtype == every.dtype and top.shape == (5 * rows, every.shape[1])
            assert np.array_equal(top, every[:5 * rows])
        # shifted and turned reads keep all 25 cells
        assert features.area_features(area, 4, 2, -2, rows=3).shape[0] == 15
        assert features.area_features(area, turned=True, rows=3).shape[0] == 25


def test_the_orientation_step_by_truncation_is_the_floor() -> None:
    rng = np.random.default_rng(12206)
    gx, gy = (rng.normal(0, 40, (4000,)).astype(np.float32) for _ in range(2))
    gx[:50] = gy[:50] = 0.0  # no gradient: angle 0
    gx[50:100], gy[50:100] = 1.0, -1e-7  # just under 360 degrees
    _, ang = cv2.cartToPolar(gx, gy, angleInDegrees=True)
    pos = ang * np.float32(1 / 20.0)
    assert pos.min() >= 0 and pos.max() <= 18
    base = np.floor(pos)
    at = pos.astype(np.uint8)
    assert np.array_equal(at, base.astype(np.uint8))
    assert np.array_equal(np.subtract(pos, at), pos - base)
    assert np.subtract(pos, at).dtype == np.float32


def test_table_patches_feature_only_the_rows_they_fill(
        style: Style, monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(12207)
    image = render_grid(style, random_grid(rng, cards=10), rng)
    corners, white = grid.find_area(image)
    real: Callable[..., np.ndarray] = features.area_features
    asked: list[tuple[np.ndarray, int]] = []

    def recording(area: np.ndarray, *args: object, rows: int = 5, **kwargs: object
                  ) -> np.ndarray:
        asked.append((area.copy(), rows))
        return real(area, *args, rows=rows, **kwargs)

    monkeypatch.setattr(table, "area_features", recording)
    big = grid.rectify(image, corners, (0.0, 0.0), margin=grid.table_margin(), white=white)
    feats, foreign, _, _ = grid.table_patches(image, corners, (0.0, 0.0), white, big)
    assert len(asked) == 1
    mosaic, rows = asked[0]
    n = len(feats) + len(foreign)
    assert rows < 5 and (rows - 1) * 5 < n <= rows * 5
    assert np.array_equal(real(mosaic, rows=rows), real(mosaic)[:5 * rows])
