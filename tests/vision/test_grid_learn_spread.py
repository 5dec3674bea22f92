"""Robot Master calibration: the spread of the calibration's own cells (which sets how far a
cell may lie from every example and still be read) leaves each cell itself out by where it
lies among the examples. Left out by a distance under 1e-6, most cells stayed their own
nearest neighbour: float32 distances of a row to itself come out at 0.0005-0.001 (62 of 200
cells were left out on the other-art and own-art sets), which shrank the spread by up to a
sixth and declined cards a little unlike the calibration's as "like nothing seen"."""

from __future__ import annotations

import numpy as np

from vision.calibration import Calibration
from vision.grid import learning
from vision.thresholds import section


def test_the_unshifted_rows_are_the_plain_examples(calibration: Calibration) -> None:
    look = calibration.grid
    pictures = len(look.features) // 250  # 5 shifts, turned or not, 25 cells
    assert pictures * 250 == len(look.features)
    rows = learning._unshifted_rows(pictures)
    assert len(rows) == pictures * 25
    # a picture's unshifted cells carry its labels in reading order (top row first)
    for p in range(pictures):
        block = look.classes[rows[p * 25:(p + 1) * 25]]
        turned = look.classes[rows[p * 25:(p + 1) * 25] + 25]  # the same cells turned
        assert list(turned) == list(block[::-1])


def test_the_spread_leaves_each_cell_itself_out(calibration: Calibration) -> None:
    look = calibration.grid
    pictures = len(look.features) // 250
    rows = learning._unshifted_rows(pictures)
    feats = look.features.astype(np.float64)
    plain = feats[rows]
    d = np.sqrt(((plain[:, None, :] - feats[None, :, :]) ** 2).sum(axis=2))
    assert d[np.arange(len(rows)), rows].max() == 0.0  # exactly themselves, in float64
    d[np.arange(len(rows)), rows] = np.inf
    same = np.where(look.classes[rows][:, None] == look.classes[None, :], d, np.inf).min(axis=1)
    # no cell's nearest example of its class is itself: a copy shifted by 3 pixels at least
    assert same.min() > 0.01
    spread = float(np.percentile(same[np.isfinite(same)], 95))
    factor = float(section("grid")["max_distance_factor"])
    assert abs(look.max_distance - spread * factor) <= 1e-3 * spread * factor
