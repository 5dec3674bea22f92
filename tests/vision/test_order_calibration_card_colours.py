"""Order calibration finds cards whose parts the boards' colours do not classify (third art g2620,
blind batch 20: white cards with a purple rim, held over a dark board in dim light).

The boards' colour model, learnt from the tile pictures, held background clusters (the dark
board in shadow) within 4 to 8 of the cards' own red, green and blue, and those lay 18 to 43 from
the lanes' colours, so every part pixel on a card was background. In two of the four
calibration pictures the largest outline was the card together with the board behind it; among
every other outline the real card was passed over as showing no part colour, nothing was learnt,
and all 20 order cards of the set were declined. An outline now shows part colour by its
saturated pixels too, as the colours are learnt from.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thirdart.build import calibration
from tests.vision.thirdart.style import make_style
from vision import order
from vision.calibration import calibrate
from vision.dataset import Example, load_labelled


@pytest.fixture(scope="module")
def g2620(tmp_path_factory: pytest.TempPathFactory) -> list[Example]:
    """g2620's tile and order calibration pictures, as ``thirdart.build.calibration`` draws
    them (the grid pictures, drawn last, are left out: order calibration does not use them)."""
    folder = tmp_path_factory.mktemp("g2620")
    calibration(folder, make_style(2620), np.random.default_rng([2620, 1]), grids=False)
    return load_labelled(folder, Config())


def test_the_cards_are_learnt_and_read_as_their_labels(g2620: list[Example],
                                                       config: Config) -> None:
    look = calibrate(g2620, config).order
    assert look.learnt and not look.declines
    card = make_style(2620).robot_card
    assert look.aspect is not None and abs(look.aspect - card.h / card.w) < 0.12
    for example in g2620:
        if example.kind == "order":
            assert order.read_order(example.image, look).reading.robot == example.robot


def test_counting_only_what_the_boards_colours_classify_learns_nothing(
        g2620: list[Example], config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    # the cause: the boards' colours classify none of the real cards' part pixels

    def classified(card: np.ndarray, cls: np.ndarray) -> int:
        return int((cls >= 0).sum())

    monkeypatch.setattr(order, "_part_colour_pixels", classified)
    assert not calibrate(g2620, config).order.learnt


def test_a_card_shows_part_colour_by_either_count() -> None:
    card = np.full((40, 30, 3), 0.9, np.float32)
    card[10:20, 10:20] = (0.2, 0.3, 0.9)  # a saturated red part (BGR)
    none = np.full((40, 30), -1)
    assert order._part_colour_pixels(card, none) == 100
    # a pale part the boards' colours classify still counts, though not saturated
    pale = card.copy()
    pale[10:20, 10:20] = (0.7, 0.75, 0.9)
    cls = none.copy()
    cls[10:20, 10:15] = 0
    assert order._part_colour_pixels(pale, cls) == 50
