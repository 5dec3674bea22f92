"""Robot Master grid: a value is read only where its templates correlate at least
``min_correlation_read`` (0.7, as high as every witness but the nearest calibration card
already asked), whichever witness settles a close call.

Other art h11522 g005 (2, 2), hard (gate 7): a 3 half under a hand read as 5 at confidence
0.10 on main (4f066fa): the 5's templates fitted it 0.57, the 3's 0.53, and the nearest
calibration card said 5, which let a gap of 0.05 (``min_gap_agreed`` 0.04) through at a
correlation nothing else would have read (0.5 was asked). The two prints laid on the card could
not be compared (NaN under 0.7), so the veto of an agreed close call could not speak."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_wrong3_alone_doubted import _card, _look
from vision import grid
from vision.grid import geometry, judge, templates
from vision.thresholds import section

# as h11522 g005 (2, 2) showed them, with the 5 as 4 and the 3 as 1: the best value's templates
# 0.574, the second's 0.526, the others' 0.46-0.48 (the 5's slot not compared, -1)
H11522 = [0.46, 0.526, 0.478, 0.466, 0.574, -1.0]
# a clean close call of the same kind (gate 7 clean: agreed-only readings fitted 0.77-0.96)
CLEAN = [0.46, 0.80, 0.478, 0.466, 0.85, -1.0]


def _under_a_hand(value: int) -> np.ndarray:
    card = _card(value, np.random.default_rng(32))
    w, h = geometry._cell_size()
    card[h // 2:, : w // 2] = 50  # a dark hand over a quarter of it
    return geometry._window(_area({(1, 1): card}), 1, 1)


def _read(scores: list[float], window: np.ndarray, monkeypatch: pytest.MonkeyPatch
          ) -> tuple[int | None, float]:
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    values, confs, _ = grid.classify(_look(knn=4), np.zeros((1, 4), np.float32),
                                     windows=[window])
    return values[0], confs[0]


def test_a_weak_close_call_the_nearest_card_agrees_with_is_declined(
        monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = section("grid")
    gap = H11522[4] - H11522[1]
    # the nearest card's agreement covers the gap, and no other witness could speak
    assert float(cfg["min_gap_agreed"]) <= gap < float(cfg["min_gap"])
    assert H11522[4] < float(cfg["min_correlation_alone"])
    assert _read(H11522, _under_a_hand(1), monkeypatch) == (None, 0.0)  # 4 at 0.10 on main


def test_a_clean_close_call_the_nearest_card_agrees_with_is_still_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    value, conf = _read(CLEAN, _under_a_hand(4), monkeypatch)
    assert value == 4 and conf > 0


def test_the_floor_is_in_the_thresholds_file() -> None:
    cfg = section("grid")
    assert float(cfg["min_correlation_read"]) == pytest.approx(0.7)
    assert float(cfg["min_correlation_read"]) >= float(cfg["min_correlation_alone"])
