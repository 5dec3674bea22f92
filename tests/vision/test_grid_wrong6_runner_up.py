"""Robot Master grid: a value the templates read alone while the nearest calibration card names a
third value (neither the best nor the templates' runner-up) is read only when the two prints of
the best and the runner-up, laid on the card, favour the best by ``alone_pair_floor``.

Other art h12162 g010 (2, 2), hard: a quarter-turned 3 in a dim picture, a dark finger over its
end, read as 2 at 0.20 on main (the 2's templates 0.73, the 3's 0.53, the others not compared);
the nearest calibration card was a 5 (the 2 and 5 prints laid on the card: NaN every way), and
the 2 and 3 prints laid on the card said 3 by 0.19."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_wrong3_alone_doubted import _card, _look
from vision import grid
from vision.grid import geometry, judge, templates
from vision.thresholds import section

# as h12162 g010 (2, 2) showed them, with the 2 as 1 and the 3 as 4: the best value's templates
# 0.73, the runner-up's 0.53, the rest not compared (-1)
H12162 = [-1.0, 0.73, -1.0, -1.0, 0.53, -1.0]
THIRD = 0  # the nearest calibration card's value: neither of the two (h12162: a 5)


def _whole(value: int) -> np.ndarray:
    return geometry._window(_area({(1, 1): _card(value, np.random.default_rng(32))}), 1, 1)


def _read(look: grid.GridLook, window: np.ndarray) -> tuple[int | None, float]:
    values, confs, _ = grid.classify(look, np.zeros((1, 4), np.float32), windows=[window])
    return values[0], confs[0]


@pytest.fixture
def scored(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "match_windows", scored_alike(H12162))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)


def test_a_four_the_templates_call_one_is_declined_when_the_nearest_card_names_a_third(
        scored: None) -> None:
    assert H12162[1] - H12162[4] >= float(section("grid")["min_gap"])  # read alone on main
    look, four = _look(knn=THIRD), _whole(4)
    # the older doubts let it through: the nearest card's value does not side against the 1
    assert not judge._alone_doubted(look, four, 1, THIRD)
    assert not judge._unpaired_doubted(look, four, 1, THIRD)
    assert grid.pair_score(look, four, 1, 4) < float(section("grid")["alone_pair_floor"])
    assert _read(look, four) == (None, 0.0)


def test_without_the_rule_it_reads_as_one(scored: None, monkeypatch: pytest.MonkeyPatch) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, "alone_asks_runner_up": False}
                        if name == "grid" else section(name))
    value, conf = _read(_look(knn=THIRD), _whole(4))
    assert value == 1 and conf > 0  # as main read h12162 g010: the runner-up's value, wrong


def test_a_one_with_the_same_scores_is_still_read(scored: None) -> None:
    look, one = _look(knn=THIRD), _whole(1)
    assert grid.pair_score(look, one, 1, 4) >= float(section("grid")["alone_pair_floor"])
    value, conf = _read(look, one)
    assert value == 1 and conf > 0


def test_the_nearest_card_naming_the_best_or_the_runner_up_or_none_asks_nothing() -> None:
    four = _whole(4)
    for knn in (1, 4, grid.PRINT_ONLY):
        assert not judge._runner_up_doubted(_look(knn=4), four, 1, 4, knn)


def test_the_switch_is_in_the_thresholds_file() -> None:
    assert section("grid")["alone_asks_runner_up"] is True


def _half_under_a_hand(value: int) -> np.ndarray:
    """The window of a card of ``value`` in cell (1, 1), its right half under a dark hand."""
    card = _card(value, np.random.default_rng(32))
    w, _ = geometry._cell_size()
    card[:, w // 2:] = 50
    return geometry._window(_area({(1, 1): card}), 1, 1)


def _no_pair_score(look: grid.GridLook, window: np.ndarray, a: int, b: int) -> bool:
    return not any(np.isfinite(grid.pair_score(look, window, a, b, ways=(x, y)))
                   for x in (False, True) for y in (False, True))


def test_where_the_two_prints_cannot_be_laid_on_the_card_the_mean_prints_are_asked(
        scored: None) -> None:
    # own art h12304 g035 (1, 3): a 3 read as 1 alone, the nearest card a 5's, no pair score of
    # the 1 and the 3, the 3's mean print fitting the card as well as the 1's
    look, four = _look(knn=THIRD), _half_under_a_hand(4)
    assert _no_pair_score(look, four, 1, 4)
    assert judge._mean_fit(look, four, 4) > judge._mean_fit(look, four, 1)
    assert judge._runner_up_doubted(look, four, 1, 4, THIRD)
    assert _read(look, four) == (None, 0.0)


def test_a_one_half_under_a_hand_is_still_read_when_its_mean_print_fits_best(
        scored: None) -> None:
    look, one = _look(knn=THIRD), _half_under_a_hand(1)
    assert _no_pair_score(look, one, 1, 4)
    assert not judge._runner_up_doubted(look, one, 1, 4, THIRD)
    value, conf = _read(look, one)
    assert value == 1 and conf > 0
