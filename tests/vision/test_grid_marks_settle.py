"""Robot Master grid, corner looks: the marks settle what they doubt. A close call the templates
read (they see the same robot in the middle of every card) whose marks name another value was
declined; where the marks would read that card as surely as one every rule declined, they read
it (third art d2310 g003: a 3 read as 5 by its templates at 0.02, its marks saying 3 by 0.73;
77 such cards on the corner sets, the marks right on every one). And a value the templates did
not compare at full size (score -1) is not held to their score (43 cards, all right)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision import grid_area
from tests.vision.test_grid_marks import _corner_card, _window
from tests.vision.test_grid_marks import look as look  # (a fixture: the corner look)
from vision import grid
from vision.grid import geometry, judge
from vision.thresholds import section


def _with(monkeypatch: pytest.MonkeyPatch, **changes: object) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section",
                        lambda name: {**real, **changes} if name == "grid" else section(name))


def _classified(monkeypatch: pytest.MonkeyPatch, look: grid.GridLook, value: int
                ) -> tuple[int | None, float]:
    """The cell (2, 2) holding a corner card of ``value``, its templates reading 3 over 5 by
    0.11 (alone: a close call only to the marks, marks_doubt_gap) and the nearest calibration
    card a 3."""
    classed = grid_area.witnesses_alike(monkeypatch, [0.80, 0.80, 0.80, 0.95, 0.80, 0.84], look)
    g = grid_area.area({(2, 2): _corner_card(value, np.random.default_rng(9))})
    windows = [np.asarray(geometry._window(g, r, c), np.float32)
               for r in range(5) for c in range(5)]
    feats = np.zeros((25, 6), np.float32)
    feats[12, 3] = 0.9
    values, confidences, _ = grid.classify(look=classed, feats=feats, windows=windows,
                                           settled=lambda _: set(range(25)) - {12},
                                           colours=np.zeros((25, 3), np.float32))
    return values[12], confidences[12]


def test_a_close_call_the_marks_doubt_is_read_as_their_value(
        monkeypatch: pytest.MonkeyPatch, look: grid.GridLook) -> None:
    value, confidence = _classified(monkeypatch, look, 5)
    assert value == 5 and confidence > 0
    # the close call the marks confirm is read as before
    value, confidence = _classified(monkeypatch, look, 3)
    assert value == 3 and confidence > 0


def test_without_settling_a_doubted_close_call_is_declined(
        monkeypatch: pytest.MonkeyPatch, look: grid.GridLook) -> None:
    _with(monkeypatch, marks_settle_doubted=False)
    assert _classified(monkeypatch, look, 5)[1] == 0.0


def test_a_value_the_templates_left_unrefined_is_read_by_its_marks(
        monkeypatch: pytest.MonkeyPatch, look: grid.GridLook) -> None:
    window = _window(_corner_card(2, np.random.default_rng(4)))
    scores = np.full(6, 0.9)
    scores[2] = -1.0  # more than refine_margin behind at half size: never compared at full
    marked = judge._marked(look, window, scores, None)
    assert marked is not None and marked.value == 2
    assert judge._marked(look, window, scores, 4) is None  # its colour names another value
    _with(monkeypatch, marks_unrefined_value=False)
    assert judge._marked(look, window, scores, None) is None


def test_an_unrefined_value_read_by_its_marks_is_not_taken_away_as_weak() -> None:
    cfg = dict(section("grid"))
    scores = np.full(6, 0.9)
    scores[2] = -1.0
    assert not judge._marks_weak(cfg, scores, 2, False)
    scores[3] = 0.5  # compared, and fitting under min_correlation_read: weak as before
    assert judge._marks_weak(cfg, scores, 3, False)
    assert judge._marks_weak({**cfg, "marks_unrefined_value": False}, scores, 2, False)
