"""Robot Master grid: each box of the value marks is averaged again over its value's cards, each
card's box lined up on its own (`marks_boxes_sharpened`). Calibration lines the cards up whole,
and a card lying a little turned or larger than the first puts its far corner a pixel or two off
the mean's: that corner's numeral blurred in the mean (third art d2302: the 4s' lower numeral
nearly gone, every 4 declined by its boxes at 0.80-0.88 while its upper box fitted 0.92)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.grid_area import dice_pictures
from tests.vision.test_grid_marks import _corner_card
from vision.grid import marks
from vision.thresholds import section


def _far_corner_astray(value: int | None, rng: np.random.Generator, dx: int = 0, dy: int = 0,
                       turned: bool = False) -> np.ndarray:
    """A corner card whose lower corner numeral lies up to a pixel off where the upper one
    puts it (the card a little turned or larger), differently on every card."""
    card = _corner_card(value, rng, 0, 0, False)
    ox, oy = (int(v) for v in rng.integers(-1, 2, 2))
    corner = card[64 - 16:64 - 3, 48 - 14:48 - 3].copy()  # the numeral and its paper
    card[64 - 16:64 - 3, 48 - 14:48 - 3] = np.median(corner)
    card[64 - 16 + oy:64 - 3 + oy, 48 - 14 + ox:48 - 3 + ox] = corner
    card = np.roll(card, (dy, dx), axis=(0, 1))
    return np.ascontiguousarray(card[::-1, ::-1] if turned else card)


def _boxes_contrast(monkeypatch: pytest.MonkeyPatch, sharpened: bool) -> float:
    real = dict(section("grid"))
    monkeypatch.setattr(marks, "section", lambda name: {**real, "marks_boxes_sharpened": sharpened}
                        if name == "grid" else section(name))
    greys, grids = dice_pictures(_far_corner_astray, np.random.default_rng(5))
    learnt = marks.learn_marks(greys, grids)
    assert learnt is not None
    # how much the numerals stand out in each value's mean, over its boxes (the corner astray
    # lies at the top of the cards calibration lined up turned)
    return float(np.mean([m[y0:y1, x0:x1].astype(np.float32).std() for m in learnt.means
                          for y0, y1, x0, x1 in learnt.boxes.tolist()]))


def test_each_box_is_averaged_over_cards_lined_up_box_by_box(
        monkeypatch: pytest.MonkeyPatch) -> None:
    blurred = _boxes_contrast(monkeypatch, False)
    sharp = _boxes_contrast(monkeypatch, True)
    assert sharp > 1.05 * blurred
