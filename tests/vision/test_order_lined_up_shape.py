"""An order card's outline, lined up with the calibration cards' print, must keep the cards'
shape (order.locate, `[order]` `lined_up_shape`).

Blind other art 40015 o002 (gate 35): a card held under a thumb over its top was found on three
sides, its top guessed low. Lined up far (the affine fit scales each way on its own), the
outline was squashed to 0.87 as tall as wide against the cards' 1.44; the torso and legs then
filled it, read as a head and a torso turned, and the card was read blue-yellow-yellow at full
confidence for blue-yellow-blue. An outline that no longer has the card's shape is declined.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from vision import order
from vision.calibration import Calibration, calibrate
from vision.errors import NoCardFound
from vision.thresholds import section


@pytest.fixture(scope="module")
def held_under_a_thumb() -> tuple[np.ndarray, str, Calibration]:
    """Other art seed 40015's second order picture and that seed's calibration, drawn again
    in the generator's order (its first tiles, order and grid pictures drawn before it)."""
    from tests.vision.otherart import redraw

    config = Config()
    look, examples = redraw.calibration(40015, config)
    image, label = redraw.test_picture(look, 40015, "o002.jpg")
    return image, str(label["robot"]), calibrate(examples, config)


def test_an_outline_squashed_by_lining_up_is_declined(
        held_under_a_thumb: tuple[np.ndarray, str, Calibration]) -> None:
    image, robot, calibration = held_under_a_thumb
    assert robot == "blue-yellow-blue"
    with pytest.raises(NoCardFound, match="does not line up"):
        order.read_order(image, calibration.order)


def test_without_the_shape_asked_it_was_read_wrong(
        held_under_a_thumb: tuple[np.ndarray, str, Calibration],
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, robot, calibration = held_under_a_thumb
    real = section

    def without(name: str) -> dict[str, object]:
        cfg = real(name)
        return {**cfg, "lined_up_shape": False} if name == "order" else cfg

    monkeypatch.setattr(order, "section", without)
    reading = order.read_order(image, calibration.order).reading
    assert reading.robot is not None and reading.robot != robot


def test_an_upright_outline_is_as_tall_as_the_card() -> None:
    card = np.array([[0, 0], [100, 0], [100, 144], [0, 144]], np.float32)
    assert order.upright_aspect(card) == pytest.approx(1.44)
    # lying across: below 1, where card_aspect (long over short) cannot tell
    across = np.array([[0, 0], [144, 0], [144, 100], [0, 100]], np.float32)
    assert order.upright_aspect(across) == pytest.approx(1 / 1.44)
    assert order.card_aspect(across) == pytest.approx(1.44)
