"""Order card calibration: calibration cards held upside down.

Third art t3: two of the four calibration cards (green-blue-yellow, yellow-red-green) were held
upside down. Calibration took every outline upright (its top the end nearer the top of the
picture), so their legs' colours were learnt as their heads' and the other way round: the learnt
yellow was the green of their parts (its mean a teal), the learnt green a mix, the part places
and the print learnt half turned. A card red-green-red, its teal-green torso under a warm lamp,
was then read red-yellow-red at 1.0 (o007); t7 (two cards so held) declined 16 of 20 cards.
A calibration card whose head and legs show the labelled colours clearly better turned, and
whose print does not fit the other cards better as found, is turned round before anything is
learnt from it; and a colour learnt nearer another of the boards' colours than its own (what
such cards taught) makes calibration decline the cards rather than read them.
"""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np
import pytest

from companion.config import Config
from tests.vision.test_order_calibration_label import _model
from vision import order
from vision.colour import hex_to_bgr01

NAMES = ["red", "green", "blue", "yellow"]
BGR = {name: tuple(float(v) * 255 for v in hex_to_bgr01(Config().game.display[name]))
       for name in NAMES}
ROBOTS = [("red", "green", "blue"), ("green", "blue", "yellow"),
          ("blue", "yellow", "red"), ("yellow", "red", "green")]
TURNED = (False, True, False, True)  # as in t3: the second and the fourth held upside down


def _card(robot: tuple[str, str, str], rim: tuple[int, int, int] = (40, 60, 40),
          paper: tuple[int, int, int] = (225, 235, 238), ink: tuple[int, int, int] = (60, 60, 60),
          antenna: tuple[int, int, int] = (90, 90, 90)) -> np.ndarray:
    """A robot card upright: a rim, paper (a dark rim and pale paper unless told), a title and
    a number, a head with an antenna, a torso, two legs and grey feet."""
    card = np.full((270, 200, 3), rim, np.float64)
    card[8:262, 8:192] = paper
    card[18:28, 24:90] = ink  # the title
    card[18:28, 150:176] = ink  # the number
    card[34:44, 98:102] = antenna
    card[44:96, 65:135] = BGR[robot[0]]
    card[104:170, 50:150] = BGR[robot[1]]
    card[178:238, 62:92] = BGR[robot[2]]
    card[178:238, 108:138] = BGR[robot[2]]
    card[238:246, 56:96] = (150, 150, 150)  # the feet
    card[238:246, 104:144] = (150, 150, 150)
    return card


def _picture(robot: tuple[str, str, str], turned: bool, seed: int,
             table: tuple[int, int, int] = (70, 110, 150),
             card: Callable[[tuple[str, str, str]], np.ndarray] = _card) -> np.ndarray:
    """A table (wood unless told), the card held on it, upright or upside down."""
    image = np.full((720, 1280, 3), table, np.float64)
    drawn = card(robot)
    image[220:490, 560:760] = drawn[::-1, ::-1] if turned else drawn
    image += np.random.default_rng(seed).normal(0, 3, image.shape)
    return cv2.GaussianBlur(np.clip(image, 0, 255).astype(np.uint8), (3, 3), 0)


def _examples(picture: Callable[[tuple[str, str, str], bool, int], np.ndarray] = _picture
              ) -> list[tuple[np.ndarray, str]]:
    """The four calibration pictures, the second and the fourth card held upside down."""
    return [(picture(robot, turned, seed), "-".join(robot))
            for seed, (robot, turned) in enumerate(zip(ROBOTS, TURNED, strict=True))]


def test_the_cards_held_upside_down_are_seen_so(config: Config) -> None:
    model = _model(config)
    examples = _examples()
    found = [order._calibration_card(image, robot, model) for image, robot in examples]
    for (image, robot), (quad, _), turned in zip(examples, found, TURNED, strict=True):
        # taken upright, a card held upside down shows its labelled colours turned
        evidence = order._label_turned(order.warp_card(image, quad), robot, model)
        assert (evidence >= 0.8) if turned else (evidence <= -0.8)
    held = order._held_turned(examples, found, model)
    for before, after, turned in zip(found, held, TURNED, strict=True):
        assert before is not None and after is not None
        assert np.array_equal(after[0], np.roll(before[0], 2, axis=0) if turned else before[0])


def test_a_card_whose_print_fits_the_others_as_found_is_not_turned(config: Config) -> None:
    # labelled head and legs swapped (the colours say turned), but printed the right way up
    # like the other cards: the print overrules the colours
    model = _model(config)
    examples = [(_picture(robot, False, seed), "-".join(robot))
                for seed, robot in enumerate(ROBOTS)]
    examples[1] = (examples[1][0], "yellow-blue-green")
    found = [order._calibration_card(image, robot, model) for image, robot in examples]
    assert order._held_turned(examples, found, model) == found


def test_the_look_learnt_reads_a_green_torso_green(config: Config) -> None:
    look = order.learn(_examples(), _model(config))
    assert look.learnt and not look.declines
    # every colour learnt lies nearest its own
    assert np.array_equal(_model(config).d2_features(look.model.means).argmin(axis=1),
                          np.arange(len(NAMES)))
    for robot, turned in [(("red", "green", "red"), False), (("blue", "green", "yellow"), True),
                          (("yellow", "blue", "green"), False)]:
        reading = order.read_order(_picture(robot, turned, 9), look).reading
        assert reading.robot == "-".join(robot)


def test_colours_learnt_from_cards_taken_upright_decline(config: Config,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    # as before: the cards held upside down taken upright teach yellow from green parts and
    # green from yellow ones; calibration declines the cards rather than read them so
    monkeypatch.setattr(order, "_held_turned", lambda examples, found, model: found)
    look = order.learn(_examples(), _model(config))
    assert look.declines and not look.learnt
