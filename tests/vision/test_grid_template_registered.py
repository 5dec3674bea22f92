"""Robot Master grid: each value's templates are cut in the frame of its first calibration card,
so the cards of the calibration pictures their own outlines registered come first
(:func:`vision.grid.learning.registered_first`). A picture the cards did not confirm keeps the
markers' area, and markers stuck down off the area's corners put its cards up to a quarter of a
cell off their cells: on other art 14011 (blind gate 10) the first picture's 5 carried its own
edge and the surface beside it into every 5 template, centred 5s fitted them 0.56-0.58 (a 3's
0.66-0.71), and 15 of 20 clean grids declined a 5 and the empty cells beside it."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import area
from vision import grid
from vision.grid import geometry, learning, registration


def _card(value: int, rng: np.random.Generator, dx: int = 0, dy: int = 0,
          turned: bool = False) -> np.ndarray:
    """A cell holding a numeral card on a mottled surface (a few pixels of it each side), the
    card moved ``dx`` across and ``dy`` down, lying turned or not."""
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
    move = np.array([[1, 0, dx], [0, 1, dy]], np.float32)
    on_card = cv2.warpAffine(outline, move, (w, h)) > 127
    cell = np.where(on_card, cv2.warpAffine(card, move, (w, h)).astype(np.float64), surface)
    return np.asarray(np.clip(cell + rng.normal(0, 3, cell.shape), 0, 255).astype(np.uint8))


def _calibration(rng: np.random.Generator) -> tuple[list[np.ndarray], list[grid.Grid]]:
    """Three pictures, every value twice in each, every other card turned. In the first (left
    at the markers' area) every card lies 9 px across and 14 px down off its cell's middle,
    as the first picture's cards lay on 14011; in the other two the cards lie centred."""
    greys, grids = [], []
    for p in range(3):
        cards: dict[tuple[int, int], np.ndarray] = {}
        labels: grid.Grid = [[None] * 5 for _ in range(5)]
        for k, v in enumerate(list(range(6)) * 2):
            r, c = divmod(k, 5)
            dx, dy = (9, 14) if p == 0 else (0, 0)
            cards[(r, c)] = _card(v, rng, dx, dy, bool((k + p) % 2))
            labels[r][c] = v
        greys.append(area(cards))
        grids.append(labels)
    return greys, grids


def test_the_pictures_the_cards_registered_come_first() -> None:
    assert learning.registered_first([True, True, True, True]) == [0, 1, 2, 3]
    assert learning.registered_first([False, True, False, True]) == [1, 3, 0, 2]
    assert learning.registered_first([False, False]) == [0, 1]


def test_a_centred_card_fits_its_values_templates_when_the_first_picture_lay_off() -> None:
    rng = np.random.default_rng(14011)
    greys, grids = _calibration(rng)
    first = learning.registered_first([False, True, True])
    templates, values, masks = grid.learn_templates([greys[i] for i in first],
                                                    [grids[i] for i in first])
    look = grid.GridLook(templates=templates, template_values=values, template_masks=masks)
    # a 3 and a 5 lying a few pixels off their cells' middles, either way up, fit their own
    # value's templates clearly best (learnt in the pictures' own order, every template cut in
    # the first picture's frame, 4 of these 16 fit another value best: 3s as 1, 5s as 0)
    for value in (3, 5):
        for dx, dy in ((-3, 0), (0, 0), (3, 2), (0, -3)):
            for turned in (False, True):
                cell = area({(2, 2): _card(value, rng, dx, dy, turned)})
                scores = grid.match_values(look, geometry._window(cell, 2, 2))
                assert int(np.argmax(scores)) == value
                assert scores[value] >= 0.95
                assert scores[value] - np.sort(scores)[-2] >= 0.1


def test_calibration_learns_the_prints_from_the_registered_pictures_first(
        monkeypatch: pytest.MonkeyPatch, own_grids: list[tuple[np.ndarray, grid.Grid]]) -> None:
    # the first calibration picture's cards do not confirm the area: the prints are learnt
    # from the others first, and from it last
    # (told by the picture, not by the call: calibration registers each picture more than once)
    register = registration.register

    def first_unconfirmed(image: np.ndarray, place: np.ndarray) -> tuple[np.ndarray, bool]:
        out, confirmed = register(image, place)
        return out, confirmed and image is not own_grids[0][0]

    learnt: list[Any] = []

    def learn_templates(greys: list[np.ndarray], grids: list[grid.Grid]) -> Any:
        learnt.append(list(grids))
        return grid.learn_templates(greys, grids)

    monkeypatch.setattr(learning, "register", first_unconfirmed)
    monkeypatch.setattr(learning, "learn_templates", learn_templates)
    assert len(own_grids) >= 2
    learning.learn(own_grids)
    grids = [g for _, g in own_grids]
    assert learnt[0][-1] == grids[0]
    assert learnt[0][0] == grids[1]
