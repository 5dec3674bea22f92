"""Robot Master grid: a value read in the farther look (the first window's best fit was middling
while another value fitted best on its edge), while the nearest calibration card names another
value that fitted best on the first window's edge (the card may be that value, its print out of
reach), is read only when its templates fit at least ``farther_min_correlation`` (or the card's
colour names it).

Other art 13011 g011 (3, 0) and (4, 2), clean: two turned 3s on an area registered a fifth of a
cell off, their prints beyond both windows (the 3's templates were never compared at full size),
read as 1 at 0.26 and 0.22: the 1's sparse print (a numeral and one pip) fitted 0.716 and 0.711
in both windows, the 2's 0.48, the nearest calibration card a 5, on the first window's edge.
Right readings so read (other art 12124 g004, 9205 g016: 0.77 and 0.74) had their nearest
card's value off the edge: they are read as before."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.grid_area import area as _area
from tests.vision.grid_area import scored_alike
from tests.vision.test_grid_wrong3_alone_doubted import _card, _look
from vision import grid
from vision.grid import geometry, judge, templates
from vision.thresholds import section

# as 13011 g011 (3, 0) showed them: the 1 at 0.716, the 2 at 0.48, the others not compared; the
# nearest card's value (here a 3, there a 5) fitted best on the window's edge at half size
G011 = [-1.0, 0.716, 0.48, -1.0, -1.0, -1.0]
ON_EDGE = 3


def _read(knn: int, scores: list[float], monkeypatch: pytest.MonkeyPatch
          ) -> tuple[int | None, float]:
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores, ON_EDGE))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    window = geometry._window(_area({(1, 1): _card(1, np.random.default_rng(32))}), 1, 1)
    looked: list[float] = []

    def farther(scale: float) -> list[np.ndarray]:
        looked.append(scale)
        return [window]

    values, confs, _ = grid.classify(_look(knn=knn), np.zeros((1, 4), np.float32),
                                     windows=[window], farther=farther)
    assert looked  # the first window's reading was cut: looked for again, farther
    return values[0], confs[0]


def test_a_middling_fit_read_alone_farther_is_declined(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = section("grid")
    assert G011[1] < float(cfg["edge_min_correlation"])  # cut in the first window
    assert G011[1] - G011[2] >= float(cfg["min_gap"])  # read alone
    assert _read(ON_EDGE, G011, monkeypatch) == (None, 0.0)


def test_without_the_rule_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, "farther_min_correlation": 0.0}
                        if name == "grid" else section(name))
    value, conf = _read(ON_EDGE, G011, monkeypatch)
    assert value == 1 and conf > 0  # as main read 13011 g011: a 3 as 1


def test_the_nearest_card_naming_it_still_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    value, conf = _read(1, G011, monkeypatch)
    assert value == 1 and conf > 0


def test_the_nearest_card_off_the_edge_still_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    # (12124 g004 (1, 0): a 3 at 0.77, the nearest card a 5, the values on the edge 0 and 1)
    value, conf = _read(0, G011, monkeypatch)
    assert value == 1 and conf > 0


def test_the_threshold_decides(monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.79: cut in the first window (under edge_min_correlation), under the 0.8 asked farther
    value, conf = _read(ON_EDGE, [-1.0, 0.79, 0.48, -1.0, -1.0, -1.0], monkeypatch)
    assert (value, conf) == (None, 0.0)
    real = section("grid")
    monkeypatch.setattr(judge, "section", lambda name: {**real, "farther_min_correlation": 0.75}
                        if name == "grid" else section(name))
    value, conf = _read(ON_EDGE, [-1.0, 0.79, 0.48, -1.0, -1.0, -1.0], monkeypatch)
    assert value == 1 and conf > 0
