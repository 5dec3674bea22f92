"""Order card calibration: a personal board whose margin is as pale as a card's paper.

Other art 16016 (gate 12): the board beside the held card is larger than the card and its pale
margin passes the calibration paper test, so three of the four calibration outlines were the
board. The one real card was then left out as unlike the other three, a board's shape and its
lanes (under the cards' labels) were learnt, and two of 20 order cards were read wrong (0.79 and
0.74), the other 18 declined. Calibration knows which robot each card shows: an outline showing
much of a colour that robot has not is a board (four lanes), and the card beside it is taken.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.config import Config
from tests.vision.thresholds_patch import set_thresholds
from vision import order
from vision.colour import ColourModel, features, hex_to_bgr01
from vision.errors import NoCardFound

NAMES = ["red", "green", "blue", "yellow"]
# printed in the game's display colours, which the default colour model knows (calibration
# passes the model learnt from the boards' lanes; these pictures have no tile pictures)
BGR = {name: tuple(float(v) * 255 for v in hex_to_bgr01(Config().game.display[name]))
       for name in NAMES}


def _picture(robot: tuple[str, str, str], seed: int = 3) -> np.ndarray:
    """A wooden table; on the left a board larger than the card, four lanes framed by a margin
    as pale as paper; on the right a held card (a dark rim, pale paper, head, torso, legs)."""
    image = np.full((720, 1280, 3), (70, 110, 150), np.float64)
    image[100:620, 120:560] = (222, 226, 230)
    for k, colour in enumerate(("red", "green", "blue", "yellow")):
        image[150:570, 150 + k * 98:240 + k * 98] = BGR[colour]
    x, y = 760, 220
    image[y:y + 270, x:x + 200] = (40, 60, 40)
    image[y + 8:y + 262, x + 8:x + 192] = (225, 235, 238)
    image[y + 40:y + 95, x + 70:x + 130] = BGR[robot[0]]
    image[y + 105:y + 170, x + 55:x + 145] = BGR[robot[1]]
    image[y + 180:y + 240, x + 65:x + 90] = BGR[robot[2]]
    image[y + 180:y + 240, x + 110:x + 135] = BGR[robot[2]]
    image += np.random.default_rng(seed).normal(0, 3, image.shape)
    return cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0)


def _on_the_card(quad: np.ndarray) -> bool:
    centre = quad.mean(axis=0)
    return 760 <= centre[0] <= 960 and 220 <= centre[1] <= 490


def _model(config: Config) -> ColourModel:
    """The game's colours, and white paper as what surrounds them (calibration passes the model
    learnt from the boards' lanes, which learnt their pale margin so)."""
    plain = ColourModel.default(NAMES, config.game.display)
    paper = features(np.random.default_rng(0).normal(0.97, 0.02, (500, 3)).astype(np.float32))
    floor = np.eye(3, dtype=np.float32) * 1e-3
    return ColourModel(NAMES, plain.means, plain.covs, paper.mean(axis=0)[None],
                       (np.cov(paper.T) + floor)[None].astype(np.float32))


def test_the_pale_board_passes_for_a_card_that_shows_paper(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the cause: unlabelled, the largest card-shaped outline is the board, and it shows paper
    # (where its lanes are not told by their saturated colour: order._lanes_like, off here)
    image = _picture(("red", "green", "blue"))
    set_thresholds(monkeypatch, order, "order", calibration_lanes_saturated=0.0)
    quad, papered = order._calibration_card(image)
    assert not _on_the_card(quad) and papered


def test_lanes_told_by_their_colour_leave_the_card_even_unlabelled() -> None:
    image = _picture(("red", "green", "blue"))
    quad, papered = order._calibration_card(image)
    assert _on_the_card(quad) and papered


def test_the_card_beside_a_board_showing_a_colour_the_label_lacks_is_taken(config: Config) -> None:
    for robot in [("red", "green", "blue"), ("yellow", "blue", "green")]:
        quad, papered = order._calibration_card(_picture(robot), "-".join(robot), _model(config))
        assert _on_the_card(quad) and papered


def test_where_every_outline_shows_a_colour_the_label_lacks_the_largest_is_kept(
        config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    # labelled blue-blue-blue, the card's red head and green torso are foreign too (the lanes
    # rule, order._lanes_like, which passes the board over before the label is asked, off)
    set_thresholds(monkeypatch, order, "order", calibration_lanes_saturated=0.0)
    image = _picture(("red", "green", "blue"))
    quad, _ = order._calibration_card(image, "blue-blue-blue", _model(config))
    assert np.allclose(quad, order.find_card(image))


def test_cards_beside_a_pale_board_are_learnt_and_read(config: Config) -> None:
    robots = [("red", "green", "blue"), ("green", "blue", "yellow"),
              ("blue", "yellow", "red"), ("yellow", "red", "green")]
    examples = [(_picture(r, seed=i), "-".join(r)) for i, r in enumerate(robots)]
    look = order.learn(examples, _model(config))
    assert look.learnt
    assert look.aspect is not None and abs(look.aspect - 270 / 200) < 0.1  # the card's shape
    for robot in [("yellow", "blue", "yellow"), ("blue", "red", "green")]:
        reading = order.read_order(_picture(robot, seed=9), look).reading
        assert reading.robot == "-".join(robot)


def test_cards_nothing_is_learnt_from_are_declined_not_read_with_the_defaults(
        config: Config) -> None:
    # card pictures in which no card is found (the table alone): the built-in defaults would
    # read the next card all the same, and read such art's turned cards and lanes wrong
    table = np.random.default_rng(5).normal((70, 110, 150), 3, (720, 1280, 3))
    blank = np.clip(table, 0, 255).astype(np.uint8)
    examples = [(blank, "red-green-blue"), (blank, "green-blue-yellow")]
    look = order.learn(examples, _model(config))
    assert not look.learnt and look.declines
    with pytest.raises(NoCardFound, match="asked by touch"):
        order.read_order(_picture(("red", "green", "blue"), seed=9), look)
    kept = order.OrderLook.from_json(look.to_json())
    assert kept.declines
    # a calibration stored before this round had no such key: it reads as before
    older = look.to_json()
    del older["declines"]
    assert not order.OrderLook.from_json(older).declines


def test_a_calibration_without_card_pictures_reads_with_the_defaults(config: Config) -> None:
    look = order.OrderLook.default(_model(config))
    assert not look.declines
    reading = order.read_order(_picture(("red", "green", "blue"), seed=9), look).reading
    assert reading.robot in (None, "red-green-blue")


def _learnt_beside_boards(config: Config) -> order.OrderLook:
    robots = [("red", "green", "blue"), ("green", "blue", "yellow"),
              ("blue", "yellow", "red"), ("yellow", "red", "green")]
    return order.learn([(_picture(r, seed=i), "-".join(r)) for i, r in enumerate(robots)],
                       _model(config))


def test_a_look_that_misreads_its_own_calibration_card_is_caught(config: Config) -> None:
    look = _learnt_beside_boards(config)
    card = _picture(("red", "green", "blue"), seed=11)
    assert not order._misreads_own_cards(look, [(card, "red-green-blue")])
    assert order._misreads_own_cards(look, [(card, "blue-green-red")])
    # a calibration card it cannot find says nothing either way
    table = np.clip(np.random.default_rng(5).normal((70, 110, 150), 3, (720, 1280, 3)), 0, 255)
    assert not order._misreads_own_cards(look, [(table.astype(np.uint8), "red-green-blue")])


def test_learning_declines_when_the_look_misreads_its_own_cards(
        config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(order, "_misreads_own_cards", lambda look, examples: True)
    look = _learnt_beside_boards(config)
    assert look.declines and not look.learnt
