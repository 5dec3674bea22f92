"""In calibration, a board's lanes kept as a picture's outline because no other outline was found
past them show no card's paper (order._calibration_card), so they are not learnt from alongside
the cards.

Third art g2748: white cards with an orange frame held beside boards on a grey table. In cal-o04
the card is held upside down under a thumb and is not card-shaped before calibration; the largest
outline is a board's four lanes, which ``order._lanes_like`` tells (and which show 0.13 of a
colour the label lacks), but no outline was found past them, so the lanes were kept and, white-
balanced on themselves, showed paper (0.48). They were learnt with the two cards found: their
shape (1.25) was learnt as the cards' (1.4), and their print lowered the likeness asked of a
card to 0.096. 8 of 20 order cards were declined, a board's lanes taken for the card (o002
read parts 0.533, 0.028, 0.355 off the lanes' colours).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.redrawn_order import redrawn_order
from vision import order
from vision.calibration import calibrate
from vision.dataset import Example


@pytest.fixture(scope="module")
def held_under_a_thumb(tmp_path_factory: pytest.TempPathFactory
                       ) -> tuple[list[Example], np.ndarray, str]:
    """g2748's tile and order calibration pictures and its second order picture, drawn again as
    ``thirdart.build`` draws them."""
    return redrawn_order(Path(tmp_path_factory.mktemp("g2748")), 2748, "o002.jpg")


def test_the_lanes_kept_show_no_paper(
        held_under_a_thumb: tuple[list[Example], np.ndarray, str]) -> None:
    examples, _, _ = held_under_a_thumb
    model = calibrate(examples, Config()).tiles.model
    fourth = next(e for e in examples if e.name == "cal-o04.jpg")
    quad, shows_paper = order._calibration_card(fourth.image, fourth.robot, model)
    # the outline is still the board's lanes (the card under the thumb is not found) ...
    assert order._lanes_like(fourth.image, quad)
    # ... but it is not taken for a card showing paper
    assert not shows_paper


def test_the_card_beside_the_boards_is_read(
        held_under_a_thumb: tuple[list[Example], np.ndarray, str]) -> None:
    examples, image, robot = held_under_a_thumb
    look = calibrate(examples, Config()).order
    assert look.learnt
    assert order.read_order(image, look).reading.robot == robot
    # the shape learnt is the cards' (63x88 mm, 1.40), not the lanes' (1.25)
    assert look.aspect is not None and abs(look.aspect / 1.4 - 1.0) < 0.1
