"""A card held over a table checked finer than its edges are wide (third art g2501: navy and
white checks). The table is edges nearly everywhere and leaves few pockets (g2501 o001: 55,
under ``texture_pockets``), so the search with the table's texture taken for the table was
never made and no card was found; in calibration the robot's torso was found instead of the
card, and all 20 order cards were declined. Where dense edges cover at least
``texture_dense_share`` of the picture the search is made, and there even where a card was found
without it (the larger is kept); dense stretches join the table only where ``texture_bridge``
wide, and the card's own sides are given back to it (``texture_rim``). The pictures are drawn
by the third art (`tests/vision/thirdart`) in g2501's style."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.test_order_checked_table import checked_shot, is_the_card, order_config
from vision import order
from vision.errors import NoCardFound

ASPECT = 1.37  # g2501's calibration cards' shape
AREA = 0.07  # the smallest share of the picture its calibration cards covered


def _shot(seed: int) -> np.ndarray:
    return checked_shot(2501, seed)


def _dense_search_off(monkeypatch: pytest.MonkeyPatch) -> None:
    order_config(monkeypatch, texture_dense_share=2.0)


def _is_the_card(image: np.ndarray, found: np.ndarray, least: float) -> None:
    is_the_card(image, found, ASPECT, least)


@pytest.mark.parametrize("seed", [2, 7])
def test_a_card_on_fine_checks_is_found(seed: int) -> None:
    image = _shot(seed)
    _is_the_card(image, order.find_card(image, ASPECT, AREA), AREA)


@pytest.mark.parametrize("seed", [2, 7])
def test_without_the_dense_share_it_is_not(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    _dense_search_off(monkeypatch)
    with pytest.raises(NoCardFound):
        order.find_card(_shot(seed), ASPECT, AREA)


def test_the_whole_card_rather_than_the_robots_torso(monkeypatch: pytest.MonkeyPatch) -> None:
    # as a calibration picture is searched (no shape learnt): the whole card, 0.23 of the
    # picture, where without the search on the texture the torso (0.06, shape 1.16) was found
    image = _shot(1)
    _is_the_card(image, order.find_card(image), 0.2)
    _dense_search_off(monkeypatch)
    h, w = image.shape[:2]
    assert float(cv2.contourArea(order.find_card(image))) < 0.1 * h * w
