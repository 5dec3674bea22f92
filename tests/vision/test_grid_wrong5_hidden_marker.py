"""Robot Master grid: with one play-area marker hidden (not found, and nothing of a marker's
size where its corner is completed), every cell read as empty is asked.

Other art h11522 re-made with grids only (gate 7, hard), g004 (1, 2): a dark hand on a dark
brown mat lay wholly over a 4 (above a 5), and the cell was read empty at 1.00 on main
(4f066fa): its colour and texture passed for the mat's, and nothing it only half covered was
declined for :func:`groups._beside_unread` to start from. Its sleeve hid a corner marker.
A marker only unread (small, soft: 4 of gate 7's 180 clean grids) still shows its black square
or its paper, and changes nothing."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.grid_area import board
from vision import grid, markers
from vision.calibration import Calibration
from vision.grid import area, groups
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid
from vision.thresholds import section


def _picture(style: Style) -> np.ndarray:
    rng = np.random.default_rng(12340)
    return render_grid(style, random_grid(rng, cards=6), rng)


def _marker(image: np.ndarray, mid: int) -> np.ndarray:
    found = markers.detect(image, markers.PLAY_AREA_IDS)
    assert mid in found
    return np.asarray(found[mid])


def _sleeve_over(image: np.ndarray, mid: int) -> np.ndarray:
    """``image`` with an arm of one plain colour (the area's own, from its middle) reaching in
    from the picture's nearest side over marker ``mid``, three of its sides wide."""
    out = image.copy()
    quad = _marker(image, mid)
    centre, side = quad.mean(axis=0), markers.side(quad)
    h, w = image.shape[:2]
    colour = [int(v) for v in np.median(image[h // 2 - 20:h // 2 + 20,
                                              w // 2 - 200:w // 2 - 160].reshape(-1, 3), axis=0)]
    edge = np.array([0.0 if centre[0] < w / 2 else w - 1, centre[1]])
    cv2.line(out, (int(edge[0]), int(edge[1])), (int(centre[0]), int(centre[1])), colour,
             int(3 * side))
    cv2.circle(out, (int(centre[0]), int(centre[1])), int(1.6 * side), colour, -1)
    return out


def _unreadable(image: np.ndarray, mid: int) -> np.ndarray:
    """``image`` with marker ``mid``'s bits blacked out: its black square and paper stay."""
    out = image.copy()
    quad = _marker(image, mid).astype(np.int32)
    cv2.fillConvexPoly(out, quad, (20, 20, 20))
    return out


def test_a_marker_under_an_arm_is_hidden_and_every_empty_reading_is_asked(
        style: Style, calibration: Calibration) -> None:
    image = _picture(style)
    obs = grid.read_grid(image, calibration.grid)
    cells = [(r, c) for r in range(5) for c in range(5)]
    empty = [(r, c) for r, c in cells if obs.cells[r][c] is None and obs.confidence[r][c] > 0]
    assert empty, "the clean picture reads its empty cells"
    covered = _sleeve_over(image, 44)
    assert area.find_area_seen(covered)[2]
    again = grid.read_grid(covered, calibration.grid)
    for r, c in cells:
        if again.cells[r][c] is None:
            assert again.confidence[r][c] == 0.0, f"({r}, {c}) read as empty"
    # a value read stays read (the arm lies at the area's corner, over no card's print)
    assert any(v is not None for row in again.cells for v in row)


def test_a_marker_shown_but_unread_is_not_hidden(style: Style) -> None:
    image = _unreadable(_picture(style), 44)
    assert len(markers.detect(image, markers.PLAY_AREA_IDS)) == 3
    assert not area.find_area_seen(image)[2]


def test_all_four_markers_hide_nothing(style: Style) -> None:
    assert not area.find_area_seen(_picture(style))[2]


def test_only_empty_readings_are_asked() -> None:
    values, confs = board(["..1..",
                           ".?23.",
                           "..4..",
                           ".....",
                           "....."], read=0.9)
    asked = groups._under_a_hidden_marker(values, confs)
    assert asked == [i for i in range(25) if values[i] is None and confs[i] > 0]
    assert 7 not in asked and 2 not in asked and 6 not in asked


def test_the_keys_are_in_the_thresholds_file() -> None:
    cfg = section("grid")
    assert bool(cfg["hidden_marker_asks_empty"])
    low, high = (float(f) for f in cfg["marker_shown_size"])
    assert 0 < low < 1 < high
    assert float(cfg["marker_shown_dark"]) < float(cfg["marker_shown_bright"])
    assert float(cfg["marker_shown_reach"]) >= 2.0
