"""Robot Master grid: the nearest calibration card's agreement does not settle a close call
when the card's colour names another value (judge.judged, `[grid]` `agreed_colour_against`).

Blind own art 41003 g053 (gate 36) cell (4, 0): a 3 read as 5 at 0.11. The 5's templates led
the 3's by 0.057, the nearest calibration card was a 5 (enough, at min_gap_agreed 0.04), while
the card's colour was the 3s' and no other value's. Two witnesses of three against the print's
narrow lead: the call is left to the rules that weigh the prints themselves.
"""

from __future__ import annotations

import numpy as np
import pytest

from companion.config import Config
from companion.ports import GridObservation
from vision import synth
from vision.calibration import Calibration, calibrate
from vision.dataset import Example
from vision.grid import judge
from vision.read import read
from vision.synth.scenes import Style
from vision.thresholds import section


@pytest.fixture(scope="module")
def own41003_g053() -> tuple[Example, Calibration]:
    """Own art seed 41003's calibration and its test picture g053, drawn again in the order
    ``synth.write_dataset`` draws them (every earlier test picture drawn first)."""
    config = Config()
    rng = np.random.default_rng(41003)
    style = Style.random(rng, config.game.display)
    examples = synth.calibration_examples(style, config, rng, 4)
    kinds = ("tiles", "order", "grid")
    for i in range(54):
        example = synth.make_example(kinds[i % 3], f"{kinds[i % 3][0]}{i:03d}.png", style,
                                     config, rng)
    assert example.name == "g053.png" and example.grid is not None
    return example, calibrate(examples, config)


def _cell(example: Example, calibration: Calibration) -> tuple[int | None, float]:
    seen = read(example.image, "grid", calibration)
    assert isinstance(seen, GridObservation)
    return seen.cells[4][0], float(seen.confidence[4][0])


def test_a_close_call_the_cards_colour_speaks_against_is_not_read_wrong(
        own41003_g053: tuple[Example, Calibration]) -> None:
    example, calibration = own41003_g053
    assert example.grid is not None and example.grid[4][0] == 3
    value, confidence = _cell(example, calibration)
    assert value == 3 or confidence == 0.0


def test_without_the_rule_the_nearest_card_carried_it(
        own41003_g053: tuple[Example, Calibration], monkeypatch: pytest.MonkeyPatch) -> None:
    example, calibration = own41003_g053
    off = {**section("grid"), "agreed_colour_against": False}
    monkeypatch.setattr(judge, "section", lambda name: off if name == "grid" else section(name))
    value, confidence = _cell(example, calibration)
    assert value == 5 and confidence > 0.0
