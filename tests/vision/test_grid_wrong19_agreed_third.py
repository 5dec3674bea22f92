"""Robot Master grid: a close call read on the nearest calibration card's word is declined when a
third value (neither the best nor the templates' runner-up) fits within ``agreed_third_margin``
of the best and its print, laid on the card with the best's, fits the card better at all.

Own art h19021 g053 (3, 1), hard (blur, a card off its cell's middle): a 3 read as 2 at 0.09 on
main 3017155. Templates: 2: 0.78, 1: 0.74, 3: 0.70; the nearest calibration card a 2's, so the
gap of 0.04 was enough; the 2-over-1 veto (:func:`judge._agreed_contradicted`) asked only about
the 1; the 2's and 3's prints laid on the card said 3 by 0.03."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_wrong3_alone_doubted import _look
from tests.vision.test_grid_wrong6_runner_up import _read, _whole
from vision import grid
from vision.grid import judge, templates
from vision.thresholds import section

# as h19021 g053 (3, 1) showed them, the 2 as 1, the 1 as 0 and the 3 as 4: the best value's
# templates 0.78, the runner-up's 0.74, the third's 0.70, the rest not compared (-1)
H19021 = [0.74, 0.78, -1.0, -1.0, 0.70, -1.0]
BEST, SECOND, THIRD = 1, 0, 4


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "match_windows", scored_alike(H19021))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)


def test_the_scores_are_a_close_call_the_nearest_card_settles() -> None:
    cfg = section("grid")
    gap = H19021[BEST] - H19021[SECOND]
    assert cfg["min_gap_agreed"] <= gap < cfg["min_gap"]
    assert H19021[BEST] - H19021[THIRD] <= cfg["agreed_third_margin"]


def test_a_four_read_as_one_on_the_nearest_cards_word_is_declined(scored: None) -> None:
    look, four = _look(knn=BEST), _whole(THIRD)
    assert grid.pair_score(look, four, BEST, THIRD) < 0  # the prints lean to the third
    assert judge._third_leans_away(look, four, BEST, SECOND, np.array(H19021))
    assert _read(look, four) == (None, 0.0)


def test_without_the_rule_it_reads_as_one(scored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, "agreed_third_margin": -1.0}
                        if name == "grid" else section(name))
    value, conf = _read(_look(knn=BEST), _whole(THIRD))
    assert value == BEST and conf > 0  # as main read h19021 g053: wrong


def test_a_one_with_the_same_scores_is_still_read(scored: None) -> None:
    look, one = _look(knn=BEST), _whole(BEST)
    assert grid.pair_score(look, one, BEST, THIRD) > 0
    value, conf = _read(look, one)
    assert value == BEST and conf > 0


def test_a_third_value_farther_behind_is_not_asked() -> None:
    look, four = _look(knn=BEST), _whole(THIRD)
    far = list(H19021)
    far[THIRD] = H19021[BEST] - float(section("grid")["agreed_third_margin"]) - 0.01
    assert not judge._third_leans_away(look, four, BEST, SECOND, np.array(far))
