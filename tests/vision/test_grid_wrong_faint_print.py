"""Robot Master grid: a value's print must show about as strongly as the picture's other prints
do. Own art h9112 g005 (hard): three pale yellow 3s, their pale numerals faint, were read as 5
(a dark card's white numeral) by a gap of 0.10-0.14 at confidence 0.04-0.24; each showed the
5's print at under half the strength the picture's other cards showed theirs. A dim picture
dims every print alike, and is still read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import DICE_PIPS, learnt_templates
from tests.vision.grid_area import area as _area
from vision import grid
from vision.grid import geometry
from vision.thresholds import section

PAPER, INK = 215, 40


def _card(value: int, rng: np.random.Generator, contrast: float = 1.0) -> np.ndarray:
    """A pip card's grey cell (a ring for 0); ``contrast`` scales its print and outline about
    the paper (a pale card's pale print, or a dim corner of the table)."""
    w, h = geometry._cell_size()
    card = np.full((h, w), float(PAPER), np.float32)
    cv2.rectangle(card, (2, 2), (w - 3, h - 3), 120, 1)
    if value == 0:
        cv2.circle(card, (w // 2, h // 2), 7, INK, 2)
    for fx, fy in DICE_PIPS[value]:
        cv2.circle(card, (round(6 + fx * (w - 12)), round(8 + fy * (h - 16))), 4, INK, -1)
    card = PAPER + (card - PAPER) * contrast + rng.normal(0, 2, card.shape)
    return np.asarray(np.clip(card, 0, 255).astype(np.uint8))


@pytest.fixture(scope="module")
def look() -> grid.GridLook:
    """Templates learnt from two cards of each value; each value's calibration card is one
    feature row (a cell's feature row names its nearest calibration card)."""
    templates, values, masks = learnt_templates(_card)
    return grid.GridLook(features=np.eye(6, dtype=np.float32), classes=np.arange(6),
                         max_distance=1.0, templates=templates, template_values=values,
                         template_masks=masks)


def _read(look: grid.GridLook, shown: dict[tuple[int, int], tuple[int, float]]
          ) -> dict[tuple[int, int], tuple[int | None, float]]:
    """Classify a picture of cards (cell -> value shown, print contrast); each cell's nearest
    calibration card names the value its print shows."""
    rng = np.random.default_rng(11)
    g = _area({rc: _card(v, rng, k) for rc, (v, k) in shown.items()})
    cells = sorted(shown)
    feats = np.zeros((25, 6), np.float32)
    for r, c in cells:
        feats[r * 5 + c, shown[(r, c)][0]] = 1.0
    windows = [geometry._window(g, r, c) for r in range(5) for c in range(5)]
    values, confidences, _ = grid.classify(look, feats, windows=windows,
                                           settled=lambda _: {i for i in range(25)
                                                              if (i // 5, i % 5) not in shown})
    return {(r, c): (values[r * 5 + c], confidences[r * 5 + c]) for r, c in cells}


PICTURE = {(0, 0): 1, (0, 1): 2, (0, 2): 4, (1, 0): 0, (1, 1): 2, (1, 2): 1, (2, 0): 4,
           (2, 1): 0}


def test_a_print_far_fainter_than_the_pictures_others_is_declined(look: grid.GridLook) -> None:
    shown = {rc: (v, 1.0) for rc, v in PICTURE.items()}
    shown[(3, 3)] = (5, 0.35)  # fits the 5's print as well as any 5, at a third of its ink
    read = _read(look, shown)
    assert read[(3, 3)][1] == 0.0, read[(3, 3)]
    assert all(read[rc] == (v, read[rc][1]) and read[rc][1] > 0 for rc, v in PICTURE.items())
    # the same card printed as strongly as the others is read
    shown[(3, 3)] = (5, 1.0)
    assert _read(look, shown)[(3, 3)][0] == 5 and _read(look, shown)[(3, 3)][1] > 0


def test_a_dim_picture_dims_every_print_alike_and_is_read(look: grid.GridLook) -> None:
    shown = {rc: (v, 0.35) for rc, v in PICTURE.items()}
    shown[(3, 3)] = (5, 0.35)
    read = _read(look, shown)
    assert all(read[rc][0] == shown[rc][0] and read[rc][1] > 0 for rc in shown), read


def test_strength_is_the_prints_contrast_against_calibrations(look: grid.GridLook) -> None:
    rng = np.random.default_rng(3)
    for k in (1.0, 0.5, 0.25):
        g = _area({(1, 1): _card(5, rng, k)})
        (s,) = grid.print_strengths(look, [geometry._window(g, 1, 1)], [5])
        assert s == pytest.approx(k, rel=0.15), (k, s)


def test_too_few_cards_tell_nothing_of_the_pictures_light(look: grid.GridLook) -> None:
    # fewer prints read than print_strength_cells: no measure of the picture's light, and the
    # faint one is judged as before
    few = int(section("grid")["print_strength_cells"]) - 1
    shown = {rc: (v, 1.0) for rc, v in list(PICTURE.items())[:few - 1]}
    shown[(3, 3)] = (5, 0.35)
    assert _read(look, shown)[(3, 3)][0] == 5
