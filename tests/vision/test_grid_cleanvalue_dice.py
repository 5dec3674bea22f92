"""Robot Master grid, a close call on cards whose print looks the same either way up (dice pips
with nothing else on the card): the card cannot say which way up it lies, but the print does
not need it to. Each value's print is laid both ways, and the pairwise step reads only when
every way that fits the card names the same value (own art 10703: five clean grids declined
over 5/4 and 3/2 close calls that the pips settle)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from tests.vision.grid_area import DICE_PIPS, dice_pictures, print_look, scored_alike
from tests.vision.grid_area import area as _area
from vision import grid
from vision.grid import geometry, judge, pairs, templates
from vision.thresholds import section


def _card(value: int, rng: np.random.Generator, dx: int = 0, dy: int = 0,
          turned: bool = False) -> np.ndarray:
    """A card of ``value`` in its cell, moved by (dx, dy), lying turned or not: a border and
    its pips, which lie 3 pixels below the card's middle (so a turned card's pips lie above
    it, as own art 10703's do: where the print lies on its card matters, its way up does
    not)."""
    w, h = geometry._cell_size()
    card: np.ndarray = np.full((h, w), 215, np.uint8)
    cv2.rectangle(card, (2, 2), (w - 3, h - 3), 120, 1)
    if value == 0:
        cv2.circle(card, (w // 2, h // 2 + 3), 7, 40, 2)
    for fx, fy in DICE_PIPS[value]:
        cv2.circle(card, (round(8 + fx * (w - 16)), round(19 + fy * (h - 32))), 4, 40, -1)
    if turned:
        card = cv2.rotate(card, cv2.ROTATE_180)
    card = cv2.warpAffine(card, np.array([[1, 0, dx], [0, 1, dy]], np.float32), (w, h),
                          borderMode=cv2.BORDER_CONSTANT, borderValue=90)
    return np.asarray(np.clip(card + rng.normal(0, 3, card.shape), 0, 255).astype(np.uint8))


@pytest.fixture(scope="module")
def dice_look() -> grid.GridLook:
    # three calibration pictures, every value twice in each, cards a pixel or two off and
    # every other one turned
    greys, grids = dice_pictures(_card, np.random.default_rng(31))
    # every cell is nearest to a calibration card of value 3: only the prints decide below
    return print_look(greys, grids, 3)


def test_dice_prints_have_no_way_up_and_the_card_does_not_tell_it(
        dice_look: grid.GridLook) -> None:
    rng = np.random.default_rng(32)
    three = geometry._window(_area({(2, 2): _card(3, rng)}), 2, 2)
    for v in (3, 4, 5):
        assert pairs._no_way_up(dice_look, v)
        assert pairs._lies_turned(dice_look, three, v) is None


def test_a_dice_close_call_is_scored_every_way_up(dice_look: grid.GridLook) -> None:
    # before: the card did not say which way up it lay, so the step gave no score (NaN)
    rng = np.random.default_rng(33)
    for dx, dy, turned in ((0, 0, False), (0, 0, True), (2, -1, False), (-2, 2, True)):
        three = geometry._window(_area({(2, 2): _card(3, rng, dx, dy, turned)}), 2, 2)
        five = geometry._window(_area({(2, 2): _card(5, rng, dx, dy, turned)}), 2, 2)
        four = geometry._window(_area({(2, 2): _card(4, rng, dx, dy, turned)}), 2, 2)
        assert grid.pair_score(dice_look, three, 3, 5) >= 0.3
        assert grid.pair_score(dice_look, five, 3, 5) <= -0.3
        assert grid.pair_score(dice_look, five, 5, 4) >= 0.3
        assert grid.pair_score(dice_look, four, 5, 4) <= -0.3


def test_the_floors_are_learnt_for_dice_cards(dice_look: grid.GridLook) -> None:
    # calibration's own cards are scored the same way: their floors are learnt (before: none
    # at all, and a calibration with no floor never reads pairwise)
    floor = dice_look.pair_floor
    assert np.isfinite(floor[3, 5]) and np.isfinite(floor[5, 3])
    assert floor[3, 5] < 0 and floor[5, 3] < 0


def test_a_dice_close_call_is_read_the_way_the_pips_say(
        dice_look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    # the templates put 3 a hair ahead of 5 on every card (under every gap) and the nearest
    # calibration card says 3: the 3s are read, the 5s (their pips say 5 against the nearest
    # card and the templates) are not read as 3
    scores = [-1.0, -1.0, -1.0, 0.86, -1.0, 0.85]
    assert scores[3] - scores[5] < float(section("grid")["min_gap_agreed"])
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores))
    monkeypatch.setattr(templates, "match_windows", judge.match_windows)
    rng = np.random.default_rng(34)
    for turned in (False, True):
        g = _area({(0, c): _card(v, rng, turned=turned) for c, v in enumerate([3, 5, 3, 5])})
        windows = [geometry._window(g, 0, c) for c in range(4)]
        values, _, _ = grid.classify(dice_look, np.zeros((4, 4), np.float32), windows=windows)
        assert values == [3, None, 3, None]


def test_ways_up_that_disagree_give_nothing_either_way(
        dice_look: grid.GridLook, monkeypatch: pytest.MonkeyPatch) -> None:
    # own art 9901 g005: a 3 said 3 by 0.38 laid one way and 5 by 0.32 the other. The score
    # is the one nearest nothing: 0 when the ways name different values, so neither the best
    # value nor the second is read; ways whose prints do not fit the card (NaN) do not count
    window = geometry._window(_area({(0, 0): _card(3, np.random.default_rng(35))}), 0, 0)
    for ways, expected in (({(False, False): 0.38, (True, True): -0.32}, 0.0),
                           ({(False, False): 0.38, (True, True): 0.31}, 0.31),
                           ({(False, False): -0.45, (True, True): -0.36}, -0.36),
                           ({(False, False): 0.4, (True, True): float("nan")}, 0.4)):
        def laid(look: grid.GridLook, win: np.ndarray, a: int, b: int,
                 way: tuple[bool, bool] | None = None, table: dict = ways) -> float:
            return table.get(way, float("nan")) if way is not None else float("nan")

        monkeypatch.setattr(judge, "pair_score", laid)
        monkeypatch.setattr(pairs, "pair_score", judge.pair_score)
        assert pairs._pair_score_any_way_up(dice_look, window, 3, 5, None, None) == expected
    # a print with a way up (not the same turned) that the card does not tell: no score
    monkeypatch.undo()
    monkeypatch.setitem(section("grid"), "pair_symmetric_fit", 1.01)
    fresh = dataclasses.replace(dice_look)  # (no cached way up)
    assert np.isnan(grid.pair_score(fresh, window, 3, 5))
