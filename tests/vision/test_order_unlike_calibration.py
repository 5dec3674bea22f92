"""Calibration must not fail when the order cards it finds share no print.

Other art 12156 (a grid-only dataset's calibration): the outlines found on its three order
calibration pictures were so unlike each other (likeness -0.02, -0.03, -0.12) that the median
rule for leaving out a wrongly found card left out every card, and ``order.learn`` then raised
``min() arg is an empty sequence``: ``vision eval`` and ``vision calibrate`` ended in a
traceback. Such a calibration learns nothing about the cards and keeps the default look."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from vision import order
from vision.calibration import Calibration
from vision.synth import calibration_examples
from vision.synth.scenes import Style


def _order_examples(config: Config, style: Style) -> list[tuple[np.ndarray, str]]:
    rng = np.random.default_rng(60)
    examples = calibration_examples(style, config, rng, per_kind=4, kinds=("order",))
    return [(e.image, e.robot) for e in examples if e.robot]


def test_cards_unlike_each_other_teach_nothing(monkeypatch: pytest.MonkeyPatch, config: Config,
                                               style: Style, calibration: Calibration) -> None:
    examples = _order_examples(config, style)
    fallback = calibration.tiles.model
    # every card less alike than half the (negative) median: the old rule left out all of them
    monkeypatch.setattr(order, "_alike", lambda plain: [-0.05] * len(plain))
    look = order.learn(examples, fallback)
    assert not look.learnt
    assert look.model is fallback


def test_cards_alike_are_still_learnt(config: Config, style: Style,
                                      calibration: Calibration) -> None:
    assert order.learn(_order_examples(config, style), calibration.tiles.model).learnt
