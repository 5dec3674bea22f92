"""Of the cards found at different edge levels, the larger is kept only when its print is not
much less like the calibration cards' (order._largest_over_levels, `[order]`
`larger_likeness_drop`).

Blind third art g2635 o014 (batch 22): an upright blue-yellow-green card held over a checked
cloth, a thumb under its lower edge. The card was found at every edge level, a little larger at
each lower one, and no two levels in a row agreed on its size: at the lowest the card's edge had
joined a strip of the checks above and beside it. That outline, the largest, was kept. Its print
was 0.29 like the calibration cards' against the card's 0.50 at the highest level; lined up, the
robot sat shifted in it, both way-up cues said "turned", and the card was read
green-yellow-blue at full confidence.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import order
from vision.calibration import calibrate
from vision.dataset import load_labelled
from vision.thresholds import section

ROBOT = "blue-yellow-green"


@pytest.fixture(scope="module")
def held_over_checks(tmp_path_factory: pytest.TempPathFactory
                     ) -> tuple[np.ndarray, order.OrderLook]:
    """g2635's tile and order calibration pictures and its fourteenth order picture, drawn
    again as ``thirdart.build`` draws them (the thirteen rounds of tiles, order and grid
    pictures before it drawn too: each takes from the same random stream)."""
    from tests.vision.thirdart.build import as_sent, calibration, test_shot
    from tests.vision.thirdart.style import make_style

    folder = Path(tmp_path_factory.mktemp("g2635"))
    style = make_style(2635)
    calibration(folder, style, np.random.default_rng([2635, 1]), grids=False)
    look = calibrate(load_labelled(folder, Config()), Config()).order
    shot = test_shot(style, 2635, False, "o014.jpg")
    assert shot.label["robot"] == ROBOT
    return as_sent(shot), look


def _drop(monkeypatch: pytest.MonkeyPatch, value: float) -> None:
    set_thresholds(monkeypatch, order, "order", larger_likeness_drop=value)


def test_the_card_over_checks_is_read_upright(
        held_over_checks: tuple[np.ndarray, order.OrderLook]) -> None:
    image, look = held_over_checks
    assert order.read_order(image, look).reading.robot == ROBOT


def test_keeping_the_largest_alone_read_it_turned(
        held_over_checks: tuple[np.ndarray, order.OrderLook],
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, look = held_over_checks
    _drop(monkeypatch, math.inf)
    reading = order.read_order(image, look).reading
    assert reading.robot == "green-yellow-blue" and reading.confidence > 0.5


def _square(side: float) -> np.ndarray:
    return np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32)


def test_a_larger_card_printed_much_less_alike_is_not_taken() -> None:
    drop = float(section("order")["larger_likeness_drop"])
    cards = {3.0: _square(10), 2.0: _square(11), 1.0: _square(14)}
    liking = {10: 0.5, 11: 0.5 - drop / 2, 14: 0.5 - 2 * drop}

    def liked(quad: np.ndarray) -> float:
        return liking[round(float(quad[1, 0]))]

    def side(quad: np.ndarray | None) -> float:
        assert quad is not None
        return float(quad[1, 0])

    def find(level: float) -> np.ndarray | None:
        return cards.get(level)

    levels = [3.0, 2.0, 1.0]
    # without the print asked, the largest; with it, the larger a little less alike, not the
    # largest, much less alike
    assert side(order._largest_over_levels(levels, find, None)) == 14
    assert side(order._largest_over_levels(levels, find, None, liked)) == 11
