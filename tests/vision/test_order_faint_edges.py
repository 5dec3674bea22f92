"""Dark robot cards on dark tables, the faint-edges round (third art b2102, f2427, g2504, g2465h).

- b2102 (dark grey cards with a printed grid, on a dark table): the card's edge steps from the
  table by less than the lowest edge level shows, so calibration found only the robot printed
  on it, learnt nothing, and all 20 order cards were declined. Cards on dark paper are looked
  for at ``faint_levels`` too, where no card is found otherwise.
- f2427 (dark green cards on dark wood): learnt on pale paper by their print alone, showing
  hardly any white; cards learnt so (``faint_paper_share``) are learnt on dark paper too, and
  then looked for at the faint levels (6 of 20 cards not found).
- g2504 (dark grey cards with a white rim): the yellow learnt lay a hair nearer the boards'
  green than their yellow, so the dark-paper pass learnt nothing; the learnt colours read each
  of the boards' colours as itself, which now passes (:func:`order.colours_own`).
- g2465h (hard, the same cards in low light): found at the faint levels, calibration learnt
  colours so broad that the cards' paper read as them (0.73 of it) and a card was read wrong:
  such a look is not kept (``calibration_max_outside``). Since dark paper is tried with the cards
  found as the pale rule finds them too (``dark_paper_both_ways``), those learn narrow colours
  (0.09 of the paper read as them) and that look is kept: 11 of g2465h's 20 read, none wrong.

Every picture is drawn by the third art's generator (`tests/vision/thirdart`) in the style of
the set named; the calibration pictures are the sets' own.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.test_order_checked_table import order_config
from tests.vision.thirdart.build import calibration
from tests.vision.thirdart.scenes import order_shot
from tests.vision.thirdart.style import make_style
from vision import order
from vision.calibration import Calibration, calibrate
from vision.colour import ColourModel
from vision.dataset import Example, load_labelled
from vision.errors import NoCardFound


def _calibration(seed: int, folder: Path, config: Config) -> list[Example]:
    """The set's tile and order calibration pictures (its grid pictures, drawn last, are left
    out: order calibration does not use them)."""
    calibration(folder, make_style(seed), np.random.default_rng([seed, 1]), grids=False)
    return load_labelled(folder, config)


def _reads_its_calibration_cards(look: order.OrderLook, examples: list[Example],
                                 least: int = 4) -> None:
    """Every calibration card found reads as its label, at least ``least`` of them found."""
    read = 0
    for example in examples:
        if example.kind == "order":
            try:
                reading = order.read_order(example.image, look).reading
            except NoCardFound:
                continue
            assert reading.robot == example.robot
            read += 1
    assert read >= least


def test_dark_cards_on_a_dark_table_are_found_at_the_faint_levels(
        tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = _calibration(2102, tmp_path, config)
    look = calibrate(examples, config).order
    assert look.learnt and not look.declines and look.dark_paper
    # the card's shape (about 1.47), not the robot's head and torso (1.17-1.21)
    assert look.aspect is not None and 1.35 <= look.aspect <= 1.55
    # a card under a thumb may not be found: three of the four at least
    _reads_its_calibration_cards(look, examples, least=3)
    # without the faint levels nothing is learnt (as on main)
    order_config(monkeypatch, faint_levels=[])
    look = calibrate(examples, config).order
    assert not look.learnt and look.declines


@pytest.fixture(scope="module")
def green_paper(tmp_path_factory: pytest.TempPathFactory) -> order.OrderLook:
    """f2427's look: dark green cards with a purple rim."""
    config = Config()
    return calibrate(_calibration(2427, tmp_path_factory.mktemp("f2427"), config), config).order


ROBOT = ("green", "yellow", "red")


def _shot(seed: int) -> np.ndarray:
    return order_shot(make_style(2427), np.random.default_rng(seed), False, ROBOT).image


def test_cards_showing_little_white_are_learnt_on_dark_paper(
        tmp_path: Path, config: Config, green_paper: order.OrderLook,
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert green_paper.learnt and green_paper.dark_paper
    # as on main: learnt on pale paper by the print's likeness, hardly any white shown
    order_config(monkeypatch, faint_paper_share=0.0)
    pale = calibrate(_calibration(2427, tmp_path, config), config).order
    assert pale.learnt and not pale.dark_paper
    assert pale.paper_share is not None and pale.paper_share < 0.1


@pytest.mark.parametrize("seed", [1, 6])
def test_a_dark_green_card_on_dark_wood_is_read(green_paper: order.OrderLook, seed: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    image = _shot(seed)
    assert order.read_order(image, green_paper).reading.robot == "-".join(ROBOT)
    # found at the faint levels only: the usual levels find no card. Where none is found the
    # reader also looks around the robot printed on it (order._leaked_card), and finds this one
    # so too (test below): that search is turned off here
    order_config(monkeypatch, faint_levels=[], leak_grow=0.0)
    with pytest.raises(NoCardFound):
        order.read_order(image, green_paper)


@pytest.mark.parametrize("seed", [1, 6])
def test_without_the_faint_levels_the_search_around_the_print_reads_it(
        green_paper: order.OrderLook, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    image = _shot(seed)
    order_config(monkeypatch, faint_levels=[])
    assert order.read_order(image, green_paper).reading.robot == "-".join(ROBOT)


def test_a_card_found_at_the_usual_levels_is_found_as_before(
        green_paper: order.OrderLook, monkeypatch: pytest.MonkeyPatch) -> None:
    images = [_shot(seed) for seed in (0, 2, 4, 5)]
    found = [order.locate(image, green_paper) for image in images]
    order_config(monkeypatch, faint_levels=[])
    same = 0
    for image, quad in zip(images, found, strict=True):
        try:
            usual = order.locate(image, green_paper)
        except NoCardFound:
            continue
        assert np.allclose(usual, quad, atol=0.01)  # the same outline (align to float noise)
        same += 1
    assert same >= 2


def test_white_cards_are_learnt_on_pale_paper(calibration: Calibration) -> None:
    look = calibration.order
    assert look.learnt and not look.dark_paper


def test_colours_learnt_a_little_off_pass_when_they_read_the_boards_as_themselves() -> None:
    names = ["red", "green", "blue", "yellow"]
    eye = np.stack([np.eye(3)] * 4)
    boards = ColourModel(names, np.array([[0, 0, 0], [10, 0, 0], [0, 10, 0], [10, 10, 0]],
                                         np.float64), eye)
    # the learnt yellow lies 4.9 from the boards' green, 5.1 from their yellow (g2504: 42.0
    # and 43.7), but the boards' yellow is read as the learnt yellow, their green as the
    # learnt green
    off = np.array([[0, 0, 0], [10, -1, 0], [0, 10, 0], [10, 4.9, 0]], np.float64)
    assert order.colours_own(ColourModel(names, off, eye), boards)
    # green and yellow learnt from each other's parts fail both ways
    swapped = np.array([[0, 0, 0], [10, 10, 0], [0, 10, 0], [10, 0, 0]], np.float64)
    assert not order.colours_own(ColourModel(names, swapped, eye), boards)


def test_dark_cards_with_a_white_rim_are_learnt(tmp_path: Path, config: Config) -> None:
    examples = _calibration(2504, tmp_path, config)
    look = calibrate(examples, config).order
    assert look.learnt and look.dark_paper
    _reads_its_calibration_cards(look, examples)


def test_a_look_whose_paper_reads_as_part_colours_is_not_kept(
        tmp_path: Path, config: Config, monkeypatch: pytest.MonkeyPatch) -> None:
    examples = _calibration(2465, tmp_path, config)
    # the cards found as the pale rule finds them learn dark paper whose colours stay narrow
    # (order.learn, dark_paper_both_ways): that look is kept, and the broad one is not
    look = calibrate(examples, config).order
    assert look.learnt and look.dark_paper
    assert look.colour_outside is not None and look.colour_outside < 0.2
    # found only at the faint levels, as the round that made this test found them
    order_config(monkeypatch, dark_paper_both_ways=False)
    look = calibrate(examples, config).order
    assert not look.learnt and look.declines
    order_config(monkeypatch, dark_paper_both_ways=False, calibration_max_outside=1.0)
    look = calibrate(examples, config).order
    assert look.learnt and look.colour_outside is not None and look.colour_outside > 0.5
