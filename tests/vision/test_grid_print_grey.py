"""Value templates in the darkest channel where a value's print barely shows in grey.

Own art whose cards are coloured with white numerals (``rm_art`` "colour") prints its 3 on a
pale yellow card: in grey the card is nearly as light as the numeral. Gate 10's own art 14001
learnt a 3 template whose print showed 0.66 of the values' median; its 3s fitted it 0.67-0.80
(the other values' cards 0.78 up), the 5's template often fitted them better, and nine of its
20 clean grids were declined (each 3 declined, and the empty cells beside it with it).
Calibration now measures each value's mean print and, where one shows under
``print_grey_weak`` of the median, learns the templates again in the darkest of the three
channels (white stays white, every coloured card is dark in one channel) and keeps that grey
when its weakest print shows ``print_grey_gain`` times as strongly. Reading matches the
templates in the grey they were learnt in (``GridLook.print_grey``).
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from vision import grid
from vision.calibration import Calibration
from vision.grid import learning
from vision.grid.area import print_grey
from vision.synth import calibration_examples
from vision.synth.scenes import Style, render_grid
from vision.thresholds import section

# gate 10's own art 14001 (a colour-art style, cards turned, no mat)
SEED = 14001
# a layout with 3s beside empty cells, as 14001 g005 laid them
LAYOUT: list[list[int | None]] = [
    [None, None, None, None, None],
    [None, None, None, None, None],
    [None, 3, 0, 4, None],
    [None, 0, 3, None, None],
    [None, 4, 1, 3, None],
]


@pytest.fixture(scope="module")
def pale(config: Config) -> tuple[Style, grid.GridLook]:
    style = Style.random(np.random.default_rng(SEED), config.game.display)
    assert style.rm_art == "colour"
    examples = calibration_examples(style, config, np.random.default_rng(SEED), per_kind=4,
                                    kinds=("grid",))
    return style, grid.learn([(e.image, e.grid) for e in examples])


def test_the_darkest_channel_shows_white_on_any_coloured_card() -> None:
    # white, pale yellow, dark red (BGR): in grey the yellow card is near white
    cards = np.array([[[250, 250, 250], [40, 190, 230], [60, 60, 200]]], np.uint8)
    grey, darkest = print_grey(cards)[0], print_grey(cards, "min")[0]
    assert int(grey[0]) - int(grey[1]) < 80 < int(grey[0]) - int(grey[2])
    assert int(darkest[0]) - int(darkest[1]) > 200 and int(darkest[0]) - int(darkest[2]) > 180


def test_a_pale_card_s_print_is_learnt_in_the_darkest_channel(
        pale: tuple[Style, grid.GridLook]) -> None:
    _, look = pale
    assert look.print_grey == "min"
    strengths = learning._print_strengths(look.templates, look.template_values,
                                          look.template_masks)
    # in the darkest channel no value's print is weak any more
    assert min(strengths) >= float(section("grid")["print_grey_weak"]) * np.median(strengths)


def test_dark_ink_on_pale_cards_keeps_the_usual_grey(calibration: Calibration) -> None:
    # the shared test style prints dark numerals on pale cards: every print shows in grey
    assert calibration.grid.print_grey == "grey"


def test_threes_beside_empty_cells_are_read(pale: tuple[Style, grid.GridLook]) -> None:
    style, look = pale
    rng = np.random.default_rng(SEED + 1)
    read = 0
    for _ in range(3):
        obs = grid.read_grid(render_grid(style, LAYOUT, rng), look)
        for r in range(5):
            for c in range(5):
                # never wrong; declining stays allowed
                assert obs.confidence[r][c] <= 0 or obs.cells[r][c] == LAYOUT[r][c]
        read += all(obs.confidence[r][c] > 0 for r in range(5) for c in range(5))
    assert read >= 2


def test_the_grey_is_stored_with_the_calibration(pale: tuple[Style, grid.GridLook]) -> None:
    _, look = pale
    data = look.to_json()
    assert grid.GridLook.from_json(data).print_grey == "min"
    del data["print_grey"]  # stored before the grey was chosen
    assert grid.GridLook.from_json(data).print_grey == "grey"
