"""A card held over a checked table cloth (third art d2314: fine blue and white checks; d2302:
red and white ones). Every check is a pocket enclosed by edges (or, finer than the edges'
width, edges themselves), so the table is foreground from the card to the picture's border:
one blob along the border, passed over as the table with the card in it, and no card was
found (d2314: 11 of 20 order cards; d2302: the calibration cards, so all 20 were declined).
When no card is found at any level (or, on a table checked finer than its edges, in any case: see
test_order_checked_dense), the search is made again with the table's pockets, and
then its dense edges, taken for the table (``texture_region``, ``texture_density``). The
pictures are drawn by the third art (`tests/vision/thirdart`) in d2314's style."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.thirdart.scenes import order_shot
from tests.vision.thirdart.style import make_style
from vision import order
from vision.errors import NoCardFound
from vision.thresholds import section

ASPECT = 1.48  # d2314's calibration cards' shape
AREA = 0.09  # the smallest share of the picture its calibration cards covered


@lru_cache(maxsize=8)
def checked_shot(style_seed: int, seed: int) -> np.ndarray:
    """An order card (red, green, blue) held over the checked cloth of third-art set
    ``style_seed``, drawn once a seed (the tests only read the picture)."""
    style = make_style(style_seed)
    assert style.table == "cloth"
    return order_shot(style, np.random.default_rng(seed), False, ("red", "green", "blue")).image


def order_config(monkeypatch: pytest.MonkeyPatch, **keys: Any) -> None:
    """The order reader's thresholds with ``keys`` set otherwise."""
    cfg: dict[str, Any] = {**section("order"), **keys}
    real = section
    monkeypatch.setattr(order, "section", lambda name: cfg if name == "order" else real(name))


def is_the_card(image: np.ndarray, found: np.ndarray, aspect: float, least: float) -> None:
    """That ``found`` is the card itself: its calibration cards' shape (``aspect``), paper
    round a robot whose three parts show their colours, covering at least ``least`` of the
    picture."""
    tolerance = float(section("order")["aspect_tolerance"])
    assert aspect * (1 - tolerance) <= order.card_aspect(found) <= aspect * (1 + tolerance)
    card = order.warp_card(image, found)
    assert order.paper_shown(card, order.default_masks()) >= \
        float(section("order")["calibration_min_paper"])
    h, w = image.shape[:2]
    assert float(cv2.contourArea(found)) >= least * h * w


def _shot(seed: int) -> np.ndarray:
    return checked_shot(2314, seed)


def _texture(monkeypatch: pytest.MonkeyPatch, region: float) -> None:
    order_config(monkeypatch, texture_region=region)


@pytest.mark.parametrize("seed", [2, 4])
def test_a_card_on_a_checked_cloth_is_found(seed: int) -> None:
    image = _shot(seed)
    is_the_card(image, order.find_card(image, ASPECT, AREA), ASPECT, 0.5 * AREA)


@pytest.mark.parametrize("seed", [2, 4])
def test_without_the_texture_search_it_is_not(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    _texture(monkeypatch, 0.0)
    with pytest.raises(NoCardFound):
        order.find_card(_shot(seed), ASPECT, AREA)


def test_a_card_found_before_is_kept_only_when_larger(monkeypatch: pytest.MonkeyPatch) -> None:
    # on a checked table (dense edges over texture_dense_share of the picture) the search on
    # the table's texture is made even where a card was found without it, and the larger
    # kept: here the outline found without it was a patch of the checks beside the hand
    # (0.074 of the picture, showing paper 0.40), the search finds the card (0.23)
    image = _shot(0)
    found = order.find_card(image, ASPECT, AREA)
    h, w = image.shape[:2]
    assert float(cv2.contourArea(found)) >= 0.2 * h * w
    assert order.paper_shown(order.warp_card(image, found), order.default_masks()) >= 0.6
    _texture(monkeypatch, 0.0)
    before = order.find_card(image, ASPECT, AREA)
    assert float(cv2.contourArea(before)) < 0.1 * h * w
