"""The print's middle: whether a piece of ink sits in the middle of a card's print, a witness
that can only take a reading away (:func:`middle_doubt`).

Pip cards tell a 4 from a 5, and a 2 from a 3, by one pip in the middle. Where a picture's
cards lie larger than calibration's, a 5's outer pips sit where a 4's template has its pips
and its middle pip on the 4's bare paper: the 4's template then fits a clear 5 better than the
5's own (hard own art h45021 g008: two sharp 5s read as 4, 0.81 against 0.73, the nearest
calibration card a 4). Whether the print has ink in its middle does not depend on the scale.
Calibration says it of each value: where every template of a value (a 2, a 4) has no ink
there and every template of some other value (a 3, a 5) has some, a card read as the first
that shows ink there, cut where that value's templates fit it best, is declined.

Only the middle is asked, not how many pieces the print has: corner numerals and a card's
edge fall inside the print's box on cards laid a little off or larger (third art g2751, own art
55001: a 4 with its corner numeral is five pieces), while nothing but the print itself lies at
its middle.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.grid.look import GridLook
from vision.grid.templates import every_template, fit_at, per_look, print_ink
from vision.thresholds import section


def _pieces(crop: np.ndarray) -> list[tuple[float, float]]:
    """The middles (x, y) of the pieces of ink of the print in ``crop`` (grey, the print's
    box; :func:`print_ink`): each part of the ink that no edge of the crop reaches (a neighbour
    card's edge, a pip cut by the box) and that is at least ``middle_min_share`` of the largest
    such part (noise, a speck of dust) is a piece."""
    ink = print_ink(crop)
    n, _, stats, middles = cv2.connectedComponentsWithStats(ink.astype(np.uint8),
                                                            connectivity=8)
    h, w = crop.shape
    inside = [k for k in range(1, n)
              if stats[k, 0] > 0 and stats[k, 1] > 0
              and stats[k, 0] + stats[k, 2] < w and stats[k, 1] + stats[k, 3] < h]
    if not inside:
        return []
    floor = float(section("grid")["middle_min_share"]) * max(int(stats[k, 4]) for k in inside)
    return [(float(middles[k, 0]), float(middles[k, 1])) for k in inside
            if stats[k, 4] >= floor]


def middle_inked(crop: np.ndarray) -> bool:
    """Whether the print in ``crop`` (grey, the print's box) has a piece of ink (:func:`_pieces`)
    whose middle lies within ``middle_reach`` of the crop's (a share of its shorter side)."""
    h, w = crop.shape
    reach = float(section("grid")["middle_reach"]) * min(h, w)
    return any(np.hypot(x - (w - 1) / 2, y - (h - 1) / 2) <= reach for x, y in _pieces(crop))


def _pips(look: GridLook) -> bool:
    """Whether the look's cards are pips: for at least ``middle_pip_values`` of the values 2-5
    every template has that many pieces, and for none of them every template another number
    (a 2's pips may touch its template's edge; numerals and robots are one or two pieces
    whatever their value)."""
    agree = 0
    for v in range(2, 6):
        seen = {len(_pieces(t)) for t in look.templates[look.template_values == v]}
        if seen == {v}:
            agree += 1
        elif len(seen) == 1:
            return False
    return agree >= int(section("grid")["middle_pip_values"])


def value_middles(look: GridLook) -> np.ndarray:
    """(6,): per value, 1 when every calibration template of it has ink at its middle, 0 when
    none has, -1 when they disagree or the value was not seen (:func:`every_template`); all
    -1 on a look whose cards are not pips (:func:`_pips`)."""
    return per_look(look, "middles", lambda lk: every_template(lk, middle_inked) if _pips(lk)
                    else np.full(6, -1, np.int64))


def middle_doubt(look: GridLook, window: np.ndarray, value: int) -> bool:
    """Whether the card in ``window`` read as ``value``, a value whose calibration templates
    all have no ink at their middle (a 2, a 4), has ink there, cut where those templates fit
    it best, as some other value's templates all have (a 3, a 5).

    Only ink where the value has none is asked, not the other way: a card read right whose
    middle pip the box missed (a 5 lying at its window's edge, the 5's templates fitting a
    little off) showed no ink at its middle (own art 55001 g017, g032, g053)."""
    if not bool(section("grid")["middle_witness"]):
        return False
    inked = value_middles(look)
    if inked[value] != 0 or not (np.delete(inked, value) == 1).any():
        return False
    th, tw = look.templates.shape[1:]
    if window.shape[0] < th or window.shape[1] < tw:
        return False
    x, y = fit_at(look, window, (value,))
    shown = int(middle_inked(window[y:y + th, x:x + tw]))
    return shown == 1
