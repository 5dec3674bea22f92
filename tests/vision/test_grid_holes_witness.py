"""Robot Master grid values, the holes witness: a close call the templates and the two prints
laid on the card leave open is read as the nearest calibration card's value when the print's
holes say that value too (:func:`vision.grid.holes_read`).

Own art 10608: white numerals on red-brown cards on a red-brown table, the cards tilted; 0, 3
and 5 fit their templates alike (0.78-0.86) and the pairwise score stays under its bar. A 0's
closed ring is what tells it from a 3 or a 5, whichever way the card is turned or tilted.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision import grid_area
from vision import grid
from vision.grid import geometry, judge, pairs
from vision.thresholds import section


def _card(value: int, rng: np.random.Generator, tilt: float = 0.0) -> np.ndarray:
    """A red-brown card (grey 90) filling its cell, a white frame and a white numeral, turned
    by ``tilt`` degrees."""
    w, h = geometry._cell_size()
    card = np.full((h, w), 90, np.uint8)
    cv2.rectangle(card, (1, 1), (w - 2, h - 2), 235, 2)
    cv2.putText(card, str(value), (w // 2 - 13, h // 2 + 15), cv2.FONT_HERSHEY_SIMPLEX, 1.2,
                235, 4, cv2.LINE_AA)
    card = np.clip(card.astype(np.int16) + rng.integers(-4, 5, card.shape), 0, 255)
    card = card.astype(np.uint8)
    if tilt:
        turn = cv2.getRotationMatrix2D((w / 2, h / 2), tilt, 1.0)
        card = cv2.warpAffine(card, turn, (w, h), borderValue=90)
    return card


def _look() -> grid.GridLook:
    templates, values, masks = grid_area.learnt_templates(_card)
    return grid.GridLook(templates=templates, template_values=values, template_masks=masks)


def _window(value: int, tilt: float) -> np.ndarray:
    """The card's search window: the cell and ``grid.SEARCH`` pixels of table around it."""
    w, h = geometry._cell_size()
    window = np.full((h + 2 * grid.SEARCH, w + 2 * grid.SEARCH), 90, np.uint8)
    window[grid.SEARCH:grid.SEARCH + h, grid.SEARCH:grid.SEARCH + w] = _card(
        value, np.random.default_rng(11), tilt)
    return window


def _scores(**by_value: float) -> np.ndarray:
    scores = np.full(6, 0.5)
    for name, s in by_value.items():
        scores[int(name[1:])] = s
    return scores


@pytest.fixture(autouse=True)
def _pairwise_says_little(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two prints laid on the card lean to neither value (only the holes decide)."""
    monkeypatch.setattr(judge, "pair_score", lambda look, window, a, b, ways=None: 0.0)
    monkeypatch.setattr(pairs, "pair_score", judge.pair_score)


def test_calibration_learns_which_values_have_a_hole() -> None:
    holed = judge._value_holed(_look())
    assert holed[0] == 1 and holed[3] == 0 and holed[5] == 0


def test_a_tilted_0_the_templates_rank_second_is_read_as_0() -> None:
    """Templates 5 over 0 by 0.02, the nearest calibration card 0, the print has a hole."""
    look, window = _look(), _window(0, 6.0)
    assert grid.holes_tell(look, window, 5, 0) == 0
    assert grid.holes_read(look, window, _scores(v5=0.82, v0=0.80), 5, 0, knn_value=0)


def test_a_tilted_5_the_templates_rank_second_is_read_as_5() -> None:
    look, window = _look(), _window(5, -6.0)
    assert grid.holes_tell(look, window, 0, 5) == 5
    assert grid.holes_read(look, window, _scores(v0=0.83, v5=0.80), 0, 5, knn_value=5)


def test_the_holes_and_the_nearest_card_must_agree() -> None:
    """A 5 (no hole) whose nearest calibration card says 0 is not read at all."""
    look, window = _look(), _window(5, -6.0)
    assert not grid.holes_read(look, window, _scores(v0=0.83, v5=0.80), 0, 5, knn_value=0)


def test_a_third_value_the_holes_cannot_tell_apart_keeps_it_declined() -> None:
    """0 over 3 by 0.01 and 5 just behind: no hole rules out the 0 but not the 5."""
    look, window = _look(), _window(3, 5.0)
    scores = _scores(v0=0.80, v3=0.79, v5=0.78)
    assert not grid.holes_read(look, window, scores, 0, 3, knn_value=3)
    scores[5] = 0.70
    assert grid.holes_read(look, window, scores, 0, 3, knn_value=3)


def test_the_two_prints_laid_on_the_card_may_not_lean_the_other_way(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Own art h10802 g002: a blurred 5 under a hand showed a hole, its nearest calibration
    card said 0, the templates 5 by 0.05 and the pairwise score 5 by 0.21: declined. So is a
    card the pairwise score cannot judge at all (NaN)."""
    look, window = _look(), _window(0, 6.0)
    scores = _scores(v5=0.82, v0=0.80)
    against = float(section("grid")["holes_pair_against"])
    for lean in (-0.21, -against, float("nan")):
        monkeypatch.setattr(judge, "pair_score", lambda look, window, a, b, ways=None, s=lean: s)
        monkeypatch.setattr(pairs, "pair_score", judge.pair_score)
        assert not grid.holes_read(look, window, scores, 5, 0, knn_value=0), lean
    monkeypatch.setattr(judge, "pair_score", lambda look, window, a, b, ways=None: -0.07)
    monkeypatch.setattr(pairs, "pair_score", judge.pair_score)
    assert grid.holes_read(look, window, scores, 5, 0, knn_value=0)


def test_no_witness_when_the_templates_are_apart_or_weak() -> None:
    look, window = _look(), _window(0, 6.0)
    assert not grid.holes_read(look, window, _scores(v5=0.92, v0=0.80), 5, 0, knn_value=0)
    assert not grid.holes_read(look, window, _scores(v5=0.69, v0=0.68), 5, 0, knn_value=0)


def _classified(monkeypatch: pytest.MonkeyPatch, value: int, nearest_value: int
                ) -> tuple[int | None, float]:
    """The cell (1, 1) holding a tilted card of ``value``, nearest to the ``nearest_value``
    calibration card, its templates scoring 5 over 0 by 0.02 and the two prints laid on the
    card saying nothing (pair score 0): only the holes may settle it."""
    look = grid_area.witnesses_alike(monkeypatch, [0.80, 0.5, 0.5, 0.5, 0.5, 0.82], _look())
    g = grid_area.area({(1, 1): _card(value, np.random.default_rng(11), 6.0)})
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    feats = np.zeros((25, 6), np.float32)
    feats[6, nearest_value] = 0.9
    values, confidences, _ = grid.classify(look=look, feats=feats, windows=windows,
                                           settled=lambda _: set(range(25)) - {6},
                                           colours=np.zeros((25, 3), np.float32))
    return values[6], confidences[6]


def test_the_reader_reads_the_value_the_hole_and_the_nearest_card_name(
        monkeypatch: pytest.MonkeyPatch) -> None:
    value, confidence = _classified(monkeypatch, 0, nearest_value=0)
    assert value == 0 and confidence > 0
    # a 5 (no hole) the nearest calibration card calls 0: still declined
    assert _classified(monkeypatch, 5, nearest_value=0)[1] == 0.0
