"""Lane colours and the background learnt round them (blind third art g2586): the rings round the
calibration tiles showed the yellow lane a little off its learnt colour (at a lane's edge, in a
lamp's fall-off), farther from it than the background was kept from a colour (Mahalanobis
distance squared 12) but near enough still to count as yellow (``reject_d2``, 20). Those pixels
were learnt as a background cluster of their own, and in the test pictures the yellow lanes
under the tiles, in that light, were classed as background: 12 of 20 tile pictures declined. A
background cluster must now lie farther from every colour than a pixel may and still be that
colour (``background_core_d2`` = ``reject_d2``)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import colour
from vision.colour import BACKGROUND, ColourModel, features
from vision.thresholds import section

NAMES = ["red", "green", "blue", "yellow"]
LANES = {"red": (0.2, 0.2, 0.9), "green": (0.4, 0.7, 0.2), "blue": (0.9, 0.5, 0.2),
         "yellow": (0.1, 0.75, 0.9)}  # white-balanced BGR
OFF_YELLOW = (0.17, 0.6, 0.9)  # the yellow lane at its edge, in another light
PAPER = (0.9, 0.93, 0.95)


def _model() -> tuple[ColourModel, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    samples = {n: np.array(c) + rng.normal(0, 0.02, (400, 3)) for n, c in LANES.items()}
    base = ColourModel.default(NAMES, {"red": "#d03030", "green": "#30a040",
                                       "blue": "#3060d0", "yellow": "#f0d040"})
    model = ColourModel.fit(samples, base)
    off = np.array(OFF_YELLOW) + rng.normal(0, 0.004, (300, 3))
    paper = np.array(PAPER) + rng.normal(0, 0.02, (600, 3))
    around = np.concatenate([paper, off, *samples.values()])
    return model, around, off


def test_a_colour_in_other_light_is_not_learnt_as_background() -> None:
    model, around, off = _model()
    # the case: the off yellow lies past the old core (12) but within the colour's reach
    d2 = float(model.d2_features(features(np.array([OFF_YELLOW])))[0, NAMES.index("yellow")])
    assert 12.0 < d2 < float(section("colour")["reject_d2"])
    learnt = model.with_background(around)
    reach = float(section("colour")["reject_d2"])
    for mean in learnt.background_means:
        assert model.d2_features(mean[None]).min() > reach
    assert (learnt.classify(off) == NAMES.index("yellow")).mean() > 0.9
    # the paper round the lanes is still background
    paper = np.array(PAPER) + np.random.default_rng(6).normal(0, 0.02, (200, 3))
    assert (learnt.classify(paper) == BACKGROUND).mean() > 0.9


def test_with_the_old_core_the_off_yellow_was_background(monkeypatch: pytest.MonkeyPatch) -> None:
    real = dict(section("colour"))
    monkeypatch.setattr(colour, "section", lambda name: {**real, "background_core_d2": 12.0}
                        if name == "colour" else section(name))
    model, around, off = _model()
    learnt = model.with_background(around)
    assert (learnt.classify(off) == BACKGROUND).mean() > 0.5
