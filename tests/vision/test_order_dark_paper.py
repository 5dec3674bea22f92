"""Order cards printed on dark paper, held over a dark table (third art g2448: a dark grey card
with a pale rim, on dark glass; d2304: dark grey on dark wood).

The paper test asks for white round the robot (``paper_white`` on the card white-balanced on
its own paper): a dark grey paper, balanced on what is brightest near it, lies at about
0.3-0.4 and never passes. Every calibration card then showed no paper, so a card held upside
down was not turned round (only cards showing paper are), its legs' colours were learnt as its
head's, the learnt yellow lay nearest the boards' green, and calibration declined all the cards
(g2448: 0 of 20 read). When pale paper teaches nothing, calibration looks for the cards again
with grey paper taken for theirs (``OrderLook.dark_paper``), and the reader asks for that paper.
For such cards, where no card is found, blobs are also searched unopened (``find_card(thin)``):
a dark thumb over a dark card's thin pale rim (e2408).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.config import Config
from tests.vision.test_order_calibration_held_turned import BGR, ROBOTS
from tests.vision.test_order_calibration_held_turned import _card as _robot_card
from tests.vision.test_order_calibration_held_turned import _examples as _held_examples
from tests.vision.test_order_calibration_held_turned import _picture as _held_picture
from tests.vision.test_order_calibration_label import _model
from tests.vision.thirdart.scenes import order_shot
from tests.vision.thirdart.style import make_style
from vision import order
from vision.errors import NoCardFound
from vision.thresholds import section

TABLE = (38, 34, 32)  # dark glass
PAPER = (62, 58, 58)  # dark grey


def _card(robot: tuple[str, str, str]) -> np.ndarray:
    """A robot card upright: a pale grey rim, dark grey paper, a pale title and number, a head
    with an antenna, a torso, two legs and grey feet."""
    return _robot_card(robot, rim=(175, 175, 178), paper=PAPER, ink=(200, 200, 200),
                       antenna=(150, 150, 150))


def _picture(robot: tuple[str, str, str], turned: bool, seed: int,
             lanes: bool = False) -> np.ndarray:
    """The dark table, the card held on it (upright or upside down), or with ``lanes`` a
    board's four lanes in a dark frame where the card would be."""
    if not lanes:
        return _held_picture(robot, turned, seed, table=TABLE, card=_card)
    image = np.full((720, 1280, 3), TABLE, np.float64)
    board = np.full((270, 200, 3), (50, 50, 55), np.float64)
    for k, colour in enumerate(("red", "green", "blue", "yellow")):
        board[12:258, 12 + k * 45:50 + k * 45] = BGR[colour]
    image[220:490, 560:760] = board
    image += np.random.default_rng(seed).normal(0, 3, image.shape)
    return cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0)


def _examples() -> list[tuple[np.ndarray, str]]:
    # as g2448: cards held upside down among them
    return _held_examples(_picture)


def test_dark_paper_is_no_white_paper() -> None:
    card = order.warp_card(_picture(ROBOTS[0], False, 0),
                           np.array([[560, 220], [759, 220], [759, 489], [560, 489]], np.float32))
    masks = order.default_masks()
    assert order.paper_shown(card, masks) < 0.2
    assert order.paper_shown(card, masks, dark=True) >= 0.6


def test_calibration_learns_cards_on_dark_paper(config: Config) -> None:
    look = order.learn(_examples(), _model(config))
    assert look.learnt and not look.declines and look.dark_paper
    # every colour learnt lies nearest its own (the cards held upside down were turned round)
    assert np.array_equal(_model(config).d2_features(look.model.means).argmin(axis=1),
                          np.arange(len(BGR)))
    for robot, turned in [(("red", "green", "red"), False), (("blue", "green", "yellow"), True),
                          (("yellow", "blue", "green"), False)]:
        reading = order.read_order(_picture(robot, turned, 9), look).reading
        assert reading.robot == "-".join(robot)
    # the calibration is saved and loaded with its paper
    assert order.OrderLook.from_json(look.to_json()).dark_paper


def test_a_boards_lanes_in_a_dark_frame_are_not_read(config: Config) -> None:
    # grey paper taken for the cards': a board's lanes show none of it round the robot
    look = order.learn(_examples(), _model(config))
    try:
        reading = order.read_order(_picture(ROBOTS[0], False, 11, lanes=True), look).reading
    except NoCardFound:
        return
    assert reading.robot is None


def test_cards_on_white_paper_learn_as_before(config: Config) -> None:
    # the dark pass runs only where pale paper taught nothing
    from tests.vision.test_order_calibration_held_turned import _examples as white
    look = order.learn(white(), _model(config))
    assert look.learnt and not look.dark_paper



def test_a_dark_card_under_a_dark_thumb_is_found_unopened() -> None:
    # third art e2408's style (a dark card with a pale rim on wood, a dark hand): the thumb over
    # the rim shows no edge against the paper, the paper inside is joined to the hand, and the
    # thin rim is opened away with the fingers; searched unopened (``thin``), the card is found
    style = make_style(2408)
    image = order_shot(style, np.random.default_rng(0), False, ("red", "green", "blue")).image
    aspect, area = 1.43, 0.05  # e2408's calibration cards' shape and least share (about)
    with pytest.raises(NoCardFound):
        order.find_card(image, aspect, area)
    found = order.find_card(image, aspect, area, thin=True)
    tolerance = float(section("order")["aspect_tolerance"])
    assert aspect * (1 - tolerance) <= order.card_aspect(found) <= aspect * (1 + tolerance)
    h, w = image.shape[:2]
    assert float(cv2.contourArea(found)) >= 0.08 * h * w  # the whole card, not the robot
    # the card's dark paper round the robot
    card = order.warp_card(image, found)
    assert order.paper_shown(card, order.default_masks(), dark=True) >= \
        float(section("order")["calibration_min_paper"])
