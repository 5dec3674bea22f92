"""Robot Master grid: a cell farther than ``max_distance`` from every calibration card where it
lies, found near one only from a shifted place, is kept only when its value's templates fit at least
``astride_min_correlation`` (above ``min_correlation_read``).

Hard own art h20021 g038 (1, 3), on main 9e66b83: a 2 with a dark finger over it, like no
calibration card where it lay, nearest a 3's once shifted; the 3's templates fitted 0.73 against
the 0's 0.56, so the 3 was read alone and agreed, at 0.24. The cells so found and read right on
clean sets fitted 0.83 and more."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_cut_card_off_its_cell import _classify
from tests.vision.test_grid_cut_card_off_its_cell import look as look  # (a fixture)
from tests.vision.test_grid_wrong_faint_print import _area, _card
from vision import grid
from vision.grid import geometry, judge, templates
from vision.thresholds import section

# as h20021 g038 (1, 3) showed them, with the 3 as 2 (the value the shifted view names in
# _classify): the best value's templates 0.73, the 0's 0.56, the rest not compared (-1)
H20021 = [0.56, -1.0, 0.73, -1.0, -1.0, -1.0]


def _scored(monkeypatch: pytest.MonkeyPatch, scores: list[float]) -> None:
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)


def _with(monkeypatch: pytest.MonkeyPatch, **changed: float) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, **changed}
                        if name == "grid" else section(name))


def test_the_bar_lies_between_the_wrong_fit_and_the_right_ones() -> None:
    cfg = section("grid")
    assert cfg["min_correlation_read"] <= H20021[2] < cfg["astride_min_correlation"] <= 0.83
    assert H20021[2] - H20021[0] >= cfg["min_gap"]  # read alone on main


def test_a_cell_found_only_from_a_shifted_place_fitting_weakly_is_declined(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    _scored(monkeypatch, H20021)
    assert _classify(look, shifted_near=True) == (None, 0.0)


def test_without_the_bar_it_is_read(look: grid.GridLook,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _scored(monkeypatch, H20021)
    _with(monkeypatch, astride_min_correlation=float(section("grid")["min_correlation_read"]))
    value, confidence = _classify(look, shifted_near=True)
    assert value == 2 and confidence > 0  # as main read h20021 g038: the wrong value


def test_a_cell_so_found_fitting_well_is_read(look: grid.GridLook,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    _scored(monkeypatch, [0.56, -1.0, 0.85, -1.0, -1.0, -1.0])
    value, confidence = _classify(look, shifted_near=True)
    assert value == 2 and confidence > 0


def test_a_cell_near_a_calibration_card_where_it_lies_asks_only_the_usual_fit(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    _scored(monkeypatch, H20021)
    g = _area({(1, 1): _card(2, np.random.default_rng(9))})
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    feats = np.zeros((25, 6), np.float32)
    feats[6] = np.eye(6, dtype=np.float32)[2] * 0.9  # 0.1 from the 2's card: no shift asked

    def never(cells: list[int]) -> list[np.ndarray]:
        raise AssertionError(f"shifted views asked for {cells}")

    values, confidences, _ = grid.classify(look, feats, windows=windows,
                                           settled=lambda _: set(range(25)) - {6},
                                           shifted=never)
    assert values[6] == 2 and confidences[6] > 0
