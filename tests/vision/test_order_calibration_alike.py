"""Order card calibration: cards held small beside a board whose lanes are the largest outline.

Other art 18014 (gate 13) and 12156, 13543, ordo17015: in some calibration pictures the largest
card-shaped outline is a board, or two or three of its lanes framed by its margin, whose
colours the labelled robot has, so no rule on the label's colours passes over it; the cards
held beside it are smaller than the least a card is looked for at before calibration (0.04 of
the picture; 18014's were 0.03). Calibration then learnt nothing (no part place the outlines
agree on) or one card alone, and every order card of the set was declined. A calibration that
learnt from fewer than two cards looks for them again among every outline that may be one, and
takes the outlines whose prints are most alike: the cards, printed alike, not the lanes.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.config import Config
from tests.vision.test_order_calibration_label import _model
from vision import order
from vision.colour import hex_to_bgr01

NAMES = ["red", "green", "blue", "yellow"]
BGR = {name: tuple(float(v) * 255 for v in hex_to_bgr01(Config().game.display[name]))
       for name in NAMES}
ROBOTS = [("red", "green", "blue"), ("green", "blue", "yellow"),
          ("blue", "yellow", "red"), ("yellow", "red", "green")]
CARD = (760, 260, 130, 186)  # x, y, width, height: 0.026 of the picture


def _picture(robot: tuple[str, str, str], seed: int, board: bool = True,
             scale: float = 1.0) -> np.ndarray:
    """A wooden table; on the left, where ``board``, two lanes of a board (the robot's head and
    legs colours) framed by its grey margin, larger than the card; on the right a small held
    card: a dark rim, pale paper, a title, head, torso and legs (two wheels), ``scale`` times
    its size."""
    image = np.full((720, 1280, 3), (70, 110, 150), np.float64)
    if board:
        image[120:600, 150:480] = (120, 124, 128)
        image[140:580, 170:310] = BGR[robot[0]]
        image[140:580, 320:460] = BGR[robot[2]]
    x, y, w, h = CARD

    def paint(x0: float, y0: float, x1: float, y1: float, bgr: tuple[float, ...]) -> None:
        image[y + round(y0 * scale):y + round(y1 * scale),
              x + round(x0 * scale):x + round(x1 * scale)] = bgr

    paint(0, 0, w, h, (40, 60, 40))
    paint(6, 6, w - 6, h - 6, (225, 235, 238))
    paint(30, 14, 100, 20, (60, 60, 60))  # the title
    paint(45, 30, 85, 66, BGR[robot[0]])
    paint(35, 72, 95, 120, BGR[robot[1]])
    paint(36, 128, 58, 168, BGR[robot[2]])
    paint(72, 128, 94, 168, BGR[robot[2]])
    image += np.random.default_rng(seed).normal(0, 3, image.shape)
    return cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0)


def _on_the_card(quad: np.ndarray) -> bool:
    x, y, w, h = CARD
    centre = quad.mean(axis=0)
    return bool(x <= centre[0] <= x + w and y <= centre[1] <= y + h)


def _examples() -> list[tuple[np.ndarray, str]]:
    return [(_picture(r, seed=i), "-".join(r)) for i, r in enumerate(ROBOTS)]


def test_the_lanes_are_the_largest_outline_and_the_card_too_small_to_be_one() -> None:
    # the cause: the lanes (colours the label has, no paper) are taken, the card never seen
    image = _picture(ROBOTS[0], seed=0)
    quad = order.find_card(image)
    assert not _on_the_card(quad)


def test_the_outlines_that_may_be_the_card_hold_the_small_card(config: Config) -> None:
    image, robot = _examples()[0]
    outlines = order._card_outlines(image, robot, _model(config))
    assert outlines and any(_on_the_card(q) for q in outlines)
    # the lanes show no paper round a robot: they are no calibration card
    assert not any(_on_the_card(q) is False and cv2.contourArea(q) > 0.08 * 1280 * 720
                   for q in outlines)


def test_the_most_alike_outlines_are_the_cards(config: Config) -> None:
    chosen = order._alike_outlines(_examples(), _model(config))
    assert chosen is not None
    assert all(c is not None and _on_the_card(c[0]) for c in chosen)


def test_cards_held_small_beside_lanes_are_learnt_and_read(config: Config) -> None:
    look = order.learn(_examples(), _model(config))
    assert look.learnt and not look.declines
    assert look.aspect is not None and abs(look.aspect - 186 / 130) < 0.1  # the card's shape
    for robot in [("yellow", "blue", "yellow"), ("blue", "red", "green")]:
        image = _picture(robot, seed=9, board=False)
        assert order.read_order(image, look).reading.robot == "-".join(robot)


def test_a_calibration_whose_cards_are_found_first_is_learnt_as_before(
        config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    # cards held nearer (0.05 of the picture) are the largest outlines, boards or not: what
    # calibration learns from them is not looked for again

    def fail(*_: object) -> None:
        raise AssertionError("looked for the cards again")

    monkeypatch.setattr(order, "_alike_outlines", fail)
    examples = [(_picture(r, seed=i, board=False, scale=1.4), "-".join(r))
                for i, r in enumerate(ROBOTS)]
    assert order.learn(examples, _model(config)).learnt


def test_with_one_card_picture_nothing_is_looked_for_again(config: Config) -> None:
    assert order._alike_outlines(_examples()[:1], _model(config)) is None
