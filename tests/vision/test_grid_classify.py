"""Robot Master grid, which value: a 4 is told from a 5 by the middle pip, the gap between the
best two values is always between two full-size scores, a middling fit is not trusted over a
value cut off at the window's edge, and a striped table's empty cells are surely empty."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from numpy.lib.stride_tricks import sliding_window_view

from tests.vision.grid_area import DICE_PIPS, learnt_templates, scored_alike
from tests.vision.grid_area import area as _area
from vision import grid
from vision.calibration import Calibration
from vision.grid import geometry, judge
from vision.grid import templates as grid_templates
from vision.synth import random_grid
from vision.synth.scenes import Style, render_grid
from vision.thresholds import section


def _card(value: int, rng: np.random.Generator, dx: int = 0, dy: int = 0) -> np.ndarray:
    """A pip card's grey cell (a ring for 0), a little noise on it."""
    w, h = geometry._cell_size()
    card = np.full((h, w), 215, np.uint8)
    cv2.rectangle(card, (2, 2), (w - 3, h - 3), 120, 1)
    if value == 0:
        cv2.circle(card, (w // 2 + dx, h // 2 + dy), 7, 40, 2)
    for fx, fy in DICE_PIPS[value]:
        x = round(6 + fx * (w - 12)) + dx
        y = round(8 + fy * (h - 16)) + dy
        cv2.circle(card, (x, y), 4, 40, -1)
    noise = rng.normal(0, 3, card.shape)
    return np.asarray(np.clip(card + noise, 0, 255).astype(np.uint8))


@pytest.fixture(scope="module")
def pip_look() -> grid.GridLook:
    """Templates learnt from two cards of each value, pips like dice."""
    templates, values, masks = learnt_templates(_card)
    return grid.GridLook(templates=templates, template_values=values, template_masks=masks,
                         classes=np.zeros(1, np.int64))


def _placed(look: grid.GridLook, window: np.ndarray, value: int) -> tuple[int, int, int]:
    """Where ``value``'s upright mean print fits ``window`` best: (template, y, x)."""
    t = int(np.flatnonzero(look.template_values == value)[0])
    res = cv2.matchTemplate(window, look.templates[t], cv2.TM_CCOEFF_NORMED)
    _, _, _, (x, y) = cv2.minMaxLoc(res)
    return t, y, x


def test_the_middle_pip_tells_a_four_from_a_five_both_ways(pip_look: grid.GridLook) -> None:
    # their templates correlate alike (four pips in common): the pair test must say clearly
    # which it is, and a 4's plain paper where a 5 has its pip counts for the 4
    rng = np.random.default_rng(7)
    needed = float(section("grid")["min_pair_gap"])
    for truth, other in ((4, 5), (5, 4)):
        for shift in (0, 2):
            window = geometry._window(_area({(1, 1): _card(truth, rng, shift, -shift)}), 1, 1)
            th, tw = pip_look.templates.shape[1:]
            views = sliding_window_view(window.astype(np.float32), (th, tw))
            gap = grid_templates._pair_gap(pip_look, views, _placed(pip_look, window, truth),
                                 _placed(pip_look, window, other))
            assert gap >= needed + 0.2, (truth, shift, gap)


def test_the_gap_is_always_between_two_full_size_scores(pip_look: grid.GridLook) -> None:
    # a clear 0 leaves every pip value far behind at half size: the second best is still
    # correlated at full size, never left at -1 (which made any gap look wide)
    rng = np.random.default_rng(8)
    g = _area({(0, c): _card(v, rng) for c, v in enumerate((0, 1, 3, 5))})
    windows = [geometry._window(g, 0, c) for c in range(4)]
    scores = grid.match_windows(pip_look, windows)
    second = np.sort(scores, axis=1)[:, -2]
    assert (second > -1.0).all(), scores


def test_a_middling_fit_is_not_trusted_over_a_value_cut_at_the_edge(
        monkeypatch: pytest.MonkeyPatch, style: Style, calibration: Calibration) -> None:
    # a serif 5 lying low in its window, its print cut: a 3 fits it at 0.78, clearly better
    # than the 5 (0.6, its best placement on the window's edge). Declined; the same fit with
    # nothing cut off is read.
    rng = np.random.default_rng(45)
    cells = random_grid(rng, cards=10)
    image = render_grid(style, cells, rng)
    look = calibration.grid
    scores = [0.55, 0.6, -1.0, 0.78, -1.0, 0.6]
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores, edge=5))
    monkeypatch.setattr(grid_templates, "match_windows", judge.match_windows)
    cut = grid.read_grid(image, look)
    monkeypatch.setattr(judge, "match_windows", scored_alike(scores, edge=None))
    monkeypatch.setattr(grid_templates, "match_windows", judge.match_windows)
    whole = grid.read_grid(image, look)
    cards = [(r, c) for r in range(5) for c in range(5) if cells[r][c] is not None]
    assert all(cut.confidence[r][c] == 0 for r, c in cards)
    assert any(whole.cells[r][c] == 3 and whole.confidence[r][c] > 0 for r, c in cards)
    # a strong fit stands even so
    strong = [0.55, 0.6, -1.0, 0.9, -1.0, 0.6]
    monkeypatch.setattr(judge, "match_windows", scored_alike(strong, edge=5))
    monkeypatch.setattr(grid_templates, "match_windows", judge.match_windows)
    sure = grid.read_grid(image, look)
    assert any(sure.cells[r][c] == 3 and sure.confidence[r][c] > 0 for r, c in cards)


def _striped(h: int = 64, w: int = 48, phase: float = 0.0) -> np.ndarray:
    """A red table with soft wavy stripes: its lighter shades are paler, not just lighter."""
    dark = np.array([40, 44, 128], np.float32)
    light = np.array([74, 76, 152], np.float32)
    y = np.arange(h, dtype=np.float32)[:, None, None]
    x = np.arange(w, dtype=np.float32)[None, :, None]
    t = 0.5 + 0.5 * np.sin((y + 6 * np.sin(x / 9.0)) / 5.0 + phase)
    return np.asarray((dark + (light - dark) * t).astype(np.uint8) * np.ones((1, 1, 1), np.uint8))


def test_a_striped_tables_empty_cells_are_surely_empty_but_a_hand_is_not() -> None:
    table = [_striped(phase=k) for k in range(8)]
    cells = [_striped(phase=0.5), _striped(phase=2.0),
             np.full((64, 48, 3), (120, 150, 210), np.uint8)]  # skin
    card = np.full((64, 48, 3), (225, 228, 230), np.uint8)
    card[28:36, 20:28] = (90, 40, 30)  # a pip
    cells.append(card)
    assert set(grid.surely_empty(cells, [0, 1, 2, 3], table)) == {0, 1}


def test_a_card_of_the_tables_colour_in_a_noisy_picture_is_not_surely_empty() -> None:
    # a cream card on a cream table in a blurred, noisy picture: its thin print passes on
    # colour (nine tenths of the middle is the table's colour) and on texture (the noise is
    # as rough as the print's soft edges), but its ink is darker than nearly all of the table
    rng = np.random.default_rng(2)

    def noisy(printed: bool = False) -> np.ndarray:
        base = np.full((64, 48, 3), (222, 234, 240), np.float32)
        if printed:
            base[17:47, 22:26] = (70, 90, 80)  # a "1", 4 pixels wide
        base = cv2.GaussianBlur(base, (0, 0), 1.5) + rng.normal(0, 14, base.shape)
        return np.asarray(np.clip(base, 0, 255).astype(np.uint8))

    table = [noisy() for _ in range(10)]
    assert set(grid.surely_empty([noisy(), noisy(printed=True)], [0, 1], table)) == {0}


def test_a_hand_next_to_an_arm_over_the_tables_edge_is_not_surely_empty() -> None:
    # a pale pink table; an arm reaches over the area's top-left corner, filling the patches
    # around the top-left cell, and its hand lies on that cell. Compared with its
    # nearest patches (the arm), the hand would look like its own table: patches that do not
    # show the table's colour are no reference
    pink = np.full((64, 48, 3), (215, 205, 235), np.uint8)
    skin = np.full((64, 48, 3), (120, 150, 200), np.uint8)
    table: list[np.ndarray] = []
    at: list[tuple[float, float]] = []
    for k in range(5):  # patches above, below, left and right of the area
        for x, y in ((k + 0.5, -0.8), (k + 0.5, 5.8), (-0.8, k + 0.5), (5.8, k + 0.5)):
            table.append(skin if (y < 0 and x < 3) or (x < 0 and y < 2) else pink)
            at.append((x, y))
    cells = [skin, pink.copy()]
    sure = grid.surely_empty(cells, [0, 1], table, None, np.array(at, np.float32))
    assert set(sure) == {1}
