"""Two order cards declined on clean pictures (blind gate 7, now seen): other art 11515 o011,
where two lanes of a board, framed by its margin and larger than the held card, passed for a
card by their print, were taken over it and then declined for the part colours round them; and
other art 11513 o002, where the card's side was found on the edge of the palm held just beyond
it, 7 canonical pixels out, one more than lining the print up may move it. And the part colours
round the calibration cards are learnt as their median, not their largest."""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from tests.vision.test_order_hidden_side import _held, _off_by
from tests.vision.test_order_paper_shown import QUAD, _board_lanes
from vision import order
from vision.calibration import Calibration
from vision.synth import calibration_examples
from vision.synth.scenes import Style
from vision.thresholds import section


def test_an_outline_showing_no_paper_is_passed_over_while_looking(
        style: Style, calibration: Calibration, monkeypatch: pytest.MonkeyPatch) -> None:
    look = calibration.order
    image, truth = _held(style, "green-yellow-blue", 43, 6.0, 0.0)
    lanes = _board_lanes()
    # the lanes' print passing for a card's (as o011's did: 0.31 against the least 0.25), but
    # less like the cards than they are like each other, lined up (0.40 there): the paper is
    # asked for
    assert look.min_likeness is not None
    seen = 1.1 * look.min_likeness
    assert seen < look.min_likeness * float(section("order")["lined_up_likeness"]) / float(
        section("order")["likeness_fraction"])
    monkeypatch.setattr(order, "likeness", lambda _drawn, _template: seen)
    for picture in (lanes, image):
        judges = order.outline_judges(picture, look)
        assert judges is not None
    accept, _ = order.outline_judges(lanes, look)  # type: ignore[misc]
    assert not accept(QUAD)
    accept, _ = order.outline_judges(image, look)  # type: ignore[misc]
    upright = order._upright(truth)
    assert accept(upright)
    assert order.paper_round(image, upright, look) and not order.paper_round(lanes, QUAD, look)
    # printed as like the cards as they are like each other: the reader's own check is left
    # to decline such an outline (boards lined up match 0.58 of that at most)
    monkeypatch.setattr(order, "likeness", lambda _drawn, _template: 1.0)
    accept, _ = order.outline_judges(lanes, look)  # type: ignore[misc]
    assert accept(QUAD)


def test_an_uncalibrated_look_asks_no_paper(calibration: Calibration) -> None:
    look = order.OrderLook.default(calibration.order.model)
    assert order.paper_round(_board_lanes(), QUAD, look)


def _pushed_out(truth: np.ndarray, share: float) -> np.ndarray:
    """The card's outline with its bottom side moved out by ``share`` of its height."""
    upright = order._upright(truth)
    out = upright.copy()
    down = upright[3] - upright[0]
    out[2:] += share * down
    return out


def _share(pixels: float) -> float:
    """How far (a share of the card's height) to push the side out so that the card's own
    side lies ``pixels`` canonical pixels inside the outline."""
    h = float(section("order")["card_height"])
    return pixels / (h - pixels)


def test_a_side_found_on_a_palms_edge_is_lined_up_onto_the_card(
        style: Style, calibration: Calibration, monkeypatch: pytest.MonkeyPatch) -> None:
    look = calibration.order
    assert look.sketch is not None
    image, truth = _held(style, "red-blue-yellow", 47, 8.0, 0.0)
    height = float(np.linalg.norm(truth[3] - truth[0]))
    # the card's bottom 7.5 canonical pixels inside the outline found: more than align_max,
    # within align_far
    assert float(section("order")["align_max"]) < 7.5 <= float(section("order")["align_far"])
    found = _pushed_out(truth, _share(7.5))
    # lined up by align_max at most, the outline stays off the card (the print then lines up
    # best turned, a compromise; at 9 pixels it stays as found)
    assert _off_by(order.align(image, found, look.sketch, both_ways=True), truth) > 0.05 * height
    monkeypatch.setattr(order, "find_card", lambda *_args, **_kwargs: found)
    located = order.locate(image, look)
    assert _off_by(located, truth) <= 0.05 * height, (located, truth)
    assert order.read_order(image, look).reading.robot == "red-blue-yellow"


def test_a_far_move_is_not_taken_when_the_print_then_matches_less(
        style: Style, calibration: Calibration) -> None:
    look = calibration.order
    assert look.sketch is not None
    image, truth = _held(style, "red-blue-yellow", 47, 8.0, 0.0)
    found = _pushed_out(truth, _share(9.0))
    # asked for a likeness no print reaches, the outline stays as found
    assert order.align(image, found, look.sketch, both_ways=True, far=1.01) is found
    far = order.align(image, found, look.sketch, both_ways=True, far=0.5)
    assert far is not found
    assert _off_by(far, truth) <= 0.05 * float(np.linalg.norm(truth[3] - truth[0]))


def test_a_calibration_card_found_on_a_boards_lanes_does_not_raise_the_colour_bar(
        config: Config, style: Style, monkeypatch: pytest.MonkeyPatch) -> None:
    # other art 11801: one calibration outline lay on a board's lanes, 0.70 of it part colours
    # outside the part places (the cards 0.01 to 0.07): the largest made no guard of the bar
    given = [0.03, 0.70, 0.05, 0.02]
    seen: list[float] = []

    def outside(_cls: np.ndarray, _masks: np.ndarray) -> float:
        seen.append(given[len(seen) % len(given)])
        return seen[-1]

    monkeypatch.setattr(order, "colour_outside", outside)
    examples = calibration_examples(style, config, np.random.default_rng(60), per_kind=4)
    look = order.learn([(e.image, e.robot) for e in examples if e.kind == "order" and e.robot],
                       Calibration.default(config).tiles.model)
    assert len(seen) >= 3
    assert look.colour_outside == pytest.approx(float(np.median(seen)))
    # two lanes showing 0.6 part colours outside the part places are over the bar
    assert look.colour_outside + float(section("order")["paper_margin"]) < 0.6
