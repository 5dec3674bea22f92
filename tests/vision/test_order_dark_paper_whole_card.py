"""Order calibration on dark paper finds the whole card, not the robot printed on it (third art
g2490: a dark grey card with a faint sunburst and a pale rim, held over a dark sleeve on glass).

Two causes, both in the dark-paper pass: the search for the largest card stops where two edge
levels in a row find one size, and on the dark table the robot's head and torso were so found
twice before the level that shows the card's edge (three of four calibration outlines on the
robot); and among every outline, a whole card was passed over as showing no part colour, its
parts (balanced on the pale rim) paler than the boards' colours the default look classifies.
Nothing was learnt and all 20 order cards were declined. The dark pass now takes the largest
outline at any level that shows dark paper and saturated part colours.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from companion.config import Config
from tests.vision.thirdart.build import calibration
from tests.vision.thirdart.style import make_style
from vision import order
from vision.calibration import calibrate
from vision.dataset import load_labelled


def _g2490_calibration(folder: Path) -> None:
    """g2490's tile and order calibration pictures, as ``thirdart.build.calibration`` draws them
    (its grid pictures, drawn last, are left out: order calibration does not use them)."""
    calibration(folder, make_style(2490), np.random.default_rng([2490, 1]), grids=False)


def test_dark_cards_on_a_dark_table_are_learnt_whole(tmp_path: Path, config: Config) -> None:
    _g2490_calibration(tmp_path)
    examples = load_labelled(tmp_path, config)
    look = calibrate(examples, config).order
    assert look.learnt and not look.declines and look.dark_paper
    # the shape learnt is the card's (g2490's cards about 1.40-1.45), not the robot's head and
    # torso (1.15-1.19)
    assert look.aspect is not None and 1.35 <= look.aspect <= 1.5
    # every calibration card, one of them held upside down, reads as its label
    for example in examples:
        if example.kind == "order":
            assert order.read_order(example.image, look).reading.robot == example.robot
