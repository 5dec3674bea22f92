"""Robot Master grid: a 3/5 close call the pairwise score settles even when the nearest
calibration card does not simply agree with the templates' best value.

- Own art 9951 g020 (clean): three 5s that a 3's template fitted 0.003-0.03 better. The nearest
  calibration card and the card's colour both said 5, and the two values' prints laid on the
  card (``pair_score``) said 5 by 0.43-0.49; the reader asked all three. With the nearest card
  naming the second value, the pairwise score may now read it.
- Own art 9902 g023, g056 and 9951 g029 (clean): a 5 over a 0 (and a 0 over a 5, a 5 over a 3)
  by 0.07-0.10, the pairwise score saying the best by 0.41-0.44, but the nearest calibration card
  naming a third value: asked, since the tie-break weighs only the best two. The pairwise score
  weighs any two values, so the best must now beat that third value on the card as well.
- Own art 9951 showed only three 3s to calibration, under the four (``pair_min_cards``) that
  learn how far a value's cards lean toward another (the pairwise floor): the pairwise step never
  spoke for 3/5 there. It now asks ``pair_score_unlearnt`` instead, more than any card of another
  value reached on any set measured (0.19).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_wrong_faint_print import _card
from vision import grid
from vision.grid import colours as grid_colours
from vision.grid import geometry, judge, pairs, templates
from vision.thresholds import section


def _look() -> grid.GridLook:
    """One calibration card of each value (its features one row), an empty cell's, and a
    learnt pairwise floor well under what the step asks (``min_pair_score`` decides)."""
    return grid.GridLook(features=np.concatenate([np.eye(6, dtype=np.float32),
                                                  np.zeros((1, 6), np.float32)]),
                         classes=np.array([0, 1, 2, 3, 4, 5, grid.EMPTY]), max_distance=1.0,
                         templates=np.zeros((2, 46, 34), np.uint8),
                         template_values=np.array([3, 5]),
                         template_masks=np.full((2, 46, 34), 255, np.uint8),
                         pair_floor=np.full((6, 6), -0.4, np.float32))


def _read(monkeypatch: pytest.MonkeyPatch, scores: list[float], nearest_value: int,
          pair: Callable[[int, int], float], colour: int | None = None,
          floor: np.ndarray | None = None) -> tuple[int | None, float]:
    """The cell (1, 1), nearest to the ``nearest_value`` calibration card, its templates
    scoring ``scores`` and the pairwise score of a over b ``pair(a, b)``."""
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    monkeypatch.setattr(judge, "pair_score",
                        lambda look, window, a, b, ways=None: float(pair(a, b)))
    monkeypatch.setattr(pairs, "pair_score", judge.pair_score)
    monkeypatch.setattr(judge, "colours_confirm",
                        lambda look, colours: [colour] * len(colours))
    monkeypatch.setattr(grid_colours, "colours_confirm", judge.colours_confirm)
    g = _area({(1, 1): _card(5, np.random.default_rng(2))})
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    feats = np.zeros((25, 6), np.float32)
    feats[6, nearest_value] = 0.9
    look = _look() if floor is None else dataclasses.replace(_look(), pair_floor=floor)
    values, confidences, _ = grid.classify(look=look, feats=feats, windows=windows,
                                           settled=lambda _: set(range(25)) - {6},
                                           colours=np.zeros((25, 3), np.float32))
    return values[6], confidences[6]


def _antisymmetric(table: dict[tuple[int, int], float]) -> Callable[[int, int], float]:
    def pair(a: int, b: int) -> float:
        if (a, b) in table:
            return table[(a, b)]
        return -table[(b, a)] if (b, a) in table else float("nan")
    return pair


# own art 9951 g020 (0, 1): a 5 that the 3's template fits 0.003 better
THREE_OVER_FIVE = [0.78, -1.0, -1.0, 0.841, -1.0, 0.838]


def test_the_second_value_named_by_the_nearest_card_is_read_when_the_pips_say_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    says_five = _antisymmetric({(3, 5): -0.43})
    value, confidence = _read(monkeypatch, THREE_OVER_FIVE, 5, says_five)
    assert (value, confidence > 0) == (5, True)
    # the card's colour saying 5 too (own art 9951 g020: both witnesses said 5)
    value, confidence = _read(monkeypatch, THREE_OVER_FIVE, 5, says_five, colour=5)
    assert (value, confidence > 0) == (5, True)


def test_the_second_value_is_not_read_on_a_weak_or_lone_witness(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the pips only lean to 5: asked
    assert _read(monkeypatch, THREE_OVER_FIVE, 5, _antisymmetric({(3, 5): -0.1}))[1] == 0.0
    # the pips say 5 but the nearest card says 3 (or a third value): the templates' near tie
    # has one witness against it, not two; asked, never read as 5
    for nearest in (3, 0):
        assert _read(monkeypatch, THREE_OVER_FIVE, nearest,
                     _antisymmetric({(3, 5): -0.43, (3, 0): 0.4}))[1] == 0.0
    # the card's colour names a third value: the witnesses disagree, asked
    assert _read(monkeypatch, THREE_OVER_FIVE, 5, _antisymmetric({(3, 5): -0.43}),
                 colour=0)[1] == 0.0
    # the second value's templates fit too poorly to be read at all
    poor = [0.78, -1.0, -1.0, 0.72, -1.0, 0.69]
    assert _read(monkeypatch, poor, 5, _antisymmetric({(3, 5): -0.43}))[1] == 0.0


# own art 9902 g023 (0, 1): a 5 over a 0 by 0.083, the nearest calibration card a 3's
FIVE_OVER_ZERO = [0.821, -1.0, -1.0, -1.0, -1.0, 0.904]


def test_a_third_value_named_by_the_nearest_card_is_answered_pairwise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    beats_both = _antisymmetric({(5, 0): 0.41, (5, 3): 0.40})
    value, confidence = _read(monkeypatch, FIVE_OVER_ZERO, 3, beats_both)
    assert (value, confidence > 0) == (5, True)
    # the card looks like the third value's print more than the best's: asked (own art
    # h10352 g047: the nearest card said 3, the tie-break 1 over 2, the card a 3)
    for third in (-0.3, 0.1, float("nan")):
        pair = _antisymmetric({(5, 0): 0.41, (5, 3): third})
        assert _read(monkeypatch, FIVE_OVER_ZERO, 3, pair)[1] == 0.0, third
    # ... and the best must still beat the second
    assert _read(monkeypatch, FIVE_OVER_ZERO, 3,
                 _antisymmetric({(5, 0): 0.1, (5, 3): 0.4}))[1] == 0.0


def test_a_pair_too_few_calibration_cards_showed_asks_a_fixed_higher_score(
        monkeypatch: pytest.MonkeyPatch) -> None:
    three_first = [-1.0, -1.0, -1.0, 0.86, -1.0, 0.85]  # under every gap
    floor = np.full((6, 6), -0.4, np.float32)
    floor[3, 5] = floor[5, 3] = np.nan  # fewer than pair_min_cards 3s
    unlearnt = float(section("grid")["pair_score_unlearnt"])
    assert unlearnt > float(section("grid")["min_pair_score"])
    for score, read in ((unlearnt + 0.08, True), (unlearnt - 0.05, False)):
        value, confidence = _read(monkeypatch, three_first, 3, _antisymmetric({(3, 5): score}),
                                  floor=floor)
        assert (confidence > 0) == read and (value == 3 or not read), (score, value)
    # a learnt floor asks only min_pair_score (here: the floor is far under it)
    assert _read(monkeypatch, three_first, 3, _antisymmetric({(3, 5): unlearnt - 0.05}))[1] > 0
    # a calibration that learnt no floor at all (stored before the pairwise step): never
    never = np.full((6, 6), np.nan, np.float32)
    assert _read(monkeypatch, three_first, 3, _antisymmetric({(3, 5): 0.49}),
                 floor=never)[1] == 0.0
