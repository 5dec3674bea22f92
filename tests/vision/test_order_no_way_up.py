"""An order card whose top nothing learnt can tell: where calibration found that the user's
cards' part shapes and print look alike both ways up, the end nearer the top of the picture is
only a guess. A card held upside down then read with its head and legs swapped at full
confidence (other art h11523 o016: a yellow-green-green card held upside down in low light read
green-green-yellow). Such a card is read only when it reads the same either way up; an
uncalibrated look keeps taking the end nearer the top as the top."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision import order
from vision.calibration import Calibration


def _card(look: order.OrderLook, head: str, torso: str, legs: str) -> np.ndarray:
    h, w = look.masks.shape[1:]
    cls = np.full((h, w), -1, np.int64)
    for part, colour in enumerate((head, torso, legs)):
        cls[look.masks[part]] = look.model.names.index(colour)
    return cls


def _no_way_up(calibration: Calibration) -> order.OrderLook:
    # what calibration learns from cards alike both ways up: the parts, but no cue to the top
    return dataclasses.replace(calibration.order, learnt=True, turn_margin=None, sketch=None,
                               sketch_margin=None)


def test_a_card_whose_top_nothing_tells_is_declined(calibration: Calibration) -> None:
    look = _no_way_up(calibration)
    upright = _card(look, "yellow", "green", "green")
    assert order.which_way_up(upright, look) != order.which_way_up(upright, look)  # NaN
    # the colours are read, but which end is the head is not known
    assert order.read_classes(upright, look).robot == "yellow-green-green"
    assert order.read_turned(upright, look).robot is None
    assert order.read_turned(upright[::-1, ::-1].copy(), look).robot is None


def test_a_card_that_reads_the_same_both_ways_up_is_still_read(calibration: Calibration) -> None:
    look = _no_way_up(calibration)
    card = _card(look, "red", "blue", "red")
    assert order.read_turned(card, look).robot == "red-blue-red"
    assert order.read_turned(card[::-1, ::-1].copy(), look).robot == "red-blue-red"


def test_an_uncalibrated_look_takes_the_end_nearer_the_top_as_the_top(
        calibration: Calibration) -> None:
    look = dataclasses.replace(_no_way_up(calibration), learnt=False)
    card = _card(look, "yellow", "green", "green")
    assert order.read_turned(card, look).robot == "yellow-green-green"
