"""Robot Master grid registration: which card boxes agree on one lattice.

The boxes :func:`vision.grid.card_outlines` finds are noisy: cards laid each a little askew, and
boxes in empty cells that snap to a neighbour card's edge or to two cards at once. An affine map
fits any three of them exactly, so a handful agreed on a sheared lattice far off the markers'
area and the whole picture was asked as "astray" (14 of 550 clean grids; read at the markers'
area, 12 of them were right cell for cell). The lattice is now found with a shift, turn and
scale (two boxes a sample) and then given a stretch per axis: the cards' spacing. The boxes here
are those found on other-art set 3501, g002 (offsets in cells from their cells' middles at the
markers' area, which is right there)."""

from __future__ import annotations

import numpy as np
import pytest

from vision import grid
from vision.grid import geometry, registration

# (cell, x offset, y offset) of the boxes strong enough to vote; the picture's seven cards are
# cells 3, 8, 12, 13, 18, 23 and 24, the others are boxes on empty cells beside them
SCATTERED = [(0, -0.42, -0.38), (3, 0.08, 0.06), (7, 0.12, 0.12), (8, -0.17, -0.28),
             (12, 0.42, -0.41), (13, 0.33, -0.41), (17, 0.12, -0.16), (18, -0.04, -0.19),
             (19, -0.12, 0.41), (22, 0.42, 0.0), (23, -0.12, 0.0), (24, -0.12, -0.06)]
IMAGE = np.zeros((720, 1280, 3), np.uint8)  # no print anywhere: the printed re-ask finds none
PLACE = np.array([[1.0, 0.0, -500.0], [0.0, 1.0, -150.0], [0.0, 0.0, 1.0]])  # image -> area


def _middles() -> np.ndarray:
    w, h = geometry._cell_size()
    return np.array([((i % 5 + 0.5) * w, (i // 5 + 0.5) * h) for i in range(25)], np.float64)


def _boxes(monkeypatch: pytest.MonkeyPatch, boxes: list[tuple[int, float, float]],
           stretch: tuple[float, float] = (1.0, 1.0)) -> None:
    """card_outlines finding these boxes in the picture, wherever a pass looks from."""
    w, h = geometry._cell_size()
    middles = _middles()
    at = np.zeros((25, 2))
    strength = np.zeros(25)
    centre = np.array([2.5 * w, 2.5 * h])
    for cell, dx, dy in boxes:
        at[cell] = (middles[cell] - centre) * stretch + centre + (dx * w, dy * h)
        strength[cell] = 60.0
    in_image = at - PLACE[:2, 2]  # PLACE is a shift

    def outlines(image: np.ndarray, place: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray, tuple[int, int]]:
        pts = np.c_[in_image, np.ones(25)] @ place.T
        return pts[:, :2] / pts[:, 2:], strength.copy(), (40, 56)

    monkeypatch.setattr(registration, "card_outlines", outlines)


def _moved(a: np.ndarray, b: np.ndarray) -> float:
    return registration._move(a, b)


def test_scattered_boxes_around_the_markers_area_do_not_lead_it_astray(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _boxes(monkeypatch, SCATTERED)
    out, _, astray = grid.register_checked(IMAGE, PLACE)
    assert not astray
    assert _moved(PLACE, out) < 0.25  # the cards lie about where the markers say


def test_boxes_agreeing_on_a_lattice_far_off_are_still_astray(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # every card 0.6 of a cell to the right: nearer the lattice one column over
    _boxes(monkeypatch, [(c, 0.6, 0.0) for c in (1, 2, 6, 7, 8, 12, 13, 17, 21)])
    out, confirmed, astray = grid.register_checked(IMAGE, PLACE)
    assert astray and not confirmed
    assert np.allclose(out, PLACE)


def test_cards_spaced_wider_than_the_cells_are_all_kept() -> None:
    # cards 5 % farther apart across than the markers' cells, a little askew each: one
    # stretch along x brings every box within the tolerance, a shift, turn and scale alone
    # (one scale for both axes) leaves the outer columns out
    w, _ = geometry._cell_size()
    middles = _middles()
    centre = middles[12]
    rng = np.random.default_rng(3)
    src = (middles - centre) * (1.05, 1.0) + centre + rng.uniform(-0.03, 0.03, (25, 2)) * w
    ok = registration._lattice_consensus(src, middles, 0.1 * w)
    assert ok.all()


def test_one_box_or_none_agrees_on_nothing() -> None:
    middles = _middles()
    assert not registration._lattice_consensus(middles[:1], middles[:1], 4.8).any()
    assert len(registration._lattice_consensus(middles[:0], middles[:0], 4.8)) == 0
