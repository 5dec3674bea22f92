"""On a finely checked table, the straight-edge search passes over strips of the checks without
counting them against its budget (`[order]` `checked_strip_rectangles`, order._Fits).

Third art 2801 (blind batch 40, its hard set): white cards held over fine grey and white
checks. A card's side shows only against the grey checks, while the checks' own rows and
columns are edges all along: they make the best-edged rectangles in the card's blob, and the
search, which looks at a few rectangles a blob (`line_rectangles`), looked at strips of checks
only (each passed over for the checks round its rim, `checked_rim_dense`). Calibration found no
card among the outlines it gathers, and all 20 order cards were declined; with strips told
apart before the budget is counted, the card comes among them and 19 of 20 were read.
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


@pytest.fixture(scope="module")
def fine_checks(tmp_path_factory: pytest.TempPathFactory
                ) -> tuple[list[Example], np.ndarray, str]:
    """Set 2801's tile and order calibration pictures (a hard set's are its clean set's) and
    the clean set's first order picture, drawn again."""
    return redrawn_order(Path(tmp_path_factory.mktemp("g2801")), 2801, "o001.jpg")


def test_the_cards_over_fine_checks_are_learnt_and_read(
        fine_checks: tuple[list[Example], np.ndarray, str]) -> None:
    examples, image, robot = fine_checks
    look = calibrate(examples, Config()).order
    assert look.learnt and not look.declines
    assert look.aspect is not None and 1.3 < look.aspect < 1.55, "a card's shape"
    assert order.read_order(image, look).reading.robot == robot


def test_counted_against_the_budget_no_card_was_learnt(
        fine_checks: tuple[list[Example], np.ndarray, str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    examples, _, _ = fine_checks
    set_thresholds(monkeypatch, order, "order", checked_strip_rectangles=0)
    assert calibrate(examples, Config()).order.declines


def test_a_plain_table_is_searched_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    # strips are told only on a table dense with edges: on a plain one, a card beside a board
    # (found by its straight sides, the two making one blob) is found the same either way
    plain = np.full((720, 1280, 3), 120, np.uint8)
    cv2.rectangle(plain, (560, 200), (760, 480), (235, 235, 235), -1)
    cv2.rectangle(plain, (760, 260), (1000, 460), (60, 40, 160), -1)
    cv2.rectangle(plain, (610, 260), (710, 340), (40, 40, 200), -1)
    found = order.find_card(plain)
    set_thresholds(monkeypatch, order, "order", checked_strip_rectangles=0)
    assert np.array_equal(order.find_card(plain), found)
