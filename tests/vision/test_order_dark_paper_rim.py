"""Order calibration on dark paper with a bright rim (third art g2574: dark grey cards framed in
orange, held over a dark wood table). No calibration card showed pale paper, so dark paper was
tried only with each card taken as the largest outline at any edge level, which learnt from
three of the four pictures, and three cards against the pale rule's four kept the pale look.
Its paper test then asked for 0.02 of white and declined right readings at 0.002-0.006 (o013,
o017, o020). Dark paper is now tried with the cards found as the pale rule finds them too, and
that learns from all four."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from companion.config import Config
from tests.vision.thirdart.build import calibration
from tests.vision.thirdart.style import make_style
from vision import order
from vision.calibration import calibrate
from vision.dataset import Example, load_labelled
from vision.thresholds import section


def _g2574_examples(folder: Path, config: Config) -> list[Example]:
    """g2574's tile and order calibration pictures, as ``thirdart.build.calibration`` draws them
    (its grid pictures are left out: order calibration does not use them)."""
    calibration(folder, make_style(2574), np.random.default_rng([2574, 1]), grids=False)
    return load_labelled(folder, config)


def test_dark_cards_with_a_bright_rim_are_learnt_on_dark_paper(tmp_path: Path,
                                                               config: Config) -> None:
    examples = _g2574_examples(tmp_path, config)
    look = calibrate(examples, config).order
    assert look.learnt and look.dark_paper
    # grey paper shows round the robot on these cards, as on every dark-paper set
    assert look.paper_share is not None and look.paper_share > 0.3
    for example in examples:
        if example.kind == "order":
            assert order.read_order(example.image, look).reading.robot == example.robot


def test_without_it_the_pale_look_is_kept(tmp_path: Path, config: Config,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    real = dict(section("order"))
    monkeypatch.setattr(order, "section",
                        lambda name: {**real, "dark_paper_both_ways": False} if name == "order"
                        else section(name))
    look = calibrate(_g2574_examples(tmp_path, config), config).order
    assert look.learnt and not look.dark_paper
    assert look.paper_share is not None and look.paper_share < 0.05
