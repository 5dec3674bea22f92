"""An outline seen on three sides is taken only when no card is seen whole, and the reader then
lines it up by up to ``align_far`` canonical pixels when its print so matches strictly. It is
now confirmed on those terms (``confirm_far``): other art 15014 o001 (gate 11), a card over a
board with a hand over its lower end, was placed from its frame's inner edges, a corner 7.8
canonical pixels from where its print lines up, past ``align_max`` (6), and was declined as no
card found. Outlines seen whole keep ``align_max`` while looking."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.test_order_hidden_side import _held
from vision import order
from vision.calibration import Calibration
from vision.synth.scenes import Style
from vision.thresholds import section


def _shifted(truth: np.ndarray, pixels: float) -> np.ndarray:
    """The card's outline (upright) moved ``pixels`` canonical pixels towards its top."""
    upright = order._upright(truth)
    down = (upright[3] - upright[0]) / float(section("order")["card_height"])
    return np.asarray(upright - pixels * down, np.float32)


@pytest.mark.parametrize(("seed", "angle", "cover"), [(47, 8.0, 0.0), (44, -12.0, 0.25)])
def test_a_partly_guessed_outline_is_confirmed_on_the_readers_terms(
        style: Style, calibration: Calibration, seed: int, angle: float, cover: float) -> None:
    image, truth = _held(style, "red-blue-yellow", seed, angle, cover)
    judges = order.outline_judges(image, calibration.order)
    assert judges is not None
    accept, confirm = judges
    # 7 canonical pixels off: more than align_max, within align_far
    assert float(section("order")["align_max"]) < 7.0 <= float(section("order")["align_far"])
    off = _shifted(truth, 7.0)
    assert bool(section("order")["confirm_far"])
    assert confirm(off)
    # an outline seen whole so far off is not accepted while looking (align_max)
    assert not accept(off)
    # past align_far: not confirmed
    assert not confirm(_shifted(truth, 12.0))
