"""A card held up by a hand is not found, and two lanes of a personal board beside it (the
board's frame round a red lane and a green one, about a card's shape) are taken for the card:
its parts read red-red-red (other art 11353 o005 and o012, confidence 1.00 and 0.55). The lane
beside the parts shows a part colour where the user's cards show paper, 0.17 and 0.21 of the
card more than the calibration cards; 1288 cards read on 83 sets showed at most 0.106 more
(own art 401 o040), but a right card whose outline fell a little short 0.161 more (own art
9803 o013). Declined: the lanes and the board's frame show none of the card's paper (see
test_order_paper_shown.py)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import order
from vision.calibration import Calibration
from vision.thresholds import section


def _two_lanes(look: order.OrderLook) -> np.ndarray:
    """A canonical card's colour indices as two lanes of a board give them: a red lane over the
    part places, a green lane right of them, the board's frame round both (no part colour), and
    the lanes' printed pattern reading as no part colour on every other row."""
    h, w = look.masks.shape[1:]
    red, green = look.model.names.index("red"), look.model.names.index("green")
    cls = np.full((h, w), -1, int)
    cls[2:h - 2, 11:26] = red
    cls[2:h - 2, 28:38] = green
    cls[1::2] = -1
    return cls


def test_two_lanes_of_a_board_taken_for_a_held_card_are_declined(
        calibration: Calibration, monkeypatch: pytest.MonkeyPatch) -> None:
    look = calibration.order
    assert look.colour_outside is not None
    cls = _two_lanes(look)
    # as the two pictures showed it: the parts alone read red-red-red, sure of it, and the
    # lane beside them shows part colours well past the calibration cards, but not everywhere
    assert order.read_classes(cls, look).robot == "red-red-red"
    # (past the calibration cards' median since the clean pictures round: 0.23 here, past
    # their largest 0.21; either way under paper_margin, so the colour check alone reads them)
    extra = order.colour_outside(cls, look.masks) - look.colour_outside
    assert 0.15 <= extra < float(section("order")["paper_margin"]), extra
    # what the outline held: the board's dark frame round a red lane and a green one
    image = np.full((720, 1280, 3), (60, 70, 60), np.uint8)
    image[140:580, 490:810] = (70, 45, 40)
    image[165:555, 515:660] = (69, 61, 192)
    image[165:555, 665:790] = (104, 155, 69)
    quad = np.array([[500, 150], [800, 150], [800, 570], [500, 570]], np.float32)
    monkeypatch.setattr(order, "locate", lambda _image, _look: quad)
    monkeypatch.setattr(order, "classes", lambda _card, _look: cls)
    assert order.read_order_region(image, look)[0].reading.robot is None


def test_a_card_showing_as_much_colour_outside_its_parts_as_read_cards_is_still_read(
        calibration: Calibration, monkeypatch: pytest.MonkeyPatch) -> None:
    # a right card showing part colours outside its parts 0.1 past the calibration cards
    # (about the most seen on a card read right: own art 401 o040, 0.106) is read as before
    look = calibration.order
    assert look.colour_outside is not None
    red = look.model.names.index("red")
    outside = np.argwhere(~look.masks.any(axis=0))
    cls = np.where(look.masks.any(axis=0), red, -1)
    want = round((look.colour_outside + 0.1) * len(outside))
    cls[tuple(outside[:want].T)] = red
    assert order.colour_outside(cls, look.masks) - look.colour_outside == \
        pytest.approx(0.1, abs=0.002)
    assert section("order")["paper_margin"] > 0.1
    image = np.full((720, 1280, 3), 90, np.uint8)
    quad = np.array([[500, 150], [800, 150], [800, 570], [500, 570]], np.float32)
    monkeypatch.setattr(order, "locate", lambda _image, _look: quad)
    monkeypatch.setattr(order, "classes", lambda _card, _look: cls)
    assert order.read_order_region(image, look)[0].reading.robot == "red-red-red"
