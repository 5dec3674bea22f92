"""Robot Master grid: a value the templates read alone (a clear gap) while the nearest
calibration card names another value is read only when the two values' prints, laid on the card
and compared where they differ, do not side with that card.

Other art h10814 (hard, low light): a faint 4 fitted the 1's nearly blank print better than its
own by 0.11-0.13 and was read as 1 at confidence 0.22-0.26 (g002, g006, g010), while the nearest
calibration card said 4 and the pairwise comparison leant to the 4 (-0.08 to -0.07)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.grid_area import print_look, scored_alike
from vision import grid
from vision.grid import geometry, judge, templates
from vision.thresholds import section

# a numeral's strokes, as line segments in the card's unit square: the 1 is the 4's upright
STROKES = {1: [((0.6, 0.15), (0.6, 0.85))],
           4: [((0.6, 0.15), (0.6, 0.85)), ((0.6, 0.15), (0.2, 0.6)), ((0.2, 0.6), (0.8, 0.6))]}


def _card(value: int, rng: np.random.Generator, ink: float = 1.0) -> np.ndarray:
    """A numeral card: border, a corner index bar at its top (it tells which way up it lies)
    and the numeral's strokes at ``ink`` of their full darkness."""
    w, h = geometry._cell_size()
    card = np.full((h, w), 215.0, np.float32)
    cv2.rectangle(card, (2, 2), (w - 3, h - 3), 120, 1)
    cv2.rectangle(card, (8, 8), (16, 12), 60, -1)
    strokes = np.zeros((h, w), np.float32)
    for (x0, y0), (x1, y1) in STROKES.get(value, []):
        cv2.line(strokes, (round(8 + x0 * (w - 16)), round(14 + y0 * (h - 24))),
                 (round(8 + x1 * (w - 16)), round(14 + y1 * (h - 24))), 1.0, 4)
    card -= strokes * (215 - 40) * ink
    return np.asarray(np.clip(card + rng.normal(0, 3, card.shape), 0, 255).astype(np.uint8))


def _look(knn: int) -> grid.GridLook:
    """Calibration: three pictures of 1s and 4s (and the other values' plain cards); every cell
    is nearest to a calibration card of ``knn``."""
    rng = np.random.default_rng(31)
    greys, grids = [], []
    for _ in range(3):
        cards, labels = {}, [[None] * 5 for _ in range(5)]
        for k, v in enumerate([1, 4, 1, 4, 0, 2, 3, 5, 1, 4]):
            r, c = divmod(k, 5)
            cards[(r, c)] = _card(v, rng)
            labels[r][c] = v
        greys.append(_area(cards))
        grids.append(labels)
    return print_look(greys, grids, knn)


def _read(look: grid.GridLook, value: int, ink: float = 1.0) -> tuple[int | None, float]:
    rng = np.random.default_rng(32)
    window = geometry._window(_area({(1, 1): _card(value, rng, ink)}), 1, 1)
    values, confs, _ = grid.classify(look, np.zeros((1, 4), np.float32), windows=[window])
    return values[0], confs[0]


# as h10814 g002 (1, 1) showed them: the 1's templates 0.85, the 4's 0.73
H10814 = [0.3, 0.85, 0.3, 0.3, 0.73, 0.3]


def test_a_faint_four_the_templates_call_one_is_declined_when_the_nearest_card_says_four(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert H10814[1] - H10814[4] >= float(section("grid")["min_gap"])  # read alone on main
    monkeypatch.setattr(judge, "match_windows", scored_alike(H10814))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    look = _look(knn=4)
    faint_four = geometry._window(_area({(1, 1): _card(4, np.random.default_rng(32), 0.5)}), 1, 1)
    assert grid.pair_score(look, faint_four, 1, 4) < 0  # its print leans to the 4
    assert _read(look, 4, ink=0.5) == (None, 0.0)


def test_a_one_the_nearest_card_disputes_is_still_read_when_its_print_says_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(judge, "match_windows", scored_alike(H10814))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    value, conf = _read(_look(knn=4), 1)
    assert value == 1 and conf > 0


def test_no_pairwise_comparison_leaves_the_reading_alone(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # a calibration stored before the pairwise step (no offsets learnt): NaN, as before
    monkeypatch.setattr(judge, "match_windows", scored_alike(H10814))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    look = dataclasses.replace(_look(knn=4), print_offsets=np.full((6, 2), np.nan))
    assert _read(look, 4, ink=0.5)[0] == 1


def test_the_floor_is_in_the_thresholds_file() -> None:
    assert float(section("grid")["alone_pair_floor"]) == pytest.approx(0.1)
