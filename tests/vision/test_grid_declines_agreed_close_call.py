"""Robot Master grid: a close call read on three witnesses that agree, none sure alone.

Own art 10901 (gate 5, clean): single 2s the templates put over a 1 by 0.002-0.034, under the
0.04 the nearest calibration card's agreement asks, with the nearest card a 2 and the two prints
laid on the card (``pair_score``) leaning to the 2 by 0.12-0.19, under the 0.25 the score asks
when it must carry the call alone. Every witness named the card's value and the reader asked.
When the nearest card names the templates' best value too (and the card's colour no other), the
score need only reach ``agreed_pair_score`` and clear the pair's learnt floor by the usual margin.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_grid_value_witnesses import _antisymmetric, _read
from vision.thresholds import section

# own art 10901 g008 (4, 3): a 2 over a 1 by 0.027
TWO_OVER_ONE = [-1.0, 0.786, 0.813, -1.0, -1.0, -1.0]
LEANS_TO_TWO = _antisymmetric({(2, 1): 0.15})


def test_bars_as_measured() -> None:
    cfg = section("grid")
    assert float(cfg["agreed_pair_score"]) <= 0.12 < float(cfg["min_pair_score"])
    assert TWO_OVER_ONE[2] - TWO_OVER_ONE[1] < float(cfg["min_gap_agreed"])


def test_a_close_call_the_nearest_card_and_the_prints_both_name_is_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    value, confidence = _read(monkeypatch, TWO_OVER_ONE, 2, LEANS_TO_TWO)
    assert (value, confidence > 0) == (2, True)
    # the card's colour saying 2 as well
    value, confidence = _read(monkeypatch, TWO_OVER_ONE, 2, LEANS_TO_TWO, colour=2)
    assert (value, confidence > 0) == (2, True)


def test_one_witness_missing_or_against_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    # the nearest calibration card names the second value or a third one
    for nearest in (1, 4):
        assert _read(monkeypatch, TWO_OVER_ONE, nearest, LEANS_TO_TWO)[1] == 0.0, nearest
    # the card's colour names another value
    assert _read(monkeypatch, TWO_OVER_ONE, 2, LEANS_TO_TWO, colour=1)[1] == 0.0
    # the prints lean to the 2 by too little, not at all, or cannot be laid on the card
    for score in (0.05, 0.0, -0.2, float("nan")):
        assert _read(monkeypatch, TWO_OVER_ONE, 2, _antisymmetric({(2, 1): score}))[1] == 0.0


def test_the_pairs_learnt_floor_still_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    margin = float(section("grid")["pair_score_margin"])
    # a calibration 1 once leaned to the 2 by 0.14: the card must clear 0.14 + margin
    floor = np.full((6, 6), -0.4, np.float32)
    floor[2, 1] = 0.14
    assert 0.14 + margin > 0.15
    assert _read(monkeypatch, TWO_OVER_ONE, 2, LEANS_TO_TWO, floor=floor)[1] == 0.0
    value, confidence = _read(monkeypatch, TWO_OVER_ONE, 2,
                              _antisymmetric({(2, 1): 0.14 + margin + 0.01}), floor=floor)
    assert (value, confidence > 0) == (2, True)
    # no floor learnt for the pair (too few calibration cards): the score alone has no measure
    floor[2, 1] = floor[1, 2] = np.nan
    assert _read(monkeypatch, TWO_OVER_ONE, 2, LEANS_TO_TWO, floor=floor)[1] == 0.0
