"""Robot Master grid: a value named by its templates alone (neither the nearest calibration card
nor the card's colour says it) while another value fits best on the window's edge must fit at
least ``edge_unsupported_min_correlation``, above ``edge_min_correlation``; under it the card may
be that other value lying farther out than the window reaches, and it is looked for again in a
window reaching farther (as a value fitting under ``edge_min_correlation`` always is).

Blind own art 45002 g011 (gate 40): a green 1 in the last column lay a third of a cell right of
its cell's middle. In its window the 2's templates fitted 0.814, the 1's 0.661 on the window's
edge; the nearest calibration card was a 0's and the cell's middle, half table, named no colour.
0.814 passed ``edge_min_correlation`` (0.8), and the 1 was read as 2, alone, at 0.24. Looked
for farther out, the cell is now declined."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.vision.grid_area import fixed_match
from tests.vision.test_grid_cut_card_off_its_cell import look as look  # (a fixture)
from tests.vision.test_grid_wrong_faint_print import _area, _card
from vision import grid
from vision.grid import geometry, judge, templates
from vision.thresholds import section

# g011 (3, 4) as main read it: the 2 at 0.814, the 1 at 0.661 on the window's edge
NEAR = [-1.0, 0.661, 0.814, 0.695, -1.0, 0.684]
FAR = [-1.0, 0.95, 0.78, 0.70, -1.0, 0.69]  # farther out the 1's whole print shows


def _classify(look: grid.GridLook, monkeypatch: pytest.MonkeyPatch, near: list[float],
              nearest: int, bar: float | None = None, far: list[float] = FAR
              ) -> tuple[int | None, float]:
    """A 1 in cell (1, 1) whose nearest calibration card is a ``nearest``; its window's
    templates score ``near`` with the 1 on the edge, a window reaching farther ``far``. The
    witnesses that lay two prints on the card say nothing (as on g011, none doubted the 2)."""
    monkeypatch.setattr(judge, "match_windows", fixed_match(near, 1, far, None))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    for doubt in ("_alone_doubted", "_unpaired_doubted", "_runner_up_doubted", "_marks_doubt"):
        monkeypatch.setattr(judge, doubt, lambda *a, **k: False)
    monkeypatch.setattr(judge, "print_strengths", lambda look, views, values: [1.0] * len(views))
    if bar is not None:
        real = section("grid")
        changed: dict[str, Any] = {"edge_unsupported_min_correlation": bar}
        monkeypatch.setattr(judge, "section",
                            lambda name: {**real, **changed} if name == "grid" else section(name))
    g = _area({(1, 1): _card(1, np.random.default_rng(9))})
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    reach = int(section("grid")["cut_search_extra"])
    wide = np.pad(g, reach, mode="edge")
    farther = [geometry._window(wide, r, c, geometry.SEARCH + reach, geometry.MARGIN + reach)
               for r in range(5) for c in range(5)]
    feats = np.zeros((25, 6), np.float32)
    feats[6] = np.eye(6, dtype=np.float32)[nearest]
    values, confidences, _ = grid.classify(look, feats, windows=windows,
                                           settled=lambda _: set(range(25)) - {6},
                                           farther=lambda scale: farther)
    return values[6], confidences[6]


def test_the_bar_lies_between_the_wrong_fit_and_the_edge_bar() -> None:
    cfg = section("grid")
    assert cfg["edge_min_correlation"] <= NEAR[2] < cfg["edge_unsupported_min_correlation"]
    assert NEAR[2] - max(NEAR[1], NEAR[3], NEAR[5]) >= cfg["min_gap"]  # read alone on main


def test_without_the_bar_the_templates_alone_read_the_1_as_2(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    bar = float(section("grid")["edge_min_correlation"])
    value, confidence = _classify(look, monkeypatch, NEAR, nearest=0, bar=bar)
    assert value == 2 and confidence > 0  # as main read g011


def test_with_the_bar_the_card_is_looked_for_farther_out_and_asked(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    # farther out another value fits best than the one its window's tests passed: asked, as
    # any cut card whose value changes farther out is (g011 (3, 4) is now declined)
    assert _classify(look, monkeypatch, NEAR, nearest=0)[1] == 0


def test_a_2_that_still_fits_best_farther_out_is_read(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    value, confidence = _classify(look, monkeypatch, NEAR, nearest=0,
                                  far=[-1.0, 0.66, 0.93, 0.70, -1.0, 0.69])
    assert value == 2 and confidence > 0


def test_the_nearest_card_naming_the_value_reads_it_in_its_window(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    # the bar asks only the templates' lone word: agreed by the nearest card, the 2 is read
    value, confidence = _classify(look, monkeypatch, NEAR, nearest=2)
    assert value == 2 and confidence > 0


def test_a_value_the_templates_fit_well_is_read_in_its_window(
        look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    value, confidence = _classify(look, monkeypatch, [-1.0, 0.661, 0.9, 0.695, -1.0, 0.684],
                                  nearest=0)
    assert value == 2 and confidence > 0
