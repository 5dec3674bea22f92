"""Robot Master grid: close calls the nearest calibration card's third value or an unclear way up
left declined (the close-calls round, own 16002).

1. A close call the two prints laid on the card settle is read though the nearest calibration
   card names a third value, when the templates leave that value at least ``third_behind_gap``
   (and ``min_gap``) behind the best and the best's and that value's prints laid on the card
   favour the best by ``min_pair_score`` (not the margin over the pair's learnt floor that
   :func:`grid.pair_beats` asks). Own 16002 g008 (3, 2), clean: a 1 over 2 by 0.08 (templates
   0.88 and 0.80), the 1's and 2's prints saying 1 by 0.38, the nearest card a 0's 0.18
   behind, the 1's and 0's prints saying 1 by 0.29; declined on main 33244ce.
2. Where the card does not say which way up the runner-up's print lies, the close call lays the
   two prints each way (own 16002 g041, below)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_wrong3_alone_doubted import _look
from tests.vision.test_grid_wrong6_runner_up import _read, _whole
from vision import grid
from vision.grid import judge, templates
from vision.thresholds import section

# as own 16002 g008 (3, 2) showed them, the 2 as 4: the 1's templates 0.883, the runner-up's
# 0.799, the nearest card's value (0) 0.708, the rest not compared (-1)
O16002 = [0.708, 0.883, -1.0, -1.0, 0.799, -1.0]
BEST, SECOND, THIRD = 1, 4, 0
THIRD_LEAD = 0.29  # the 1's and 0's prints laid on the card: 1 by 0.29
THIRD_FLOOR = 0.3  # a learnt floor for the pair that asks more (0.35) than that


def _looked() -> grid.GridLook:
    look = _look(knn=THIRD)
    floor = look.pair_floor.copy()
    floor[BEST, THIRD] = THIRD_FLOOR
    return dataclasses.replace(look, pair_floor=floor)


def _no_third_rule(monkeypatch: pytest.MonkeyPatch) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, "third_behind_gap": -1.0}
                        if name == "grid" else section(name))


def _third_leads(monkeypatch: pytest.MonkeyPatch, lead: float) -> None:
    real = judge.pair_score

    def score(look: grid.GridLook, window: np.ndarray, a: int, b: int,
              ways: tuple[bool, bool] | None = None) -> float:
        if (a, b) == (BEST, THIRD):
            return lead
        if (a, b) == (THIRD, BEST):
            return -lead
        return real(look, window, a, b, ways)
    monkeypatch.setattr(judge, "pair_score", score)


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "match_windows", scored_alike(O16002))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    _third_leads(monkeypatch, THIRD_LEAD)


def test_the_scores_are_a_close_call_with_the_nearest_card_a_third_value_behind() -> None:
    cfg = section("grid")
    assert O16002[BEST] - O16002[SECOND] < cfg["min_gap"]
    assert O16002[BEST] - O16002[THIRD] >= max(cfg["min_gap"], cfg["third_behind_gap"])
    assert cfg["min_pair_score"] <= THIRD_LEAD < THIRD_FLOOR + cfg["pair_score_margin"]


def test_a_one_the_prints_settle_is_read_though_the_nearest_card_names_a_third(
        scored: None) -> None:
    look, one = _looked(), _whole(BEST)
    assert grid.pair_score(look, one, BEST, SECOND) >= judge._pair_needed(look, BEST, SECOND)
    assert not judge.pair_beats(look, one, BEST, THIRD)  # what main asked, and did not get
    value, conf = _read(look, one)
    assert value == BEST and conf > 0


def test_without_the_rule_it_is_declined(scored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    _no_third_rule(monkeypatch)
    assert _read(_looked(), _whole(BEST)) == (None, 0.0)  # as main declined 16002 g008


def test_a_four_with_the_same_scores_is_not_read_as_one(scored: None) -> None:
    look, four = _looked(), _whole(SECOND)
    assert grid.pair_score(look, four, BEST, SECOND) < 0
    assert _read(look, four) == (None, 0.0)


def test_a_third_value_close_behind_is_still_asked_as_before(scored: None) -> None:
    near = np.array(O16002)
    near[THIRD] = O16002[BEST] - float(section("grid")["min_gap"]) + 0.01
    assert not judge._third_left_behind(_looked(), _whole(BEST), near, BEST, THIRD)


@pytest.mark.parametrize("lead", [0.1, float("nan"), -0.3])
def test_a_weak_or_unlaid_answer_to_the_third_still_declines(
        scored: None, monkeypatch: pytest.MonkeyPatch, lead: float) -> None:
    # (h10352 g047: the card the nearest card's value, its templates far behind)
    _third_leads(monkeypatch, lead)
    assert not judge._third_left_behind(_looked(), _whole(BEST), np.array(O16002), BEST, THIRD)
    assert _read(_looked(), _whole(BEST)) == (None, 0.0)


# Own 16002 g041 (4, 3), clean: a 1 over a 3 by 0.09 (templates 0.84 and 0.75), the 3's way up
# on the card unclear, so the two prints had no pair score at all (NaN) and the cell was
# declined on main 33244ce. Laid both ways, every way they fit as one said 1.
O16002_G041 = [-1.0, 0.843, -1.0, -1.0, 0.752, -1.0]


@pytest.fixture
def unclear(monkeypatch: pytest.MonkeyPatch) -> grid.GridLook:
    """Calibration as the other cases' (the nearest card a third value's, as on g041 a 0's);
    then the runner-up's way up unclear on any card read (the scores as own 16002 g041 (4, 3),
    the 3 as 4)."""
    from vision.grid import pairs
    look = _look(knn=THIRD)
    monkeypatch.setattr(judge, "match_windows", scored_alike(O16002_G041))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    real = pairs._lies_turned

    def way(look: grid.GridLook, window: np.ndarray, value: int) -> bool | None:
        return None if value == SECOND else real(look, window, value)
    monkeypatch.setattr(pairs, "_lies_turned", way)
    monkeypatch.setattr(judge, "_lies_turned", way)
    return look


def test_a_close_call_whose_runner_up_has_no_way_up_is_laid_both_ways(
        unclear: grid.GridLook) -> None:
    look, one = unclear, _whole(BEST)
    scores = np.array(O16002_G041)
    assert not np.isfinite(judge.close_pair_score(look, one, BEST, SECOND, scores))
    assert judge._close_pair_any_way(look, one, BEST, SECOND, scores) \
        >= judge._pair_needed(look, BEST, SECOND)
    value, conf = _read(look, one)
    assert value == BEST and conf > 0


def test_without_laying_both_ways_it_is_declined(unclear: grid.GridLook,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, "pair_unclear_ways": False}
                        if name == "grid" else section(name))
    assert _read(unclear, _whole(BEST)) == (None, 0.0)  # as main declined 16002 g041


def test_a_four_laid_both_ways_is_not_read_as_one(unclear: grid.GridLook) -> None:
    look, four = unclear, _whole(SECOND)
    assert judge._close_pair_any_way(look, four, BEST, SECOND, np.array(O16002_G041)) <= 0
    assert _read(look, four) == (None, 0.0)
