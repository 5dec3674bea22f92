"""Where the most alike calibration outlines teach nothing, the next most alike are tried, in
fewer pictures too (order._alike_outlines, `[order]` `calibration_alike_tries`).

Third art g2848 (blind batch 46): white cards on grid paper, held over fine grey and white
checks. Of the four calibration pictures, one showed no outline that may be its card, one only
parts of the card and of the board under it, and in the other two the card was outlined (one
of them a little skewed) among parts of it. The outlines most alike in the three pictures were
parts of the robots, legs and torsos, whose colours were not the labels': nothing was learnt,
and all 20 order cards were declined. Two pictures' cards, the 16th set tried, teach a look
that reads 17 of them, none wrong.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.redrawn_order import redrawn_order
from tests.vision.thresholds_patch import set_thresholds
from vision import order
from vision.calibration import calibrate
from vision.dataset import Example


@pytest.fixture(scope="module")
def grid_paper_on_checks(tmp_path_factory: pytest.TempPathFactory
                         ) -> tuple[list[Example], np.ndarray, str]:
    """g2848's tile and order calibration pictures and its second order picture, drawn again."""
    return redrawn_order(Path(tmp_path_factory.mktemp("g2848")), 2848, "o002.jpg")


def test_two_cards_alike_are_learnt_and_the_card_is_read(
        grid_paper_on_checks: tuple[list[Example], np.ndarray, str]) -> None:
    examples, image, robot = grid_paper_on_checks
    assert robot == "blue-yellow-yellow"
    look = calibrate(examples, Config()).order
    assert look.learnt and not look.declines
    assert look.aspect is not None and 1.35 < look.aspect < 1.55, "a card's shape"
    assert order.read_order(image, look).reading.robot == robot


def test_with_the_most_alike_set_alone_nothing_was_learnt(
        grid_paper_on_checks: tuple[list[Example], np.ndarray, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    examples, _, _ = grid_paper_on_checks
    set_thresholds(monkeypatch, order, "order", calibration_alike_tries=1)
    assert calibrate(examples, Config()).order.declines


def test_the_sets_in_every_picture_come_before_those_in_fewer(
        grid_paper_on_checks: tuple[list[Example], np.ndarray, str]) -> None:
    examples, _, _ = grid_paper_on_checks
    cards = [(e.image, e.robot) for e in examples if e.kind == "order" and e.robot]
    model = calibrate(examples, Config()).tiles.model
    ranked = order._alike_outlines(cards, model)
    sizes = [sum(o is not None for o in one) for one in ranked]
    assert sizes == sorted(sizes, reverse=True)
    assert sizes[0] == 3 and sizes[-1] == 2, "one picture shows no outline that may be a card"
