"""Order card calibration: a board's lanes framed by its margin are card-shaped and larger than
the card held beside them. Other art 13011 (gate 9): two of its four calibration outlines were a
board's lanes (paper round the parts 0.11 and 0.13, the held cards' 0.43 and 0.51), their colours
learnt as the robot's parts: blue and yellow came out near the cards' pale blue paper, and 17 of
20 order cards were declined. Calibration now leaves out a picture whose card shows less paper
round the robot than ``calibration_min_paper`` while at least ``calibration_min_papered`` of its
cards show that much."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.config import Config
from vision import order
from vision.colour import ColourModel
from vision.thresholds import section

BGR = {"red": (40, 40, 200), "green": (90, 175, 40), "blue": (195, 130, 30),
       "yellow": (40, 190, 225)}


def _picture(robot: tuple[str, str, str] = ("red", "green", "blue"), card: bool = True,
             board: bool = True) -> np.ndarray:
    """A grey table; a board (a dark frame round four lanes, larger than the card) on the left;
    a held card (a dark rim, pale paper, the robot's head, torso and legs) on the right."""
    image = np.full((720, 1280, 3), (150, 160, 170), np.float64)
    if board:
        image[100:620, 120:560] = (110, 80, 40)
        for k, colour in enumerate(("red", "green", "blue", "yellow")):
            image[130:590, 140 + k * 104:236 + k * 104] = BGR[colour]
    if card:
        x, y = 760, 220
        image[y:y + 270, x:x + 200] = (40, 30, 60)
        image[y + 8:y + 262, x + 8:x + 192] = (240, 232, 222)
        image[y + 40:y + 95, x + 70:x + 130] = BGR[robot[0]]
        image[y + 105:y + 170, x + 55:x + 145] = BGR[robot[1]]
        image[y + 180:y + 240, x + 65:x + 90] = BGR[robot[2]]
        image[y + 180:y + 240, x + 110:x + 135] = BGR[robot[2]]
    image += np.random.default_rng(3).normal(0, 3, image.shape)
    return cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0)


def _on_the_card(quad: np.ndarray) -> bool:
    centre = quad.mean(axis=0)
    return 760 <= centre[0] <= 960 and 220 <= centre[1] <= 490


def test_lanes_taken_for_the_card_are_said_to_show_no_paper() -> None:
    image = _picture()
    quad, papered = order._calibration_card(image)
    assert np.allclose(quad, order.find_card(image)) and not _on_the_card(quad)  # the lanes
    assert not papered
    assert order.paper_shown(order.warp_card(image, quad), order.default_masks()) < \
        float(section("order")["calibration_min_paper"])


def test_a_card_alone_shows_its_paper() -> None:
    quad, papered = order._calibration_card(_picture(board=False))
    assert papered and _on_the_card(quad)


def _learn(config: Config) -> order.OrderLook:
    names = ["red", "green", "blue", "yellow"]
    examples = [(_picture(("red", "green", "blue"), board=False), "red-green-blue"),
                (_picture(("yellow", "blue", "green"), board=False), "yellow-blue-green"),
                (_picture(("blue", "yellow", "red")), "blue-yellow-red"),
                (_picture(("green", "blue", "yellow")), "green-blue-yellow")]
    return order.learn(examples, ColourModel.default(names, config.game.display))


def test_pictures_showing_only_lanes_are_left_out(config: Config) -> None:
    look = _learn(config)
    # the part places are learnt from the two cards (with the lanes: the defaults, unlearnt)
    assert look.learnt
    assert look.colour_outside is not None and look.colour_outside < 0.1
    for robot in [("yellow", "blue", "yellow"), ("blue", "red", "green")]:
        reading = order.read_order(_picture(robot, board=False), look).reading
        assert reading.robot == "-".join(robot)


def test_without_the_rule_the_lanes_are_learnt(config: Config,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    real = section("order")
    monkeypatch.setattr(order, "section", lambda name: {**real, "calibration_min_papered": 99}
                        if name == "order" else section(name))
    assert not _learn(config).learnt


def _mostly_lanes() -> list[tuple[np.ndarray, str]]:
    """Other art 13543: three of the four calibration outlines were a board's lanes."""
    return [(_picture(("red", "green", "blue"), board=False), "red-green-blue"),
            (_picture(("yellow", "blue", "green")), "yellow-blue-green"),
            (_picture(("blue", "yellow", "red")), "blue-yellow-red"),
            (_picture(("green", "blue", "yellow")), "green-blue-yellow")]


def test_where_most_outlines_are_lanes_the_one_card_is_what_is_learnt(config: Config) -> None:
    names = ["red", "green", "blue", "yellow"]
    look = order.learn(_mostly_lanes(), ColourModel.default(names, config.game.display))
    # learnt from the card alone: its paper round the robot
    assert look.paper_share is not None and look.paper_share > 0.3
    reading = order.read_order(_picture(("red", "green", "blue"), board=False), look).reading
    assert reading.robot == "red-green-blue"


def test_learning_most_outlines_on_lanes_teaches_a_card_with_no_paper(
        config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the rule is for: with the lanes learnt (the left-out part switched off), the card
    learnt shows almost no paper, so the paper checks would let anything through."""
    names = ["red", "green", "blue", "yellow"]
    real = section("order")
    # (and the lanes not told by their saturated colour either: order._lanes_like)
    monkeypatch.setattr(order, "section", lambda name: {**real, "calibration_min_papered": 99,
                                                        "calibration_min_paper": -1.0,
                                                        "calibration_lanes_saturated": 0.0}
                        if name == "order" else section(name))
    look = order.learn(_mostly_lanes(), ColourModel.default(names, config.game.display))
    assert look.paper_share is None or look.paper_share < 0.3
