"""Robot Master grid: each value's templates are cut in the frame of its first calibration card,
unless that card lies off where the value's other cards lie (``template_reference_offset``) and
they fit another of them better (``template_reference_gap``): then in the frame of the one they
fit best. A first card lying well off its cell's middle shows its own edge and the surface
beside it in the cell's centre, and every template of its value carried that edge: on other art
11513 (blind gate 7) the 3s of calibration picture 1 lay off their cells (the others fitted the
first 3's frame 0.78, the best one's 0.93), and centred 3s fitted their own value's templates
no better than the others' (0.71-0.75): 9 of 20 clean grids declined, a 3 in each and the
empty cells beside it."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.grid_area import area
from vision import grid
from vision.grid import geometry


def _card(value: int, rng: np.random.Generator, dx: int = 0, turned: bool = False
          ) -> np.ndarray:
    """A cell holding a numeral card on a mottled surface (a few pixels of it each side),
    the card moved ``dx`` pixels across, lying turned or not."""
    w, h = geometry._cell_size()
    blotches = rng.normal(0, 1, (h // 4 + 2, w // 4 + 2))
    surface = cv2.resize(blotches, (w, h), interpolation=cv2.INTER_CUBIC) * 25 + 70
    card: np.ndarray = np.full((h, w), 215, np.uint8)
    cv2.putText(card, str(value), (w // 2 - 9, h // 2 + 9), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                40, 2, cv2.LINE_AA)
    for k in range(value):
        cv2.circle(card, (w // 2 - 10 + 5 * k, h // 2 + 17), 2, 40, -1)
    if turned:
        card = cv2.rotate(card, cv2.ROTATE_180)
    outline: np.ndarray = np.zeros((h, w), np.uint8)
    cv2.rectangle(outline, (3, 3), (w - 4, h - 4), 255, -1)
    move = np.array([[1, 0, dx], [0, 1, 0]], np.float32)
    on_card = cv2.warpAffine(outline, move, (w, h)) > 127
    cell = np.where(on_card, cv2.warpAffine(card, move, (w, h)).astype(np.float64), surface)
    return np.asarray(np.clip(cell + rng.normal(0, 3, cell.shape), 0, 255).astype(np.uint8))


def _calibration(rng: np.random.Generator, dx: int = 14
                 ) -> tuple[list[np.ndarray], list[grid.Grid]]:
    """Three pictures, every value twice in each, every other card turned; the first 3 of
    the first picture lies ``dx`` pixels right of its cell's middle (at 14 its left edge and
    the surface beside it inside the cell's centre), every other card lies centred."""
    greys, grids = [], []
    for p in range(3):
        cards: dict[tuple[int, int], np.ndarray] = {}
        labels: grid.Grid = [[None] * 5 for _ in range(5)]
        for k, v in enumerate(list(range(6)) * 2):
            r, c = divmod(k, 5)
            cards[(r, c)] = _card(v, rng, dx if (p, k) == (0, 3) else 0, bool((k + p) % 2))
            labels[r][c] = v
        greys.append(area(cards))
        grids.append(labels)
    return greys, grids


def test_a_centred_card_fits_its_values_templates_when_the_first_lay_off() -> None:
    rng = np.random.default_rng(41)
    templates, values, masks = grid.learn_templates(*_calibration(rng))
    look = grid.GridLook(templates=templates, template_values=values, template_masks=masks)
    # the 3's mean print and the card it was cut from (stored first, each followed by its
    # turned copy) show no card's edge: their darkest column is paper and print, not the
    # surface beside the card (before: the first 3's frame, the surface down one side)
    for t in templates[values == 3][:4]:
        assert t.astype(np.float32).mean(axis=0).min() > 140
    # and a 3 a few pixels off its cell's middle either way, either way up, fits its own
    # value's templates clearly best (before: 0.80-0.81 where it lay 4-6 px off, the 5's
    # templates 0.79, too close to read)
    for dx in (-6, -4, 0, 4, 6):
        for turned in (False, True):
            three = geometry._window(area({(2, 2): _card(3, rng, dx, turned)}), 2, 2)
            scores = grid.match_values(look, three)
            assert int(np.argmax(scores)) == 3
            assert scores[3] >= 0.95
            assert scores[3] - np.sort(scores)[-2] >= 0.1


def test_a_first_card_the_others_fit_is_kept() -> None:
    # every card lying centred: the first card's frame is kept (the templates are those
    # learnt before the gap was asked)
    rng = np.random.default_rng(42)
    greys, grids = [], []
    for p in range(3):
        cards = {divmod(k, 5): _card(v, rng, 0, bool((k + p) % 2))
                 for k, v in enumerate(list(range(6)) * 2)}
        greys.append(area(cards))
        grids.append([[None] * 5 for _ in range(5)])
        for (r, c), v in zip(cards, list(range(6)) * 2, strict=True):
            grids[-1][r][c] = v
    first = geometry._template(greys[0], 0, 3)
    templates, values, _ = grid.learn_templates(greys, grids)
    singles = templates[values == 3][2::2]  # each value: mean, turned, single, turned, ...
    assert np.array_equal(singles[0], first)


def test_a_first_card_lying_in_place_is_kept_however_it_fits() -> None:
    # the first 3 lies centred but half in a shadow (own art 12146: the first 1 of its first
    # picture lay in a shadow; the others fitted its frame 0.82, the best one's 0.93,
    # yet it lay within a pixel of where they lay): its frame shows no edge and is kept. Cut
    # in another frame, the 1's templates changed the mask every value is compared through,
    # and a clean 2 went from declined to read as 3 (g005)
    rng = np.random.default_rng(43)
    greys, grids = _calibration(rng, dx=0)
    w, h = geometry._cell_size()
    y, x = grid.MARGIN, grid.MARGIN + 3 * w
    shade = np.linspace(0.35, 1.0, w)[None, :]
    cell = greys[0][y:y + h, x:x + w].astype(np.float64) * shade
    greys[0][y:y + h, x:x + w] = np.clip(cell, 0, 255).astype(np.uint8)
    first = geometry._template(greys[0], 0, 3)
    templates, values, _ = grid.learn_templates(greys, grids)
    singles = templates[values == 3][2::2]
    assert np.array_equal(singles[0], first)
