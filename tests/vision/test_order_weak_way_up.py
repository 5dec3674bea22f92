"""Part shapes that tell top from bottom a little less clearly are still a cue.

Other art 22014: the four calibration cards, held in a hand, told top from bottom by 0.128,
0.149, 0.044 and 0.168 (median 0.139), under the 0.15 floor then asked, so no way-up cue was
learnt and 13 of 20 clean cards whose head and legs differ were declined. Every one of the 20
leaned the right way by 1.45 to 3.39 of the margin learnt from that median (two held upside
down: -1.65 and -3.38). The floor is now 0.12; evidence well under it still teaches no cue, and
cards are then read only when they read the same either way up.
"""

from __future__ import annotations

import dataclasses

import pytest

from tests.vision.test_order_no_way_up import _card
from vision import order
from vision.calibration import Calibration
from vision.thresholds import section

CARDS_22014 = [0.128, 0.149, 0.044, 0.168]


def test_cards_held_in_a_hand_teach_a_way_up_cue() -> None:
    margin = order.turn_margin(CARDS_22014)
    assert margin is not None
    assert margin == pytest.approx(float(section("order")["turn_fraction"]) * 0.1385)


def test_evidence_well_under_the_floor_teaches_none() -> None:
    assert order.turn_margin([0.05, -0.05, 0.06, 0.04]) is None


def test_a_card_leaning_clearly_is_read_either_way_up(calibration: Calibration,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    look = dataclasses.replace(calibration.order, learnt=True,
                               turn_margin=order.turn_margin(CARDS_22014), sketch=None,
                               sketch_margin=None)
    card = _card(look, "blue", "blue", "green")
    # the least lean of 22014's cards, upright and held upside down
    monkeypatch.setattr(order, "way_up_cues", lambda cls, look, card=None: [1.45])
    assert order.read_turned(card, look).robot == "blue-blue-green"
    monkeypatch.setattr(order, "way_up_cues", lambda cls, look, card=None: [-1.65])
    assert order.read_turned(card, look).robot == "green-blue-blue"
    # a lean under the margin still declines a card whose head and legs differ
    monkeypatch.setattr(order, "way_up_cues", lambda cls, look, card=None: [0.9])
    assert order.read_turned(card, look).robot is None
