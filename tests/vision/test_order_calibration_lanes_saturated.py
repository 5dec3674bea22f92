"""In calibration, an outline on pale paper that shows saturated colour over most of what lies
outside the part places is a board's lanes, not a card (order._lanes_like, `[order]`
`calibration_lanes_saturated`).

Third art g2673 (blind batch 26): white cards held beside boards on a grey wooden table. In two
of the four order calibration pictures the largest card-shaped outline was a board's four lanes
inside its pale margin. The test meant to catch a board (colours the card's label lacks) saw
none: the card is white-balanced around each pixel and a lane wider than that window is its own
white, so the lanes showed as paper, and the background learnt from the boards took in the green
lane's colour. Calibration learnt the lanes as cards, all 20 order cards were declined but one,
and that one (o003) was read wrong.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.config import Config
from tests.vision.redrawn_order import redrawn_order
from tests.vision.thresholds_patch import set_thresholds
from vision import order
from vision.calibration import calibrate
from vision.dataset import Example
from vision.thresholds import section


@pytest.fixture(scope="module")
def beside_boards(tmp_path_factory: pytest.TempPathFactory
                  ) -> tuple[list[Example], np.ndarray, str]:
    """g2673's tile and order calibration pictures and its third order picture, drawn again as
    ``thirdart.build`` draws them."""
    return redrawn_order(Path(tmp_path_factory.mktemp("g2673")), 2673, "o003.jpg")


def test_the_card_beside_the_boards_is_read(
        beside_boards: tuple[list[Example], np.ndarray, str]) -> None:
    examples, image, robot = beside_boards
    calibration = calibrate(examples, Config())
    assert calibration.order.learnt
    assert order.read_order(image, calibration.order).reading.robot == robot
    # the third calibration picture's first outline was the board's lanes; it is not now
    third = next(e for e in examples if e.name == "cal-o03.jpg")
    quad, _ = order._calibration_card(third.image, third.robot, calibration.tiles.model)
    assert not order._lanes_like(third.image, quad)


def test_without_the_rule_the_lanes_were_learnt_and_the_card_read_wrong(
        beside_boards: tuple[list[Example], np.ndarray, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    examples, image, robot = beside_boards
    set_thresholds(monkeypatch, order, "order", calibration_lanes_saturated=0.0)
    look = calibrate(examples, Config()).order
    reading = order.read_order(image, look).reading
    assert reading.robot is not None and reading.robot != robot


def _drawn(lanes: bool) -> tuple[np.ndarray, np.ndarray]:
    """A grey table with, in its middle, a board's green lane in its cream margin or a white
    card with a small robot; and the outline of the lane or the card."""
    image = np.full((480, 640, 3), 110, np.uint8)
    x0, y0, x1, y1 = 240, 120, 400, 350
    cv2.rectangle(image, (x0 - 12, y0 - 12), (x1 + 12, y1 + 12), (215, 235, 240), -1)
    if lanes:
        # one lane, wider than the white-balance window: its own white
        cv2.rectangle(image, (x0, y0), (x1, y1), (60, 170, 50), -1)
    else:
        cv2.rectangle(image, (x0, y0), (x1, y1), (245, 245, 245), -1)
        cv2.rectangle(image, (300, 150), (340, 190), (200, 60, 40), -1)
        cv2.rectangle(image, (290, 200), (350, 270), (40, 200, 230), -1)
        cv2.rectangle(image, (300, 275), (340, 320), (200, 60, 40), -1)
    quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    return image, quad


def test_lanes_are_told_from_a_card() -> None:
    lanes, quad = _drawn(True)
    card, same = _drawn(False)
    # both show paper once balanced on themselves: the paper test cannot tell them
    least = float(section("order")["calibration_min_paper"])
    assert order.paper_shown(order.warp_card(lanes, quad), order.default_masks()) >= least
    assert order.paper_shown(order.warp_card(card, same), order.default_masks()) >= least
    assert order._lanes_like(lanes, quad)
    assert not order._lanes_like(card, same)


def _whole_board() -> tuple[np.ndarray, np.ndarray]:
    """A board on a grey table, its four lanes over two thirds of it and its cream margin
    below: the outline round the whole board (g2586 cal-o02)."""
    image = np.full((480, 640, 3), 110, np.uint8)
    x0, y0, x1, y1 = 240, 120, 400, 350
    cv2.rectangle(image, (x0, y0), (x1, y1), (215, 235, 240), -1)
    for k, colour in enumerate([(40, 200, 230), (60, 170, 50), (50, 50, 210), (200, 60, 40)]):
        cv2.rectangle(image, (x0 + 8 + 36 * k, y0 + 8), (x0 + 40 + 36 * k, y0 + 160), colour, -1)
    return image, np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)


def test_a_whole_board_is_told_by_its_lanes_running_across_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, quad = _whole_board()
    assert order._lanes_like(image, quad)
    # its margin keeps the saturated share outside the part places under the first bar
    set_thresholds(monkeypatch, order, "order", calibration_lanes_lines=0.0)
    assert not order._lanes_like(image, quad)


def test_an_outline_showing_no_paper_is_left_to_the_paper_tests() -> None:
    # saturated all over, but not balanced into paper (a card on coloured paper, a board's
    # lanes in a grey margin): not asked here (other art 44015)
    image = np.full((480, 640, 3), 110, np.uint8)
    for k, colour in enumerate([(200, 60, 40), (60, 170, 50), (50, 50, 210), (40, 200, 230)]):
        cv2.rectangle(image, (240 + 40 * k, 120), (240 + 40 * k + 30, 350), colour, -1)
    quad = np.array([[240, 120], [400, 120], [400, 350], [240, 350]], np.float32)
    assert not order._lanes_like(image, quad)


def test_the_rule_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    set_thresholds(monkeypatch, order, "order", calibration_lanes_saturated=0.0)
    lanes, quad = _drawn(True)
    assert not order._lanes_like(lanes, quad)
