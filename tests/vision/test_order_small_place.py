"""A part whose learnt place is a thin strip (other art 15016, gate 11: a round head drawn
round a white visor, where most calibration cards agreed on 24 canonical pixels only). The pixel
floor ``min_mask_pixels`` (12) then asks half of the place to show the part's colour, where a
larger place is asked ``min_part_shown`` (a quarter) of it; a card lined up a pixel off showed
7 and 8 head pixels, all of the head's colour, and was declined (o008, o017). Such a place is
read from itself grown by ``part_grow`` canonical pixels (in the part's wide band, off the other
parts' places) when it shows too few, on the same terms."""

from __future__ import annotations

import dataclasses

import numpy as np

from vision import order
from vision.calibration import Calibration
from vision.thresholds import section


def _look(calibration: Calibration, head_rows: tuple[int, ...] = (14, 15, 17)) -> order.OrderLook:
    """The calibrated look with the head's place a thin strip: a few rows of 8 pixels."""
    masks = order.default_masks()
    masks[0] = False
    for y in head_rows:
        masks[0, y, 15:23] = True
    return dataclasses.replace(calibration.order, masks=masks, learnt=True)


def _card(look: order.OrderLook, head: str, rows: range, others: str = "green") -> np.ndarray:
    """Colour indices: the torso and legs places ``others``, the head's colour on ``rows``
    (columns 13..25: a head drawn a pixel or two beside its learnt place), paper elsewhere."""
    names = look.model.names
    cls = np.full(look.masks.shape[1:], -1)
    cls[look.masks[1] | look.masks[2]] = names.index(others)
    cls[rows.start:rows.stop, 13:26] = names.index(head)
    return cls


def test_a_thin_place_is_asked_more_than_a_quarter_of_it(calibration: Calibration) -> None:
    look = _look(calibration)
    size = int(look.masks[0].sum())
    assert size * float(section("order")["min_part_shown"]) < \
        float(section("order")["min_mask_pixels"]) <= size


def test_a_head_a_pixel_off_its_thin_place_is_read_from_the_place_grown(
        calibration: Calibration) -> None:
    look = _look(calibration)
    # the head's colour on rows 10..13 and 16..18 (its visor, rows 14..15, white): 8 of the
    # place's 24 pixels show it (row 17), the rest paper; declined before
    cls = _card(look, "blue", range(10, 19))
    cls[14:16] = -1
    assert int((cls[look.masks[0]] >= 0).sum()) < int(section("order")["min_mask_pixels"])
    reading = order.read_classes(cls, look)
    assert reading.robot == "blue-green-green"
    # the place grown takes no pixel of another part's place
    grown = order._grown_place(look.masks, 0)
    assert not (grown & (look.masks[1] | look.masks[2])).any()
    assert grown.sum() > look.masks[0].sum()


def test_the_grown_place_reads_on_the_same_terms(calibration: Calibration) -> None:
    look = _look(calibration)
    names = look.model.names
    # two colours in the grown place, neither leading by min_confidence: declined
    cls = _card(look, "blue", range(10, 19))
    cls[14:16] = -1
    cls[16:18, 13:26] = names.index("red")
    assert order.read_classes(cls, look).robot is None
    # too few part pixels in the grown place too (a speck of the head's colour): declined
    cls = _card(look, "blue", range(17, 18))
    cls[17, 13:20] = -1
    assert order.read_classes(cls, look).robot is None


def test_a_place_large_enough_is_not_grown(calibration: Calibration) -> None:
    # a place of 48 pixels or more: the pixel floor asks no more than min_part_shown of it, and
    # a part showing too little of it is declined as before
    look = _look(calibration, head_rows=(11, 12, 13, 14, 15, 16))
    assert look.masks[0].sum() * float(section("order")["min_part_shown"]) >= \
        float(section("order")["min_mask_pixels"])
    # (the head's colour on rows 9..11: 8 pixels of the place, 20 of it grown)
    cls = _card(look, "blue", range(9, 12))
    assert int((cls[look.masks[0]] >= 0).sum()) < int(section("order")["min_mask_pixels"])
    assert order.read_classes(cls, look).robot is None
